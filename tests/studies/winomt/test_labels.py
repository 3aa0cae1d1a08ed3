"""The agreement computation of the issue-36 readers with blind labels (stats_mtbias.studies.winomt.labels)."""

import numpy as np
import pytest

from stats_mtbias.errors import DataError
from stats_mtbias.studies.winomt.labels import agreement_table, read_labels


def _labels(tmp_path):
    path = tmp_path / "labels_pt.csv"
    rows = ["language,system,item,annotator,gender,found,evidence"]
    human = ["M"] * 40 + ["F"] * 40 + ["N"] * 15 + ["B"] * 5
    rows += [f"pt,{'google' if i % 2 else 'llm-a'},{i},a1,{g},Y,o médico" for i, g in enumerate(human)]
    rows.append("pt,google,101,a1,,N,")  # the labeller did not find the entity
    path.write_text("\n".join(rows) + "\n", "utf-8")
    return path


def test_read_labels_maps_letters_and_unfound_entities(tmp_path):
    labels = read_labels(_labels(tmp_path))
    assert labels["human"].value_counts().to_dict() == {"male": 40, "female": 40, "neutral": 15, "both": 5, "unknown": 1}
    bad = tmp_path / "labels_nl.csv"
    bad.write_text("language,system,item,annotator,gender,found,evidence\nnl,google,1,a,X,Y,\n", "utf-8")
    with pytest.raises(DataError, match="gender 'X' is not one of M, F, N, B"):
        read_labels(bad)


def test_agreement_per_language_and_system_with_wilson_and_kappa(tmp_path):
    labels = read_labels(_labels(tmp_path))
    auto = labels["human"].to_numpy(dtype=object).copy()
    auto[[0, 2, 4, 6, 8]] = "female"  # five disagreements, all on llm-a's items (even indices)
    readings = labels[["language", "system", "item"]].assign(gender=auto)
    table = agreement_table(labels, readings)
    overall = table[(table["system"] == "")].iloc[0]
    assert overall["n"] == 101 and overall["agreement"] == pytest.approx(96 / 101)
    assert overall["ci_low"] < overall["agreement"] < overall["ci_high"] < 1
    assert overall["kappa_low"] < overall["kappa"] < overall["kappa_high"]
    per_system = table[table["system"] != ""].set_index("system")
    assert per_system.loc["google", "agreement"] == 1.0 and per_system.loc["llm-a", "n"] == 50
    assert per_system.loc["llm-a", "agreement"] == pytest.approx(45 / 50)
    # A labelled item without a reading is an error, not a disagreement.
    with pytest.raises(DataError, match="labelled but not read"):
        agreement_table(labels, readings.iloc[1:])
    assert np.isfinite(table["kappa"]).all()


# Each language's agreement with the blind labels (data/validation/labels_<language>.csv) that the readers reach
# (docs/studies/winomt.md, "The readers"): a regression fails. Recomputed from the stored labels and translations.
FLOORS = {"pt": 0.991, "nl": 0.991, "cs": 0.958, "pl": 1.0}


def test_agreement_with_the_stored_blind_labels(data_dir, monkeypatch):
    import importlib.util
    from pathlib import Path

    import pandas as pd

    pytest.importorskip("thot")
    pytest.importorskip("cs_core_news_sm")
    pytest.importorskip("morfeusz2")
    monkeypatch.setenv("MTBIAS_DATA", str(data_dir))
    root = Path(__file__).resolve().parents[3]
    spec = importlib.util.spec_from_file_location("agreement_new_readers", root / "tools/agreement_new_readers.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    folder = root / "data/validation"
    labels = read_labels(sorted(folder.glob("labels_*.csv")))
    llm = pd.read_csv(folder / "translations_llm.csv", dtype={"translation": str}, keep_default_na=False)
    table = agreement_table(labels, tool.readings(pd.read_csv(folder / "sample.csv"), llm))
    overall = table[table["system"] == ""].set_index("language")
    assert overall["n"].to_dict() == dict.fromkeys(FLOORS, 240)  # 120 translations, two annotators each
    for language, floor in FLOORS.items():
        assert overall.loc[language, "agreement"] >= floor, (language, overall.loc[language, "agreement"])
    assert (table["ci_low"] <= table["agreement"]).all() and (table["agreement"] <= table["ci_high"]).all()

"""WinoMT validation: labels attributed to their system, readings against native speakers and annotators."""

import importlib.util

import numpy as np
import pandas as pd
import pytest

from stats_mtbias.datasets import winomt as data

# The aligner (thot) is optional: the tests that read through it skip without it, the others still run.
needs_thot = pytest.mark.skipif(importlib.util.find_spec("thot") is None, reason="thot (the aligner) is not installed")


def test_labels_are_attributed_to_the_system_that_produced_them(data_dir):
    from stats_mtbias.datasets.registry import open_store
    from stats_mtbias.studies.winomt.validation import attribute_pairs

    store = open_store(data_dir)
    items = data.read_items(store)
    google = data.read_translations(store.path("winomt/translations/google/en-es.txt"), items)
    aws = data.read_translations(store.path("winomt/translations/aws/en-es.txt"), items)
    ok = (google["reason"] == "") & (aws["reason"] == "") & (google["translation"] != aws["translation"])
    g_rows, a_rows = google[ok].iloc[:10], aws[ok].iloc[10:11]
    pairs = pd.concat([g_rows, a_rows])[["item", "translation"]].assign(language="es", file="mine.es.csv")
    out = attribute_pairs(store, items, pairs)
    # 10 of 11 (91%) are google's: the file is google's sample; the one aws sentence corrects nobody.
    assert out["system"].tolist() == ["google"] * 10 + [""]
    # Below 90% no system accounts for the file: nothing is attributed.
    half = pd.concat([g_rows.iloc[:5], aws[ok].iloc[10:15]])[["item", "translation"]].assign(language="es", file="f")
    assert set(attribute_pairs(store, items, half)["system"]) == {""}


# -----------------------------------------------------------------------------
# Target-language gender readers on hand-written sentences; alignment; validation against people.


@needs_thot
def test_validation_against_native_speakers(data_dir):
    """Agreement with the human labels (regression floors of the current readers; the target is 0.85)."""
    from stats_mtbias.datasets import winomt
    from stats_mtbias.datasets.registry import open_store
    from stats_mtbias.studies.winomt.validation import validate

    store = open_store(data_dir)
    items = winomt.read_items(store)
    folder = data_dir / "winomt/data/human_annotations"
    spanish = validate(store, folder / "es.in__es.in.csv", items)
    assert spanish["n_labelled"] == 99 and spanish["agreement"] >= 0.85
    assert spanish["ci_low"] < spanish["agreement"] < spanish["ci_high"] and 0.5 < spanish["kappa"] <= 1
    assert int(spanish["confusion"].to_numpy().sum()) == 99
    assert spanish["agreement"] >= 0.95  # alguien is neutral to the annotator and to the reader
    floors = {
        "aws.de.in__de.in.csv": 0.59,
        "fr.in__fr.in.csv": 0.75,
        "ru.google__ru.in.csv": 0.9,
        "uk.google.gold__uk.in.csv": 0.95,
        "aws.ar.in__ar.in.csv": 0.9,
        "he.in.csv__he.in.csv": 0.95,
        "google.it.in__it.in.csv": 0.85,
        "google.it.in.2__it.in.csv": 0.79,
    }
    results = {name: validate(store, folder / name, items) for name in floors}
    for name, floor in floors.items():
        assert results[name]["agreement"] >= floor, name
    # Conflicts (entity and translated pronoun of opposite genders): the German and French annotators mostly
    # labelled the pronoun, the Russian and Ukrainian ones the entity, as the metric does.
    for name in ("aws.de.in__de.in.csv", "fr.in__fr.in.csv"):
        r = results[name]
        assert r["n_conflict"] >= 10 and r["n_conflict_pronoun"] / r["n_conflict"] > 0.6, name
    for name in ("ru.google__ru.in.csv", "uk.google.gold__uk.in.csv"):
        r = results[name]
        assert r["n_conflict"] >= 30 and r["n_conflict_pronoun"] / r["n_conflict"] < 0.1, name
    # German by case (issue 17): "des Sheriffs", "dem Landwirt" now read masculine. Where the annotator followed
    # the pronoun that costs overall agreement (.606 -> .596, one item); outside the conflicts it rose .722 -> .778.
    assert results["aws.de.in__de.in.csv"]["agreement_outside"] >= 0.77
    french = results["fr.in__fr.in.csv"]
    assert french["agreement_outside"] >= 0.85 and french["ci_low_outside"] < french["agreement_outside"]
    pairs = french["pairs"]
    conflict = pairs["automatic"].isin(["male", "female"]) & pairs["pronoun"].isin(["male", "female"])
    assert int((conflict & (pairs["automatic"] != pairs["pronoun"])).sum()) == french["n_conflict"]
    # German annotators read the pronoun: letting it decide raises agreement (an option, off by default).
    german = validate(store, folder / "aws.de.in__de.in.csv", items, use_pronoun=True)
    assert german["agreement"] >= results["aws.de.in__de.in.csv"]["agreement"] + 0.1
    unlabelled = validate(store, folder / "Italian__it.in.csv", items)
    assert unlabelled["n_labelled"] == 0 and np.isnan(unlabelled["agreement"])


@needs_thot
def test_two_annotators_of_the_same_translations(data_dir):
    from stats_mtbias.datasets import winomt
    from stats_mtbias.datasets.registry import open_store
    from stats_mtbias.datasets.winomt import annotation_rows
    from stats_mtbias.studies.winomt.validation import inter_annotator

    store = open_store(data_dir)
    items = winomt.read_items(store)
    table = inter_annotator(store, items)
    # The two Italian annotators of Google's translations (it.in.2 is shipped twice, so twice); the French and
    # Russian files that repeat one annotation are not pairs of annotators.
    assert set(table["language"]) == {"it"} and len(table) == 2
    folder = "winomt/data/human_annotations/"
    a = {(i, t): lab for i, t, lab in annotation_rows(store.path(folder + "google.it.in__it.in.csv"), items)[1]}
    b = {(i, t): lab for i, t, lab in annotation_rows(store.path(folder + "google.it.in.2__it.in.csv"), items)[1]}
    common = set(a) & set(b)
    row = table.iloc[0]
    assert row["n_common"] == len(common) == 98
    assert row["agreement"] == pytest.approx(sum(a[k] == b[k] for k in common) / 98)
    assert 0.8 < row["agreement"] < 0.9 and row["ci_low"] < row["agreement"] < row["ci_high"]


@needs_thot
def test_validation_names_a_bad_index(tmp_path, data_dir):
    import pandas as pd

    from stats_mtbias.datasets.registry import open_store
    from stats_mtbias.errors import DataError
    from stats_mtbias.studies.winomt.validation import validate

    items = pd.DataFrame({"item": [0, 1], "sentence": ["The doctor ran.", "The nurse sang."], "entity_index": [1, 1]})
    bad = tmp_path / "es.in__es.in.csv"
    bad.write_text(
        "Index,Entity,Sentence,Find entity? [Y/N],Gender? [M/F/N],Comments\n1,the nurse,La enfermera cantó.,Y,F,\n7,x,y,Y,M,\n",
        "utf-8",
    )
    with pytest.raises(DataError, match=r"es\.in__es\.in\.csv, line 3: Index 7 is not a line of en\.txt"):
        validate(open_store(data_dir), bad, items)

"""Your own benchmark (issue 33): TGBI on your own sets, integrity warnings, nothing pooled or accepted silently."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import stats_mtbias as smb
from stats_mtbias.errors import DataError, DataQualityWarning, UsageError

TEXT = {"female": "She is tired.", "male": "He is tired.", "neutral": "They are tired."}


def _benchmark(seed=1, systems=(("a", 0.3), ("b", 0.1)), sets=("polite_hi", "impolite_winf", "occupation"), n=40):
    rng = np.random.default_rng(seed)
    rows = []
    for system, p_female in systems:
        for name in sets:
            for i in range(n):
                gender = rng.choice(["female", "male", "neutral"], p=[p_female, 0.85 - p_female, 0.15])
                rows.append((system, name, f"w{i}", TEXT[gender], gender))
    return pd.DataFrame(rows, columns=["system", "set", "item", "translation", "gender"])


def _p_s(frame: pd.DataFrame) -> float:
    shares = frame["gender"].value_counts(normalize=True)
    return float(np.sqrt(shares.get("female", 0) * shares.get("male", 0) + shares.get("neutral", 0)))


def test_tgbi_on_own_sets_by_hand_with_any_set_names():
    bench = _benchmark()
    res = smb.tgbi(outputs=bench.drop(columns="gender").assign(language="hi"), n_boot=200)
    p_s = res.table[res.table["metric"] == "p_s"].set_index(["system", "subset"])
    for (system, name), part in bench.groupby(["system", "set"]):
        assert p_s.loc[(system, name), "estimate"] == pytest.approx(_p_s(part))
        assert p_s.loc[(system, name), "n"] == 40 and p_s.loc[(system, name), "ci_low"] < p_s.loc[(system, name), "ci_high"]
    # The index: the unweighted mean of the user's sets.
    for system in ("a", "b"):
        sets = [_p_s(part) for _, part in bench[bench["system"] == system].groupby("set")]
        assert p_s.loc[(system, "TGBI"), "estimate"] == pytest.approx(np.mean(sets))
    assert set(res.table["language"]) == {"hi"} and list(dict.fromkeys(res.table["subset"]))[:3] == [
        "polite_hi",
        "impolite_winf",
        "occupation",
    ]
    cmp = res.compare()
    assert len(cmp) == 4 and set(cmp["subset"]) == {"polite_hi", "impolite_winf", "occupation", "TGBI"}
    assert (cmp["n"] == 40).all() and cmp["family"].str.contains("1 comparisons").all()
    # Already-read genders give the same numbers as the English outputs read by the package.
    given = smb.tgbi(outputs=bench.drop(columns="translation").assign(language="hi"), n_boot=200)
    pd.testing.assert_frame_equal(given.table, res.table)


def test_own_benchmark_refuses_what_it_cannot_read(tmp_path):
    bench = _benchmark().drop(columns="gender")
    with pytest.raises(UsageError, match="cannot be mixed with the shipped"):
        smb.tgbi(["google"], outputs=bench)
    path = tmp_path / "mine.csv"
    bench.iloc[:3].to_csv(path, index=False)
    with open(path, "a", encoding="utf-8") as f:
        f.write("a,polite_hi,w0,He is here.\n")
    with pytest.raises(DataError, match=r"mine\.csv, line 5: a/polite_hi/w0 was already given on line 2 \(several outputs"):
        smb.tgbi(outputs=path)
    bad = bench.drop(columns="translation").assign(gender="mail")
    with pytest.raises(DataError, match="line 2: gender 'mail' is not one of"):
        smb.tgbi(outputs=bad)


def test_integrity_warnings_name_copies_unequal_sets_and_blank_outputs():
    bench = _benchmark(systems=(("a", 0.3), ("b", 0.1), ("copy", 0.3))).drop(columns="gender")
    bench.loc[bench["system"] == "copy", "translation"] = bench.loc[bench["system"] == "a", "translation"].to_numpy()
    bench = bench[~((bench["system"] == "b") & (bench["set"] == "occupation") & (bench["item"] == "w39"))]
    bench.loc[bench.index[5], "translation"] = ""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = smb.tgbi(outputs=bench, n_boot=200)
    messages = [str(w.message) for w in caught if issubclass(w.category, DataQualityWarning)]
    assert any("systems a" in m and "copy" in m and "same output on" in m for m in messages)
    assert any("occupation: the systems have different numbers of items (a 40, b 39, copy 40)" in m for m in messages)
    assert any(m.startswith("a (") and "1 blank output(s) (lines 7)" in m for m in messages)
    assert all(m in res.notes for m in messages)  # and in the result's notes, for the report


def test_prates_and_rates_warn_of_copied_systems(data_dir):  # prates reads its occupation list
    frame = pd.DataFrame(
        {"item": list(range(50)) * 2, "language": "tr", "system": ["a"] * 50 + ["b"] * 50, "gender": ["male", "female"] * 50}
    )
    with pytest.warns(DataQualityWarning, match="systems a .* and b .* same output on 100.0%"):
        smb.prates(frame, rng=0, n_boot=200)
    with pytest.warns(DataQualityWarning, match="systems a .* and b .* same output on 100.0% of the 50 clusters"):
        smb.rates(frame, n_boot=200)


def test_read_gives_the_table_each_study_takes(tmp_path, data_dir):
    # TGBI: reading then analysing the reading equals analysing the outputs (the reading is the judgement table).
    bench = _benchmark().drop(columns="gender")
    read = smb.read("tgbi", bench)
    assert list(read.columns) == ["system", "set", "item", "sample", "translation", "gender", "reason"]
    assert (read["gender"].to_numpy() == _benchmark()["gender"].to_numpy()).all()
    again = smb.tgbi(outputs=read, n_boot=200)
    pd.testing.assert_frame_equal(again.table, smb.tgbi(outputs=bench, n_boot=200).table)
    # Prates: the authors' rule; the read table goes back in as judgements.
    frame = pd.DataFrame(
        {"item": ["nurse", "welder", "clerk"], "language": "fi", "translation": ["She is a nurse.", "He welds.", "Clerk."]}
    )
    read = smb.read("prates", frame)
    assert read["gender"].tolist() == ["female", "male", "unknown"] and read["reason"].tolist()[2] == "no_pronoun"
    back = smb.prates(read.drop(columns="translation"), rng=0)
    pd.testing.assert_frame_equal(back.table, smb.prates(frame, rng=0).table)
    # WinoMT: a user's translations read item by item, with the target words read; analysing the reading
    # gives the numbers of analysing the translations.
    from stats_mtbias.datasets.registry import open_store

    shipped = open_store(data_dir).path("winomt/translations/google/en-es.txt")
    read = smb.read("winomt", shipped, name="mine", data_dir=data_dir)
    assert len(read) == 3886 and {"aligned", "why"} <= set(read.columns)  # the file translates 3,886 items
    assert (read.loc[read["gender"] == "unknown", "reason"] != "").all()
    from_reading = smb.winomt(judgements=read, n_boot=200, data_dir=data_dir)
    from_text = smb.winomt(translations={"mine": shipped}, n_boot=200, data_dir=data_dir, adjectives=False)
    pd.testing.assert_frame_equal(from_reading.table, from_text.table)


def test_own_sets_named_like_cho_et_al_s_are_the_benchmark_s_only():
    """Own sets called formal/informal are those two (Cho et al.'s order), not the seven with five empty."""
    bench = _benchmark(sets=("formal", "informal"))
    res = smb.tgbi(outputs=bench.drop(columns="gender"), n_boot=200)
    p_s = res.table[res.table["metric"] == "p_s"]
    assert list(dict.fromkeys(p_s["subset"])) == ["informal", "formal", "TGBI"] and (p_s["n"] == 40).all()
    for system, part in p_s.groupby("system"):
        sets = part.set_index("subset")["estimate"]
        assert sets["TGBI"] == pytest.approx((sets["formal"] + sets["informal"]) / 2), system

"""The TGBI reader's counting (:mod:`stats_mtbias.datasets.tgbi`) on a miniature corpus built here.

The corpus has Cho et al.'s layout with 2 occupations, 1 negative and 1 positive phrase (16 sentences), so
every line number, lexicon item and reason can be written down by hand. No dataset is read.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from stats_mtbias.datasets import tgbi
from stats_mtbias.datasets.registry import DataStore
from stats_mtbias.errors import DataError, DataQualityWarning

pytestmark = pytest.mark.filterwarnings("ignore::stats_mtbias.errors.ChecksumWarning")  # the corpus is ours

ITEMS = {"occupation": ["doctor", "nurse"], "negative": ["rude"], "positive": ["kind"]}
STYLE_WORD = {"inf_imp": "IA", "inf_p": "IB", "f_imp": "FA", "f_p": "FB"}


def _sentence(content: str, item: str, style: str) -> str:
    return f"{STYLE_WORD[style]} {item}"


def _set_sources(sset: tgbi.SentenceSet) -> list[str]:
    return [_sentence(c, item, tgbi._STYLE_CODE[style]) for c, style in sset.parts for item in ITEMS[c]]


@pytest.fixture
def store(tmp_path: Path) -> DataStore:
    corpus = tmp_path / tgbi.CORPUS
    corpus.mkdir(parents=True)
    for content, items in ITEMS.items():
        for style in tgbi.STYLES:
            code = tgbi._STYLE_CODE[style]
            lines = [_sentence(content, item, code) for item in items]
            (corpus / f"{tgbi._CONTENT_FILE[content]}_{code}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    for sset in tgbi.SETS:
        (corpus / f"total_{sset.source_file}.txt").write_text("\n".join(_set_sources(sset)) + "\n", encoding="utf-8")
    return DataStore(tmp_path, "data_dir", download=False)


def _write_outputs(store: DataStore, system: str, change=None) -> None:
    """Outputs that copy their source, uppercased; `change(code, lines)` may edit a set's lines."""
    for sset in tgbi.SETS:
        lines = [s.upper() for s in _set_sources(sset)]
        if change is not None:
            lines = change(sset.code, lines)
        (store.root / tgbi.CORPUS / f"total_{system}_{sset.code}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_set_names_and_layout():
    """The seven sets in the paper's order; a style set holds its two styles of every content (6 blocks), a
    content set its four styles; aliases by name and code, case and spaces ignored."""
    assert tgbi.SET_NAMES == ("informal", "formal", "impolite", "polite", "negative", "positive", "occupation")
    # The authors' file names: total_<source_file>.txt for the sources, total_<system>_<code>.txt for the outputs.
    assert [s.source_file for s in tgbi.SETS] == ["informal", "formal", "impolite", "polite", "neg", "pos", "job"]
    assert [s.code for s in tgbi.SETS] == ["inf", "f", "imp", "p", "neg", "pos", "job"]
    informal = tgbi.SETS[0]
    assert len(informal.parts) == 6 and {s for _, s in informal.parts} == {tgbi.STYLES[0], tgbi.STYLES[1]}
    assert [c for c, _ in informal.parts] == ["occupation"] * 2 + ["negative"] * 2 + ["positive"] * 2
    polite = tgbi.SETS[3]
    assert {s for _, s in polite.parts} == {("informal", "polite"), ("formal", "polite")}
    assert tgbi.SETS[6].parts == tuple(("occupation", s) for s in tgbi.STYLES)
    assert tgbi.set_name(" INF ") == "informal" and tgbi.set_name("job") == "occupation"
    assert tgbi.set_name("imp") == "impolite" and tgbi.set_name("pos") == "positive" and tgbi.set_name("x") is None


def test_read_sentences_numbers_lines_items_and_sentences(store):
    """16 sentences: sentence ids run over content × style in file order, lexicon items over contents
    (occupations 0–1, negative 2, positive 3); each set's lines are 1-based in its file's order."""
    frame = tgbi.read_sentences(store)
    sizes = frame.groupby("subset", sort=False).size().to_dict()
    assert sizes == {
        "informal": 8,
        "formal": 8,
        "impolite": 8,
        "polite": 8,
        "negative": 4,
        "positive": 4,
        "occupation": 8,
    }
    occupation = frame[frame["subset"] == "occupation"]
    assert occupation["line"].tolist() == list(range(1, 9))
    assert occupation["lexicon_item"].tolist() == [0, 1] * 4
    assert occupation["sentence"].tolist() == list(range(8))
    negative = frame[frame["subset"] == "negative"]
    assert negative["lexicon_item"].tolist() == [2] * 4 and negative["sentence"].tolist() == [8, 9, 10, 11]
    informal = frame[frame["subset"] == "informal"]
    assert informal["lexicon_item"].tolist() == [0, 1, 0, 1, 2, 2, 3, 3]
    assert informal["pronoun"].unique().tolist() == ["informal"]
    assert informal["politeness"].tolist() == ["impolite", "impolite", "polite", "polite"] + ["impolite", "polite"] * 2
    assert informal["source"].tolist()[:3] == ["IA doctor", "IA nurse", "IB doctor"]
    assert frame["sentence"].nunique() == 16 and frame["lexicon_item"].nunique() == 4


def test_read_sentences_names_the_first_line_that_differs(store):
    path = store.root / tgbi.CORPUS / "total_neg.txt"
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[2] = "something else"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(DataError, match="differs from the concatenation") as info:
        tgbi.read_sentences(store)
    assert "3" in str(info.value)
    path.write_text("\n".join(lines[:3]) + "\n", encoding="utf-8")
    with pytest.raises(DataError, match="has 3 lines, but the concatenation of its 4 style files has 4"):
        tgbi.read_sentences(store)


def test_read_sentences_needs_style_files_of_one_length(store):
    (store.root / tgbi.CORPUS / "job_f_p.txt").write_text("FB doctor\n", encoding="utf-8")
    with pytest.raises(DataError, match="has 1 lines, but the other occupation style files have 2"):
        tgbi.read_sentences(store)


def test_read_outputs_marks_empty_and_broken_lines(store):
    """One row per (system, set, line): an empty line is ``empty``, a literal None ``broken``, trailing blank
    lines are dropped, and a file one line short is an error naming its source."""

    def change(code, lines):
        if code == "neg":
            lines[1], lines[3] = "", "None"
        return lines + ([""] * 2 if code == "pos" else [])

    _write_outputs(store, "google", change)
    frame = tgbi.read_outputs(["google"], store)
    assert len(frame) == 48 and set(frame["system"]) == {"google"}
    neg = frame[frame["subset"] == "negative"]
    assert neg["reason"].tolist() == ["", "empty", "", "broken"]
    assert (frame.loc[frame["subset"] != "negative", "reason"] == "").all()
    assert frame["origin"].iloc[0] == f"{tgbi.CORPUS}/total_google_inf.txt"
    occupation = frame[frame["subset"] == "occupation"]
    assert occupation["translation"].tolist()[:2] == ["IA DOCTOR", "IA NURSE"]

    _write_outputs(store, "kakao", lambda code, lines: lines[:-1] if code == "job" else lines)
    with pytest.raises(DataError, match="has 7 lines, but its source set"):
        tgbi.read_outputs(["kakao"], store)
    with pytest.raises(DataError, match="unknown TGBI system 'mine'"):
        tgbi.read_outputs(["mine"], store)


def test_user_csv_counts_missing_items_and_rejects_bad_rows(store, tmp_path):
    """A CSV of ``item, set, translation``: a sentence without a row is ``missing``; an unknown set, an item
    outside its set and a repeated item are errors naming the line."""
    path = tmp_path / "mine.csv"
    path.write_text("item,set,translation\n1,neg,He is rude\n3,negative,She is rude\n2,job,x\n", encoding="utf-8")
    frame = tgbi.read_user_outputs(path, "mine", store)
    assert len(frame) == 48 and set(frame["system"]) == {"mine"}
    neg = frame[frame["subset"] == "negative"]
    assert neg["reason"].tolist() == ["", "missing", "", "missing"]
    assert neg["translation"].iloc[0] == "He is rude" and neg["translation"].iloc[2] == "She is rude"
    assert pd.isna(neg["translation"].iloc[1])
    assert (frame["reason"] != "missing").sum() == 3
    for body, message, line in (
        ("1,nope,x\n", "set 'nope' is not one of", 2),
        ("5,neg,x\n", "item 5 is outside the negative set, which has lines 1–4", 2),
        ("1,neg,x\n1,negative,y\n", "item 1 of the negative set was already given on line 2", 3),
        ("one,neg,x\n", "item 'one' is not a line number", 2),
    ):
        path.write_text("item,set,translation\n" + body, encoding="utf-8")
        with pytest.raises(DataError, match=message) as info:
            tgbi.read_user_outputs(path, "mine", store)
        assert f":{line}" in str(info.value) or f"line {line}" in str(info.value)


def test_find_repeated_blocks_by_hand():
    """Lines 7–9 repeat lines 1–3 verbatim (other items): flagged with min_run 3, not with min_run 4; a repeat
    of the same items, or of unusable lines, is not a defect; a file shorter than two runs is never flagged."""
    text = np.array(["a", "b", "c", "d", "e", "f", "a", "b", "c", "g"], dtype=object)
    items = np.arange(10)
    assert np.flatnonzero(tgbi.find_repeated_blocks(text, items, min_run=3)).tolist() == [6, 7, 8]
    assert not tgbi.find_repeated_blocks(text, items, min_run=4).any()
    same_items = np.array([0, 1, 2, 3, 4, 5, 0, 1, 2, 9])
    assert not tgbi.find_repeated_blocks(text, same_items, min_run=3).any()
    usable = np.ones(10, dtype=bool)
    usable[7] = False
    assert not tgbi.find_repeated_blocks(text, items, min_run=3, usable=usable).any()
    assert not tgbi.find_repeated_blocks(text[:5], items[:5], min_run=3).any()
    assert (
        tgbi.find_repeated_blocks([*text[:6].tolist(), "a", "b", "c"], np.arange(9), min_run=3).tolist()
        == [False] * 6 + [True] * 3
    )


def test_repeated_block_is_unknown_by_default_and_kept_on_request(store):
    """Lines 1–3 of the occupation file (items 0, 1, 0) repeated at lines 4–6 (items 1, 0, 1), min_run 3:
    ``repeated_block`` with a warning naming the lines, or kept as they are with ``repeated_blocks="keep"``."""
    _write_outputs(store, "papago", lambda code, lines: lines[:3] * 2 + lines[6:] if code == "job" else lines)
    with pytest.warns(DataQualityWarning, match="3 lines \\(lines 4–6\\) repeat an earlier block"):
        frame = tgbi.read_outputs(["papago"], store, min_run=3)
    job = frame[frame["subset"] == "occupation"]
    assert job["reason"].tolist() == [""] * 3 + ["repeated_block"] * 3 + [""] * 2
    with pytest.warns(DataQualityWarning, match="kept as they are"):
        kept = tgbi.read_outputs(["papago"], store, min_run=3, repeated_blocks="keep")
    assert (kept["reason"] == "").all()


def test_ranges_names_runs():
    assert tgbi._ranges(np.array([1, 2, 3, 7, 9, 10])) == "lines 1–3, line 7, lines 9–10"
    assert tgbi._ranges(np.array([4])) == "line 4"


def test_read_benchmark_counts_every_row():
    """Every row kept: given genders mapped (f/m/n/b/?), an empty gender ``unknown`` with reason ``empty``;
    translations: empty ``empty``, a literal None ``broken``; the stratum is the content; a repeated
    (system, set, item) is an error naming both lines, unless a sample column tells them apart."""
    given = pd.DataFrame(
        {
            "System": ["s"] * 5,
            "set": ["a", "a", "b", "b", "b"],
            "item": ["1", "2", "1", "2", "3"],
            "gender": ["F", "m", "b", "?", ""],
            "stratum": ["x", "x", "y", "y", "y"],
        }
    )
    out = tgbi.read_benchmark(given)
    assert out["given"].tolist() == ["female", "male", "both", "unknown", "unknown"]
    assert out["reason"].tolist() == ["", "", "", "", "empty"]
    assert out["content"].tolist() == ["x", "x", "y", "y", "y"]
    assert out["line"].tolist() == [2, 3, 4, 5, 6] and out["lexicon_item"].tolist() == out["item"].tolist()
    text = pd.DataFrame({"system": "s", "set": "a", "item": ["1", "2", "3"], "translation": ["He is", " ", "None"]})
    out = tgbi.read_benchmark(text)
    assert out["reason"].tolist() == ["", "empty", "broken"] and out["given"].isna().all()
    assert out["translation"].iloc[0] == "He is" and pd.isna(out["translation"].iloc[1])
    assert (out["content"] == "all").all()
    twice = pd.concat([text, text.iloc[[0]]], ignore_index=True)
    with pytest.raises(DataError, match="s/a/1 was already given on line 2"):
        tgbi.read_benchmark(twice)
    sampled = tgbi.read_benchmark(twice.assign(k=["1", "1", "1", "2"]), sample="k")
    assert sampled["sample"].tolist() == ["1", "1", "1", "2"]
    with pytest.raises(DataError, match="gender 'x' is not one of"):
        tgbi.read_benchmark(given.assign(gender=["f", "x", "m", "m", "m"]))
    with pytest.raises(DataError, match="column 'item' is empty"):
        tgbi.read_benchmark(text.assign(item=["1", "", "3"]))


def test_user_directory_reads_each_set_file_and_marks_absent_sets_missing(store, tmp_path):
    """A directory of ``total_<system>_<code>.txt``: each present set read line by line, an absent one all
    ``missing`` (and named as absent in ``origin``), the one system inferred; wrong layouts are errors."""
    folder = tmp_path / "mine"
    folder.mkdir()
    for sset in tgbi.SETS:
        if sset.code != "pos":
            lines = [s.lower() for s in _set_sources(sset)]
            (folder / f"total_mine_{sset.code}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (folder / "notes.txt").write_text("not an output\n", encoding="utf-8")
    frame = tgbi.read_user_outputs(folder, None, store)
    assert len(frame) == 48 and set(frame["system"]) == {"mine"}
    pos = frame[frame["subset"] == "positive"]
    assert pos["reason"].tolist() == ["missing"] * 4 and pos["translation"].isna().all()
    assert pos["origin"].iloc[0] == f"{folder}/total_mine_pos.txt (absent)"
    rest = frame[frame["subset"] != "positive"]
    assert (rest["reason"] == "").all()
    assert rest["origin"].iloc[0] == str(folder / "total_mine_inf.txt")
    assert rest[rest["subset"] == "negative"]["translation"].tolist() == ["ia rude", "ib rude", "fa rude", "fb rude"]
    assert tgbi.read_user_outputs(folder, "mine", store)["reason"].tolist() == frame["reason"].tolist()

    with pytest.raises(DataError, match="has no files total_other_"):
        tgbi.read_user_outputs(folder, "other", store)
    (folder / "total_yours_neg.txt").write_text("a\nb\nc\nd\n", encoding="utf-8")
    with pytest.raises(DataError, match="holds outputs of several systems \\(mine, yours\\)"):
        tgbi.read_user_outputs(folder, None, store)
    assert set(tgbi.read_user_outputs(folder, "yours", store)["reason"]) == {"", "missing"}
    (folder / "total_mine_job.txt").write_text("x\n", encoding="utf-8")
    with pytest.raises(DataError, match="has 1 lines, but its source set"):
        tgbi.read_user_outputs(folder, "mine", store)
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(DataError, match=r"contains no output files named total_<system>_<set>\.txt"):
        tgbi.read_user_outputs(empty, None, store)


def _sentences(n: int) -> list[str]:
    return [f"The {'very ' * (i % 7)}old clerk{'s' * (i % 3)} left number {i}." for i in range(n)]


def test_line_flags_names_a_shifted_set_and_only_it():
    """A benchmark with its sources: set ``b``'s outputs slipped by two lines, set ``a``'s follow their sources.
    The shifted set is warned about (system, set and file) and flagged in ``attrs['line_flags']``; ``a`` is not."""
    sources = _sentences(60)
    frame = pd.DataFrame(
        {
            "system": "s",
            "set": ["a"] * 60 + ["b"] * 60,
            "item": [str(i) for i in range(60)] * 2,
            "source": sources * 2,
            "translation": sources + sources[2:] + sources[:2],
        }
    )
    with pytest.warns(DataQualityWarning, match=r"s/b \(<DataFrame 'outputs'>\): outputs look shifted by -2 line"):
        out = tgbi.read_benchmark(frame)
    assert out.attrs["line_flags"] == {("s", "b"): "outputs look shifted by -2 line(s) against their sources: check the file"}
    assert (out["source"] == sources * 2).all()
    # A frame without sources, or without translations, is returned as it is.
    bare = pd.DataFrame({"system": ["s"], "subset": ["a"], "line": [1], "translation": ["x"]})
    assert tgbi.line_flags(bare) is bare and "line_flags" not in bare.attrs


def test_line_flags_keeps_earlier_flags_and_orders_lines():
    """Flags already in ``attrs`` stay; the outputs are compared in their line order, whatever the row order."""
    sources = _sentences(60)
    frame = pd.DataFrame(
        {
            "system": "s",
            "subset": "a",
            "line": np.arange(60, 0, -1),
            "source": sources[::-1],
            "translation": sources[::-1],
            "origin": "f.csv",
        }
    )
    frame.attrs["line_flags"] = {("t", "z"): "earlier"}
    out = tgbi.line_flags(frame)
    assert out.attrs["line_flags"] == {("t", "z"): "earlier"}
    shifted = frame.assign(translation=(sources[2:] + sources[:2])[::-1])
    with pytest.warns(DataQualityWarning, match=r"s/a \(f.csv\): outputs look shifted by -2"):
        flags = tgbi.line_flags(shifted).attrs["line_flags"]
    assert set(flags) == {("t", "z"), ("s", "a")}


def test_read_sentences_columns_and_index(store):
    frame = tgbi.read_sentences(store)
    assert list(frame.columns) == ["subset", "line", "sentence", "lexicon_item", "content", "pronoun", "politeness", "source"]
    assert frame.index.equals(pd.RangeIndex(len(frame)))
    assert frame.groupby("content", sort=False)["lexicon_item"].unique().map(list).to_dict() == {
        "occupation": [0, 1],
        "negative": [2],
        "positive": [3],
    }


def test_find_repeated_blocks_runs_inside_an_offset():
    """Runs that start past the first line of a comparison, two runs at one offset, the default run of 20 lines
    at the smallest file that can hold it (40 lines), and a short late repeat that is no run."""
    text = np.array(list("abcdefghij"), dtype=object)
    late = np.r_[text[:6], text[1:4]]  # lines 7–9 repeat lines 2–4 (offset 5, starting one line in)
    assert np.flatnonzero(tgbi.find_repeated_blocks(late, np.arange(9), min_run=3)).tolist() == [6, 7, 8]
    two = np.r_[text[:8], ["x", "y"], text[:3], ["z"], text[4:7]]  # lines 11–13 and 15–17 repeat 1–3 and 5–7
    assert np.flatnonzero(tgbi.find_repeated_blocks(two, np.arange(17), min_run=3)).tolist() == [10, 11, 12, 14, 15, 16]
    short = np.r_[list("abcdefgh"), ["a", "b"]]  # two lines repeated: shorter than a run
    assert not tgbi.find_repeated_blocks(short, np.arange(10), min_run=3).any()
    forty = np.array([f"line {i % 20}" for i in range(40)], dtype=object)
    assert tgbi.find_repeated_blocks(forty, np.arange(40)).tolist() == [False] * 20 + [True] * 20
    assert not tgbi.find_repeated_blocks(forty[:39], np.arange(39)).any()


def test_read_benchmark_file_and_frame_read_alike(tmp_path):
    """The same benchmark as a CSV file (header in any case, a sample column named in capitals) and as a frame:
    every column the same; ``language`` and ``stratum`` carried; a NaN in a frame is empty; the translation is
    kept beside a given gender and None without one; a repeated row without a sample names the fix."""
    path = tmp_path / "bench.csv"
    path.write_text(
        "System,Set,Item,Gender,Language,Stratum,K,Translation\ns,a,1,f,tr,x,1,She\ns,a,1,m,tr,x,2,He\ns,b,2,,tr,y,1,\n",
        encoding="utf-8",
    )
    from_file = tgbi.read_benchmark(path, sample="K")
    frame = pd.DataFrame(
        {
            "System": ["s", "s", "s"],
            "Set": ["a", "a", "b"],
            "Item": ["1", "1", "2"],
            "Gender": ["f", "m", np.nan],
            "Language": "tr",
            "Stratum": ["x", "x", "y"],
            "K": ["1", "2", "1"],
            "Translation": ["She", "He", np.nan],
        }
    )
    from_frame = tgbi.read_benchmark(frame, sample="K")
    columns = ["system", "subset", "item", "line", "sample", "content", "language", "lexicon_item", "given", "reason"]
    pd.testing.assert_frame_equal(from_file[columns], from_frame[columns])
    assert from_file["language"].tolist() == ["tr"] * 3 and from_file["content"].tolist() == ["x", "x", "y"]
    assert from_file["sample"].tolist() == ["1", "2", "1"] and from_file["given"].tolist() == ["female", "male", "unknown"]
    assert from_file["reason"].tolist() == ["", "", "empty"]
    assert from_file["translation"].tolist()[:2] == ["She", "He"] == from_frame["translation"].tolist()[:2]
    assert from_file["origin"].iloc[0] == str(path)
    only_gender = tgbi.read_benchmark(frame.drop(columns=["Translation", "Language"]), sample="K")
    assert only_gender["translation"].isna().all() and (only_gender["language"] == "").all()
    with pytest.raises(DataError, match=r"s/a/1 was already given on line 2 \(several outputs of one item\? name"):
        tgbi.read_benchmark(frame)
    with pytest.raises(DataError, match="lacks column\\(s\\) item"):
        tgbi.read_benchmark(frame.drop(columns=["Item"]))


def test_user_csv_with_capital_headers_and_the_last_line(store, tmp_path):
    """Headers in any case; the last line of a set (4 of negative) is inside it; the rows keep a plain index and
    name their file."""
    path = tmp_path / "mine.csv"
    path.write_text("Item,SET,Translation\n4,neg,last\n", encoding="utf-8")
    frame = tgbi.read_user_outputs(path, "mine", store)
    neg = frame[frame["subset"] == "negative"]
    assert neg["reason"].tolist() == ["missing"] * 3 + [""] and neg["translation"].iloc[3] == "last"
    assert frame.index.equals(pd.RangeIndex(48)) and (frame["origin"] == str(path)).all()

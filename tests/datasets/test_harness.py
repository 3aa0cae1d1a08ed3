"""Harness logs (lm-eval samples files, inspect_ai logs), JSON lines and Hugging Face datasets as tables.

The logs under tests/fixtures/harness/ were written by each harness with its own mock model (README there):
lm-eval's ``dummy`` answers "lol" to each of 8 documents, 2 repeats, written once per filter (2 filters);
inspect's ``mockllm/model`` answers an English sentence per item over 2 epochs, flipping the pronoun of
hu-1 and hu-5 in epoch 2. No statistics: fast.
"""

from __future__ import annotations

import json
import shutil
import sys
import warnings
from pathlib import Path

import pandas as pd
import pytest

from stats_mtbias.datasets import harness
from stats_mtbias.datasets.sources import FrameSource, as_counting_source, as_source
from stats_mtbias.errors import DataError, DataQualityWarning, UsageError

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "harness"
(LM_EVAL,) = sorted(FIXTURES.glob("lm-eval/*/samples_*.jsonl"))
(LM_EVAL_V2,) = sorted(FIXTURES.glob("lm-eval-v2/*/samples_*.jsonl"))
INSPECT_EVAL = FIXTURES / "inspect-mockllm.eval"
INSPECT_JSON = FIXTURES / "inspect-mockllm.json"
IDS = [f"hu-{i}" for i in range(8)]
SETS = ["male-dominated"] * 4 + ["female-dominated"] * 4


def _copy_lm_eval(tmp_path: Path, edit=None) -> Path:
    """The lm-eval log copied with its results file (``edit`` rewrites its records), so that the model and
    version are found beside it."""
    folder = tmp_path / "model"
    folder.mkdir(parents=True, exist_ok=True)
    for file in LM_EVAL.parent.iterdir():
        shutil.copy(file, folder / file.name)
    target = folder / LM_EVAL.name
    if edit is not None:
        records = [json.loads(line) for line in LM_EVAL.read_text("utf-8").splitlines()]
        target.write_text("".join(json.dumps(r) + "\n" for r in edit(records)), "utf-8")
    return target


def _quiet(read, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a fixture log read cleanly: no warning at all
        return read(*args, **kwargs)


# ---------------------------------------------------------------- what a file is


def test_the_kind_of_each_log_is_told_from_its_name_and_first_bytes(tmp_path):
    plain = tmp_path / "judgements.jsonl"
    plain.write_text('{"item": 1, "gender": "f"}\n', "utf-8")
    other = tmp_path / "config.json"
    other.write_text('{"version": 1, "name": "x"}', "utf-8")
    assert [harness.log_kind(p) for p in (LM_EVAL, INSPECT_EVAL, INSPECT_JSON, plain, other)] == [
        "lm-eval",
        "inspect",
        "inspect",
        None,
        None,
    ]


# ---------------------------------------------------------------- lm-evaluation-harness


def test_an_lm_eval_log_is_one_row_per_document_and_repeat_the_filters_collapsed():
    table = _quiet(harness.read_harness, LM_EVAL)
    lines = LM_EVAL.read_text("utf-8").splitlines()
    assert len(lines) == 16  # 8 documents x 2 filters
    assert len(table) == 16  # 8 documents x 2 repeats
    assert list(table.columns) == [
        "system",
        "item",
        "sample",
        "prompt",
        "translation",
        "target",
        "id",
        "source",
        "occupation",
        "set",
    ]
    assert table["item"].tolist() == [str(i) for i in range(8) for _ in range(2)]
    assert table["sample"].tolist() == [1, 2] * 8
    assert set(table["system"]) == {"dummy"} and set(table["translation"]) == {"lol"}
    assert table["id"].tolist()[::2] == IDS and table["set"].tolist()[::2] == SETS
    assert table["prompt"].iloc[0] == "Translate into English: Az orvos megkérte az ápolót, hogy segítsen neki.\nEnglish:"
    assert table["target"].iloc[0] == "doctor"
    assert table.attrs["logs"] == [
        {"file": str(LM_EVAL), "harness": "lm-eval", "task": "mt_gender_hu", "version": "1.0", "model": "dummy"}
    ]


def test_a_filter_takes_its_filtered_outputs():
    table = _quiet(harness.read_harness, LM_EVAL, filter="lower")  # lowercase, then take_first: one per document
    assert len(table) == 8 and table["sample"].tolist() == [1] * 8 and set(table["translation"]) == {"lol"}
    with pytest.raises(UsageError, match=r"has no filter 'upper'; its filters are 'first', 'lower'"):
        harness.read_harness(LM_EVAL, filter="upper")


def test_without_its_results_file_the_model_is_the_directory_and_the_version_unknown(tmp_path):
    folder = tmp_path / "EleutherAI__pythia-70m"
    folder.mkdir()
    shutil.copy(LM_EVAL, folder / LM_EVAL.name)
    table = _quiet(harness.read_harness, folder / LM_EVAL.name)
    assert set(table["system"]) == {"EleutherAI__pythia-70m"} and table.attrs["logs"][0]["version"] is None


def test_a_log_of_another_task_version_is_refused_naming_both_files():
    with pytest.raises(DataError) as info:
        harness.read_harness({"a": LM_EVAL, "b": LM_EVAL_V2})
    message = str(info.value)
    assert message.startswith(str(LM_EVAL_V2)) and "task version 2.0" in message and f"{LM_EVAL} is of version 1.0" in message


def test_two_logs_of_one_model_must_be_named(tmp_path):
    copy = _copy_lm_eval(tmp_path)
    with pytest.raises(DataError, match=r"is a log of 'dummy', as is .*name the systems"):
        harness.read_harness([LM_EVAL, copy])
    table = _quiet(harness.read_harness, {"a": LM_EVAL, "b": copy})
    assert table.groupby("system").size().to_dict() == {"a": 16, "b": 16}
    with pytest.raises(DataError, match=r"is a log of 'dummy', as is"):  # a glob names both too
        harness.read_harness([str(LM_EVAL.parent / "samples_*.jsonl"), str(copy.parent / "samples_*.jsonl")])


def test_a_document_given_twice_under_one_filter_is_refused_naming_the_line_and_id(tmp_path):
    log = _copy_lm_eval(tmp_path, lambda records: [*records, records[6]])  # doc 6, filter 'first' again
    with pytest.raises(DataError) as info:
        harness.read_harness(log)
    assert (info.value.path, info.value.line) == (log, 17)
    assert "document id 6 (filter 'first') is given twice, first on line 7" in str(info.value)


def test_a_line_without_doc_id_or_not_json_is_named(tmp_path):
    def drop(records):
        del records[4]["doc_id"]
        return records

    with pytest.raises(DataError, match=r"line 5: has no doc_id"):
        harness.read_harness(_copy_lm_eval(tmp_path / "a", drop))
    log = _copy_lm_eval(tmp_path / "b")
    log.write_text(log.read_text("utf-8") + "{not json\n", "utf-8")
    with pytest.raises(DataError, match=r"line 17: is not a JSON value"):
        harness.read_harness(log)


def test_a_log_of_another_kind_of_task_is_refused(tmp_path):
    def multiple_choice(records):
        for r in records:
            r["resps"] = [[["-1.2", "False"]], [["-0.3", "True"]]]
        return records

    with pytest.raises(DataError, match=r"line 1: document 0 has 2 requests, where a generation task"):
        harness.read_harness(_copy_lm_eval(tmp_path, multiple_choice))


def test_missing_repeats_and_ids_are_warned_by_name(tmp_path):
    def short(records):
        for r in records:
            if r["doc_id"] == 2:
                r["resps"] = [["lol"]]
        return records

    with pytest.warns(DataQualityWarning, match=r"1 id\(s\) lack some of their 2 repeats: '2' \(1 of 2\)"):
        table = harness.read_harness(_copy_lm_eval(tmp_path / "a", short))
    assert len(table) == 15
    lacking = _copy_lm_eval(tmp_path / "b", lambda records: [r for r in records if r["doc_id"] != 7])
    with pytest.warns(DataQualityWarning, match=r"\(b\) lacks 1 id\(s\) other logs have: 7"):
        table = harness.read_harness({"a": LM_EVAL, "b": lacking})
    assert table.groupby("system").size().to_dict() == {"a": 16, "b": 14}


def test_other_documents_under_the_same_ids_are_refused(tmp_path):
    def changed(records):
        for r in records:
            if r["doc_id"] == 5:
                r["doc_hash"] = "0" * 64
        return records

    with pytest.raises(DataError, match=r"documents 5 differ from those of the same ids"):
        harness.read_harness({"a": LM_EVAL, "b": _copy_lm_eval(tmp_path, changed)})


# ---------------------------------------------------------------- inspect_ai


def _inspect_expected(table: pd.DataFrame) -> None:
    assert len(table) == 16
    assert list(table.columns) == ["system", "item", "sample", "prompt", "translation", "target", "set", "occupation", "source"]
    assert table["item"].tolist() == [i for i in IDS for _ in range(2)]
    assert table["sample"].tolist() == [1, 2] * 8
    assert set(table["system"]) == {"mockllm/model"}
    flips = table.set_index(["item", "sample"])["translation"]
    assert flips["hu-1", 1] == "The engineer finished the plan because he was in a hurry."
    assert flips["hu-1", 2] == "The engineer finished the plan because she was in a hurry."
    assert flips["hu-7", 2] == "The librarian read the book because they wanted to."
    assert table["set"].tolist()[::2] == SETS and table["target"].iloc[0] == "doctor"
    assert table["prompt"].iloc[0] == "Translate into English: Az orvos megkérte az ápolót, hogy segítsen neki.\nEnglish:"


def test_an_inspect_eval_log_is_one_row_per_sample_and_epoch():
    pytest.importorskip("inspect_ai")
    table = _quiet(harness.read_harness, INSPECT_EVAL)
    _inspect_expected(table)
    assert table.attrs["logs"] == [
        {"file": str(INSPECT_EVAL), "harness": "inspect", "task": "mt_gender_hu", "version": "1", "model": "mockllm/model"}
    ]
    pd.testing.assert_frame_equal(table, _quiet(harness.read_harness, INSPECT_JSON))


def test_an_inspect_json_log_is_read_without_inspect_ai_and_an_eval_log_says_which_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "inspect_ai.log", None)  # as if inspect_ai were not installed
    _inspect_expected(_quiet(harness.read_harness, INSPECT_JSON))
    with pytest.raises(UsageError, match=r"pip install 'stats-mtbias\[inspect\]'"):
        harness.read_harness(INSPECT_EVAL)


def _edited_json(tmp_path: Path, edit) -> Path:
    log = json.loads(INSPECT_JSON.read_text("utf-8"))
    edit(log)
    tmp_path.mkdir(parents=True, exist_ok=True)
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(log), "utf-8")
    return path


def test_an_errored_sample_is_left_out_by_name(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "inspect_ai.log", None)

    def fail(log):
        sample = next(s for s in log["samples"] if s["id"] == "hu-3" and s["epoch"] == 2)
        sample["error"] = {"message": "RateLimitError: too many requests", "traceback": "", "traceback_ansi": ""}

    with pytest.warns(DataQualityWarning) as caught:
        table = harness.read_harness(_edited_json(tmp_path, fail))
    messages = [str(w.message) for w in caught]
    assert any(
        "1 sample(s) ended in an error and have no output, left out: 'hu-3' epoch 2 (RateLimitError" in m for m in messages
    )
    assert any("'hu-3' (1 of 2)" in m for m in messages)
    assert len(table) == 15


def test_duplicate_and_missing_ids_and_an_unfinished_run(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "inspect_ai.log", None)
    with pytest.raises(DataError, match=r"sample id 'hu-0', epoch 1 is given twice"):
        harness.read_harness(_edited_json(tmp_path / "a", lambda log: log["samples"].append(log["samples"][0])))

    def drop(log):
        log["status"] = "cancelled"
        log["samples"] = [s for s in log["samples"] if s["id"] != "hu-6"]

    with pytest.warns(DataQualityWarning) as caught:
        table = harness.read_harness(_edited_json(tmp_path / "b", drop))
    messages = " ".join(str(w.message) for w in caught)
    assert "status is 'cancelled'" in messages and "lists 1 sample id(s) that the log lacks: hu-6" in messages
    assert len(table) == 14


def test_a_directory_of_logs_is_every_log_in_it(tmp_path):
    pytest.importorskip("inspect_ai")
    shutil.copy(INSPECT_EVAL, tmp_path / "a.eval")
    _copy_lm_eval(tmp_path)
    (tmp_path / "notes.json").write_text('{"a": 1}', "utf-8")
    with pytest.warns(DataQualityWarning) as caught:
        table = harness.read_harness(tmp_path)
    messages = " ".join(str(w.message) for w in caught)  # another harness: its version not compared, its ids named
    assert "is an lm-eval log of task 'mt_gender_hu'" in messages and "(dummy) lacks 8 id(s) other logs have: hu-0" in messages
    assert table.groupby("system").size().to_dict() == {"dummy": 16, "mockllm/model": 16}


# ---------------------------------------------------------------- JSON lines, datasets, sources


def test_json_lines_are_a_table_and_bad_lines_are_named(tmp_path):
    path = tmp_path / "judgements.jsonl"
    path.write_text('{"item": 1, "gender": "female"}\n\n{"item": 2, "gender": "male", "why": ["a"]}\n', "utf-8")
    frame = harness.read_jsonl(path)
    assert frame.to_dict("list") == {"item": [1, 2], "gender": ["female", "male"], "why": [None, '["a"]']} or (
        frame["why"].isna().iloc[0] and frame["why"].iloc[1] == '["a"]'
    )
    path.write_text('{"item": 1}\n[1, 2]\n', "utf-8")
    with pytest.raises(DataError, match=r"line 2: is a JSON list, not an object"):
        harness.read_jsonl(path)
    path.write_bytes(b'{"item": 1}\n{"item": "\xe9"}\n')
    with pytest.raises(DataError, match=r"line 2: not valid UTF-8 \(byte 0xe9\)"):
        harness.read_jsonl(path)


def test_every_source_opens_a_log_json_lines_and_a_dataset_as_a_frame(tmp_path):
    source = as_source(str(LM_EVAL))
    assert isinstance(source, FrameSource) and source.file == LM_EVAL and len(source.frame) == 16
    path = tmp_path / "j.jsonl"
    path.write_text('{"item": 1, "gender": "f"}\n', "utf-8")
    assert as_counting_source(str(path)).frame.to_dict("list") == {"item": [1], "gender": ["f"]}
    csv = tmp_path / "j.csv"
    csv.write_text("item,gender\n1,f\n", "utf-8")
    assert as_source(str(csv)) == csv and as_counting_source(str(csv)) == str(csv)


def test_a_hugging_face_dataset_stands_where_a_file_would(tmp_path):
    datasets = pytest.importorskip("datasets")
    frame = pd.DataFrame({"item": ["a", "b"], "gender": ["female", "male"], "tags": [["x"], []]})
    one = as_source(datasets.Dataset.from_pandas(frame), "mine")
    assert one.name == "mine" and one.frame.to_dict("list") == {
        "item": ["a", "b"],
        "gender": ["female", "male"],
        "tags": ['["x"]', "[]"],
    }
    both = datasets.DatasetDict({"train": datasets.Dataset.from_pandas(frame), "test": datasets.Dataset.from_pandas(frame)})
    with pytest.raises(UsageError, match=r"the DatasetDict has the splits train, test: give one of them"):
        as_source(both)
    assert len(as_counting_source(datasets.DatasetDict({"train": both["train"]})).frame) == 2


def test_a_glob_of_json_lines_is_counted_file_by_file(tmp_path):
    from stats_mtbias.datasets.counting import count_rows

    rows = [
        {"system": s, "item": i, "gender": g}
        for s, i, g in [("a", 1, "female"), ("a", 2, "male"), ("b", 1, "male"), ("b", 2, "male")]
    ]
    for part in (0, 1):
        text = "".join(json.dumps(r) + "\n" for r in rows[2 * part : 2 * part + 2])
        (tmp_path / f"{part}.jsonl").write_text(text, "utf-8")
    counts = count_rows(str(tmp_path / "*.jsonl"), ["system", "gender"])
    assert counts[["system", "gender", "n", "part", "line"]].values.tolist() == [
        ["a", "female", 1, 0, 2],
        ["a", "male", 1, 0, 3],
        ["b", "male", 2, 1, 2],
    ]
    assert counts.attrs["rows"] == 4


def test_a_winomt_log_with_a_language_field_is_split_by_language_as_a_frame_is(tmp_path):
    from stats_mtbias.datasets.winomt import user_files

    docs = [("The doctor left.", "de"), ("The nurse came.", "de"), ("The doctor left.", "fr")]
    records = [
        {"doc_id": i, "doc": {"source": s, "language": lang}, "arguments": {"gen_args_0": {"arg_0": s}}, "resps": [[f"t{i}"]]}
        for i, (s, lang) in enumerate(docs)
    ]
    log = tmp_path / "samples_wino_2026-01-01T00-00-00.jsonl"
    log.write_text("".join(json.dumps(r) + "\n" for r in records), "utf-8")
    found = user_files("llm", str(log), None)
    assert [(lang, part.frame["source"].tolist(), part.frame["translation"].tolist()) for lang, part, _ in found] == [
        ("de", ["The doctor left.", "The nurse came."], ["t0", "t1"]),
        ("fr", ["The doctor left."], ["t2"]),
    ]


def test_a_glob_of_harness_logs_is_read_together_its_versions_checked(tmp_path):
    for name, log in (("v1", LM_EVAL), ("v2", LM_EVAL_V2)):
        shutil.copytree(log.parent, tmp_path / name)
    pattern = str(tmp_path / "*" / "samples_*.jsonl")
    with pytest.raises(DataError, match=r"is a log of task version 2.0"):
        as_source(pattern)
    shutil.rmtree(tmp_path / "v2")
    shutil.copytree(LM_EVAL.parent, tmp_path / "v1-again")
    with pytest.raises(DataError, match=r"is a log of 'dummy', as is"):  # two logs of one model: name them
        as_counting_source(pattern)

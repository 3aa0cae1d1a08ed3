"""Harness logs end to end: a log each harness wrote with its mock model, through ``smb.from_harness`` and
straight into the studies (``outputs=``, ``judgements``), against shares counted by hand; JSON lines and a
Hugging Face dataset give the numbers the same table as a CSV gives.

The inspect log (tests/fixtures/harness/README.md): 8 items over 2 epochs; the mock translator says
he/he, he/she, he/he, she/she for the male-dominated occupations and she/she, she/he, she/she, they/they for
the female-dominated ones. TGBI's shares are per item then averaged over items (an item's samples its mean).
"""

from __future__ import annotations

import hashlib
import io
import warnings
from pathlib import Path

import pandas as pd
import pytest

import stats_mtbias as smb

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "harness"
(LM_EVAL,) = sorted(FIXTURES.glob("lm-eval/*/samples_*.jsonl"))
INSPECT_JSON = FIXTURES / "inspect-mockllm.json"
BY_HAND = {  # per set: female, male, neutral shares (means over items of each item's share over its 2 epochs)
    "male-dominated": {"female": (0 + 0.5 + 0 + 1) / 4, "male": (1 + 0.5 + 1 + 0) / 4, "neutral": 0.0},
    "female-dominated": {"female": (1 + 0.5 + 1 + 0) / 4, "male": (0 + 0.5 + 0 + 0) / 4, "neutral": 0.25},
}
FAST = {"n_boot": 200, "n_permutations": 200, "rng": 0}


def _quiet(study, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return study(*args, **kwargs)


def _shares(table: pd.DataFrame, subset: str = "subset") -> dict:
    rows = table[table["metric"].isin(["female", "male", "neutral"])]
    return {(r[subset], r["metric"]): r["estimate"] for _, r in rows.iterrows()}


def test_an_inspect_log_goes_straight_into_tgbi_with_its_epochs_as_samples(tmp_path):
    res = _quiet(smb.tgbi, outputs=str(INSPECT_JSON), sample="sample", **FAST)
    got = _shares(res.table)
    for subset, shares in BY_HAND.items():
        for metric, value in shares.items():
            assert got[subset, metric] == pytest.approx(value), (subset, metric)
    # The same study on the table from_harness shows, saved as a CSV: the same numbers to the last digit.
    table = smb.from_harness(INSPECT_JSON)
    table.to_csv(tmp_path / "outputs.csv", index=False)
    again = _quiet(smb.tgbi, outputs=str(tmp_path / "outputs.csv"), sample="sample", **FAST)
    pd.testing.assert_frame_equal(res.table, again.table)
    digest = hashlib.sha256(INSPECT_JSON.read_bytes()).hexdigest()
    assert res.provenance["data"] == {str(INSPECT_JSON): digest}  # the log's own bytes, as a CSV's would be


def test_the_outputs_read_then_counted_by_rates(tmp_path):
    read = _quiet(smb.read, "tgbi", str(INSPECT_JSON), sample="sample")
    assert read["gender"].value_counts().to_dict() == {"female": 8, "male": 6, "neutral": 2}
    res = _quiet(smb.rates, read, by="set", sample="sample", ci="analytic")
    got = _shares(res.table, subset="set")
    for subset, shares in BY_HAND.items():
        for metric, value in shares.items():
            assert got[subset, metric] == pytest.approx(value), (subset, metric)
    # As JSON lines and as a Hugging Face dataset: the table a CSV gives.
    columns = ["system", "set", "item", "sample", "gender"]
    read[columns].to_json(tmp_path / "j.jsonl", orient="records", lines=True)
    read[columns].to_csv(tmp_path / "j.csv", index=False)
    kwargs = {"by": "set", "sample": "sample", "ci": "analytic"}
    from_csv = _quiet(smb.rates, str(tmp_path / "j.csv"), **kwargs).table
    pd.testing.assert_frame_equal(_quiet(smb.rates, str(tmp_path / "j.jsonl"), **kwargs).table, from_csv)
    datasets = pytest.importorskip("datasets")
    pd.testing.assert_frame_equal(_quiet(smb.rates, datasets.Dataset.from_pandas(read[columns]), **kwargs).table, from_csv)


def test_an_lm_eval_log_goes_into_tgbi_every_output_counted():
    # lm-eval's dummy model answers "lol": no gendered word, so every output reads neutral and P_S is 1.
    res = _quiet(smb.tgbi, outputs=str(LM_EVAL), sample="sample", **FAST)
    rows = res.table.set_index(["subset", "metric"])["estimate"]
    assert rows["male-dominated", "neutral"] == rows["female-dominated", "neutral"] == 1.0
    assert rows["TGBI", "p_s"] == 1.0
    assert len(res.frames["judgements"]) == 16 and set(res.frames["judgements"]["sample"].astype(int)) == {1, 2}


def test_without_sample_the_repeats_are_named_as_repeats():
    with pytest.raises(smb.DataError, match=r"several outputs of one item\? name their sample column: sample="):
        _quiet(smb.tgbi, outputs=str(INSPECT_JSON), **FAST)


def test_the_command_line_takes_a_log(capsys):
    from stats_mtbias.cli import main

    capsys.readouterr()
    code = main(["tgbi", "--outputs", str(INSPECT_JSON), "--sample", "sample", "--format", "json", "--view", "table"])
    out = capsys.readouterr()
    assert code == 0, out.err
    records = pd.read_json(io.StringIO(out.out))
    shares = records[records["metric"] == "female"].set_index("subset")["estimate"].to_dict()
    assert shares == pytest.approx({k: v["female"] for k, v in BY_HAND.items()})


def test_the_command_line_counts_json_lines(tmp_path, capsys):
    from stats_mtbias.cli import main

    read = _quiet(smb.read, "tgbi", str(INSPECT_JSON), sample="sample")
    read[["system", "set", "item", "sample", "gender"]].to_json(tmp_path / "j.jsonl", orient="records", lines=True)
    capsys.readouterr()
    argv = ["rates", "--judgements", str(tmp_path / "j.jsonl"), "--by", "set", "--sample", "sample", "--ci", "analytic"]
    code = main([*argv, "--format", "json", "--view", "table"])
    out = capsys.readouterr()
    assert code == 0, out.err
    records = pd.read_json(io.StringIO(out.out))
    shares = records[(records["metric"] == "neutral") & (records["set"] != "all")].set_index("set")["estimate"]
    assert shares.to_dict() == pytest.approx({k: v["neutral"] for k, v in BY_HAND.items()})

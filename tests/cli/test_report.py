"""``stats-mtbias report``: the project's report of some studies, and the report of your own system."""

from __future__ import annotations

import types

import pandas as pd

import stats_mtbias.reporting as reporting


def test_report_of_a_study_writes_the_documents_and_prints_a_summary(cli, data_dir, tmp_path):
    out = tmp_path / "rep"
    code, text, err = cli(
        "report", "--studies", "tgbi", "--format", "md", "--out", out, "--n-boot", "200", "--data-dir", data_dir, "--no-progress"
    )
    assert code == 0, err
    assert (out / "report.md").is_file() and (out / "tgbi").is_dir()
    assert text.splitlines()[0].split() == ["study", "tables", "figures", "seconds"]
    assert f"files into {out}/" in text


def test_report_of_your_system_beside_a_baseline(cli, data_dir, tmp_path):
    mine = tmp_path / "mine.csv"
    mine.write_text("item,set,translation\n1,positive,She is kind\n2,positive,He is kind\n", "utf-8")
    out = tmp_path / "mine-report"
    code, text, err = cli(
        "report",
        "--translations",
        mine,
        "--system",
        "me",
        "--systems",
        "kakao",
        "--format",
        "md",
        "--out",
        out,
        "--data-dir",
        data_dir,
    )
    assert code == 0, err
    assert (out / "report.md").is_file()
    assert "estimate %" in text.splitlines()[0] and "wrote " in text  # the summary: shares shown in percent


def test_report_paths_are_checked_before_the_work(cli, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    code, _, err = cli("report", "--out", blocker)
    assert code == 64 and "not a writable directory" in err
    code, _, err = cli("report", "--out", tmp_path / "r", "--screenshot", tmp_path / "no" / "shot.png")
    assert code == 64 and "--screenshot" in err
    code, _, err = cli("report", "--out", tmp_path / "r", "--judgements", tmp_path / "missing.csv")
    assert code == 66 and "missing.csv" in err


def test_full_report_takes_margin(cli, monkeypatch, tmp_path):
    """``report --margin`` without your systems: the full report's Settings carry it to every section."""
    seen = {}

    def build(out, studies, settings, formats, screenshot=None):
        seen["settings"], seen["studies"] = settings, studies
        report = types.SimpleNamespace(settings=settings.as_dict(), environment={})
        return report, pd.DataFrame({"study": ["tgbi"], "tables": [1], "figures": [1], "seconds": [0.0]}), []

    monkeypatch.setattr(reporting, "run", build)
    code, _, err = cli("report", "--studies", "tgbi", "--out", tmp_path / "r", "--margin", "0.02", "--no-progress")
    assert code == 0, err
    assert seen["settings"].margin == 0.02 and seen["studies"] == ["tgbi"]
    code, _, err = cli("report", "--studies", "tgbi", "--out", tmp_path / "r", "--margin", "0")
    assert code == 64 and "`margin`" in err

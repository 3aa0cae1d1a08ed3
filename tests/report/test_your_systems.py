"""Issue 45's rule for "your systems": `mine=`, else `against=`, else the systems of your inputs when shipped systems
stand beside them — one function (`your_systems`) for every study, never a name that matches a shipped system."""

from __future__ import annotations

import warnings

import pandas as pd
import pytest

import stats_mtbias as smb
from stats_mtbias.result import your_systems


@pytest.fixture
def quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def _tgbi_outputs(data_dir, tmp_path, name):
    from stats_mtbias.datasets import tgbi
    from stats_mtbias.datasets.registry import open_store

    shipped = tgbi.read_outputs(["papago"], open_store(data_dir))
    part = shipped[shipped["subset"] == "formal"].sort_values("line")
    path = tmp_path / f"{name}.csv"
    pd.DataFrame({"item": part["line"], "set": "formal", "translation": part["translation"].fillna("")}).to_csv(path)
    return path


def test_every_study_answers_with_one_rule(data_dir, tmp_path, quiet):
    mine = _tgbi_outputs(data_dir, tmp_path, "mine")
    # A user's system beside shipped ones: theirs, whatever its name.
    tgbi = smb.tgbi(["kakao", "papago"], translations={"mine": mine}, data_dir=data_dir, n_boot=100, rng=0)
    assert your_systems(tgbi) == ["mine"]
    # A user's own system that happens to be called like a shipped one, beside a shipped one: still theirs.
    named = smb.tgbi(["kakao"], translations={"google": mine}, data_dir=data_dir, n_boot=100, rng=0)
    assert your_systems(named) == ["google"]
    # against= wins over the inputs.
    against = smb.tgbi(["kakao", "papago"], translations={"mine": mine}, data_dir=data_dir, n_boot=100, rng=0, against=["papago"])
    assert your_systems(against) == ["papago"]
    # Only shipped systems: none is yours.
    assert your_systems(smb.tgbi(["kakao", "papago"], data_dir=data_dir, n_boot=100, rng=0)) == []
    # Every system yours (rates on an own benchmark): against=, else none.
    frame = pd.DataFrame(
        {"item": [1, 2, 3] * 2, "system": ["a"] * 3 + ["b"] * 3, "gender": ["male", "female", "male", "female", "female", "male"]}
    )
    assert your_systems(smb.rates(frame, n_boot=100, rng=0)) == []
    assert your_systems(smb.rates(frame, n_boot=100, rng=0, against=["b"])) == ["b"]
    # WinoMT: readings of your own beside a shipped system.
    readings = tmp_path / "r.csv"
    pd.DataFrame({"item": range(3888), "system": "google", "language": "es", "gender": "male"}).to_csv(readings)
    wino = smb.winomt(["aws"], judgements=readings, languages=["es"], data_dir=data_dir, adjectives=False, n_boot=100, rng=0)
    assert your_systems(wino) == ["google"]


def test_the_report_marks_the_users_system_called_google(data_dir, tmp_path, quiet):
    mine = _tgbi_outputs(data_dir, tmp_path, "mine")
    result = smb.tgbi(["kakao", "papago"], translations={"google": mine}, data_dir=data_dir, n_boot=100, rng=0)
    smb.report([result], out=tmp_path / "report", formats=["md"])
    text = (tmp_path / "report" / "report.md").read_text("utf-8")
    assert "Your systems (google) first, in bold" in text and "| **google** |" in text

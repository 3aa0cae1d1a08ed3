"""Helpers of the command-line tests: run ``main`` in-process and read what it printed."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from stats_mtbias.cli import main


class Run:
    """``main(argv)`` in-process: the exit code, stdout and stderr."""

    def __init__(self, capsys):
        self.capsys = capsys

    def __call__(self, *argv: str) -> tuple[int, str, str]:
        self.capsys.readouterr()
        code = main([str(a) for a in argv])
        out = self.capsys.readouterr()
        return code, out.out, out.err

    def json(self, *argv: str) -> tuple[list | dict, str]:
        code, out, err = self(*argv, "--format", "json")
        assert code == 0, err
        return json.loads(out), err


@pytest.fixture
def cli(capsys, monkeypatch) -> Run:
    # Tables are fitted to COLUMNS when it is set; the views' tests read whole header lines.
    monkeypatch.delenv("COLUMNS", raising=False)
    return Run(capsys)


@pytest.fixture(scope="session")
def tiny_judgements(tmp_path_factory):
    """A judgement table small enough to count by hand: 4 items, systems a and b, two languages."""
    frame = pd.DataFrame(
        {
            "item": [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6],
            "system": ["a", "b"] * 6,
            "language": ["de"] * 6 + ["es"] * 6,
            "gender": ["male", "female", "male", "male", "female", "female", "male", "?", "male", "male", "female", "male"],
        }
    )
    path = tmp_path_factory.mktemp("rates") / "tiny.csv"
    frame.to_csv(path, index=False)
    return path, frame

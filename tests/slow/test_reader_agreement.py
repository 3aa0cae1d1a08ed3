"""data/validation/agreement.csv (what the report prints beside WinoMT's numbers) is what tools/reader_agreement.py
computes from the labels with today's readers: a change of a reader that moves the agreement fails here until the
table is written again (``python tools/reader_agreement.py --csv data/validation/agreement.csv``)."""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd
import pytest

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]


def test_the_shipped_agreement_table_is_the_labels_read_today(data_dir, monkeypatch):
    monkeypatch.setenv("MTBIAS_DATA", str(data_dir))
    monkeypatch.syspath_prepend(str(ROOT / "tools"))
    sys.modules.pop("reader_agreement", None)
    import reader_agreement

    fresh = reader_agreement.agreement_csv().drop(columns="package_version").reset_index(drop=True)
    fresh = fresh.astype({"n_conflict": float, "n_conflict_pronoun": float})  # the CSV reads an empty count as NaN
    shipped = pd.read_csv(ROOT / "data" / "validation" / "agreement.csv").drop(columns="package_version")
    pd.testing.assert_frame_equal(shipped, fresh, check_dtype=False, rtol=1e-9)

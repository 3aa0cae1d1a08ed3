"""The seeded stratified draw of a blind-labelling sample from real outputs (tools/validation_sample_real.py)."""

import importlib.util
from pathlib import Path

import pandas as pd
import pytest

from stats_mtbias.datasets import winomt as winomt_data
from stats_mtbias.datasets.registry import open_store

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def tool():
    spec = importlib.util.spec_from_file_location("validation_sample_real", ROOT / "tools/validation_sample_real.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def items(data_dir, monkeypatch):
    monkeypatch.setenv("MTBIAS_DATA", str(data_dir))
    return winomt_data.read_items(open_store(data_dir))


def test_draw_is_stratified_disjoint_seeded_and_within_translated_items(tool, items):
    # System b translated only the even items: its sample must come from them.
    outputs = {
        "a": pd.DataFrame({"item": items["item"], "translation": "x"}),
        "b": pd.DataFrame({"item": items["item"][::2], "translation": "x"}),
    }
    picked = tool.draw(items, outputs, 60)
    assert len(picked) == 120 and picked["item"].is_unique
    assert (picked.loc[picked["system"] == "b", "item"] % 2 == 0).all()
    strata = picked.merge(items, on="item").groupby(["system", "gold", "stereotype"]).size()
    for system in ("a", "b"):
        assert strata[system].to_dict() == {
            ("female", "anti"): 12,
            ("female", "pro"): 13,
            ("male", "anti"): 12,
            ("male", "pro"): 13,
            ("neutral", "none"): 10,
        }
    pd.testing.assert_frame_equal(picked, tool.draw(items, outputs, 60))
    assert not picked.equals(tool.draw(items, outputs, 60, seed=1))


def test_draw_names_a_system_with_too_few_translated_items(tool, items):
    outputs = {"tiny": pd.DataFrame({"item": items["item"][:30], "translation": "x"})}
    with pytest.raises(SystemExit, match="tiny: only"):
        tool.draw(items, outputs, 60)

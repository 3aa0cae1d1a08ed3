"""Issue 34, item 5: no interval is a point where there are outputs — 0% and 100% shares included — in every
study under every ``ci=`` / ``interval=`` setting (found: rates' bootstrap [0, 0], TGBI's bootstrap index at 0 or 1,
WinoMT's F1/ΔG of a system that always says one gender, optimal's bootstrap B of 0)."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import stats_mtbias as smb

# What a system says on every item: one gender always, or one gender but for a single item.
PATTERNS = st.sampled_from(["male", "female", "neutral", "male+1 female", "female+1 male", "unknown+1 male"])
SLOW = settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _genders(pattern: str, n: int) -> list[str]:
    base, _, rest = pattern.partition("+1 ")
    return [rest if rest and i == 0 else base for i in range(n)]


def _no_points(table: pd.DataFrame, label: str) -> None:
    rows = table[(pd.to_numeric(table["n"], errors="coerce").fillna(0) > 0) & table["ci_low"].notna()]
    assert len(rows), label
    point = rows[~(rows["ci_high"] > rows["ci_low"])]
    assert point.empty, f"{label}: point intervals\n{point.to_string()}"
    assert ((rows["ci_low"] <= rows["estimate"] + 1e-12) & (rows["estimate"] <= rows["ci_high"] + 1e-12)).all(), label


def _quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


@pytest.mark.parametrize(("ci", "interval"), [("bootstrap", "percentile"), ("bootstrap", "bca"), ("analytic", "percentile")])
@SLOW
@given(a=PATTERNS, b=PATTERNS, n=st.integers(5, 40))
def test_rates(ci, interval, a, b, n):
    rows = [(i, s, "de", g) for s, p in (("a", a), ("b", b)) for i, g in enumerate(_genders(p, n))]
    frame = pd.DataFrame(rows, columns=["item", "system", "language", "gender"])
    res = _quiet(smb.rates, frame, ci=ci, interval=interval, n_boot=200)
    _no_points(res.table, f"rates {ci} {interval}")


@pytest.mark.needs_data  # the study compares with the shipped BLS reference
@pytest.mark.parametrize("interval", ["wilson", "jeffreys", "clopper-pearson"])
@SLOW
@given(a=PATTERNS, n=st.integers(5, 40))
def test_prates(interval, a, n):
    frame = pd.DataFrame(
        [(f"occ{i}", "xx", "cat", g) for i, g in enumerate(_genders(a, n))], columns=["item", "language", "category", "gender"]
    )
    _no_points(_quiet(smb.prates, frame, interval=interval).table, f"prates {interval}")


TEXT = {"female": "She is tired {}.", "male": "He is tired {}.", "neutral": "They are tired {}.", "unknown": ""}


@pytest.mark.parametrize(("ci", "interval"), [("analytic", "percentile"), ("bootstrap", "percentile"), ("bootstrap", "bca")])
@SLOW
@given(a=PATTERNS, b=PATTERNS, n=st.integers(5, 40))
def test_tgbi(ci, interval, a, b, n):
    rows = [
        (s, "set_one", f"w{i}", TEXT[g].format(i) or "—") for s, p in (("a", a), ("b", b)) for i, g in enumerate(_genders(p, n))
    ]
    frame = pd.DataFrame(rows, columns=["system", "set", "item", "translation"])
    res = _quiet(smb.tgbi, outputs=frame, ci=ci, interval=interval, n_boot=200)
    table = res.table
    _no_points(table[table["metric"] == "p_s"], f"tgbi {ci} {interval}")


@pytest.mark.parametrize("interval", ["gamma", "studentized", "percentile"])
@SLOW
@given(a=st.sampled_from(["male", "female", "neutral", "male+1 female"]), n=st.integers(4, 12))
def test_optimal(interval, a, n):
    occupations = [f"Job{i}" for i in range(n)]
    frame = pd.DataFrame(
        [(o, "sv", "a", g) for o, g in zip(occupations, _genders(a, n))], columns=["occupation", "language", "system", "gender"]
    )
    reference = pd.DataFrame({"occupation": occupations, "female_share": np.linspace(0.1, 0.9, n)})
    _no_points(_quiet(smb.optimal, frame, reference=reference, n_boot=200, interval=interval).table, f"optimal {interval}")


@pytest.fixture(scope="module")
def gold(data_dir):
    from stats_mtbias.datasets import winomt as winomt_data
    from stats_mtbias.datasets.registry import open_store

    return winomt_data.read_items(open_store(data_dir))["gold"].to_numpy()


@pytest.mark.parametrize("interval", ["percentile", "bca"])
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(a=st.sampled_from(["gold", "male", "female", "unknown"]), b=st.sampled_from(["gold", "male", "unknown"]))
def test_winomt(gold, interval, a, b):
    say = {
        "gold": gold,
        "male": np.full(len(gold), "male"),
        "female": np.full(len(gold), "female"),
        "unknown": np.full(len(gold), "unknown"),
    }
    frame = pd.concat(
        [
            pd.DataFrame({"item": np.arange(len(gold)), "system": s, "language": "es", "gender": say[p]})
            for s, p in (("a", a), ("b", b))
        ]
    )
    _no_points(_quiet(smb.winomt, judgements=frame, n_boot=200, interval=interval).table, f"winomt {interval}")

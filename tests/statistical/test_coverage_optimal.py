"""Coverage of the sector-B intervals (gamma, bootstrap-t, percentile), by simulation.

A population of 20,000 occupations (reference shares, employment, a translator
that says "she" with probability 0.1 + 0.3 f); each replicate samples 150
occupations and computes sector B for female- and male-dominated occupations;
the truth is the population's weighted mean B.
"""

import numpy as np
import pandas as pd
import pytest

from stats_mtbias.studies.optimal import sector_b

from . import _bands, _cases


def _rows(f_min, weight_sd, interval, reps=300, seed=0):
    rows = _cases.optimal(reps, seed, interval, regimes={"r": (f_min, weight_sd)})
    return {row.quantity.split(", ")[1].split("-")[0]: row for row in rows}


def _coverage(f_min, weight_sd, interval, reps=300, seed=0):
    return {d: row.value for d, row in _rows(f_min, weight_sd, interval, reps, seed).items()}


def test_studentized_intervals_cover_with_moderate_tails():
    """Bootstrap-t, moderate tails: coverage in 0.95 ± 3 SE at 300 data sets (the slow sibling carries the 90% criterion)."""
    for d, value in _coverage(0.15, 0.5, "studentized").items():
        # max_pass=1.0: at 300 data sets a method 2 points off passes this band often; the slow test below does not.
        _bands.band(0.95, 300, label=f"sector B bootstrap-t, moderate tails, {d}-dominated").check(value, max_pass=1.0)


@pytest.mark.slow
def test_studentized_intervals_cover_with_moderate_tails_bands():
    """Bootstrap-t, moderate tails, 2,500 data sets: coverage ± 3 SE (a method 2 points off passes with p <= 0.10)."""
    reps = _bands.replications_for(0.95)
    for row in _rows(0.15, 0.5, "studentized", reps).values():
        _bands.coverage_band(0.95, reps).check(row.value, f"{row.quantity} [{row.method}] {row.regime}")
        # Each tail at 2,500 data sets: a tail with no misses or twice the nominal passes with p = 0.125 (4,000 would
        # be needed for 0.10, about 4 min of bootstrap-t here); printed and asserted, the 0.10 not required.
        for tail, value, side in zip(_bands.tail_bands(0.95, reps), (row.below, row.above), ("below", "above"), strict=True):
            tail.check(value, f"{row.quantity} [{row.method}] misses with the truth {side} the interval", max_pass=0.13)


@pytest.mark.parametrize("tails", [(0.15, 0.5), (0.05, 1.0)])
def test_gamma_intervals_cover_with_moderate_and_long_tails(tails):
    """The gamma interval (the default) covers at least 95% with moderate and long tails (conservative by construction)."""
    # Discrete regime (a weighted sum of rare events), where the bootstrap-t falls to 0.87. left: no upper limit -- the
    # exact method's coverage here (Garwood's only with equal weights) cannot be enumerated; the lower limit 0.95 is
    # already stricter than a band's (0.95 - 3 SE).
    cover = _coverage(*tails, "gamma")
    assert cover["female"] >= 0.95 and cover["male"] >= 0.95


def test_studentized_beats_percentile_with_long_tails():
    """With long tails the bootstrap-t covers better than the percentile bootstrap (a comparison, not a coverage claim)."""
    # Shares down to 5% make B reach 18 in male-dominated occupations said "she": a long right tail.
    student = _coverage(0.05, 1.0, "studentized", seed=1)
    percentile = _coverage(0.05, 1.0, "percentile", seed=1)
    # Not coverage claims: the percentile interval falls short of the bootstrap-t, and the bootstrap-t with long
    # tails is known to undercover (about 0.87), so both stay one-sided.
    assert student["male"] >= percentile["male"] + 0.05
    assert student["female"] >= 0.85


@pytest.mark.parametrize("interval", ["studentized", "percentile"])
def test_same_seed_same_interval(interval):
    """The same seed gives the same sector-B table, another seed other bounds."""
    rng = np.random.default_rng(5)
    table = pd.DataFrame(
        {
            "system": "s",
            "language": "l",
            "sector": rng.choice(["A", "B"], 40),
            "female_share": rng.uniform(0.1, 0.9, 40),
            "weight": 1.0,
            "b": rng.exponential(1.0, 40),
            "n_female": 0.0,
            "n_male": 1.0,
            "n_other": 0.0,
        }
    )
    one = sector_b(table, n_boot=300, rng=9, interval=interval)
    two = sector_b(table, n_boot=300, rng=9, interval=interval)
    three = sector_b(table, n_boot=300, rng=10, interval=interval)
    pd.testing.assert_frame_equal(one, two)
    assert not np.allclose(one["ci_high"], three["ci_high"])

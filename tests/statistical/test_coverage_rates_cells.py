"""``smb.rates`` with every judgement its own cluster (``cluster=None``, counted by cell): coverage by simulation.

Small sets and the real WinoMT size, near 0, 1 and 1/2, both interval kinds, and each side's misses apart
(two-sided). Every simulated evaluation draws its own resampling weights from the shared generator.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import stats_mtbias as smb

REPS = 1000
SE = np.sqrt(0.95 * 0.05 / REPS)  # Monte-Carlo standard error of a coverage near 0.95: about 0.007


def _misses(n: int, p: float, ci: str, seed: int) -> tuple[float, float]:
    rng = np.random.default_rng(seed)
    low = high = 0
    limits = {}  # an analytic interval is a function of the count: one API run per count seen
    for k in rng.binomial(n, p, size=REPS):
        if ci != "analytic" or k not in limits:
            frame = pd.DataFrame({"system": "a", "gender": ["female"] * int(k) + ["male"] * int(n - k)})
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                table = smb.rates(frame, cluster=None, ci=ci, n_boot=400, rng=rng).table
            row = table[table["metric"] == "female"].iloc[0]
            limits[k] = (row["ci_low"], row["ci_high"])
        ci_low, ci_high = limits[k]
        low += p < ci_low
        high += p > ci_high
    return low / REPS, high / REPS


@pytest.mark.slow
@pytest.mark.parametrize("ci", ["bootstrap", "analytic"])
@pytest.mark.parametrize(("n", "p"), [(30, 0.1), (30, 0.9), (100, 0.5), (3888, 0.02), (3888, 0.98)])
def test_rates_without_a_cluster_cover(ci, n, p):
    low, high = _misses(n, p, ci, seed=int(1000 * p) + n + (ci == "analytic"))
    cover = 1 - low - high
    # At least 0.935 (a discrete case may cover more: Wilson at 3 expected events), within two Monte-Carlo SEs;
    # the band's top applies where the counts are not small.
    assert cover >= 0.935 - 2 * SE, (cover, low, high)
    if min(n * p, n * (1 - p)) >= 50:
        assert cover <= 0.965 + 2 * SE, (cover, low, high)
    # Two-sided: neither side misses more than a two-sided 95% interval's 2.5% allows, with slack for skewed p.
    assert max(low, high) <= 0.05 + 2 * SE, (cover, low, high)

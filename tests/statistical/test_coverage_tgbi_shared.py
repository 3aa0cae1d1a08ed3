"""Issue 45's rule for pairs in TGBI: a pair is compared on the item × set cells both systems have. Coverage of the
analytic comparison on the shared items of two systems of unequal coverage, against the true difference of P_S on
those items (not of the systems' own populations), near 0, in the middle and near 1, both tails apart.

4,000 data sets a point (vectorised: the study's analytic method over a batch axis); a tail off by its nominal
passes the tail band with p < 0.10 (``_bands.tail_bands``); the coverage band is ±3 Monte-Carlo SE (0.0103). The
study's own comparison (``tgbi._compare``) is checked to be that method on the shared items, number for number.
"""

from __future__ import annotations

import numpy as np
import pytest

from stats_mtbias.studies import tgbi
from stats_mtbias.uncertainty.analytic import paired_difference_analytic
from tests.statistical import _bands

REPS, N, KEEP = 4000, 300, 180  # b lacks the last 120 items
# (female, male, neutral) of a's items in the first and second half; b's are its own. The halves differ, so the
# difference on the shared items (the first half and a fifth of the second) is not that of the systems' own items.
POINTS = {
    "middle": (((0.45, 0.35, 0.20), (0.05, 0.90, 0.05)), ((0.35, 0.45, 0.20), (0.08, 0.87, 0.05))),
    "near 0": (((0.02, 0.98, 0.00), (0.005, 0.995, 0.0)), ((0.01, 0.99, 0.00), (0.005, 0.995, 0.0))),
    "near 1": (((0.01, 0.01, 0.98), (0.005, 0.005, 0.99)), ((0.02, 0.02, 0.96), (0.01, 0.01, 0.98))),
}


def _probabilities(halves) -> np.ndarray:
    """(items, 3) outcome probabilities: the first half's for the first N/2 items, the second's after."""
    first, second = (np.asarray(h, float) for h in halves)
    return np.where((np.arange(N) < N // 2)[:, None], first, second)


def _p_s(p: np.ndarray) -> float:
    f, m, n = p.mean(axis=0)
    return float(np.sqrt(f * m + n))


def _draw(p: np.ndarray, rng) -> np.ndarray:
    """Counts (items, reps, 1 set, 5 genders): one output per item, outcome by its probabilities."""
    u = rng.random((N, REPS))
    outcome = (u[..., None] > np.cumsum(p, axis=1)[:, None, :-1]).sum(-1)  # 0 female, 1 male, 2 neutral
    counts = np.zeros((N, REPS, 1, 5))
    for k in range(3):
        counts[:, :, 0, k] = outcome == k
    return counts


@pytest.mark.parametrize("point", list(POINTS))
def test_the_shared_items_comparison_covers_the_shared_items_difference(point):
    rng = np.random.default_rng(list(POINTS).index(point) + 450)
    pa, pb = (_probabilities(h) for h in POINTS[point])
    truth = _p_s(pa[:KEEP]) - _p_s(pb[:KEEP])
    own = _p_s(pa) - _p_s(pb[:KEEP])
    a, b = _draw(pa, rng), _draw(pb, rng)
    b[KEEP:] = 0  # b has no output for the last items: the pair is compared on the first KEEP
    mask = np.arange(N) < KEEP
    ci, _ = paired_difference_analytic(a * mask[:, None, None, None], b, 0.95)
    low, high = ci.low[:, 0], ci.high[:, 0]
    if point == "middle":  # the two rules differ here by more than the interval's half-width
        assert abs(own - truth) > 0.02
        _bands.check_interval(low, high, truth, 0.95, f"TGBI shared-items paired P_S, {point}")
    else:  # near the boundary the score intervals are discrete and conservative: a floor, and no one-sided misses
        covered = np.mean((low <= truth) & (truth <= high))
        floor = 0.95 - 3 * _bands.mc_se(0.95, REPS)
        print(f"BAND TGBI shared-items paired P_S, {point}: coverage {covered:.4f} >= {floor:.4f}")
        assert covered >= floor
        assert np.mean(truth < low) <= 0.045 and np.mean(truth > high) <= 0.045
    # The study's comparison is this method on the shared items, replicate for replicate (three of them).
    statistic = tgbi._statistic("neutral")
    for r in range(3):
        counts = np.stack([a[:, r], b[:, r]], axis=1)  # (items, systems, sets, 5)
        estimate = statistic(counts.sum(axis=0)[None])[0]
        rows = tgbi._compare(
            counts,
            ["a", "b"],
            ["s1", tgbi.INDEX],
            estimate,
            None,
            statistic,
            0.95,
            "interval",
            0,
            np.random.default_rng(0),
            "neutral",
            "holm",
            strata=np.zeros(N, int),
        )
        row = rows.set_index("subset").loc["s1"]
        shared = counts[:KEEP].sum(axis=0)
        assert row["diff"] == pytest.approx(statistic(shared[None])[0][0, 0] - statistic(shared[None])[0][1, 0], abs=1e-12)
        assert (row["ci_low"], row["ci_high"]) == pytest.approx((low[r], high[r]), abs=1e-12)
        assert row["n"] == KEEP

"""Issue 45's rule for pairs, in `rates`: two systems are compared on the clusters both have — the difference, its
interval and its test alike — and a warning names how many each lacks."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import stats_mtbias as smb
from stats_mtbias.errors import DataQualityWarning
from stats_mtbias.studies import rates
from tests.statistical import _bands

SHARES = rates.metric_set(5)  # the engine of a cube of the five genders (stats_mtbias.stats.metrics)


def _frame(seed: int = 1, n: int = 500, keep_b: int = 300) -> pd.DataFrame:
    """Items whose difficulty changes half way (so dropping items moves a system's own estimate); b lacks the last
    `n - keep_b` items."""
    rng = np.random.default_rng(seed)
    items = np.arange(n)
    p = np.where(items < n // 2, 0.5, 0.2)
    a = np.where(rng.random(n) < p, "female", "male")
    b = np.where(rng.random(n) < p - 0.05, "female", "male")
    frame = pd.concat(
        [pd.DataFrame({"item": items, "system": "a", "gender": a}), pd.DataFrame({"item": items, "system": "b", "gender": b})]
    )
    return frame[~((frame["system"] == "b") & (frame["item"] >= keep_b))].reset_index(drop=True)


@pytest.mark.parametrize("ci", ["bootstrap", "analytic"])
def test_a_pair_is_compared_on_the_items_both_have(ci):
    frame = _frame()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = smb.rates(frame, n_boot=500, rng=0, ci=ci)
    row = result.compare().set_index("metric").loc["female"]
    shared = frame[frame["item"] < 300]
    by_hand = ((shared["system"] == "a") & (shared["gender"] == "female")).sum() / 300 - (
        (shared["system"] == "b") & (shared["gender"] == "female")
    ).sum() / 300
    assert row["diff"] == pytest.approx(by_hand, abs=1e-12) and row["n"] == 300
    assert row["ci_low"] < row["diff"] < row["ci_high"]
    # The systems' own estimates keep all their items.
    own = result.table.set_index(["system", "metric"])["estimate"]
    assert own["a", "female"] == pytest.approx((frame[frame["system"] == "a"]["gender"] == "female").mean())
    said = [str(w.message) for w in caught if issubclass(w.category, DataQualityWarning)]
    assert said == [
        "systems cover different clusters: a lacks 0 of b's clusters and b 200 of a's (300 shared). "
        "Each pair is compared on the clusters both have — its difference, interval and test alike; the "
        "estimates per system use all of theirs."
    ]


def test_systems_on_the_same_items_are_compared_as_before_without_a_word():
    frame = _frame(keep_b=500)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = smb.rates(frame, n_boot=500, rng=0)
    assert not [w for w in caught if "cover different clusters" in str(w.message)]
    row = result.compare().set_index("metric").loc["female"]
    est = result.table.set_index(["system", "metric"])["estimate"]
    assert row["diff"] == pytest.approx(est["a", "female"] - est["b", "female"]) and row["n"] == 500


def test_systems_without_an_item_in_common_are_independent_samples():
    frame = _frame()
    frame = frame[~((frame["system"] == "a") & (frame["item"] < 300))]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = smb.rates(frame, n_boot=200, rng=0)
    assert not [w for w in caught if "cover different clusters" in str(w.message)]
    row = result.compare().set_index("metric").loc["female"]
    est = result.table.set_index(["system", "metric"])["estimate"]
    assert row["diff"] == pytest.approx(est["a", "female"] - est["b", "female"]) and row["n"] == 0


def test_the_shared_items_comparison_covers_its_level_in_both_tails():
    """The analytic comparison on the shared clusters of two systems of unequal coverage: 4,000 data sets (a tail
    off by its nominal passes with p < 0.10), the true difference that of the shared items (0.05)."""
    reps, n, keep = 4000, 400, 240
    rng = np.random.default_rng(45)
    p = np.where(np.arange(n) < n // 2, 0.5, 0.2)
    truth = 0.05  # b's share is 5 points below a's on every item
    lows, highs = np.empty(reps), np.empty(reps)
    for r in range(reps):
        female = np.stack([rng.random(n) < p, rng.random(n) < p - truth], axis=1)  # (clusters, systems)
        counts = np.zeros((n, 2, 1, 5))
        counts[..., 0, 0], counts[..., 0, 1] = female, ~female
        counts[keep:, 1] = 0  # b lacks the last items
        shared = counts[:keep]
        estimate = SHARES.statistic(shared.sum(axis=0)[None])[0]
        present = shared[..., :4].sum(axis=-1) > 0
        _, low, high, *_ = SHARES.paired(
            shared, 0, 1, estimate, None, np.zeros(keep, int), None, present, "percentile", 1.959963984540054
        )
        lows[r], highs[r] = low[0, 0], high[0, 0]
    _bands.check_interval(lows, highs, truth, 0.95, "rates: shared-items difference (analytic)")


def test_no_comparison_interval_is_a_point():
    """Two systems both at 0% (or 100%): the difference's interval is the MOVER of their score intervals, not [0, 0],
    and compare()'s mde is not 0."""
    frame = pd.DataFrame({"item": list(range(50)) * 2, "system": ["a"] * 50 + ["b"] * 50, "gender": "male"})
    for ci in ("bootstrap", "analytic"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compared = smb.rates(frame, n_boot=200, rng=0, ci=ci).compare().set_index("metric")
        female = compared.loc["female"]
        assert female["ci_low"] < 0 < female["ci_high"] and female["mde"] > 0
        # Wilson's bound at 0 of 50 on each side, put together: about 7 points each way.
        assert 0.06 < female["ci_high"] < 0.09 and female["ci_low"] == pytest.approx(-female["ci_high"])


def test_comparisons_near_zero_cover_their_level():
    """Rare shares (1% and 3% on 100 items, paired): where most data sets have few or no events, the comparison
    still covers the true difference at least at its level less 3 Monte-Carlo SE (a discrete lower limit)."""
    reps, n = 4000, 100
    rng = np.random.default_rng(0)
    covered = 0
    z = 1.959963984540054
    for _ in range(reps):
        female = np.stack([rng.random(n) < 0.01, rng.random(n) < 0.03], axis=1)
        counts = np.zeros((n, 2, 1, 5))
        counts[..., 0, 0], counts[..., 0, 1] = female, ~female
        estimate = SHARES.statistic(counts.sum(axis=0)[None])[0]
        present = counts[..., :4].sum(axis=-1) > 0
        _, low, high, *_ = SHARES.paired(counts, 0, 1, estimate, None, np.zeros(n, int), None, present, "percentile", z)
        covered += low[0, 0] <= -0.02 <= high[0, 0]
    floor = 0.95 - 3 * _bands.mc_se(0.95, reps)
    print(f"BAND rates: paired difference at 1% vs 3% on 100 items: coverage {covered / reps:.4f} >= {floor:.4f}")
    assert covered / reps >= floor

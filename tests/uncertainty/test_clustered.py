"""Item means of sampled outputs (:mod:`stats_mtbias.uncertainty.clustered`) against values computed by hand.

No simulation: every number is a closed form of a handful of items (the coverage of the intervals built
on these counts is simulated in tests/statistical/test_sampled_outputs.py).
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from stats_mtbias.uncertainty.analytic import FEW_EVENTS
from stats_mtbias.uncertainty.clustered import clustered_paired_table, effective_counts, has_samples


def _korn_graubard(items: int, level: float = 0.95) -> float:
    return (stats.norm.ppf(0.5 + level / 2) / stats.t.ppf(0.5 + level / 2, items - 1)) ** 2


def test_has_samples_only_for_a_mean_strictly_inside():
    assert has_samples([0.0, 1.0, 0.5])
    assert not has_samples([0.0, 1.0, 1.0])
    assert not has_samples(np.zeros(3))
    assert has_samples([1e-9])


def test_effective_counts_of_split_items_by_hand():
    """40 items: 10 at 1, 10 at 0, 20 at 0.5. p = 1/2, V = Σ((y − p)/40)² = 5/1600, n_eff = p(1 − p)/V = 80,
    times Korn & Graubard's (z/t₃₉)²; successes p · n_eff. At level 0.90 the t factor is that level's."""
    y = np.r_[np.ones(10), np.zeros(10), np.full(20, 0.5)]
    for level in (0.95, 0.90):
        x, n = effective_counts(y, np.ones(40), level=level)
        assert float(n) == pytest.approx(80 * _korn_graubard(40, level), rel=1e-12)
        assert float(x) == pytest.approx(0.5 * float(n), rel=1e-12)
    assert _korn_graubard(40) == pytest.approx(0.939, abs=5e-4)


def test_effective_counts_never_below_the_items():
    """Items whose samples barely disagree (one split item in 40, the rest half at 1, half at 0) would give an
    n_eff below the 40 items (a design effect above 1 from the t factor): the trials are floored at 40 and the
    successes are then ``p · n_eff`` of the floored trials."""
    y = np.r_[np.ones(20), np.zeros(19), [0.5]]
    x, n = effective_counts(y, np.ones(40))
    p = y.mean()
    v = np.sum(((y - p) / 40) ** 2)
    raw = p * (1 - p) / v * _korn_graubard(40)
    assert raw < 40 < p * (1 - p) / v
    assert float(n) == 40.0 and float(x) == pytest.approx(p * 40, rel=1e-12)


def test_effective_counts_fall_back_to_the_items_with_few_events():
    """3 split items of 40 (0.5), the rest at 0: p = 1.5 / 40; the effective minority count, 3.5, is at most
    FEW_EVENTS, so the counts are the items as they are (1.5 of 40) — the worst case — not 2.9 of 78."""
    y = np.r_[np.full(3, 0.5), np.zeros(37)]
    x, n = effective_counts(y, np.ones(40))
    assert (float(x), float(n)) == (1.5, 40.0)
    p = 1.5 / 40
    unfloored = p * (1 - p) / np.sum(((y - p) / 40) ** 2) * _korn_graubard(40)
    assert p * unfloored == pytest.approx(2.93, abs=0.01) and unfloored == pytest.approx(78.16, abs=0.01)
    assert p * unfloored <= FEW_EVENTS


def test_effective_counts_at_the_boundary_and_with_binary_items():
    """p = 0, p = 1, 0/1 item means and an empty denominator: the plain counts (and NaN-free zeros)."""
    x, n = effective_counts(np.zeros((5, 2)), np.ones((5, 2)))
    assert x.tolist() == [0.0, 0.0] and n.tolist() == [5.0, 5.0]
    x, n = effective_counts(np.full(6, 0.5) * 2, np.ones(6))
    assert (float(x), float(n)) == (6.0, 6.0)
    x, n = effective_counts(np.r_[np.ones(30), np.zeros(30)], np.ones(60))
    assert (float(x), float(n)) == (30.0, 60.0)
    # An item outside the denominator (0 there) adds nothing; columns are independent proportions.
    num = np.array([[0.5, 1.0], [0.5, 0.0], [0.0, 0.0]])
    den = np.array([[1.0, 1.0], [1.0, 1.0], [0.0, 1.0]])
    x, n = effective_counts(num, den)
    assert n[1] == 3.0 and x[1] == 1.0  # binary column: the counts
    assert n[0] == 2.0 and x[0] == 1.0  # p = 1/2 on two items of 0.5: no variance, the items


def test_clustered_paired_table_by_hand():
    """Two systems' item means on 30 items: 14 at (0.5, 0.5), 8 at (1, 0), 8 at (0, 0).

    Expected counts: n11 = Σ xy = 3.5, n10 = Σ x(1 − y) = 3.5 + 8, n01 = 3.5, n00 = 3.5 + 8; Σ d² = 8 and the
    discordance n10 + n01 = 15, so the design effect is 8 / 15 (28 effective discordant items) and
    McNemar's (b − c)²/(b + c) on the table equals (Σ d)² / Σ d² = 64 / 8 (Durkalski et al. 2003)."""
    x = np.r_[np.full(14, 0.5), np.ones(8), np.zeros(8)]
    y = np.r_[np.full(14, 0.5), np.zeros(8), np.zeros(8)]
    n11, n10, n01, n00 = (float(v) for v in clustered_paired_table(x, y))
    deff = 8 / 15
    assert (n11, n10, n01, n00) == pytest.approx((3.5 / deff, 11.5 / deff, 3.5 / deff, 11.5 / deff), rel=1e-12)
    assert (n10 - n01) ** 2 / (n10 + n01) == pytest.approx(64 / 8, rel=1e-12)


def test_clustered_paired_table_with_few_discordant_is_the_plain_table():
    """Three items differ by 1 and four agree at 0.5: the design effect, 3 / 5, would leave 8.3 discordant — at
    most FEW_EVENTS, so the table is the items' as they are; `within` drops items."""
    x = np.r_[np.ones(3), np.full(4, 0.5), np.zeros(5)]
    y = np.r_[np.zeros(3), np.full(4, 0.5), np.zeros(5)]
    table = [float(v) for v in clustered_paired_table(x, y)]
    assert table == pytest.approx([1.0, 4.0, 1.0, 6.0], rel=1e-12)
    within = np.r_[np.ones(3), np.ones(4), np.zeros(5)].astype(bool)
    assert [float(v) for v in clustered_paired_table(x, y, within)] == pytest.approx([1.0, 4.0, 1.0, 1.0], rel=1e-12)
    # 0/1 means: exactly the ordinary paired 2×2 table.
    a, b = np.array([1.0, 1, 0, 0, 1]), np.array([1.0, 0, 1, 0, 0])
    assert [float(v) for v in clustered_paired_table(a, b)] == [1.0, 2.0, 1.0, 1.0]
    # Identical systems: Σ d² = 0, the plain table (the split items' x(1 − x) in both discordant cells).
    assert [float(v) for v in clustered_paired_table(x, x)] == pytest.approx([4.0, 1.0, 1.0, 6.0])


def _hand_effective(y: np.ndarray, den: np.ndarray, level: float = 0.95) -> tuple[float, float]:
    """Korn & Graubard's effective counts of one column by hand: n_eff = p(1 − p)/V · (z/t_{k−1})², floored at the
    items' outputs, and the outputs themselves at ten or fewer effective minority events."""
    trials, p = den.sum(), y.sum() / den.sum()
    v = np.sum(((y - p * den) / trials) ** 2)
    n_eff = max(p * (1 - p) / v * _korn_graubard(int((den > 0).sum()), level), trials)
    if min(p, 1 - p) * n_eff <= FEW_EVENTS:
        return y.sum(), trials
    return p * n_eff, n_eff


def test_effective_counts_column_by_column():
    """Columns are separate proportions (axis 0 the items): two items at 0.49 and 0.51 among 40 rows (Student's t
    with 1 degree of freedom: n_eff 119), splits without a 1 (0.5 and 0), without a 0 (0.5 and 1), and the mirror
    of the few-events case (3 split items, the rest at 1: few *failures*, so the items), and an empty one."""
    rows = 40
    num, den = np.zeros((rows, 5)), np.ones((rows, 5))
    den[:, 4] = 0.0  # a proportion with no item in its denominator: no successes of no trials, not NaN
    num[:2, 0], den[2:, 0] = [0.49, 0.51], 0.0
    num[:20, 1] = 0.5
    num[:20, 2], num[20:, 2] = 0.5, 1.0
    num[:3, 3], num[3:, 3] = 0.5, 1.0
    x, n = effective_counts(num, den)
    assert x.dtype == n.dtype == np.float64 and x.shape == n.shape == (5,)
    assert (x[4], n[4]) == (0.0, 0.0)
    expected = [_hand_effective(num[:, k], den[:, k]) for k in range(4)]
    np.testing.assert_allclose(np.c_[x, n][:4], expected, rtol=1e-12)
    assert n[0] == pytest.approx(0.25 / 5e-5 * _korn_graubard(2), rel=1e-12) and n[0] == pytest.approx(119.0, abs=0.5)
    assert n[1] == pytest.approx(120 * _korn_graubard(40), rel=1e-12) == n[2]
    assert (x[3], n[3]) == (38.5, 40.0)


def test_clustered_paired_table_column_by_column():
    """Three pairs of systems on 30 items, one per column.

    - 10 items at (1, 0.5), 20 at (0, 0): Σ d² = 2.5, discordance 5, design effect 1/2 — an effective discordance
      of exactly FEW_EVENTS (10), so the plain table (5, 5, 0, 20);
    - 2 items at (0.2, 0.3), 28 at (0, 0): Σ d² = 0.02, discordance 0.76, design effect 0.02 / 0.76 (an effective
      28.9 discordant items): the expected counts divided by it;
    - 8 items at (0, 1), 14 at (0.5, 0.5), 8 at (0, 0): the by-hand case with the sign of d reversed, design
      effect 8 / 15.
    """
    x, y = np.zeros((30, 3)), np.zeros((30, 3))
    x[:10, 0], y[:10, 0] = 1.0, 0.5
    x[:2, 1], y[:2, 1] = 0.2, 0.3
    y[:8, 2] = 1.0
    x[8:22, 2] = y[8:22, 2] = 0.5
    table = np.array(clustered_paired_table(x, y))
    assert table.dtype == np.float64 and table.shape == (4, 3)
    np.testing.assert_allclose(table[:, 0], [5.0, 5.0, 0.0, 20.0], rtol=1e-12)
    deff = 0.02 / 0.76
    np.testing.assert_allclose(table[:, 1], np.array([0.12, 0.28, 0.48, 2 * 0.56 + 28]) / deff, rtol=1e-9)
    np.testing.assert_allclose(table[:, 2], np.array([3.5, 3.5, 11.5, 11.5]) * 15 / 8, rtol=1e-12)


def test_clustered_paired_table_takes_indicators_of_any_type():
    """0/1 indicators given as booleans or integers are the same table as floats (and floats come out)."""
    a, b = np.array([True, True, False, False, True]), np.array([True, False, True, False, False])
    expected = [1.0, 2.0, 1.0, 1.0]
    for first, second in ((a, b), (a.astype(int), b.astype(int)), (a.tolist(), b.tolist())):
        table = clustered_paired_table(first, second)
        assert [float(v) for v in table] == expected
        assert all(np.asarray(v).dtype == np.float64 for v in table)
    x, n = effective_counts(a, np.ones(5, dtype=bool))
    assert (float(x), float(n)) == (3.0, 5.0)

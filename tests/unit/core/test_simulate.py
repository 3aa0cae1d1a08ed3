"""Simulated power from a pilot: inner bootstrap, interval half-width and MDE on designs whose answer is known."""

import numpy as np
import pytest
from scipy import stats

from stats_mtbias.errors import UsageError
from stats_mtbias.planning import simulate as sim


def _mean_statistic(totals):
    # Totals (r, 2, 2) of [sum of values, clusters] per system → the mean value per system, shape (r, 2, 1).
    return totals[..., :1] / totals[..., 1:]


def _design(a, b=None, strata=None, single=False):
    """Clusters with value a_i (system a) and b_i (system b); the metric is the mean value per cluster."""
    a = np.asarray(a, float)
    b = a.copy() if b is None else np.asarray(b, float)
    ones = np.ones_like(a)
    counts = np.stack([np.stack([a, ones], axis=1), np.stack([b, ones], axis=1)], axis=1)  # (n, 2, 2)
    strata = np.zeros(len(a), int) if strata is None else np.asarray(strata)
    return sim.PairedDesign(counts, _mean_statistic, (0,), strata, single=single)


def _wald(estimates, se, alternative="two-sided", alpha=0.05):
    """A Wald Simulation whose pilot difference is 0, so the power at δ tests estimates + δ."""
    design = _design([0.0, 1.0])  # a == b: observed difference 0
    est = np.asarray(estimates, float)
    return sim.Simulation(design, 10, est, np.broadcast_to(np.asarray(se, float), est.shape).copy(), None, "wald",
                          alpha, alternative)  # fmt: skip


@pytest.mark.parametrize("k", [5, 70])  # 5: multinomial resampling; 70 (> 64 patterns): index draws
def test_inner_bootstrap_of_one_pattern_evaluations_is_their_value(k):
    """Evaluations whose clusters are copies of one pattern per stratum give that (stratified) mean in every replicate."""
    values = np.r_[np.arange(k), 100 + np.arange(k)]
    design = _design(values, strata=np.repeat([0, 1], k), single=True)
    patterns = sim._patterns(design)
    assert [p.rows.shape[0] for p in patterns] == [k, k]
    picks = [(0, 4), (3, 1), (k - 1, k - 1)]  # pattern of stratum 0 and of stratum 1 in each evaluation
    m0, m1 = np.zeros((3, k), int), np.zeros((3, k), int)
    for j, (u, v) in enumerate(picks):
        m0[j, u], m1[j, v] = 3, 2
    out = sim._inner_bootstrap(design, [m0, m1], patterns, 40, np.random.default_rng(0))
    assert out.shape == (40, 3)
    for j, (u, v) in enumerate(picks):
        assert np.allclose(out[:, j], (3 * u + 2 * (100 + v)) / 5, rtol=0, atol=1e-12)
    # One evaluation alone (a block of one column).
    one = sim._inner_bootstrap(design, [m0[1:2], m1[1:2]], patterns, 30, np.random.default_rng(1))
    assert np.allclose(one, (3 * 3 + 2 * 101) / 5, rtol=0, atol=1e-12)


@pytest.mark.parametrize("k", [5, 70])
def test_inner_bootstrap_resamples_each_evaluations_own_clusters_with_replacement(k):
    """Two clusters (values u, v) resampled twice: u, (u+v)/2, v with probabilities 1/4, 1/2, 1/4, per evaluation."""
    design = _design(np.arange(k) * 1.0, single=True)
    patterns = sim._patterns(design)
    m = np.zeros((2, k), int)
    m[0, [0, 1]] = 1  # values 0 and 1
    m[1, [2, 4]] = 1  # values 2 and 4
    b = 2000
    out = sim._inner_bootstrap(design, [m], patterns, b, np.random.default_rng(2))
    tol = 4.5 * np.sqrt(0.25 * 0.75 / b)
    for j, (u, v) in enumerate([(0, 1), (2, 4)]):
        col = out[:, j]
        assert set(np.round(col, 9)) == {u, (u + v) / 2, v}
        assert np.mean(col == u) == pytest.approx(0.25, abs=tol)
        assert np.mean(col == v) == pytest.approx(0.25, abs=tol)


@pytest.mark.parametrize("k", [5, 70])
def test_inner_bootstrap_mean_and_variance_are_those_of_resampling_the_evaluation(k):
    """Replicates of an evaluation of n distinct clusters: mean = its mean, variance = population variance / n."""
    design = _design(np.arange(k) ** 1.5, single=True)
    patterns = sim._patterns(design)
    vals = patterns[0].rows[:, 0]
    m = np.zeros((1, k), int)
    m[0] = 1 if k > 5 else [3, 1, 4, 1, 5]  # n = 70 distinct clusters, or 14 clusters with repeats
    n = m.sum()
    mean = (m[0] * vals).sum() / n
    var = (m[0] * (vals - mean) ** 2).sum() / n / n
    b = 4000
    out = sim._inner_bootstrap(design, [m], patterns, b, np.random.default_rng(3))[:, 0]
    assert out.mean() == pytest.approx(mean, abs=4.5 * np.sqrt(var / b))
    assert out.var() == pytest.approx(var, rel=0.12)


@pytest.mark.filterwarnings("ignore:All-NaN slice:RuntimeWarning")
def test_bootstrap_half_width_is_the_mean_percentile_half_width():
    """Replicates 0..100 (and twice that): linear quantiles are 100q, so the half-width at level L is 50·L per column."""
    col = np.arange(101.0)
    reps = np.stack([col, 2 * col, np.full(101, np.nan)], axis=1)  # an all-NaN evaluation is left out of the mean
    s = sim.Simulation(_design([0.0, 1.0]), 10, np.zeros(3), None, reps, "bootstrap", 0.05, "two-sided")
    assert s.half_width() == pytest.approx((47.5 + 95.0) / 2, rel=1e-12)
    assert s.half_width(0.9) == pytest.approx((45.0 + 90.0) / 2, rel=1e-12)
    assert s.half_width(0.5) == pytest.approx((25.0 + 50.0) / 2, rel=1e-12)


def test_wald_half_width_is_z_times_the_mean_se():
    """Wald: the mean of z_{(1+L)/2} · se."""
    s = _wald(np.zeros(4), [0.1, 0.2, 0.3, np.nan])
    assert s.half_width() == pytest.approx(stats.norm.ppf(0.975) * 0.2, rel=1e-12)
    assert s.half_width(0.8) == pytest.approx(stats.norm.ppf(0.9) * 0.2, rel=1e-12)


def test_mde_of_a_certain_estimate_is_the_first_point_of_the_grid():
    """No spread and se = 0: every δ ≠ 0 is detected, so the MDE is below the grid's first step (8·1e-6/320)."""
    s = _wald(np.zeros(20), 0.0)
    got = s.mde()
    assert 0 < got <= 8e-6 / 320 * (1 + 1e-9)
    assert s.mde(0.99) == got


def test_one_sided_mde_reads_the_power_in_the_tested_direction():
    """One-sided Wald test, estimates uniform on [−1, 1], se 1: power(δ) = (1 − (z_{0.95} − δ))/2, so MDE = z + 2p − 1.

    (Before the fix, the one-sided MDE took the smaller power of both directions, which a one-sided test never
    reaches the other way: the answer was always NaN.)
    """
    e = np.linspace(-1, 1, 4001)
    z = stats.norm.ppf(0.95)
    for target in (0.55, 0.7, 0.8, 0.93):
        want = z + 2 * target - 1
        assert _wald(e, 1.0, "greater").mde(target) == pytest.approx(want, abs=2e-3)
        assert _wald(-e, 1.0, "less").mde(target) == pytest.approx(want, abs=2e-3)


def _two_sided_power(e, deltas, z):
    # Share of the evaluations with |estimate + δ| / se > z (se = 1), for each δ: e > z − δ or e < −z − δ.
    srt, d = np.sort(e), np.asarray(deltas)
    above = len(srt) - np.searchsorted(srt, z - d, side="right")
    below = np.searchsorted(srt, -z - d, side="left")
    return (above + below) / len(srt)


def test_two_sided_mde_is_the_smaller_power_of_the_two_directions():
    """Skewed estimates: the MDE is where the weaker direction reaches the power (enumerated on a fine δ grid)."""
    e = np.r_[np.linspace(0, 1.5, 3000), np.linspace(-0.3, 0, 1001)]
    z = stats.norm.ppf(0.975)
    deltas = np.arange(0, 6, 1e-3)
    for target in (0.6, 0.8):
        both = np.minimum(_two_sided_power(e, deltas, z), _two_sided_power(e, -deltas, z))
        i = int(np.argmax(both >= target))
        want = deltas[i]
        assert _wald(e, 1.0).mde(target) == pytest.approx(want, abs=5e-3)
    # The weaker direction is the negative one here: its MDE is larger than the positive direction's alone.
    plus = _two_sided_power(e, deltas, z)
    assert deltas[int(np.argmax(plus >= 0.8))] < _wald(e, 1.0).mde(0.8) - 0.3


def test_mde_with_few_evaluations_is_where_the_power_first_reaches_the_target():
    """Ten evaluations: the power steps by 0.1; the MDE lies within one grid step above the δ where it first reaches it."""
    e = np.array([-0.9, -0.5, -0.45, -0.4, -0.3, 0.0, 0.2, 0.3, 0.35, 0.4])
    s = _wald(e, 1.0, "greater")
    z = stats.norm.ppf(0.95)
    step = 8 * np.std(e) / 320
    for target, k in [(0.8, 8), (0.75, 8), (0.7, 7), (0.5, 5)]:
        # power(δ) = #{e_j > z − δ} / 10 reaches k/10 when δ passes z − (k-th largest e).
        first = z - np.sort(e)[::-1][k - 1]
        got = s.mde(target)
        assert first - step <= got <= first + step


def test_mde_is_nan_when_the_power_is_never_reached():
    """A test that never rejects (NaN estimates) has no MDE."""
    s = _wald(np.r_[np.full(10, np.nan), 0.0], 1.0)
    assert np.isnan(s.mde())


def test_mde_refuses_a_power_outside_0_1():
    """power must lie in (0, 1)."""
    with pytest.raises(UsageError):
        _wald(np.zeros(10), 1.0).mde(1.0)

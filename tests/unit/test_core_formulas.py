"""Hand formulas and independent implementations for the parts of the statistics core that mutation testing
showed no fast test would miss (issue 38; docs/testing.md). Every expected value is computed here, from the
formula or by scipy/statsmodels, never by the package function under test.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy import special, stats

from stats_mtbias.errors import DataQualityWarning, UsageError
from stats_mtbias.estimators.tgbi import p_s, tgbi_index
from stats_mtbias.planning import closed
from stats_mtbias.significance.agreement import agreement, cohens_kappa
from stats_mtbias.significance.effect_sizes import cohens_h, odds_ratio, paired_difference_in_proportions
from stats_mtbias.significance.paired import paired_test
from stats_mtbias.uncertainty import analytic as an

Z975 = stats.norm.ppf(0.975)


# ----------------------------------------------------------------------------- g = p_w p_m + p_n and its variance
def test_g_and_its_gradient():
    p = np.array([[0.2, 0.5, 0.3], [0.1, 0.1, 0.8]])
    g, grad = an._g_parts(p)
    np.testing.assert_allclose(g, [0.2 * 0.5 + 0.3, 0.1 * 0.1 + 0.8])
    np.testing.assert_allclose(grad, [[0.5, 0.2, 1.0], [0.1, 0.1, 1.0]])


def test_multinomial_variance_of_g_is_the_delta_method():
    p = np.array([0.2, 0.5, 0.3])
    n = 40.0
    # Var(g) of n multinomial draws, delta method: grad' (diag(p) − p p') grad / n, written out.
    grad = np.array([0.5, 0.2, 1.0])
    cov = (np.diag(p) - np.outer(p, p)) / n
    assert an._multinomial_var(p, grad, np.array(n)) == pytest.approx(grad @ cov @ grad)
    two = an._multinomial_var(np.stack([p, p[::-1]]), np.stack([grad, grad]), np.array([n, 2 * n]))
    assert two[1] == pytest.approx(grad @ ((np.diag(p[::-1]) - np.outer(p[::-1], p[::-1])) / (2 * n)) @ grad)


def test_influence_and_effective_size_of_g_by_hand():
    """Clusters of sentences: g's linearised values and n_eff = g (1 − g) / V by hand (V = k/(k−1) Σ u²)."""
    x = np.array([[2, 1, 1], [0, 3, 1], [1, 1, 0], [0, 0, 2], [3, 0, 1]], dtype=float)  # (clusters, f/m/n)
    n = x.sum()
    p = x.sum(0) / n
    g = p[0] * p[1] + p[2]
    grad = np.array([p[1], p[0], 1.0])
    u = (x - np.outer(x.sum(1), p)) @ grad / n  # per-cluster influence
    influence, k = an._influence(x, grad)
    np.testing.assert_allclose(influence, u)
    assert k == 5
    v = 5 / 4 * np.sum(u**2)
    g_hat, n_eff = an._g_effective(x, worst_case=False)
    assert g_hat == pytest.approx(g)
    assert n_eff == pytest.approx(g * (1 - g) / v)
    # Its score interval is the modified Wilson interval of g on that size, i.e. Wilson's here (no few events).
    _, ci = an.g_score_interval(x, worst_case=False)
    centre = (g + Z975**2 / (2 * n_eff)) / (1 + Z975**2 / n_eff)
    half = Z975 * np.sqrt(g * (1 - g) / n_eff + Z975**2 / (4 * n_eff**2)) / (1 + Z975**2 / n_eff)
    assert (float(ci.low), float(ci.high)) == pytest.approx((centre - half, centre + half))
    # A cluster without outputs changes neither g nor the cluster count.
    _, k_empty = an._influence(np.vstack([x, np.zeros((1, 3))]), grad)
    assert k_empty == 5


def test_effective_size_with_few_minority_outputs_takes_the_worst_case():
    """Two female outputs among 300 in clusters of three: the design effect is at least the cluster size."""
    x = np.zeros((100, 3))
    x[:, 1] = 3
    x[0] = [1, 2, 0]
    x[50] = [1, 2, 0]
    g, n_eff_est = an._g_effective(x, worst_case=False)
    _, n_eff_worst = an._g_effective(x, worst_case=True)
    assert n_eff_worst < n_eff_est
    # worst case: V = V_mult × max(deff, 3) with V_mult = Var of g from 300 outputs
    p = x.sum(0) / 300
    grad = np.array([p[1], p[0], 1.0])
    v_mult = (np.sum(p * grad**2) - np.sum(p * grad) ** 2) / 300
    u = (x - np.outer(x.sum(1), p)) @ grad / 300
    deff = 100 / 99 * np.sum(u**2) / v_mult
    assert n_eff_est == pytest.approx(g * (1 - g) / (v_mult * deff))
    assert n_eff_worst == pytest.approx(g * (1 - g) / (v_mult * max(deff, 3.0)))
    # g = 0 (every output male): n_eff is the number of outputs over the cluster size, and the interval is no point.
    zero = np.zeros((100, 3))
    zero[:, 1] = 3
    g0, n0 = an._g_effective(zero)
    assert g0 == 0 and n0 == pytest.approx(100.0)
    assert float(an.p_s_interval(np.concatenate([zero, np.zeros((100, 2))], axis=1)).high) > 0


def test_p_s_interval_is_the_square_root_of_g_and_both_rule():
    counts = np.zeros((60, 5))
    counts[:20, 0] = 1
    counts[20:50, 1] = 1
    counts[50:55, 3] = 1  # "both": neutral by default, left out with both="exclude"
    counts[55:, 2] = 1
    for both, fmn in (("neutral", [20, 30, 10]), ("exclude", [20, 30, 5])):
        ci = an.p_s_interval(counts, both=both)
        x = np.zeros((60, 3))
        x[:20, 0], x[20:50, 1] = 1, 1
        x[50:55, 2] = 1.0 if both == "neutral" else 0.0
        x[55:, 2] = 1
        _, g_ci = an.g_score_interval(x)
        assert (float(ci.low), float(ci.high)) == pytest.approx((np.sqrt(g_ci.low), np.sqrt(g_ci.high)))
        n = sum(fmn)
        assert float(p_s(counts.sum(0), both)) == pytest.approx(np.sqrt(fmn[0] * fmn[1] / n**2 + fmn[2] / n))


def test_tgbi_index_is_the_mean_over_the_set_axis():
    values = np.array([[0.1, 0.2, 0.6], [0.3, 0.3, 0.3]])
    np.testing.assert_allclose(tgbi_index(values), [0.3, 0.3])
    np.testing.assert_allclose(tgbi_index(values, axis=0), [0.2, 0.25, 0.45])
    assert tgbi_index(np.array([1, 2], dtype=np.int64)) == 1.5


def test_proportion_interval_divides_by_the_design_effect():
    for method, ref in (
        ("wilson", an.modified_wilson_interval),
        ("jeffreys", an.jeffreys_interval),
        ("clopper-pearson", an.clopper_pearson_interval),
    ):
        ci = an.proportion_interval(30, 100, method=method, deff=2.0, level=0.9)
        expected = ref(15.0, 50.0, 0.9)
        assert (float(ci.low), float(ci.high)) == pytest.approx((float(expected.low), float(expected.high)))
    with pytest.raises(UsageError, match="method"):
        an.proportion_interval(3, 10, method="wald")


@pytest.mark.parametrize("k", [0, 1, 7, 50])
def test_jeffreys_and_clopper_pearson_by_the_beta_quantiles(k):
    n, level = 50, 0.9
    jl, jh = an.jeffreys_interval(k, n, level).low, an.jeffreys_interval(k, n, level).high
    assert float(jl) == pytest.approx(0.0 if k == 0 else stats.beta.ppf(0.05, k + 0.5, n - k + 0.5))
    assert float(jh) == pytest.approx(1.0 if k == n else stats.beta.ppf(0.95, k + 0.5, n - k + 0.5))
    cl, ch = an.clopper_pearson_interval(k, n, level).low, an.clopper_pearson_interval(k, n, level).high
    assert float(cl) == pytest.approx(0.0 if k == 0 else stats.beta.ppf(0.05, k, n - k + 1))
    assert float(ch) == pytest.approx(1.0 if k == n else stats.beta.ppf(0.95, k + 1, n - k))


def test_modified_wilson_takes_garwoods_poisson_ends_below_eleven():
    # 3 of 1000: each end the outer of Wilson's and Garwood's exact Poisson limit (Gamma.ppf(.025, 3)/n, (.975, 4)/n).
    ci = an.modified_wilson_interval(3, 1000)
    k, n = 3, 1000
    centre = (k / n + Z975**2 / (2 * n)) / (1 + Z975**2 / n)
    half = Z975 * np.sqrt(k / n * (1 - k / n) / n + Z975**2 / (4 * n * n)) / (1 + Z975**2 / n)
    assert float(ci.low) == pytest.approx(min(centre - half, stats.gamma.ppf(0.025, 3) / 1000))
    assert float(ci.high) == pytest.approx(max(centre + half, stats.gamma.ppf(0.975, 4) / 1000))
    assert float(ci.low) < centre - half  # the Poisson end is the outer one below
    # 997 of 1000 mirrors it; 11 of 1000 is Wilson's own.
    top = an.modified_wilson_interval(997, 1000)
    assert (float(top.low), float(top.high)) == pytest.approx((1 - float(ci.high), 1 - float(ci.low)))
    w = an.wilson_interval(11, 1000)
    eleven = an.modified_wilson_interval(11, 1000)
    assert (float(eleven.low), float(eleven.high)) == pytest.approx((float(w.low), float(w.high)))
    assert float(an.modified_wilson_interval(10, 1000).low) == pytest.approx(stats.gamma.ppf(0.025, 10) / 1000)


# ----------------------------------------------------------------------------- effect sizes and small tests
def test_cohens_h_refuses_shares_outside_the_unit_interval():
    assert cohens_h(1.0, 0.0) == pytest.approx(np.pi)
    assert cohens_h(0, 1) == pytest.approx(-np.pi)
    np.testing.assert_allclose(cohens_h([0.5, 0.9], 0.5), [0.0, 2 * np.arcsin(np.sqrt(0.9)) - np.pi / 2])
    for p1, p2 in ((-0.01, 0.5), (1.01, 0.5), (0.5, -0.01), (0.5, 1.01)):
        with pytest.raises(ValueError, match=r"\[0, 1\]"):
            cohens_h(p1, p2)


def test_odds_ratio_every_branch_by_hand():
    res = odds_ratio([[20, 10], [8, 16]], level=0.9)
    se = np.sqrt(1 / 20 + 1 / 10 + 1 / 8 + 1 / 16)
    z = stats.norm.ppf(0.95)
    assert float(res.estimate) == pytest.approx(4.0)
    assert (float(res.low), float(res.high)) == pytest.approx((4 * np.exp(-z * se), 4 * np.exp(z * se)))
    assert res.method == "Woolf log interval"
    zero = odds_ratio([[5, 0], [3, 4]])
    assert zero.method == "Woolf log interval (Haldane 1/2 added to every cell)"
    se0 = np.sqrt(1 / 5.5 + 1 / 0.5 + 1 / 3.5 + 1 / 4.5)
    assert float(zero.low) == pytest.approx(5.5 * 4.5 / (0.5 * 3.5) * np.exp(-Z975 * se0))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert float(odds_ratio([[0, 5], [3, 4]], correction="none").estimate) == 0.0
        assert np.isinf(float(odds_ratio([[5, 0], [3, 4]], correction="none").estimate))
        assert float(odds_ratio([[5, 2], [0, 4]], correction="none").estimate) == np.inf
        assert np.isnan(float(odds_ratio([[0, 0], [3, 4]], correction="none").estimate))
    assert odds_ratio([[5, 0], [3, 4]], correction="none").method == "sample odds ratio (zero cell, no interval)"
    for bad in ([[1, 2, 3], [4, 5, 6]], [[1, -1], [2, 3]]):
        with pytest.raises(ValueError, match="2×2"):
            odds_ratio(bad)
    with pytest.raises(UsageError, match="correction"):
        odds_ratio([[1, 2], [3, 4]], correction="woolf")


def test_paired_difference_in_proportions_passes_its_level_and_refuses_an_empty_table():
    # Newcombe (1998b) method 10 at 90%: Wilson limits at z = 1.645 combined with the corrected phi, by hand.
    a, b, c, d, n = 20, 12, 2, 16, 50
    z = stats.norm.ppf(0.95)
    w = an.wilson_interval(np.array([a + b, a + c]), n, 0.9)
    p1, p2 = (a + b) / n, (a + c) / n
    phi = (a * d - b * c - n / 2) / np.sqrt((a + b) * (c + d) * (a + c) * (b + d))
    dl1, du1, dl2, du2 = p1 - w.low[0], w.high[0] - p1, p2 - w.low[1], w.high[1] - p2
    res = paired_difference_in_proportions(a, b, c, d, level=0.9)
    assert float(res.low) == pytest.approx(p1 - p2 - np.sqrt(dl1**2 - 2 * phi * dl1 * du2 + du2**2))
    assert float(res.high) == pytest.approx(p1 - p2 + np.sqrt(du1**2 - 2 * phi * du1 * dl2 + dl2**2))
    assert z < Z975
    with pytest.raises(ValueError, match="empty"):
        paired_difference_in_proportions(0, 0, 0, 0)
    with pytest.raises(ValueError, match="non-negative"):
        paired_difference_in_proportions(1, -1, 0, 2)
    # Tables of one or two items are not empty (whichever cells hold them).
    ok = paired_difference_in_proportions([0, 3, 0, 0, 1], [0, 1, 0, 1, 1], [1, 0, 1, 1, 0], [0, 0, 1, 0, 0])
    assert np.all(np.isfinite(ok.low)) and np.all(np.isfinite(ok.high))


@pytest.mark.parametrize("alternative", ["greater", "less", "two-sided"])
def test_paired_t_test_matches_scipy(alternative):
    rng = np.random.default_rng(4)
    first, second = rng.integers(0, 6, 30), rng.integers(0, 6, 30)
    res = paired_test(first, second, trials=np.full(30, 6), method="ttest", alternative=alternative)
    ref = stats.ttest_rel(first / 6, second / 6, alternative=alternative)
    assert res.statistic == pytest.approx(ref.statistic) and res.pvalue == pytest.approx(ref.pvalue)
    assert res.n == 30 and res.mean_difference == pytest.approx(np.mean((first - second) / 6))
    assert (res.n_positive, res.n_negative) == (int(np.sum(first > second)), int(np.sum(first < second)))
    assert res.method == "ttest" and res.alternative == alternative


def test_paired_t_test_without_spread_and_too_few_items():
    same = paired_test([1, 1, 1], [0, 0, 0], method="ttest", alternative="greater")
    assert same.statistic == np.inf and same.pvalue == 0.0
    assert paired_test([1, 1, 1], [0, 0, 0], method="ttest", alternative="less").pvalue == 1.0
    assert paired_test([0, 0, 0], [1, 1, 1], method="ttest", alternative="less").pvalue == 0.0
    assert paired_test([1, 1, 1], [0, 0, 0], method="ttest", alternative="two-sided").pvalue == 0.0
    tie = paired_test([1, 0, 1], [1, 0, 1], method="ttest", alternative="two-sided")
    assert (tie.statistic, tie.pvalue) == (0.0, 1.0)
    one = paired_test([1], [0], method="ttest")
    assert np.isnan(one.statistic) and np.isnan(one.pvalue)
    two = paired_test([1, 0], [0, 0], method="ttest", alternative="two-sided")
    assert two.pvalue == pytest.approx(stats.ttest_rel([1, 0], [0, 0]).pvalue)


def test_paired_exact_test_is_the_sign_test_and_refuses_bad_shapes():
    res = paired_test([3, 2, 0, 1, 5], [1, 2, 1, 0, 0], trials=[6, 6, 6, 6, 6])
    assert (res.statistic, res.n_positive, res.n_negative) == (3.0, 3, 1)
    assert res.pvalue == pytest.approx(stats.binomtest(3, 4, 0.5, alternative="greater").pvalue)
    assert paired_test([0, 1], [1, 1], alternative="less").pvalue == pytest.approx(0.5)
    with pytest.raises(ValueError, match="same length"):
        paired_test([1, 2], [1])
    with pytest.raises(ValueError, match="`trials`"):
        paired_test([1, 2], [1, 0], trials=[1, 0])
    with pytest.raises(ValueError, match="`trials`"):
        paired_test([1, 2], [1, 0], trials=[1])
    assert np.isnan(paired_test([], []).mean_difference)


# ----------------------------------------------------------------------------- Cohen's kappa: the undefined cases
def test_kappa_is_undefined_for_no_item_and_for_one_shared_category():
    assert np.isnan(cohens_kappa(np.array([]), np.array([])))
    with pytest.warns(DataQualityWarning, match="undefined"):
        assert np.isnan(cohens_kappa(np.array(["m", "m"]), np.array(["m", "m"])))
    # One item, two categories: p_o = 0, p_e = 0: kappa 0 (defined).
    assert cohens_kappa(np.array(["m"]), np.array(["f"])) == 0.0
    # Categories used by one rater only count in p_e: a = m m f, b = m f n -> p_o = 1/3, p_e = 2/9 + 1/9 = 1/3... by hand
    a, b = np.array(["m", "m", "f"]), np.array(["m", "f", "n"])
    p_o, p_e = 1 / 3, (2 / 3) * (1 / 3) + (1 / 3) * (1 / 3)
    assert cohens_kappa(a, b) == pytest.approx((p_o - p_e) / (1 - p_e))
    assert cohens_kappa(list(a), list(b)) == pytest.approx((p_o - p_e) / (1 - p_e))
    res = agreement(np.array(["m", "f", "m", "m"]), np.array(["m", "f", "f", "m"]))
    w = an.wilson_interval(3, 4)
    assert res["agreement"] == 0.75 and (res["ci_low"], res["ci_high"]) == pytest.approx((float(w.low), float(w.high)))
    assert all(np.isnan(v) for v in agreement(np.array([]), np.array([])).values())


# ----------------------------------------------------------------------------- planning: the normal designs
def test_normal_power_counts_both_tails_and_inverts_into_the_mde():
    z = stats.norm.ppf(0.975)
    d, se = 0.5, 0.4
    assert float(closed.normal_power(d, se)) == pytest.approx(special.ndtr(d / se - z) + special.ndtr(-d / se - z))
    assert float(closed.normal_power(-d, se)) == pytest.approx(float(closed.normal_power(d, se)))
    one = stats.norm.ppf(0.95)
    assert float(closed.normal_power(d, se, alternative="one-sided")) == pytest.approx(special.ndtr(d / se - one))
    assert float(closed.normal_power(0.0, se)) == pytest.approx(0.05)
    assert float(closed.normal_mde(0.4, power=0.9)) == pytest.approx((z + stats.norm.ppf(0.9)) * 0.4)
    # Size: the SE at n units scales as 1/sqrt(n); 100 units with SE 0.4 detect 0.2 at 80% with n * (MDE/0.2)^2.
    n = closed.normal_sample_size(0.2, 0.4, 100)
    assert int(n) == int(np.ceil(100 * ((z + stats.norm.ppf(0.8)) * 0.4 / 0.2) ** 2 - 1e-9))
    assert int(closed.normal_sample_size(-0.2, 0.4, 100, power=0.9)) > int(n)
    with pytest.raises(UsageError, match="non-zero"):
        closed.normal_sample_size(0.0, 0.4, 100)


def test_mde_from_interval_reads_the_standard_error_off_the_width():
    se = 0.03
    low, high = 0.1 - 1.959963984540054 * se, 0.1 + 1.959963984540054 * se
    assert float(closed.mde_from_interval(low, high)) == pytest.approx((Z975 + stats.norm.ppf(0.8)) * se)
    z90 = stats.norm.ppf(0.95)
    assert float(closed.mde_from_interval(-z90 * se, z90 * se, level=0.9, power=0.9)) == pytest.approx(
        (Z975 + stats.norm.ppf(0.9)) * se
    )
    z_alpha10 = stats.norm.ppf(0.95)
    assert float(closed.mde_from_interval(low, high, alpha=0.1)) == pytest.approx((z_alpha10 + stats.norm.ppf(0.8)) * se)


def test_defaults_and_levels_reach_the_formulas():
    """The default level is 0.95 and a level passed on is used (each checked against its formula)."""
    assert float(an.jeffreys_interval(7, 50).low) == pytest.approx(stats.beta.ppf(0.025, 7.5, 43.5))
    assert float(an.clopper_pearson_interval(7, 50).low) == pytest.approx(stats.beta.ppf(0.025, 7, 44))
    counts = np.zeros((60, 5))
    counts[:25, 0], counts[25:, 1] = 1, 1
    wide, narrow = an.p_s_interval(counts, 0.99), an.p_s_interval(counts, 0.8)
    usual = an.p_s_interval(counts)
    assert float(wide.high - wide.low) > float(usual.high - usual.low) > float(narrow.high - narrow.low)
    # The normal designs at alpha = 0.1, one-sided: (z_{0.9} + z_{0.8}) se, and the size that goes with it.
    one = stats.norm.ppf(0.9) + stats.norm.ppf(0.8)
    assert float(closed.normal_mde(0.1, alpha=0.1, alternative="one-sided")) == pytest.approx(one * 0.1)
    assert float(closed.normal_mde(0.1)) == pytest.approx((Z975 + stats.norm.ppf(0.8)) * 0.1)
    n = closed.normal_sample_size(0.05, 0.1, 100, alpha=0.1, alternative="one-sided")
    assert int(n) == int(np.ceil(100 * (one * 0.1 / 0.05) ** 2 - 1e-9))
    # An exact integer n·k: ceil leaves it (0.1 se at 100 units, difference = mde/2: n = 400 exactly).
    mde = float(closed.normal_mde(0.1))
    assert int(closed.normal_sample_size(mde / 2, 0.1, 100)) == 400


def test_odds_ratio_without_correction_is_zero_or_infinite_and_its_interval_open():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = odds_ratio([[5, 2], [3, 0]], correction="none")  # a d = 0: the odds ratio is 0
    assert float(res.estimate) == 0.0 and float(res.low) == 0.0 and float(res.high) == np.inf

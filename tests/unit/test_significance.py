"""The significance layer against hand computations and independent library calls."""

import math
import warnings

import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.contingency_tables import Table2x2
from statsmodels.stats.proportion import confint_proportions_2indep, proportion_confint

from stats_mtbias.errors import SmallExpectedCountWarning, UsageError
from stats_mtbias.significance.effect_sizes import (
    cohens_h,
    difference_in_proportions,
    odds_ratio,
    paired_difference_in_proportions,
)
from stats_mtbias.significance.independence import independence_test
from stats_mtbias.significance.multitest import adjust_pvalues
from stats_mtbias.significance.paired import paired_test, sign_test_pvalue
from stats_mtbias.uncertainty.analytic import design_effect, proportion_interval


def test_sign_test_by_hand_and_against_scipy():
    # 4 items male-only, 1 female-only: P(Bin(5, 1/2) >= 4) = (5 + 1) / 32.
    assert sign_test_pvalue(4, 1) == pytest.approx(6 / 32)
    assert sign_test_pvalue(4, 1, "less") == pytest.approx(31 / 32)
    assert sign_test_pvalue(0, 0) == 1.0
    pos = np.array([0, 3, 10, 17, 40])
    neg = np.array([5, 3, 2, 20, 12])
    for alternative in ("greater", "less", "two-sided"):
        expected = [stats.binomtest(int(k), int(k + j), 0.5, alternative=alternative).pvalue for k, j in zip(pos, neg)]
        assert np.allclose(sign_test_pvalue(pos, neg, alternative), expected)


def test_paired_test_exact_and_t_by_hand():
    male = np.array([1, 1, 1, 0, 0, 1, 0])
    female = np.array([0, 0, 0, 1, 0, 0, 0])
    res = paired_test(male, female)
    assert (res.n, res.n_positive, res.n_negative) == (7, 4, 1)
    assert res.pvalue == pytest.approx(6 / 32)
    assert res.mean_difference == pytest.approx(3 / 7)
    t = paired_test(male, female, method="ttest")
    d = male - female
    t_hand = d.mean() / (d.std(ddof=1) / math.sqrt(7))
    assert t.statistic == pytest.approx(t_hand)
    assert t.pvalue == pytest.approx(stats.ttest_rel(male, female, alternative="greater").pvalue)
    assert t.pvalue == pytest.approx(stats.t.sf(t_hand, 6))


def test_paired_test_averages_variants_for_the_t_test():
    # Bengali-like: 6 outputs per item; the t-test uses (male - female) / 6 per item.
    male = np.array([6, 3, 2, 0])
    female = np.array([0, 1, 2, 3])
    res = paired_test(male, female, trials=[6, 6, 6, 6], method="ttest")
    assert res.statistic == pytest.approx(stats.ttest_1samp((male - female) / 6, 0).statistic)
    exact = paired_test(male, female, trials=[6, 6, 6, 6])
    assert (exact.n_positive, exact.n_negative) == (2, 1)


def test_t_test_without_spread():
    assert paired_test([1, 1, 1], [0, 0, 0], method="ttest").pvalue == 0.0
    assert paired_test([0, 0, 0], [0, 0, 0], method="ttest").pvalue == 1.0
    assert paired_test([0, 0, 0], [1, 1, 1], method="ttest").pvalue == 1.0


def test_paired_test_validates():
    with pytest.raises(ValueError, match="same length"):
        paired_test([1, 0], [1])
    with pytest.raises(UsageError, match="`method`"):
        paired_test([1], [0], method="wilcoxon")


def test_holm_and_bh_by_hand():
    p = [0.01, 0.04, 0.03, 0.005]
    # Holm: sorted .005, .01, .03, .04 times 4, 3, 2, 1 -> .02, .03, .06, .04 -> running max.
    assert np.allclose(adjust_pvalues(p, "holm"), [0.03, 0.06, 0.06, 0.02])
    # BH: p * 4 / rank -> .02, .02, .04, .04, then running min from the top.
    assert np.allclose(adjust_pvalues(p, "bh"), [0.02, 0.04, 0.04, 0.02])
    assert np.allclose(adjust_pvalues(p, "none"), p)


@pytest.mark.parametrize(("ours", "theirs"), [("holm", "holm"), ("bh", "fdr_bh")])
def test_adjustments_equal_statsmodels_with_ties_zeros_and_ones(ours, theirs):
    from statsmodels.stats.multitest import multipletests

    rng = np.random.default_rng(8)
    for m in (1, 2, 5, 40, 300):
        p = rng.choice([0.0, 1e-12, 0.01, 0.03, 0.5, 1.0], m) if m < 40 else rng.beta(0.4, 1.0, m)
        p[: m // 3] = p[0]  # ties
        np.testing.assert_allclose(adjust_pvalues(p, ours), multipletests(p, method=theirs)[1], rtol=1e-12, atol=0)


TABLE = np.array([[20, 15, 5], [10, 25, 30]])


def test_chi2_g_and_cramers_v_against_scipy():
    chi2 = independence_test(TABLE, method="chi2")
    ref = stats.chi2_contingency(TABLE, correction=False)
    assert chi2.statistic == pytest.approx(ref.statistic)
    assert chi2.pvalue == pytest.approx(ref.pvalue)
    assert chi2.dof == 2
    g = independence_test(TABLE, method="g")
    ref_g = stats.chi2_contingency(TABLE, correction=False, lambda_="log-likelihood")
    assert g.statistic == pytest.approx(ref_g.statistic)
    assert g.pvalue == pytest.approx(ref_g.pvalue)
    assert chi2.cramers_v == pytest.approx(stats.contingency.association(TABLE, method="cramer"))
    assert chi2.cochran_ok and independence_test(TABLE).method == "chi2"


def test_exact_tests():
    small = np.array([[3, 0], [1, 4]])
    res = independence_test(small)
    assert res.method.startswith("exact (Fisher)")
    assert res.pvalue == pytest.approx(stats.fisher_exact(small).pvalue)
    sparse = np.array([[3, 0, 1], [0, 4, 1], [1, 1, 0]])
    with pytest.raises(UsageError, match="`rng`"):
        independence_test(sparse)
    mc = independence_test(sparse, rng=1, n_resamples=20_000)
    assert mc.n_resamples == 20_000 and "Monte Carlo" in mc.method
    ref = stats.chi2_contingency(sparse, correction=False, method=stats.MonteCarloMethod(n_resamples=20_000, rng=2))
    assert mc.pvalue == pytest.approx(ref.pvalue, abs=0.01)
    assert independence_test(sparse, rng=1, n_resamples=500).pvalue == independence_test(sparse, rng=1, n_resamples=500).pvalue


def test_small_expected_counts_warn_and_empty_margins_are_dropped():
    sparse = np.array([[3, 0, 1], [0, 4, 1], [0, 0, 0]])
    with pytest.warns(SmallExpectedCountWarning, match="small expected counts"):
        res = independence_test(sparse, method="chi2")
    assert res.shape == (2, 3) and not res.cochran_ok
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        independence_test(TABLE, method="g")
    with pytest.raises(ValueError, match="two non-empty rows"):
        independence_test([[1, 2, 3], [0, 0, 0]])


def test_newcombe_independent_against_statsmodels():
    for x1, n1, x2, n2 in [(5, 50, 12, 60), (0, 30, 4, 25), (30, 30, 10, 40)]:
        ours = difference_in_proportions(x1, n1, x2, n2)
        low, high = confint_proportions_2indep(x1, n1, x2, n2, method="newcomb", compare="diff")
        assert float(ours.estimate) == pytest.approx(x1 / n1 - x2 / n2)
        assert float(ours.low) == pytest.approx(low) and float(ours.high) == pytest.approx(high)


def test_newcombe_paired_against_published_values():
    # Newcombe (1998b), Table II, method 10 (ratesci's tests): (36, 12, 2, 0) -> 0.0569, 0.3404; and the
    # Bentur et al. table of Fagerland, Lydersen & Laake (contingencytables): (1, 1, 7, 12) -> -0.507, -0.026.
    res = paired_difference_in_proportions(36, 12, 2, 0)
    assert float(res.estimate) == pytest.approx(10 / 50)
    assert (float(res.low), float(res.high)) == pytest.approx((0.0569, 0.3404), abs=6e-5)
    bentur = paired_difference_in_proportions(1, 1, 7, 12)
    assert (float(bentur.low), float(bentur.high)) == pytest.approx((-0.507, -0.026), abs=6e-4)
    # All discordant pairs one way: the interval stays inside [-1, 1] and excludes 0.
    edge = paired_difference_in_proportions(0, 20, 0, 0)
    assert float(edge.high) <= 1.0 and 0 < float(edge.low) < 1


def test_cohens_h_and_odds_ratio():
    assert cohens_h(0.5, 0.2) == pytest.approx(2 * math.asin(math.sqrt(0.5)) - 2 * math.asin(math.sqrt(0.2)))
    assert cohens_h(0.5, 0.2) == pytest.approx(0.6435, abs=1e-4)
    table = np.array([[20, 10], [8, 16]])
    res = odds_ratio(table)
    ref = Table2x2(table)
    assert float(res.estimate) == pytest.approx(ref.oddsratio)
    low, high = ref.oddsratio_confint()
    assert float(res.low) == pytest.approx(low) and float(res.high) == pytest.approx(high)
    zero = odds_ratio([[5, 0], [3, 4]])
    assert float(zero.estimate) == pytest.approx((5.5 * 4.5) / (0.5 * 3.5)) and "Haldane" in zero.method
    raw = odds_ratio([[5, 0], [3, 4]], correction="none")
    assert float(raw.estimate) == np.inf and float(raw.low) == 0.0


def test_design_effect_and_clustered_intervals():
    assert design_effect([1, 0, 1, 0], [1, 1, 1, 1]) == 1.0  # one output per item
    # Items all-or-nothing over 6 outputs: each item is one effective draw -> deff = 6 * k/(k-1).
    x = np.array([6, 0, 6, 0, 0, 6])
    k = 6
    assert design_effect(x, np.full(6, 6)) == pytest.approx(6 * k / (k - 1))
    # No (or ten or fewer effective) successes: the robust variance rests on a handful of clusters, so the
    # design effect is at least the mean cluster size (the worst case: a cluster's outputs count as one).
    assert design_effect([0, 0, 0], [6, 6, 6]) == 6.0
    scattered = np.zeros(100)
    scattered[[3, 50]] = 1  # 2 successes in 600 outputs, each in its own cluster: robust deff ~ 1
    assert design_effect(scattered, np.full(100, 6)) == 6.0
    many = np.tile([1, 0, 0], 100)  # 100 successes in 600 outputs: enough to estimate the variance
    assert design_effect(many, np.full(300, 2)) < 2.0
    base = proportion_interval(30, 100)
    low, high = proportion_confint(30, 100, method="wilson")
    assert float(base.low) == pytest.approx(low) and float(base.high) == pytest.approx(high)
    wide = proportion_interval(30, 100, deff=2.0)
    assert float(wide.low) < float(base.low) and float(wide.high) > float(base.high)
    zero = proportion_interval(0, 931)
    assert float(zero.low) == 0.0 and 0.003 < float(zero.high) < 0.005
    jeff = proportion_interval(0, 931, method="jeffreys")
    assert float(jeff.high) == pytest.approx(stats.beta.ppf(0.975, 0.5, 931.5))


def test_rao_scott_divides_chi2_by_the_mean_design_effect():
    """Clustered outputs (6 per occupation): the category x gender test uses X² / mean deff."""
    import pandas as pd

    from stats_mtbias.studies.prates import independence

    rng = np.random.default_rng(3)
    rows = []
    for occ in range(40):
        category = "A" if occ < 20 else "B"
        p = rng.dirichlet([2, 4, 2])
        for variant in range(6):
            gender = rng.choice(["female", "male", "neutral"], p=p)
            rows.append(("g", f"job:{occ}", category, "Bengali", str(variant), gender))
    judgements = pd.DataFrame(rows, columns=["system", "item", "category", "language", "variant", "gender"])
    row = independence(judgements).set_index("table").loc["category × gender"]
    table = pd.crosstab(judgements["category"], judgements["gender"]).to_numpy()
    x2 = stats.chi2_contingency(table, correction=False).statistic
    per_item = judgements.groupby("item")["gender"].value_counts().unstack(fill_value=0)

    def by_hand(x, m=6.0, k=40):  # linearisation variance of sum(x)/sum(m) over the binomial one (no package code)
        total = m * k
        p = x.sum() / total
        u = (x - p * m) / total
        robust = k / (k - 1) * np.sum((u - u.mean()) ** 2)
        deff = max(1.0, robust / (p * (1 - p) / total))
        assert min(p, 1 - p) * total / deff > 10  # not the few-events floor
        return deff

    deff = np.mean([by_hand(per_item[g].to_numpy(float)) for g in ("female", "male", "neutral")])
    assert deff > 1.2
    assert row["statistic"] == pytest.approx(x2 / deff)
    assert row["p_value"] == pytest.approx(stats.chi2.sf(x2 / deff, 2))
    assert "Rao–Scott" in row["method"]

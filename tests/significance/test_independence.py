"""Independence tests of two-way tables checked against scipy, hand formulas and exact enumeration."""

from __future__ import annotations

import itertools
import warnings
from math import comb

import numpy as np
import pytest
from scipy import stats

from stats_mtbias.errors import SmallExpectedCountWarning, UsageError
from stats_mtbias.significance.independence import independence_test


def _exact_conditional_pvalue(table) -> float:
    """P(X²* >= X²) over all 2×c tables with the margins of `table` (multivariate hypergeometric), ties included."""
    t = np.asarray(table)
    rows, cols, n = t.sum(axis=1), t.sum(axis=0), int(t.sum())
    expected = np.outer(rows, cols) / n
    observed_x2 = ((t - expected) ** 2 / expected).sum()
    pvalue = 0.0
    for first in itertools.product(*(range(int(c) + 1) for c in cols)):
        if sum(first) != rows[0]:
            continue
        candidate = np.array([first, cols - np.array(first)])
        if ((candidate - expected) ** 2 / expected).sum() >= observed_x2 * (1 - 1e-9):
            pvalue += np.prod([comb(int(c), int(x)) for c, x in zip(cols, first)]) / comb(n, int(rows[0]))
    return pvalue


@pytest.mark.parametrize(
    "table", [[[-1, 2], [3, 4]], [[1.5, 2], [3, 4]], [["a", "b"], ["c", "d"]]], ids=["negative", "fraction", "text"]
)
def test_rejects_what_is_not_a_table_of_counts(table):
    """Negative, non-integer and non-numeric cells are refused with a ValueError."""
    with pytest.raises(ValueError):
        independence_test(table, method="chi2")


@pytest.mark.parametrize(
    "table, kept",
    [
        ([[1, 0], [3, 4], [2, 5]], [[1, 0], [3, 4], [2, 5]]),  # a row total of 1 is kept
        ([[3, 0, 1], [4, 0, 5]], [[3, 1], [4, 5]]),  # an empty column is removed
        ([[3, 1, 6], [4, 0, 5]], [[3, 1, 6], [4, 0, 5]]),  # a column total of 1 is kept
    ],
)
def test_only_empty_rows_and_columns_are_removed(table, kept):
    """Rows and columns with a zero total are dropped, those with any count kept: X² is scipy's on the kept table."""
    ref = stats.chi2_contingency(np.array(kept), correction=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SmallExpectedCountWarning)
        res = independence_test(table, method="chi2")
    assert res.shape == np.array(kept).shape
    assert res.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-12)


def test_cochran_rule_at_its_boundaries():
    """Minimum expected count exactly 1 and cells exactly at 5 satisfy Cochran's rule (auto picks chi-square)."""
    table = np.array([[1, 5, 5], [5, 25, 25]])  # independent: expected = observed, one cell (1/6) below 5
    expected = np.outer(table.sum(axis=1), table.sum(axis=0)) / table.sum()
    assert expected.min() == 1 and np.mean(expected < 5) == pytest.approx(1 / 6)
    res = independence_test(table, rng=0)
    assert res.cochran_ok is True
    assert res.method == "chi2"
    assert res.min_expected == 1.0
    assert res.n == 66
    assert res.statistic == pytest.approx(0.0, abs=1e-12) and res.pvalue == pytest.approx(1.0)


def test_cochran_rule_allows_exactly_twenty_percent_of_cells_below_five():
    """Two of ten expected counts below 5 (exactly 20%) still satisfy Cochran's rule."""
    table = np.array([[2, 12, 12, 12, 12], [2, 12, 12, 12, 12]])  # expected: 2 in column 1, 12 elsewhere
    with warnings.catch_warnings():
        warnings.simplefilter("error", SmallExpectedCountWarning)
        res = independence_test(table, rng=0)
    assert res.cochran_ok is True and res.method == "chi2"
    assert res.min_expected == 2.0


def test_cramers_v_of_a_three_by_three_table():
    """Cramér's V divides X² by n (min(r, c) − 1): scipy's association(method='cramer')."""
    table = np.array([[12, 5, 3], [4, 15, 6], [2, 7, 16]])
    res = independence_test(table, method="chi2")
    assert res.cramers_v == pytest.approx(stats.contingency.association(table, method="cramer"), rel=1e-12)
    assert res.dof == 4 and res.n == 70


def test_g_test_with_zero_and_unit_cells():
    """G = 2 Σ O ln(O/E), zero cells contributing 0 and no RuntimeWarning: scipy's log-likelihood statistic."""
    table = np.array([[0, 7, 1], [6, 2, 5]])
    ref = stats.chi2_contingency(table, correction=False, lambda_="log-likelihood")
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        warnings.simplefilter("ignore", SmallExpectedCountWarning)
        res = independence_test(table, method="g")
    assert res.method == "g"
    assert res.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-12)
    assert res.n == 21


def test_fisher_statistic_is_the_sample_odds_ratio():
    """For a 2×2 exact test the statistic is the sample odds ratio (a d) / (b c)."""
    res = independence_test([[3, 1], [1, 3]], method="exact")
    assert res.statistic == pytest.approx(3 * 3 / (1 * 1))
    # Fisher's two-sided p: tables with first cell 0, 1, 3, 4 (probability <= that of the observed 3) over C(8, 4) = 70.
    assert res.pvalue == pytest.approx((1 + 16 + 16 + 1) / 70)


@pytest.mark.parametrize("table", [[[2, 0, 1], [0, 2, 1]], [[3, 1, 0], [1, 1, 2]]])
def test_monte_carlo_exact_pvalue_matches_enumeration(table):
    """The Monte Carlo conditional p-value (ties counted as extreme) is within 4 SE of the enumerated exact one."""
    exact = _exact_conditional_pvalue(table)
    res = independence_test(table, method="exact", rng=12345)
    se = np.sqrt(exact * (1 - exact) / res.n_resamples)
    assert res.pvalue == pytest.approx(exact, abs=4 * se)
    assert res.method.startswith("exact")
    expected = np.outer(np.sum(table, axis=1), np.sum(table, axis=0)) / np.sum(table)
    assert res.statistic == pytest.approx(((np.array(table) - expected) ** 2 / expected).sum(), rel=1e-12)


def test_monte_carlo_pvalue_is_one_when_x2_is_zero():
    """With X² = 0 every drawn table is at least as extreme: p = (1 + B) / (B + 1) = 1 exactly."""
    res = independence_test([[1, 1, 1], [2, 2, 2]], method="exact", n_resamples=9, rng=3)
    assert res.pvalue == 1.0
    assert res.n_resamples == 9


def test_monte_carlo_default_draws_9999_tables():
    """By default 9,999 tables are drawn, so p-values are multiples of 1/10,000."""
    res = independence_test([[3, 1, 0], [1, 1, 2]], method="exact", rng=7)
    assert res.n_resamples == 9_999
    assert res.pvalue * 10_000 == pytest.approx(round(res.pvalue * 10_000), abs=1e-6)


# -----------------------------------------------------------------------------
# The significance layer against hand computations and independent library calls.


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

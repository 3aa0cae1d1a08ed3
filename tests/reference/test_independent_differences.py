"""Independent differences of proportions against published values.

Sources
-------
[N98a] Newcombe (1998a) Stat Med 17:873-890, Table II, examples (a)-(d)
       (56/70-48/80, 9/10-3/10, 10/10-0/20, 84/101-89/105), methods 1 (Wald),
       6 (Miettinen-Nurminen) and 10 (hybrid score), and Agresti-Caffo for the
       same tables, as asserted to 4 decimals in the R package DescTools,
       tests/misc.R ("test BinomDiffCI", citing WUSS 2016 paper 127).
[CT]   R package contingencytables, tests/testthat/test-ch4.R: Perondi et al.
       (2004) 7/34 vs 1/34 and Ritland et al. (2007) 0/16 vs 15/72.
[PC]   R package PropCIs, quoted with 7 decimals in statsmodels
       stats/tests/test_proportion.py::test_confint_2indep_propcis:
       diffscoreci(7, 34, 1, 34) (the MN score interval) and wald2ci(..., "AC"/"Wald").
[RS]   R package ratesci, tests/testthat/test3.R, "Newcombe RD example (d)":
       5/56 vs 0/29.
"""

import numpy as np
import pytest
from statsmodels.stats.proportion import confint_proportions_2indep, score_test_proportions_2indep

from stats_mtbias.errors import UsageError
from stats_mtbias.significance.mcnemar import difference_test
from stats_mtbias.uncertainty.differences import difference_interval

HALF = 0.5e-4 + 1e-9  # 4 printed decimals

# [N98a] via DescTools: table -> {method: (low, high)}
NEWCOMBE_1998A = {
    (56, 70, 48, 80): {
        "wald": (0.0575, 0.3425),
        "miettinen-nurminen": (0.0528, 0.3382),
        "newcombe": (0.0524, 0.3339),
        "agresti-caffo": (0.0525, 0.3358),
    },
    (9, 10, 3, 10): {
        "wald": (0.2605, 0.9395),
        "miettinen-nurminen": (0.1700, 0.8406),
        "newcombe": (0.1705, 0.8090),
        "agresti-caffo": (0.1600, 0.8400),
    },
    (10, 10, 0, 20): {
        "wald": (1.0, 1.0),
        "miettinen-nurminen": (0.7156, 1.0),
        "newcombe": (0.6791, 1.0),
        "agresti-caffo": (0.6922, 1.0),
    },
    (84, 101, 89, 105): {
        "wald": (-0.1162, 0.0843),
        "miettinen-nurminen": (-0.1191, 0.0860),
        "newcombe": (-0.1177, 0.0851),
        "agresti-caffo": (-0.1168, 0.0850),
    },
}
CASES = [(table, method, *limits) for table, byway in NEWCOMBE_1998A.items() for method, limits in byway.items()]


@pytest.mark.parametrize("table, method, low, high", CASES)
def test_newcombe_1998a_table_ii(table, method, low, high):
    ci = difference_interval(*table, method=method)
    assert abs(float(ci.low) - low) <= HALF
    assert abs(float(ci.high) - high) <= HALF


@pytest.mark.parametrize(
    "table, method, low, high, tol",
    [
        ((7, 34, 1, 34), "newcombe", 0.0189, 0.3404, HALF),  # [CT] Newcombe_hybrid_score_CI_2x2(perondi)
        ((7, 34, 1, 34), "wald", 0.0292, 0.3238, HALF),  # [CT] Wald_CI_2x2
        ((7, 34, 1, 34), "agresti-caffo", 0.0116, 0.3217, HALF),  # [CT] AgrestiCaffo_CI_2x2
        ((0, 16, 15, 72), "miettinen-nurminen", -0.3164, -0.0056, HALF),  # [CT] MiettinenNurminen_..._difference_2x2
        ((7, 34, 1, 34), "miettinen-nurminen", 0.0270416, 0.3452912, 0.5e-7),  # [PC] diffscoreci
        ((7, 34, 1, 34), "agresti-caffo", 0.01161167, 0.32172166, 0.5e-8),  # [PC] wald2ci(adjust="AC")
        ((7, 34, 1, 34), "wald", 0.02916942, 0.32377176, 0.5e-8),  # [PC] wald2ci(adjust="Wald")
        ((5, 56, 0, 29), "miettinen-nurminen", -0.0326, 0.1933, HALF),  # [RS] scoreci(skew=F)
        ((5, 56, 0, 29), "newcombe", -0.0381, 0.1926, HALF),  # [RS] moverci(type="wilson")
    ],
)
def test_implementations_examples(table, method, low, high, tol):
    ci = difference_interval(*table, method=method)
    assert abs(float(ci.low) - low) <= tol + 1e-9
    assert abs(float(ci.high) - high) <= tol + 1e-9


@pytest.mark.parametrize(
    "ours, theirs",
    [("newcombe", {"method": "newcomb"}), ("wald", {"method": "wald"}), ("agresti-caffo", {"method": "agresti-caffo"})],
)
def test_cross_check_statsmodels(ours, theirs):
    # statsmodels' closed-form intervals agree to rounding error on a grid with both ends.
    x1, n1, x2, n2 = np.meshgrid([0, 1, 7, 19, 20], [20], [0, 3, 30], [30], indexing="ij")
    x1, n1, x2, n2 = (a.ravel() for a in (x1, n1, x2, n2))
    ci = difference_interval(x1, n1, x2, n2, method=ours)
    low, high = confint_proportions_2indep(x1, n1, x2, n2, compare="diff", **theirs)
    np.testing.assert_allclose(ci.low, np.clip(low, -1, 1), atol=1e-9)
    np.testing.assert_allclose(ci.high, np.clip(high, -1, 1), atol=1e-9)


def test_cross_check_statsmodels_score():
    # statsmodels' "score" interval (correction=True) is not the published MN interval: its statistic at a
    # non-zero Δ differs in the restricted MLE (e.g. 56/70 vs 48/80: upper 0.3440 against Newcombe's printed
    # MN 0.3382, which ours matches, as it matches PropCIs to 7 decimals). At Δ = 0 the two tests coincide.
    for x1, n1, x2, n2 in [(7, 34, 1, 34), (56, 70, 48, 80), (84, 101, 89, 105), (30, 1584, 55, 1584), (0, 16, 15, 72)]:
        ci = difference_interval(x1, n1, x2, n2)
        assert ci.low < ci.estimate < ci.high
        ours = difference_test(x1, n1, x2, n2)
        theirs = score_test_proportions_2indep(x1, n1, x2, n2, value=0, compare="diff", correction=True)
        assert ours.statistic == pytest.approx(theirs.statistic, rel=1e-12)
        assert ours.pvalue == pytest.approx(theirs.pvalue, rel=1e-10)


@pytest.mark.parametrize("method", ["miettinen-nurminen", "newcombe", "agresti-caffo"])
@pytest.mark.parametrize("table", [(0, 10, 0, 10), (10, 10, 10, 10), (0, 10, 10, 10), (10, 10, 0, 10), (0, 1, 1, 1)])
def test_bounded_and_never_a_point(method, table):
    ci = difference_interval(*table, method=method)
    assert -1.0 <= ci.low < ci.high <= 1.0
    assert ci.low <= ci.estimate <= ci.high


@pytest.mark.parametrize(
    "args, match",
    [((5, 4, 1, 4), "`x1` must not exceed `n1`"), ((1, 4, 1, 0), "`n2` must be positive"), ((1, 4, -1, 4), "`x2`")],
)
def test_errors_name_the_argument(args, match):
    with pytest.raises(UsageError, match=match):
        difference_interval(*args)

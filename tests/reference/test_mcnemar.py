"""McNemar tests and the tests belonging to the difference intervals, against published values.

Sources
-------
[CT]  R package contingencytables (Fagerland, Lydersen & Laake 2017),
      tests/testthat/test-ch8.R, Cavo et al. (2012) n10 = 6, n01 = 16:
      asymptotic P = 0.033006, Z = -2.132; with continuity correction
      P = 0.055009, Z = 1.919; exact conditional P = 0.052479; mid-P P = 0.034690.
[F13] Fagerland, Lydersen & Laake (2013) BMC Med Res Methodol 13:91 and its
      supplement "How to calculate the McNemar mid-p test": Bentur et al. (2009)
      n10 = 1, n01 = 7; exact p = 2 binomcdf(1, 8, 0.5) and mid-p = exact -
      binompdf(1, 8, 0.5), i.e. 18/256 and 10/256 (the formulas and data printed
      there; the rationals are their arithmetic).
[MN]  The Miettinen-Nurminen score test at 0 is the test whose inversion is
      [CT]'s MN interval for Ritland et al. 0/16 vs 15/72, printed as
      (-0.3164, -0.0056) in contingencytables tests/testthat/test-ch4.R: that
      interval excludes 0, so the test must give p < 0.05.
"""

import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar

from stats_mtbias.errors import UsageError
from stats_mtbias.significance.mcnemar import difference_test, mcnemar_test, paired_difference_test

SIX = 0.5e-6 + 1e-12


@pytest.mark.parametrize(
    "method, p",
    [("asymptotic", 0.033006), ("asymptotic-cc", 0.055009), ("exact", 0.052479), ("mid-p", 0.034690)],
)
def test_cavo_2012(method, p):  # [CT]
    r = mcnemar_test(6, 16, method=method)
    assert abs(r.pvalue - p) <= SIX


def test_cavo_2012_statistics():  # [CT] Z = -2.132 (asymptotic), |Z| = 1.919 with continuity correction
    assert abs(mcnemar_test(6, 16, method="asymptotic").statistic - -2.132) <= 0.0005
    assert abs(abs(mcnemar_test(6, 16, method="asymptotic-cc").statistic) - 1.919) <= 0.0005


def test_bentur_2009():  # [F13]
    assert mcnemar_test(1, 7, method="exact").pvalue == pytest.approx(18 / 256, rel=1e-12)
    assert mcnemar_test(1, 7, method="mid-p").pvalue == pytest.approx(10 / 256, rel=1e-12)


def test_mid_p_ties_follow_fagerland():
    # [F13]: "If n12 = n21, the mid-p-value equals 1 - 0.5 binompdf(n12, n, 0.5)"; with no discordant pair, 1.
    assert mcnemar_test(3, 3).pvalue == pytest.approx(1 - 0.5 * stats.binom.pmf(3, 6, 0.5))
    assert mcnemar_test(0, 0).pvalue == 1.0


@pytest.mark.parametrize("method", ["exact", "asymptotic", "asymptotic-cc"])
def test_cross_check_statsmodels(method):
    b, c = np.meshgrid(np.arange(0, 25), np.arange(0, 25), indexing="ij")
    b, c = b.ravel(), c.ravel()
    ours = mcnemar_test(b, c, method=method).pvalue
    for i in range(len(b)):
        if b[i] + c[i] == 0 or (method == "asymptotic-cc" and abs(b[i] - c[i]) <= 1):
            continue  # statsmodels: nan / (|b - c| - 1)^2 > 0 for b = c; ours: p = 1 there
        ref = sm_mcnemar([[0, b[i]], [c[i], 0]], exact=method == "exact", correction=method == "asymptotic-cc").pvalue
        assert ours[i] == pytest.approx(ref, rel=1e-10, abs=1e-15)


def test_one_sided_match_scipy_binomtest():
    for b, c in [(0, 5), (1, 9), (8, 2), (3, 3), (40, 160)]:
        for alt in ("less", "greater"):
            exact = mcnemar_test(b, c, method="exact", alternative=alt).pvalue
            assert exact == pytest.approx(stats.binomtest(b, b + c, 0.5, alternative=alt).pvalue, rel=1e-10)
            mid = mcnemar_test(b, c, method="mid-p", alternative=alt).pvalue
            assert mid == pytest.approx(exact - 0.5 * stats.binom.pmf(b, b + c, 0.5), rel=1e-10)


def test_one_sided_asymptotic_halves_two_sided():
    two = mcnemar_test(6, 16, method="asymptotic").pvalue
    assert mcnemar_test(6, 16, method="asymptotic", alternative="less").pvalue == pytest.approx(two / 2)
    assert mcnemar_test(6, 16, method="asymptotic", alternative="greater").pvalue == pytest.approx(1 - two / 2)


def test_tango_test_is_the_asymptotic_mcnemar():  # Tango (1998): T(0) = (n10 - n01)/sqrt(n10 + n01)
    r = paired_difference_test(59, 6, 16, 80, method="tango")
    assert abs(r.pvalue - 0.033006) <= SIX  # [CT]
    assert abs(r.statistic - -2.132) <= 0.0005


def test_no_floor_on_pvalues():
    # 3,888 items with 40 vs 160 discordant pairs: z = -120/sqrt(200), p = 2 Phi(-8.485) = 2.15e-17.
    for method in ("tango", "newcombe", "bonett-price", "agresti-min", "wald"):
        p = paired_difference_test(3000, 40, 160, 688, method=method).pvalue
        assert 0 < p < 1e-12
    assert paired_difference_test(3000, 40, 160, 688, method="tango").pvalue == pytest.approx(
        2 * stats.norm.sf(120 / np.sqrt(200)), rel=1e-10
    )
    assert 0 < difference_test(900, 1584, 1100, 1584).pvalue < 1e-12


def test_miettinen_nurminen_test_against_its_published_interval():  # [MN]
    assert difference_test(0, 16, 15, 72).pvalue < 0.05


def test_errors():
    with pytest.raises(UsageError, match="`alternative`"):
        mcnemar_test(1, 2, alternative="two.sided")
    with pytest.raises(UsageError, match="whole numbers"):
        mcnemar_test(1.5, 2, method="exact")
    with pytest.raises(UsageError, match="`n01`"):
        mcnemar_test(1, -2)
    with pytest.raises(UsageError, match="`method`"):
        paired_difference_test(1, 1, 1, 1, method="mid-p")

"""Exact coverage and size of the difference intervals and tests (enumeration, no Monte Carlo error).

Bands (each printed by the test that uses it) and why:

- MEAN coverage over the regular part of the grid, |mean − 0.95| < 0.0175: an
  interval whose average coverage is 2 points off fails. "Regular" points are
  those where at least 4 discordant pairs are expected (paired) or at least 2
  successes and 2 failures per sample (independent): outside them every
  non-degenerate interval over-covers (with no discordant pair expected,
  coverage tends to 1), which measures the grid, not the method. Newcombe
  (1998a, b) and Fagerland, Lydersen & Laake (2014) judge intervals by mean
  coverage close to nominal in the same way.
- MINIMUM coverage over the whole grid ≥ 0.90 (n ≥ 10): the recommended
  intervals of Fagerland et al. (2014, paired) and Newcombe (1998a,
  independent) rarely fall below 0.93 and never far below; 0.90 is the floor
  suggested for score-type 95% intervals, and it rejects the Wald interval
  (0.70 at n = 20).
- Each TAIL (mesial: the truth lies between the interval and 0; distal: beyond
  the interval away from 0) within 0.025 ± 0.02 on average over the regular
  points with Δ ≠ 0: square-and-add and adjusted-Wald intervals are known to be
  mesially located (Newcombe 1998a; Fagerland et al. 2014), by up to about 2
  points at small n; a tail with no misses at all or twice the nominal rate
  (a one-sided behaviour) fails.
- SIZE of each interval's own test at Δ = 0: maximum ≤ 0.06 (Fagerland,
  Lydersen & Laake 2013 report maximum type I error rates of the asymptotic
  McNemar test slightly above 0.05, never near 0.06, for n ≥ 20) and mean over
  the regular null points within 0.05 ± 0.0175; the exact and continuity-
  corrected McNemar tests are conservative by construction (max ≤ 0.05).
"""

import numpy as np
import pytest

from stats_mtbias.significance.mcnemar import difference_test, paired_difference_test
from stats_mtbias.uncertainty.differences import difference_interval, paired_difference_interval
from tests.statistical import _exact as ex

MEAN_TOL = 0.0175
MIN_COVERAGE = 0.90
TAIL = (0.005, 0.045)
MAX_SIZE = 0.06
SIZE_BAND = (0.05 - MEAN_TOL, 0.05 + MEAN_TOL)
GOOD_PAIRED = ("newcombe", "tango", "agresti-min", "bonett-price")
GOOD_INDEPENDENT = ("miettinen-nurminen", "newcombe", "agresti-caffo")


def _paired_summary(n, method, level=0.95):
    rows = []
    for pi in ex.paired_grid():
        cov, miss_low, miss_high = ex.paired_coverage(n, method, pi, level)
        delta = pi[1] - pi[2]
        mesial, distal = (miss_high, miss_low) if delta > 0 else (miss_low, miss_high)
        rows.append((cov, n * (pi[1] + pi[2]) >= 4, delta != 0, mesial, distal))
    r = np.array(rows, dtype=float)
    regular, nonzero = r[:, 1] > 0, (r[:, 1] > 0) & (r[:, 2] > 0)
    return {
        "mean": r[regular, 0].mean(),
        "min": r[:, 0].min(),
        "mesial": r[nonzero, 3].mean(),
        "distal": r[nonzero, 4].mean(),
    }


def _independent_summary(n1, n2, method, level=0.95):
    rows = []
    for p1, p2 in ex.independent_grid():
        cov, miss_low, miss_high = ex.independent_coverage(n1, n2, method, p1, p2, level)
        mesial, distal = (miss_high, miss_low) if p1 > p2 else (miss_low, miss_high)
        regular = min(p1 * n1, (1 - p1) * n1, p2 * n2, (1 - p2) * n2) >= 2
        rows.append((cov, regular, p1 != p2, mesial, distal))
    r = np.array(rows, dtype=float)
    regular, nonzero = r[:, 1] > 0, (r[:, 1] > 0) & (r[:, 2] > 0)
    return {"mean": r[regular, 0].mean(), "min": r[:, 0].min(), "mesial": r[nonzero, 3].mean(), "distal": r[nonzero, 4].mean()}


def _check(summary, label, *, mean=True, tails=True):
    print(
        f"{label}: mean coverage {summary['mean']:.4f} (band 0.95 ± {MEAN_TOL}), min {summary['min']:.4f} "
        f"(floor {MIN_COVERAGE}), mesial {summary['mesial']:.4f} distal {summary['distal']:.4f} (band {TAIL})"
    )
    problems = []
    if mean and not abs(summary["mean"] - 0.95) < MEAN_TOL:
        problems.append("mean")
    if summary["min"] < MIN_COVERAGE:
        problems.append("min")
    if tails and not (TAIL[0] <= summary["mesial"] <= TAIL[1] and TAIL[0] <= summary["distal"] <= TAIL[1]):
        problems.append("tails")
    return problems


# ----------------------------------------------------------------------------- paired coverage
@pytest.mark.parametrize("n", [10, 20, 30, 50, 100])
@pytest.mark.parametrize("method", GOOD_PAIRED)
def test_paired_coverage(method, n):
    # At n = 10 only 9 grid points are regular and every method is conservative there: minimum only.
    problems = _check(_paired_summary(n, method), f"paired {method} n={n}", mean=n >= 20, tails=n >= 20)
    assert not problems


@pytest.mark.parametrize("n", [10, 20, 30])
def test_paired_wald_fails_the_bands(n):
    assert _check(_paired_summary(n, "wald"), f"paired wald n={n}")


@pytest.mark.parametrize("method", ["tango", "newcombe"])
def test_the_mean_band_rejects_an_interval_two_points_off(method):
    # The same method at levels 0.92 / 0.975 has an average coverage 2 or more points off 0.95.
    for level in (0.92, 0.975):
        summary = _paired_summary(100, method, level)
        assert abs(summary["mean"] - 0.95) >= 0.02
        assert "mean" in _check(summary, f"paired {method} n=100 at level {level}")


# ----------------------------------------------------------------------------- paired size
def _null_sizes(n, test):
    points = ex.paired_null_grid()
    sizes = np.array([ex.paired_size(n, test, pi) for pi in points])
    regular = np.array([n * (pi[1] + pi[2]) >= 4 for pi in points])
    return sizes, regular


_LIBERAL_AM = pytest.mark.xfail(
    strict=True,
    reason="the Agresti-Min adjusted Wald test is liberal at small n: max size 0.068 at n = 20, 0.065 at n = 30 "
    "(0.056 at n = 50, 0.053 at n = 100); its interval's coverage is within the bands",
)
SIZE_CASES = [
    pytest.param(test, n, marks=_LIBERAL_AM if (test == "interval:agresti-min" and n < 50) else ())
    for test in [f"interval:{m}" for m in GOOD_PAIRED] + ["mid-p", "asymptotic"]
    for n in (20, 30, 50, 100)
]


@pytest.mark.parametrize("test, n", SIZE_CASES)
def test_paired_size(test, n):
    sizes, regular = _null_sizes(n, test)
    print(f"{test} n={n}: max size {sizes.max():.4f} (<= {MAX_SIZE}), mean {sizes[regular].mean():.4f} (band {SIZE_BAND})")
    assert sizes.max() <= MAX_SIZE
    assert SIZE_BAND[0] <= sizes[regular].mean() <= SIZE_BAND[1]


@pytest.mark.parametrize("n", [10, 20, 50, 100])
@pytest.mark.parametrize("test", ["exact", "asymptotic-cc"])
def test_conservative_mcnemar_tests_keep_the_level(test, n):
    sizes, _ = _null_sizes(n, test)
    print(f"{test} n={n}: max size {sizes.max():.4f} (<= 0.05)")
    assert sizes.max() <= 0.05


# ----------------------------------------------------------------------------- test ⇔ interval
@pytest.mark.parametrize("n", [10, 30, 50])
@pytest.mark.parametrize("method", ex.PAIRED_METHODS)
def test_paired_test_agrees_with_its_interval_on_every_table(method, n):
    tables = ex.paired_tables(n)
    p = paired_difference_test(*tables, method=method).pvalue
    for level in (0.9, 0.95, 0.99):
        ci = paired_difference_interval(*tables, level=level, method=method)
        excludes = (ci.low > 0) | (ci.high < 0)
        clear = np.abs(p - (1 - level)) > 1e-9  # exact ties with the level are a boundary case of measure 0
        assert np.array_equal(excludes[clear], (p < 1 - level)[clear])


@pytest.mark.parametrize("method", ex.INDEPENDENT_METHODS)
def test_independent_test_agrees_with_its_interval_on_every_table(method):
    for n1, n2 in [(10, 10), (30, 20), (50, 50)]:
        x1, x2 = ex.independent_tables(n1, n2)
        p = difference_test(x1, n1, x2, n2, method=method).pvalue
        for level in (0.9, 0.95, 0.99):
            ci = difference_interval(x1, n1, x2, n2, level=level, method=method)
            excludes = (ci.low > 0) | (ci.high < 0)
            clear = np.abs(p - (1 - level)) > 1e-9
            assert np.array_equal(excludes[clear], (p < 1 - level)[clear])


@pytest.mark.parametrize("n", [20, 50, 100])
def test_mid_p_and_the_intervals_disagree_near_the_boundary(n):
    # Quantified for the report: P(interval excludes 0 XOR mid-p < 0.05), over the grid and the null grid.
    dis = ex.paired_disagreements(n, GOOD_PAIRED, "mid-p", ex.paired_grid() + ex.paired_null_grid())
    for j, method in enumerate(GOOD_PAIRED):
        print(f"n={n} {method} vs mid-p: mean P(disagree) {dis[:, j].mean():.4f}, max {dis[:, j].max():.4f}")
    assert dis.max() < 0.2
    # The Tango interval and its own test (the asymptotic McNemar) never disagree.
    assert ex.paired_disagreements(n, ("tango",), "asymptotic", ex.paired_grid()).max() == 0.0


# ----------------------------------------------------------------------------- independent
@pytest.mark.parametrize("n1, n2", [(10, 10), (20, 20), (30, 30), (50, 50), (100, 100), (30, 60)])
@pytest.mark.parametrize("method", GOOD_INDEPENDENT)
def test_independent_coverage(method, n1, n2):
    small = min(n1, n2) < 20
    problems = _check(_independent_summary(n1, n2, method), f"independent {method} n={n1},{n2}", mean=not small, tails=not small)
    assert not problems


@pytest.mark.parametrize("n", [10, 20, 30])
def test_independent_wald_fails_the_bands(n):
    assert _check(_independent_summary(n, n, "wald"), f"independent wald n={n}")


@pytest.mark.parametrize("n", [20, 50, 100])
@pytest.mark.parametrize("method", GOOD_INDEPENDENT)
def test_independent_size(method, n):
    sizes = np.array([ex.independent_size(n, n, method, p) for p in ex.INDEPENDENT_P])
    regular = np.array([min(p, 1 - p) * n >= 2 for p in ex.INDEPENDENT_P])
    print(f"{method} n={n}: max size {sizes.max():.4f} (<= {MAX_SIZE}), mean {sizes[regular].mean():.4f} (band {SIZE_BAND})")
    assert sizes.max() <= MAX_SIZE
    assert SIZE_BAND[0] <= sizes[regular].mean() <= SIZE_BAND[1]


# ----------------------------------------------------------------------------- WinoMT sizes, simulated
@pytest.mark.slow
@pytest.mark.parametrize("n", [1584, 3888])
@pytest.mark.parametrize("method", GOOD_PAIRED)
def test_paired_coverage_winomt_sizes(method, n):
    # 20,000 tables per point: Monte Carlo SE of a coverage near 0.95 is sqrt(.95 × .05 / 20000) = 0.0015,
    # so the bands (0.95 ± 0.0175 for the mean, ≥ 0.93 for each point here) are > 5 SE wide.
    rng = np.random.default_rng(20260 + n)
    m, covs = 20_000, []
    for pi in [
        (0.97, 0.01, 0.01, 0.01),
        (0.95, 0.03, 0.01, 0.01),
        (0.6, 0.1, 0.05, 0.25),
        (0.45, 0.1, 0.1, 0.35),
        (0.01, 0.01, 0.01, 0.97),
        (0.8, 0.005, 0.015, 0.18),
    ]:
        t = rng.multinomial(n, pi, size=m).T
        ci = paired_difference_interval(*t, method=method)
        delta = pi[1] - pi[2]
        covs.append(np.mean((ci.low <= delta) & (delta <= ci.high)))
    print(f"{method} n={n}: coverages {np.round(covs, 4)} (MC SE 0.0015), mean {np.mean(covs):.4f} (band 0.95 ± {MEAN_TOL})")
    assert abs(np.mean(covs) - 0.95) < MEAN_TOL
    assert min(covs) >= 0.93


@pytest.mark.slow
@pytest.mark.parametrize("method", GOOD_INDEPENDENT)
def test_independent_coverage_winomt_sizes(method):
    # Exact by enumeration: every table with a count between its binomial's 1e-12 and 1 − 1e-12 quantiles (at most
    # 4e-12 of the probability left out; the whole 1585² grid gave the same to 1e-12 and took 80 s a point).
    n = 1584
    points = [(0.99, 0.97), (0.8, 0.7), (0.5, 0.5), (0.02, 0.01)]
    covs = [ex.independent_coverage(n, n, method, p1, p2, tail=1e-12)[0] for p1, p2 in points]
    print(f"{method} n={n}: exact coverages {np.round(covs, 4)}")
    assert abs(np.mean(covs) - 0.95) < MEAN_TOL and min(covs) >= 0.93

"""Exact McNemar power and sample size, Wilson half-widths and rate checks against enumeration and hand formulas."""

import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.proportion import proportion_confint

from stats_mtbias.errors import UsageError
from stats_mtbias.planning import closed


def _mcnemar_power(n, d, psi, alpha=0.05, alternative="two-sided", test="exact"):
    # Enumerate M ~ Bin(n, ψ) discordant items and K ~ Bin(M, (ψ + δ)/2ψ) of them favouring the first outcome;
    # the sign test rejects on its binomial tail probabilities under 1/2, the chi-square on |2K − M| / √M >= z.
    m = (np.arange(n + 1) if psi < 1 else np.array([n]))[:, None]  # ψ = 1: every item is discordant
    k = np.arange(n + 1)[None, :]
    if test == "exact":
        lower, upper = stats.binom.cdf(k, m, 0.5), stats.binom.sf(k - 1, m, 0.5)  # P(K <= k), P(K >= k)
        crit = {"two-sided": np.minimum(lower, upper) <= alpha / 2, "greater": upper <= alpha, "less": lower <= alpha}
    else:
        with np.errstate(divide="ignore", invalid="ignore"):
            stat = (2 * k - m) / np.sqrt(m)
        z2, z1 = stats.norm.isf(alpha / 2), stats.norm.isf(alpha)
        crit = {"two-sided": np.abs(stat) >= z2 - 1e-12, "greater": stat >= z1 - 1e-12, "less": stat <= -z1 + 1e-12}
    pi = (psi + d) / (2 * psi)
    return float(np.sum(stats.binom.pmf(m, n, psi) * stats.binom.pmf(k, m, pi) * (crit[alternative] & (k <= m))))


def _smallest_stable_n(d, psi, alpha=0.05, power=0.8, alternative="two-sided", test="exact", top=400):
    # The docstring's answer: the first n with the power reached there and at every n of the next 5% (at least 2).
    if psi == 1 and test == "exact" and alternative == "two-sided":  # M = n: one grid of (n, k) at once
        n, k = np.arange(1, top)[:, None], np.arange(top)[None, :]
        lower, upper = stats.binom.cdf(k, n, 0.5), stats.binom.sf(k - 1, n, 0.5)
        reject = (np.minimum(lower, upper) <= alpha / 2) & (k <= n)
        ok = np.sum(stats.binom.pmf(k, n, (1 + d) / 2) * reject, axis=1) >= power
    else:
        ok = np.array([_mcnemar_power(k, d, psi, alpha, alternative, test) >= power for k in range(1, top)])
    return next(n for n in range(1, int(top / 1.06) - 2) if ok[n - 1] and ok[n : n + max(2, int(0.05 * n))].all())


def _wilson_half_width(n, p, level=0.95):
    low, high = proportion_confint(p * n, n, alpha=1 - level, method="wilson")
    return (high - low) / 2


def test_exact_power_is_the_enumerated_power_of_the_sign_test_both_directions():
    """Two-sided exact power equals enumeration of the sign test, for δ > 0 and δ < 0 and several α."""
    for n, d, psi, alpha in [(40, 0.15, 0.5, 0.05), (40, -0.15, 0.5, 0.05), (25, -0.2, 0.6, 0.1), (60, 0.1, 0.3, 0.01)]:
        got = float(closed.paired_power_exact(n, d, psi, alpha=alpha))
        assert got == pytest.approx(_mcnemar_power(n, d, psi, alpha), rel=1e-9, abs=1e-15)
    # defaults: two-sided 5%, exact test
    assert float(closed.paired_power_exact(40, -0.15, 0.5)) == pytest.approx(_mcnemar_power(40, -0.15, 0.5), rel=1e-9)


def test_exact_power_one_sided_rejects_in_the_direction_of_the_difference():
    """'greater' with δ > 0 and 'less' with δ < 0: the one-tailed sign test at the full α, by enumeration."""
    for n, d, psi, alpha in [(40, 0.15, 0.5, 0.05), (30, 0.1, 0.3, 0.1)]:
        expected = _mcnemar_power(n, d, psi, alpha, "greater")
        assert float(closed.paired_power_exact(n, d, psi, alpha=alpha, alternative="greater")) == pytest.approx(
            expected, rel=1e-9
        )
        assert expected > _mcnemar_power(n, d, psi, alpha, "two-sided")
        # the mirror plan: a < b by the same amount, tested with "less"
        mirror = _mcnemar_power(n, -d, psi, alpha, "less")
        assert mirror == pytest.approx(expected, rel=1e-9)
        assert float(closed.paired_power_exact(n, -d, psi, alpha=alpha, alternative="less")) == pytest.approx(mirror, rel=1e-9)


def test_exact_power_rejects_at_a_tail_equal_to_alpha():
    """At α = 0.125 two-sided, P(K = 0 | m = 4) = 1/16 = α/2 exactly: the sign test rejects there (p-value <= α)."""
    assert stats.binomtest(0, 4).pvalue <= 0.125
    for n, d, psi in [(4, 0.3, 1.0), (12, 0.2, 0.5)]:
        got = float(closed.paired_power_exact(n, d, psi, alpha=0.125))
        assert got == pytest.approx(_mcnemar_power(n, d, psi, 0.125), rel=1e-9)


def test_asymptotic_power_is_the_enumerated_chi_square_test():
    """test='asymptotic' rejects when |2K − M|/√M >= z, boundary included; M = 0 never rejects, M = 1 does if z <= 1."""
    alpha_z2 = 2 * stats.norm.sf(2.0)  # z = 2: |2K − M| = 2√M is hit exactly at M = 4, 16, ...
    for n, d, psi, alpha, alt in [
        (20, 0.2, 0.5, alpha_z2, "two-sided"),
        (6, 0.1, 0.3, 0.05, "two-sided"),  # P(M = 0) = 0.7^6: no rejection there
        (6, 0.1, 0.3, 0.05, "greater"),
        (5, 0.2, 0.4, 0.45, "two-sided"),  # z = 0.76 < 1: every M = 1 rejects
        (5, 0.2, 0.4, 0.2, "greater"),  # z = 0.84
        (30, -0.2, 0.6, 0.05, "two-sided"),
    ]:
        got = float(closed.paired_power_exact(n, d, psi, alpha=alpha, alternative=alt, test="asymptotic"))
        assert got == pytest.approx(_mcnemar_power(n, d, psi, alpha, alt, "asymptotic"), rel=1e-9, abs=1e-15)


def test_exact_power_broadcasts_each_argument():
    """An array in any one of n, difference, discordance gives the power at each of its values."""
    ns, ds, psis = [10, 30, 50], [0.05, 0.1, -0.2], [0.25, 0.4, 0.6]
    np.testing.assert_allclose(closed.paired_power_exact(ns, 0.1, 0.3), [_mcnemar_power(k, 0.1, 0.3) for k in ns], rtol=1e-9)
    np.testing.assert_allclose(closed.paired_power_exact(30, ds, 0.3), [_mcnemar_power(30, d, 0.3) for d in ds], rtol=1e-9)
    np.testing.assert_allclose(closed.paired_power_exact(30, 0.1, psis), [_mcnemar_power(30, 0.1, p) for p in psis], rtol=1e-9)


def test_exact_power_on_a_grid_of_sizes_and_plans():
    """Sizes 0 to 400 (past one block of 64) against two plans at once, in any order and with repeats: each element
    the enumeration's power; a plan and its mirror (-δ) share one two-sided power."""
    ns = np.array([0, 1, 399, 7, 7, *range(2, 400, 5)])
    plans = np.array([[0.1], [-0.1], [0.2]]), np.array([[0.3], [0.3], [0.5]])
    got = closed.paired_power_exact(ns[None, :], *plans)
    assert got.shape == (3, ns.size)
    for row, (d, psi) in enumerate(zip(plans[0][:, 0], plans[1][:, 0], strict=True)):
        for j in (0, 1, 2, 3, 4, 10, 50, ns.size - 1):
            assert got[row, j] == pytest.approx(_mcnemar_power(int(ns[j]), d, psi), rel=1e-9, abs=1e-15), (row, ns[j])
    np.testing.assert_array_equal(got[0], got[1])
    assert got[0, 0] == 0.0 and got[0, 3] == got[0, 4]


@pytest.mark.parametrize("n", [2.5, -1, np.nan, [10, 20.5]])
def test_exact_power_refuses_sizes_that_are_not_whole(n):
    """A size is a whole number of items: 2.5 is refused, not truncated to 2."""
    with pytest.raises(UsageError, match="whole numbers of items"):
        closed.paired_power_exact(n, 0.1, 0.3)


def test_a_plan_where_one_outcome_is_never_better():
    """|δ| = ψ (p01 = 0: the second system fixes items and breaks none) is a plan, not refused: Connor's n by hand,
    the exact power by enumeration (every discordant item favours the first), the exact size from it."""
    from scipy import special

    z_a, z_b = special.ndtri(0.975), special.ndtri(0.8)
    assert int(closed.paired_sample_size(0.1, 0.1)) == int(np.ceil((z_a * np.sqrt(0.1) + z_b * np.sqrt(0.1 - 0.01)) ** 2 / 0.01))
    for n in (5, 40, 97):
        assert float(closed.paired_power_exact(n, -0.1, 0.1)) == pytest.approx(_mcnemar_power(n, 0.1, 0.1), rel=1e-12)
    # The sign test rejects two-sided at 5% once 6 discordant items all go one way: P(M >= 6) with M ~ Bin(n, 0.1).
    n = closed.paired_sample_size_exact(0.1, 0.1)
    power = lambda k: stats.binom.sf(5, k, 0.1)  # noqa: E731
    assert power(n) >= 0.8 > power(n - 1)
    with pytest.raises(UsageError, match="at most"):
        closed.paired_power_exact(50, 0.1 + 1e-9, 0.1)


def test_exact_power_refuses_impossible_plans():
    """|δ| >= ψ and ψ outside (0, 1] are refused, not turned into NaN."""
    with pytest.raises(UsageError):
        closed.paired_power_exact(50, 0.3, 0.2)
    with pytest.raises(UsageError):
        closed.paired_power_exact(50, 0.1, 1.5)
    with pytest.raises(UsageError):
        closed.paired_power_exact(50, 0.1, 0.0)


def test_exact_sample_size_steps_over_the_saw_tooth():
    """With ψ = 1 (every item discordant) the power saw-tooths; the answer is the first n stable over the next 5%."""
    for d, power, alpha, top in [
        (0.3, 0.8, 0.05, 200),
        (0.4, 0.9, 0.05, 200),
        (0.25, 0.8, 0.05, 200),
        (0.1, 0.8, 0.01, 1300),
        (0.26, 0.5, 0.05, 120),
        (0.33, 0.8, 0.05, 120),
        (0.14, 0.9, 0.05, 700),
        # a dip between the points a sampled look-ahead probed (it answered 1,505 and 672)
        (0.1, 0.9, 0.01, 1700),
        (0.15, 0.9, 0.01, 800),
    ]:
        expected = _smallest_stable_n(d, 1.0, alpha, power=power, top=top)
        got = closed.paired_sample_size_exact(d, 1.0, power=power, alpha=alpha)
        assert got == expected
        # ... which is later than the first n reaching the power (the saw-tooth drops below again)
        assert _mcnemar_power(got - 1, d, 1.0, alpha) < power
        assert any(_mcnemar_power(k, d, 1.0, alpha) >= power for k in range(max(1, got - 60), got - 1))


def test_exact_sample_size_smallest_n_when_the_first_guess_overshoots():
    """Chi-square test at large α or large δ/ψ: Connor's guess overshoots and the search walks down to the first n."""
    for d, psi, kw in [
        (0.15, 0.2, dict(alpha=0.4)),
        (0.6, 1.0, dict(power=0.5)),
        (0.5, 0.6, dict(power=0.5)),
        (0.3, 0.5, dict(power=0.5, alpha=0.2, alternative="greater")),  # the guess halves down to 1; the answer is 2
    ]:
        got = closed.paired_sample_size_exact(d, psi, test="asymptotic", **kw)
        assert got == _smallest_stable_n(d, psi, test="asymptotic", top=80, **kw)


def test_exact_sample_size_when_the_first_bracket_falls_short():
    """A low target (5%, 30%): the conservative exact test needs more than twice the guess; the bracket doubles."""
    for d, psi, kw in [(0.1, 0.5, dict(power=0.05)), (0.02, 0.1, dict(power=0.3, alpha=0.6))]:
        assert closed.paired_sample_size_exact(d, psi, **kw) == _smallest_stable_n(d, psi, top=60, **kw)


def test_exact_sample_size_returns_when_one_item_already_has_the_power():
    """At α = 0.4 (or 0.2 one-sided) one discordant item rejects (z < 1): n = 1 suffices, and is the answer."""
    for d, psi, alpha, alt in [(0.9, 1.0, 0.4, "two-sided"), (0.8, 0.9, 0.2, "greater")]:
        assert _mcnemar_power(1, d, psi, alpha, alt, "asymptotic") >= 0.8
        got = closed.paired_sample_size_exact(d, psi, alpha=alpha, alternative=alt, test="asymptotic")
        assert got == 1 == _smallest_stable_n(d, psi, alpha, alternative=alt, test="asymptotic", top=40)


def test_exact_sample_size_one_sided_and_negative_difference():
    """'greater' at α = 1% and a negative δ two-sided: the first n stable over the next 5%, by enumeration."""
    got = closed.paired_sample_size_exact(0.3, 0.6, alpha=0.01, alternative="greater")
    assert got == _smallest_stable_n(0.3, 0.6, alpha=0.01, alternative="greater", top=120)
    got = closed.paired_sample_size_exact(-0.3, 0.6, power=0.9, alpha=0.1)
    assert got == _smallest_stable_n(-0.3, 0.6, power=0.9, alpha=0.1, top=120)


def test_exact_sample_size_less_with_a_negative_difference():
    """alternative='less' plans for a < b (δ < 0): the same n as 'greater' for the mirror δ > 0."""
    got = closed.paired_sample_size_exact(-0.3, 0.6, alpha=0.05, alternative="less")
    assert got == _smallest_stable_n(-0.3, 0.6, alternative="less", top=120)


def test_connor_sample_size_defaults_and_integer_rounding():
    """paired_sample_size defaults to two-sided 5% and 80%; integers; a formula landing on an integer stays there."""
    za, zb = stats.norm.ppf(0.975), stats.norm.ppf(0.8)
    for d, psi in [(0.05, 0.2), (0.1, 0.4), (-0.1, 0.3)]:
        got = closed.paired_sample_size(d, psi)
        assert np.issubdtype(got.dtype, np.integer)
        assert int(got) == int(np.ceil((za * np.sqrt(psi) + zb * np.sqrt(psi - d * d)) ** 2 / (d * d)))
    # the power at which Connor's n is exactly 300
    d, psi = 0.1, 0.3
    power = stats.norm.cdf((d * np.sqrt(300) - za * np.sqrt(psi)) / np.sqrt(psi - d * d))
    assert int(closed.paired_sample_size(d, psi, power=power)) == 300


def test_connor_power_adds_the_far_tail():
    """Two-sided paired_power adds Φ((−δ√n − z√ψ)/sd), which matters at small n."""
    n, d, psi = 8, 0.1, 0.3
    za, sd = stats.norm.ppf(0.975), np.sqrt(psi - d * d)
    near = stats.norm.cdf((d * np.sqrt(n) - za * np.sqrt(psi)) / sd)
    far = stats.norm.cdf((-d * np.sqrt(n) - za * np.sqrt(psi)) / sd)
    assert far > 1e-3
    assert float(closed.paired_power(n, d, psi)) == pytest.approx(near + far, rel=1e-12)


def test_rate_half_width_is_the_wilson_half_width():
    """Expected Wilson half-width (statsmodels) at the rate, on n / deff outputs, at the level asked for."""
    for n, p, level, deff in [(1000, 0.5, 0.95, 1.0), (30, 0.1, 0.9, 1.0), (200, 0.3, 0.99, 2.5), (12, 0.0, 0.95, 1.0)]:
        got = float(closed.rate_half_width(n, p, level=level, deff=deff))
        assert got == pytest.approx(_wilson_half_width(n / deff, p, level), rel=1e-12)
    assert float(closed.rate_half_width(50, 1.0)) == pytest.approx(_wilson_half_width(50, 1.0), rel=1e-12)


def test_numbers_given_as_text_are_read_as_numbers():
    """Shares, sizes and design effects given as strings (as read from a text file) are converted to floats."""
    assert float(closed.rate_half_width("400", "0.3", deff="2")) == pytest.approx(_wilson_half_width(200, 0.3), rel=1e-12)
    n = int(closed.rate_sample_size("0.05", 0.5))
    assert _wilson_half_width(n, 0.5) <= 0.05 < _wilson_half_width(n - 1, 0.5)
    za, sd = stats.norm.ppf(0.975), np.sqrt(0.3 - 0.01)
    power = stats.norm.cdf((0.1 * np.sqrt(100) - za * np.sqrt(0.3)) / sd)
    power += stats.norm.cdf((-0.1 * np.sqrt(100) - za * np.sqrt(0.3)) / sd)
    assert float(closed.paired_power("100", 0.1, 0.3)) == pytest.approx(power, rel=1e-12)


def test_rate_checks_accept_zero_and_one_and_refuse_beyond():
    """Shares 0 and 1 are valid; 1.5 and −0.1 are refused."""
    assert float(closed.rate_half_width(40, 0.0)) == pytest.approx(_wilson_half_width(40, 0.0), rel=1e-12)
    assert float(closed.rate_half_width(40, 1.0)) == pytest.approx(_wilson_half_width(40, 1.0), rel=1e-12)
    for bad in (1.5, -0.1, 2.0):
        with pytest.raises(UsageError):
            closed.rate_half_width(40, bad)


def test_rate_sample_size_is_the_smallest_n_with_the_half_width():
    """Integers n with Wilson half-width(n) <= w < half-width(n − 1), at the level and deff asked for."""
    for w, p, level, deff in [(0.03, 0.5, 0.95, 1.0), (0.05, 0.2, 0.9, 1.0), (0.02, 0.1, 0.99, 1.5), (0.1, 0.7, 0.8, 3.0)]:
        got = closed.rate_sample_size(w, p, level=level, deff=deff)
        assert np.issubdtype(got.dtype, np.integer)
        n = int(got)
        assert _wilson_half_width(n / deff, p, level) <= w < _wilson_half_width((n - 1) / deff, p, level)
    # a wide target is met by one output (the half-width at n = 1 is 0.445 at 50%)
    assert _wilson_half_width(1, 0.5) < 0.46
    assert int(closed.rate_sample_size(0.46, 0.5)) == 1
    # a target landing exactly on n = 200 gives 200
    assert int(closed.rate_sample_size(_wilson_half_width(200, 0.3), 0.3)) == 200
    assert int(closed.rate_sample_size(_wilson_half_width(7, 0.1), 0.1)) == 7
    assert int(closed.rate_sample_size(_wilson_half_width(50, 0.5, 0.9), 0.5, level=0.9)) == 50


def test_rate_sample_size_refuses_a_half_width_outside_zero_to_a_half():
    """half_width <= 0 or >= 0.5 (a percent by mistake) is refused."""
    for bad in (0.0, -0.01, 0.5, 0.6, 1.2, 3.0):
        with pytest.raises(UsageError):
            closed.rate_sample_size(bad, 0.5)
    with pytest.raises(UsageError):
        closed.rate_sample_size([0.03, 0.7], 0.5)


def test_exact_sample_size_is_the_first_stable_n_where_a_search_could_land_later():
    """ψ = 1 (every item discordant) with the chi-square test: the power crosses the target several times. The
    answer is the first n stable over the next 5% by enumeration; a search started elsewhere (from n = 1, from
    Connor's n at α = 5%, or at the default power) answered 121, 76, 25, 75 and 2 here."""
    for d, psi, alpha, alt, power in [
        (0.2, 1.0, 0.2, "two-sided", 0.8),
        (0.3, 1.0, 0.2, "two-sided", 0.9),
        (0.2, 1.0, 0.2, "greater", 0.5),
        (0.2, 1.0, 0.05, "greater", 0.5),
        (0.4, 0.6, 0.2, "greater", 0.5),
    ]:
        got = closed.paired_sample_size_exact(d, psi, alpha=alpha, alternative=alt, power=power, test="asymptotic")
        assert got == _smallest_stable_n(d, psi, alpha, power=power, alternative=alt, test="asymptotic", top=200)


def test_power_curve_by_recursion_is_the_binomial_sum():
    """The power at every n from the law of the discordant count grown one item at a time equals the sum over
    Bin(n, ψ) at each n (two independent routes), and both equal the enumeration written out."""
    for d, psi, alpha, alt, test in [(0.1, 0.3, 0.05, "two-sided", "exact"), (0.2, 1.0, 0.2, "greater", "asymptotic")]:
        curve = closed._power_curve(60, d, psi, alpha, alt, test)
        summed = closed.paired_power_exact(np.arange(1, 61), d, psi, alpha=alpha, alternative=alt, test=test)
        np.testing.assert_allclose(curve[1:], summed, rtol=1e-10, atol=1e-14)
        assert curve[0] == 0.0
        assert curve[37] == pytest.approx(_mcnemar_power(37, d, psi, alpha, alt, test), rel=1e-9)
    # Kept to 12 SDs of nψ (from about 600 items at ψ = 0.3 the law is cut): still the binomial sum.
    curve = closed._power_curve(3000, 0.05, 0.3, 0.05, "two-sided", "exact")
    sizes = np.array([700, 1500, 2999, 3000])
    np.testing.assert_allclose(curve[sizes], closed.paired_power_exact(sizes, 0.05, 0.3), rtol=1e-10)


def test_exact_sample_size_of_a_large_plan_keeps_its_promise():
    """23,740 items: the power holds from the answer over the next 5% and not at the n before it."""
    d, psi = 0.01, 0.3
    n = closed.paired_sample_size_exact(d, psi)
    assert n > 20_000
    # (the window in one product, checked equal to the recursion above; paired_power_exact takes each n apart)
    ahead = closed._exact_powers(np.arange(n, n + 1 + int(0.05 * n)), d, psi, 0.05, "two-sided", "exact")
    assert ahead.min() >= 0.8 and float(closed.paired_power_exact(n - 1, d, psi)) < 0.8
    assert ahead[0] == pytest.approx(float(closed.paired_power_exact(n, d, psi)), rel=1e-12)


def test_exact_sample_size_where_the_window_and_the_curve_matter():
    """The 5% window (at least 2 items) is checked at its far end too (δ = 0.8: 4, not 8), grows with n (δ = 0.05:
    a 2-item window would stop at an earlier crossing), and a curve that first holds no stable n is extended."""
    assert closed.paired_sample_size_exact(0.8, 1.0, power=0.5, test="asymptotic") == _smallest_stable_n(
        0.8, 1.0, power=0.5, test="asymptotic", top=40
    )
    got = closed.paired_sample_size_exact(0.05, 1.0, power=0.5, alternative="greater", test="asymptotic")
    assert got == _smallest_stable_n(0.05, 1.0, power=0.5, alternative="greater", test="asymptotic", top=1250)

"""Closed-form power, sample size and MDE against hand formulas written with scipy.stats (mutation kills)."""

import numpy as np
import pytest
from scipy import stats

from stats_mtbias.errors import UsageError
from stats_mtbias.planning import closed


def _z(alpha, alternative):
    return stats.norm.ppf(1 - alpha / 2) if alternative == "two-sided" else stats.norm.ppf(1 - alpha)


def _connor_power(n, d, psi, alpha=0.05, alternative="two-sided"):
    # Connor (1987): the normal approximation of McNemar's test, both tails when two-sided.
    za, sd = _z(alpha, alternative), np.sqrt(psi - d * d)
    power = stats.norm.cdf((d * np.sqrt(n) - za * np.sqrt(psi)) / sd)
    if alternative == "two-sided":
        power += stats.norm.cdf((-d * np.sqrt(n) - za * np.sqrt(psi)) / sd)
    return power


def _score_power(n, p, p0, alpha=0.05, alternative="two-sided"):
    # Power of the one-sample score test of H0: share = p0 when the share is p (normal approximation).
    za, d = _z(alpha, alternative), abs(p - p0)
    sd0, sd1 = np.sqrt(p0 * (1 - p0)), np.sqrt(p * (1 - p))
    power = stats.norm.cdf((d * np.sqrt(n) - za * sd0) / sd1)
    if alternative == "two-sided":
        power += stats.norm.cdf((-d * np.sqrt(n) - za * sd0) / sd1)
    return power


def _score_n(p, p0, alpha=0.05, power=0.8, alternative="two-sided", deff=1.0):
    # n = deff (z_a √(p0 q0) + z_b √(p q))² / (p − p0)², before rounding up.
    za, zb = _z(alpha, alternative), stats.norm.ppf(power)
    return deff * (za * np.sqrt(p0 * (1 - p0)) + zb * np.sqrt(p * (1 - p))) ** 2 / (p - p0) ** 2


def test_paired_mde_reaches_the_power_at_the_given_alpha_and_alternative():
    """paired_mde solves Connor's power = target at the alpha and alternative asked for, not the defaults."""
    for alpha, alternative in [(0.01, "two-sided"), (0.05, "greater"), (0.1, "less"), (0.05, "two-sided")]:
        mde = float(closed.paired_mde(800, 0.25, alpha=alpha, power=0.9, alternative=alternative))
        assert _connor_power(800, mde, 0.25, alpha, alternative) == pytest.approx(0.9, abs=1e-7)


def test_paired_mde_is_a_float_nan_where_no_difference_below_psi_reaches_the_power():
    """With one item no |δ| < ψ has 80% power: the MDE is NaN (a float array), beside a reachable one."""
    out = closed.paired_mde([1, 626], 0.2)
    assert out.dtype == float
    assert np.isnan(out[0])
    assert out[1] == pytest.approx(0.05, abs=1e-3)  # Connor's example: ψ = 0.2, δ = 0.05 → n = 626


def test_rate_power_defaults_are_two_sided_five_percent_without_design_effect():
    """rate_power(n, p, p0) is the two-sided 5% score-test power with deff 1 (hand formula, both tails)."""
    for n, p, p0 in [(194, 0.4, 0.5), (10, 0.45, 0.5), (60, 0.3, 0.2), (25, 0.7, 0.6)]:
        assert float(closed.rate_power(n, p, p0)) == pytest.approx(_score_power(n, p, p0), rel=1e-12)


def test_rate_power_far_tail_and_one_sided_and_design_effect():
    """The far tail is added (it matters at n = 10), one-sided uses z_{1−α}, and deff divides n."""
    n, p, p0 = 10, 0.45, 0.5
    near = stats.norm.cdf((0.05 * np.sqrt(n) - 1.959963984540054 * 0.5) / np.sqrt(p * (1 - p)))
    far = stats.norm.cdf((-0.05 * np.sqrt(n) - 1.959963984540054 * 0.5) / np.sqrt(p * (1 - p)))
    assert far > 0.005
    assert float(closed.rate_power(n, p, p0, alpha=0.05)) == pytest.approx(near + far, rel=1e-12)
    for alt in ("greater", "less"):
        got = float(closed.rate_power(n, p, p0, alternative=alt))
        assert got == pytest.approx(_score_power(n, p, p0, 0.05, alt), rel=1e-12)
    assert float(closed.rate_power(400, 0.45, 0.5, deff=2.0)) == pytest.approx(_score_power(200, 0.45, 0.5), rel=1e-12)
    assert float(closed.rate_power(400, 0.45, 0.5, deff=2.0, alpha=0.1, alternative="greater")) == pytest.approx(
        _score_power(200, 0.45, 0.5, 0.1, "greater"), rel=1e-12
    )
    # Monotone: more outputs, more power.
    powers = closed.rate_power(np.arange(10, 500, 10), 0.45, 0.5)
    assert np.all(np.diff(powers) > 0)


def test_rate_sample_size_test_is_the_score_formula_rounded_up():
    """Defaults two-sided 5%, 80%, deff 1; across asymmetric p, p0 and options n = ⌈formula⌉ as integers."""
    assert int(closed.rate_sample_size_test(0.4, 0.5)) == 194  # (1.96·0.5 + 0.8416·√0.24)² / 0.01 = 193.9
    for p, p0 in [(0.4, 0.5), (0.1, 0.2), (0.3, 0.1), (0.9, 0.7), (0.05, 0.01), (0.6, 0.85)]:
        got = closed.rate_sample_size_test(p, p0)
        assert np.issubdtype(got.dtype, np.integer)
        assert int(got) == int(np.ceil(_score_n(p, p0)))
        for kw in (dict(alpha=0.01, power=0.9), dict(alternative="greater"), dict(alternative="less", deff=1.7)):
            assert int(closed.rate_sample_size_test(p, p0, **kw)) == int(np.ceil(_score_n(p, p0, **kw)))
    # The answer is the smallest n with score-test power >= 80% (one-sided, where the far tail is absent).
    n = int(closed.rate_sample_size_test(0.3, 0.2, alternative="greater"))
    assert _score_power(n, 0.3, 0.2, 0.05, "greater") >= 0.8 > _score_power(n - 1, 0.3, 0.2, 0.05, "greater")


def test_rate_sample_size_test_keeps_an_exact_integer():
    """A formula landing on an integer (up to rounding) is not rounded up to the next one."""
    k = _score_n(0.3, 0.5)
    assert int(closed.rate_sample_size_test(0.3, 0.5, deff=200.0 / k)) == 200


def test_rate_sample_size_test_refuses_a_rate_equal_to_the_reference():
    """No sample size detects rate == reference: UsageError, also inside an array."""
    with pytest.raises(UsageError):
        closed.rate_sample_size_test(0.5, 0.5)
    with pytest.raises(UsageError):
        closed.rate_sample_size_test([0.4, 0.3], [0.5, 0.3])


def test_normal_sample_size_is_an_integer_array_scaled_by_one_over_root_n():
    """n·((z_a + z_b)·se/δ)² rounded up, returned as integers."""
    got = closed.normal_sample_size([0.02, 0.05], 0.01, 500)
    assert np.issubdtype(got.dtype, np.integer)
    k = ((stats.norm.ppf(0.975) + stats.norm.ppf(0.8)) * 0.01 / np.array([0.02, 0.05])) ** 2
    assert got.tolist() == np.ceil(500 * k).astype(int).tolist()


def _exact_power_by_enumeration(n, d, psi, alpha, alternative, test):
    # Σ_m Bin(m; n, ψ) Σ_k Bin(k; m, π) [the test rejects k of m], π = (ψ + δ)/(2ψ); the rejection decided per (m, k)
    # by scipy's binomtest (sign test) or by |2k − m| / √m >= z (McNemar's chi-square).
    pi = (psi + d) / (2 * psi)
    z = {"two-sided": stats.norm.ppf(1 - alpha / 2), "greater": stats.norm.ppf(1 - alpha)}[alternative]
    total = 0.0
    for m in range(n + 1):
        for k in range(m + 1):
            if m == 0:
                reject = False
            elif test == "exact":
                reject = stats.binomtest(k, m, 0.5, alternative=alternative).pvalue <= alpha * (1 + 1e-12)
            else:
                stat = (2 * k - m) / np.sqrt(m)
                reject = (abs(stat) if alternative == "two-sided" else stat) >= z - 1e-12
            if reject:
                total += stats.binom.pmf(m, n, psi) * stats.binom.pmf(k, m, pi)
    return total


@pytest.mark.parametrize("test", ["exact", "asymptotic"])
def test_exact_power_is_the_enumerated_rejection_probability(test):
    """paired_power_exact = enumeration over (discordant m, first-favouring k) of the sign test / chi-square decision."""
    cases = [
        (12, 0.1, 0.5, 0.0625, "two-sided"),
        (12, 0.1, 0.5, 0.0625, "greater"),
        (9, 0.05, 0.3, 0.2, "two-sided"),
        (5, 0.1, 0.2, 0.5, "two-sided"),
        (10, 0.2, 0.6, 0.05, "greater"),
        (8, 0.0, 0.7, 2 * stats.norm.sf(2.0), "two-sided"),
    ]
    for n, d, psi, alpha, alt in cases:
        got = float(closed.paired_power_exact(n, d, psi, alpha=alpha, alternative=alt, test=test))
        assert got == pytest.approx(_exact_power_by_enumeration(n, d, psi, alpha, alt, test), abs=1e-12), (n, alpha, alt)


def test_paired_power_is_connors_normal_approximation_with_both_tails():
    """paired_power = Connor's formula (far tail included two-sided; z_{1−α} one-sided) across n, δ, ψ."""
    for n, d, psi in [(5, 0.05, 0.3), (30, 0.1, 0.4), (626, 0.05, 0.2), (50, -0.1, 0.5)]:
        for alpha, alt in [(0.05, "two-sided"), (0.2, "two-sided"), (0.05, "greater"), (0.1, "less")]:
            got = float(closed.paired_power(n, d, psi, alpha=alpha, alternative=alt))
            assert got == pytest.approx(_connor_power(n, abs(d), psi, alpha, alt), rel=1e-12)


def test_paired_sample_size_defaults_and_integers():
    """Defaults two-sided 5%, 80% (Connor's 626 for ψ 0.2, δ 0.05); integer output; an exact integer stays."""
    got = closed.paired_sample_size(0.05, 0.2)
    assert int(got) == 626 and np.issubdtype(got.dtype, np.integer)
    za, zb = stats.norm.ppf(0.975), stats.norm.ppf(0.8)
    raw = (za * np.sqrt(0.2) + zb * np.sqrt(0.2 - 0.05**2)) ** 2 / 0.05**2
    # Power 0.5 (z_b = 0): n = z_a² ψ / δ²; choose ψ so that this is 400 up to rounding.
    psi = 400 * 0.05**2 / za**2
    assert int(closed.paired_sample_size(0.05, psi, power=0.5)) == 400
    assert int(np.ceil(raw)) == 626


def test_rate_half_width_is_the_wilson_interval_half_width():
    """Half the width of statsmodels' Wilson interval at count p·n of n (n / deff effective)."""
    from statsmodels.stats.proportion import proportion_confint

    for n, p in [(10, 0.3), (40, 0.5), (200, 0.05), (1000, 0.5), (7, 0.0)]:
        for level in (0.95, 0.8):
            lo, hi = proportion_confint(p * n, n, alpha=1 - level, method="wilson")
            assert float(closed.rate_half_width(n, p, level=level)) == pytest.approx((hi - lo) / 2, rel=1e-10)
    lo, hi = proportion_confint(0.3 * 50, 50, method="wilson")
    assert float(closed.rate_half_width(100, 0.3, deff=2.0)) == pytest.approx((hi - lo) / 2, rel=1e-10)


def test_rate_sample_size_is_the_smallest_n_with_the_half_width():
    """The smallest integer n whose Wilson half-width (statsmodels, at the level asked) is at most the target."""
    from statsmodels.stats.proportion import proportion_confint

    def half(n, p, level):
        lo, hi = proportion_confint(p * n, n, alpha=1 - level, method="wilson")
        return (hi - lo) / 2

    for w, p, level in [(0.03, 0.5, 0.95), (0.05, 0.2, 0.9), (0.1, 0.5, 0.99), (0.2, 0.4, 0.95), (0.45, 0.5, 0.5)]:
        got = closed.rate_sample_size(w, p, level=level)
        assert np.issubdtype(got.dtype, np.integer)
        n = int(got)
        assert half(n, p, level) <= w + 1e-12 < half(n - 1, p, level) if n > 1 else half(n, p, level) <= w
    assert int(closed.rate_sample_size(0.03, 0.5)) == 1064  # the docstring's example, (1.96² /(4·0.03²) − 1.96² ≈ 1063.3)


def test_rate_sample_size_refuses_half_widths_outside_0_05():
    """half_width must lie in (0, 0.5): 0, 0.5, negative and larger values are refused."""
    for w in (0.0, 0.5, -0.1, 0.7, [0.1, 0.5]):
        with pytest.raises(UsageError):
            closed.rate_sample_size(w, 0.5)
    assert int(closed.rate_sample_size(0.49, 0.5)) >= 1


def test_exact_power_broadcasts_over_each_argument():
    """n, δ and ψ given as arrays (one at a time and together) give the enumerated power element by element."""
    cases = [([6, 9], 0.1, 0.5), (9, [0.0, 0.2], 0.5), (9, 0.1, [0.3, 0.6]), ([6, 9], [0.1, 0.2], [0.5, 0.4])]
    for n, d, psi in cases:
        got = closed.paired_power_exact(n, d, psi, alpha=0.1)
        nn, dd, pp = np.broadcast_arrays(n, d, psi)
        want = [_exact_power_by_enumeration(int(a), b, c, 0.1, "two-sided", "exact") for a, b, c in zip(nn, dd, pp)]
        assert got.shape == (2,)
        assert got == pytest.approx(want, abs=1e-12)


def test_rates_of_0_and_1_are_accepted_and_others_outside_refused():
    """Shares 0 and 1 are valid (Wilson half-width z²/(2(n + z²))... at p = 0 and 1); 1.5 and −0.1 are refused."""
    z = stats.norm.ppf(0.975)
    for p in (0.0, 1.0):
        assert float(closed.rate_half_width(20, p)) == pytest.approx(z**2 / (2 * (20 + z**2)), rel=1e-12)
    for p in (1.5, -0.1, 100):
        with pytest.raises(UsageError):
            closed.rate_half_width(20, p)


@pytest.mark.parametrize(
    ("d", "psi", "alpha", "power", "alt", "test"),
    [
        (0.3, 0.5, 0.05, 0.8, "two-sided", "exact"),
        (0.25, 0.4, 0.05, 0.9, "greater", "exact"),
        (0.2, 0.3, 0.1, 0.8, "two-sided", "asymptotic"),
        (0.2, 0.4, 0.05, 0.7, "two-sided", "exact"),
    ],
)
def test_exact_sample_size_is_the_first_n_whose_power_holds_over_the_next_five_percent(d, psi, alpha, power, alt, test):
    """The smallest n with power >= target at n and at every size up to n + max(2, 5% of n) (powers by enumeration
    through paired_power_exact, itself checked against scipy's binomtest above)."""
    got = closed.paired_sample_size_exact(d, psi, alpha=alpha, power=power, alternative=alt, test=test)
    ns = np.arange(1, 3 * got + 60)
    f = closed.paired_power_exact(ns, d, psi, alpha=alpha, alternative=alt, test=test)

    def holds(m):
        return all(f[k - 1] >= power for k in range(m, m + max(2, int(0.05 * m)) + 1))

    assert holds(got)
    assert isinstance(got, int)
    # No smaller n from the first n with enough power on holds the target over its window.
    first = int(ns[np.argmax(f >= power)])
    assert all(not holds(m) for m in range(first, got))

"""Closed-form power and sample size against the classical formulas, exact enumeration and independent simulation."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy import special, stats
from statsmodels.stats.proportion import proportion_confint

import stats_mtbias as smb
from stats_mtbias.errors import UsageError
from stats_mtbias.planning import closed
from stats_mtbias.significance.paired import sign_test_pvalue

GRID = [(psi, d) for psi in (0.05, 0.1, 0.2, 0.3, 0.4) for d in (0.02, 0.05, 0.1, 0.2) if d < psi]


def _connor_by_hand(d, psi, alpha=0.05, power=0.8):
    # Connor (1987), eq. (3), written out independently of the package.
    za, zb = stats.norm.ppf(1 - alpha / 2), stats.norm.ppf(power)
    return int(np.ceil((za * np.sqrt(psi) + zb * np.sqrt(psi - d * d)) ** 2 / (d * d)))


def test_connor_example_of_the_issue():
    assert smb.power("paired", discordance=0.2, difference=0.05).n == 626
    assert smb.power("paired", discordance=0.2, difference=-0.05).n == 626  # the sign does not matter two-sided


@pytest.mark.parametrize(("psi", "d"), GRID)
def test_sample_size_is_connors_formula_across_the_grid(psi, d):
    n = smb.power("paired", discordance=psi, difference=d).n
    assert n == _connor_by_hand(d, psi)
    # ... and the power it reports is what Connor's approximation gives there, just above the target.
    assert 0.8 <= closed.paired_power(n, d, psi) < closed.paired_power(n + 5, d, psi)
    assert closed.paired_power(n - 1, d, psi) < 0.8 + 1e-3


@pytest.mark.parametrize(("psi", "d"), [(psi, d) for psi, d in GRID if d / psi <= 0.4])
def test_connor_agrees_with_the_exact_power_of_mcnemars_chi_square_within_5_percent(psi, d):
    # Enumerating McNemar's chi-square test exactly (no approximation): the n that reaches 80% power.
    exact_n = closed.paired_sample_size_exact(d, psi, test="asymptotic")
    assert abs(exact_n / _connor_by_hand(d, psi) - 1) <= 0.05


def test_exact_test_needs_more_items_than_connor_and_reaches_the_power():
    # The exact (sign) test the package runs is conservative: more items, and the power holds from there on.
    for psi, d in [(0.2, 0.05), (0.1, 0.05), (0.4, 0.1)]:
        n = closed.paired_sample_size_exact(d, psi)
        assert n >= _connor_by_hand(d, psi)
        assert all(closed.paired_power_exact(k, d, psi) >= 0.8 for k in range(n, n + 15))


def test_exact_power_matches_simulation_of_the_exact_test():
    rng = np.random.default_rng(11)
    n_sim = 20_000
    for n, psi, d in [(626, 0.2, 0.05), (150, 0.3, 0.1), (80, 0.1, 0.05)]:
        counts = rng.multinomial(n, [(psi + d) / 2, (psi - d) / 2, 1 - psi], size=n_sim)
        simulated = np.mean(sign_test_pvalue(counts[:, 0], counts[:, 1], "two-sided") <= 0.05)
        exact = float(closed.paired_power_exact(n, d, psi))
        assert abs(simulated - exact) < 4 * np.sqrt(exact * (1 - exact) / n_sim)


def test_connor_power_matches_simulation_of_mcnemars_chi_square():
    rng = np.random.default_rng(12)
    n_sim = 20_000
    for psi, d in [(0.2, 0.05), (0.4, 0.05), (0.1, 0.02)]:
        n = _connor_by_hand(d, psi)
        counts = rng.multinomial(n, [(psi + d) / 2, (psi - d) / 2, 1 - psi], size=n_sim)
        b, c = counts[:, 0], counts[:, 1]
        with np.errstate(invalid="ignore", divide="ignore"):
            z = np.abs(b - c) / np.sqrt(b + c)
        simulated = np.mean(z > stats.norm.ppf(0.975))
        assert abs(simulated - 0.8) < 4 * np.sqrt(0.16 / n_sim) + 0.01  # Connor's approximation error < 1 point


def test_mde_inverts_the_power():
    mde = smb.power("paired", discordance=0.2, n=3888).difference
    assert closed.paired_power(3888, mde, 0.2) == pytest.approx(0.8, abs=1e-6)
    assert smb.power("paired", discordance=0.2, n=3888, difference=mde).power == pytest.approx(0.8, abs=1e-6)
    exact = smb.power("paired", discordance=0.2, n=3888, formula="exact")
    assert exact.difference > mde  # the exact test detects a little less


def test_alternatives_name_their_direction():
    # "less" plans a < b: the same items as "greater" for the mirrored difference; the sign must match the side.
    greater = smb.power("paired", discordance=0.2, difference=0.05, alternative="greater").n
    assert smb.power("paired", discordance=0.2, difference=-0.05, alternative="less").n == greater
    with pytest.raises(smb.UsageError, match="above 0"):
        smb.power("paired", discordance=0.2, difference=-0.05, alternative="greater")
    with pytest.warns(FutureWarning, match="'one-sided' is deprecated"):
        assert smb.power("paired", discordance=0.2, difference=0.05, alternative="one-sided").n == greater


def test_one_sided_needs_fewer_items():
    two = smb.power("paired", discordance=0.2, difference=0.05).n
    one = smb.power("paired", discordance=0.2, difference=0.05, alternative="greater").n
    za, zb = stats.norm.ppf(0.95), stats.norm.ppf(0.8)
    assert one == int(np.ceil((za * np.sqrt(0.2) + zb * np.sqrt(0.2 - 0.0025)) ** 2 / 0.0025)) < two


def test_wilson_half_width_matches_simulation_and_sample_size_is_the_smallest():
    rng = np.random.default_rng(3)
    for n, p in [(1000, 0.3), (200, 0.05), (500, 0.5)]:
        x = rng.binomial(n, p, size=20_000)
        z = stats.norm.ppf(0.975)
        phat = x / n
        half = z / (1 + z * z / n) * np.sqrt(phat * (1 - phat) / n + z * z / (4 * n * n))
        # The expected-width formula evaluates the width at the true share: within 3% of the mean width.
        assert float(closed.rate_half_width(n, p)) == pytest.approx(half.mean(), rel=0.03)
    n = smb.power("rate", rate=0.3, half_width=0.03).n
    assert closed.rate_half_width(n, 0.3) <= 0.03 < closed.rate_half_width(n - 1, 0.3)
    assert smb.power("rate", rate=0.3, n=n).half_width <= 0.03


def test_score_test_power_matches_simulation():
    rng = np.random.default_rng(4)
    n_sim = 20_000
    for p0, p1 in [(0.5, 0.4), (0.1, 0.05), (0.5, 0.56)]:
        res = smb.power("rate", null=p0, difference=p1 - p0)
        x = rng.binomial(res.n, p1, size=n_sim)
        z = (x / res.n - p0) / np.sqrt(p0 * (1 - p0) / res.n)
        simulated = np.mean(np.abs(z) > stats.norm.ppf(0.975))
        assert abs(simulated - res.power) < 4 * np.sqrt(0.16 / n_sim) + 0.015


def test_design_effect_matches_simulated_clustered_variance():
    rng = np.random.default_rng(5)
    m, rho, p, clusters = 6, 0.2, 0.3, 400
    # Beta-binomial clusters: intra-cluster correlation rho = 1 / (a + b + 1).
    total = 1 / rho - 1
    probs = rng.beta(p * total, (1 - p) * total, size=(20_000, clusters))
    means = rng.binomial(m, probs).sum(axis=1) / (m * clusters)
    deff = float(closed.design_effect(m, rho))
    assert deff == pytest.approx(2.0)
    assert means.var() == pytest.approx(p * (1 - p) / (m * clusters) * deff, rel=0.05)
    # The planned n scales by exactly the design effect.
    base = smb.power("rate", rate=p, half_width=0.02).n
    clustered = smb.power("rate", rate=p, half_width=0.02, cluster_size=m, icc=rho)
    # n counts clusters of m outputs; the outputs are the unclustered n times the design effect.
    assert clustered.table["n_outputs"].iloc[0] == pytest.approx(base * deff, abs=2)
    assert clustered.n == int(np.ceil(clustered.table["n_outputs"].iloc[0] / m))
    # ... and that many clusters give the half-width asked for.
    at = smb.power("rate", rate=p, n=clustered.n, cluster_size=m, icc=rho)
    assert at.half_width <= 0.02 and at.table["n_outputs"].iloc[0] == clustered.n * m


def test_normal_design_round_trips():
    res = smb.power("normal", se=0.01, n_pilot=500, difference=0.02)
    se_n = 0.01 * np.sqrt(500 / res.n)
    assert closed.normal_power(0.02, se_n) >= 0.8 > closed.normal_power(0.02, 0.01 * np.sqrt(500 / (res.n - 1)))
    mde = smb.power("normal", se=0.01, n_pilot=500, n=500).difference
    assert mde == pytest.approx((stats.norm.ppf(0.975) + stats.norm.ppf(0.8)) * 0.01)
    assert float(closed.mde_from_interval(-1.96, 1.96)) == pytest.approx(2.8016, abs=1e-3)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (dict(design="paired", difference=0.05), "discordance"),
        (dict(design="paired", discordance=0.2, difference=0.3), "at most `discordance`"),
        (dict(design="paired", discordance=0.2, difference=0.0), "non-zero"),
        (dict(design="paired", discordance=0.2, n=100, difference=0.05, power=0.9), "two of"),
        (dict(design="paired", discordance=0.2), "give `n`"),
        (dict(design="rate", rate=30, half_width=0.03), "share"),
        (dict(design="normal", se=0.0, n_pilot=10, n=10), "positive"),
        (dict(design="pilot", n=10), "pilot="),
        (dict(design="bogus"), "design"),
        (dict(design="paired", discordance=0.2, difference=0.05, alpha=5), "alpha"),
    ],
)
def test_bad_requests_are_refused_clearly(kwargs, message):
    kwargs = dict(kwargs)  # the parameters are shared by every run of the test in one process (mutmut runs it twice)
    design = kwargs.pop("design")
    with pytest.raises(UsageError, match=message):
        smb.power(design, **kwargs)


def test_to_dict_is_json_ready():
    import json

    record = smb.power("paired", discordance=0.2, difference=0.05).to_dict()
    assert json.loads(json.dumps(record))["n"] == 626
    assert record["method"].startswith("Connor")


# -----------------------------------------------------------------------------
# Closed-form power, sample size and MDE against hand formulas written with scipy.stats (mutation kills).


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


# -----------------------------------------------------------------------------
# Exact McNemar power and sample size, Wilson half-widths and rate checks against enumeration and hand formulas.


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


def test_rate_sample_size_is_the_smallest_n_with_the_half_width_at_the_deff():
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


# -----------------------------------------------------------------------------
# Argument checks and small helpers of planning.closed against their stated contracts (mutation kills).


@pytest.mark.parametrize(("difference", "expected"), [(-0.1, "less"), (0.0, "greater"), (0.1, "greater"), (None, "greater")])
def test_one_sided_is_read_as_the_direction_of_the_difference(difference, expected):
    """The deprecated 'one-sided' becomes 'less' only for a negative difference (0 and None give 'greater')."""
    with pytest.warns(FutureWarning):
        assert closed.check_alternative("one-sided", difference) == expected


def test_one_sided_negative_difference_plans_the_lower_tail_in_a_power():
    """'one-sided' with δ < 0 gives the one-sided critical value z_{1−α} (same as 'less')."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        alt = closed.check_alternative("one-sided", -0.05)
    assert alt in closed.ALTERNATIVES
    assert closed.z_alpha(0.05, alt) == pytest.approx(stats.norm.ppf(0.95), rel=1e-12)


def test_z_alpha_default_is_two_sided():
    """z_alpha(α) without an alternative is z_{1−α/2}."""
    assert closed.z_alpha(0.05) == pytest.approx(stats.norm.ppf(0.975), rel=1e-12)
    assert closed.z_alpha(0.1) == pytest.approx(stats.norm.ppf(0.95), rel=1e-12)


@pytest.mark.parametrize("alpha", [0.0, 1.0, 1.5, -0.1])
def test_alpha_outside_the_open_unit_interval_is_refused(alpha):
    """α must lie strictly between 0 and 1 (0, 1 and beyond are refused)."""
    with pytest.raises(UsageError):
        closed.z_alpha(alpha)


@pytest.mark.parametrize("power", [0.0, 1.0, -0.2, 1.2])
def test_power_outside_the_open_unit_interval_is_refused(power):
    """The target power must lie strictly between 0 and 1."""
    with pytest.raises(UsageError):
        closed.normal_mde(1.0, power=power)


def test_design_effect_defaults_to_one():
    """Without clustering (m = 1 or ρ = 0, the defaults) the design effect is 1."""
    assert float(closed.design_effect()) == 1.0
    assert float(closed.design_effect(5)) == 1.0
    assert float(closed.design_effect(icc=0.3)) == 1.0


def test_design_effect_kish_by_hand_including_icc_one():
    """1 + (m − 1)ρ by hand; ρ = 1 (all outputs of a cluster alike) gives m."""
    assert float(closed.design_effect(5, 1.0)) == pytest.approx(5.0)
    assert float(closed.design_effect(3, 0.25)) == pytest.approx(1.5)


@pytest.mark.parametrize(("m", "rho"), [(0.5, 0.1), (0, 0.0), (5, -0.1), (5, 1.5), (5, 1.0 + 1e-9), (5, 2.5)])
def test_design_effect_refuses_cluster_below_one_or_icc_outside_unit_interval(m, rho):
    """m < 1 or ρ outside [0, 1] is a usage error."""
    with pytest.raises(UsageError):
        closed.design_effect(m, rho)


def test_difference_equal_to_discordance_is_a_plan_and_above_it_is_refused():
    """|δ| = ψ (p01 = 0) is a plan with Connor's n and power by hand; |δ| > ψ is refused."""
    z_a, z_b = stats.norm.isf(0.025), stats.norm.ppf(0.8)
    assert int(closed.paired_sample_size(0.2, 0.2)) == int(np.ceil((z_a * np.sqrt(0.2) + z_b * np.sqrt(0.2 - 0.04)) ** 2 / 0.04))
    sd = np.sqrt(0.2 - 0.04)
    want = stats.norm.cdf((2 - z_a * np.sqrt(0.2)) / sd) + stats.norm.cdf((-2 - z_a * np.sqrt(0.2)) / sd)  # δ √n = 2
    assert float(closed.paired_power(100, -0.2, 0.2)) == pytest.approx(want, rel=1e-12)
    with pytest.raises(UsageError, match="at most"):
        closed.paired_sample_size(0.2 + 1e-9, 0.2)
    with pytest.raises(UsageError, match="at most"):
        closed.paired_power(100, -0.3, 0.2)


def test_every_item_one_way_is_a_plan_without_warnings():
    """ψ = |δ| = 1 (every item discordant, all one way): Connor's sd is 0, the power 1 for any n, n = ⌈z²⌉ = 4; the
    exact sign test needs 6 (two-sided p = 2 · 2⁻ⁿ ≤ 0.05 from n = 6). No division warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert float(closed.paired_power(10, 1.0, 1.0)) == 1.0
        z2 = stats.norm.ppf(0.975) ** 2  # exactly at the critical value (a 0/0 in the formula): not beyond it
        assert closed.paired_power([z2, 3.0, 3.9], -1.0, 1.0).tolist() == [0.0, 0.0, 1.0]
        assert int(closed.paired_sample_size(1.0, 1.0)) == int(np.ceil(stats.norm.ppf(0.975) ** 2)) == 4
        assert closed.paired_sample_size_exact(1.0, 1.0) == 6


# -----------------------------------------------------------------------------
# Hand formulas and independent implementations for the parts of the statistics core that mutation testing
# showed no fast test would miss (issue 38; docs/testing.md). Every expected value is computed here, from the
# formula or by scipy/statsmodels, never by the package function under test.


Z975 = stats.norm.ppf(0.975)


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

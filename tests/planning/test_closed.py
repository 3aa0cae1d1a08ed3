"""Closed-form power and sample size against the classical formulas, exact enumeration and independent simulation."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

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
    exact = smb.power("paired", discordance=0.2, n=3888, method="exact")
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

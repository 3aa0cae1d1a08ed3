"""Equivalence (TOST) and non-inferiority plans: the closed forms against statsmodels and by simulation of the
planned evaluation, and the pilot simulation against the closed form.

Monte-Carlo error: a simulated power p from R data sets has standard error √(p(1 − p)/R): 0.0063 at p = 0.8 and
R = 4,000, 0.0089 at R = 2,000. A planned n must reach its target power within 3 of them (the plan is the smallest
n with the normal power ≥ target: its simulated power is at the target, not far above it).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import special
from statsmodels.stats.power import normal_power

import stats_mtbias as smb
from stats_mtbias.errors import UsageError
from stats_mtbias.planning import closed
from stats_mtbias.significance.equivalence import tost_from_interval

ALPHA = 0.05


def test_non_inferiority_power_is_statsmodels_one_sided_normal_power():
    """One-sided TOST power = statsmodels' one-sided normal power of the distance to the margin, to 1e-12."""
    for d, se, margin in [(0.0, 0.01, 0.02), (0.01, 0.02, 0.05), (-0.01, 0.005, 0.02)]:
        greater = closed.tost_power(d, se, margin, alternative="greater")
        less = closed.tost_power(d, se, margin, alternative="less")
        assert float(greater) == pytest.approx(normal_power((d + margin) / se, 1, ALPHA, alternative="larger"), abs=1e-12)
        assert float(less) == pytest.approx(normal_power((margin - d) / se, 1, ALPHA, alternative="larger"), abs=1e-12)


def test_two_sided_power_and_sample_size_by_hand():
    """At d = 0 both tests need √((1 + power)/2) each: n = ((z_{1−α} + z_{0.9}) σ / δ)², rounded up; the power at
    the answer reaches the target and one item less does not."""
    sigma, margin = 0.4, 0.03
    n = closed.tost_sample_size(0.0, sigma, margin, power=0.8)
    by_hand = ((special.ndtri(0.95) + special.ndtri(0.9)) * sigma / margin) ** 2
    assert n == int(np.ceil(by_hand))
    assert closed.tost_power(0.0, sigma / np.sqrt(n), margin) >= 0.8 > closed.tost_power(0.0, sigma / np.sqrt(n - 1), margin)
    with pytest.raises(UsageError, match="inside the margin"):
        closed.tost_sample_size(0.05, sigma, margin)


def simulate_paired(rng, reps: int, n: int, discordance: float, difference: float):
    """Paired 2×2 tables with P(a only) − P(b only) = difference and P(a only) + P(b only) = discordance."""
    p10, p01 = (discordance + difference) / 2, (discordance - difference) / 2
    counts = rng.multinomial(n, [0.3, p10, p01, 0.7 - discordance], size=reps)
    _, n10, n01, _ = counts.T
    diff = (n10 - n01) / n
    se = np.sqrt(np.maximum((n10 + n01) / n - diff**2, 0.0) / (n - 1))
    z = special.ndtri(0.975)
    return diff, diff - z * se, diff + z * se


@pytest.mark.parametrize(
    "difference, margin, alternative", [(0.0, 0.03, "two-sided"), (0.01, 0.04, "two-sided"), (-0.01, 0.02, "greater")]
)
def test_planned_paired_n_has_its_power_by_simulation(difference, margin, alternative):
    """smb.power("paired", margin=δ): 4,000 evaluations of the planned n (the rates analytic interval, its TOST)
    find equivalence with the target power 0.8 within 3 MC SE (0.019)."""
    plan = smb.power("paired", discordance=0.2, difference=difference, margin=margin, alternative=alternative)
    assert plan.table["margin"].iloc[0] == margin and plan.question == "sample_size"
    diff, low, high = simulate_paired(np.random.default_rng(1), 4000, plan.n, 0.2, difference)
    shown = tost_from_interval(diff, low, high, margin, alternative=alternative)["p_equivalent"] < ALPHA
    assert shown.mean() == pytest.approx(0.8, abs=3 * np.sqrt(0.8 * 0.2 / 4000))
    assert plan.power == pytest.approx(0.8, abs=0.01)
    again = smb.power("paired", discordance=0.2, difference=difference, margin=margin, alternative=alternative, n=plan.n)
    assert again.question == "power" and again.power == pytest.approx(plan.power, abs=1e-12)


def test_normal_and_rate_plans():
    """normal: the standard error scaled by √(n_pilot/n); rate: a share within ±δ of null, its binomial SE."""
    plan = smb.power("normal", se=0.02, n_pilot=100, margin=0.03)
    assert plan.n == closed.tost_sample_size(0.0, 0.02 * 10, 0.03)
    rate = smb.power("rate", null=0.5, rate=0.51, margin=0.05)
    assert rate.n == closed.tost_sample_size(0.01, np.sqrt(0.51 * 0.49), 0.05)
    k = np.random.default_rng(2).binomial(rate.n, 0.51, size=4000) / rate.n
    se = np.sqrt(k * (1 - k) / rate.n)
    z = special.ndtri(0.975)
    shown = tost_from_interval(k - 0.5, k - 0.5 - z * se, k - 0.5 + z * se, 0.05)["p_equivalent"] < ALPHA
    assert shown.mean() == pytest.approx(0.8, abs=3 * np.sqrt(0.16 / 4000))
    with pytest.raises(UsageError, match="half_width"):
        smb.power("rate", rate=0.3, half_width=0.02, margin=0.05)


@pytest.fixture(scope="module")
def pilot():
    rng = np.random.default_rng(3)
    n = 1500
    cell = rng.choice(4, size=n, p=[0.3, 0.1, 0.1, 0.5])  # both female, a only, b only, neither: ψ = 0.2, d = 0
    a, b = np.isin(cell, [0, 1]), np.isin(cell, [0, 2])
    frame = pd.DataFrame(
        {
            "item": np.tile(np.arange(n), 2),
            "system": ["a"] * n + ["b"] * n,
            "gender": np.where(np.r_[a, b], "female", "male"),
        }
    )
    return smb.rates(frame, ci="analytic"), float(np.mean(a != b))


def test_pilot_simulation_plans_as_the_closed_form(pilot):
    """From a rates pilot (ψ ≈ 0.2): the simulated TOST (Wald, 2,000 evaluations) at the closed form's n for the
    pilot's discordance has power 0.8 within 3 MC SE (0.027) and size ≤ α + 3 MC SE at the margin."""
    pilot, psi = pilot
    closed_n = smb.power("paired", discordance=psi, margin=0.03).n
    sim = smb.power(pilot=pilot, metric="female", n=closed_n, margin=0.03, test="wald", n_sim=2000, rng=4)
    assert sim.question == "power" and sim.table["margin"].iloc[0] == 0.03
    assert sim.power == pytest.approx(0.8, abs=3 * np.sqrt(0.16 / 2000) + 0.01)
    assert sim.table["size"].iloc[0] <= ALPHA + 3 * np.sqrt(ALPHA * (1 - ALPHA) / 2000)


@pytest.mark.slow
def test_pilot_simulated_sample_size_reaches_its_power(pilot):
    """The simulated sample size (bootstrap TOST, 1,000 evaluations × 400 resamples): a fresh batch of 2,000 Wald
    evaluations at that n has power ≥ 0.8 − 3 MC SE − 0.01 (the bootstrap and Wald tests differ by about that)."""
    pilot = pilot[0]
    plan = smb.power(pilot=pilot, metric="female", margin=0.03, test="bootstrap", n_sim=1000, n_boot=400, rng=5)
    check = smb.power(pilot=pilot, metric="female", n=plan.n, margin=0.03, test="wald", n_sim=2000, rng=6)
    assert check.power >= 0.8 - 3 * np.sqrt(0.16 / 2000) - 0.01

"""Argument checks and small helpers of planning.closed against their stated contracts (mutation kills)."""

import warnings

import numpy as np
import pytest
from scipy import stats

from stats_mtbias.errors import UsageError
from stats_mtbias.planning import closed


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

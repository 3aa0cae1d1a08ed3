"""Optimal-translator bias B: small shares, fractional outputs, missing values and the dominance weights, by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from stats_mtbias.estimators.optimal import b_potential, bias_b, dominance_weights, e_0, e_t


def test_e_t_fractional_outputs_below_one():
    """Rates summing to less than one output are averaged over their own total, 100·(r(1−f) + (1−r)f)."""
    # f = 0.3, a quarter "she" and a quarter "he": r = 1/2, E_t = 50 (70 + 30) / 100 * 100 / 2 = 50.
    assert float(e_t(0.3, 0.25, 0.25)) == pytest.approx(0.5 * 70 + 0.5 * 30, rel=1e-12)
    # Only a half "she": E_t = 100 (1 - f) = 70.
    assert float(e_t(0.3, 0.5, 0.0)) == pytest.approx(70.0, rel=1e-12)


def test_bias_b_for_shares_with_e0_below_one():
    """B is (E_t − E_0)/E_0 also where 0 < E_0 ≤ 1 (f below one percent)."""
    f = 0.004  # E_0 = 0.4
    assert float(bias_b(f, 0.8)) == pytest.approx((0.8 - 0.4) / 0.4, rel=1e-9)
    assert float(bias_b(1 - f, 1.2)) == pytest.approx((1.2 - 0.4) / 0.4, rel=1e-9)


def test_b_potential_undefined_at_pure_shares():
    """|1 − 2f| / min(f, 1 − f) is NaN where min(f, 1 − f) = 0 and 0.8/0.1 = 8 at f = 0.1."""
    got = b_potential([0.0, 1.0, 0.1])
    assert math.isnan(got[0]) and math.isnan(got[1])
    assert got[2] == pytest.approx(0.8 / 0.1, rel=1e-12)


def test_missing_values_given_as_none_are_nan():
    """None in shares, counts, E_t or employment is read as NaN instead of failing."""
    assert math.isnan(float(e_0([None])[0]))
    assert math.isnan(float(e_t(0.3, [None], [1])[0]))
    assert math.isnan(float(bias_b(0.3, [None])[0]))
    female, male = dominance_weights([0.8, 0.2], [None, None])
    assert math.isnan(female[0]) and female[1] == 0.0
    assert male[0] == 0.0 and math.isnan(male[1])


def test_dominance_weights_by_hand():
    """Women employed in f > .5, men employed in f < .5 occupations; nothing for the other side or f = .5."""
    female, male = dominance_weights([0.8, 0.2, 0.5], [10.0, 10.0, 10.0])
    assert np.allclose(female, [8.0, 0.0, 0.0], rtol=1e-12, atol=0)
    assert np.allclose(male, [0.0, 8.0, 0.0], rtol=1e-12, atol=0)

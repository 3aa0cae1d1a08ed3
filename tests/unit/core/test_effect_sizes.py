"""Effect sizes (Cohen's h, odds ratio, paired difference) checked against hand formulas."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import special

from stats_mtbias.significance.effect_sizes import cohens_h, odds_ratio, paired_difference_in_proportions


def test_cohens_h_in_double_precision_from_float32():
    """h = 2 asin(sqrt(p1)) − 2 asin(sqrt(p2)) evaluated in float64 whatever the input dtype."""
    p1, p2 = np.float32(0.3), np.float32(0.7)
    hand = 2 * math.asin(math.sqrt(float(p1))) - 2 * math.asin(math.sqrt(float(p2)))
    for a, b in [(p1, 0.7), (0.3, p2), (np.array([p1]), np.array([p2]))]:
        got = cohens_h(a, b)
        assert got.dtype == np.float64
        assert float(np.squeeze(got)) == pytest.approx(
            2 * math.asin(math.sqrt(float(np.squeeze(a)))) - 2 * math.asin(math.sqrt(float(np.squeeze(b)))), rel=1e-15
        )
    assert float(np.squeeze(cohens_h(np.array([p1]), np.array([p2])))) == pytest.approx(hand, rel=1e-15)


def test_odds_ratio_woolf_interval_from_float32_counts():
    """Woolf's interval exp(log OR ± z sqrt(Σ 1/cell)) by hand, in float64 from a float32 table."""
    a, b, c, d = 7.0, 13.0, 11.0, 3.0
    z = special.ndtri(0.975)
    log_or = math.log(a * d / (b * c))
    se = math.sqrt(1 / a + 1 / b + 1 / c + 1 / d)
    got = odds_ratio(np.array([[a, b], [c, d]], dtype=np.float32))
    assert float(got.estimate) == pytest.approx(a * d / (b * c), rel=1e-14)
    assert float(got.low) == pytest.approx(math.exp(log_or - z * se), rel=1e-14)
    assert float(got.high) == pytest.approx(math.exp(log_or + z * se), rel=1e-14)


@pytest.mark.parametrize("table", [(0, 0, 0, 0), ([3, 0], [1, 0], [2, 0], [4, 0])], ids=["scalar", "one-of-two"])
def test_paired_difference_refuses_an_empty_table(table):
    """An empty paired table (no item) is refused with a ValueError."""
    with pytest.raises(ValueError):
        paired_difference_in_proportions(*table)

"""Optimal-translator bias B: small shares, fractional outputs, missing values and the dominance weights, by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from stats_mtbias.estimators.optimal import b_potential, b_status, bias_b, dominance_weights, e_0, e_t, survey_female_share


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


# -----------------------------------------------------------------------------
# The survey reference share of the optimal estimator, checked against its weighting formula by hand.


# Answer weights of the 1–6 scale (1 very masculine … 6 very feminine), from the docstring.
_WEIGHTS = (2.5, 1.5, 0.5, 0.5, 1.5, 2.5)


def _female_share_hand(counts):
    """1 − (weighted answers 1–3)/(weighted answers 1–6), NaN without any answer."""
    weighted = [c * w for c, w in zip(counts, _WEIGHTS, strict=True)]
    total = sum(weighted)
    return float("nan") if total == 0 else 1 - sum(weighted[:3]) / total


def test_survey_female_share_per_row_of_a_table():
    """Each row of a 2-D table gets its own share (the sums run over the last axis only)."""
    table = [[170, 12, 7, 3, 4, 0], [0, 1, 2, 3, 4, 5], [9, 0, 0, 0, 0, 1]]
    got = survey_female_share(table)
    assert got.shape == (3,)
    assert np.allclose(got, [_female_share_hand(row) for row in table], rtol=1e-14, atol=0)
    # The docstring example: 1 − share ≈ 0.98 for a strongly masculine answer profile.
    assert round(1 - float(got[0]), 2) == 0.98


@pytest.mark.parametrize(
    ("counts", "expected"),
    [([0, 0, 1, 0, 0, 0], 0.0), ([0, 0, 0, 1, 0, 0], 1.0), ([0, 0, 1, 1, 0, 0], 0.5), ([0, 0, 3, 1, 0, 0], 0.25)],
)
def test_survey_female_share_with_only_middle_answers(counts, expected):
    """Answers 3 and 4 alone (weighted total below or at 1) still give weighted-answers-4–6 over the weighted total."""
    assert float(survey_female_share(counts)) == pytest.approx(expected, abs=1e-15)
    assert float(survey_female_share(counts)) == pytest.approx(_female_share_hand(counts), abs=1e-15)


def test_survey_female_share_is_nan_without_answers():
    """A row with no answer gives NaN (not 0 or 1), also next to answered rows."""
    assert np.isnan(survey_female_share([0, 0, 0, 0, 0, 0]))
    got = survey_female_share([[0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 2]])
    assert np.isnan(got[0]) and got[1] == 1.0


@pytest.mark.parametrize(
    "counts",
    [[1, 2, 3, 4, 5], [[1], [2]], [1, 2, 3, 4, 5, 6, 7], [1, -1, 0, 0, 0, 0], [[1, 2, 3, 4, 5, 6], [0, 0, 0, 0, 0, -2]]],
    ids=["five", "last-axis-1", "seven", "negative", "negative-in-row"],
)
def test_survey_female_share_refuses_other_than_six_non_negative_counts(counts):
    """A last axis other than six answers (even one that would broadcast) or a negative count raises ValueError."""
    with pytest.raises(ValueError):
        survey_female_share(counts)


def test_b_status_names_why_b_is_undefined_with_broadcasting():
    """f = 0 or 1 → E_0 = 0; NaN f → no reference share (wins); NaN E_t → no usable output; f and E_t broadcast."""
    undefined = "undefined: E_0 = 0 (f is 0 or 1)"
    got = b_status([0.0, 0.3, 1.0, np.nan, 0.5], 12.0)
    assert got.tolist() == [undefined, "ok", undefined, "no reference share", "ok"]
    got = b_status(0.3, [1.0, np.nan])
    assert got.tolist() == ["ok", "no usable output"]
    got = b_status([[1.0], [np.nan]], [np.nan, 3.0])
    assert got.tolist() == [[undefined, undefined], ["no reference share", "no reference share"]]
    assert b_status(1, 2).tolist() == undefined


def test_b_status_takes_none_as_a_missing_value():
    """None (a missing value in an object column) is a missing reference share or a missing output error, as NaN is."""
    assert b_status([0.2, None], [3.0, 4.0]).tolist() == ["ok", "no reference share"]
    assert b_status([0.2, 0.4], [None, 4.0]).tolist() == ["no usable output", "ok"]

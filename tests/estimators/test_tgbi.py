"""TGBI shares, P_S and the index (Cho et al. 2019) checked against hand formulas and their limits."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from stats_mtbias.estimators.tgbi import p_s, p_s_from_shares, tgbi_counts, tgbi_index, tgbi_shares


def test_shares_are_nan_for_a_set_without_judgement():
    """A set with no female, male or neutral output has NaN shares (a float array, not objects)."""
    shares = tgbi_shares(np.array([[2, 1, 1, 0, 0], [0, 0, 0, 0, 3]]))
    assert shares.dtype == np.float64
    np.testing.assert_allclose(shares[0], [0.5, 0.25, 0.25])
    assert np.isnan(shares[1]).all()


def test_shares_do_not_depend_on_the_scale_of_the_counts():
    """Shares are counts over their total: weights summing to less than 1 give the same shares as the counts."""
    counts = np.array([2.0, 1.0, 1.0, 0.0, 0.0])
    np.testing.assert_allclose(tgbi_shares(counts * 0.1), [0.5, 0.25, 0.25], rtol=1e-12)
    np.testing.assert_allclose(tgbi_shares(counts * 0.1), tgbi_shares(counts), rtol=1e-12)


def test_p_s_stays_in_zero_one_for_shares_off_by_round_off():
    """P_S = sqrt(p_w p_m + p_n) is 0 and 1 at its limits even when round-off puts p_w p_m + p_n just outside [0, 1]."""
    shares = np.array([[0.0, 1.0, -1e-17], [0.0, 0.0, 1.0 + 4.5e-16]])
    np.testing.assert_array_equal(p_s_from_shares(shares), [0.0, 1.0])


def test_p_s_and_index_are_computed_in_double_precision():
    """float32 shares give P_S and the TGBI of their float64 values (hand formula with math.sqrt)."""
    shares32 = np.array([[0.3, 0.3, 0.4], [0.1, 0.7, 0.2], [0.6, 0.1, 0.3]], dtype=np.float32)
    hand = [math.sqrt(float(w) * float(m) + float(n)) for w, m, n in shares32]
    got = p_s_from_shares(shares32)
    assert got.dtype == np.float64
    np.testing.assert_allclose(got, hand, rtol=1e-15)
    values32 = np.array(hand, dtype=np.float32)
    index = tgbi_index(values32)
    assert index.dtype == np.float64
    assert index == pytest.approx(math.fsum(float(v) for v in values32) / 3, rel=1e-15)


def test_tgbi_counts_by_default_counts_both_as_neutral_and_drops_unknown():
    """Default rule: (female, male, neutral + both), unknown left out; "exclude" drops both (GENDERS order f, m, n, b, u)."""
    counts = np.array([[1, 2, 3, 4, 5], [0, 7, 0, 2, 9]])
    assert np.array_equal(tgbi_counts(counts), [[1, 2, 7], [0, 7, 2]])
    assert np.array_equal(tgbi_counts(counts, both="exclude"), [[1, 2, 3], [0, 7, 0]])


def test_tgbi_counts_are_float64_and_do_not_wrap_small_integer_dtypes():
    """Counts are summed in float64: 200 neutral + 100 both stored as uint8 give 300, and integer input gives floats."""
    got = tgbi_counts(np.array([1, 2, 200, 100, 0], dtype=np.uint8))
    assert got.dtype == np.float64
    assert np.array_equal(got, [1.0, 2.0, 300.0])
    assert tgbi_counts([3, 4, 5, 6, 7]).dtype == np.float64


def g(f=0, m=0, n=0, b=0, u=0):
    return np.array([f, m, n, b, u], dtype=float)


@pytest.mark.parametrize(
    ("counts", "expected"),
    [
        (g(n=10), 1.0),  # all neutral
        (g(m=10), 0.0),  # all male
        (g(f=7), 0.0),  # all female
        (g(f=5, m=5), 0.5),  # p_w = p_m = 1/2
        (g(f=1, m=3), np.sqrt(3 / 16)),
        # p = (0.2, 0.6, 0.2): sqrt(0.12 + 0.2) = sqrt(0.32)
        (g(f=2, m=6, n=2), np.sqrt(0.32)),
        # unknown leaves the denominator; both counts as neutral
        (g(f=2, m=6, b=2, u=90), np.sqrt(0.32)),
    ],
)
def test_p_s_hand_computed(counts, expected):
    assert p_s(counts) == pytest.approx(expected, abs=1e-12)


def test_both_excluded_changes_denominator():
    # both excluded: p = (0.25, 0.75, 0) -> sqrt(3/16)
    assert p_s(g(f=2, m=6, b=2), both="exclude") == pytest.approx(np.sqrt(3 / 16))


def test_empty_set_is_nan_not_zero():
    assert np.isnan(p_s(g(u=5)))


def test_index_is_unweighted_mean_of_sets():
    sets = np.array([g(n=1), g(m=1000), g(f=5, m=5)])  # 1, 0, 0.5: sizes ignored
    assert tgbi_index(p_s(sets)) == pytest.approx(0.5)


def test_vectorised_over_leading_axes():
    counts = np.random.default_rng(1).integers(0, 50, size=(7, 3, 4, 5))
    values = p_s(counts)
    assert values.shape == (7, 3, 4)
    assert values[2, 1, 3] == pytest.approx(p_s(counts[2, 1, 3]))


@given(st.lists(st.integers(0, 10_000), min_size=5, max_size=5).filter(lambda c: sum(c[:4]) > 0))
def test_p_s_bounds_and_maximum_for_fixed_neutral(counts):
    counts = np.array(counts, dtype=float)
    value = float(p_s(counts))
    assert 0.0 <= value <= 1.0
    # For fixed p_n, P_S is largest when female and male are equal.
    shares = tgbi_shares(counts)
    half = (shares[0] + shares[1]) / 2
    assert value <= np.sqrt(half * half + shares[2]) + 1e-12


# -----------------------------------------------------------------------------
# Hand formulas and independent implementations for the parts of the statistics core that mutation testing
# showed no fast test would miss (issue 38; docs/testing.md). Every expected value is computed here, from the
# formula or by scipy/statsmodels, never by the package function under test.


def test_tgbi_index_is_the_mean_over_the_set_axis():
    values = np.array([[0.1, 0.2, 0.6], [0.3, 0.3, 0.3]])
    np.testing.assert_allclose(tgbi_index(values), [0.3, 0.3])
    np.testing.assert_allclose(tgbi_index(values, axis=0), [0.2, 0.25, 0.45])
    assert tgbi_index(np.array([1, 2], dtype=np.int64)) == 1.5

"""Helpers of the studies' shared wiring, checked against their definitions by enumeration."""

from __future__ import annotations

import pytest

from stats_mtbias.studies._common import _nice_ceil

# Every 1, 2, 5 × 10^k from 1 to 10^9, in increasing order.
_NICE = sorted(m * 10**k for k in range(10) for m in (1, 2, 5))


@pytest.mark.parametrize(
    "value",
    [0.0, 0.3, 1, 1.5, 2, 3, 5, 5.5, 9.99, 10, 11, 100, 101, 199, 200, 201, 499, 500, 501, 600, 999, 1000, 1001, 2e5, 6e6, 8e8],
)
def test_nice_ceil_is_the_smallest_1_2_5_number_at_or_above_the_value(value):
    """_nice_ceil(v) is the smallest of 1, 2, 5 × 10^k that is ≥ v (1 for v ≤ 1), returned as an int."""
    got = _nice_ceil(value)
    assert isinstance(got, int)
    assert got == next(x for x in _NICE if x >= value)

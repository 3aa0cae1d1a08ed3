"""The exact sign test's p-values against scipy's binomtest, for every count dtype, and its refusals (mutation kills)."""

import numpy as np
import pytest
from scipy import stats

from stats_mtbias.significance.paired import sign_test_pvalue


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.uint64, np.int32, np.int64])
def test_sign_test_of_unsigned_and_signed_integer_counts_matches_binomtest(dtype):
    """Counts of any integer dtype (unsigned too, where n_positive − 1 would wrap) give binomtest's p-values."""
    pos = np.array([0, 0, 1, 3, 5, 9], dtype=dtype)
    neg = np.array([4, 0, 0, 3, 1, 2], dtype=dtype)
    for alt in ("greater", "less", "two-sided"):
        p = sign_test_pvalue(pos, neg, alternative=alt)
        expected = [stats.binomtest(int(k), int(k + m), 0.5, alternative=alt).pvalue if k + m else 1.0 for k, m in zip(pos, neg)]
        assert np.allclose(p, expected, rtol=1e-12, atol=0)


def test_sign_test_refuses_negative_and_missing_counts():
    """A negative count in either argument raises ValueError, and so does a NaN count (not a count)."""
    for pos, neg in [(-1, 3), (3, -1), (-1, -1), ([2, -1], [1, 1]), ([2, 1], [1, -1])]:
        with pytest.raises(ValueError):
            sign_test_pvalue(pos, neg)
    for pos, neg in [(np.nan, 3), (3, np.nan)]:
        with pytest.raises(ValueError):
            sign_test_pvalue(pos, neg)


def test_sign_test_refuses_fractional_counts_and_takes_whole_floats():
    """A fractional count (a mean over sampled outputs) is refused, not truncated; whole floats are counts."""
    for pos, neg in [(2.5, 3), (3, 0.4), ([2, 1.5], [1, 1])]:
        with pytest.raises(ValueError, match="whole counts"):
            sign_test_pvalue(pos, neg)
    assert float(sign_test_pvalue(7.0, 1.0)) == pytest.approx(stats.binomtest(7, 8, 0.5, alternative="greater").pvalue)

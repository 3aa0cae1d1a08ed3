"""Bootstrap-t limits by hand and the float32 guard of :mod:`stats_mtbias.uncertainty.bootstrap`."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from numpy.testing import assert_allclose

from stats_mtbias.uncertainty.bootstrap import BootstrapResult, resample_weights


def test_studentized_limits_by_hand_with_unit_standard_error():
    """t* = 0, 1, …, 100 and se = 1: 90% limits are θ − 95 and θ − 5 (integer quantile positions)."""
    t = np.arange(101.0)
    replicates, replicate_se = 10.0 + 2.0 * t, np.full(101, 2.0)
    res = BootstrapResult(np.array(10.0), replicates, None, 0.9, "studentized", np.array(1.0), replicate_se)
    ci = res.confidence_interval()
    assert_allclose([ci.low, ci.high], [10.0 - 95.0, 10.0 - 5.0], rtol=1e-12)


def test_studentized_without_spread_is_the_estimate_silently():
    """se = 0 and every replicate equal with se* = 0 (t* = 0/0 for all): the interval is the point θ, no warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = BootstrapResult(np.array(0.3), np.full(100, 0.3), None, 0.95, "studentized", np.array(0.0), np.zeros(100))
        ci = res.confidence_interval()
    assert ci.low == 0.3 and ci.high == 0.3


def test_studentized_drops_replicates_without_a_finite_t():
    """Replicates with se* = 0 (t* = ±inf or 0/0) are left out: the limits are those of the finite t* alone."""
    t = np.arange(101.0)
    replicates = np.concatenate([1.0 + t, [1.0, 5.0, -3.0]])
    replicate_se = np.concatenate([np.ones(101), np.zeros(3)])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = BootstrapResult(np.array(1.0), replicates, None, 0.9, "studentized", np.array(0.5), replicate_se)
        ci = res.confidence_interval()
    assert_allclose([ci.low, ci.high], [1.0 - 95.0 * 0.5, 1.0 - 5.0 * 0.5], rtol=1e-12)


def test_float32_weights_refused_above_two_to_the_24_clusters():
    """A stratum of 2**24 + 1 clusters cannot have exact float32 counts: ValueError before anything is drawn."""
    with pytest.raises(ValueError, match="float32"):
        resample_weights(1, 2**24 + 1, rng=0, dtype=np.float32)

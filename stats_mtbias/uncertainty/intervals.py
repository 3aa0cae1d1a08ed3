"""The interval result types every statistic returns: bounds alone, or an estimate with its bounds and method."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class ConfidenceInterval:
    """Lower and upper bounds (arrays broadcasting like the estimate)."""

    low: np.ndarray
    high: np.ndarray


@dataclass(frozen=True)
class EffectSize:
    """An effect size and its interval (arrays broadcast like the inputs)."""

    estimate: np.ndarray
    low: np.ndarray
    high: np.ndarray
    method: str

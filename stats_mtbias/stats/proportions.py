"""Design effects of a share estimated from clusters of outputs (beside `stats_mtbias.uncertainty.analytic.design_effect`)."""

from __future__ import annotations

import numpy as np

from stats_mtbias.uncertainty.analytic import FEW_EVENTS, design_effect
from stats_mtbias.uncertainty.linearization import ratio_influence, robust_variance


def sample_design_effect(successes, trials) -> float:
    """Design effect of ``p = Σ x / Σ m`` over items whose counts are means over samples, without a floor at 1.

    The cluster-robust (linearisation) variance over binomial ``p (1 − p) / Σ m``
    as :func:`~stats_mtbias.uncertainty.analytic.design_effect`, but an item's
    averaged samples may be worth more than one output each, so no floor at 1:
    a floor on the outputs would make duplicated samples count as information.
    Where ``p`` is 0 or 1, or the effective minority count is at most
    ``FEW_EVENTS``, the variance rests on a handful of items: there the worst
    case of :func:`~stats_mtbias.uncertainty.analytic.design_effect` (an item's
    samples as one output).

    Examples
    --------
    Twenty items of one output, each sampled often: half split evenly, half not.

    >>> x = np.r_[np.ones(5), np.zeros(5), np.full(10, 0.5)]
    >>> round(sample_design_effect(x, np.ones(20)), 3)
    0.526
    """
    x, m = np.asarray(successes, dtype=float), np.asarray(trials, dtype=float)
    total = m.sum()
    if x.size < 2 or total == 0:
        return design_effect(x, m)
    p = x.sum() / total
    if p <= 0 or p >= 1:
        return design_effect(x, m)
    deff = float(robust_variance(ratio_influence(x, m, p)) / (p * (1 - p) / total))
    if not deff > 0 or min(p, 1 - p) * total / deff <= FEW_EVENTS:
        return design_effect(x, m)
    return deff

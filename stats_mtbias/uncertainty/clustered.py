"""Several outputs per item (an LLM sampled k times): items stay the unit, samples are clustered in them.

Every function here takes *item means* — an item's indicator averaged over its
samples, a number in [0, 1] — so that an item weighs the same whatever its number
of samples, and duplicating every sample changes nothing: the item means, and with
them every interval and p-value, are the same. With one sample per item the item
means are the 0/1 indicators and each function gives exactly the binomial (or the
paired 2×2) counts the single-output methods use.

- :func:`effective_counts`: the effective successes and trials of a proportion of
  item means (Kish's effective sample size, ``p (1 − p) / V`` with ``V`` the
  cluster-robust variance of :mod:`~stats_mtbias.uncertainty.linearization`, as
  Korn & Graubard 1998 do for Clopper–Pearson), to put into Wilson's interval.
  Where ``p`` is 0 or 1, or the effective minority count is at most
  :data:`~stats_mtbias.uncertainty.analytic.FEW_EVENTS`, the variance rests on a
  handful of items and is mostly too small: there the worst case, the samples of
  an item counted as one (the items), as :func:`~stats_mtbias.uncertainty.analytic.design_effect` does.
- :func:`clustered_paired_table`: the paired 2×2 table of two systems on the same
  items, each item's cell the product of its two means (the samples of the two
  systems are not paired with each other), divided by the design effect that makes
  McNemar's statistic ``(b − c)² / (b + c)`` the clustered one of Durkalski et al.
  (2003), ``(Σ dᵢ)² / Σ dᵢ²`` with ``dᵢ`` the item's difference of means (Rao &
  Scott's 1992 division of counts by a design effect). Tango's score interval on
  that table inverts the same test, so the interval excludes 0 exactly when
  p < 1 − level, as for one sample.
"""

from __future__ import annotations

import numpy as np
from scipy import stats

from stats_mtbias import _defaults
from stats_mtbias.uncertainty.analytic import FEW_EVENTS
from stats_mtbias.uncertainty.linearization import ratio_influence

__all__ = ["clustered_paired_table", "effective_counts", "has_samples"]


def has_samples(means) -> bool:
    """Whether any item mean lies strictly between 0 and 1 (an item whose samples disagree)."""
    m = np.asarray(means, dtype=float)
    return bool(np.any((m > 0) & (m < 1)))


def effective_counts(numerator, denominator, *, level: float = _defaults.LEVEL) -> tuple[np.ndarray, np.ndarray]:
    """Effective successes and trials of ``p = Σ num / Σ den`` over items (axis 0).

    Parameters
    ----------
    numerator : array (items, ...)
        Per item the mean of the success indicator over its samples (0 where the
        item is not in the proportion's denominator).
    denominator : array (items, ...)
        Per item 1 where it is in the denominator, else 0 (or the mean of an
        indicator over its samples).

    Returns
    -------
    (successes, trials)
        ``p · n_eff`` and ``n_eff = p (1 − p) / V``, ``V = Σ uᵢ²`` the
        linearisation variance of the ratio (:func:`~stats_mtbias.uncertainty.linearization.ratio_influence`,
        without the ``k/(k − 1)`` factor, so that with 0/1 item means it is the
        binomial ``p (1 − p) / n``). The trials are at least ``Σ den`` (an item's
        samples are never worth less than one output) and exactly ``Σ den`` where
        every item mean is 0 or 1, where ``p`` is 0 or 1, or where the effective
        minority count is at most ``FEW_EVENTS`` (the worst case). Otherwise, as
        Korn & Graubard (1998), ``n_eff`` is multiplied by ``(z / t)²``, ``t`` the
        quantile of Student's t with items − 1 degrees of freedom at `level`
        (the variance is estimated from the items, not known).

    Examples
    --------
    Four items of two samples, each agreeing with itself: the items, as counts.

    >>> x, n = effective_counts(np.array([1.0, 1, 0, 0]), np.ones(4))
    >>> float(x), float(n)
    (2.0, 4.0)

    Forty items each sampled twice, half of them split (0.5): worth more than 40 —
    80 outputs, times Korn & Graubard's ``(z / t₃₉)² = 0.939``.

    >>> y = np.r_[np.ones(10), np.zeros(10), np.full(20, 0.5)]
    >>> x, n = effective_counts(y, np.ones(40))
    >>> round(float(n), 1)
    75.1
    """
    num, den = np.asarray(numerator, dtype=float), np.asarray(denominator, dtype=float)
    successes, trials = num.sum(axis=0), den.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(trials > 0, successes / np.where(trials > 0, trials, 1.0), np.nan)
        variance = np.sum(ratio_influence(num, den, p) ** 2, axis=0)
        inside = (trials > 0) & (p > 0) & (p < 1) & (variance > 0)
        n_eff = np.where(inside, p * (1 - p) / np.where(inside, variance, 1.0), trials)
        items = np.sum(den > 0, axis=0)
        z = stats.norm.ppf(0.5 + level / 2)
        t = stats.t.ppf(0.5 + level / 2, np.maximum(items - 1, 1))
        n_eff = np.maximum(n_eff * (z / t) ** 2, trials)
        few = np.minimum(p, 1 - p) * n_eff <= FEW_EVENTS
        binary = np.all((num == 0) | (num == 1), axis=0) & np.all((den == 0) | (den == 1), axis=0)
        n_eff = np.where(few | binary | ~inside, trials, n_eff)
        x_eff = np.where(n_eff == trials, successes, p * n_eff)
    return x_eff, n_eff


def clustered_paired_table(first, second, within=None) -> tuple[np.ndarray, ...]:
    """The paired table ``(n11, n10, n01, n00)`` of two systems' item means, clustered (Durkalski et al. 2003).

    Parameters
    ----------
    first, second : array (items, ...)
        Per item the mean over its samples of each system's indicator (correct).
    within : array (items, ...) of bool, optional
        The items the proportion is computed on (default all).

    Returns
    -------
    tuple of arrays
        The expected counts ``Σ xᵢ yᵢ, Σ xᵢ (1 − yᵢ), Σ (1 − xᵢ) yᵢ, Σ (1 − xᵢ)(1 − yᵢ)``
        divided by the design effect ``Σ dᵢ² / Σ (xᵢ (1 − yᵢ) + (1 − xᵢ) yᵢ)``
        (``dᵢ = xᵢ − yᵢ``), between ``1/k`` and 1 under item random effects, so
        that McNemar's ``(b − c)² / (b + c)`` on it is ``(Σ dᵢ)² / Σ dᵢ²``. With 0/1
        means the design effect is exactly 1 (the ordinary table). It is also 1
        where the discordance is nil or the effective discordant count is at most
        ``FEW_EVENTS`` (the items as they are: the worst case). Both tables are the
        same after duplicating every sample.

    Examples
    --------
    >>> x, y = np.array([1.0, 1, 0, 1]), np.array([1.0, 0, 0, 0])
    >>> [float(v) for v in clustered_paired_table(x, y)]
    [1.0, 2.0, 0.0, 1.0]
    """
    x, y = np.asarray(first, dtype=float), np.asarray(second, dtype=float)
    w = np.ones_like(x) if within is None else np.asarray(within, dtype=float)
    n11, n10 = np.sum(w * x * y, axis=0), np.sum(w * x * (1 - y), axis=0)
    n01, n00 = np.sum(w * (1 - x) * y, axis=0), np.sum(w * (1 - x) * (1 - y), axis=0)
    squares = np.sum(w * (x - y) ** 2, axis=0)
    discordant = n10 + n01
    with np.errstate(invalid="ignore", divide="ignore"):
        deff = np.where((discordant > 0) & (squares > 0), squares / np.where(discordant > 0, discordant, 1.0), 1.0)
        deff = np.clip(deff, 0.0, 1.0)
        deff = np.where(discordant / np.where(deff > 0, deff, 1.0) <= FEW_EVENTS, 1.0, deff)
    deff = np.where(deff > 0, deff, 1.0)
    return n11 / deff, n10 / deff, n01 / deff, n00 / deff

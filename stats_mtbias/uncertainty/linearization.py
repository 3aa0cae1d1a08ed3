"""The cluster-robust (linearisation) variance, written once.

A ratio estimate ``θ = Σ y_i / Σ m_i`` over clusters ``i`` (items, occupations,
prompts with several outputs) has the per-cluster linearised values
``u_i = (y_i − θ m_i) / Σ m``; its with-replacement survey variance is
``k/(k − 1) Σ (u_i − ū)²`` over the ``k`` clusters (within each stratum, then
summed). Every cluster-robust standard error and design effect of the package is
built from :func:`ratio_influence` and :func:`robust_variance` (rates, Prates'
design effects, TGBI's score intervals), or, on bootstrap-weighted sums, from
:func:`ratio_se_from_sums` (the same linearisation, optimal's bootstrap-t).

Examples
--------
Four clusters of two outputs, 5 successes of 8:

>>> y, m = np.array([2.0, 1, 1, 1]), np.array([2.0, 2, 2, 2])
>>> u = ratio_influence(y, m, 5 / 8)
>>> float(robust_variance(u))  # 4/3 × Σ(y − θm)² / 64 = 4/3 × 0.75 / 64
0.015625
"""

from __future__ import annotations

import numpy as np


def weighted_sum(x: np.ndarray, frequency: np.ndarray | None = None) -> np.ndarray:
    """Sum over clusters (axis 0), row ``i`` counted ``frequency[i]`` times (None: once)."""
    x = np.asarray(x, dtype=float)
    return x.sum(axis=0) if frequency is None else np.tensordot(np.asarray(frequency, dtype=float), x, axes=1)


def ratio_influence(y: np.ndarray, m: np.ndarray, theta, frequency: np.ndarray | None = None) -> np.ndarray:
    """Per-cluster linearised values ``(y_i − θ m_i) / Σ m`` of the ratio ``θ = Σ y / Σ m`` (axis 0: clusters).

    Row ``i`` stands for ``frequency[i]`` identical clusters (their sums count it that often).
    """
    y, m = np.asarray(y, dtype=float), np.asarray(m, dtype=float)
    total = weighted_sum(m, frequency)
    with np.errstate(invalid="ignore", divide="ignore"):
        return (y - np.asarray(theta, dtype=float) * m) / np.where(total > 0, total, np.nan)


def robust_variance(
    u: np.ndarray, strata: np.ndarray | None = None, frequency: np.ndarray | None = None, n_clusters: np.ndarray | None = None
) -> np.ndarray:
    """Cluster-robust variance ``Σ_h k_h/(k_h − 1) Σ_i (u_i − ū_h)²`` from linearised values `u` (axis 0: clusters).

    Parameters
    ----------
    u : array (clusters, ...)
        Linearised values (:func:`ratio_influence`, or any estimator's influence).
    strata : array (clusters,), optional
        Stratum of each cluster (the clusters are resampled within strata).
    frequency : array (clusters,), optional
        Row ``i`` stands for ``frequency[i]`` identical clusters (``k_h`` counts them all).
    n_clusters : array, optional
        Without strata: the number of clusters ``k`` per cell (e.g. only those
        holding an output), broadcast against ``u.shape[1:]``; else all rows.
        With ``k <= 1`` the variance is NaN.
    """
    u = np.asarray(u, dtype=float)
    if strata is None:
        k = (u.shape[0] if frequency is None else float(np.sum(frequency))) if n_clusters is None else n_clusters
        k = np.asarray(k, dtype=float)
        centred = u - weighted_sum(u, frequency) / np.where(k > 0, k, 1.0) if n_clusters is None else u
        with np.errstate(invalid="ignore", divide="ignore"):
            factor = np.where(k > 1, k / (k - 1.0), np.nan)
        return factor * weighted_sum(centred**2, frequency)
    strata = np.asarray(strata)
    var = np.zeros(u.shape[1:])
    for h in np.unique(strata):
        inside = strata == h
        uh, fh = u[inside], None if frequency is None else np.asarray(frequency)[inside]
        k = uh.shape[0] if fh is None else float(fh.sum())
        if k > 1:
            var = var + k / (k - 1) * weighted_sum((uh - weighted_sum(uh, fh) / k) ** 2, fh)
    return var


def ratio_se_from_sums(s0, s1, s2, s3, s4, m) -> tuple[np.ndarray, np.ndarray]:
    """Ratio ``R = s0 / s1`` and its linearisation standard error from (bootstrap-)weighted sums.

    ``s0..s4`` are the sums of num, den, num², num·den, den² (per replicate and
    group), so ``Σ (num − R den)² = s2 − 2 R s3 + R² s4``; ``m`` is the number of
    clusters in the group (for the m/(m − 1) factor). The same variance as
    :func:`robust_variance` of :func:`ratio_influence`, on sums a weight matrix gives
    for every replicate at once.
    """
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = np.where(s1 > 0, s0 / np.where(s1 > 0, s1, 1.0), np.nan)
        resid = np.maximum(s2 - 2 * ratio * s3 + ratio**2 * s4, 0.0)
        se = np.sqrt(resid * m / np.maximum(m - 1, 1)) / np.where(s1 > 0, s1, np.nan)
    return ratio, se

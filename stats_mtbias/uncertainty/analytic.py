"""Analytic intervals: simple proportions and the delta method for TGBI.

Proportions: Wilson, Jeffreys and Clopper–Pearson intervals, all of which stay
inside [0, 1] and do not collapse at 0% or 100%.

P_S = sqrt(g), g = p_w p_m + p_n. The delta-method interval:

1. shrinks the shares by a pseudo-count of 1/2 per class (p~ = (x + 1/2)/(n + 3/2)),
   so the variance does not vanish when a set is all one gender;
2. takes the multinomial variance of g at p~ and multiplies it by a design
   effect: the ratio of the cluster-robust (linearisation) variance to the
   multinomial one at the raw shares. The seven TGBI sets hold 2 or 4 sentences
   per lexicon item, and those are correlated; for one sentence per cluster the
   design effect is ~1;
3. builds the interval on the logit scale of g and maps it back through
   sqrt(expit(.)), so it lies inside [0, 1].

The index and paired differences use the cluster linearisation directly
(influence of each cluster on each set's g), which carries the overlap of the
sets into the variance.
"""

from __future__ import annotations

import numpy as np
from scipy import special, stats

from stats_mtbias._validation import check_choice, check_level
from stats_mtbias.estimators.tgbi import tgbi_counts
from stats_mtbias.uncertainty.bootstrap import ConfidenceInterval

PSEUDO = 0.5


def _z(level: float) -> float:
    return float(special.ndtri(0.5 + check_level(level) / 2.0))


def wilson_interval(successes, n, level: float = 0.95) -> ConfidenceInterval:
    """Wilson score interval for a binomial proportion (vectorised)."""
    k, n = np.asarray(successes, float), np.asarray(n, float)
    z = _z(level)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    # Exact ends at k = 0 and k = n (the formula gives them up to round-off).
    low = np.where(k == 0, 0.0, np.clip(centre - half, 0, 1))
    high = np.where(k == n, 1.0, np.clip(centre + half, 0, 1))
    return ConfidenceInterval(low, high)


def jeffreys_interval(successes, n, level: float = 0.95) -> ConfidenceInterval:
    """Jeffreys interval (equal-tailed Beta(k+1/2, n-k+1/2)), ends fixed at 0 and 1."""
    k, n = np.asarray(successes, float), np.asarray(n, float)
    alpha = 1 - check_level(level)
    low = np.where(k > 0, stats.beta.ppf(alpha / 2, k + 0.5, n - k + 0.5), 0.0)
    high = np.where(k < n, stats.beta.ppf(1 - alpha / 2, k + 0.5, n - k + 0.5), 1.0)
    return ConfidenceInterval(low, high)


def clopper_pearson_interval(successes, n, level: float = 0.95) -> ConfidenceInterval:
    """Exact (Clopper–Pearson) interval, conservative by construction."""
    k, n = np.asarray(successes, float), np.asarray(n, float)
    alpha = 1 - check_level(level)
    low = np.where(k > 0, stats.beta.ppf(alpha / 2, k, n - k + 1), 0.0)
    high = np.where(k < n, stats.beta.ppf(1 - alpha / 2, k + 1, n - k), 1.0)
    return ConfidenceInterval(low, high)


PROPORTION_METHODS = ("wilson", "jeffreys", "clopper-pearson")


def design_effect(successes, trials) -> float:
    """Design effect of a proportion estimated from clusters of outputs.

    The ratio of the cluster-robust (linearisation) variance of
    ``p = sum(x) / sum(m)`` to the binomial variance ``p (1 - p) / sum(m)``,
    floored at 1. Exactly 1 when every cluster holds one output (then the
    binomial variance is the right one), and when ``p`` is 0 or 1.

    Parameters
    ----------
    successes, trials : array-like, shape (n_clusters,)
        Per-cluster successes ``x_i`` and outputs ``m_i``.
    """
    x = np.asarray(successes, dtype=float)
    m = np.asarray(trials, dtype=float)
    if x.shape != m.shape or x.ndim != 1:
        raise ValueError("`successes` and `trials` must be 1-d arrays of the same length.")
    total, k = m.sum(), m.size
    if k < 2 or total == 0 or np.all(m <= 1):
        return 1.0
    p = x.sum() / total
    if p in (0.0, 1.0):
        return 1.0
    robust = k / (k - 1) * np.sum((x - p * m) ** 2) / total**2
    return float(max(1.0, robust / (p * (1 - p) / total)))


def proportion_interval(successes, n, *, level: float = 0.95, method: str = "wilson", deff=1.0) -> ConfidenceInterval:
    """Interval for a proportion by `method`, on the effective sample size ``n / deff``.

    With clustered outputs (several per item), dividing successes and trials by
    the design effect (Kish's effective sample size) carries the within-item
    correlation into Wilson, Jeffreys or Clopper–Pearson intervals.
    """
    check_choice(method, PROPORTION_METHODS, "method")
    deff = np.asarray(deff, dtype=float)
    k, n = np.asarray(successes, float) / deff, np.asarray(n, float) / deff
    if method == "wilson":
        return wilson_interval(k, n, level)
    if method == "jeffreys":
        return jeffreys_interval(k, n, level)
    return clopper_pearson_interval(k, n, level)


def _g_parts(p: np.ndarray):
    """g = p_w p_m + p_n and its gradient with respect to (p_w, p_m, p_n)."""
    g = p[..., 0] * p[..., 1] + p[..., 2]
    grad = np.stack([p[..., 1], p[..., 0], np.ones_like(g)], axis=-1)
    return g, grad


def _multinomial_var(p: np.ndarray, grad: np.ndarray, n: np.ndarray) -> np.ndarray:
    mean = np.sum(p * grad, axis=-1)
    return (np.sum(p * grad**2, axis=-1) - mean**2) / n


def _influence(x: np.ndarray, grad: np.ndarray):
    """Per-cluster influence on g of each cell: x has shape (clusters, ..., 3)."""
    sizes = x.sum(axis=-1)  # (clusters, ...)
    total = sizes.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        p_hat = x.sum(axis=0) / total[..., None]
        resid = (x - p_hat[None] * sizes[..., None]) / total[None, ..., None]
    n_clusters = (sizes > 0).sum(axis=0)
    return np.sum(resid * grad[None], axis=-1), n_clusters


def _robust_var(influence: np.ndarray, n_clusters: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        factor = np.where(n_clusters > 1, n_clusters / (n_clusters - 1.0), np.nan)
    return factor * np.sum(influence**2, axis=0)


def p_s_interval(cluster_counts: np.ndarray, level: float = 0.95, *, both: str = "neutral") -> ConfidenceInterval:
    """Delta-method interval for P_S, inside [0, 1], from per-cluster counts.

    Parameters
    ----------
    cluster_counts : array, shape (n_clusters, ..., 5)
        Counts per cluster (lexicon item) with GENDERS last; one sentence per
        cluster gives the plain multinomial interval.
    level : float
        Confidence level.
    both : {"neutral", "exclude"}
        How outputs showing both genders enter P_S (as in :func:`p_s`).
    """
    z = _z(level)
    x = tgbi_counts(cluster_counts, both)
    total_counts = x.sum(axis=0)
    n = total_counts.sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        p_hat = total_counts / n[..., None]
        p_til = (total_counts + PSEUDO) / (n[..., None] + 3 * PSEUDO)
    _, grad_hat = _g_parts(p_hat)
    g_til, grad_til = _g_parts(p_til)
    influence, n_clusters = _influence(x, grad_hat)
    v_robust = _robust_var(influence, n_clusters)
    v_mult_hat = _multinomial_var(p_hat, grad_hat, n)
    with np.errstate(invalid="ignore", divide="ignore"):
        deff = np.where(v_mult_hat > 0, v_robust / np.where(v_mult_hat > 0, v_mult_hat, 1), 1.0)
        deff = np.where(np.isfinite(deff), deff, 1.0)
        var = _multinomial_var(p_til, grad_til, n) * deff
        se_logit = np.sqrt(var) / (g_til * (1 - g_til))
    centre = special.logit(g_til)
    low = np.sqrt(special.expit(centre - z * se_logit))
    high = np.sqrt(special.expit(centre + z * se_logit))
    return ConfidenceInterval(low, high)


def _ps_influence(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Influence of each cluster on P_S of each cell, at shrunken shares."""
    total_counts = x.sum(axis=0)
    n = total_counts.sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        p_til = (total_counts + PSEUDO) / (n[..., None] + 3 * PSEUDO)
    g_til, grad_til = _g_parts(p_til)
    influence, n_clusters = _influence(x, grad_til)
    return influence / (2.0 * np.sqrt(g_til))[None], n_clusters


def tgbi_index_interval(
    cluster_counts: np.ndarray, estimate: np.ndarray, level: float = 0.95, *, both: str = "neutral"
) -> ConfidenceInterval:
    """Delta-method interval for the index (mean of P_S over the set axis).

    Parameters
    ----------
    cluster_counts : array, shape (n_clusters, ..., n_sets, 5)
        Counts per cluster, the set axis second to last.
    estimate : array
        The index itself (shape of ``cluster_counts.shape[1:-2]``).
    """
    z = _z(level)
    influence, _ = _ps_influence(tgbi_counts(cluster_counts, both))
    index_influence = np.nanmean(influence, axis=-1)  # (clusters, ...)
    present = tgbi_counts(cluster_counts, both).sum(axis=(-1, -2)) > 0
    n_clusters = present.sum(axis=0)
    var = _robust_var(index_influence, n_clusters)
    est = np.clip(np.asarray(estimate, float), 1e-6, 1 - 1e-6)
    se_logit = np.sqrt(var) / (est * (1 - est))
    centre = special.logit(est)
    return ConfidenceInterval(special.expit(centre - z * se_logit), special.expit(centre + z * se_logit))


def paired_difference_analytic(
    counts_a: np.ndarray,
    counts_b: np.ndarray,
    level: float = 0.95,
    *,
    both: str = "neutral",
    index: bool = False,
) -> tuple[ConfidenceInterval, np.ndarray]:
    """Normal interval and two-sided p-value for P_S(a) - P_S(b) on the same clusters.

    The influence of each cluster on the difference is the difference of its
    influences, so the pairing (same items) is in the variance. With
    ``index=True`` the difference of the indices (mean over the set axis).

    Returns
    -------
    (ConfidenceInterval around the observed difference, p-value)
    """
    from stats_mtbias.estimators.tgbi import p_s

    z = _z(level)
    xa, xb = tgbi_counts(counts_a, both), tgbi_counts(counts_b, both)
    infl_a, n_a = _ps_influence(xa)
    infl_b, _ = _ps_influence(xb)
    est_a, est_b = p_s(np.asarray(counts_a).sum(0), both), p_s(np.asarray(counts_b).sum(0), both)
    if index:
        infl_a, infl_b = infl_a.mean(axis=-1), infl_b.mean(axis=-1)
        est_a, est_b = est_a.mean(axis=-1), est_b.mean(axis=-1)
        n_a = (xa.sum(axis=(-1, -2)) > 0).sum(axis=0)
    diff = est_a - est_b
    se = np.sqrt(_robust_var(infl_a - infl_b, n_a))
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(se > 0, 2 * special.ndtr(-np.abs(diff) / se), np.where(diff == 0, 1.0, 0.0))
    return ConfidenceInterval(diff - z * se, diff + z * se), p

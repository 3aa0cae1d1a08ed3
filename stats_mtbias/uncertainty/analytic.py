"""Analytic intervals: simple proportions and the delta method for TGBI.

Proportions: Wilson, Jeffreys and Clopper–Pearson intervals, all of which stay
inside [0, 1] and do not collapse at 0% or 100%.

P_S = sqrt(g), g = p_w p_m + p_n. Near 0 and 1 (a good system's formal set; a
custom set of 100 items) the delta method on P_S and the bootstrap percentile
interval fail: the square root's derivative explodes at 0 and the bootstrap
distribution collapses onto a few values, often onto one ([0, 0]). So:

1. a set's interval is a score interval on g: Wilson's, widened to the exact Poisson
   bounds where ten or fewer minority outputs are seen (Brown, Cai & DasGupta 2001), on g's effective
   sample size ``g (1 - g) / V``, V the cluster-robust variance of g (sentences
   of one lexicon item are correlated); its square root is P_S's interval.
   It is never a point and stays inside [0, 1];
2. the index (a mean over sets) and paired differences combine the sets'
   score intervals by MOVER (Zou & Donner 2008), with the correlations of the
   estimates from each cluster's influence on g (the sets overlap; the systems
   translate the same items);
3. a paired test of one set is a cluster-robust z-test of g_a - g_b, on the
   scale where P_S(a) = P_S(b) is g_a = g_b and the estimate is smooth.

Coverage and size of each are checked by simulation in ``tests/statistical``
and tabulated by ``benchmarks/interval_coverage.py``.
"""

from __future__ import annotations

import numpy as np
from scipy import special, stats

from stats_mtbias import _defaults
from stats_mtbias._validation import check_choice, check_level
from stats_mtbias.errors import UsageError
from stats_mtbias.estimators.tgbi import tgbi_counts
from stats_mtbias.uncertainty.bootstrap import ConfidenceInterval
from stats_mtbias.uncertainty.linearization import ratio_influence, robust_variance

FEW_EVENTS = 10  # effective minority outputs at or below which exact Poisson ends and worst-case clustering apply


def _z(level: float) -> float:
    return float(special.ndtri(0.5 + check_level(level) / 2.0))


def wilson_interval(successes, n, level: float = _defaults.LEVEL) -> ConfidenceInterval:
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


def jeffreys_interval(successes, n, level: float = _defaults.LEVEL) -> ConfidenceInterval:
    """Jeffreys interval (equal-tailed Beta(k+1/2, n-k+1/2)), ends fixed at 0 and 1."""
    k, n = np.asarray(successes, float), np.asarray(n, float)
    alpha = 1 - check_level(level)
    low = np.where(k > 0, stats.beta.ppf(alpha / 2, k + 0.5, n - k + 0.5), 0.0)
    high = np.where(k < n, stats.beta.ppf(1 - alpha / 2, k + 0.5, n - k + 0.5), 1.0)
    return ConfidenceInterval(low, high)


def clopper_pearson_interval(successes, n, level: float = _defaults.LEVEL) -> ConfidenceInterval:
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
    binomial variance is the right one).

    Where ten or fewer (effective) successes or failures are seen, the robust
    variance rests on a handful of clusters and is mostly too small (a 1% rate
    over 100 occupations of six correlated outputs covered 0.92): there the
    design effect is at least the mean cluster size, its value if outputs of a
    cluster were one (the worst case), and that too where ``p`` is 0 or 1.

    Parameters
    ----------
    successes, trials : array-like, shape (n_clusters,)
        Per-cluster successes ``x_i`` and outputs ``m_i``.
    """
    x = np.asarray(successes, dtype=float)
    m = np.asarray(trials, dtype=float)
    if x.shape != m.shape or x.ndim != 1:
        raise UsageError("`successes` and `trials` must be 1-d arrays of the same length.")
    total, k = m.sum(), m.size
    if k < 2 or total == 0 or np.all(m <= 1):
        return 1.0
    p = x.sum() / total
    worst = float(total / np.count_nonzero(m))  # mean outputs per cluster
    if p in (0.0, 1.0):
        return worst
    robust = float(robust_variance(ratio_influence(x, m, p)))
    deff = float(max(1.0, robust / (p * (1 - p) / total)))
    return max(deff, worst) if min(p, 1 - p) * total / deff <= FEW_EVENTS else deff


def proportion_interval(successes, n, *, level: float = _defaults.LEVEL, method: str = "wilson", deff=1.0) -> ConfidenceInterval:
    """Interval for a proportion by `method`, on the effective sample size ``n / deff``.

    With clustered outputs (several per item), dividing successes and trials by
    the design effect (Kish's effective sample size) carries the within-item
    correlation into Wilson, Jeffreys or Clopper–Pearson intervals.
    ``"wilson"`` is :func:`modified_wilson_interval`: Wilson's interval, widened
    to the exact Poisson bounds where ten or fewer (effective) successes or
    failures are seen — a 1% female rate over 100 occupations of six
    correlated outputs covered 0.90 with the plain Wilson interval.
    """
    check_choice(method, PROPORTION_METHODS, "method")
    deff = np.asarray(deff, dtype=float)
    k, n = np.asarray(successes, float) / deff, np.asarray(n, float) / deff
    if method == "wilson":
        return modified_wilson_interval(k, n, level)
    if method == "jeffreys":
        return jeffreys_interval(k, n, level)
    return clopper_pearson_interval(k, n, level)


def _g_parts(p: np.ndarray):
    """g = p_w p_m + p_n and its gradient with respect to (p_w, p_m, p_n)."""
    g = p[..., 0] * p[..., 1] + p[..., 2]
    grad = np.stack([p[..., 1], p[..., 0], np.ones_like(g)], axis=-1)
    return g, grad


def _multinomial_var(p: np.ndarray, grad: np.ndarray, n: np.ndarray) -> np.ndarray:
    """Variance of g at shares p from n independent outputs (delta method)."""
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


def modified_wilson_interval(successes, n, level: float = _defaults.LEVEL, *, poisson_below: float = 10) -> ConfidenceInterval:
    """Wilson's interval widened to the exact Poisson bounds where few successes or failures are seen.

    Wilson's bounds are too tight when fewer than about ten successes are seen:
    its coverage dips to ~0.84 where n·p is near 1, whatever n is (Brown, Cai &
    DasGupta 2001), and more when the count is an effective count whose
    variance was estimated from a few clusters. Where ``successes`` (or
    ``n - successes``) is at most `poisson_below`, each bound is the outer of
    Wilson's and Garwood's exact Poisson bound (``Gamma.ppf(alpha/2, k) / n``
    below, ``Gamma.ppf(1 - alpha/2, k + 1) / n`` above), so the interval is
    never narrower than Wilson's and about as wide as Clopper–Pearson's there.
    `successes` and `n` may be fractional (effective counts).

    Examples
    --------
    >>> ci = modified_wilson_interval(1, 100)
    >>> round(float(ci.low), 6), round(float(wilson_interval(1, 100).low), 6)
    (0.000253, 0.001767)
    >>> float(modified_wilson_interval(50, 100).low) == float(wilson_interval(50, 100).low)
    True
    """
    k, n = np.asarray(successes, float), np.asarray(n, float)
    alpha = 1 - check_level(level)
    ci = wilson_interval(k, n, level)
    rest = n - k
    with np.errstate(invalid="ignore", divide="ignore"):
        low_k = stats.gamma.ppf(alpha / 2, np.where(k > 0, k, 1.0)) / n
        high_k = stats.gamma.ppf(1 - alpha / 2, k + 1) / n
        low_rest = 1 - stats.gamma.ppf(1 - alpha / 2, rest + 1) / n
        high_rest = 1 - stats.gamma.ppf(alpha / 2, np.where(rest > 0, rest, 1.0)) / n
    few, few_rest = k <= poisson_below, rest <= poisson_below
    low = np.where(few & (k > 0), np.minimum(ci.low, low_k), ci.low)
    high = np.where(few, np.maximum(ci.high, high_k), ci.high)
    low = np.where(few_rest, np.minimum(low, low_rest), low)
    high = np.where(few_rest & (rest > 0), np.maximum(high, high_rest), high)
    return ConfidenceInterval(np.clip(low, 0, 1), np.clip(high, 0, 1))


def _g_estimates(x: np.ndarray):
    """g at the observed shares, its influence per cluster and the cluster count: x (clusters, ..., 3)."""
    totals = x.sum(axis=0)
    n = totals.sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        shares = totals / n[..., None]
    g, grad = _g_parts(shares)
    influence, n_clusters = _influence(x, grad)
    return g, influence, n_clusters, n


def g_score_interval(
    x: np.ndarray, level: float = _defaults.LEVEL, *, worst_case: bool = True
) -> tuple[np.ndarray, ConfidenceInterval]:
    """Score (modified Wilson) interval for g = p_w p_m + p_n on its effective sample size.

    g is treated as a proportion observed ``g · n_eff`` times in ``n_eff`` trials,
    ``n_eff = g (1 − g) / V`` with ``V = V_mult · deff``: V_mult the multinomial
    (delta-method) variance of g and deff the design effect of sentences
    clustered in lexicon items (cluster-robust over multinomial variance; with
    ten or fewer minority outputs at least the mean cluster size). Where g is 0 or 1 (V = 0) ``n_eff``
    is the number of outputs divided by that worst-case design effect (the mean cluster
    size; the number of outputs itself without `worst_case`): the binomial size near the
    boundary, where the variance of g is that of a proportion of the minority outputs.

    Returns
    -------
    (g, ConfidenceInterval for g)
    """
    g, n_eff = _g_effective(x, worst_case)
    return g, modified_wilson_interval(g * n_eff, n_eff, level)


def _g_effective(x: np.ndarray, worst_case: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """g and its effective sample size ``g (1 - g) / V`` (where g is 0 or 1: ``n``, over the mean cluster size
    in the worst case).

    `worst_case`: with ten or fewer minority outputs, a design effect of at least the mean cluster size.
    A set's own interval takes it; inside a MOVER sum or difference the estimated design effect is used
    (the set's error is one of several there, and the worst case made the index's interval cover 0.98-1.00).
    """
    g, influence, n_clusters, n = _g_estimates(x)
    totals = x.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        shares = totals / n[..., None]
        multinomial = _multinomial_var(shares, _g_parts(shares)[1], n)
        # The design effect as estimated (below 1 where an item's sentences disagree more than chance: Google's
        # polite set, 0.91); with few minority outputs, where the estimate is noise, the worst case below.
        deff = np.where(multinomial > 0, robust_variance(influence, n_clusters=n_clusters) / multinomial, 1.0)
        # Few minority outputs: their robust variance rests on a handful of clusters and is mostly too small;
        # take at least the mean cluster size (outputs of a cluster counted as one), as design_effect does.
        worst = n / np.maximum(n_clusters, 1)
        few = (np.minimum(g, 1 - g) * n / deff <= FEW_EVENTS) & worst_case
        deff = np.where(few, np.maximum(deff, worst), deff)
        var = multinomial * deff
        inside = (var > 0) & (g > 0) & (g < 1)
        n_eff = np.where(inside, g * (1 - g) / np.where(inside, var, 1.0), n / np.where(few, worst, 1.0))
    return g, n_eff


def minority_count(cluster_counts: np.ndarray, both: str = "neutral") -> np.ndarray:
    """Effective count of g's "successes", ``g · n_eff`` (:func:`g_score_interval`), or of its failures if fewer.

    Near 0 it is about the number of outputs off the majority gender; at ten or
    fewer the set is in the regime where bootstrap and normal intervals fail.
    """
    x = tgbi_counts(cluster_counts, both)
    g, n_eff = _g_effective(x, worst_case=False)
    return np.minimum(g, 1 - g) * n_eff


def p_s_interval(cluster_counts: np.ndarray, level: float = _defaults.LEVEL, *, both: str = "neutral") -> ConfidenceInterval:
    """Interval for P_S from per-cluster counts: the square root of g's score interval.

    The interval of g = P_S² is a modified Wilson interval on g's effective
    sample size (:func:`g_score_interval`), so it stays inside [0, 1], is never a
    point (at g = 0 it is [0, sqrt(z²/(n + z²))]) and keeps its coverage near 0
    and 1, where the delta method on P_S and the bootstrap percentile interval
    lose it (the derivative of the square root explodes at 0 and the bootstrap
    distribution collapses onto a few values).

    Parameters
    ----------
    cluster_counts : array, shape (n_clusters, ..., 5)
        Counts per cluster (lexicon item) with GENDERS last; one sentence per
        cluster gives the plain multinomial interval.
    level : float
        Confidence level.
    both : {"neutral", "exclude"}
        How outputs showing both genders enter P_S (as in :func:`p_s`).

    Examples
    --------
    >>> counts = np.zeros((496, 5)); counts[:, 1] = 1      # 496 male outputs
    >>> ci = p_s_interval(counts)
    >>> float(ci.low), round(float(ci.high), 3)
    (0.0, 0.088)
    """
    _, ci = g_score_interval(tgbi_counts(cluster_counts, both), level)
    return ConfidenceInterval(np.sqrt(ci.low), np.sqrt(ci.high))


def mover_interval(estimates, low, high, weights, correlation) -> ConfidenceInterval:
    """Interval of ``sum_k w_k θ_k`` from the components' own intervals (MOVER; Zou & Donner 2008).

    Each component's distances from its estimate to its bounds stand in for its
    standard errors, on the side each bound of the sum needs (a negative weight
    takes the other side), and ``correlation`` (..., K, K) couples them. The
    asymmetry of the components' intervals near 0 and 1 carries into the sum,
    which a symmetric normal interval would lose.

    Parameters
    ----------
    estimates, low, high : arrays (..., K)
    weights : array (K,)
    correlation : array (..., K, K)
    """
    theta, low, high = (np.asarray(a, float) for a in (estimates, low, high))
    w = np.asarray(weights, float)
    below, above = theta - low, high - theta
    # The lower bound of the sum uses the lower distances of positive-weight components and the upper of negative ones.
    # Signed (w_k times the distance), so the correlation enters with the weights' signs.
    down = np.where(w > 0, below, above) * w
    up = np.where(w > 0, above, below) * w
    point = np.sum(w * theta, axis=-1)
    with np.errstate(invalid="ignore"):
        low_margin = np.sqrt(np.maximum(np.einsum("...j,...jk,...k->...", down, correlation, down), 0.0))
        high_margin = np.sqrt(np.maximum(np.einsum("...j,...jk,...k->...", up, correlation, up), 0.0))
    return ConfidenceInterval(point - low_margin, point + high_margin)


def _correlation(influence: np.ndarray) -> np.ndarray:
    """Correlation matrix (..., K, K) of estimates from their per-cluster influences (clusters, ..., K)."""
    cov = np.einsum("i...j,i...k->...jk", influence, influence)
    sd = np.sqrt(np.diagonal(cov, axis1=-2, axis2=-1))
    with np.errstate(invalid="ignore", divide="ignore"):
        corr = cov / (sd[..., :, None] * sd[..., None, :])
    # A component without variance (g at 0 or 1) is uncorrelated with the others.
    corr = np.where(np.isfinite(corr), corr, 0.0)
    k = corr.shape[-1]
    corr[..., np.arange(k), np.arange(k)] = 1.0
    return corr


def _set_parts(x: np.ndarray, level: float):
    """Per set: P_S, its score interval and the influence on g (the correlation's input)."""
    g, ci = g_score_interval(x, level, worst_case=False)
    _, influence, _, _ = _g_estimates(x)
    return np.sqrt(g), np.sqrt(ci.low), np.sqrt(ci.high), np.nan_to_num(influence)


def tgbi_index_interval(
    cluster_counts: np.ndarray, estimate: np.ndarray | None = None, level: float = _defaults.LEVEL, *, both: str = "neutral"
) -> ConfidenceInterval:
    """Interval for the index (mean of P_S over the set axis) from the sets' score intervals (MOVER).

    Parameters
    ----------
    cluster_counts : array, shape (n_clusters, ..., n_sets, 5)
        Counts per cluster, the set axis second to last.
    estimate : array, optional
        Unused (the index is recomputed from the counts); kept for callers that pass it.
    """
    ps, low, high, influence = _set_parts(tgbi_counts(cluster_counts, both), level)
    k = ps.shape[-1]
    return mover_interval(ps, low, high, np.full(k, 1.0 / k), _correlation(influence))


def _agreeing(ci: ConfidenceInterval, diff: np.ndarray, same: np.ndarray, apart: ConfidenceInterval) -> ConfidenceInterval:
    """Where two systems' outputs agree on every cluster: `apart`, the MOVER interval with the correlation left out.

    The difference is 0 in every resample there, but a point would claim that systems agreeing on n items agree
    everywhere (issue 45: no comparison interval is a point). With the correlation left out the two equal intervals
    give a symmetric interval around 0 (the paired one would leave their asymmetry as a spurious shift), wider than
    any paired interval: the conservative one.
    """
    return ConfidenceInterval(np.where(same, apart.low, ci.low), np.where(same, apart.high, ci.high))


def paired_difference_analytic(
    counts_a: np.ndarray,
    counts_b: np.ndarray,
    level: float = _defaults.LEVEL,
    *,
    both: str = "neutral",
    index: bool = False,
) -> tuple[ConfidenceInterval, np.ndarray]:
    """Interval and two-sided p-value for P_S(a) − P_S(b) on the same clusters.

    The interval combines the two systems' score intervals (on g = P_S², square-rooted)
    by MOVER with the correlation of their estimates, so it keeps their behaviour
    near 0 and 1; the p-value is the normal one whose interval is that MOVER
    interval on the side of 0, so the test and the interval are one method: the
    interval excludes 0 exactly when p < 1 − level. (A delta-method test on P_S
    itself rejects far too often near 0, where the square root's derivative
    explodes; MOVER inherits the score intervals' behaviour there instead.)
    With ``index=True`` the difference of the indices (mean over the set axis):
    its interval is MOVER over all sets of both systems.

    Returns
    -------
    (ConfidenceInterval around the observed difference, p-value)
    """
    z = _z(level)
    xa, xb = tgbi_counts(counts_a, both), tgbi_counts(counts_b, both)
    ps_a, low_a, high_a, infl_a = _set_parts(xa, level)
    ps_b, low_b, high_b, infl_b = _set_parts(xb, level)
    if index:
        k = ps_a.shape[-1]
        weights = np.concatenate([np.full(k, 1.0 / k), np.full(k, -1.0 / k)])
        stack = lambda a, b: np.concatenate([a, b], axis=-1)  # noqa: E731
        corr = _correlation(stack(infl_a, infl_b))
        ci = mover_interval(stack(ps_a, ps_b), stack(low_a, low_b), stack(high_a, high_b), weights, corr)
        apart = mover_interval(
            stack(ps_a, ps_b), stack(low_a, low_b), stack(high_a, high_b), weights, np.broadcast_to(np.eye(2 * k), corr.shape)
        )
        diff = ps_a.mean(axis=-1) - ps_b.mean(axis=-1)
        ci = _agreeing(ci, diff, np.all(xa == xb, axis=(0, -1, -2)), apart)
        return ci, _interval_pvalue(diff, ci, z)
    pair = np.stack([infl_a, infl_b], axis=-1)
    parts = (np.stack([ps_a, ps_b], -1), np.stack([low_a, low_b], -1), np.stack([high_a, high_b], -1), np.array([1.0, -1.0]))
    corr = _correlation(pair)
    ci = mover_interval(*parts, corr)
    diff = ps_a - ps_b
    ci = _agreeing(ci, diff, np.all(xa == xb, axis=(0, -1)), mover_interval(*parts, np.broadcast_to(np.eye(2), corr.shape)))
    return ci, _interval_pvalue(diff, ci, z)


def _interval_pvalue(diff: np.ndarray, ci: ConfidenceInterval, z: float) -> np.ndarray:
    """The normal p-value whose interval is `ci` on the side of 0: p < 1 − level exactly when `ci` excludes 0.

    The standard error is the distance from the estimate to the bound facing 0
    over ``z``; so test and interval are one method and never disagree.
    """
    se = np.where(diff >= 0, diff - ci.low, ci.high - diff) / z
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(se > 0, 2 * special.ndtr(-np.abs(diff) / np.where(se > 0, se, 1.0)), np.where(diff == 0, 1.0, 0.0))

"""One bootstrap engine for every study: resampling on sufficient statistics.

Data are per-cluster count arrays ``(n_clusters, ...)`` (clusters: lexicon
items, occupations, WinoMT items). A bootstrap replicate is a vector of integer
weights (how often each cluster was drawn), so all replicates at once are one
matrix product ``W @ data``: no Python loop over resamples. Weights are drawn
within strata when the design fixes stratum sizes (TGBI's 735/200/124 lexicon
split; WinoMT's pro/anti halves), so every replicate has the design's sizes.

Paired comparisons use the same ``W`` for every system, as in sacrebleu's
paired bootstrap.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise

import numpy as np
from scipy import special

from stats_mtbias import _defaults
from stats_mtbias._defaults import MIN_TAIL
from stats_mtbias._validation import check_choice, check_level, check_positive_int, check_rng
from stats_mtbias.errors import DataQualityWarning, UsageError
from stats_mtbias.uncertainty.intervals import ConfidenceInterval

WEIGHT_METHODS = ("index", "multinomial")
CI_METHODS = ("percentile", "bca", "studentized")


_CHUNK = 256  # replicates counted per block: the block's buffers stay in cache


def resample_weights(
    n_boot: int,
    n_clusters: int | None = None,
    *,
    strata: np.ndarray | None = None,
    rng: np.random.Generator | int,
    method: str = "index",
    dtype: type | np.dtype = np.int32,
) -> np.ndarray:
    """Integer bootstrap weights: row b counts how often each cluster is drawn.

    Parameters
    ----------
    n_boot : int
        Number of replicates (rows).
    n_clusters : int, optional
        Number of clusters; taken from ``strata`` when given.
    strata : array of labels, optional
        The stratum of every cluster; each stratum is resampled to its own size.
    rng : Generator or int
        Source of randomness (keyword-only, required).
    method : {"index", "multinomial"}
        Draw cluster indices and count them, or draw the counts from a
        multinomial directly. Both give the same distribution.
    dtype : numpy dtype
        Type of the returned counts. ``float32`` holds every count exactly (they
        are at most the stratum size) and is what the matrix product wants.

    Returns
    -------
    numpy.ndarray, shape (n_boot, n_clusters)
    """
    n_boot = check_positive_int(n_boot, "n_boot")
    rng = check_rng(rng)
    check_choice(method, WEIGHT_METHODS, "method")
    if strata is None and n_clusters is None:
        raise UsageError("give `n_clusters` or `strata`.")
    n_clusters = len(strata) if strata is not None else check_positive_int(n_clusters, "n_clusters")
    members = _strata_members(n_clusters, strata)
    if max(len(m) for m in members) >= 2**24 and np.dtype(dtype) == np.float32:
        raise UsageError("float32 weights are exact only for strata below 2**24 clusters.")
    weights = np.empty((n_boot, n_clusters), dtype=dtype)
    if method == "multinomial":
        for idx in members:
            size = len(idx)
            weights[:, idx] = rng.multinomial(size, np.full(size, 1.0 / size), size=n_boot)
        return weights
    for first, counts in _index_weight_blocks(n_boot, members, n_clusters, rng):
        weights[first : first + len(counts)] = counts
    return weights


def _strata_members(n_clusters: int, strata: np.ndarray | None) -> list[np.ndarray]:
    """The cluster positions of each stratum (one stratum of all clusters without `strata`)."""
    if strata is None:
        return [np.arange(n_clusters)]
    strata = np.asarray(strata)
    if len(strata) != n_clusters:
        raise UsageError(f"`strata` has {len(strata)} labels for {n_clusters} clusters.")
    return [np.flatnonzero(strata == label) for label in np.unique(strata)]


def _index_weight_blocks(n_boot: int, members: list[np.ndarray], n_clusters: int, rng: np.random.Generator):
    """Bootstrap weights ``(first replicate, counts)`` a block of ``_CHUNK`` replicates at a time.

    Per block: cluster positions are drawn per stratum straight into a flat
    (replicate, cluster) position buffer and counted with one bincount. int16
    draws are several times faster to generate than int64; an int64 buffer is
    what bincount reads without a cast; small blocks stay in cache.
    """
    chunk = min(_CHUNK, n_boot)
    positions = np.empty((chunk, n_clusters), dtype=np.int64)
    row_offset = (np.arange(chunk, dtype=np.int64) * n_clusters)[:, None]
    for first in range(0, n_boot, chunk):
        rows = min(chunk, n_boot - first)
        start = 0
        for idx in members:
            size = len(idx)
            draw_type = np.int16 if size < 2**15 else np.int64
            draws = rng.integers(0, size, size=(rows, size), dtype=draw_type)
            target = positions[:rows, start : start + size]
            if idx[-1] - idx[0] == size - 1:  # contiguous stratum: no gather needed
                np.add(draws, row_offset[:rows] + idx[0], out=target)
            else:
                np.add(idx[draws], row_offset[:rows], out=target)
            start += size
        counts = np.bincount(positions[:rows].ravel(), minlength=rows * n_clusters)
        yield first, counts.reshape(rows, n_clusters)


def weighted_sums(weights: np.ndarray, data: np.ndarray, *, integer_weights: bool | None = None) -> np.ndarray:
    """``weights @ data`` over the cluster axis: replicate totals ``(n_boot, ...)``.

    When weights and data are integers and every sum stays below 2**24, the
    product is computed in float32 (exact there, and twice as fast).
    `integer_weights` declares that float weights hold integers (as
    :func:`resample_weights` with ``dtype=float32`` returns), saving a check.
    """
    data = np.asarray(data, dtype=float)
    flat = data.reshape(data.shape[0], -1)
    if integer_weights is None:
        integer_weights = np.issubdtype(weights.dtype, np.integer)
    fast = False
    if integer_weights and weights.size:
        # Cheap bound on any |sum|: max |weight| x clusters x max |datum| (one pass over W).
        w_max = max(abs(float(weights.max())), abs(float(weights.min())))
        bound = w_max * weights.shape[-1] * float(np.abs(flat).max(initial=0))
        fast = bound < 2**24 and np.array_equal(flat, np.round(flat))
    if fast:
        sums = (weights.astype(np.float32, copy=False) @ flat.astype(np.float32)).astype(float)
    else:
        sums = weights.astype(float) @ flat
    return sums.reshape((weights.shape[0], *data.shape[1:]))


@dataclass(frozen=True)
class BootstrapResult:
    """Replicates of a statistic and the intervals read off them.

    Attributes
    ----------
    estimate : numpy.ndarray
        The statistic on the data.
    replicates : numpy.ndarray
        Shape ``(n_boot, *estimate.shape)``.
    jackknife : numpy.ndarray or None
        Leave-one-cluster-out values, shape ``(n_clusters, *estimate.shape)``, for BCa.
    level : float
        Default confidence level.
    method : str
        Default interval method (``percentile``, ``bca`` or ``studentized``).
    standard_error_estimate, replicate_standard_errors : numpy.ndarray, optional
        For the bootstrap-t (``studentized``) interval: the estimate's own standard
        error and each replicate's, both from the same formula (e.g. linearisation).
    jackknife_weights : numpy.ndarray, optional
        How many identical clusters each jackknife value stands for (see the
        ``frequency`` of :func:`cluster_bootstrap`); None: one each.
    """

    estimate: np.ndarray
    replicates: np.ndarray
    jackknife: np.ndarray | None
    level: float
    method: str
    standard_error_estimate: np.ndarray | None = None
    replicate_standard_errors: np.ndarray | None = None
    jackknife_weights: np.ndarray | None = None

    @property
    def n_boot(self) -> int:
        return self.replicates.shape[0]

    @property
    def standard_error(self) -> np.ndarray:
        """Bootstrap standard error (ddof=1)."""
        return np.nanstd(self.replicates, axis=0, ddof=1)

    def confidence_interval(self, level: float | None = None, method: str | None = None) -> ConfidenceInterval:
        """Two-sided interval at `level` by `method` (defaults: the result's own)."""
        level = check_level(self.level if level is None else level)
        method = check_choice(self.method if method is None else method, CI_METHODS, "method")
        tail_resolution(self.n_boot, level, interval=method)
        alpha = (1.0 - level) / 2.0
        if method == "percentile":
            return ConfidenceInterval(*_nanquantiles(self.replicates, (alpha, 1.0 - alpha)))
        if method == "studentized":
            if self.standard_error_estimate is None or self.replicate_standard_errors is None:
                raise UsageError("the studentized interval needs the estimate's and the replicates' standard errors.")
            return _studentized(
                self.estimate, self.standard_error_estimate, self.replicates, self.replicate_standard_errors, alpha
            )
        if self.jackknife is None:
            raise UsageError("BCa needs jackknife values; bootstrap with method='bca'.")
        # An infinite leave-one-out value (the statistic undefined without that cluster) is dropped like a NaN:
        # kept, it turns the acceleration into NaN and the interval into a point at the median.
        finite = np.where(np.isfinite(self.jackknife), self.jackknife, np.nan)
        return _bca(self.estimate, self.replicates, finite, alpha, self.jackknife_weights)


def tail_resolution(n: int, level: float, *, what: str = "n_boot", interval: str = "percentile") -> str | None:
    """Warn when `n` resamples (or draws) cannot resolve the tails of a `level` interval read off them.

    Each end of an interval read off `n` resamples is an order statistic about
    ``(1 − level) / 2 · n`` resamples in from the extreme. With fewer than
    :data:`~stats_mtbias._defaults.MIN_TAIL` (2.5) beyond each end — the
    resolution the package asks of a 95% interval with its minimum of 100
    resamples, at any level — the ends are (interpolated between) the most
    extreme resamples and the interval is too narrow for its level (level
    0.9999 on 200 resamples: about a third too narrow), without a word. Davison
    & Hinkley (1997, §5.2.3) ask for far more for accurate ends (about 1,000
    resamples at 95%, 25 beyond each end); this is the floor below which an end
    is not placed at all. One :class:`~stats_mtbias.errors.DataQualityWarning`
    (exit 65 under ``--strict``) names the `what` that would resolve it.

    Returns the message, or None when the tails are resolved.

    Examples
    --------
    >>> tail_resolution(10_000, 0.95) is None, tail_resolution(100, 0.95) is None
    (True, True)
    >>> import warnings
    >>> with warnings.catch_warnings(record=True):
    ...     warnings.simplefilter("always")
    ...     message = tail_resolution(200, 0.9999)
    >>> message.split(": ")[0], message.split(". ")[-1]
    ('level 0.9999 with n_boot=200', 'n_boot ≥ 50,000 resolves it (or a lower level).')
    """
    tail = (1.0 - level) / 2.0 * n
    if tail >= MIN_TAIL * (1 - 1e-9):  # 2.4999999999999996 at 0.95 × 100 is 2.5
        return None
    needed = int(np.ceil(MIN_TAIL / ((1.0 - level) / 2.0) - 1e-6))
    message = (
        f"level {level:g} with {what}={n:,}: the {interval} interval's ends sit {tail:.3g} resamples in from "
        f"the extremes (fewer than {MIN_TAIL:g}): they are (near) the most extreme resamples, and the interval is "
        f"narrower than its level says. {what} ≥ {needed:,} resolves it (or a lower level)."
    )

    warnings.warn(message, DataQualityWarning, stacklevel=3)
    return message


def _nanquantiles(values: np.ndarray, probs) -> list[np.ndarray]:
    """Quantiles along axis 0 ignoring NaN; NaN (without a warning) where a column has no finite value."""
    values = np.asarray(values, dtype=float)
    if not np.isnan(values).any():  # the same quantiles; nanquantile goes column by column (10x slower)
        return list(np.quantile(values, list(probs), axis=0))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN columns: NaN bounds are the answer
        return list(np.nanquantile(values, list(probs), axis=0))


def _studentized(estimate, se, replicates, replicate_se, alpha) -> ConfidenceInterval:
    """Bootstrap-t: ``estimate - q(1-α) se, estimate - q(α) se`` with q the quantiles of ``(θ* − θ) / se*``.

    Where the estimate has no spread (``se == 0``: every clustered value equal)
    the interval is the estimate itself; replicates without a finite t are left out.
    """
    estimate, se = np.asarray(estimate, float), np.asarray(se, float)
    with np.errstate(invalid="ignore", divide="ignore"):
        t = (np.asarray(replicates, float) - estimate) / np.asarray(replicate_se, float)
    t = np.where(np.isfinite(t), t, np.nan)
    q_low, q_high = _nanquantiles(t, (alpha, 1.0 - alpha))
    low, high = estimate - q_high * se, estimate - q_low * se
    flat = se == 0
    low, high = np.where(flat, estimate, low), np.where(flat, estimate, high)
    return ConfidenceInterval(np.where(np.isnan(estimate), np.nan, low), np.where(np.isnan(estimate), np.nan, high))


def _bca(estimate, replicates, jackknife, alpha, weights=None) -> ConfidenceInterval:
    # Bias correction counts ties half, which matters for discrete statistics.
    below = np.mean(replicates < estimate, axis=0) + 0.5 * np.mean(replicates == estimate, axis=0)
    z0 = special.ndtri(np.clip(below, 1e-12, 1 - 1e-12))
    jackknife = np.asarray(jackknife, dtype=float)
    # Frequency weights: a value standing for f identical clusters enters every sum f times.
    w = np.ones(jackknife.shape[0]) if weights is None else np.asarray(weights, dtype=float)
    w = np.where(np.isnan(jackknife), 0.0, w.reshape((-1,) + (1,) * (jackknife.ndim - 1)))
    values = np.nan_to_num(jackknife)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.sum(w * values, axis=0) / np.sum(w, axis=0)
    centred = np.where(w > 0, mean - values, 0.0)
    num = np.sum(w * centred**3, axis=0)
    den = 6.0 * np.sum(w * centred**2, axis=0) ** 1.5
    with np.errstate(invalid="ignore", divide="ignore"):
        accel = np.where(den > 0, num / np.where(den > 0, den, 1.0), 0.0)
    bounds = []
    for z_alpha in (special.ndtri(alpha), special.ndtri(1.0 - alpha)):
        with np.errstate(invalid="ignore", divide="ignore"):
            adj = special.ndtr(z0 + (z0 + z_alpha) / (1.0 - accel * (z0 + z_alpha)))
        adj = np.nan_to_num(adj, nan=0.5)
        bounds.append(_quantile_per_element(replicates, adj))
    return ConfidenceInterval(*bounds)


def _quantile_per_element(replicates: np.ndarray, probs: np.ndarray) -> np.ndarray:
    """Quantile of each column of `replicates` at its own probability (vectorised)."""
    ordered = np.sort(replicates, axis=0)
    n = ordered.shape[0]
    position = np.clip(probs, 0.0, 1.0) * (n - 1)
    lo = np.floor(position).astype(int)
    hi = np.minimum(lo + 1, n - 1)
    frac = position - lo
    low_vals = np.take_along_axis(ordered, lo[None, ...], axis=0)[0]
    high_vals = np.take_along_axis(ordered, hi[None, ...], axis=0)[0]
    return low_vals + frac * (high_vals - low_vals)


def cluster_bootstrap(
    data: np.ndarray,
    statistic: Callable[[np.ndarray], np.ndarray],
    *,
    n_boot: int = _defaults.N_BOOT,
    rng: np.random.Generator | int,
    strata: np.ndarray | None = None,
    level: float = _defaults.LEVEL,
    method: str = "percentile",
    weights: str = "index",
    frequency: np.ndarray | None = None,
) -> BootstrapResult:
    """Bootstrap a statistic of summed cluster counts.

    Parameters
    ----------
    data : array, shape (n_clusters, ...)
        Per-cluster counts (or any additive sufficient statistics).
    statistic : callable
        Maps totals with a leading replicate axis ``(r, ...)`` to ``(r, *out)``.
        It must be vectorised along that axis.
    n_boot : int
        Number of replicates.
    rng : Generator or int
        Keyword-only source of randomness.
    strata : array of labels, optional
        Stratum of each cluster; clusters are resampled within strata.
    level : float
        Default confidence level of the result.
    method : {"percentile", "bca"}
        Default interval method; ``bca`` also computes the cluster jackknife.
    weights : {"index", "multinomial"}
        How the weight matrix is drawn.
    frequency : array of int, optional
        How many identical clusters each row of `data` stands for (its data is
        one cluster's). The bootstrap is then the one over all ``frequency.sum()``
        clusters, drawn as multinomial counts of the rows with probabilities
        ``frequency / stratum total``; memory and time grow with the rows, not
        with the clusters they stand for (every judgement its own cluster).

    Returns
    -------
    BootstrapResult

    Examples
    --------
    Two rows standing for 3 and 1 identical clusters give the replicates'
    distribution of the four clusters themselves; every replicate's weights sum to 4:

    >>> import numpy as np
    >>> res = cluster_bootstrap(np.array([[1.0], [0.0]]), lambda t: t[:, 0] / 4, frequency=np.array([3, 1]),
    ...                         n_boot=1000, rng=0)
    >>> float(res.estimate), bool(np.all(np.isin(res.replicates, [0, 0.25, 0.5, 0.75, 1])))
    (0.75, True)
    """
    data = np.asarray(data, dtype=float)
    check_level(level)
    check_choice(method, CI_METHODS, "method")
    if frequency is not None:
        return _frequency_bootstrap(
            data, statistic, np.asarray(frequency), n_boot=n_boot, rng=rng, strata=strata, level=level, method=method
        )
    estimate = np.asarray(statistic(data.sum(axis=0)[None, ...]))[0]
    if weights == "index":
        # The same weights resample_weights draws, each block multiplied as it is drawn: the
        # (n_boot, clusters) matrix is never held (155 MB for WinoMT's 3,888 items; 2.7x faster).
        n_boot = check_positive_int(n_boot, "n_boot")
        members = _strata_members(data.shape[0], strata)
        # Clusters laid out stratum by stratum, so every stratum's draws are positions in one range (no gather):
        # the k-th cluster of a stratum gets the weight it gets in resample_weights, its data moves with it.
        order = np.concatenate(members)
        flat = data.reshape(data.shape[0], -1)[order]
        bounds = np.cumsum([0, *(len(m) for m in members)])
        members = [np.arange(lo, hi) for lo, hi in pairwise(bounds)]
        # Integer data whose every replicate sum (at most clusters x max |datum|) stays below 2**24:
        # float32 products are exact there, and twice as fast.
        exact32 = float(np.abs(flat).max(initial=0)) * data.shape[0] < 2**24 and np.array_equal(flat, np.round(flat))
        factor = flat.astype(np.float32) if exact32 else flat
        sums = np.empty((n_boot, flat.shape[1]))
        for first, counts in _index_weight_blocks(n_boot, members, data.shape[0], check_rng(rng)):
            sums[first : first + len(counts)] = counts.astype(factor.dtype) @ factor
        totals = sums.reshape((n_boot, *data.shape[1:]))
    else:
        w = resample_weights(n_boot, data.shape[0], strata=strata, rng=rng, method=weights, dtype=np.float32)
        totals = weighted_sums(w, data, integer_weights=True)
    replicates = np.asarray(statistic(totals))
    jackknife = None
    if method == "bca":
        jackknife = np.asarray(statistic(data.sum(axis=0)[None, ...] - data))
    return BootstrapResult(estimate, replicates, jackknife, level, method)


def _frequency_bootstrap(data, statistic, frequency, *, n_boot, rng, strata, level, method) -> BootstrapResult:
    """:func:`cluster_bootstrap` of rows standing for ``frequency`` identical clusters each.

    Drawing ``N_h`` clusters with replacement from a stratum's ``N_h`` puts
    ``Multinomial(N_h, f_c / N_h)`` draws on the clusters of row ``c`` (the draws of
    identical clusters are interchangeable), so that is how the rows' weights are drawn.
    """
    n_boot = check_positive_int(n_boot, "n_boot")
    if frequency.shape != (data.shape[0],) or not np.issubdtype(frequency.dtype, np.integer) or np.any(frequency < 1):
        raise UsageError("`frequency` must hold a positive integer per row of `data`.")
    frequency = frequency.astype(np.int64)
    rng = check_rng(rng)
    flat = data.reshape(data.shape[0], -1)
    total = frequency.astype(float) @ flat
    estimate = np.asarray(statistic(total.reshape((1, *data.shape[1:]))))[0]
    members = _strata_members(data.shape[0], strata)
    sums = np.empty((n_boot, flat.shape[1]))
    w = np.empty((min(_CHUNK, n_boot), data.shape[0]))
    for first in range(0, n_boot, _CHUNK):
        rows = min(_CHUNK, n_boot - first)
        for idx in members:
            f = frequency[idx]
            w[:rows, idx] = rng.multinomial(int(f.sum()), f / f.sum(), size=rows)
        sums[first : first + rows] = w[:rows] @ flat
    replicates = np.asarray(statistic(sums.reshape((n_boot, *data.shape[1:]))))
    jackknife = None
    if method == "bca":  # leaving out any one of a row's identical clusters gives the same value
        jackknife = np.asarray(statistic((total - flat).reshape(data.shape)))
    return BootstrapResult(estimate, replicates, jackknife, level, method, jackknife_weights=frequency.astype(float))


def bootstrap_pvalue(differences: np.ndarray, null: float = 0.0) -> np.ndarray:
    """Two-sided p-value of ``H0: difference = null`` from bootstrap replicates.

    The smallest alpha at which the equal-tailed percentile interval excludes
    `null`, so the p-value and the interval never disagree; ``+1`` in numerator
    and denominator keeps it away from an impossible 0.
    """
    d = np.asarray(differences, dtype=float)
    n = np.sum(~np.isnan(d), axis=0)
    below = (np.sum(d <= null, axis=0) + 1.0) / (n + 1.0)
    above = (np.sum(d >= null, axis=0) + 1.0) / (n + 1.0)
    return np.minimum(1.0, 2.0 * np.minimum(below, above))


def paired_permutation(
    data_a: np.ndarray,
    data_b: np.ndarray,
    statistic: Callable[[np.ndarray], np.ndarray],
    *,
    n_perm: int = 10_000,
    rng: np.random.Generator | int,
) -> tuple[np.ndarray, np.ndarray]:
    """Approximate randomisation test of two systems on the same clusters.

    Under the null the two systems' outputs for a cluster are exchangeable, so
    each replicate swaps them in a random half of the clusters. Vectorised as
    ``A* = A + S @ (b - a)`` with a random 0/1 matrix ``S``. Swapping two
    identical outputs changes nothing, so ``S`` is drawn only for the clusters
    where the systems differ (the same test, and its cost grows with the
    discordant clusters, not all of them).

    Returns
    -------
    (observed difference, two-sided p-value)
        ``statistic(A) - statistic(B)`` and ``(1 + #|d*| >= |d|) / (n_perm + 1)``.
    """
    a = np.asarray(data_a, dtype=float)
    b = np.asarray(data_b, dtype=float)
    if a.shape != b.shape:
        raise UsageError("`data_a` and `data_b` must have the same shape (same clusters).")
    n_perm = check_positive_int(n_perm, "n_perm")
    rng = check_rng(rng)
    total_a, total_b = a.sum(axis=0), b.sum(axis=0)
    observed = np.asarray(statistic(total_a[None])[0] - statistic(total_b[None])[0])
    change = (b - a)[np.any((b != a).reshape(a.shape[0], -1), axis=1)]
    # Fair coins eight to a random byte: unpacking bits is ~10x faster than drawing 0/1 integers.
    coins = rng.integers(0, 256, size=(n_perm, -(-len(change) // 8)), dtype=np.uint8)
    swaps = np.unpackbits(coins, axis=1, count=len(change))
    moved = weighted_sums(swaps, change) if len(change) else np.zeros((n_perm, *a.shape[1:]))
    perm = np.asarray(statistic(total_a + moved)) - np.asarray(statistic(total_b - moved))
    # A small tolerance so that ties from floating point round-off count as ties.
    extreme = np.abs(perm) >= np.abs(observed) - 1e-12
    return observed, (1.0 + extreme.sum(axis=0)) / (n_perm + 1.0)

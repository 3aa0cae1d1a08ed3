"""Power by simulation from pilot data, through the study's own estimator and test.

A pilot (the shipped outputs, or a user's first batch) gives, per cluster (item,
lexicon item, prompt), the two systems' sufficient statistics — the same
``(clusters, systems, ...)`` count arrays the study bootstraps. A simulated
evaluation of ``n`` clusters draws them from the pilot's empirical distribution
within the study's strata (sizes proportional to the pilot's), so everything the
pilot shows — the discordance of the two systems, the correlation of their
errors, unknown readings, stratum sizes — carries over.

Fast because clusters are exchangeable: identical rows of the count array are
one *pattern*, and drawing ``n`` clusters is one multinomial draw over the
patterns (WinoMT: at most 16 patterns per stereotype × gold stratum for two
systems). The totals of all simulated evaluations are one matrix product.

The test applied to each simulated evaluation is the study's:

- ``"bootstrap"`` (default): the paired bootstrap p-value of the difference
  (:func:`stats_mtbias.uncertainty.bootstrap.bootstrap_pvalue`) from ``n_boot``
  stratified resamples of that evaluation — the analysis that will be run;
- ``"wald"``: the linearised (influence-function) standard error of the
  difference, the large-sample equivalent of the bootstrap, much faster.

Differences other than the pilot's own come from a location shift: the true
difference of the resampling world is the pilot's ``d0``, and the power for a
true difference ``δ`` applies the test to ``d̂ + (δ − d0)`` (and its bootstrap
replicates shifted alike). The simulated power at ``δ = 0`` is the test's size,
reported beside every answer as a check.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy import special

from stats_mtbias import _defaults
from stats_mtbias._validation import check_choice, check_positive_int, check_rng
from stats_mtbias.errors import UsageError
from stats_mtbias.planning.closed import _check_alpha, _check_power, check_alternative, z_alpha
from stats_mtbias.uncertainty.bootstrap import tail_resolution

TESTS = ("bootstrap", "wald")
_MULTINOMIAL_PATTERNS = 64  # above this many patterns a stratum is resampled by index draws
_CHUNK_CELLS = 8_000_000  # inner-bootstrap cells (resamples x evaluations x patterns) per block


@dataclass(frozen=True)
class PairedDesign:
    """A pilot of two systems reduced to what the simulation needs.

    Attributes
    ----------
    counts : numpy.ndarray, shape (n_clusters, 2, ...)
        Per-cluster sufficient statistics of system a and system b (the study's count array).
    statistic : callable
        Totals ``(r, 2, ...)`` → ``(r, 2, *out)``: the study's estimator.
    select : tuple
        Index into ``out`` of the metric.
    strata : numpy.ndarray, shape (n_clusters,)
        Stratum of every cluster (fixed-size strata of the design).
    scale : float
        Factor turning the statistic into a share (0.01 for percent).
    label : str
        What is compared, for tables (``"de delta_g: google − aws"``).
    single : bool
        The metric of system a alone (precision of one system); ``counts[:, 1]`` is ignored.
    unit : str
        What a cluster is (``items``, ``lexicon items``, ``clusters``).
    outputs_per_cluster : float
        Mean judgements per cluster (for ``n_outputs`` in the tables).
    """

    counts: np.ndarray
    statistic: Callable[[np.ndarray], np.ndarray]
    select: tuple
    strata: np.ndarray
    scale: float = 1.0
    label: str = ""
    unit: str = "items"
    outputs_per_cluster: float = 1.0
    single: bool = False

    @property
    def n_pilot(self) -> int:
        return int(self.counts.shape[0])

    def difference(self, totals: np.ndarray) -> np.ndarray:
        """The metric's difference a − b for totals ``(r, D)`` (flattened), shape ``(r,)``."""
        shape = self.counts.shape[1:]
        out = np.asarray(self.statistic(totals.reshape((totals.shape[0], *shape))), dtype=float)
        first = out[(slice(None), 0, *self.select)]
        # A single system's metric (its precision): the second system is a copy and is not subtracted.
        return self.scale * (first if self.single else first - out[(slice(None), 1, *self.select)])

    @property
    def observed(self) -> float:
        """The pilot's own difference."""
        return float(self.difference(self.counts.reshape(self.n_pilot, -1).sum(axis=0)[None])[0])


@dataclass(frozen=True)
class _Pattern:
    rows: np.ndarray  # (K, D) distinct cluster rows of a stratum
    probs: np.ndarray  # (K,) their shares in the pilot
    size: int  # clusters of the stratum in the pilot


def _patterns(design: PairedDesign) -> list[_Pattern]:
    flat = design.counts.reshape(design.n_pilot, -1).astype(float)
    out = []
    for label in np.unique(design.strata):
        rows, counts = np.unique(flat[design.strata == label], axis=0, return_counts=True)
        out.append(_Pattern(rows, counts / counts.sum(), int(counts.sum())))
    return out


def allocate(n: int, sizes) -> np.ndarray:
    """Split ``n`` clusters over strata in proportion to ``sizes`` (largest remainders; at least one each).

    Examples
    --------
    >>> allocate(10, [50, 30, 20]).tolist()
    [5, 3, 2]
    """
    sizes = np.asarray(sizes, float)
    if n < len(sizes):
        raise UsageError(f"n = {n} is below the design's {len(sizes)} strata: every stratum needs a cluster.")
    share = sizes / sizes.sum() * n
    alloc = np.maximum(np.floor(share).astype(int), 1)
    while alloc.sum() > n:  # the minimum of one took too many: take from the most over-allocated stratum above one
        over = np.where(alloc > 1, alloc - share, -np.inf)
        alloc[np.argmax(over)] -= 1
    rest = n - alloc.sum()
    if rest:
        alloc[np.argsort(-(share - alloc), kind="stable")[:rest]] += 1
    return alloc


def _draw(patterns: list[_Pattern], alloc: np.ndarray, n_sim: int, rng: np.random.Generator) -> list[np.ndarray]:
    return [rng.multinomial(int(a), p.probs, size=n_sim) for p, a in zip(patterns, alloc, strict=True)]


def _totals(draws: list[np.ndarray], patterns: list[_Pattern]) -> np.ndarray:
    return sum(m @ p.rows for m, p in zip(draws, patterns, strict=True))


def _gradient(design: PairedDesign, totals: np.ndarray) -> np.ndarray:
    """∂(difference)/∂(totals) per simulated evaluation, central differences, shape ``(r, D)``."""
    r, dim = totals.shape
    step = 1e-5 * np.maximum(np.abs(totals), 1.0)  # (r, D)
    eye = np.eye(dim)
    up = (totals[:, None, :] + eye * step[:, None, :]).reshape(r * dim, dim)
    down = (totals[:, None, :] - eye * step[:, None, :]).reshape(r * dim, dim)
    return (design.difference(up) - design.difference(down)).reshape(r, dim) / (2.0 * step)


def wald_se(design: PairedDesign, draws: list[np.ndarray], patterns: list[_Pattern], totals: np.ndarray) -> np.ndarray:
    """Linearised standard error of the difference in each simulated evaluation (stratified), shape ``(r,)``."""
    g = _gradient(design, totals)
    var = np.zeros(totals.shape[0])
    for m, p in zip(draws, patterns, strict=True):
        u = p.rows @ g.T  # (K, r): influence of each pattern in each evaluation
        n_h = m.sum(axis=1)
        s1 = np.einsum("rk,kr->r", m, u)
        s2 = np.einsum("rk,kr->r", m, u**2)
        within = s2 - s1**2 / np.maximum(n_h, 1)
        # Clusters all alike leave rounding (1e-19 of s2), not variance: exactly 0, so that no spread is seen as none.
        var += np.where(within > 1e-12 * s2, within, 0.0)
    return np.sqrt(var)


def _inner_bootstrap(
    design: PairedDesign, draws: list[np.ndarray], patterns: list[_Pattern], n_boot: int, rng: np.random.Generator
) -> np.ndarray:
    """Paired bootstrap replicates of the difference for every simulated evaluation, shape ``(n_boot, r)``."""
    r = draws[0].shape[0]
    dim = patterns[0].rows.shape[1]
    widest = max(max(p.rows.shape[0], int(m.sum(axis=1).max())) for m, p in zip(draws, patterns, strict=True))
    chunk = max(1, min(r, _CHUNK_CELLS // max(1, n_boot * widest)))
    out = np.empty((n_boot, r))
    for first in range(0, r, chunk):
        sl = slice(first, min(r, first + chunk))
        c = sl.stop - sl.start
        totals = np.zeros((n_boot, c, dim))
        for m, p in zip(draws, patterns, strict=True):
            m = m[sl]
            n_h = int(m[0].sum())
            k = p.rows.shape[0]
            if k <= _MULTINOMIAL_PATTERNS:
                inner = rng.multinomial(n_h, m / n_h, size=(n_boot, c))  # (B, c, K)
            else:
                # Many distinct clusters: draw positions among each evaluation's n_h clusters and count patterns.
                members = np.repeat(np.tile(np.arange(k), c), m.ravel()).reshape(c, n_h)
                pos = rng.integers(0, n_h, size=(n_boot, c, n_h))
                picked = np.take_along_axis(np.broadcast_to(members, (n_boot, c, n_h)), pos, axis=2)
                offset = (np.arange(n_boot * c) * k).reshape(n_boot, c, 1)
                inner = np.bincount((picked + offset).ravel(), minlength=n_boot * c * k).reshape(n_boot, c, k)
            totals += inner @ p.rows
        out[:, sl] = design.difference(totals.reshape(n_boot * c, dim)).reshape(n_boot, c)
    return out


@dataclass(frozen=True)
class Simulation:
    """Simulated evaluations of one size: the statistic, and what each test needs to decide at any shift.

    ``power(differences)`` is vectorised over the true differences.
    """

    design: PairedDesign
    n: int
    estimates: np.ndarray  # (r,) the difference in each simulated evaluation (pilot world)
    se: np.ndarray | None  # (r,) Wald standard errors
    replicates: np.ndarray | None  # (B, r) inner bootstrap replicates
    test: str
    alpha: float
    alternative: str
    margin: float | None = None  # equivalence within ±margin (TOST) instead of a test of no difference

    @property
    def n_sim(self) -> int:
        return int(self.estimates.shape[0])

    def reject(self, difference: float) -> np.ndarray:
        """Which simulated evaluations reject ``H0: no difference`` when the true difference is ``difference``."""
        shift = float(difference) - self.design.observed
        est = self.estimates + shift
        if self.margin is not None:
            return self._equivalent(est, shift)
        if self.test == "wald":
            z = z_alpha(self.alpha, self.alternative)
            # No spread (se = 0: every cluster of a few alike) is no evidence: the variance is not estimated, so
            # the evaluation does not reject (taken as certain, two clusters of 0s "detected" any difference).
            t = np.divide(est, self.se, out=np.zeros_like(est), where=self.se > 0)  # NaN se: 0; NaN estimate: NaN
            if self.alternative == "two-sided":
                return np.abs(t) > z
            return (t if self.alternative == "greater" else -t) > z
        d = self.replicates + shift
        # As for the Wald test: replicates with no spread (every resampled cluster alike) do not reject.
        spread = np.fmax.reduce(self.replicates, axis=0) > np.fmin.reduce(self.replicates, axis=0)  # all-NaN: False
        valid = np.sum(~np.isnan(d), axis=0)
        below = (np.sum(d <= 0, axis=0) + 1.0) / (valid + 1.0)
        above = (np.sum(d >= 0, axis=0) + 1.0) / (valid + 1.0)
        if self.alternative == "two-sided":
            p = np.minimum(1.0, 2.0 * np.minimum(below, above))
        else:  # one-sided: "greater" rejects for large differences, "less" for small ones
            p = below if self.alternative == "greater" else above
        return (p <= self.alpha) & ~np.isnan(est) & spread

    def _equivalent(self, est: np.ndarray, shift: float) -> np.ndarray:
        """Which simulated evaluations show equivalence within ±margin (or non-inferiority, one-sided): the study's
        TOST — Wald, or the one-sided percentile bootstrap tests at the margins (the (1 − 2α) percentile interval
        inside them)."""
        m = float(self.margin)
        if self.test == "wald":
            z = float(special.ndtri(1.0 - self.alpha))
            ok = self.se > 0  # no spread is no evidence, as for the test of no difference
            lower = np.divide(est + m, self.se, out=np.zeros_like(est), where=ok) > z
            upper = np.divide(m - est, self.se, out=np.zeros_like(est), where=ok) > z
        else:
            d = self.replicates + shift
            ok = np.fmax.reduce(self.replicates, axis=0) > np.fmin.reduce(self.replicates, axis=0)
            valid = np.sum(~np.isnan(d), axis=0)
            lower = (np.sum(d <= -m, axis=0) + 1.0) / (valid + 1.0) <= self.alpha
            upper = (np.sum(d >= m, axis=0) + 1.0) / (valid + 1.0) <= self.alpha
        shown = {"two-sided": lower & upper, "greater": lower, "less": upper}[self.alternative]
        return shown & ok & ~np.isnan(est)

    def power(self, differences) -> np.ndarray:
        """Simulated power at each true difference (same evaluations for all: smooth in δ)."""
        diffs = np.atleast_1d(np.asarray(differences, float))
        return np.array([self.reject(d).mean() for d in diffs])

    def half_width(self, level: float = _defaults.LEVEL) -> float:
        """Mean half-width of the interval at ``level`` over the simulated evaluations.

        Bootstrap: the percentile interval of each evaluation's replicates (what
        the study reports); Wald: ``z · se``.
        """
        if self.test == "wald":
            return float(np.nanmean(special.ndtri(0.5 + level / 2.0) * self.se))

        tail_resolution(self.replicates.shape[0], level)
        alpha = (1.0 - level) / 2.0
        low, high = np.nanquantile(self.replicates, [alpha, 1.0 - alpha], axis=0)
        return float(np.nanmean((high - low) / 2.0))

    def mde(self, power: float = _defaults.POWER) -> float:
        """Smallest ``|δ|`` whose simulated power reaches ``power``: two-sided, in either direction (the smaller);
        one-sided, in the tested direction (δ > 0 for ``"greater"``, δ < 0 for ``"less"``)."""
        power = _check_power(power)
        spread = float(np.nanstd(self.estimates)) or 1e-6
        grid = np.linspace(0.0, 8.0 * spread, 321)[1:]
        if self.alternative == "two-sided":
            both = np.minimum(self.power(grid), self.power(-grid))
        else:  # a one-sided test has (almost) no power the other way: that direction is not planned for
            both = self.power(grid if self.alternative == "greater" else -grid)
        hit = np.flatnonzero(both >= power)
        if not len(hit):
            return float("nan")
        i = int(hit[0])
        if i == 0:
            return float(grid[0])
        # linear interpolation between the grid points around the crossing
        x0, x1, y0, y1 = grid[i - 1], grid[i], both[i - 1], both[i]
        return float(x0 + (power - y0) * (x1 - x0) / (y1 - y0)) if y1 > y0 else float(x1)


def simulate(
    design: PairedDesign,
    n: int,
    *,
    n_sim: int = 1000,
    rng: np.random.Generator | int,
    test: str = "bootstrap",
    n_boot: int = 500,
    alpha: float = _defaults.ALPHA,
    alternative: str = "two-sided",
    margin: float | None = None,
) -> Simulation:
    """Simulate ``n_sim`` evaluations of ``n`` clusters from the pilot and prepare the study's test on each.

    Parameters
    ----------
    design : PairedDesign
        The pilot (two systems on the same clusters) and the study's estimator.
    n : int
        Clusters per simulated evaluation.
    n_sim : int
        Simulated evaluations (Monte-Carlo error of a power p: √(p(1−p)/n_sim)).
    rng : Generator or int
        Source of every random number (keyword-only).
    test : {"bootstrap", "wald"}
        The study's paired bootstrap with ``n_boot`` resamples, or the linearised Wald test.
    n_boot : int
        Resamples of the bootstrap test inside every simulated evaluation.
    alpha : float
        Level of the test.
    alternative : {"two-sided", "less", "greater"}
    margin : float, optional
        Simulate the equivalence test (TOST) within ±margin instead of the test of no difference
        (one-sided ``alternative``: non-inferiority, ``greater`` showing Δ > −margin).
    """
    n = check_positive_int(n, "n")
    n_sim = check_positive_int(n_sim, "n_sim", minimum=10)
    check_choice(test, TESTS, "test")
    alternative = check_alternative(alternative)
    alpha = _check_alpha(alpha)
    rng = check_rng(rng)
    patterns = _patterns(design)
    alloc = allocate(n, [p.size for p in patterns])
    draws = _draw(patterns, alloc, n_sim, rng)
    totals = _totals(draws, patterns)
    estimates = design.difference(totals)
    se = replicates = None
    if test == "wald":
        se = wald_se(design, draws, patterns, totals)
    else:
        n_boot = check_positive_int(n_boot, "n_boot", minimum=int(np.ceil(2 / alpha)))
        replicates = _inner_bootstrap(design, draws, patterns, n_boot, rng)
    return Simulation(design, n, estimates, se, replicates, test, alpha, alternative, margin)


def sample_size(
    design: PairedDesign,
    difference: float,
    *,
    power: float = _defaults.POWER,
    n_sim: int = 1000,
    rng: np.random.Generator | int,
    test: str = "bootstrap",
    n_boot: int = 500,
    alpha: float = _defaults.ALPHA,
    alternative: str = "two-sided",
    margin: float | None = None,
) -> tuple[int, Simulation, list[tuple[int, float]]]:
    """Clusters needed for ``power`` at ``difference``, by simulation.

    A first batch at the pilot's size gives the difference's spread and, scaled
    by 1/√n, a first guess; the power is then simulated on four sizes around it
    and ``Φ⁻¹(power)`` — linear in √n for an asymptotically normal test — is
    fitted by least squares and solved for the target. The answer is checked by
    a batch at the solved n (its simulated power is returned); where that falls
    short (a test on a few clusters is not smooth in n), the answer is the first
    size from there whose batch reaches the power, within 2% (bisected up to a
    size that did, or stepped up by a quarter until one does). Where every size
    around the guess already has the power, smaller ones are tried, halving.
    Two clusters in every stratum at least: an evaluation whose clusters are all
    alike has no spread and does not reject.

    Returns
    -------
    (n, simulation at n, [(n, power) of every batch, in order])
    """
    power = _check_power(power)
    if difference == 0 and margin is None:
        raise UsageError("`difference` must be non-zero: no sample size detects a difference of 0.")
    rng = check_rng(rng)
    kw = dict(n_sim=n_sim, rng=rng, alpha=alpha, alternative=alternative)
    if margin is not None:  # only then: a test of no difference calls simulate() as it always did
        kw["margin"] = margin
    first = simulate(design, design.n_pilot, test="wald", **kw)
    spread = float(np.nanstd(first.estimates))
    if not spread > 0:
        raise UsageError(f"{design.label}: the pilot's difference has no sampling variance; nothing to plan.")
    if margin is None:
        z_total = z_alpha(alpha, alternative) + float(special.ndtri(power))
        guess = design.n_pilot * (z_total * spread / abs(difference)) ** 2
    else:  # TOST: the distance to the nearer margin; at 0 both tests must reject (each with √power, about)
        room = {"two-sided": margin - abs(difference), "greater": margin + difference, "less": margin - difference}[alternative]
        if not room > 0:
            raise UsageError(f"no sample size shows equivalence within ±{margin:g} of a true difference {difference:g}.")
        beta = float(special.ndtri((1 + power) / 2 if alternative == "two-sided" and difference == 0 else power))
        guess = design.n_pilot * ((float(special.ndtri(1 - alpha)) + beta) * spread / room) ** 2
    # Two clusters in every stratum at least (as `allocate` splits them): one adds no spread to see.
    stratum_sizes = [p.size for p in _patterns(design)]
    least = 2 * len(stratum_sizes)
    while allocate(least, stratum_sizes).min() < 2:
        least += 1
    sizes = sorted({max(least, round(guess * f)) for f in (0.6, 0.85, 1.15, 1.5)})
    while len(sizes) < 3:  # a guess at the floor: sizes above it, so that the power's growth can be fitted
        sizes.append(2 * sizes[-1])
    trace: list[tuple[int, float]] = []
    runs: dict[int, Simulation] = {}

    def batch(size: int) -> float:
        runs[size] = simulate(design, size, test=test, n_boot=n_boot, **kw)
        trace.append((size, float(runs[size].power(difference)[0])))
        return trace[-1][1]

    for size in sizes:
        batch(size)
    # Every size tried already has the power (a difference far beyond the guess): halve the smallest until the
    # power falls short, or the least size (two clusters per stratum) has it: then that is the answer.
    size = sizes[0]
    while min(p for _, p in trace) >= power and size > least:
        size = max(least, size // 2)
        batch(size)
    if min(p for _, p in trace) >= power:
        return least, runs[least], trace
    xs = np.sqrt([s for s, _ in trace])
    ps = np.clip([p for _, p in trace], 0.5 / n_sim, 1 - 0.5 / n_sim)
    probits = special.ndtri(ps)
    slope, intercept = np.polyfit(xs, probits, 1)  # three sizes or more (padded above)
    # A flat power curve over several sizes fits a round-off slope (±1e-16) of either sign: it does not grow either.
    if not slope > 0 or np.ptp(probits) == 0:
        raise UsageError(
            f"{design.label}: the simulated power does not grow with n near {int(guess)}; "
            "give more n_sim or check the difference."
        )
    n = max(least, int(np.ceil(((special.ndtri(power) - intercept) / slope) ** 2)))
    if batch(n) >= power:
        return n, runs[n], trace
    # The check at n falls short (a test on few clusters whose power is not smooth in n): the answer is the first
    # size, from n up, whose batch reaches the power, between n and the smallest larger size that did.
    low, high = n, min((s for s, p in trace if p >= power and s > n), default=None)
    steps = 0
    while high is None:
        steps += 1
        if steps > 8:
            raise UsageError(
                f"{design.label}: the simulated power stays below {power} from n = {n} to {low}; "
                "give more n_sim or check the difference."
            )
        step = int(np.ceil(low * 1.25))  # at least one more, as low >= 2
        if batch(step) >= power:
            high = step
        else:
            low = step
    while high - low > max(1, int(0.02 * high)):
        mid = (low + high) // 2
        if batch(mid) >= power:
            high = mid
        else:
            low = mid
    return high, runs[high], trace

"""Metrics declared once, and the engine that gives every declared metric its estimate, intervals and comparisons.

sacrebleu's shape (per-item sufficient statistics → a statistic of their sums) with scipy's conventions:

- a :class:`Metric` is declared once: its name, the cells of the count cube it reads (a numerator and a
  denominator: a share is a ratio of weighted sums of cells), its unknown cells (counted in ``n_unknown``), its
  few-events rule (``events``) and its kind: a ``share`` (a ratio), or a ``gap`` of two declared shares
  (``parts``: the first minus the second);
- :class:`MetricSet` compiles the metrics a cube can feed (those whose cells it has) against the cube's cell names,
  and derives from the one declaration, for every metric alike:

  - the statistic, vectorised over replicates (:meth:`MetricSet.statistic`: ``(..., cells) → (..., metrics)``);
  - its linearisation per cluster (:meth:`MetricSet.influence`), hence the cluster-robust variance;
  - analytic bounds (:meth:`MetricSet.score_bounds`): a share's Wilson (or Jeffreys, Clopper–Pearson) interval on
    the effective sample size (cluster design effect); a gap of two shares of one denominator (two shares of one
    multinomial: ``male − female``) a cluster-robust normal interval, with the MOVER of its parts where that would
    be a point; a gap of two shares of different denominators (two accuracies) the MOVER of its parts' intervals
    coupled by their cluster-robust correlation;
  - estimates with the cluster bootstrap or analytic intervals (:meth:`MetricSet.intervals`), the score interval
    standing in where the bootstrap's is a point or rests on few events;
  - paired differences of two systems on one set of clusters (:meth:`MetricSet.paired`), bootstrap or
    cluster-robust, never a point interval where there are outputs;
  - the counts of each metric (:attr:`MetricSet.identified`, :attr:`MetricSet.unknown`) for ``n``, ``n_outputs``,
    ``n_unknown`` and a power pilot.

Adding a metric is one declaration: ``Metric("female_of_gendered", {"female": 1}, ("female", "male"),
unknown=("neutral", "both", "unknown"))`` has all of the above with no other edit.

Counts are arrays ``(clusters, systems, groups, cells)``; a row may stand for ``frequency`` identical clusters.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import numpy as np
from scipy import special

from stats_mtbias.errors import UsageError
from stats_mtbias.stats.resampling import resample_pvalue
from stats_mtbias.uncertainty.analytic import FEW_EVENTS, mover_interval, proportion_interval
from stats_mtbias.uncertainty.bootstrap import BootstrapResult, cluster_bootstrap
from stats_mtbias.uncertainty.linearization import ratio_influence, robust_variance, weighted_sum

KINDS = ("share", "gap")
IDENTIFIED = ("female", "male", "neutral", "both")
GOLDS = ("female", "male", "neutral")
# With a gold column, per gold gender its correct, identified and unknown outputs follow the five genders.
GOLD_CELLS = tuple(f"{kind}:{gold}" for gold in GOLDS for kind in ("correct", "identified", "unknown"))


@dataclass(frozen=True)
class Metric:
    """One metric, declared once: the engine derives its statistic, intervals, comparisons and counts.

    Parameters
    ----------
    name : str
        The metric's name in the tables (``metric`` column).
    numerator : mapping of str to float
        Weights of the cells summed in the share's numerator (a share's own outputs).
    denominator : tuple of str
        The cells summed in its denominator: its identified outputs (``n_outputs``; a cluster with one is counted
        in ``n``).
    unknown : tuple of str
        The cells of its unknown outputs (``n_unknown``: counted, left out of the share).
    parts : (str, str), optional
        A gap: ``parts[0] − parts[1]`` of two declared shares (then `numerator` and `denominator` are derived).
    events : bool
        Few events are also read on the raw counts (at most ``FEW_EVENTS`` outputs in or out of the share: an
        accuracy with few errors), besides the effective minority count every share has; the bootstrap gives way
        to the score interval there.
    description : str
        One line for the docs.

    Examples
    --------
    >>> Metric("female", {"female": 1}, IDENTIFIED, unknown=("unknown",)).kind
    'share'
    >>> Metric("gap", parts=("male", "female")).kind
    'gap'
    """

    name: str
    numerator: Mapping[str, float] = field(default_factory=dict)
    denominator: tuple[str, ...] = ()
    unknown: tuple[str, ...] = ()
    parts: tuple[str, str] | None = None
    events: bool = False
    description: str = ""

    @property
    def kind(self) -> str:
        """``"share"`` (a ratio of weighted sums of cells) or ``"gap"`` (a difference of two declared shares)."""
        return "gap" if self.parts else "share"

    def __post_init__(self):
        if self.parts is None and (not self.numerator or not self.denominator):
            raise UsageError(f"metric {self.name!r}: a share needs a numerator and a denominator (or `parts`: a gap).")
        if self.parts is not None and len(self.parts) != 2:
            raise UsageError(f"metric {self.name!r}: a gap has two parts (first − second); got {self.parts!r}.")


def _share(name: str, cell: str | tuple[str, ...], description: str) -> Metric:
    cells = (cell,) if isinstance(cell, str) else cell
    return Metric(name, dict.fromkeys(cells, 1.0), IDENTIFIED, unknown=("unknown",), description=description)


def _accuracy(name: str, golds: tuple[str, ...], description: str) -> Metric:
    return Metric(
        name,
        {f"correct:{g}": 1.0 for g in golds},
        tuple(f"identified:{g}" for g in golds),
        unknown=tuple(f"unknown:{g}" for g in golds),
        events=True,
        description=description,
    )


# The metrics of ``smb.rates``, in the order of its tables; the accuracies where the cube has gold cells.
RATES = (
    _share("female", "female", "share of the identified outputs that are female"),
    _share("male", "male", "share of the identified outputs that are male"),
    _share("neutral", ("neutral", "both"), "share of the identified outputs that are neutral (both counted as neutral)"),
    Metric("gap", parts=("male", "female"), description="male − female: the male-default gap (0: balance)"),
    _accuracy("accuracy", GOLDS, "share of the identified outputs of the gold gender"),
    _accuracy("accuracy_female", ("female",), "accuracy over the items of gold gender female"),
    _accuracy("accuracy_male", ("male",), "accuracy over the items of gold gender male"),
    Metric("accuracy_gap", parts=("accuracy_male", "accuracy_female"), description="accuracy_male − accuracy_female"),
)


def _vector(weights: Mapping[str, float] | Iterable[str], cells: tuple[str, ...]) -> np.ndarray:
    weights = weights if isinstance(weights, Mapping) else dict.fromkeys(weights, 1.0)
    out = np.zeros(len(cells))
    for cell, w in weights.items():
        out[cells.index(cell)] += w
    return out


class MetricSet:
    """The metrics a count cube can feed, compiled against its cells: the engine of every declared metric.

    Parameters
    ----------
    metrics : iterable of Metric
        The declared metrics (a gap's parts declared before it); those reading a cell the cube lacks are left out
        (the accuracies without gold cells).
    cells : tuple of str
        The names of the cube's last axis.

    Examples
    --------
    >>> engine = MetricSet(RATES, ("female", "male", "neutral", "both", "unknown"))
    >>> engine.names
    ('female', 'male', 'neutral', 'gap')
    >>> engine.statistic(np.array([3.0, 1.0, 0.0, 0.0, 2.0])).tolist()
    [0.75, 0.25, 0.0, -0.5]
    """

    def __init__(self, metrics: Iterable[Metric], cells: tuple[str, ...] | list[str]):
        self.cells = tuple(cells)
        declared = {m.name: m for m in metrics}
        kept: dict[str, Metric] = {}
        for m in declared.values():
            if m.parts is not None:
                missing = [p for p in m.parts if p not in declared]
                if missing:
                    raise UsageError(f"metric {m.name!r}: its parts {missing} are not declared.")
                if all(p in kept for p in m.parts):
                    kept[m.name] = m
            elif set(m.numerator) | set(m.denominator) | set(m.unknown) <= set(self.cells):
                kept[m.name] = m
        self.metrics = tuple(kept.values())
        self.names = tuple(kept)
        k, c = len(self.metrics), len(self.cells)
        self.num, self.den = np.zeros((k, c)), np.zeros((k, c))
        #: ``(metrics, cells)``: the cells of each metric's identified (denominator) and unknown outputs.
        self.identified, self.unknown = np.zeros((k, c)), np.zeros((k, c))
        self.parts: dict[int, tuple[int, int]] = {}  # a gap: its two parts' positions
        self.apart = np.zeros(k, dtype=bool)  # a gap of two denominators: a difference of two ratios
        self.events = np.zeros(k, dtype=bool)
        for i, m in enumerate(self.metrics):
            if m.parts is None:
                self.num[i], self.den[i] = _vector(m.numerator, self.cells), _vector(m.denominator, self.cells)
                self.identified[i] = self.den[i]
                self.unknown[i] = _vector(m.unknown, self.cells)
                self.events[i] = m.events
                continue
            a, b = (self.names.index(p) for p in m.parts)
            self.parts[i] = (a, b)
            self.identified[i] = np.maximum(self.identified[a], self.identified[b])
            self.unknown[i] = np.maximum(self.unknown[a], self.unknown[b])
            if np.array_equal(self.den[a], self.den[b]):  # two shares of one multinomial: one signed ratio
                self.num[i], self.den[i] = self.num[a] - self.num[b], self.den[a]
            else:
                self.apart[i] = True
        #: The half-width of the range of a paired difference of two systems: 1 for a share, 2 for a gap.
        self.reach = np.array([2.0 if m.parts else 1.0 for m in self.metrics])

    def __len__(self) -> int:
        return len(self.metrics)

    def index(self, name: str) -> int:
        """The position of metric `name`; an unknown name is an error listing the metrics."""
        if name not in self.names:
            raise UsageError(f"metric {name!r}: the metrics here are {', '.join(self.names)}.")
        return self.names.index(name)

    # ---------------------------------------------------------------- the statistic

    def statistic(self, totals: np.ndarray, axis: int = -1) -> np.ndarray:
        """Every metric of summed counts: `axis` (the cells) becomes the metrics, last; vectorised over the rest."""
        totals = np.moveaxis(np.asarray(totals, dtype=float), axis, -1)
        num, den = totals @ self.num.T, totals @ self.den.T
        with np.errstate(invalid="ignore", divide="ignore"):
            out = np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)
        for i in np.flatnonzero(self.apart):
            a, b = self.parts[i]
            out[..., i] = out[..., a] - out[..., b]
        return out

    __call__ = statistic

    def estimate(self, counts: np.ndarray, frequency: np.ndarray | None = None) -> np.ndarray:
        """``(systems, groups, metrics)`` of counts ``(clusters, systems, groups, cells)``."""
        return self.statistic(weighted_sum(counts, frequency)[None])[0]

    def linear_parts(self, counts: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """Per-cluster numerator ``y`` and denominator ``m`` of ratio metric `k` (not a gap of two denominators)."""
        cells = np.asarray(counts, dtype=float)
        return cells @ self.num[k], cells @ self.den[k]

    def influence(self, counts: np.ndarray, k: int, estimate: np.ndarray, frequency: np.ndarray | None = None) -> np.ndarray:
        """Per-cluster linearised values of metric `k` (`estimate` ``(..., metrics)``): a ratio's, or for a gap of
        two denominators its first part's minus its second's."""
        if self.apart[k]:
            a, b = self.parts[k]
            return self.influence(counts, a, estimate, frequency) - self.influence(counts, b, estimate, frequency)
        y, m = self.linear_parts(counts, k)
        return ratio_influence(y, m, estimate[..., k], frequency)

    def few_counts(self, totals: np.ndarray) -> np.ndarray:
        """``(..., metrics)``: a share declared with ``events`` that has at most ``FEW_EVENTS`` outputs in or out of
        it (a gap: either part); False elsewhere."""
        totals = np.asarray(totals, dtype=float)
        right, identified = totals @ self.num.T, totals @ self.den.T
        few = (identified > 0) & (np.minimum(right, identified - right) <= FEW_EVENTS) & self.events
        for i, (a, b) in self.parts.items():
            few[..., i] = few[..., a] | few[..., b]
        return few

    # ---------------------------------------------------------------- analytic intervals

    def design_effects(self, counts, estimate, strata_codes, frequency, samples=False, worst_case=False):
        """``(deff, se)`` of every metric ``(..., metrics)``: the cluster-robust standard error and, for a share, the
        design effect its analytic interval divides its counts by (NaN for a gap).

        The design effect is the cluster-robust over the binomial variance ``p (1 − p) / n``, floored at 1; with
        `samples` (clusters' samples averaged) not floored — duplicated samples must not count as information —
        except where the effective minority count ``min(p, 1 − p) · n / deff`` is at most ``FEW_EVENTS``.
        `worst_case` (Prates' rule, :func:`~stats_mtbias.uncertainty.analytic.design_effect` and
        :func:`~stats_mtbias.stats.proportions.sample_design_effect`): 1 where every cluster holds at most one
        output; at a share of 0 or 1, or with few effective events, at least the mean outputs per cluster (the worst
        case: a cluster's outputs as one).
        """
        deffs, ses = np.full(estimate.shape, np.nan), np.full(estimate.shape, np.nan)
        for k in range(estimate.shape[-1]):
            if self.apart[k]:
                continue
            y, m = self.linear_parts(counts, k)
            se = np.sqrt(robust_variance(ratio_influence(y, m, estimate[..., k], frequency), strata_codes, frequency))
            ses[..., k] = se
            if k in self.parts:
                continue
            n = weighted_sum(m, frequency)
            p = estimate[..., k]
            with np.errstate(invalid="ignore", divide="ignore"):
                deff = np.where((n > 0) & (p > 0) & (p < 1), se**2 / (p * (1 - p) / n), 1.0)
            deff = np.nan_to_num(deff, nan=1.0)
            if worst_case:
                deff = _worst_case(deff, m, p, n, frequency, samples)
            elif samples:  # no floor (duplicated samples must not count), but the worst case with few events
                deff = np.where(deff > 0, deff, 1.0)
                with np.errstate(invalid="ignore", divide="ignore"):
                    few = np.minimum(p, 1 - p) * n / deff <= FEW_EVENTS
                deff = np.where(few, np.maximum(deff, 1.0), deff)
            else:
                deff = np.maximum(deff, 1.0)
            deffs[..., k] = deff
        return deffs, ses

    def score_bounds(self, counts, estimate, strata_codes, frequency, level, samples=False, method="wilson", worst_case=False):
        """Analytic bounds of every metric; returns ``(low, high, few)``.

        A share: `method` (Wilson by default) on the design-effect sample (:meth:`design_effects`). A gap of two
        shares of one denominator: cluster-robust normal clipped to [−1, 1], or where that is a point (a gap of ±1)
        the MOVER of its two shares' bounds with their multinomial correlation. A gap of two denominators: the MOVER of its parts
        coupled by their cluster-robust correlation (:meth:`_mover_apart`). `few` marks the shares whose effective
        minority count (``min(p, 1 − p) · n / deff``) is at most ``FEW_EVENTS`` (never a gap).
        """
        z = special.ndtri(0.5 + level / 2)
        low, high = np.full(estimate.shape, np.nan), np.full(estimate.shape, np.nan)
        few_events = np.zeros(estimate.shape, dtype=bool)
        deffs, ses = self.design_effects(counts, estimate, strata_codes, frequency, samples, worst_case)
        for k in range(estimate.shape[-1]):
            if self.apart[k]:  # the MOVER of its two parts, below
                continue
            if k in self.parts:
                # A gap of two shares lies in [−1, 1]; its Wald interval on few clusters can overrun that.
                low[..., k] = np.maximum(estimate[..., k] - z * ses[..., k], -1.0)
                high[..., k] = np.minimum(estimate[..., k] + z * ses[..., k], 1.0)
                continue
            y, m = self.linear_parts(counts, k)
            n, p, deff = weighted_sum(m, frequency), estimate[..., k], deffs[..., k]
            interval_ = proportion_interval(weighted_sum(y, frequency), n, level=level, method=method, deff=deff)
            low[..., k], high[..., k] = interval_.low, interval_.high
            with np.errstate(invalid="ignore", divide="ignore"):
                few_events[..., k] = (n > 0) & (np.minimum(p, 1 - p) * n / deff <= FEW_EVENTS)
        for k, (a, b) in self.parts.items():
            if self.apart[k]:
                low[..., k], high[..., k] = self._mover_apart(counts, estimate, low, high, strata_codes, frequency, a, b)
            else:
                low[..., k], high[..., k] = self._mover_multinomial(estimate, low, high, k, a, b)
        return low, high, few_events

    @staticmethod
    def _mover_multinomial(estimate, low, high, k, a, b):
        """Where a gap's normal interval is a point, the MOVER of its two shares' bounds (two shares of one
        multinomial: correlation ``−√(p_a p_b / ((1 − p_a)(1 − p_b)))``, −1 without a third outcome)."""
        g_low, g_high = low[..., k], high[..., k]
        point = ~(g_high > g_low) & ~np.isnan(estimate[..., k])
        if not np.any(point):
            return g_low, g_high
        pa, pb = estimate[..., a], estimate[..., b]
        with np.errstate(invalid="ignore", divide="ignore"):
            r = -np.sqrt(pa * pb / ((1 - pa) * (1 - pb)))
        # Without a third outcome the gap is 2 p_a − 1: the two shares move together exactly (correlation −1).
        r = np.where(pa + pb >= 1 - 1e-12, -1.0, np.where(np.isfinite(r), r, 0.0))
        corr = np.zeros((*pa.shape, 2, 2))
        corr[..., 0, 0] = corr[..., 1, 1] = 1.0
        corr[..., 0, 1] = corr[..., 1, 0] = r
        moved = mover_interval(
            np.stack([pa, pb], -1),
            np.stack([low[..., a], low[..., b]], -1),
            np.stack([high[..., a], high[..., b]], -1),
            np.array([1.0, -1.0]),
            corr,
        )
        return np.where(point, np.maximum(moved.low, -1.0), g_low), np.where(point, np.minimum(moved.high, 1.0), g_high)

    def _mover_apart(self, counts, estimate, low, high, strata_codes, frequency, a, b):
        """MOVER bounds of ``part_a − part_b`` (two ratios over different items: two accuracies) from the parts'
        bounds (Newcombe's square and add, Zou & Donner 2008), coupled by their cluster-robust correlation: 0 where
        the parts lie in different clusters, positive where a cluster holds both (a counterfactual pair). Near 0
        and 1 the parts' asymmetric bounds carry into the gap, which a normal interval would lose."""
        u_a, u_b = (self.influence(counts, k, estimate, frequency) for k in (a, b))
        var_a, var_b = robust_variance(u_a, strata_codes, frequency), robust_variance(u_b, strata_codes, frequency)
        cov = (robust_variance(u_a + u_b, strata_codes, frequency) - var_a - var_b) / 2
        with np.errstate(invalid="ignore", divide="ignore"):
            r = cov / np.sqrt(var_a * var_b)
        r = np.clip(np.where(np.isfinite(r), r, 0.0), -1.0, 1.0)
        corr = np.zeros((*r.shape, 2, 2))
        corr[..., 0, 0] = corr[..., 1, 1] = 1.0
        corr[..., 0, 1] = corr[..., 1, 0] = r
        parts = [a, b]
        moved = mover_interval(estimate[..., parts], low[..., parts], high[..., parts], np.array([1.0, -1.0]), corr)
        return np.maximum(moved.low, -1.0), np.minimum(moved.high, 1.0)

    # ---------------------------------------------------------------- estimates with intervals

    def intervals(self, counts, strata_codes, frequency, *, level, interval, n_boot, rng, samples=False):
        """``(estimate, low, high, boot)`` of every system, group and metric.

        `counts` ``(clusters, systems, groups, cells)``; `interval` ``"score"`` (:meth:`score_bounds`) or a bootstrap
        interval (``"percentile"``, ``"bca"``); `boot` the cluster bootstrap (None with ``interval="score"``).
        The bootstrap interval gives way to the score interval (:meth:`score_bounds`) where it is a point (a 0% or
        100% share, a gap of ±1: the same in every replicate) and on a share of few effective events (at most
        ``FEW_EVENTS``: the percentile bootstrap's upper tail is short there — 50 items of 3 samples at 5% covered
        0.90, tests/statistical/test_coverage_rates_samples.py), or of few raw events where declared (an accuracy
        with few errors: its percentile interval cannot see the errors it did not draw, 0.84 coverage at 0.98 over
        50 pairs).
        """
        estimate = self.estimate(counts, frequency)  # (systems, groups, metrics)
        score_low, score_high, few = self.score_bounds(counts, estimate, strata_codes, frequency, level, samples)
        if interval == "score":
            return estimate, score_low, score_high, None
        boot = cluster_bootstrap(
            counts, self.statistic, n_boot=n_boot, rng=rng, strata=strata_codes, level=level, method=interval, frequency=frequency
        )
        bounds = boot.confidence_interval()
        few = few | self.few_counts(weighted_sum(counts, frequency))
        point = (~(bounds.high > bounds.low) | few) & ~np.isnan(estimate)
        return estimate, np.where(point, score_low, bounds.low), np.where(point, score_high, bounds.high), boot

    # ---------------------------------------------------------------- paired differences

    def paired(self, counts, a, b, estimate, boot, strata_codes, frequency, present, interval, z, samples=False):
        """The difference a − b of every group and metric with its interval and p-value, from one set of clusters.

        Returns ``(diff, low, high, p_value, method, ci_method, n_both)``, arrays ``(groups, metrics)`` (``n_both``:
        the clusters where both systems have an identified output of the metric; `present` ``(clusters, systems,
        groups, metrics)`` tells where). An interval that would be a point (both systems at 0% or 100%: every
        replicate, every influence the same) is the MOVER of the two systems' score intervals instead — never
        [0, 0] where there are outputs.
        """
        found = self.paired_parts(counts, a, b, estimate, boot, strata_codes, frequency, present, interval, z)
        diff, low, high = found[0], found[1], found[2]
        point = ~(high > low) & ~np.isnan(diff)
        if np.any(point):
            level = float(2 * special.ndtr(z) - 1)
            pair = counts[:, [a, b]]
            s_low, s_high, _ = self.score_bounds(pair, estimate[[a, b]], strata_codes, frequency, level, samples)
            ea, eb = estimate[a], estimate[b]
            # Newcombe's MOVER with the correlation of the paired outputs left out (0): wider than a paired interval.
            m_low = diff - np.sqrt((ea - s_low[0]) ** 2 + (s_high[1] - eb) ** 2)
            m_high = diff + np.sqrt((s_high[0] - ea) ** 2 + (eb - s_low[1]) ** 2)
            low = np.where(point, np.maximum(m_low, -self.reach), low)
            high = np.where(point, np.minimum(m_high, self.reach), high)
        return (diff, low, high, *found[3:])

    def paired_parts(self, counts, a, b, estimate, boot, strata_codes, frequency, present, interval, z):
        """:meth:`paired` before the point intervals are replaced."""
        diff = estimate[a] - estimate[b]
        both = weighted_sum((present[:, a] & present[:, b]).astype(float), frequency)  # (groups, metrics)
        if boot is not None:
            reps = boot.replicates[:, a] - boot.replicates[:, b]
            jack = None if boot.jackknife is None else boot.jackknife[:, a] - boot.jackknife[:, b]
            d_bounds = BootstrapResult(
                diff, reps, jack, boot.level, interval, jackknife_weights=boot.jackknife_weights
            ).confidence_interval()
            pvalue, method = resample_pvalue(reps, diff), "paired bootstrap"
            if interval == "bca":  # the percentile p-value goes with the percentile interval, not BCa's
                method = "paired bootstrap (percentile p-value)"
            return diff, d_bounds.low, d_bounds.high, pvalue, method, f"paired bootstrap ({interval})", both
        se = np.empty(diff.shape)
        for k in range(diff.shape[-1]):
            # The paired difference's influence per cluster: a's minus b's (same clusters).
            u = self.influence(counts[:, a], k, estimate[a], frequency) - self.influence(counts[:, b], k, estimate[b], frequency)
            se[..., k] = np.sqrt(robust_variance(u, strata_codes, frequency))
        with np.errstate(invalid="ignore", divide="ignore"):
            pvalue = np.where(se > 0, 2 * special.ndtr(-np.abs(diff) / se), np.where(diff == 0, 1.0, 0.0))
        method = "cluster-robust normal"
        return diff, diff - z * se, diff + z * se, pvalue, method, method, both

    def present(self, counts: np.ndarray) -> np.ndarray:
        """``(clusters, systems, groups, metrics)``: whether a cluster has an identified output of each metric."""
        return counts @ self.identified.T > 0


def _worst_case(deff, m, p, n, frequency, samples):
    """Prates' design effect (:func:`~stats_mtbias.uncertainty.analytic.design_effect`, and with `samples`
    :func:`~stats_mtbias.stats.proportions.sample_design_effect`) from the robust one `deff` (not floored), vectorised
    over the trailing axes of `m` ``(clusters, ...)``."""
    k = m.shape[0] if frequency is None else float(np.sum(frequency))
    nonzero = weighted_sum((m > 0).astype(float), frequency)
    with np.errstate(invalid="ignore", divide="ignore"):
        worst = n / np.where(nonzero > 0, nonzero, 1.0)
        floored = np.maximum(deff, 1.0)
        few = np.minimum(p, 1 - p) * n / floored <= FEW_EVENTS
        singles = ~np.any(m > 1, axis=0)  # every cluster one output at most: the binomial variance is right
        extreme = ~((p > 0) & (p < 1))
        classic = np.where(
            (k < 2) | (n == 0) | singles, 1.0, np.where(extreme, worst, np.where(few, np.maximum(floored, worst), floored))
        )
        if not samples:
            return classic
        unfloored_few = ~(deff > 0) | (np.minimum(p, 1 - p) * n / deff <= FEW_EVENTS)
    return np.where((k < 2) | (n == 0) | extreme | unfloored_few, classic, deff)

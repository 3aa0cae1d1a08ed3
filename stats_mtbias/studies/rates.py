"""Bring your own benchmark: female, male and neutral shares of any gender judgement table.

Any gender-bias evaluation that reduces to one judgement per (system, item) —
MT-GenEval, MuST-SHE, WinoBias-style LLM prompts, a production log — is counted
into ``cluster × system × group × gender`` and turned into, per system and group
(a combination of the ``by`` columns, plus ``all``):

- ``female``, ``male``, ``neutral``: shares of the identified outputs (``both``
  counts as neutral; ``unknown`` is counted and left out of the denominators);
- ``gap``: ``male − female``, the male-default gap (0: balance);
- with a ``gold`` column (the gender the output should have: MT-GenEval,
  MuST-SHE, Translate-with-Care's reasoning items), ``accuracy``: the share of
  identified outputs whose gender is the gold one (a ``neutral`` or ``both``
  output against a gold female or male is wrong; against a gold ``neutral`` it
  is right; ``unknown`` is counted in ``n_unknown`` and left out, as MuST-SHE's
  accuracy leaves out the words it did not find), ``accuracy_female`` and
  ``accuracy_male`` over the items of that gold gender, and ``accuracy_gap``:
  ``accuracy_male − accuracy_female`` (0: both genders translated as well).

Intervals: the cluster bootstrap (resampling the ``cluster`` units — prompts,
templates, occupations — with every judgement they hold, within ``strata`` when
given) through the one engine of :mod:`stats_mtbias.uncertainty`, or analytic
intervals: Wilson on the effective sample size (cluster design effect) for the
shares and accuracies, a cluster-robust normal interval for the gap and a MOVER
interval for the accuracy gap (its two accuracies' Wilson intervals, with their
cluster-robust correlation: the two rest on different items, which may share
clusters). Comparisons of systems
are paired on the clusters both judged (same weights, or the cluster-robust
linearisation of the difference); differences between groups of one system
resample the clusters jointly, so groups sharing clusters are handled.
"""

from __future__ import annotations

import warnings
from itertools import combinations

import numpy as np
import pandas as pd
from scipy import special

from stats_mtbias import _defaults
from stats_mtbias._validation import check_choice, check_level, check_positive_int, check_rng
from stats_mtbias.datasets.counting import (
    as_counting_source,
    count_rows,
    first_location,
    is_dask_frame,
    source_digest,
    source_label,
)
from stats_mtbias.errors import DataError, DataQualityWarning, UsageError
from stats_mtbias.planning.designs import alone, two_systems
from stats_mtbias.planning.simulate import PairedDesign
from stats_mtbias.result import COMPARE_COLUMNS, TABLE_COLUMNS, Spec, StudyResult, adjust_within, family_keys
from stats_mtbias.schema import GENDERS
from stats_mtbias.significance.multitest import CORRECTIONS
from stats_mtbias.studies._common import (
    accounting,
    adjust,
    check_systems,
    integrity,
    lacking,
    pair_shared,
    provenance,
    resample_pvalue,
    system_pairs,
    warn_unshared,
)
from stats_mtbias.studies._samples import Kept, consistency, sample_weights, unit_codes, warn_unequal
from stats_mtbias.studies._study import Study, finish, with_notes
from stats_mtbias.tables import count_cube
from stats_mtbias.uncertainty.analytic import FEW_EVENTS, mover_interval, proportion_interval
from stats_mtbias.uncertainty.bootstrap import CI_METHODS, BootstrapResult, cluster_bootstrap
from stats_mtbias.uncertainty.linearization import ratio_influence, robust_variance, weighted_sum
from stats_mtbias.uncertainty.ppi import MIN_LABELLED, ppi_ratio

METRICS = ("female", "male", "neutral", "gap")
ACCURACY = ("accuracy", "accuracy_female", "accuracy_male", "accuracy_gap")
GOLDS = ("female", "male", "neutral")
ALL = "all"
CI_KINDS = ("bootstrap", "analytic")
_ALIASES = {
    "f": "female",
    "m": "male",
    "n": "neutral",
    "?": "unknown",
    "": "unknown",
    "nan": "unknown",
    "none": "unknown",
    "woman": "female",
    "man": "male",
    "feminine": "female",
    "masculine": "male",
}
# Per metric, the weights of (female, male, neutral, both) in its numerator (denominator: all four).
_NUMERATORS = np.array([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 1], [-1, 1, 0, 0]], dtype=float)
# With a gold column the cell axis holds the five genders, then per gold gender (female, male, neutral) its
# correct, identified and unknown outputs: 14 cells. The first five stay what they are without gold.
CELLS = len(GENDERS) + 3 * len(GOLDS)


def _gold_cells(kind: int, golds: tuple[int, ...]) -> np.ndarray:
    """Weights over the cells of `kind` (0 correct, 1 identified, 2 unknown) of the given gold genders."""
    w = np.zeros(CELLS)
    for g in golds:
        w[len(GENDERS) + 3 * g + kind] = 1.0
    return w


_GENDERED = (0, 1)  # the gold genders of the accuracy gap's parts
_ACCURACY_PARTS = {  # the ratio accuracies: gold genders over which correct / identified are summed
    "accuracy": (0, 1, 2),
    "accuracy_female": (0,),
    "accuracy_male": (1,),
}
_ACC_NUM = np.array([_gold_cells(0, g) for g in _ACCURACY_PARTS.values()])
_ACC_DEN = np.array([_gold_cells(1, g) for g in _ACCURACY_PARTS.values()])
_BASE_IDENTIFIED, _BASE_UNKNOWN = np.zeros(CELLS), np.zeros(CELLS)
_BASE_IDENTIFIED[:4], _BASE_UNKNOWN[4] = 1.0, 1.0
# Per metric (with gold), the cells that count its identified and its unknown outputs (``n_outputs``, ``n_unknown``).
_IDENTIFIED = np.array([_BASE_IDENTIFIED] * len(METRICS) + [_gold_cells(1, g) for g in (*_ACCURACY_PARTS.values(), _GENDERED)])
_UNKNOWN = np.array([_BASE_UNKNOWN] * len(METRICS) + [_gold_cells(2, g) for g in (*_ACCURACY_PARTS.values(), _GENDERED)])


def metrics_of(cells: int) -> tuple[str, ...]:
    """The metrics of a count array whose last axis has `cells` cells: the shares and gap, and with gold the accuracies."""
    return METRICS + ACCURACY if cells == CELLS else METRICS


def _statistic(totals: np.ndarray) -> np.ndarray:
    """``(r, system, group, cell) -> (r, system, group, metric)``: shares and the gap over identified outputs, and with
    gold cells (:data:`CELLS`) the accuracies and their gap (male − female)."""
    identified = totals[..., :4]
    den = identified.sum(axis=-1, keepdims=True)
    num = identified @ _NUMERATORS.T
    with np.errstate(invalid="ignore", divide="ignore"):
        shares = np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)
        if totals.shape[-1] != CELLS:
            return shares
        num, den = totals @ _ACC_NUM.T, totals @ _ACC_DEN.T
        accuracy = np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)
    gap = accuracy[..., 2:3] - accuracy[..., 1:2]
    return np.concatenate([shares, accuracy, gap], axis=-1)


def _with_all(counts: np.ndarray, add_all: bool) -> np.ndarray:
    """Append the ``all`` group (sum over groups) along axis 2."""
    return np.concatenate([counts, counts.sum(axis=2, keepdims=True)], axis=2) if add_all else counts


def read_judgements(
    source,
    *,
    outcome: str,
    system: str | None,
    cluster: str | None,
    by: list[str],
    strata: str | None,
    engine: str = "auto",
    sample: str | None = None,
    gold: str | None = None,
) -> pd.DataFrame:
    """Count a judgement source into ``system, cluster, by:<column>…, stratum, gender, n, line`` (and ``gold``).

    The source (CSV/Parquet/Arrow file, directory or glob of them, DataFrame or
    dask DataFrame) is counted as it streams (:func:`stats_mtbias.datasets.counting.count_rows`):
    one row per distinct (cluster, system, groups, stratum, gender), ``n``
    judgements each, ``line`` the first line holding it. Every row is kept: an
    empty or missing outcome is ``unknown`` (counted), an outcome that is not a
    gender label is an error naming the first line holding it. Without a
    ``cluster`` column every row is its own cluster: the table keeps one row per
    cell (``cluster`` names the cell, ``n`` counts its judgements, each a cluster
    of one), so millions of rows stay a table of their cells; :func:`analyse`
    takes it with ``rows_as_clusters=True``.

    With `sample` (the column telling several outputs of a cluster apart, which
    needs `cluster`), ``n`` is each cell's share of its cluster's known
    judgements (per system and group), so that every cluster with a known one
    weighs one (an item's known samples averaged; an unknown sample counts as
    absent: :mod:`stats_mtbias.studies._samples`), and ``outputs`` keeps the judgements;
    clusters with unequal numbers of samples are named in a
    :class:`~stats_mtbias.errors.DataQualityWarning`.

    With `gold` (the column of the gender each output should have), every cell
    keeps its gold gender too (``gold``: female, male or neutral, read with the
    outcome's aliases); a row without one, or with another label, is an error
    naming its first line (no row is silently left out of the accuracies).
    """
    source = as_counting_source(source)
    if sample and not cluster:
        raise UsageError("`sample` needs `cluster` (the item whose samples it tells apart).")
    if gold is not None and gold == outcome:
        raise UsageError(f"`gold` and `outcome` name the same column {gold!r}; the gold gender needs its own.")
    needed = list(dict.fromkeys(c for c in (outcome, system, cluster, strata, *by, sample, gold) if c))
    counts = count_rows(source, needed, required=needed, engine=engine)
    if counts.attrs["rows"] == 0:
        raise DataError("has a header but no judgements", source, 2)
    for column in (system, cluster):  # a nameless system or cluster would be one silently (the readers' one rule)
        empty = (counts[column] == "").to_numpy() if column else None
        if column and empty.any():
            raise DataError(f"column {column!r} is empty", *first_location(counts, empty, source))
    raw = counts[outcome].str.lower()
    gender = raw.map(lambda v: _ALIASES.get(v, v))
    bad = ~gender.isin(GENDERS)
    if bad.any():
        where, line = first_location(counts, bad, source)
        value = counts.loc[bad.to_numpy(), outcome].iloc[0]
        raise DataError(f"column {outcome!r}: {value!r} is not a gender (one of {', '.join(GENDERS)}, or f/m/n/?)", where, line)
    target = None
    if gold is not None:
        raw_gold = counts[gold].str.lower()
        target = raw_gold.map(lambda v: _ALIASES.get(v, v))
        bad = ~target.isin(GOLDS)
        if bad.any():
            where, line = first_location(counts, bad, source)
            value = counts.loc[bad.to_numpy(), gold].iloc[0]
            said = "is empty" if not str(value).strip() or str(value).lower() == "nan" else f"has {value!r}"
            raise DataError(
                f"column {gold!r} {said}: every judgement needs its gold gender, one of {', '.join(GOLDS)} "
                "(or f/m/n); leave out the rows without one",
                where,
                line,
            )
    out = pd.DataFrame(
        {
            "system": counts[system] if system else "system",
            # Without a cluster every judgement is its own; they stay counted by cell (named below).
            "cluster": counts[cluster] if cluster else "",
            **{f"by:{column}": counts[column].to_numpy() for column in by},
            "stratum": counts[strata].to_numpy() if strata else ALL,
            "gender": pd.Categorical(gender, categories=GENDERS),
            **({"gold": pd.Categorical(target, categories=GOLDS)} if gold is not None else {}),
            "n": counts["n"].to_numpy(),
            "line": counts["line"].to_numpy(),
        }
    )
    keys = ["system", "cluster", *[f"by:{c}" for c in by], "stratum", "gender", *(["gold"] if gold is not None else [])]
    sampled = None
    if sample:
        sampled = out.assign(_sample=counts[sample].astype(str).to_numpy())
        out = _average_samples(sampled, keys, source)
    merged = raw.nunique() != gender.nunique() or (gold is not None and raw_gold.nunique() != target.nunique())
    if merged:  # labels that mean one gender ("f", "Female") merged
        sums = {"n": ("n", "sum"), **({"outputs": ("outputs", "sum")} if "outputs" in out else {}), "line": ("line", "min")}
        out = out.groupby(keys, sort=False, observed=True).agg(**sums).reset_index()  # samples' outputs kept too
        out = out.sort_values("line", kind="stable").reset_index(drop=True)
    if cluster is None:
        out["cluster"] = [f"cell {i + 1}" for i in range(len(out))]
    if strata:
        per_cluster = out.groupby("cluster", sort=False)["stratum"].nunique()
        mixed = per_cluster[per_cluster > 1]
        if len(mixed):
            raise DataError(f"cluster {mixed.index[0]!r} lies in several strata of {strata!r}; a cluster must be in one", source)
    out.attrs["source"] = source
    out.attrs["rows"] = counts.attrs.get("rows", int(out["n"].sum()))
    if sampled is not None:  # the samples one by one, for their consistency (:func:`sample_consistency`)
        out.attrs["samples"] = Kept(sampled.drop(columns="line"))
    return out


def sample_consistency(judgements: pd.DataFrame, by: list[str], level: float) -> pd.DataFrame:
    """The consistency of each system's samples per group (``all`` too): :func:`stats_mtbias.studies._samples.consistency`.

    An item is a cluster of a system and group; its samples are the rows of one value of `sample` (a cell of several
    judgements of one sample counts each of them).
    """
    cells = judgements.attrs["samples"].frame
    rows = cells.loc[cells.index.repeat(cells["n"].astype(np.int64))].reset_index(drop=True)
    keys = [f"by:{c}" for c in by]
    rows["group"] = rows[keys].astype(str).agg(" | ".join, axis=1) if keys else ALL
    gender = rows["gender"].astype(str).to_numpy()
    return consistency(
        rows,
        keys=["system", "group"],
        unit=["cluster"],
        outcome="gender",
        known=gender != "unknown",
        indicators={"female": gender == "female", "male": gender == "male", "neutral": np.isin(gender, ["neutral", "both"])},
        shares=["female", "male"],
        all_of="group" if keys and rows["group"].nunique() > 1 else None,
        level=level,
    )


def _average_samples(out: pd.DataFrame, keys: list[str], source) -> pd.DataFrame:
    """Cells counted with their sample, weighed by the one rule of :mod:`~stats_mtbias.studies._samples`.

    ``n`` of a cell becomes its share of its item's known outputs (an item: a system, cluster and group), summed
    over the samples: every item with a known sample weighs one, an unknown sample is an absent one; ``outputs``
    keeps the judgements.
    """
    known = (out["gender"].astype(str) != "unknown").to_numpy()
    item = [k for k in keys if k != "gender"]
    units = unit_codes(out, item)
    warn_unequal(out, ["system"], units, known, "", noun="clusters")
    out = out.assign(outputs=out["n"], n=sample_weights(units, known, out["n"].to_numpy()))
    out = (
        out.groupby(keys, sort=False, observed=True)
        .agg(n=("n", "sum"), outputs=("outputs", "sum"), line=("line", "min"))
        .reset_index()
    )
    return out.sort_values("line", kind="stable").reset_index(drop=True)


def _linear_parts(counts: np.ndarray, metric: int) -> tuple[np.ndarray, np.ndarray]:
    """Per-cluster numerator ``y`` and denominator ``m`` of a ratio metric: ``(clusters, ...)`` each."""
    if metric >= len(METRICS):  # an accuracy: correct over identified outputs of its gold genders
        cells = counts.astype(float)
        return cells @ _ACC_NUM[metric - len(METRICS)], cells @ _ACC_DEN[metric - len(METRICS)]
    identified = counts[..., :4].astype(float)
    return identified @ _NUMERATORS[metric], identified.sum(axis=-1)


_ACCURACY_GAP = len(METRICS) + ACCURACY.index("accuracy_gap")
_ACCURACY_MALE, _ACCURACY_FEMALE = (
    len(METRICS) + ACCURACY.index("accuracy_male"),
    len(METRICS) + ACCURACY.index("accuracy_female"),
)


def _few_accuracy_events(totals: np.ndarray) -> np.ndarray:
    """``(systems, groups, metrics)``: an accuracy with at most ``FEW_EVENTS`` right or wrong identified outputs (the
    accuracy gap: either of its parts); False for the shares and the gap, and without gold."""
    few = np.zeros((*totals.shape[:-1], len(metrics_of(totals.shape[-1]))), dtype=bool)
    if totals.shape[-1] != CELLS:
        return few
    right, identified = totals @ _ACC_NUM.T, totals @ _ACC_DEN.T
    events = (identified > 0) & (np.minimum(right, identified - right) <= FEW_EVENTS)
    few[..., len(METRICS) : _ACCURACY_GAP] = events
    few[..., _ACCURACY_GAP] = events[..., 1] | events[..., 2]
    return few


def _influence(counts: np.ndarray, metric: int, estimate: np.ndarray, frequency: np.ndarray | None) -> np.ndarray:
    """Per-cluster linearised values of a metric (`estimate`: ``(..., metrics)``): a ratio's, or for the accuracy gap
    (a difference of two ratios over different items) the male accuracy's minus the female's."""
    if metric == _ACCURACY_GAP:
        return _influence(counts, _ACCURACY_MALE, estimate, frequency) - _influence(counts, _ACCURACY_FEMALE, estimate, frequency)
    y, m = _linear_parts(counts, metric)
    return ratio_influence(y, m, estimate[..., metric], frequency)


def design_arrays(
    judgements: pd.DataFrame, by: list[str], *, rows_as_clusters: bool = False
) -> tuple[np.ndarray, list[str], list[str], np.ndarray, np.ndarray | None]:
    """``(counts, systems, groups, strata codes, frequency)``; counts ``(clusters, systems, groups (+ all), genders)``.

    With `rows_as_clusters` (a table of cells, every judgement its own cluster:
    :func:`read_judgements` without a ``cluster``) a row of `counts` is one
    judgement of a cell and `frequency` how many judgements the cell holds; else
    `frequency` is None.
    """
    keys = [f"by:{c}" for c in by]
    table = judgements.assign(group=judgements[keys].agg(" | ".join, axis=1) if keys else ALL)
    cube = count_cube(table, ("cluster", "system", "group", *(["gold"] if "gold" in table else [])))
    groups = list(cube.coords["group"])
    add_all = bool(keys) and len(groups) > 1
    cells = cube.counts
    if "gold" in table:  # the genders summed over gold, then per gold gender its correct, identified, unknown outputs
        cross = cells  # (clusters, systems, groups, gold, gender)
        correct = np.stack([cross[..., 0, 0], cross[..., 1, 1], cross[..., 2, 2] + cross[..., 2, 3]], axis=-1)
        per_gold = np.stack([correct, cross[..., :4].sum(axis=-1), cross[..., 4]], axis=-1)
        cells = np.concatenate([cross.sum(axis=3), per_gold.reshape(*per_gold.shape[:3], -1)], axis=-1)
    counts = _with_all(cells, add_all)
    frequency = None
    if rows_as_clusters:
        frequency = cells[..., : len(GENDERS)].reshape(len(counts), -1).sum(axis=1).astype(np.int64)
        counts = counts / frequency.reshape((-1,) + (1,) * (counts.ndim - 1))  # one judgement: one-hot
    stratum = table.drop_duplicates("cluster").set_index("cluster")["stratum"].reindex(cube.coords["cluster"]).to_numpy()
    return counts, list(cube.coords["system"]), groups + ([ALL] if add_all else []), pd.factorize(stratum)[0], frequency


def pilot_design(
    judgements: pd.DataFrame,
    systems: tuple[str, str],
    *,
    by: list[str] | tuple[str, ...] = (),
    group: str = ALL,
    metric: str = "female",
    rows_as_clusters: bool = False,
):
    """Two systems of a validated judgement table (:func:`read_judgements`) as a power-simulation pilot.

    With a `group`, the pilot is that group's clusters alone: the plan's ``n`` counts items of the group (one rule
    with :meth:`StudyResult.compare`'s ``mde``, which rests on the group's items).
    """
    check_choice(metric, METRICS + ACCURACY, "metric")
    if metric in ACCURACY and "gold" not in judgements:
        raise UsageError(f"metric {metric!r} needs a pilot with gold genders: smb.rates(..., gold=...).")
    counts, order, labels, strata, frequency = design_arrays(
        judgements[judgements["system"].isin(systems)], list(by), rows_as_clusters=rows_as_clusters
    )
    if frequency is not None:  # the simulation resamples clusters: a pilot's judgements one by one
        counts, strata = np.repeat(counts, frequency, axis=0), np.repeat(strata, frequency)
    missing = [s for s in systems if s not in order]
    if missing:
        raise UsageError(f"{', '.join(missing)} is not in the pilot; it has {', '.join(sorted(set(judgements['system'])))}.")
    if group not in labels:
        raise UsageError(f"group {group!r} is not in the pilot; it has {', '.join(labels)}.")
    counts = counts[:, [order.index(s) for s in systems]]
    if group != ALL:  # a plan for one group counts that group's items: the clusters with an output in it
        inside = counts[:, :, labels.index(group)].sum(axis=(1, 2)) > 0
        counts, strata = counts[inside], strata[inside]
    per_cluster = float(counts[:, :, labels.index(group), : len(GENDERS)].sum() / (2 * counts.shape[0]))
    return PairedDesign(
        counts,
        _statistic,
        (labels.index(group), metrics_of(counts.shape[-1]).index(metric)),
        strata,
        label=f"{group} {metric}: {systems[0]} − {systems[1]}",
        unit="clusters",
        outputs_per_cluster=per_cluster,
    )


def pilot(result, *, systems=None, metric=None, language=None, subset=None):
    """A rates result as a planning pilot for :func:`stats_mtbias.power`: a share, the gap or (with gold) an accuracy
    or the accuracy gap of a group, simulated."""
    systems = two_systems(result, systems)
    pair = systems if len(systems) == 2 else (systems[0], systems[0])
    by = (result.provenance.get("options") or {}).get("by") or []
    design = pilot_design(
        result.frame("judgements"),
        pair,
        by=by,
        group=subset or ALL,
        metric=metric or "female",
        rows_as_clusters=(result.provenance.get("options") or {}).get("cluster") is None,  # every row its own cluster
    )
    return "simulate", alone(design, systems)


GROUP = "_group"  # the label of a row's group while it is built: never the name of a user's column


def _group_column(frame: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """The label of a row's group as ``group``; where a grouping column is itself called ``group`` it keeps its
    name and its values, and the label (the ``" | "``-joined values of the grouping columns) is dropped."""
    if "group" in by:
        return frame.drop(columns=GROUP)
    return frame.rename(columns={GROUP: "group"})


def _subset_language(frame: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """``language`` and ``subset`` of the public table: a ``language`` grouping column is the language (not a
    subset), the other grouping columns make the subset; each grouping column also keeps its own name."""
    out = frame.copy()
    out["language"] = out["language"].astype(str) if "language" in by else ALL
    rest = [c for c in by if c != "language"]
    out["subset"] = out[rest].astype(str).agg(" | ".join, axis=1) if rest else ALL
    return out


def _score_bounds(counts, estimate, strata_codes, frequency, level, samples=False):
    """Analytic bounds of every metric: Wilson on the design-effect sample for the shares, the gap (male − female)
    by MOVER of its two shares' Wilson bounds with their multinomial correlation where its normal interval would be
    a point (a gap of ±1) — never a point where there is an output.

    With `samples` (clusters' samples averaged) the design effect has no floor at 1 —
    duplicated samples must not count as information — except with few events.

    Returns ``(low, high, few)``: `few` marks the shares whose effective minority count (``min(p, 1 − p) · n /
    deff``) is at most ``FEW_EVENTS`` (never the gap)."""
    z = special.ndtri(0.5 + level / 2)
    low, high = np.full(estimate.shape, np.nan), np.full(estimate.shape, np.nan)
    few_events = np.zeros(estimate.shape, dtype=bool)
    for k in range(estimate.shape[-1]):
        if k == _ACCURACY_GAP:  # the MOVER of its two accuracies, below
            continue
        y, m = _linear_parts(counts, k)
        se = np.sqrt(robust_variance(ratio_influence(y, m, estimate[..., k], frequency), strata_codes, frequency))
        if k == METRICS.index("gap"):
            low[..., k], high[..., k] = estimate[..., k] - z * se, estimate[..., k] + z * se
            continue
        n = weighted_sum(m, frequency)
        p = estimate[..., k]
        with np.errstate(invalid="ignore", divide="ignore"):
            deff = np.where((n > 0) & (p > 0) & (p < 1), se**2 / (p * (1 - p) / n), 1.0)
        deff = np.nan_to_num(deff, nan=1.0)
        if samples:  # no floor (duplicated samples must not count), but the worst case with few events
            deff = np.where(deff > 0, deff, 1.0)
            with np.errstate(invalid="ignore", divide="ignore"):
                few = np.minimum(p, 1 - p) * n / deff <= FEW_EVENTS
            deff = np.where(few, np.maximum(deff, 1.0), deff)
        else:
            deff = np.maximum(deff, 1.0)
        interval_ = proportion_interval(weighted_sum(y, frequency), n, level=level, deff=deff)
        low[..., k], high[..., k] = interval_.low, interval_.high
        with np.errstate(invalid="ignore", divide="ignore"):
            few_events[..., k] = (n > 0) & (np.minimum(p, 1 - p) * n / deff <= FEW_EVENTS)
    gap = METRICS.index("gap")
    female, male = METRICS.index("female"), METRICS.index("male")
    point = ~(high[..., gap] > low[..., gap]) & ~np.isnan(estimate[..., gap])
    if np.any(point):
        pm, pf = estimate[..., male], estimate[..., female]
        with np.errstate(invalid="ignore", divide="ignore"):
            r = -np.sqrt(pm * pf / ((1 - pm) * (1 - pf)))  # two shares of one multinomial
        # Without neutral outputs the gap is 2 p_m − 1: the two shares move together exactly (correlation −1).
        r = np.where(pm + pf >= 1 - 1e-12, -1.0, np.where(np.isfinite(r), r, 0.0))
        corr = np.zeros((*pm.shape, 2, 2))
        corr[..., 0, 0] = corr[..., 1, 1] = 1.0
        corr[..., 0, 1] = corr[..., 1, 0] = r
        moved = mover_interval(
            np.stack([pm, pf], -1),
            np.stack([low[..., male], low[..., female]], -1),
            np.stack([high[..., male], high[..., female]], -1),
            np.array([1.0, -1.0]),
            corr,
        )
        low[..., gap] = np.where(point, np.maximum(moved.low, -1.0), low[..., gap])
        high[..., gap] = np.where(point, np.minimum(moved.high, 1.0), high[..., gap])
    if estimate.shape[-1] > _ACCURACY_GAP:
        low[..., _ACCURACY_GAP], high[..., _ACCURACY_GAP] = _accuracy_gap_bounds(
            counts, estimate, low, high, strata_codes, frequency
        )
    return low, high, few_events


def _accuracy_gap_bounds(counts, estimate, low, high, strata_codes, frequency) -> tuple[np.ndarray, np.ndarray]:
    """MOVER bounds of ``accuracy_male − accuracy_female`` from the two accuracies' Wilson bounds (Newcombe's square
    and add, Zou & Donner 2008), coupled by their cluster-robust correlation: 0 where the gold genders lie in different
    clusters, positive where a cluster holds both (a counterfactual pair). Near 0 and 1 the Wilson bounds' asymmetry
    carries into the gap, which a normal interval would lose (and a point where both accuracies are 1)."""
    parts = [_ACCURACY_MALE, _ACCURACY_FEMALE]
    u_m, u_f = (_influence(counts, k, estimate, frequency) for k in parts)
    var_m, var_f = robust_variance(u_m, strata_codes, frequency), robust_variance(u_f, strata_codes, frequency)
    cov = (robust_variance(u_m + u_f, strata_codes, frequency) - var_m - var_f) / 2
    with np.errstate(invalid="ignore", divide="ignore"):
        r = cov / np.sqrt(var_m * var_f)
    r = np.clip(np.where(np.isfinite(r), r, 0.0), -1.0, 1.0)
    corr = np.zeros((*r.shape, 2, 2))
    corr[..., 0, 0] = corr[..., 1, 1] = 1.0
    corr[..., 0, 1] = corr[..., 1, 0] = r
    moved = mover_interval(estimate[..., parts], low[..., parts], high[..., parts], np.array([1.0, -1.0]), corr)
    return np.maximum(moved.low, -1.0), np.minimum(moved.high, 1.0)


def _adjust_groups(frame: pd.DataFrame, correction: str, family) -> pd.DataFrame:
    """``p_adjusted`` of the group differences, `family` meaning what it means for the systems' comparisons: with
    ``"metric"`` the group pairs of one system × metric are a family (as the system pairs of one estimate are), with
    ``"all"`` every row; named comparison columns keep those the frame has (``metric``) and the system.

    Examples
    --------
    >>> f = pd.DataFrame({"system": ["a", "a", "b"], "metric": "female", "p_value": [0.01, 0.04, 0.03]})
    >>> _adjust_groups(f, "holm", "metric")["p_adjusted"].tolist()
    [0.02, 0.04, 0.03]
    >>> _adjust_groups(f, "holm", "all")["p_adjusted"].round(2).tolist()
    [0.03, 0.06, 0.06]
    >>> _adjust_groups(f, "holm", "all")["family"].tolist()
    ['all (3 comparisons)', 'all (3 comparisons)', 'all (3 comparisons)']
    """
    keys = family_keys(family)
    if isinstance(family, str):
        keys = ("system", "metric") if family == "metric" else ()
    else:
        keys = ("system", *(k for k in keys if k in frame))
    return adjust_within(frame, correction, keys)


def _paired(counts, a, b, estimate, boot, strata_codes, frequency, present, interval, z, samples=False):
    """The difference a − b of every group and metric with its interval and p-value, from one set of clusters.

    Returns ``(diff, low, high, p_value, method, ci_method, n_both)``, arrays ``(groups, metrics)`` (``n_both``: the
    clusters where both systems have an identified output of the metric; `present` ``(clusters, systems, groups,
    metrics)`` tells where). An interval that would be a point
    (both systems at 0% or 100%: every replicate, every influence the same) is the MOVER of the two systems' score
    intervals instead — never [0, 0] where there are outputs.
    """
    found = _paired_parts(counts, a, b, estimate, boot, strata_codes, frequency, present, interval, z)
    diff, low, high = found[0], found[1], found[2]
    point = ~(high > low) & ~np.isnan(diff)
    if np.any(point):
        level = float(2 * special.ndtr(z) - 1)
        pair = counts[:, [a, b]]
        s_low, s_high, _ = _score_bounds(pair, estimate[[a, b]], strata_codes, frequency, level, samples)
        ea, eb = estimate[a], estimate[b]
        # Newcombe's MOVER with the correlation of the paired outputs left out (0): wider than a paired interval.
        m_low = diff - np.sqrt((ea - s_low[0]) ** 2 + (s_high[1] - eb) ** 2)
        m_high = diff + np.sqrt((s_high[0] - ea) ** 2 + (eb - s_low[1]) ** 2)
        reach = np.ones(diff.shape[-1])
        reach[_ACCURACY_GAP : _ACCURACY_GAP + 1] = 2.0  # a difference of two accuracy gaps spans [-2, 2]
        low, high = np.where(point, np.maximum(m_low, -reach), low), np.where(point, np.minimum(m_high, reach), high)
    return (diff, low, high, *found[3:])


def _paired_parts(counts, a, b, estimate, boot, strata_codes, frequency, present, interval, z):
    """:func:`_paired` before the point intervals are replaced."""
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
        u = _influence(counts[:, a], k, estimate[a], frequency) - _influence(counts[:, b], k, estimate[b], frequency)
        se[..., k] = np.sqrt(robust_variance(u, strata_codes, frequency))
    with np.errstate(invalid="ignore", divide="ignore"):
        pvalue = np.where(se > 0, 2 * special.ndtr(-np.abs(diff) / se), np.where(diff == 0, 1.0, 0.0))
    method = "cluster-robust normal"
    return diff, diff - z * se, diff + z * se, pvalue, method, method, both


def intervals(counts, strata_codes, frequency, *, level, ci, interval, n_boot, rng, samples=False):
    """``(estimate, low, high, boot)`` of every system, group and metric: :func:`analyse`'s estimates and intervals.

    `counts` ``(clusters, systems, groups, genders)`` (:func:`design_arrays`); `boot` the bootstrap (None with
    ``ci="analytic"``). The bootstrap interval gives way to the score interval (Wilson with the design effect;
    MOVER for the gap) where it is a point and on a share of few effective events.
    """
    estimate = _statistic(weighted_sum(counts, frequency)[None])[0]  # (systems, groups, metrics)
    score_low, score_high, few = _score_bounds(counts, estimate, strata_codes, frequency, level, samples)
    if ci != "bootstrap":
        return estimate, score_low, score_high, None
    boot = cluster_bootstrap(
        counts, _statistic, n_boot=n_boot, rng=rng, strata=strata_codes, level=level, method=interval, frequency=frequency
    )
    bounds = boot.confidence_interval()
    # A 0% or 100% share (or a gap of ±1) is the same in every replicate: its bootstrap interval is a point. There
    # the score interval stands in, and on a share of few effective events too (at most FEW_EVENTS): the percentile
    # bootstrap's upper tail is short there (50 items of 3 samples at 5%: it covered 0.90, missing 9% above;
    # tests/statistical/test_coverage_rates_samples.py).
    # An accuracy with few errors (0.97-0.99 is the usual) likewise: its percentile interval cannot see the errors it
    # did not draw (0.84 coverage at 0.98 over 50 pairs).
    few = few | _few_accuracy_events(weighted_sum(counts, frequency))
    point = (~(bounds.high > bounds.low) | few) & ~np.isnan(estimate)
    return estimate, np.where(point, score_low, bounds.low), np.where(point, score_high, bounds.high), boot


def analyse(
    judgements: pd.DataFrame,
    *,
    by: list[str] | tuple[str, ...] = (),
    n_boot: int = _defaults.N_BOOT,
    rng: np.random.Generator | int = _defaults.SEED,
    level: float = _defaults.LEVEL,
    ci: str = "bootstrap",
    interval: str = "percentile",
    correction: str = _defaults.CORRECTION,
    rows_as_clusters: bool = False,
    against: list[str] | None = None,
    family: str | list[str] = "metric",
    samples: bool = False,
    unit: str = "clusters",
) -> tuple[pd.DataFrame, pd.DataFrame | None, pd.DataFrame | None]:
    """Estimates, system comparisons and group differences from a validated judgement table (:func:`read_judgements`).

    `rows_as_clusters`: the table counts cells of judgements that are each their
    own cluster (:func:`read_judgements` without a ``cluster``). The bootstrap and
    the cluster-robust variances then weight each cell by its judgements: the
    same numbers as a table of one row per judgement, in the memory of the cells.

    ``n`` of an estimate is the clusters (items) with an identified output in the
    group, ``n_outputs`` the identified outputs; of a comparison, the clusters both
    systems have an identified output in. `against` compares the named systems
    with each other system instead of every pair; `family` is the family of
    ``p_adjusted`` (:func:`stats_mtbias.result.adjust`).

    `samples`: the counts are clusters' samples averaged (:func:`read_judgements`
    with ``sample``). The analytic design effect is then not floored at 1 (an
    item's averaged samples may be worth more than one output, and a floor on the
    outputs would make duplicated samples look like information), except where
    the effective minority count is at most ``FEW_EVENTS`` (the worst case there).

    `unit`: what the clusters are called in the warning on pairs that cover different ones (Prates: ``items``).
    """
    n_boot = check_positive_int(n_boot, "n_boot", minimum=100 if ci == "bootstrap" else 1)
    level = check_level(level)
    check_choice(ci, CI_KINDS, "ci")
    check_choice(interval, tuple(m for m in CI_METHODS if m != "studentized"), "interval")
    check_choice(correction, CORRECTIONS, "correction")
    rng = check_rng(rng)
    by = list(by)
    counts, systems, labels, strata_codes, frequency = design_arrays(judgements, by, rows_as_clusters=rows_as_clusters)
    groups = labels[:-1] if by and len(labels) > 1 else labels  # without the added "all"
    totals = weighted_sum(counts, frequency)
    z = special.ndtri(0.5 + level / 2)
    estimate, low, high, boot = intervals(
        counts, strata_codes, frequency, level=level, ci=ci, interval=interval, n_boot=n_boot, rng=rng, samples=samples
    )
    metrics = metrics_of(counts.shape[-1])
    # Per metric, the cells of its identified and unknown outputs (an accuracy's: those of its gold genders).
    is_identified, is_unknown = _IDENTIFIED[: len(metrics), : counts.shape[-1]], _UNKNOWN[: len(metrics), : counts.shape[-1]]
    raw = totals
    if "outputs" in judgements:  # samples averaged: n_outputs and n_unknown still count outputs, not item-equivalents
        raw = weighted_sum(design_arrays(judgements.assign(n=judgements["outputs"]), by)[0])
    unknown, identified = raw @ is_unknown.T, raw @ is_identified.T  # (systems, groups, metrics)
    present = counts @ is_identified.T > 0  # (clusters, systems, groups, metrics): an identified output there
    clusters = weighted_sum(present.astype(float), frequency)
    group_values = {label: dict(zip(by, label.split(" | "))) if label != ALL else dict.fromkeys(by, ALL) for label in labels}
    rows = []
    for s, system in enumerate(systems):
        for g, label in enumerate(labels):
            for k, metric in enumerate(metrics):
                rows.append(
                    {
                        "system": system,
                        GROUP: label,
                        **group_values[label],
                        "metric": metric,
                        "estimate": estimate[s, g, k],
                        "ci_low": low[s, g, k],
                        "ci_high": high[s, g, k],
                        "n": int(np.rint(clusters[s, g, k])),
                        "n_outputs": int(np.rint(identified[s, g, k])),
                        "n_unknown": int(np.rint(unknown[s, g, k])),
                    }
                )
    estimates = _subset_language(pd.DataFrame(rows), by)
    estimates = _group_column(estimates, by)
    comparisons = None
    if len(systems) > 1:
        rows = []
        # One rule for every pair: the cells (cluster × group) both systems have (any output, read or not), for the
        # difference, its interval and its test alike — a cluster one system lacks in one group only (an occupation
        # in one language) is left out of that group alone. Without cells in common (every judgement its own, or
        # each system's clusters its own) the samples are independent and compared as such, on all of their own.
        n_base = len(groups)
        covered = counts[:, :, :n_base].sum(axis=-1) > 0  # (clusters, systems, groups)
        lacks = []
        for a, b in system_pairs(systems, against):
            shared = None if rows_as_clusters else pair_shared(covered, a, b)
            if shared is None:
                found = _paired(counts, a, b, estimate, boot, strata_codes, frequency, present, interval, z, samples)
            else:
                lacks.append(lacking(covered, systems, a, b))
                mask = np.ones((counts.shape[0], counts.shape[2]), dtype=bool)
                mask[:, :n_base] = shared
                sub = counts[:, [a, b]] * mask[:, None, :, None]
                if counts.shape[2] > n_base:  # the "all" group: the shared cells of every group
                    sub[:, :, n_base] = sub[:, :, :n_base].sum(axis=2)
                keep = shared.any(axis=1)
                sub = sub[keep]
                sub_strata = pd.factorize(strata_codes[keep])[0]
                sub_estimate = _statistic(sub.sum(axis=0)[None])[0]
                sub_boot = None
                if boot is not None:
                    sub_boot = cluster_bootstrap(
                        sub, _statistic, n_boot=n_boot, rng=rng.spawn(1)[0], strata=sub_strata, level=level, method=interval
                    )
                found = _paired(
                    sub, 0, 1, sub_estimate, sub_boot, sub_strata, None, sub @ is_identified.T > 0, interval, z, samples
                )
            diff, d_low, d_high, pvalue, method, ci_method, both = found
            for g, label in enumerate(labels):
                for k, metric in enumerate(metrics):
                    rows.append(
                        {
                            "system_a": systems[a],
                            "system_b": systems[b],
                            GROUP: label,
                            **group_values[label],
                            "metric": metric,
                            "diff": diff[g, k],
                            "ci_low": d_low[g, k],
                            "ci_high": d_high[g, k],
                            "p_value": float(pvalue[g, k]),
                            "method": method,
                            "ci_method": ci_method,
                            "n": int(np.rint(both[g, k])),
                        }
                    )
        warn_unshared(lacks, what=unit, stacklevel=4)
        comparisons = _group_column(adjust(_subset_language(pd.DataFrame(rows), by), correction, family), by)
    group_differences = None
    if boot is not None and len(groups) > 1:
        rows = []
        for s, system in enumerate(systems):
            for g, h in combinations(range(len(groups)), 2):
                diff = estimate[s, g] - estimate[s, h]
                reps = boot.replicates[:, s, g] - boot.replicates[:, s, h]
                bounds = BootstrapResult(diff, reps, None, level, "percentile").confidence_interval()
                pvalue = resample_pvalue(reps, diff)
                for k, metric in enumerate(metrics):
                    rows.append(
                        {
                            "system": system,
                            "group_a": groups[g],
                            "group_b": groups[h],
                            "metric": metric,
                            "diff": diff[k],
                            "ci_low": bounds.low[k],
                            "ci_high": bounds.high[k],
                            "p_value": float(pvalue[k]),
                        }
                    )
        group_differences = _adjust_groups(pd.DataFrame(rows), correction, family)
        group_differences["method"] = "cluster bootstrap (percentile)"
    return estimates, comparisons, group_differences


# Columns of the result a grouping column cannot share its name with (``language`` is the table's language, and a
# column called ``group`` replaces the label of the groups, which it then equals or refines).
RESERVED_BY = tuple(
    dict.fromkeys(
        c for c in (*TABLE_COLUMNS, *COMPARE_COLUMNS, "n_outputs", "n_unknown", "group_a", "group_b") if c != "language"
    )
)


def _iterable(value) -> tuple:
    try:
        return tuple(value)
    except TypeError:
        return (value,)


@with_notes
def evaluate(
    judgements,
    *,
    outcome: str = "gender",
    by: list[str] | tuple[str, ...] | str = (),
    system: str | None = "system",
    cluster: str | None = "item",
    strata: str | None = None,
    n_boot: int = _defaults.N_BOOT,
    rng: np.random.Generator | int = _defaults.SEED,
    level: float = _defaults.LEVEL,
    ci: str = "bootstrap",
    interval: str = "percentile",
    correction: str = _defaults.CORRECTION,
    engine: str = "auto",
    against: list[str] | None = None,
    family: str | list[str] = "metric",
    sample: str | None = None,
    gold: str | None = None,
    labels: str | None = None,
) -> StudyResult:
    """Read (or take) a judgement table and analyse it (what :func:`stats_mtbias.rates` returns); see the module
    docstring."""
    if by is not None and not isinstance(by, str) and not all(isinstance(c, str) for c in _iterable(by)):
        raise UsageError(f"`by` names columns: a column name or a list of them; got {by!r}.")
    by = [] if by is None else [by] if isinstance(by, str) else list(by)
    clash = [c for c in by if c in RESERVED_BY]
    if clash:
        raise UsageError(f"`by`: {', '.join(clash)} names a column of the result; rename it in your table.")
    if isinstance(judgements, pd.DataFrame) or is_dask_frame(judgements):
        for column in (system, cluster):
            if column and column not in judgements.columns and column in ("system", "item"):
                keyword = "system" if column == "system" else "cluster"
                raise UsageError(
                    f"the frame has no column {column!r}; name yours with {keyword}=... "
                    "(or None: one system / every row its own cluster)."
                )
    table = read_judgements(
        judgements,
        outcome=outcome,
        system=system,
        cluster=cluster,
        by=by,
        strata=strata,
        engine=engine,
        sample=sample,
        gold=gold,
    )
    if cluster is not None and table["system"].nunique() > 1:  # copies and unequal benchmarks, by item and group
        keys = ["cluster", *[f"by:{c}" for c in by]]
        cell = table["gender"].astype(str) + (("/" + table["gold"].astype(str)) if gold else "")
        cells = table.assign(cell=cell + ":" + table["n"].astype(str))
        units = cells.groupby(["system", *keys], sort=False, observed=True)["cell"].agg(lambda v: ",".join(sorted(v)))
        integrity(
            units.rename("value").reset_index(),
            units=keys,
            groups=[f"by:{c}" for c in by],
            value="value",
            source=source_label(table.attrs["source"]),
            what="clusters",
        )
    source = table.attrs["source"]
    estimates, comparisons, group_differences = analyse(
        table,
        by=by,
        n_boot=n_boot,
        rng=rng,
        level=level,
        ci=ci,
        interval=interval,
        correction=correction,
        rows_as_clusters=cluster is None,
        against=check_systems(against, "against"),
        family=family,
        samples=sample is not None,
    )
    if labels:
        labelled, agree = _labelled_table(
            judgements,
            outcome=outcome,
            labels=labels,
            system=system,
            cluster=cluster,
            by=by,
            strata=strata,
            sample=sample,
            gold=gold,
            engine=engine,
        )
        fixed, fixed_pairs = corrected(labelled, agree, by, level=level, against=check_systems(against, "against"))
        keys = ["system", "language", "subset", "metric"]
        estimates = estimates.merge(fixed.drop(columns=[c for c in fixed if c not in (*keys, *_CORRECTED)]), on=keys, how="left")
        if fixed_pairs is not None:
            comparisons = _group_column(adjust(_subset_language(fixed_pairs, by), correction, family), by)
    method = (
        "shares of identified outputs (both as neutral; unknown counted, left out); gap = male - female; "
        + (
            f"accuracy: identified outputs of the gold gender ({gold}; neutral or both right only against a gold "
            "neutral), per gold gender, accuracy_gap = accuracy_male - accuracy_female; "
            if gold
            else ""
        )
        + (
            f"cluster bootstrap over {cluster or 'rows'}" + (f" stratified by {strata}" if strata else "") + f", {interval}"
            if ci == "bootstrap"
            else "Wilson on the effective sample size (cluster design effect); gap: cluster-robust normal"
            + ("; accuracy_gap: MOVER of the two accuracies' intervals" if gold else "")
        )
        + (
            f"; the known samples ({sample}) of a cluster averaged (an unknown one counts as absent), clusters the unit"
            if sample
            else ""
        )
        + (
            f"; corrected for the judge's errors by the labels in {labels} (prediction-powered inference, PPI++: "
            "the judge on the unlabelled items, rectified on the labelled ones, items the unit); systems compared "
            "on the corrected values, paired on items"
            if labels
            else ""
        )
        + "; systems compared paired on clusters"
        + (" (bootstrap p-values: the replicates' percentile tail, a normal tail beyond them)" if ci == "bootstrap" else "")
    )
    record = provenance(
        method,
        {source_label(source): source_digest(source)},
        rng=rng,
        level=level,
        n_boot=n_boot if ci == "bootstrap" else None,
        correction=correction,
        family=family,
        options={
            "outcome": outcome,
            "by": by,
            "system": system,
            "cluster": cluster,
            "strata": strata,
            "ci": ci,
            "interval": interval,
            "rows": int(table["outputs" if sample else "n"].sum()),
            "engine": engine,
            "against": against,
            "sample": sample,
            **({"gold": gold} if gold else {}),  # without gold, the record is what it was
            **({"labels": labels} if labels else {}),
            "yours": [str(s) for s in dict.fromkeys(table["system"])],
        },
    )
    counted = table.assign(n=table["outputs"]) if sample else table
    extra = [c for c in by if c != "language"]
    frames = {
        "estimates": estimates,
        "accounting": accounting(counted, ["system"], "gender", "n"),
        "judgements": table,
        "group_differences": group_differences,
        "consistency": sample_consistency(table, by, level) if sample else None,
    }
    own = [c for c in _CORRECTED if c in estimates]  # with labels: the corrected figures beside the judge's
    return finish(
        "rates",
        estimates[[*TABLE_COLUMNS[:3], *extra, *TABLE_COLUMNS[3:], *own]].astype({"system": str, "subset": str}),
        comparisons,
        record,
        frames,
        allowed=FRAMES,
        correction=correction,
        family=family,
    )


FRAMES = ("estimates", "accounting", "judgements", "group_differences", "consistency")
SPEC = Spec(
    "Shares of female, male and neutral outputs among those whose gender was read, and the gap male − female, per group.",
    ("female", "male", "neutral", "gap"),
    ("female", "male", "gap"),
    ("female", "gap"),
    subset="group",
    title="Female, male and neutral shares per group",
)
STUDY = Study("rates", FRAMES, evaluate, pilot, spec=SPEC)


# ---- Shares corrected for the judge's errors by people's labels of a subset (prediction-powered inference) ----

_ROLE = "\x1f"  # joins a system's name and its role in the combined table (never in a name a table holds)
_CORRECTED = ("corrected", "corrected_ci_low", "corrected_ci_high", "agreement", "n_labelled", "n_unlabelled", "lambda")


def _labelled_table(source, *, outcome, labels, system, cluster, by, strata, sample, gold, engine):
    """One judgement table holding, per system, the judge on the unlabelled items, the judge on the labelled rows and
    the labels on them (the system's name joined with its role), and the labelled rows' agreement per system and group.

    An item (a system's cluster) with any labelled row is labelled: its unlabelled rows are left out (the judge's
    part rests on the items nobody labelled; the labelled items give the rectifier).
    """
    if labels in (outcome, gold):
        raise UsageError(
            f"`labels` names the column {labels!r} of the {'outcome' if labels == outcome else 'gold'}; "
            "people's labels need their own column."
        )
    source = as_counting_source(source)
    needed = list(dict.fromkeys(c for c in (outcome, labels, system, cluster, strata, *by, sample, gold) if c))
    counts = count_rows(source, needed, required=needed, engine=engine)
    rows = counts.loc[counts.index.repeat(counts["n"].astype(np.int64))].reset_index(drop=True)
    rows["_system"] = rows[system] if system else "system"
    rows["_cluster"] = rows[cluster] if cluster else [f"row {i + 1}" for i in range(len(rows))]
    raw = rows[labels].astype(str).str.strip()
    is_labelled = ~raw.str.lower().isin(["", "nan", "none"])
    if not is_labelled.any():
        raise DataError(f"column {labels!r} is empty in every row: no labelled items to correct the shares with", source)
    labelled_item = is_labelled.groupby([rows["_system"], rows["_cluster"]]).transform("any")
    parts = {
        "judged": rows[~labelled_item].assign(_outcome=rows.loc[~labelled_item, outcome]),
        "judge on labelled": rows[is_labelled].assign(_outcome=rows.loc[is_labelled, outcome]),
        "labels": rows[is_labelled].assign(_outcome=raw[is_labelled]),
    }
    combined = pd.concat(
        [part.assign(_system=part["_system"].astype(str) + _ROLE + role) for role, part in parts.items()], ignore_index=True
    )
    keep = ["_system", "_cluster", "_outcome", *dict.fromkeys(c for c in (strata, *by, sample, gold) if c)]
    table = read_judgements(
        combined[keep],
        outcome="_outcome",
        system="_system",
        cluster="_cluster",
        by=by,
        strata=strata,
        sample=sample,
        gold=gold,
    )
    # Agreement of the judge with the labels on the labelled rows (both read with the outcome's aliases).
    judged = parts["labels"]

    def _gender(values: pd.Series) -> pd.Series:
        lowered = values.astype(str).str.strip().str.lower()
        return lowered.map(lambda v: _ALIASES.get(v, v)).replace("both", "neutral")

    agree = pd.DataFrame(
        {
            "system": judged["_system"].astype(str),
            "agree": _gender(judged[outcome]).to_numpy() == _gender(judged["_outcome"]).to_numpy(),
        }
    )
    for column in by:
        agree[f"by:{column}"] = judged[column].astype(str).to_numpy()
    return table, agree


def _agreement(agree: pd.DataFrame, by: list[str], labels_of_groups: list[str]) -> dict[tuple[str, str], float]:
    """The judge's agreement with the labels per (system, group label), ``all`` too."""
    keys = [f"by:{c}" for c in by]
    frame = agree.assign(group=agree[keys].agg(" | ".join, axis=1) if keys else ALL)
    found = {(s, g): float(v) for (s, g), v in frame.groupby(["system", "group"])["agree"].mean().items()}
    if ALL in labels_of_groups:
        found.update({(s, ALL): float(v) for s, v in frame.groupby("system")["agree"].mean().items()})
    return found


def _ppi_parts(counts: np.ndarray, metrics: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(num, den, coef)`` of every metric: num, den ``(metrics, 2, clusters, ...)`` (a ratio's second part is 0
    but for the accuracy gap, male − female), coef ``(metrics, 2)``."""
    nums, dens, coefs = [], [], []
    for k, _ in enumerate(metrics):
        if k == _ACCURACY_GAP:
            parts = [_linear_parts(counts, _ACCURACY_MALE), _linear_parts(counts, _ACCURACY_FEMALE)]
            coefs.append([1.0, -1.0])
        else:
            y, m = _linear_parts(counts, k)
            parts = [(y, m), (np.zeros_like(y), np.ones_like(m))]
            coefs.append([1.0, 0.0])
        nums.append(np.stack([p[0] for p in parts]))
        dens.append(np.stack([p[1] for p in parts]))
    return np.stack(nums), np.stack(dens), np.array(coefs)


def _shares(metrics: tuple[str, ...]) -> np.ndarray:
    """Which metrics are shares in [0, 1] (their corrected interval on the logit scale): all but the gaps."""
    return np.array([m not in ("gap", "accuracy_gap") for m in metrics])


def _by_group(a: np.ndarray) -> np.ndarray:
    """``(metrics, parts, clusters, groups) -> (groups, metrics, parts, clusters)``: items last, for :func:`ppi_ratio`."""
    return np.moveaxis(a, 3, 0)


def corrected(
    judgements: pd.DataFrame, agree: pd.DataFrame, by: list[str], *, level: float, against=None
) -> tuple[pd.DataFrame, pd.DataFrame | None]:
    """Every system's and group's metrics corrected by the labels (:func:`stats_mtbias.uncertainty.ppi.ppi_ratio`),
    and the systems' paired differences so corrected.

    `judgements` is :func:`_labelled_table`'s combined table. Returns ``(estimates, comparisons)``: per system,
    group and metric the judge's figure (``uncorrected``), the corrected one with its interval, ``agreement``,
    ``n_labelled`` and ``n_unlabelled`` items and ``lambda``; per pair the corrected difference on the items both
    systems were judged on (the rectifier on those labelled for both).
    """
    counts, names, labels_of_groups, _, _ = design_arrays(judgements, by)
    metrics = metrics_of(counts.shape[-1])
    split = [n.rsplit(_ROLE, 1) for n in names]
    systems = list(dict.fromkeys(s for s, _ in split))
    index = {(s, r): i for i, (s, r) in enumerate(split)}
    empty = np.zeros_like(counts[:, 0])

    def role(s: str, r: str) -> np.ndarray:
        return counts[:, index[(s, r)]] if (s, r) in index else empty

    found = {}
    for s in systems:
        f = role(s, "judged") + role(s, "judge on labelled")  # (clusters, groups, cells): the two are disjoint items
        y = role(s, "labels")
        lab = role(s, "labels")[..., : len(GENDERS)].sum(axis=-1) > 0
        unl = ~lab & (f[..., : len(GENDERS)].sum(axis=-1) > 0)
        found[s] = (f, y, lab, unl)
    agreement = _agreement(agree, by, labels_of_groups)
    group_values = {
        label: dict(zip(by, label.split(" | "))) if label != ALL else dict.fromkeys(by, ALL) for label in labels_of_groups
    }
    rows, thin = [], []
    for s in systems:
        f, y, lab, unl = found[s]
        num_f, den_f, coef = _ppi_parts(f, metrics)  # (metrics, 2, clusters, groups)
        num_y, den_y, _ = _ppi_parts(y, metrics)
        move = _by_group
        res = ppi_ratio(
            move(num_y),
            move(den_y),
            move(num_f),
            move(den_f),
            lab.T[:, None],
            unl.T[:, None],
            coef=coef,
            level=level,
            share=_shares(metrics),
        )
        for g, label in enumerate(labels_of_groups):
            if res.n_labelled[g, 0] < MIN_LABELLED:
                thin.append(
                    f"{s} ({label}: {int(res.n_labelled[g, 0])})"
                    if len(labels_of_groups) > 1
                    else f"{s} ({int(res.n_labelled[g, 0])})"
                )
            for k, metric in enumerate(metrics):
                reach = 2.0 if metric == "accuracy_gap" else 1.0
                floor = -reach if metric in ("gap", "accuracy_gap") else 0.0
                rows.append(
                    {
                        "system": s,
                        GROUP: label,
                        **group_values[label],
                        "metric": metric,
                        "uncorrected": res.naive[g, k],
                        "corrected": res.estimate[g, k],
                        "corrected_ci_low": max(res.low[g, k], floor),
                        "corrected_ci_high": min(res.high[g, k], reach),
                        "agreement": agreement.get((s, label), np.nan),
                        "n_labelled": int(res.n_labelled[g, k]),
                        "n_unlabelled": int(res.n_unlabelled[g, k]),
                        "lambda": float(res.lam[g, k]),
                    }
                )
    if thin:
        warnings.warn(
            f"labels: fewer than {MIN_LABELLED} labelled items for {', '.join(thin)}; their corrected intervals "
            "rest on few labels (a floor on the judge's error variance keeps them wide)",
            DataQualityWarning,
            stacklevel=4,
        )
    estimates = _group_column(_subset_language(pd.DataFrame(rows), by), by)
    comparisons = None
    if len(systems) > 1:
        z = special.ndtri(0.5 + level / 2)
        rows = []
        for a, b in system_pairs(systems, against):
            fa, ya, la, ua = found[systems[a]]
            fb, yb, lb, ub = found[systems[b]]
            lab = la & lb  # the rectifier of a difference: the items labelled for both systems
            unl = ~lab & (la | ua) & (lb | ub)  # the judge's part: the other items both systems were judged on
            parts = [_ppi_parts(c, metrics) for c in (fa, fb, ya, yb)]
            coef = np.concatenate([parts[0][2], -parts[1][2]], axis=1)
            num_f, den_f = (_by_group(np.concatenate([parts[0][j], parts[1][j]], axis=1)) for j in (0, 1))
            num_y, den_y = (_by_group(np.concatenate([parts[2][j], parts[3][j]], axis=1)) for j in (0, 1))
            res = ppi_ratio(num_y, den_y, num_f, den_f, lab.T[:, None], unl.T[:, None], coef=coef, level=level)
            for g, label in enumerate(labels_of_groups):
                for k, metric in enumerate(metrics):
                    reach = 4.0 if metric == "accuracy_gap" else 2.0 if metric == "gap" else 1.0
                    se = res.se[g, k]
                    diff = res.estimate[g, k]
                    with np.errstate(invalid="ignore", divide="ignore"):
                        pvalue = 2 * special.ndtr(-abs(diff) / se) if se > 0 else float(diff == 0)
                    rows.append(
                        {
                            "system_a": systems[a],
                            "system_b": systems[b],
                            GROUP: label,
                            **group_values[label],
                            "metric": metric,
                            "diff": diff,
                            "ci_low": max(diff - z * se, -reach),
                            "ci_high": min(diff + z * se, reach),
                            "p_value": float(pvalue),
                            "method": "prediction-powered (PPI++), paired on items",
                            "ci_method": "prediction-powered (PPI++) normal, paired on items",
                            "n": int(res.n_labelled[g, k] + res.n_unlabelled[g, k]),
                        }
                    )
        comparisons = pd.DataFrame(rows)
    return estimates, comparisons

"""The shares engine's wiring, shared by the studies that count judgements into shares (``rates``, Prates).

A validated judgement table (``system, cluster, by:<column>…, stratum, gender, n`` and optionally ``gold``: what
:func:`stats_mtbias.studies.rates.read_judgements` gives) is counted into ``(clusters, systems, groups (+ all),
cells)`` (:func:`design_arrays`), and the metrics of :data:`stats_mtbias.stats.metrics.RATES` that its cells feed
get, from the engine of :mod:`stats_mtbias.stats.metrics`, their estimates and intervals, the paired comparisons of
systems (on the cells both have, :func:`~stats_mtbias.studies._common.pair_shared`) and the bootstrap differences
between groups (:func:`analyse`). The statistics are the floor's; this module only wires them into frames.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations

import numpy as np
import pandas as pd
from scipy import special

from stats_mtbias import _defaults
from stats_mtbias._validation import check_choice, check_level, check_positive_int, check_rng
from stats_mtbias.result import adjust_within, family_keys
from stats_mtbias.schema import GENDERS
from stats_mtbias.significance.multitest import CORRECTIONS
from stats_mtbias.stats.metrics import GOLD_CELLS, RATES, Metric, MetricSet
from stats_mtbias.studies._common import (
    adjust,
    lacking,
    pair_shared,
    resample_pvalue,
    system_pairs,
    warn_unshared,
)
from stats_mtbias.tables import count_cube
from stats_mtbias.uncertainty.bootstrap import BootstrapResult, cluster_bootstrap
from stats_mtbias.uncertainty.linearization import weighted_sum

ALL = "all"
# ``interval``: the score intervals (Wilson on the effective sample size, cluster-robust normal or MOVER for a gap) or
# a cluster bootstrap interval.
INTERVALS = ("score", "percentile", "bca")
# The cells of a count cube: the five genders, and with a gold column per gold gender its correct, identified and
# unknown outputs.
CELL_NAMES = (*GENDERS, *GOLD_CELLS)
GROUP = "_group"  # the label of a row's group while it is built: never the name of a user's column


def metric_set(cells: int, metrics: Iterable[Metric] = RATES) -> MetricSet:
    """The metrics a cube of `cells` cells (:data:`CELL_NAMES`, or the five genders without gold) can feed."""
    return MetricSet(metrics, CELL_NAMES[:cells])


def _with_all(counts: np.ndarray, add_all: bool) -> np.ndarray:
    """Append the ``all`` group (sum over groups) along axis 2."""
    return np.concatenate([counts, counts.sum(axis=2, keepdims=True)], axis=2) if add_all else counts


def design_arrays(
    judgements: pd.DataFrame, by: list[str], *, rows_as_clusters: bool = False
) -> tuple[np.ndarray, list[str], list[str], np.ndarray, np.ndarray | None]:
    """``(counts, systems, groups, strata codes, frequency)``; counts ``(clusters, systems, groups (+ all), genders)``.

    With `rows_as_clusters` (a table of cells, every judgement its own cluster:
    :func:`~stats_mtbias.studies.rates.read_judgements` without a ``cluster``) a row of `counts` is one
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


def analyse(
    judgements: pd.DataFrame,
    *,
    by: list[str] | tuple[str, ...] = (),
    n_boot: int = _defaults.N_BOOT,
    rng: np.random.Generator | int = _defaults.SEED,
    level: float = _defaults.LEVEL,
    interval: str = "percentile",
    correction: str = _defaults.CORRECTION,
    rows_as_clusters: bool = False,
    against: list[str] | None = None,
    family: str | list[str] = "metric",
    samples: bool = False,
    unit: str = "clusters",
    metrics: Iterable[Metric] = RATES,
) -> tuple[pd.DataFrame, pd.DataFrame | None, pd.DataFrame | None]:
    """Estimates, comparisons of systems and differences of groups of a judgement table (`rates.read_judgements`).

    `rows_as_clusters`: the table counts cells of judgements that are each their
    own cluster (:func:`~stats_mtbias.studies.rates.read_judgements` without a ``cluster``). The bootstrap and
    the cluster-robust variances then weight each cell by its judgements: the
    same numbers as a table of one row per judgement, in the memory of the cells.

    ``n`` of an estimate is the clusters (items) with an identified output in the
    group, ``n_outputs`` the identified outputs; of a comparison, the clusters both
    systems have an identified output in. `against` compares the named systems
    with each other system instead of every pair; `family` is the family of
    ``p_adjusted`` (:func:`stats_mtbias.result.adjust`).

    `samples`: the counts are clusters' samples averaged (:func:`~stats_mtbias.studies.rates.read_judgements`
    with ``sample``). The analytic design effect is then not floored at 1 (an
    item's averaged samples may be worth more than one output, and a floor on the
    outputs would make duplicated samples look like information), except where
    the effective minority count is at most ``FEW_EVENTS`` (the worst case there).

    `unit`: what the clusters are called in the warning on pairs that cover different ones (Prates: ``items``).

    `metrics`: the declared metrics (:data:`stats_mtbias.stats.metrics.RATES` by default); every one the cells feed
    gets its row in each frame.
    """
    n_boot = check_positive_int(n_boot, "n_boot", minimum=1 if interval == "score" else 100)
    level = check_level(level)
    check_choice(interval, INTERVALS, "interval")
    check_choice(correction, CORRECTIONS, "correction")
    rng = check_rng(rng)
    by = list(by)
    counts, systems, labels, strata_codes, frequency = design_arrays(judgements, by, rows_as_clusters=rows_as_clusters)
    groups = labels[:-1] if by and len(labels) > 1 else labels  # without the added "all"
    totals = weighted_sum(counts, frequency)
    z = special.ndtri(0.5 + level / 2)
    found = metric_set(counts.shape[-1], metrics)
    estimate, low, high, boot = found.intervals(
        counts, strata_codes, frequency, level=level, interval=interval, n_boot=n_boot, rng=rng, samples=samples
    )
    metrics = found.names
    # Per metric, the cells of its identified and unknown outputs (an accuracy's: those of its gold genders).
    is_identified, is_unknown = found.identified, found.unknown
    raw = totals
    if "outputs" in judgements:  # samples averaged: n_outputs and n_unknown still count outputs, not item-equivalents
        raw = weighted_sum(design_arrays(judgements.assign(n=judgements["outputs"]), by)[0])
    unknown, identified = raw @ is_unknown.T, raw @ is_identified.T  # (systems, groups, metrics)
    present = found.present(counts)  # (clusters, systems, groups, metrics): an identified output there
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
                paired = found.paired(counts, a, b, estimate, boot, strata_codes, frequency, present, interval, z, samples)
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
                sub_estimate = found.statistic(sub.sum(axis=0)[None])[0]
                sub_boot = None
                if boot is not None:
                    sub_boot = cluster_bootstrap(
                        sub, found.statistic, n_boot=n_boot, rng=rng.spawn(1)[0], strata=sub_strata, level=level, method=interval
                    )
                paired = found.paired(
                    sub, 0, 1, sub_estimate, sub_boot, sub_strata, None, found.present(sub), interval, z, samples
                )
            diff, d_low, d_high, pvalue, method, ci_method, both = paired
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

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

import numpy as np
import pandas as pd

from stats_mtbias import _defaults
from stats_mtbias._validation import check_choice
from stats_mtbias.datasets.counting import (
    as_counting_source,
    count_rows,
    first_location,
    is_dask_frame,
    source_digest,
    source_label,
)
from stats_mtbias.errors import DataError, UsageError
from stats_mtbias.planning.designs import alone, two_systems
from stats_mtbias.planning.simulate import PairedDesign
from stats_mtbias.result import COMPARE_COLUMNS, TABLE_COLUMNS, Spec, StudyResult
from stats_mtbias.schema import GENDERS
from stats_mtbias.stats.metrics import GOLDS, RATES, MetricSet
from stats_mtbias.studies._common import accounting, check_systems, integrity, provenance, restrict_items
from stats_mtbias.studies._samples import Kept, consistency, sample_weights, unit_codes, warn_unequal
from stats_mtbias.studies._shares import (  # noqa: F401 (analyse, design_arrays: the study's engine, re-exported)
    ALL,
    CELL_NAMES,
    CI_KINDS,
    analyse,
    design_arrays,
    metric_set,
)
from stats_mtbias.studies._study import Study, finish, with_notes

# The metrics, declared once in :data:`stats_mtbias.stats.metrics.RATES`: the shares and the gap, and with a gold
# column the accuracies and their gap.
METRICS = MetricSet(RATES, GENDERS).names
ACCURACY = tuple(name for name in MetricSet(RATES, CELL_NAMES).names if name not in METRICS)
CELLS = len(CELL_NAMES)  # the cells of a count cube with gold (the first five: the genders, without gold)
# What evaluate (smb.rates) accepts, in the package's vocabulary (_defaults.INTERVALS).
INTERVALS = ("percentile", "bca", "score")
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
    metrics = metric_set(counts.shape[-1])
    return PairedDesign(
        counts,
        metrics.statistic,
        (labels.index(group), metrics.index(metric)),
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
    interval: str = "percentile",
    correction: str = _defaults.CORRECTION,
    engine: str = "auto",
    against: list[str] | None = None,
    family: str | list[str] = "metric",
    sample: str | None = None,
    gold: str | None = None,
    items=None,
) -> StudyResult:
    """Read (or take) a judgement table and analyse it (what :func:`stats_mtbias.rates` returns); see the module
    docstring. ``interval`` takes the package's one vocabulary (a bootstrap interval, or ``"score"``), read here into
    :func:`analyse`'s ``ci`` and ``interval``."""
    check_choice(interval, INTERVALS, "interval")
    asked = interval  # the provenance records the option as given
    ci = "analytic" if interval == "score" else "bootstrap"
    interval = "percentile" if ci == "analytic" else interval  # unused by the analytic intervals
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
    if items is not None and cluster is None:
        raise UsageError("`items` names items of the cluster column: give `cluster` (the item column).")
    attrs = dict(table.attrs)
    table, restriction = restrict_items(
        table, items, column="cluster", keys=["system"], count="outputs" if sample else "n", study="rates"
    )
    table.attrs.update(attrs)
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
            "interval": asked,
            "rows": int(table["outputs" if sample else "n"].sum()),
            "engine": engine,
            "against": against,
            "sample": sample,
            **({"gold": gold} if gold else {}),  # without gold, the record is what it was
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
    return finish(
        "rates",
        estimates[[*TABLE_COLUMNS[:3], *extra, *TABLE_COLUMNS[3:]]].astype({"system": str, "subset": str}),
        comparisons,
        record,
        frames,
        allowed=FRAMES,
        correction=correction,
        family=family,
        items=restriction,
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

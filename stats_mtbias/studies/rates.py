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

import numpy as np
import pandas as pd
from scipy import special

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
from stats_mtbias.errors import DataError, DataQualityWarning, UsageError
from stats_mtbias.planning.designs import alone, two_systems
from stats_mtbias.planning.simulate import PairedDesign
from stats_mtbias.result import COMPARE_COLUMNS, TABLE_COLUMNS, Spec, StudyResult
from stats_mtbias.schema import GENDERS
from stats_mtbias.stats.metrics import GOLDS, RATES, MetricSet
from stats_mtbias.studies._common import (
    accounting,
    adjust,
    check_systems,
    integrity,
    provenance,
    restrict_items,
    system_pairs,
)
from stats_mtbias.studies._samples import Kept, consistency, sample_weights, unit_codes, warn_unequal
from stats_mtbias.studies._shares import (
    ALL,
    CELL_NAMES,
    GROUP,
    _group_column,
    _subset_language,
    analyse,
    design_arrays,
    metric_set,
)
from stats_mtbias.studies._study import Study, finish, with_notes
from stats_mtbias.uncertainty.ppi import MIN_LABELLED, ppi_ratio

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
    labels: str | None = None,
    items=None,
) -> StudyResult:
    """Read (or take) a judgement table and analyse it (what :func:`stats_mtbias.rates` returns); see the module
    docstring. ``interval``: a bootstrap interval, or ``"score"`` (the package's one vocabulary, :func:`analyse`'s
    too)."""
    check_choice(interval, INTERVALS, "interval")
    bootstrap = interval != "score"
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
    if items is not None and labels:
        # The validation sample must be drawn from the items analysed; restricting it too is not done yet.
        raise UsageError("`items` and `labels` together are not supported yet: restrict the table before calling.")
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
            if bootstrap
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
        + (" (bootstrap p-values: the replicates' percentile tail, a normal tail beyond them)" if bootstrap else "")
    )
    record = provenance(
        method,
        {source_label(source): source_digest(source)},
        rng=rng,
        level=level,
        n_boot=n_boot if bootstrap else None,
        correction=correction,
        family=family,
        options={
            "outcome": outcome,
            "by": by,
            "system": system,
            "cluster": cluster,
            "strata": strata,
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


def _ppi_parts(counts: np.ndarray, engine: MetricSet) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(num, den, coef)`` of every metric: num, den ``(metrics, 2, clusters, ...)`` (a ratio's second part is 0
    but for a gap of two denominators, e.g. the accuracy gap: its first part minus its second), coef ``(metrics, 2)``."""
    nums, dens, coefs = [], [], []
    for k in range(len(engine)):
        if engine.apart[k]:
            first, second = engine.parts[k]
            parts = [engine.linear_parts(counts, first), engine.linear_parts(counts, second)]
            coefs.append([1.0, -1.0])
        else:
            y, m = engine.linear_parts(counts, k)
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
    engine = metric_set(counts.shape[-1])
    metrics = engine.names
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
        num_f, den_f, coef = _ppi_parts(f, engine)  # (metrics, 2, clusters, groups)
        num_y, den_y, _ = _ppi_parts(y, engine)
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
            parts = [_ppi_parts(c, engine) for c in (fa, fb, ya, yb)]
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

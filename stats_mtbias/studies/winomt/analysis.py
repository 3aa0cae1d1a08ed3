"""WinoMT metrics with intervals per system and language, paired comparisons, "+Adj", coverage and pilots.

Intervals: bootstrap over items stratified by stereotype × gold gender (both
fixed in size by WinoMT's design), score intervals for the accuracies and ΔS; one
weight matrix serves every system of a language. Comparisons of two systems on the
same language, each from one method (the interval excludes 0 exactly when
p < 1 − level): accuracies by Tango's score interval and the McNemar score test it
inverts; ΔS by MOVER of the pro and anti Tango intervals, its p-value the one the
MOVER interval implies; F1 and ΔG by the item jackknife's t. Metrics are shares in
[0, 1] (the paper prints percent).
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pandas as pd

from stats_mtbias import _defaults
from stats_mtbias._validation import check_choice, check_level, check_positive_int, check_rng
from stats_mtbias.errors import DataError, DataQualityWarning, UsageError
from stats_mtbias.estimators.winomt import FEATURES, METRICS, item_features, winomt_metrics
from stats_mtbias.planning.designs import alone, one_language, two_systems
from stats_mtbias.planning.simulate import PairedDesign
from stats_mtbias.significance.effect_sizes import difference_in_proportions
from stats_mtbias.significance.mcnemar import paired_difference_test
from stats_mtbias.significance.multitest import CORRECTIONS
from stats_mtbias.studies._common import adjust, comparison_frame, lacking, system_pairs, warn_unshared
from stats_mtbias.studies._samples import consistency as shared_consistency
from stats_mtbias.studies._samples import icc_anova as icc_anova  # re-exported: the ICC of the consistency frame
from stats_mtbias.studies._samples import unit_codes, warn_unequal
from stats_mtbias.uncertainty.analytic import FEW_EVENTS, _interval_pvalue, modified_wilson_interval, mover_interval
from stats_mtbias.uncertainty.bootstrap import (
    ConfidenceInterval,
    cluster_bootstrap,
)
from stats_mtbias.uncertainty.clustered import clustered_paired_table, effective_counts
from stats_mtbias.uncertainty.differences import paired_difference_interval

MCNEMAR_METRICS = {"acc": "correct", "acc_pro": "correct_pro", "acc_anti": "correct_anti"}


FEATURE_INDEX = {name: i for i, name in enumerate(FEATURES)}


def language_arrays(part: pd.DataFrame) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray]:
    """One language's judgements as the bootstrap's arrays: ``(systems, items, strata, data)``.

    ``data`` has shape ``(items, systems, FEATURES)``; ``strata`` is stereotype × gold
    gender of every item (both fixed in number by WinoMT's design). Several rows of
    an item and system (its samples, :func:`sample_counts`) are averaged: an item's
    features are the means over its samples, so every item weighs the same.
    """
    systems, items, strata, data, _ = _arrays(part)
    return systems, items, strata, data


def sample_counts(part: pd.DataFrame) -> tuple[list[str], np.ndarray, np.ndarray]:
    """``(systems, items, samples)``: the samples of each item and system of one language, ``(items, systems)``."""
    systems, items, _, _, samples = _arrays(part)
    return systems, items, samples


def _arrays(part: pd.DataFrame):
    language = part["language"].iloc[0]
    systems = list(dict.fromkeys(part["system"]))
    items = np.sort(part["item"].unique())
    first = part.drop_duplicates("item").set_index("item").reindex(items)
    strata = (first["stereotype"].astype(str) + ":" + first["gold"].astype(str)).to_numpy()
    rows = item_features(part["gold"].to_numpy(), part["gender"].to_numpy(), part["stereotype"].to_numpy())
    cell = (
        np.searchsorted(items, part["item"].to_numpy()) * len(systems) + pd.Categorical(part["system"], categories=systems).codes
    )
    size = len(items) * len(systems)
    samples = np.bincount(cell, minlength=size).astype(float)
    if (samples == 0).any():
        system = systems[int(np.flatnonzero(samples == 0)[0] % len(systems))]
        raise DataError(f"{system}/{language}: judgements do not cover the same items as the other systems")
    # The one rule of every study: an item's features are the means over its known samples (an unknown sample is
    # an absent one); an item without a known sample is unknown (wrong, as one unread output).
    # (Sums of whole numbers over a count, as sample_weights's weights but exact: duplicating samples changes no bit.)
    known = (part["gender"].astype(str) != "unknown").to_numpy()
    n_known = np.bincount(cell, weights=known, minlength=size)
    use = known | (n_known[cell] == 0)
    sums = np.stack([np.bincount(cell, weights=rows[:, f] * use, minlength=size) for f in range(rows.shape[1])], axis=-1)
    data = (sums / np.where(n_known > 0, n_known, samples)[:, None]).reshape(len(items), len(systems), rows.shape[1])
    return systems, items, strata, data, samples.reshape(len(items), len(systems))


def pilot_design(judgements: pd.DataFrame, systems: tuple[str, str], language: str, metric: str):
    """Two systems' WinoMT judgements on one language as a power-simulation pilot.

    Returns a :class:`~stats_mtbias.planning.simulate.PairedDesign` on the
    study's own item features, estimator (in shares) and strata.
    """
    check_choice(metric, METRICS, "metric")
    part = judgements[(judgements["language"] == language) & judgements["system"].isin(systems)]
    found = set(part["system"])
    missing = [s for s in systems if s not in found]
    if missing:
        have = sorted(set(judgements.loc[judgements["language"] == language, "system"]))
        raise UsageError(f"{', '.join(missing)} has no {language} judgements in the pilot; it has {', '.join(have) or 'none'}.")
    order, _, strata, data = language_arrays(part)
    data = data[:, [order.index(s) for s in systems]]
    return PairedDesign(
        data,
        winomt_metrics,
        (METRICS.index(metric),),
        strata,
        label=f"{language} {metric}: {systems[0]} − {systems[1]}",
        unit="items",
    )


ABSENT = ("missing", "not_in_file")  # reasons of an item a file does not translate at all


MISSING_RULES = ("shared", "wrong")


MIN_COVERAGE = 0.99  # below this share of the items translated, a file is named in a warning (exit 65 under --strict)


def coverage(table: pd.DataFrame, n_items: int) -> pd.DataFrame:
    """Items each (system, language) translated: ``system, language, translated, coverage`` (of `n_items`)."""
    present = table.loc[~table["reason"].isin(ABSENT), ["system", "language", "item"]].drop_duplicates()
    out = (
        present.groupby(["system", "language"], sort=False)
        .size()
        .rename("translated")
        .reindex(table[["system", "language"]].drop_duplicates().set_index(["system", "language"]).index, fill_value=0)
        .reset_index()
    )
    out["coverage"] = out["translated"] / n_items
    return out


def shared_items(
    table: pd.DataFrame,
    notes: list[str] | None = None,
    origin: dict | None = None,
    *,
    missing: str = "shared",
    n_items: int | None = None,
) -> pd.DataFrame:
    """The items each language is analysed on: one rule, whether a file stands alone, beside others, or is judgements.

    ``missing="shared"`` (default): the items every system of the language
    translated, so that Acc measures gender accuracy, not coverage (a file alone
    with half the items is analysed on that half). ``missing="wrong"``: the
    paper's rule, every item, an untranslated one counted as an unknown reading
    (wrong). Either way each (system, language) whose file translates fewer than
    :data:`MIN_COVERAGE` of the items is named in a
    :class:`~stats_mtbias.errors.DataQualityWarning` (exit 65 under ``--strict``),
    and the coverage is a column of the estimates. A system that covers no item
    at all is refused.
    """
    import warnings

    check_choice(missing, MISSING_RULES, "missing")
    n_items = n_items or int(table["item"].nunique())
    parts, lacks = [], []
    for language, part in table.groupby("language", sort=False):
        present = ~part["reason"].isin(ABSENT)
        covered = (
            part.loc[present].groupby("system", sort=False)["item"].nunique().reindex(part["system"].unique(), fill_value=0)
        )  # items, not rows: an item may have several samples
        empty = covered[covered == 0]
        if len(empty):
            system = str(empty.index[0])
            raise DataError(
                f"{system}/{language}: no WinoMT item is translated (an empty file, or none of its lines is a WinoMT sentence)",
                (origin or {}).get((system, language)),
            )
        for system, n in covered.items():
            if n < MIN_COVERAGE * n_items:
                where = (origin or {}).get((system, language))
                rule = (
                    "analysed on the items every system of the language translated"
                    if missing == "shared"
                    else "its untranslated items count as wrong (missing='wrong')"
                )
                message = (
                    f"WinoMT {system}/{language}{f' ({where})' if where else ''}: {int(n):,} of {n_items:,} items "
                    f"translated ({n / n_items:.1%}); {rule}"
                )
                warnings.warn(message, DataQualityWarning, stacklevel=3)
                if notes is not None:
                    notes.append(message)
        if missing == "wrong":
            parts.append(part)
            continue
        everyone = part.loc[present].groupby("item")["system"].nunique()
        keep = set(everyone[everyone == part["system"].nunique()].index)
        # The one rule's words (issue 45) for every pair of the language that covers different items.
        done = part.loc[present, ["item", "system"]].drop_duplicates()
        names = [str(s) for s in part["system"].unique()]
        covered = pd.crosstab(done["item"], done["system"].astype(str)).reindex(columns=names, fill_value=0).to_numpy() > 0
        lacks += [
            lacking(covered, [f"{s}/{language}" for s in names], a, b)
            for a, b in combinations(range(len(names)), 2)
            if not np.array_equal(covered[:, a], covered[:, b])
        ]
        if not keep:  # nothing to compare them on: said, not an empty table that breaks further down
            systems = [str(s) for s in part["system"].unique()]
            files = {f for f in ((origin or {}).get((s, language)) for s in systems) if f}
            raise DataError(
                f"{language}: the systems {', '.join(systems)} translated no WinoMT item in common, so "
                "there is nothing to analyse them on; evaluate them separately, or count untranslated "
                "items as wrong (missing='wrong', --missing wrong)",
                files.pop() if len(files) == 1 else None,
            )
        parts.append(part[part["item"].isin(keep)])
    message = warn_unshared(
        lacks, estimates="so are the estimates: every system of a language on the items all of them translated"
    )
    if message and notes is not None:
        notes.append(message)
    return pd.concat(parts, ignore_index=True)


def check_samples(table: pd.DataFrame, notes: list[str] | None = None) -> bool:
    """Whether any item has several samples (rows) of a system; warn where their number differs between items.

    An item's metrics are the means over its known samples, so every item weighs
    the same; with unequal numbers of known samples that is a choice the reader
    should know of (a :class:`~stats_mtbias.errors.DataQualityWarning`, in `notes` too).
    """
    if "sample" not in table:
        return False
    present = table[~table["reason"].isin(ABSENT)]
    per_item = present.groupby(["system", "language", "item"], sort=False).size()
    if not len(per_item) or per_item.max() <= 1:
        return False
    known = (present["gender"].astype(str) != "unknown").to_numpy()
    units = unit_codes(present, ["system", "language", "item"])
    warn_unequal(present, ["system", "language"], units, known, "WinoMT", notes=notes)
    return True


CONSISTENCY_COLUMNS = [
    "system",
    "language",
    "gold",
    "n",
    "samples",
    "n_several",
    "disagree",
    "disagree_ci_low",
    "disagree_ci_high",
    "female",
    "female_ci_low",
    "female_ci_high",
    "icc_female",
    "icc_correct",
]


def consistency(judgements: pd.DataFrame, *, level: float = _defaults.LEVEL) -> pd.DataFrame:
    """Consistency of sampled outputs per system, language and gold gender (``all`` too): :data:`CONSISTENCY_COLUMNS`.

    The one function of every study (:func:`stats_mtbias.studies._samples.consistency`) on the known samples
    (an unknown or absent one is left out):

    - ``disagree``: the share of items (of those with two known samples or more,
      ``n_several``) whose samples are read as different genders, Wilson's interval over items;
    - ``female``: the mean over items of the share of an item's samples read
      female, with Wilson's interval on the effective sample size
      (:func:`~stats_mtbias.uncertainty.clustered.effective_counts`);
    - ``icc_female``, ``icc_correct``: the intraclass correlation of the female
      and the correct indicator between samples of an item
      (:func:`~stats_mtbias.studies._samples.icc_anova`),
      the design effect's ingredient for planning (``1 + (k − 1) ICC``).

    ``n`` is the items with a known sample, ``samples`` their mean number of known samples.
    """
    gender = judgements["gender"].astype(str).to_numpy()
    known = ~judgements["reason"].isin(ABSENT).to_numpy() & (gender != "unknown")
    found = shared_consistency(
        judgements.assign(gold=judgements["gold"].astype(str)),
        keys=["system", "language", "gold"],
        unit=["item"],
        outcome="gender",
        known=known,
        indicators={"female": gender == "female", "correct": gender == judgements["gold"].astype(str).to_numpy()},
        shares=["female"],
        all_of="gold",
        level=level,
    )
    # Rows by (system, language) in order of appearance, then all, male, female, neutral.
    pair = found["system"].astype(str) + "\0" + found["language"].astype(str)
    gold = found["gold"].map({g: i for i, g in enumerate(("all", "male", "female", "neutral"))}).fillna(4)
    found = found.assign(_pair=pd.factorize(pair)[0], _gold=gold).sort_values(["_pair", "_gold"], kind="stable")
    return found[CONSISTENCY_COLUMNS].reset_index(drop=True)


def score_bounds(data: np.ndarray, bounds, level: float, replicates: np.ndarray | None = None):
    """The bootstrap bounds with score intervals for the accuracies and ΔS (shares).

    Acc, Acc_pro and Acc_anti are proportions of items: their interval is
    Wilson's, widened to exact Poisson bounds where ten or fewer items are wrong
    (or right); ΔS = Acc_pro − Acc_anti is a difference of proportions over
    different items, with Newcombe's hybrid score interval from those limits.
    On a small set near 100% the percentile bootstrap covered 0.80 (100 items,
    Acc 97%): its distribution has a few values only.

    F1 and ΔG keep the bootstrap, except where a gender's F1 rests on ten or
    fewer errors (ΔG covered 0.74 there): F1 = 2TP / (2TP + FP + FN) is then
    given Wilson's interval with Poisson ends on 2TP of 2TP + FP + FN (near 1,
    F1 ≈ 1 − errors / (2 · gold), whose variance is that of a proportion of
    that size), and ΔG = F1(male) − F1(female) the MOVER interval of the two
    with their correlation from the bootstrap `replicates` (0 without them).
    """
    low, high = np.array(bounds.low, dtype=float), np.array(bounds.high, dtype=float)
    totals = data.sum(axis=0)  # (systems, FEATURES)
    # Samples (item means between 0 and 1): effective counts of each proportion; 0/1 means give the counts.
    eff = {
        metric: effective_counts(data[..., FEATURE_INDEX[k]], data[..., FEATURE_INDEX[n]], level=level)
        for metric, (k, n) in _PROPORTIONS.items()
    }
    with np.errstate(invalid="ignore", divide="ignore"):
        for metric, (x, n) in eff.items():
            ok = n > 0
            ci = modified_wilson_interval(x, np.where(ok, n, 1), level)
            low[:, METRICS.index(metric)] = np.where(ok, ci.low, np.nan)
            high[:, METRICS.index(metric)] = np.where(ok, ci.high, np.nan)
        (x_pro, n_pro), (x_anti, n_anti) = eff["acc_pro"], eff["acc_anti"]
        ok = (n_pro > 0) & (n_anti > 0)
        if ok.all():
            ds = difference_in_proportions(x_pro, n_pro, x_anti, n_anti, level=level, poisson_ends=True)
            low[:, METRICS.index("delta_s")], high[:, METRICS.index("delta_s")] = ds.low, ds.high
        _few_error_f1(totals, low, high, level, replicates)
    return ConfidenceInterval(low, high)


_PROPORTIONS = {"acc": ("correct", "n"), "acc_pro": ("correct_pro", "pro"), "acc_anti": ("correct_anti", "anti")}


def _few_error_f1(totals: np.ndarray, low: np.ndarray, high: np.ndarray, level: float, replicates) -> None:
    """Score intervals for F1 and MOVER for ΔG where a gender's F1 rests on ten or fewer errors, or where the
    bootstrap's interval is a point (in place)."""
    t = {name: totals[:, FEATURE_INDEX[name]] for name in FEATURE_INDEX}
    parts, few = [], np.zeros(len(totals), dtype=bool)
    for g in ("male", "female"):
        tp = t[f"tp_{g}"]
        errors = (t[f"pred_{g}"] - tp) + (t[f"gold_{g}"] - tp)
        trials = 2 * tp + errors
        ok = trials > 0
        ci = modified_wilson_interval(2 * tp, np.where(ok, trials, 1), level)
        parts.append(
            (np.where(ok, 2 * tp / np.where(ok, trials, 1), np.nan), np.where(ok, ci.low, np.nan), np.where(ok, ci.high, np.nan))
        )  # an undefined F1 (no item of the gender) has no interval
        few |= ok & (errors <= FEW_EVENTS)
    # A bootstrap interval that is a point (a system that always says one gender: its F1s are the same in every
    # replicate, the strata fixing the gold genders) gets the score intervals too.
    point = np.zeros(len(totals), dtype=bool)
    for column in ("f1_male", "f1_female", "delta_g"):
        k = METRICS.index(column)
        point |= ~(high[:, k] > low[:, k])
    few |= point & np.isfinite(parts[0][0]) & np.isfinite(parts[1][0])
    if not few.any():
        return
    (f1m, lm, hm), (f1f, lf, hf) = parts
    corr = np.zeros((len(totals), 2, 2))
    corr[:, 0, 0] = corr[:, 1, 1] = 1.0
    if replicates is not None:
        m, f = replicates[:, :, METRICS.index("f1_male")], replicates[:, :, METRICS.index("f1_female")]
        with np.errstate(invalid="ignore", divide="ignore"):
            r = np.array([np.corrcoef(m[:, s], f[:, s])[0, 1] for s in range(m.shape[1])])
        corr[:, 0, 1] = corr[:, 1, 0] = np.where(np.isfinite(r), r, 0.0)
    dg = mover_interval(np.stack([f1m, f1f], -1), np.stack([lm, lf], -1), np.stack([hm, hf], -1), np.array([1.0, -1.0]), corr)
    for column, (lo, hi) in {"f1_male": (lm, hm), "f1_female": (lf, hf), "delta_g": (dg.low, dg.high)}.items():
        k = METRICS.index(column)
        low[:, k] = np.where(few, lo, low[:, k])
        high[:, k] = np.where(few, hi, high[:, k])


FEW_DISCORDANT = 40  # items read differently by the two systems at or below which the jackknife t has fewer df


PAIRED_ACCURACY = "tango"  # Tango's score interval; its test is McNemar's score (asymptotic) test


def _paired_table(a: np.ndarray, b: np.ndarray, hit: str, of: str) -> tuple[np.ndarray, ...]:
    """The paired 2×2 table (both, a only, b only, neither) of a proportion over the items it is computed on.

    With samples (item means between 0 and 1) the clustered table of
    :func:`~stats_mtbias.uncertainty.clustered.clustered_paired_table` (Durkalski's
    statistic at Δ = 0); with one sample per item the ordinary counts.
    """
    on = a[:, FEATURE_INDEX[of]] > 0
    return clustered_paired_table(a[on, FEATURE_INDEX[hit]], b[on, FEATURE_INDEX[hit]])


def pilot(result, *, systems=None, metric=None, language=None, subset=None):
    """A WinoMT result as a planning pilot for :func:`stats_mtbias.power` (``(kind, payload)``).

    Accuracies of two systems: McNemar's design with the pilot's discordance
    (``"paired"``); every other metric, or one system's precision: simulation
    through the study's own item features, estimator and strata (``"simulate"``).
    """
    judgements = result.frame("judgements")
    language = one_language(judgements, language)
    metric = metric or "delta_g"
    systems = two_systems(result, systems)
    pair = systems if len(systems) == 2 else (systems[0], systems[0])
    design = alone(pilot_design(judgements, pair, language, metric), systems)
    if metric in MCNEMAR_METRICS and len(systems) == 2:
        k = FEATURE_INDEX[MCNEMAR_METRICS[metric]]
        scope = FEATURE_INDEX[{"acc": "n", "acc_pro": "pro", "acc_anti": "anti"}[metric]]
        x = design.counts
        inside = x[:, 0, scope] > 0
        a, b = x[inside, 0, k], x[inside, 1, k]
        # n counts the items a metric is computed on; the evaluation has n / share of them in all.
        return "paired", dict(
            discordance=float(np.mean(a != b)),
            observed=float(np.mean(a) - np.mean(b)),
            metric=f"{language} {metric}",
            comparison=f"{systems[0]} − {systems[1]}",
            unit_scale=float(inside.mean()),
        )
    return "simulate", design


def _jackknife_se(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Item jackknife standard error of every metric's difference A − B (NaN where a metric is undefined)."""
    left_out = winomt_metrics(a.sum(axis=0) - a) - winomt_metrics(b.sum(axis=0) - b)  # (items, METRICS)
    size = len(a)
    return np.sqrt((size - 1) / size * np.sum((left_out - left_out.mean(axis=0)) ** 2, axis=0))


def paired_comparison(data_a: np.ndarray, data_b: np.ndarray, level: float) -> dict[str, np.ndarray | list]:
    """Every metric's difference A − B on the same items: interval, p-value and method, one method each.

    - Acc, Acc_pro, Acc_anti: Tango's (1998) score interval for the paired
      difference and the McNemar score test it inverts (at Δ = 0 Tango's
      statistic is McNemar's ``(b − c)/√(b + c)``), so the interval excludes 0
      exactly when p < 1 − level; no p-value floor.
    - ΔS = (Acc_pro − Acc_anti): MOVER of the pro and the anti Tango intervals
      (different items: uncorrelated), and the normal p-value whose interval is
      that MOVER interval on the side of 0.
    - F1 and ΔG: the item jackknife's t (standard error from the leave-one-item-out
      differences; degrees of freedom the discordant items − 1 where at most
      :data:`FEW_DISCORDANT` items are read differently, else the items − 1), test
      and interval from the same t, within [−1, 1] (ΔG: [−2, 2]). Where the
      jackknife has no spread (no discordant item, none that F1 sees, or one
      system right and the other wrong on every item), two pseudo-items, one read
      better by each system, give it one, so that the interval is never a point.

    Parameters
    ----------
    data_a, data_b : arrays (items, FEATURES)
        The two systems' item features (:func:`~stats_mtbias.estimators.winomt.item_features`).
    level : float
        Confidence level.

    Returns
    -------
    dict
        ``diff, low, high, p_value`` (arrays over :data:`METRICS`), ``method`` (list)
        and ``n`` (items each difference rests on).
    """
    from scipy import stats

    a, b = np.asarray(data_a, float), np.asarray(data_b, float)
    k = len(METRICS)
    diff = winomt_metrics(a.sum(axis=0)) - winomt_metrics(b.sum(axis=0))
    low, high, pvalue = np.full(k, np.nan), np.full(k, np.nan), np.full(k, np.nan)
    method = [""] * k
    n = np.full(k, len(a), dtype=int)
    parts = {}
    z = float(stats.norm.ppf(0.5 + level / 2))
    tables, present = [], []
    for metric, (hit, of) in _PROPORTIONS.items():
        m = METRICS.index(metric)
        n[m] = int(np.sum(a[:, FEATURE_INDEX[of]] > 0))
        method[m] = "Tango score interval, McNemar score test"
        if n[m] > 0:
            tables.append(_paired_table(a, b, hit, of))
            present.append(metric)
    if present:  # the accuracies' tables as arrays: one interval and one test for all of them
        table = np.array(tables, dtype=float).T
        es = paired_difference_interval(*table, level=level, method=PAIRED_ACCURACY)
        tests = paired_difference_test(*table, method=PAIRED_ACCURACY)
        for i, metric in enumerate(present):
            m = METRICS.index(metric)
            parts[metric] = (float(es.estimate[i]), float(es.low[i]), float(es.high[i]))
            low[m], high[m], pvalue[m] = parts[metric][1], parts[metric][2], float(tests.pvalue[i])
    m = METRICS.index("delta_s")
    n[m] = n[METRICS.index("acc_pro")] + n[METRICS.index("acc_anti")]
    method[m] = "MOVER of the Tango intervals (pro, anti)"
    if "acc_pro" in parts and "acc_anti" in parts:
        (pro_est, pro_low, pro_high), (anti_est, anti_low, anti_high) = parts["acc_pro"], parts["acc_anti"]
        ds = mover_interval(
            np.array([pro_est, anti_est]),
            np.array([pro_low, anti_low]),
            np.array([pro_high, anti_high]),
            np.array([1.0, -1.0]),
            np.eye(2),
        )
        low[m], high[m] = float(ds.low), float(ds.high)
        pvalue[m] = float(_interval_pvalue(np.asarray(diff[m]), ds, z))
    discordant = int(np.sum(np.any(a != b, axis=1)))
    few = discordant <= FEW_DISCORDANT
    dof = max(discordant, 2) - 1 if few else len(a) - 1
    se = _jackknife_se(a, b)
    # No spread (no item read differently, or none that F1 sees: "unknown" against "neutral", or one system right
    # on every item and the other wrong on every one): two pseudo-items, one read better by each system, give the
    # jackknife a spread, so that the interval is never a point nor p exactly 0.
    flat = se == 0
    if flat.any():
        pseudo = [
            item_features(np.array(["male", "female"]), np.array(p), np.array(["pro", "anti"]))
            for p in (["male", "male"], ["female", "female"])
        ]
        se = np.where(flat, _jackknife_se(np.concatenate([a, pseudo[0]]), np.concatenate([b, pseudo[1]])), se)
    t = stats.t.ppf(0.5 + level / 2, dof)
    for metric in ("f1_male", "f1_female", "delta_g"):
        m = METRICS.index(metric)
        bound = 2.0 if metric == "delta_g" else 1.0  # a difference of F1s is in [-1, 1], of ΔGs in [-2, 2]
        low[m], high[m] = max(diff[m] - t * se[m], -bound), min(diff[m] + t * se[m], bound)
        # se > 0 here (the pseudo-items), or NaN where an F1 is undefined: no interval, so no test either.
        pvalue[m] = 2 * stats.t.sf(abs(diff[m]) / se[m], dof)
        method[m] = f"jackknife t ({discordant} discordant items, {dof} df{', 2 pseudo-items' if flat[m] else ''})"
    return {"diff": diff, "low": low, "high": high, "p_value": pvalue, "method": method, "n": n}


def analyse(
    judgements: pd.DataFrame,
    *,
    n_boot: int = _defaults.N_BOOT,
    rng: np.random.Generator | int = _defaults.SEED,
    level: float = _defaults.LEVEL,
    correction: str = _defaults.CORRECTION,
    interval: str = "percentile",
    against: list[str] | None = None,
    family: str | list[str] = "metric",
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Metrics with intervals per (system, language), and paired comparisons.

    Parameters
    ----------
    judgements : DataFrame
        ``system, language, item, gold, stereotype, gender``: every item of every
        (system, language) pair.
    n_boot : int
        Bootstrap resamples (F1 and ΔG intervals of each system).
    rng : Generator or int
        Source of the random numbers.
    level : float
        Confidence level.
    correction : {"holm", "bh", "none"}
        Adjustment of the comparisons' p-values within each family.
    interval : {"percentile", "bca"}
        Bootstrap interval (BCa adds the item jackknife).
    against : list of str, optional
        Compare these systems with every other one instead of every pair.
    family : {"metric", "all"} or list of str
        The family of ``p_adjusted`` (:func:`stats_mtbias.result.adjust`).

    Returns
    -------
    (estimates, comparisons)
        ``estimates``: ``system, language, n, n_unknown, n_outputs`` (outputs: rows) and per metric its value,
        ``<metric>_ci_low``, ``<metric>_ci_high``, ``<metric>_n`` (shares). ``comparisons``:
        ``system_a, system_b, language, subset, metric, diff, ci_low, ci_high, p_value,
        p_adjusted, method, ci_method, n, family`` (see :func:`paired_comparison`).
    """
    n_boot = check_positive_int(n_boot, "n_boot")
    level = check_level(level)
    rng = check_rng(rng)
    check_choice(correction, CORRECTIONS, "correction")
    check_choice(interval, ("percentile", "bca"), "interval")
    estimate_rows, compare_rows = [], []
    for language, part in judgements.groupby("language", sort=False):
        systems, items, strata, data = language_arrays(part)
        boot = cluster_bootstrap(data, winomt_metrics, n_boot=n_boot, rng=rng, strata=strata, level=level, method=interval)
        point = boot.estimate
        bounds = score_bounds(data, boot.confidence_interval(), level, boot.replicates)
        totals = data.sum(axis=0)
        per_metric_n = {
            "acc": totals[:, FEATURE_INDEX["n"]],
            "acc_pro": totals[:, FEATURE_INDEX["pro"]],
            "acc_anti": totals[:, FEATURE_INDEX["anti"]],
            "delta_s": totals[:, FEATURE_INDEX["pro"]] + totals[:, FEATURE_INDEX["anti"]],
        }
        # n_outputs and n_unknown count outputs (rows), never the samples' item-equivalents.
        unread = (part["gender"].astype(str) == "unknown").groupby(part["system"], sort=False).agg(["sum", "size"])
        for s, system in enumerate(systems):
            row = {
                "system": system,
                "language": language,
                "n": len(items),
                "n_unknown": int(unread.loc[system, "sum"]),
                "n_outputs": int(unread.loc[system, "size"] - unread.loc[system, "sum"]),
            }
            for m, metric in enumerate(METRICS):
                row.update(
                    {
                        metric: point[s, m],
                        f"{metric}_ci_low": bounds.low[s, m],
                        f"{metric}_ci_high": bounds.high[s, m],
                        f"{metric}_n": int(per_metric_n.get(metric, totals[:, FEATURE_INDEX["n"]])[s]),
                    }
                )
            estimate_rows.append(row)
        for a, b in system_pairs(systems, against):
            res = paired_comparison(data[:, a], data[:, b], level)
            for m, metric in enumerate(METRICS):
                compare_rows.append(
                    {
                        "language": language,
                        "system_a": systems[a],
                        "system_b": systems[b],
                        "subset": "all",
                        "metric": metric,
                        "diff": res["diff"][m],
                        "ci_low": res["low"][m],
                        "ci_high": res["high"][m],
                        "p_value": float(res["p_value"][m]),
                        "method": res["method"][m],
                        "ci_method": res["method"][m],
                        "n": int(res["n"][m]),
                    }
                )
    estimates = pd.DataFrame(estimate_rows)
    comparisons = adjust(comparison_frame(compare_rows), correction, family)
    return estimates, comparisons


# A (system, language) whose share of unread items exceeds UNREAD_RATIO × the median of the language's other
# systems plus UNREAD_MARGIN is flagged: the file is more likely garbled or misaligned than the system that poor.
UNREAD_RATIO, UNREAD_MARGIN = 3.0, 0.05


def unread_flags(estimates: pd.DataFrame) -> list[str]:
    """Per row of `estimates`, a warning where its unread share is far above the language's other systems, else "".

    The shipped academic German file reads 30% of its items as unknown against
    under 1% for the other German systems (its Acc 37.4 against 52.5 published):
    its lines are garbled, and its Acc measures the file rather than the system.

    Examples
    --------
    >>> est = pd.DataFrame({"language": ["de"] * 3, "n": [100] * 3, "n_unknown": [1, 2, 30]})
    >>> unread_flags(est)
    ['', '', '30% unread (other systems: 2%): check the file']
    """
    # The unread share of the outputs (with samples, rows: n_outputs + n_unknown), of the items without them.
    total = estimates["n_outputs"] + estimates["n_unknown"] if "n_outputs" in estimates else estimates["n"]
    share = (estimates["n_unknown"] / total).to_numpy(dtype=float)
    language = estimates["language"].to_numpy()
    flags = []
    for i in range(len(estimates)):
        others = share[(language == language[i]) & (np.arange(len(share)) != i)]
        reference = float(np.median(others)) if len(others) else np.nan
        high = len(others) > 0 and share[i] > UNREAD_RATIO * reference + UNREAD_MARGIN
        flags.append(f"{share[i]:.0%} unread (other systems: {reference:.0%}): check the file" if high else "")
    return flags


def adjective_effect(base: pd.DataFrame, adjective: pd.DataFrame, *, level: float = _defaults.LEVEL) -> pd.DataFrame:
    """Change in Acc when "handsome"/"pretty" is added, on the items both versions judged.

    Per (system, language): Acc without and with the adjective, the paired
    difference with Tango's score interval, the item-level transition counts
    (right→right, right→wrong, wrong→right, wrong→wrong) and the McNemar score
    test that interval inverts (shares; they agree).
    """
    level = check_level(level)
    keys = ["system", "language", "item"]
    both = base[[*keys, "gold", "gender"]].merge(adjective[[*keys, "gender", "reason"]], on=keys, suffixes=("", "_adj"))
    both = both[both["reason"] != "not_in_file"]
    rows = []
    for (system, language), part in both.groupby(["system", "language"], sort=False):
        before = (part["gender"] == part["gold"]).to_numpy()
        after = (part["gender_adj"] == part["gold"]).to_numpy()
        rr, rw = int(np.sum(before & after)), int(np.sum(before & ~after))
        wr, ww = int(np.sum(~before & after)), int(np.sum(~before & ~after))
        # Difference after - before on the same items: "first" = after, "second" = before.
        effect = paired_difference_interval(rr, wr, rw, ww, level=level, method=PAIRED_ACCURACY)
        rows.append(
            {
                "system": system,
                "language": language,
                "n": len(part),
                "acc": before.mean(),
                "acc_adj": after.mean(),
                "change": float(effect.estimate),
                "change_ci_low": float(effect.low),
                "change_ci_high": float(effect.high),
                "right_right": rr,
                "right_wrong": rw,
                "wrong_right": wr,
                "wrong_wrong": ww,
                "p_value": float(paired_difference_test(rr, wr, rw, ww, method=PAIRED_ACCURACY).pvalue),
                "method": "Tango score interval, McNemar score test",
            }
        )
    return pd.DataFrame(rows)

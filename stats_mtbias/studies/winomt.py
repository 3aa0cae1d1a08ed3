"""The WinoMT study (Stanovsky et al. 2019) end to end: read → judge → estimate → compare → "+Adj" → correction.

:func:`run` is the only place that wires the study: it reads the 3,888 items,
judges the shipped translations and a user's own (word alignment + the target
language's reader, :mod:`stats_mtbias.studies.winomt_reading`) or takes a
user's readings (``judgements``), and computes Acc, F1, ΔG, ΔS with bootstrap
intervals, paired comparisons, the "+Adj" transitions and, where human labels
exist, Acc corrected for misreading. The CLI and the report call it.

Intervals: bootstrap over items stratified by stereotype × gold gender (both
fixed in size by WinoMT's design), so ΔS and ΔG are resampled with the design's
sizes; one weight matrix serves every system of a language, which pairs the
comparisons. Comparisons of two systems on the same language, each from one method (the
interval excludes 0 exactly when p < 1 − level): accuracies by Tango's score
interval and the McNemar score test it inverts; ΔS by MOVER of the pro and anti
Tango intervals, its p-value the one the MOVER interval implies; F1 and ΔG by the
item jackknife's t. Holm (or BH) within each family (by default the system pairs
of one language and metric).
Metrics are shares in [0, 1] (the paper prints percent: multiply by 100 to compare).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path

import numpy as np
import pandas as pd

from stats_mtbias._validation import check_choice, check_level, check_positive_int, check_rng, seed_of
from stats_mtbias.datasets import winomt as winomt_data
from stats_mtbias.datasets._io import as_source, read_records
from stats_mtbias.errors import DataError, UsageError
from stats_mtbias.estimators.winomt import FEATURES, METRICS, item_features, winomt_metrics
from stats_mtbias.provenance import Provenance
from stats_mtbias.result import TABLE_COLUMNS, StudyResult
from stats_mtbias.significance.mcnemar import paired_difference_test
from stats_mtbias.significance.multitest import CORRECTIONS
from stats_mtbias.studies._common import accounting as common_accounting
from stats_mtbias.studies._common import adjust, check_systems, comparison_frame, melt, system_pairs
from stats_mtbias.studies._common import provenance as record_provenance
from stats_mtbias.uncertainty.bootstrap import (
    ConfidenceInterval,
    cluster_bootstrap,
)
from stats_mtbias.uncertainty.differences import paired_difference_interval

PREDICTED = ("male", "female", "neutral", "both", "unknown")  # both: a double or inclusive form (issue 36)
MCNEMAR_METRICS = {"acc": "correct", "acc_pro": "correct_pro", "acc_anti": "correct_anti"}
FEATURE_INDEX = {name: i for i, name in enumerate(FEATURES)}


def read_user_judgements(path: str | Path, items: pd.DataFrame) -> pd.DataFrame:
    """A CSV ``item, system, language, gender`` (item = 0-based line of en.txt) joined with the items.

    Items a system/language pair does not list become ``unknown`` with the reason
    ``missing`` (absent: :func:`shared_items` decides how they count), so every
    WinoMT item is accounted for; a listed item with an empty gender is an unread
    one (``unknown``, reason ``no_reading``, counted as wrong).
    """
    path = as_source(path)
    _, records = read_records(path, required=("item", "system", "language", "gender"), lower=True)
    rows, seen = [], {}
    n_items = len(items)
    for line, record in records:
        try:
            item = int(record["item"])
        except ValueError:
            raise DataError(f"item {record['item']!r} is not a line number of en.txt (0-based)", path, line) from None
        if not 0 <= item < n_items:
            raise DataError(f"item {item} is outside en.txt's items 0–{n_items - 1}", path, line)
        gender = record["gender"].lower() or "unknown"
        if gender not in PREDICTED:
            raise DataError(f"gender {record['gender']!r} is not one of {', '.join(PREDICTED)}", path, line)
        key = (record["system"], record["language"], item)
        if key in seen:
            raise DataError(f"item {item} of {key[0]}/{key[1]} was already given on line {seen[key]}", path, line)
        seen[key] = line
        # An empty gender is a reading that failed (unknown, counted); an item not listed at all is absent ("missing").
        rows.append((*key, gender, "" if record["gender"] else "no_reading"))
    if not rows:
        raise DataError("has a header but no readings", path, 2)
    given = pd.DataFrame(rows, columns=["system", "language", "item", "gender", "reason"])
    frames = []
    for (system, language), part in given.groupby(["system", "language"], sort=False):
        full = items[["item", "gold", "stereotype"]].merge(part.drop(columns=["system", "language"]), on="item", how="left")
        full["reason"] = full["reason"].where(full["gender"].notna(), "missing")
        full["gender"] = full["gender"].fillna("unknown")
        frames.append(full.assign(system=system, language=language))
    return pd.concat(frames, ignore_index=True)


HUMAN_LABELS = {"m": "male", "f": "female", "n": "neutral", "b": "both", "male": "male", "female": "female",
                "neutral": "neutral", "both": "both"}  # fmt: skip
ANNOTATION_COLUMNS = ["system", "language", "annotator", "n_labelled", "agreement", "ci_low", "ci_high", "kappa",
                      "kappa_ci_low", "kappa_ci_high"]  # fmt: skip
BETWEEN_COLUMNS = ["system", "language", "annotator_a", "annotator_b", "n_both", "agreement", "ci_low", "ci_high",
                   "kappa", "kappa_ci_low", "kappa_ci_high"]  # fmt: skip


def read_annotations(path, items: pd.DataFrame) -> pd.DataFrame:
    """A user's human labels: CSV ``item, system, language, gender`` and optionally ``annotator``.

    ``item`` is the 0-based line of en.txt (as in :func:`read_user_judgements`),
    ``gender`` one of M/F/N/B (or male/female/neutral/both, any case; B: a double form). Every row must
    parse: a bad item, label or a repeated (system, language, item, annotator) is
    refused with its line. Returns ``system, language, item, annotator, human``.
    """
    path = as_source(path)
    _, records = read_records(path, required=("item", "system", "language", "gender"), lower=True)
    n_items, rows, seen = len(items), [], {}
    for line, record in records:
        try:
            item = int(record["item"])
        except ValueError:
            raise DataError(f"item {record['item']!r} is not a line number of en.txt (0-based)", path, line) from None
        if not 0 <= item < n_items:
            raise DataError(f"item {item} is outside en.txt's items 0–{n_items - 1}", path, line)
        label = HUMAN_LABELS.get(record["gender"].lower())
        if label is None:
            raise DataError(f"gender {record['gender']!r} is not a label (M, F or N)", path, line)
        annotator = record.get("annotator", "") or "1"
        key = (record["system"], record["language"], item, annotator)
        if key in seen:
            raise DataError(f"item {item} of {key[0]}/{key[1]} was already labelled by annotator {annotator} on "
                            f"line {seen[key]}", path, line)  # fmt: skip
        seen[key] = line
        rows.append((*key, label))
    if not rows:
        raise DataError("has a header but no labels", path, 2)
    return pd.DataFrame(rows, columns=["system", "language", "item", "annotator", "human"])


def annotation_agreement(annotations: pd.DataFrame, judgements: pd.DataFrame, *, level: float = 0.95):
    """Agreement of the automatic reading with a user's labels, between the user's annotators, and the labelled pairs.

    Returns ``(agreement, between, pairs)``: :data:`ANNOTATION_COLUMNS` per system,
    language and annotator (Wilson interval of the agreement, κ with its
    large-sample interval); :data:`BETWEEN_COLUMNS` per pair of annotators of one
    system and language, on the items both labelled; and one row per labelled item
    (``system, language, item, gold, human, automatic``, the majority label over
    annotators, ties left out) for :func:`corrected_accuracy`.
    """
    from stats_mtbias.studies.winomt_reading import agreement, kappa_interval

    merged = annotations.merge(judgements[["system", "language", "item", "gold", "gender"]],
                               on=["system", "language", "item"], how="left")  # fmt: skip
    unknown = merged["gold"].isna()
    if unknown.any():
        pairs = sorted({f"{r.system}/{r.language}" for r in merged[unknown].itertuples()})
        raise UsageError(f"annotations for {', '.join(pairs)}, which this run does not evaluate: add the system's "
                         "translations or readings, or its language.")  # fmt: skip
    rows = []
    for (system, language, annotator), part in merged.groupby(["system", "language", "annotator"], sort=False):
        human, auto = part["human"].to_numpy(dtype=object), part["gender"].to_numpy(dtype=object)
        kappa, k_low, k_high = kappa_interval(human, auto, level)
        agree = agreement(human, auto)
        rows.append({"system": system, "language": language, "annotator": annotator, "n_labelled": len(part),
                     "agreement": agree["agreement"], "ci_low": agree["ci_low"], "ci_high": agree["ci_high"],
                     "kappa": kappa, "kappa_ci_low": k_low, "kappa_ci_high": k_high})  # fmt: skip
    between = []
    for (system, language), part in merged.groupby(["system", "language"], sort=False):
        wide = part.pivot(index="item", columns="annotator", values="human")
        for x, y in combinations(wide.columns, 2):
            both = wide[[x, y]].dropna()
            if both.empty:
                continue
            kappa, k_low, k_high = kappa_interval(both[x].to_numpy(dtype=object), both[y].to_numpy(dtype=object), level)
            agree = agreement(both[x].to_numpy(dtype=object), both[y].to_numpy(dtype=object))
            between.append({"system": system, "language": language, "annotator_a": x, "annotator_b": y,
                            "n_both": len(both), "agreement": agree["agreement"], "ci_low": agree["ci_low"],
                            "ci_high": agree["ci_high"], "kappa": kappa, "kappa_ci_low": k_low,
                            "kappa_ci_high": k_high})  # fmt: skip
    # One label per item for the correction: the annotators' majority (a tie says nothing and is left out).
    counts = merged.groupby(["system", "language", "item", "gold", "gender", "human"]).size().rename("n").reset_index()
    top = counts.sort_values("n", ascending=False).groupby(["system", "language", "item"], sort=False)
    best = top.head(1).set_index(["system", "language", "item"])
    second = top.nth(1).set_index(["system", "language", "item"])["n"] if len(counts) > len(best) else pd.Series(dtype=float)
    tied = best["n"].reindex(best.index).eq(second.reindex(best.index))
    majority = best[~tied.to_numpy()].reset_index()
    pairs = majority.rename(columns={"gender": "automatic"})[["system", "language", "item", "gold", "human", "automatic"]]
    return (pd.DataFrame(rows, columns=ANNOTATION_COLUMNS), pd.DataFrame(between, columns=BETWEEN_COLUMNS), pairs)


def language_arrays(part: pd.DataFrame) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray]:
    """One language's judgements as the bootstrap's arrays: ``(systems, items, strata, data)``.

    ``data`` has shape ``(items, systems, FEATURES)``; ``strata`` is stereotype × gold
    gender of every item (both fixed in number by WinoMT's design).
    """
    language = part["language"].iloc[0]
    systems = list(dict.fromkeys(part["system"]))
    items = np.sort(part["item"].unique())
    first = part.drop_duplicates("item").set_index("item").reindex(items)
    strata = (first["stereotype"].astype(str) + ":" + first["gold"].astype(str)).to_numpy()
    features = []
    for system in systems:
        rows = part[part["system"] == system].set_index("item").reindex(items)
        if rows["gender"].isna().any():
            raise DataError(f"{system}/{language}: judgements do not cover the same items as the other systems")
        features.append(item_features(rows["gold"], rows["gender"], rows["stereotype"]))
    return systems, items, strata, np.stack(features, axis=1)


def pilot_design(judgements: pd.DataFrame, systems: tuple[str, str], language: str, metric: str):
    """Two systems' WinoMT judgements on one language as a power-simulation pilot.

    Returns a :class:`~stats_mtbias.planning.simulate.PairedDesign` on the
    study's own item features, estimator (in shares) and strata.
    """
    from stats_mtbias.planning.simulate import PairedDesign

    check_choice(metric, METRICS, "metric")
    part = judgements[(judgements["language"] == language) & judgements["system"].isin(systems)]
    found = set(part["system"])
    missing = [s for s in systems if s not in found]
    if missing:
        have = sorted(set(judgements.loc[judgements["language"] == language, "system"]))
        raise UsageError(f"{', '.join(missing)} has no {language} judgements in the pilot; it has {', '.join(have) or 'none'}.")
    order, _, strata, data = language_arrays(part)
    data = data[:, [order.index(s) for s in systems]]
    return PairedDesign(data, winomt_metrics, (METRICS.index(metric),), strata,
                        label=f"{language} {metric}: {systems[0]} − {systems[1]}", unit="items")  # fmt: skip


ABSENT = ("missing", "not_in_file")  # reasons of an item a file does not translate at all
MISSING_RULES = ("shared", "wrong")
MIN_COVERAGE = 0.99  # below this share of the items translated, a file is named in a warning (exit 65 under --strict)


def coverage(table: pd.DataFrame, n_items: int) -> pd.DataFrame:
    """Items each (system, language) translated: ``system, language, translated, coverage`` (of `n_items`)."""
    present = ~table["reason"].isin(ABSENT)
    out = present.groupby([table["system"], table["language"]], sort=False).sum().rename("translated").reset_index()
    out["coverage"] = out["translated"] / n_items
    return out


def shared_items(table: pd.DataFrame, notes: list[str] | None = None, origin: dict | None = None, *,
                 missing: str = "shared", n_items: int | None = None) -> pd.DataFrame:  # fmt: skip
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

    from stats_mtbias.errors import DataQualityWarning

    check_choice(missing, MISSING_RULES, "missing")
    n_items = n_items or int(table["item"].nunique())
    parts = []
    for language, part in table.groupby("language", sort=False):
        present = ~part["reason"].isin(ABSENT)
        covered = present.groupby(part["system"], sort=False).sum()
        empty = covered[covered == 0]
        if len(empty):
            system = str(empty.index[0])
            raise DataError(f"{system}/{language}: no WinoMT item is translated (an empty file, or none of its lines "
                            "is a WinoMT sentence)", (origin or {}).get((system, language)))  # fmt: skip
        for system, n in covered.items():
            if n < MIN_COVERAGE * n_items:
                where = (origin or {}).get((system, language))
                rule = ("analysed on the items every system of the language translated" if missing == "shared"
                        else "its untranslated items count as wrong (missing='wrong')")  # fmt: skip
                message = (f"WinoMT {system}/{language}{f' ({where})' if where else ''}: {int(n):,} of {n_items:,} items "
                           f"translated ({n / n_items:.1%}); {rule}")  # fmt: skip
                warnings.warn(message, DataQualityWarning, stacklevel=3)
                if notes is not None:
                    notes.append(message)
        if missing == "wrong":
            parts.append(part)
            continue
        everyone = part.loc[present].groupby("item")["system"].nunique()
        keep = set(everyone[everyone == part["system"].nunique()].index)
        parts.append(part[part["item"].isin(keep)])
    return pd.concat(parts, ignore_index=True)


SCORE_METRICS = ("acc", "acc_pro", "acc_anti", "delta_s")


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
    from stats_mtbias.significance.effect_sizes import difference_in_proportions
    from stats_mtbias.uncertainty.analytic import modified_wilson_interval

    low, high = np.array(bounds.low, dtype=float), np.array(bounds.high, dtype=float)
    totals = data.sum(axis=0)  # (systems, FEATURES)
    f = {name: totals[:, FEATURE_INDEX[name]] for name in ("n", "correct", "pro", "anti", "correct_pro", "correct_anti")}
    with np.errstate(invalid="ignore", divide="ignore"):
        for metric, (k, n) in {"acc": ("correct", "n"), "acc_pro": ("correct_pro", "pro"),
                               "acc_anti": ("correct_anti", "anti")}.items():  # fmt: skip
            ok = f[n] > 0
            ci = modified_wilson_interval(f[k], np.where(ok, f[n], 1), level)
            low[:, METRICS.index(metric)] = np.where(ok, ci.low, np.nan)
            high[:, METRICS.index(metric)] = np.where(ok, ci.high, np.nan)
        ok = (f["pro"] > 0) & (f["anti"] > 0)
        if ok.all():
            ds = difference_in_proportions(f["correct_pro"], f["pro"], f["correct_anti"], f["anti"], level=level,
                                           poisson_ends=True)
            low[:, METRICS.index("delta_s")], high[:, METRICS.index("delta_s")] = ds.low, ds.high
        _few_error_f1(totals, low, high, level, replicates)
    return ConfidenceInterval(low, high)


def _few_error_f1(totals: np.ndarray, low: np.ndarray, high: np.ndarray, level: float, replicates) -> None:
    """Score intervals for F1 and MOVER for ΔG where a gender's F1 rests on ten or fewer errors (in place)."""
    from stats_mtbias.uncertainty.analytic import FEW_EVENTS, modified_wilson_interval, mover_interval

    t = {name: totals[:, FEATURE_INDEX[name]] for name in FEATURE_INDEX}
    parts, few = [], np.zeros(len(totals), dtype=bool)
    for g in ("male", "female"):
        tp = t[f"tp_{g}"]
        errors = (t[f"pred_{g}"] - tp) + (t[f"gold_{g}"] - tp)
        trials = 2 * tp + errors
        ok = trials > 0
        ci = modified_wilson_interval(2 * tp, np.where(ok, trials, 1), level)
        parts.append((np.where(ok, 2 * tp / np.where(ok, trials, 1), np.nan), ci.low, ci.high))
        few |= ok & (errors <= FEW_EVENTS)
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
_PROPORTIONS = {"acc": ("correct", "n"), "acc_pro": ("correct_pro", "pro"), "acc_anti": ("correct_anti", "anti")}
PAIRED_ACCURACY = "tango"  # Tango's score interval; its test is McNemar's score (asymptotic) test


def _paired_table(a: np.ndarray, b: np.ndarray, hit: str, of: str) -> tuple[np.ndarray, ...]:
    """The paired 2×2 table (both, a only, b only, neither) of a proportion over the items it is computed on."""
    on = a[:, FEATURE_INDEX[of]] > 0
    x, y = a[on, FEATURE_INDEX[hit]], b[on, FEATURE_INDEX[hit]]
    return np.sum(x * y), np.sum(x * (1 - y)), np.sum((1 - x) * y), np.sum((1 - x) * (1 - y))


def pilot(result, *, systems=None, metric=None, language=None, subset=None):
    """A WinoMT result as a planning pilot for :func:`stats_mtbias.power` (``(kind, payload)``).

    Accuracies of two systems: McNemar's design with the pilot's discordance
    (``"paired"``); every other metric, or one system's precision: simulation
    through the study's own item features, estimator and strata (``"simulate"``).
    """
    from stats_mtbias.planning.designs import alone, one_language, two_systems

    judgements = result.details.judgements
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
        return "paired", dict(discordance=float(np.mean(a != b)), observed=float(np.mean(a) - np.mean(b)),
                              metric=f"{language} {metric}", comparison=f"{systems[0]} − {systems[1]}",
                              unit_scale=float(inside.mean()))  # fmt: skip
    return "simulate", design


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
      and interval from the same t. With no discordant item at all, two
      pseudo-items, one read better by each system, give the jackknife a spread,
      so that the interval is never a point.

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

    from stats_mtbias.significance.mcnemar import paired_difference_test
    from stats_mtbias.uncertainty.analytic import _interval_pvalue, mover_interval
    from stats_mtbias.uncertainty.differences import paired_difference_interval

    a, b = np.asarray(data_a, float), np.asarray(data_b, float)
    k = len(METRICS)
    diff = winomt_metrics(a.sum(axis=0)) - winomt_metrics(b.sum(axis=0))
    low, high, pvalue = np.full(k, np.nan), np.full(k, np.nan), np.full(k, np.nan)
    method = [""] * k
    n = np.full(k, len(a), dtype=int)
    parts = {}
    z = float(stats.norm.ppf(0.5 + level / 2))
    for metric, (hit, of) in _PROPORTIONS.items():
        m = METRICS.index(metric)
        table = _paired_table(a, b, hit, of)
        n[m] = int(sum(table))
        method[m] = "Tango score interval, McNemar score test"
        if n[m] == 0:
            continue
        es = paired_difference_interval(*table, level=level, method=PAIRED_ACCURACY)
        parts[metric] = es
        low[m], high[m] = float(es.low), float(es.high)
        pvalue[m] = float(paired_difference_test(*table, method=PAIRED_ACCURACY).pvalue)
    m = METRICS.index("delta_s")
    n[m] = n[METRICS.index("acc_pro")] + n[METRICS.index("acc_anti")]
    method[m] = "MOVER of the Tango intervals (pro, anti)"
    if "acc_pro" in parts and "acc_anti" in parts:
        pro, anti = parts["acc_pro"], parts["acc_anti"]
        ds = mover_interval(np.array([pro.estimate, anti.estimate], float), np.array([pro.low, anti.low], float),
                            np.array([pro.high, anti.high], float), np.array([1.0, -1.0]), np.eye(2))  # fmt: skip
        low[m], high[m] = float(ds.low), float(ds.high)
        pvalue[m] = float(_interval_pvalue(np.asarray(diff[m]), ds, z))
    discordant = int(np.sum(np.any(a != b, axis=1)))
    few = discordant <= FEW_DISCORDANT
    if discordant == 0:
        pseudo = [item_features(np.array(["male", "female"]), np.array(p), np.array(["pro", "anti"]))
                  for p in (["male", "male"], ["female", "female"])]  # fmt: skip
        a, b = np.concatenate([a, pseudo[0]]), np.concatenate([b, pseudo[1]])
    left_out = winomt_metrics(a.sum(axis=0) - a) - winomt_metrics(b.sum(axis=0) - b)  # (items, METRICS)
    size = len(a)
    se = np.sqrt((size - 1) / size * np.sum((left_out - left_out.mean(axis=0)) ** 2, axis=0))
    dof = max(discordant, 2) - 1 if few else size - 1
    t = stats.t.ppf(0.5 + level / 2, dof)
    for metric in ("f1_male", "f1_female", "delta_g"):
        m = METRICS.index(metric)
        low[m], high[m] = diff[m] - t * se[m], diff[m] + t * se[m]
        with np.errstate(invalid="ignore", divide="ignore"):
            pvalue[m] = 2 * stats.t.sf(abs(diff[m]) / se[m], dof) if se[m] > 0 else (1.0 if diff[m] == 0 else 0.0)
        method[m] = f"jackknife t ({discordant} discordant items, {dof} df)"
    return {"diff": diff, "low": low, "high": high, "p_value": pvalue, "method": method, "n": n}


def analyse(
    judgements: pd.DataFrame,
    *,
    n_boot: int = 10_000,
    rng: np.random.Generator | int = 0,
    level: float = 0.95,
    correction: str = "holm",
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
        ``estimates``: ``system, language, n, n_unknown`` and per metric its value,
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
        per_metric_n = {"acc": totals[:, FEATURE_INDEX["n"]], "acc_pro": totals[:, FEATURE_INDEX["pro"]],
                        "acc_anti": totals[:, FEATURE_INDEX["anti"]],
                        "delta_s": totals[:, FEATURE_INDEX["pro"]] + totals[:, FEATURE_INDEX["anti"]]}  # fmt: skip
        for s, system in enumerate(systems):
            row = {
                "system": system,
                "language": language,
                "n": len(items),
                "n_unknown": int(data[:, s, FEATURE_INDEX["unknown"]].sum()),
            }
            for m, metric in enumerate(METRICS):
                row.update({metric: point[s, m], f"{metric}_ci_low": bounds.low[s, m], f"{metric}_ci_high": bounds.high[s, m],
                            f"{metric}_n": int(per_metric_n.get(metric, totals[:, FEATURE_INDEX["n"]])[s])})  # fmt: skip
            estimate_rows.append(row)
        for a, b in system_pairs(systems, against):
            res = paired_comparison(data[:, a], data[:, b], level)
            for m, metric in enumerate(METRICS):
                compare_rows.append(
                    {"language": language, "system_a": systems[a], "system_b": systems[b], "subset": "all",
                     "metric": metric, "diff": res["diff"][m], "ci_low": res["low"][m], "ci_high": res["high"][m],
                     "p_value": float(res["p_value"][m]), "method": res["method"][m], "ci_method": res["method"][m],
                     "n": int(res["n"][m])}
                )  # fmt: skip
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
    share = (estimates["n_unknown"] / estimates["n"]).to_numpy(dtype=float)
    language = estimates["language"].to_numpy()
    flags = []
    for i in range(len(estimates)):
        others = share[(language == language[i]) & (np.arange(len(share)) != i)]
        reference = float(np.median(others)) if len(others) else np.nan
        high = len(others) > 0 and share[i] > UNREAD_RATIO * reference + UNREAD_MARGIN
        flags.append(f"{share[i]:.0%} unread (other systems: {reference:.0%}): check the file" if high else "")
    return flags


def adjective_effect(base: pd.DataFrame, adjective: pd.DataFrame, *, level: float = 0.95) -> pd.DataFrame:
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
            {"system": system, "language": language, "n": len(part), "acc": before.mean(), "acc_adj": after.mean(),
             "change": float(effect.estimate), "change_ci_low": float(effect.low),
             "change_ci_high": float(effect.high), "right_right": rr, "right_wrong": rw, "wrong_right": wr,
             "wrong_wrong": ww, "p_value": float(paired_difference_test(rr, wr, rw, ww, method=PAIRED_ACCURACY).pvalue),
             "method": "Tango score interval, McNemar score test"}
        )  # fmt: skip
    return pd.DataFrame(rows)


# Conflicts (entity and pronoun of opposite genders) a sample needs before its annotators' choice in them
# decides which construct the labels measure: with fewer, a majority is one or two translations.
MIN_CONFLICTS = 5


def _conflicts(sample: pd.DataFrame) -> tuple[int, int]:
    """Conflicts in a labelled sample, and how many of them the annotator labelled with the pronoun's gender."""
    if not {"entity", "pronoun"} <= set(sample.columns) or sample.empty:
        return 0, 0
    entity, pronoun, human = (sample[c].to_numpy(dtype=object) for c in ("entity", "pronoun", "human"))
    gendered = ("male", "female")
    conflict = np.isin(entity, gendered) & np.isin(pronoun, gendered) & (entity != pronoun)
    return int(conflict.sum()), int(np.sum(human[conflict] == pronoun[conflict]))


def corrected_accuracy(
    estimates: pd.DataFrame,
    pairs: pd.DataFrame,
    *,
    n_draws: int = 10_000,
    rng: np.random.Generator | int = 0,
    level: float = 0.95,
    construct: str = "entity",
) -> pd.DataFrame:
    """Acc corrected for the automatic reader's errors, from each system's own human-labelled sample.

    In the labelled sample each translation is correct by the automatic reading
    (``automatic == gold``) or not, and correct by the human reading (``human ==
    gold``) or not. With p1 = P(human-correct | automatic-correct) and p0 =
    P(human-correct | automatic-wrong), the accuracy a native speaker would give is

        Acc_corrected = Acc · p1 + (1 − Acc) · p0,

    the predictive-value correction, valid when the labelled translations are a
    random sample of the outputs the reading was applied to. So a system is
    corrected only with labels of **its own** translations (``pairs["system"]``):
    the reader errs differently on different systems' outputs (a system whose
    readings are mostly wrong would inherit p0 and p1 of one whose readings are
    mostly right), and a system without labels of its own is not corrected — its
    row says so in ``labels``. The interval carries both uncertainties: p1 and
    p0 are drawn from their Jeffreys posteriors Beta(x + ½, n − x + ½) given the
    labelled counts, Acc from Beta(k + ½, n − k + ½) given the items, and the
    `level` percentile interval of the `n_draws` corrected values is reported.

    The correction takes the human labels as the truth, so they must measure what
    the metric measures. WinoMT's metric is the gender of the entity's own noun
    phrase (``construct="entity"``); where the entity and the translated pronoun
    that refers to it disagree (a *conflict*: ``entity`` and ``pronoun`` columns of
    `pairs`, both gendered and different), an annotator who labelled the pronoun's
    gender in most of at least :data:`MIN_CONFLICTS` conflicts measured the
    pronoun, and the sample is not used: it would move Acc toward the pronoun's
    reading (the shipped German and French labels: 17 of 22 and 11 of 15). With
    ``construct="pronoun"`` (the ``use_pronoun`` reading) the check is the other
    way round. Samples without those columns are taken as labelled for `construct`.

    Parameters
    ----------
    estimates : DataFrame
        From :func:`analyse`: ``system, language, n, acc`` (Acc a share).
    pairs : DataFrame
        ``system, language, item, gold, human, automatic``: the labelled rows
        (``pairs`` of :func:`validation`, attributed to the system that produced
        them by :func:`~stats_mtbias.studies.winomt_reading.attribute_pairs`).
    n_draws : int
        Monte Carlo draws of the interval.
    rng : Generator or int
        Source of the draws.
    construct : {"entity", "pronoun"}
        What the metric's reading measures, and so what the labels must measure.

    Returns
    -------
    DataFrame
        ``system, language, n, acc, acc_corrected, ci_low, ci_high, n_labelled,
        human_correct_given_auto_correct, human_correct_given_auto_wrong,
        n_conflict, n_conflict_pronoun, labels``, as shares, for every (system,
        language) whose language has labelled rows; ``acc_corrected`` is NaN (and
        ``labels`` says why) for a system without labels of its own or whose
        labels measure the other construct.
    """
    level = check_level(level)
    n_draws = check_positive_int(n_draws, "n_draws")
    rng = check_rng(rng)
    check_choice(construct, ("entity", "pronoun"), "construct")
    if "system" not in pairs:
        raise UsageError("`pairs` needs a `system` column: the system whose translations were labelled.")
    rows = []
    labelled_languages = set(pairs["language"])
    for _, est in estimates[estimates["language"].isin(labelled_languages)].iterrows():
        language = est["language"]
        sample = pairs[(pairs["language"] == language) & (pairs["system"] == est["system"])]
        n = int(est["n"])
        k = round(est["acc"] * n)
        acc = k / n
        auto_right = (sample["automatic"] == sample["gold"]).to_numpy()
        human_right = (sample["human"] == sample["gold"]).to_numpy()
        n1, n0 = int(auto_right.sum()), int((~auto_right).sum())
        x1, x0 = int(human_right[auto_right].sum()), int(human_right[~auto_right].sum())
        p1 = x1 / n1 if n1 else np.nan
        p0 = x0 / n0 if n0 else np.nan
        n_conflict, n_pronoun = _conflicts(sample)
        followed = n_pronoun if construct == "entity" else n_conflict - n_pronoun
        if sample.empty:
            labels = f"none of {est['system']}'s translations: not corrected"
            point = low = high = np.nan
        elif n_conflict >= MIN_CONFLICTS and 2 * followed > n_conflict:
            other = "translated pronoun" if construct == "entity" else "entity's own words"
            labels = (f"{len(sample)} of {est['system']}'s translations, labelled by the {other} in {followed} of "
                      f"{n_conflict} conflicts (another construct): not corrected")  # fmt: skip
            point = low = high = np.nan
        elif n1 and n0:
            labels = f"{len(sample)} of {est['system']}'s translations"
            point = acc * p1 + (1 - acc) * p0
            acc_draw = rng.beta(k + 0.5, n - k + 0.5, n_draws)
            p1_draw = rng.beta(x1 + 0.5, n1 - x1 + 0.5, n_draws)
            p0_draw = rng.beta(x0 + 0.5, n0 - x0 + 0.5, n_draws)
            low, high = np.quantile(acc_draw * p1_draw + (1 - acc_draw) * p0_draw, [(1 - level) / 2, (1 + level) / 2])
        else:  # the sample has no right (or no wrong) automatic readings: nothing to correct with
            labels = f"{len(sample)} of {est['system']}'s translations, all read {'right' if n1 else 'wrong'}: not corrected"
            point = low = high = np.nan
        rows.append(
            {"system": est["system"], "language": language, "n": n, "acc": acc, "acc_corrected": point,
             "ci_low": low, "ci_high": high, "n_labelled": len(sample),
             "human_correct_given_auto_correct": p1, "human_correct_given_auto_wrong": p0,
             "n_conflict": n_conflict, "n_conflict_pronoun": n_pronoun, "labels": labels}
        )  # fmt: skip
    return pd.DataFrame(rows)


# ---------------------------------------------------------------- the study, wired once

ESTIMATE_COLUMNS = (
    ["system", "language", "n", "n_unknown", "coverage"]
    + [c for m in METRICS for c in (m, f"{m}_ci_low", f"{m}_ci_high")] + ["flag"]
)  # fmt: skip
VALIDATION_COLUMNS = [
    "file", "language", "n_rows", "n_labelled", "agreement", "ci_low", "ci_high", "kappa", "n_conflict",
    "n_conflict_pronoun", "agreement_outside", "ci_low_outside", "ci_high_outside",
]  # fmt: skip
_FILE_LANGUAGE = re.compile(r"^(?:adj\.)?en-(?P<lang>[a-z]{2})\.(?:txt|csv|tsv)$")


@dataclass(frozen=True)
class WinoMTResult:
    """Everything the WinoMT study reports (metrics as shares in [0, 1]).

    Attributes
    ----------
    estimates : DataFrame
        :data:`ESTIMATE_COLUMNS`: per system and language.
    comparisons : DataFrame
        :data:`stats_mtbias.result.COMPARE_COLUMNS`: the pairs of systems on each language.
    adjectives : DataFrame or None
        "+Adj" transitions (:func:`adjective_effect`), where the systems have "+Adj" files.
    corrected : DataFrame or None
        Acc corrected for misreading (:func:`corrected_accuracy`), with ``corrected=True``.
    accounting : DataFrame
        Items per system, language and outcome (``read`` or why not).
    provenance : Provenance
    judgements : DataFrame
    notes : list of str
    validation : dict or None
        The shipped labels' agreement (:func:`validation`), with ``validate`` or ``corrected``.
    annotations : dict or None
        With ``annotations``: ``{"agreement": DataFrame (ANNOTATION_COLUMNS), "between":
        DataFrame (BETWEEN_COLUMNS)}`` (:func:`annotation_agreement`).
    """

    estimates: pd.DataFrame
    comparisons: pd.DataFrame
    adjectives: pd.DataFrame | None
    corrected: pd.DataFrame | None
    accounting: pd.DataFrame
    provenance: Provenance
    judgements: pd.DataFrame = field(repr=False)
    notes: list = field(default_factory=list)
    validation: dict | None = field(default=None, repr=False)
    annotations: dict | None = field(default=None, repr=False)


def user_files(name: str, given, languages: list[str] | None) -> list[tuple[str, object, bool]]:
    """``(language, source, adjectives)`` of every translation file a user gave for system `name`.

    `given` is a path to an ``en-XX.txt`` file (``adj.en-XX.txt`` for "+Adj"), a
    directory of such files (every language it covers), a mapping
    ``{language: path or DataFrame}``, or a DataFrame with columns ``source,
    translation`` (and ``language``, unless `languages` names exactly one).
    """
    from stats_mtbias.datasets._io import FrameSource

    if isinstance(given, dict):
        return [(str(lang), src, False) for lang, src in given.items()]
    if isinstance(given, pd.DataFrame):
        if "language" in given.columns:
            return [(str(lang), FrameSource(part.reset_index(drop=True), f"{name}/{lang}"), False)
                    for lang, part in given.groupby("language", sort=False)]  # fmt: skip
        if languages and len(languages) == 1:
            return [(languages[0], FrameSource(given, name), False)]
        raise UsageError(f"translations[{name!r}]: a DataFrame needs a 'language' column, or give exactly one language.")
    path = Path(given)
    if path.is_dir():
        found = [(m["lang"], f, f.name.startswith("adj.")) for f in sorted(path.iterdir()) if (m := _FILE_LANGUAGE.match(f.name))]
        if not found:
            raise DataError("contains no translation files named en-XX.txt (XX the target language)", path)
        return found
    if not path.exists():
        raise DataError("does not exist", path)
    match = _FILE_LANGUAGE.match(path.name)
    if match:
        return [(match["lang"], path, path.name.startswith("adj."))]
    if languages and len(languages) == 1:
        return [(languages[0], path, False)]
    raise UsageError(
        f"translations[{name!r}]: cannot tell the target language of {path.name!r}; name the file en-XX.txt "
        "or give exactly one language."
    )


def _check_language(language: str) -> str:
    from stats_mtbias.gender.targets import LANGUAGES

    if language not in LANGUAGES:
        raise UsageError(
            f"WinoMT has no gender reader for language {language!r}; supported: {', '.join(sorted(LANGUAGES))} "
            "(see the docs, 'Adding a target language')."
        )
    return language


def _judge_language(store, items: pd.DataFrame, jobs: list, *, aligner: str, use_pronoun: bool, explain: bool):
    """:func:`winomt_reading.judge` over one language's jobs: the tables, the files used and the warnings raised.

    In a worker process the warnings are recorded and handed back, to be raised again in the parent.
    """
    import warnings

    from stats_mtbias.studies import winomt_reading

    tables = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for system, language, is_adj, src in jobs:
            path = None if src is None else as_source(src, system)
            tables.append(winomt_reading.judge(store, system, language, items, adjectives=is_adj, method=aligner,
                                               use_pronoun=use_pronoun, path=path, explain=explain and not is_adj))  # fmt: skip
    return tables, dict(store.used), [(w.category, str(w.message)) for w in caught]


def _job_bytes(store, job) -> float:
    """Size of a job's translations (the reading's cost, to balance the workers)."""
    system, language, is_adj, src = job
    if src is None:
        return float(store.path(winomt_data.translation_path(system, language, is_adj)).stat().st_size)
    if isinstance(src, (str, Path)) and Path(src).is_file():
        return float(Path(src).stat().st_size)
    return 1e6


def _judge_in_process(store, items: pd.DataFrame, jobs: list, options: dict):
    """:func:`_judge_language` in a fresh interpreter (``stats_mtbias.studies._reading_worker``)."""
    import os
    import pickle
    import subprocess
    import sys
    from pathlib import Path

    env = dict(os.environ)
    # The child imports this very package, installed or not.
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(Path(__file__).resolve().parents[2]),
                                                      env.get("PYTHONPATH")]))  # fmt: skip
    request = pickle.dumps({"args": (store, items, jobs), "kwargs": options}, protocol=pickle.HIGHEST_PROTOCOL)
    done = subprocess.run([sys.executable, "-m", "stats_mtbias.studies._reading_worker"], input=request,
                          capture_output=True, env=env, check=False)  # fmt: skip
    try:
        status, value = pickle.loads(done.stdout)
    except Exception:
        tail = done.stderr.decode("utf-8", "replace")[-2000:]
        raise RuntimeError(f"the WinoMT reader for {jobs[0][1]} stopped (exit {done.returncode}): {tail}") from None
    if status == "error":
        raise value
    return value


def reading_workers(n_languages: int) -> int:
    """Processes that read translations: one per language to read, at most the CPUs (``MTBIAS_WORKERS`` caps it)."""
    import os

    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    cap = os.environ.get("MTBIAS_WORKERS", "")
    if cap:
        try:
            cpus = min(cpus, max(1, int(cap)))
        except ValueError:
            raise UsageError(f"MTBIAS_WORKERS must be a whole number of processes, not {cap!r}") from None
    return max(1, min(cpus, n_languages))


READING_ENGINES = ("auto", "processes", "dask")


def _judge_on_dask(store, items: pd.DataFrame, jobs: list, groups: list[list[int]], options: dict) -> list:
    """:func:`_judge_language` of each group of jobs as a task of the active Dask scheduler.

    With a ``distributed.Client`` connected the languages are read on its workers,
    which must see the data directory (and any file a user gave) at the same path.
    """
    try:
        import dask
    except ImportError:
        raise UsageError("engine='dask' needs dask: pip install 'stats_mtbias[all]'") from None
    tasks = [dask.delayed(_judge_language, pure=False)(store, items, [jobs[i] for i in group], **options)
             for group in groups]  # fmt: skip
    return list(dask.compute(*tasks))


def _judge_all(
    store, items: pd.DataFrame, jobs: list, *, aligner: str, use_pronoun: bool, explain: bool, progress,
    engine: str = "auto",
):  # fmt: skip
    """The judgement table of every job, in job order.

    Languages whose readings are not all cached are read in parallel, one
    language a task (the aligner trains on a language's files together, so a
    language is the unit of work): by default (``engine`` ``"auto"`` or
    ``"processes"``) in worker interpreters on this machine, with ``"dask"`` as
    tasks of the active Dask scheduler (a cluster's workers). Cached ones are
    read here, where a worker's start-up would cost more than the reading.
    """
    if engine not in READING_ENGINES:
        raise UsageError(f"engine must be one of {', '.join(READING_ENGINES)}, not {engine!r}")
    by_language: dict[str, list[int]] = {}
    for i, job in enumerate(jobs):
        by_language.setdefault(job[1], []).append(i)

    def cached(job) -> bool:
        system, language, is_adj, src = job
        if src is not None or explain:
            return False
        relpath = winomt_data.translation_path(system, language, is_adj)
        return winomt_reading._readings_path(store, language, relpath, is_adj, aligner, use_pronoun).exists()

    import warnings

    from stats_mtbias.studies import winomt_reading

    cold = [lang for lang, idx in by_language.items() if not all(cached(jobs[i]) for i in idx)]
    workers = reading_workers(len(cold))
    tables: list = [None] * len(jobs)
    options = {"aligner": aligner, "use_pronoun": use_pronoun, "explain": explain}
    if engine == "dask" and cold:
        groups = [by_language[lang] for lang in cold]
        done = _judge_on_dask(store, items, jobs, groups, options)
        for group, (result, used, caught) in zip(groups, done, strict=True):
            store.used.update(used)
            for category, message in caught:
                warnings.warn(message, category, stacklevel=3)
            for i, table in zip(group, result, strict=True):
                tables[i] = table
                system, language, is_adj, src = jobs[i]
                if src is None and not explain:  # a remote worker cached them on its own disk: here too
                    winomt_reading.remember(store, system, language, table, adjectives=is_adj, method=aligner,
                                            use_pronoun=use_pronoun)  # fmt: skip
        workers = len(groups)
    elif workers > 1:
        from concurrent.futures import ThreadPoolExecutor

        # One worker interpreter per CPU, each reading a share of the languages balanced by their bytes
        # (longest first): an interpreter's start-up is paid once per worker, not once per language.
        shares: list[list[str]] = [[] for _ in range(workers)]
        loads = [0.0] * workers
        for lang in sorted(cold, key=lambda lang: -sum(_job_bytes(store, jobs[i]) for i in by_language[lang])):
            k = loads.index(min(loads))
            shares[k].append(lang)
            loads[k] += sum(_job_bytes(store, jobs[i]) for i in by_language[lang])
        with ThreadPoolExecutor(workers) as pool:
            futures = [pool.submit(_judge_in_process, store, items, [jobs[i] for lang in share for i in by_language[lang]],
                                   options) for share in shares]  # fmt: skip
            label = f"WinoMT: align and read ({workers} processes)"
            for share, future in progress(list(zip(shares, futures)), label) if progress else zip(shares, futures):
                result, used, caught = future.result()
                store.used.update(used)
                for category, message in caught:
                    warnings.warn(message, category, stacklevel=3)
                for i, table in zip([i for lang in share for i in by_language[lang]], result, strict=True):
                    tables[i] = table
    rest = [i for i in range(len(jobs)) if tables[i] is None]
    label = "WinoMT: read" + (" (cached)" if workers > 1 else " and align")
    for i in progress(rest, label) if progress and rest else rest:
        result, _, caught = _judge_language(store, items, [jobs[i]], **options)
        tables[i] = result[0]
        for category, message in caught:
            warnings.warn(message, category, stacklevel=3)
    return tables


def validation(store, items: pd.DataFrame, *, aligner: str = "fastalign", use_pronoun: bool = False, progress=None) -> dict:
    """Agreement of the automatic reading with every shipped human-annotation file.

    Returns ``{"validation": DataFrame (VALIDATION_COLUMNS), "confusions": {file: DataFrame},
    "pairs": DataFrame (labelled_pairs), "annotators": DataFrame (inter_annotator)}``.
    """
    from stats_mtbias.datasets.registry import manifest
    from stats_mtbias.studies import winomt_reading

    files = sorted(p for p in manifest() if p.startswith("winomt/data/human_annotations/"))
    results = [winomt_reading.validate(store, store.path(relpath), items, method=aligner, use_pronoun=use_pronoun)
               for relpath in (progress(files, "WinoMT: human labels") if progress else files)]  # fmt: skip
    table = pd.DataFrame([{k: v for k, v in r.items() if k not in ("confusion", "pairs")} for r in results])
    return {
        "validation": table,
        "confusions": {r["file"]: r["confusion"] for r in results if r["confusion"] is not None},
        "pairs": winomt_reading.attribute_pairs(store, items, winomt_reading.pairs_of(results)),
        "annotators": winomt_reading.inter_annotator(store, items),
    }


def run(
    systems: list[str] | tuple[str, ...] | None = None,
    *,
    translations: dict | None = None,
    judgements=None,
    languages: list[str] | None = None,
    data_dir: str | Path | None = None,
    aligner: str = "fastalign",
    use_pronoun: bool = False,
    adjectives: bool = True,
    corrected: bool = False,
    validate: bool = False,
    annotations=None,
    explain: bool = False,
    n_boot: int = 10_000,
    rng: np.random.Generator | int = 0,
    level: float = 0.95,
    correction: str = "holm",
    interval: str = "percentile",
    engine: str = "auto",
    progress=None,
    missing: str = "shared",
    against: list[str] | None = None,
    family: str | list[str] = "metric",
) -> WinoMTResult:
    """Run the WinoMT study on shipped systems, a user's own translations and/or readings.

    Parameters
    ----------
    systems : list of str, optional
        Shipped systems (default: all five when no user data is given, else none).
    translations : dict, optional
        ``{system name: file, directory, {language: file or DataFrame}, or DataFrame}``
        (see :func:`user_files`): read like the shipped files, in every language given.
    judgements : path or DataFrame, optional
        A user's readings: CSV ``item, system, language, gender`` (item: 0-based line of en.txt).
    languages : list of str, optional
        Target languages (default: every language with a reader, or those the user's files cover).
    adjectives : bool
        Also the "+Adj" effect where the systems have "+Adj" files.
    corrected : bool
        Also Acc corrected for misreading from the shipped human labels.
    validate : bool
        Also the agreement of the reading with the shipped human labels (:func:`validation`).
    annotations : path or DataFrame, optional
        Your own human labels (:func:`read_annotations`): agreement of the reading
        with them and between your annotators (:func:`annotation_agreement`), and
        Acc corrected with them for the systems they label.
    explain : bool
        Read the translations afresh and keep, per item, the target words read
        (``aligned``) and why an entity came out unknown (``why``): columns of
        ``judgements``.
    engine : {"auto", "processes", "dask"}
        Where translations not yet cached are read, a language a task: worker
        processes on this machine (``"auto"``, ``"processes"``; one per CPU, at
        most ``MTBIAS_WORKERS``) or the active Dask scheduler (``"dask"``; with a
        ``distributed.Client`` connected, its workers, which must see the data
        directory and your files at the same paths). The tables are the same.
    progress : callable, optional
        ``progress(iterable, description)`` wraps the long loops (the report's progress bars).
    missing : {"shared", "wrong"}
        Items a file does not translate (:func:`shared_items`): the language is
        analysed on the items every system translated (default), or, as the paper
        did, every item with an untranslated one counted as wrong.
    against, family
        As in :func:`analyse`.
    """
    from stats_mtbias.datasets._io import source_sha256
    from stats_mtbias.datasets.registry import open_store
    from stats_mtbias.gender.targets import LANGUAGES

    seed = seed_of(rng)
    rng = check_rng(rng)
    store = open_store(data_dir)
    items = winomt_data.read_items(store)
    languages = [_check_language(lang) for lang in languages] if languages else None
    translations = dict(translations or {})
    user: list[tuple[str, str, object, bool]] = []
    without_reader: set[str] = set()
    for name, given in translations.items():
        for lang, src, adj in user_files(name, given, languages):
            # Issue 36: a directory's language without a reader is skipped (warned below), the others evaluated.
            if lang not in LANGUAGES and isinstance(given, (str, Path)) and Path(given).is_dir():
                if not languages:  # with `languages` it is not asked for (an unsupported one was refused above)
                    without_reader.add(lang)
                continue
            user.append((name, _check_language(lang), src, adj))
    if without_reader:
        import warnings

        warnings.warn(f"WinoMT has no gender reader for {', '.join(sorted(without_reader))}: skipped (the other "
                      f"languages are evaluated; readers exist for {', '.join(sorted(LANGUAGES))})", UserWarning,
                      stacklevel=2)  # fmt: skip
    if systems is None:
        systems = [] if (translations or judgements is not None) else list(winomt_data.SYSTEMS)
    systems = list(systems)
    if len(set(systems) | set(translations)) != len(systems) + len(translations):
        raise UsageError("a system is named twice (shipped systems and user systems must have distinct names).")
    if languages is None:
        languages = sorted({lang for _, lang, _, _ in user}) if user else sorted(LANGUAGES)
    user = [u for u in user if u[1] in languages]
    notes: list[str] = []
    shipped = {(s, lang, adj): rel for s, lang, adj, rel in winomt_data.translation_files() if lang in LANGUAGES}
    jobs = []  # (system, language, adjectives, user source or None)
    for language in languages:
        for system in systems:
            if system not in winomt_data.SYSTEMS:
                shipped_names = ", ".join(winomt_data.SYSTEMS)
                raise UsageError(f"`systems`: {system!r} is not a shipped WinoMT system; shipped: {shipped_names}.")
            if (system, language, False) in shipped:
                jobs.append((system, language, False, None))
                if adjectives and (system, language, True) in shipped:
                    jobs.append((system, language, True, None))
            else:
                notes.append(f"{system}/{language}: no shipped translations, skipped")
    jobs += [(name, lang, adj, src) for name, lang, src, adj in user]
    if jobs:  # alignments and readings are cached: an unusable cache is refused before any work
        from stats_mtbias._cache import check_cache_writable

        check_cache_writable()
    base, adj_tables, data = [], [], {}
    origin: dict[tuple[str, str], str] = {}  # (system, language) -> the user's file, for messages
    tables = _judge_all(store, items, jobs, aligner=aligner, use_pronoun=use_pronoun, explain=explain, progress=progress,
                        engine=engine)  # fmt: skip
    for (system, language, is_adj, src), table in zip(jobs, tables, strict=True):
        path = None if src is None else as_source(src, system)
        if path is not None:
            data[str(path)] = source_sha256(path)
            if not is_adj:
                origin[system, language] = str(path)
            reasons = table["reason"].replace("", "read").value_counts()
            label = f"{system}/{language}{' (+Adj)' if is_adj else ''}"
            notes.append(f"{label}: " + ", ".join(f"{k} {v}" for k, v in reasons.items()))
        (adj_tables if is_adj else base).append(table)
    if judgements is not None:
        source = as_source(judgements, "judgements")
        given = read_user_judgements(source, items)
        found = sorted(set(given["language"]))
        given = given[given["language"].isin(languages)] if languages else given
        if given.empty:
            raise DataError(f"has readings only for {', '.join(found)}, none for the languages evaluated "
                            f"({', '.join(languages)}; supported: {', '.join(sorted(LANGUAGES))})", source)  # fmt: skip
        base.append(given)
        origin.update(dict.fromkeys(zip(given["system"], given["language"], strict=True), str(source)))
        data[str(source)] = source_sha256(source)
    if not base:
        raise UsageError("no system/language pair to evaluate: give shipped `systems`, `translations` or `judgements`.")
    table = pd.concat(base, ignore_index=True)
    if table.duplicated(["system", "language", "item"]).any():
        raise UsageError("two inputs give the same system and language; name user systems uniquely.")
    analysed = shared_items(table, notes, origin, missing=missing, n_items=len(items))
    estimates, comparisons = analyse(analysed, n_boot=n_boot, rng=rng, level=level, correction=correction,
                                     interval=interval, against=check_systems(against, "against"),
                                     family=family)  # fmt: skip
    covered = coverage(table, len(items)).set_index(["system", "language"])["coverage"]
    estimates.insert(4, "coverage", covered.reindex(pd.MultiIndex.from_frame(estimates[["system", "language"]])).to_numpy())
    estimates["flag"] = unread_flags(estimates)
    for row in estimates[estimates["flag"] != ""].itertuples():
        notes.append(f"{row.system}/{row.language}: {row.flag} (Acc counts unread items as wrong)")
    adj_frame = adjective_effect(table, pd.concat(adj_tables, ignore_index=True), level=level) if adj_tables else None
    corrected_frame = found = annotated = None
    user_pairs = pd.DataFrame(columns=["system", "language", "item", "gold", "human", "automatic"])
    if annotations is not None:
        source = as_source(annotations, "annotations")
        agree, between, user_pairs = annotation_agreement(read_annotations(source, items), table, level=level)
        annotated = {"agreement": agree, "between": between}
        data[str(source)] = source_sha256(source)
    if validate or corrected:
        found = validation(store, items, aligner=aligner, use_pronoun=use_pronoun, progress=progress)
    if corrected or len(user_pairs):
        pairs = pd.concat([found["pairs"], user_pairs], ignore_index=True) if corrected else user_pairs
        # Without the shipped labels only the systems the user labelled are corrected.
        target = estimates if corrected else estimates.merge(user_pairs[["system", "language"]].drop_duplicates())
        corrected_frame = corrected_accuracy(target, pairs, n_draws=n_boot, rng=rng, level=level,
                                             construct="pronoun" if use_pronoun else "entity")  # fmt: skip
        no_labels = sorted(set(estimates["language"]) - set(corrected_frame["language"]))
        if no_labels:
            notes.append(f"no human labels for {', '.join(no_labels)}: no corrected Acc")
        if len(corrected_frame):
            unlabelled = corrected_frame[corrected_frame["n_labelled"] == 0]
            if len(unlabelled):
                names = ", ".join(f"{r.system}/{r.language}" for r in unlabelled.itertuples())
                notes.append(f"not corrected (no labels of their own translations; another system's labels would "
                             f"not apply): {names}")  # fmt: skip
            other = corrected_frame[corrected_frame["labels"].str.contains("another construct", regex=False)]
            if len(other):
                names = ", ".join(f"{r.system}/{r.language}" for r in other.itertuples())
                notes.append(f"not corrected (their labels follow the {'translated pronoun' if not use_pronoun else 'entity'} "
                             f"in most conflicts, not what the metric reads): {names}")  # fmt: skip
    accounting = common_accounting(table.assign(outcome=table["reason"].replace("", "read")), ["system", "language"],
                                   "outcome")  # fmt: skip
    data = {**dict(sorted(store.used.items())), **data}
    rule = ("items every system of a language translated" if missing == "shared"
            else "every item, an untranslated one counted as wrong (the paper's rule)")  # fmt: skip
    provenance = record_provenance(
        f"{aligner} word alignment (grow-diag-final-and) + stats_mtbias.gender.targets readers; Acc, F1, ΔG, ΔS as "
        f"shares over the {rule}; Acc, Acc_pro, Acc_anti: Wilson intervals with exact Poisson ends (<= 10 errors), "
        f"ΔS: Newcombe's hybrid score interval; F1, ΔG: bootstrap over items stratified by stereotype × gold gender, "
        f"{interval}; differences between systems, test and interval from one method: Tango score interval and McNemar "
        f"score test (accuracies), MOVER of the Tango intervals (ΔS), item jackknife t (F1, ΔG)",
        data, rng=seed, level=level, n_boot=n_boot, correction=correction, family=family,
        options={"aligner": aligner, "languages": list(languages), "readers": "stats_mtbias.gender.targets",
                 "use_pronoun": use_pronoun, "systems": list(dict.fromkeys(table["system"].astype(str))),
                 "interval": interval, "missing": missing, "against": against},
    )  # fmt: skip
    return WinoMTResult(estimates, comparisons, adj_frame, corrected_frame, accounting, provenance, table, notes, found,
                        annotated)  # fmt: skip


# What ``explain=True`` shows of each unread WinoMT item.
UNREAD_COLUMNS = ["system", "language", "item", "entity", "translation", "aligned", "reason", "why"]


def evaluate(systems=None, *, translations=None, correction: str = "holm", family: str | list[str] = "metric",
             explain: bool = False, **options) -> StudyResult:  # fmt: skip
    """:func:`run` as the public :class:`~stats_mtbias.result.StudyResult` (what :func:`stats_mtbias.winomt` returns)."""
    result = run(check_systems(systems), translations=dict(translations or {}), correction=correction, family=family,
                 explain=explain, **options)  # fmt: skip
    est = result.estimates
    parts = []
    for metric in METRICS:
        part = melt(est, {metric: (metric, f"{metric}_ci_low", f"{metric}_ci_high")},
                    keys={"system": "system", "language": "language"}, defaults={"subset": "all"}, n=f"{metric}_n")  # fmt: skip
        parts.append(part)
    table = pd.concat(parts, ignore_index=True)
    order = {m: i for i, m in enumerate(METRICS)}
    table = table.sort_values(["language", "system", "metric"], key=lambda c: c.map(order) if c.name == "metric" else c,
                              kind="stable").reset_index(drop=True)  # fmt: skip
    table = table.set_index(["system", "language"]).loc[
        pd.MultiIndex.from_frame(est[["system", "language"]])].reset_index()[TABLE_COLUMNS]
    comparisons = result.comparisons if len(result.comparisons) else None
    frames = {"estimates": est, "accounting": result.accounting, "judgements": result.judgements}
    if result.adjectives is not None:
        frames["adjectives"] = result.adjectives
    if result.corrected is not None:
        frames["corrected"] = result.corrected
    if result.validation is not None:
        frames["validation"] = result.validation["validation"]
    if explain:
        j = result.judgements
        unread = j[j["gender"] == "unknown"]
        frames["unread"] = unread.reindex(columns=UNREAD_COLUMNS).fillna("").reset_index(drop=True)
    if result.annotations is not None:
        frames["annotations"] = result.annotations["agreement"]
        frames["annotators"] = result.annotations["between"]
    return StudyResult("winomt", table, comparisons, result.provenance.to_dict(), frames, correction, result.notes,
                       family, details=result)  # fmt: skip

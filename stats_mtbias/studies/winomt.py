"""The WinoMT study's statistics: Acc, F1, ΔG, ΔS with intervals; paired comparisons; "+Adj".

Input is a judgement table with one row per (system, language, item) and the
gender found in the translation (``gender``); the items' ``gold`` and
``stereotype`` come from :func:`stats_mtbias.datasets.winomt.read_items`.

Intervals: bootstrap over items stratified by stereotype (pro, anti, none), so ΔS
is resampled within the pro and anti halves; one weight matrix serves every
system of a language, which pairs the comparisons. Comparisons of two systems
on the same language: McNemar's exact test on per-item correctness for Acc (and
the pro/anti accuracies), the paired bootstrap for F1, ΔG and ΔS; Holm (or BH)
over the whole family of rows.

The automatic reading of a translation's gender (alignment + per-language
morphology) is not in this version yet; users bring their own readings
(``read_user_judgements``).
"""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import numpy as np
import pandas as pd

from stats_mtbias._validation import check_choice, check_level, check_positive_int
from stats_mtbias.datasets._io import read_records
from stats_mtbias.errors import DataError
from stats_mtbias.estimators.winomt import FEATURES, METRICS, item_features, winomt_metrics
from stats_mtbias.significance.effect_sizes import paired_difference_in_proportions
from stats_mtbias.significance.multitest import CORRECTIONS, adjust_pvalues
from stats_mtbias.significance.paired import sign_test_pvalue
from stats_mtbias.uncertainty.bootstrap import bootstrap_pvalue, resample_weights, weighted_sums

PREDICTED = ("male", "female", "neutral", "unknown")
MCNEMAR_METRICS = {"acc": "correct", "acc_pro": "correct_pro", "acc_anti": "correct_anti"}
FEATURE_INDEX = {name: i for i, name in enumerate(FEATURES)}


def read_user_judgements(path: str | Path, items: pd.DataFrame) -> pd.DataFrame:
    """A CSV ``item, system, language, gender`` (item = 0-based line of en.txt) joined with the items.

    Items a system/language pair does not list become ``unknown`` with the reason
    ``missing``, so every WinoMT item is counted.
    """
    path = Path(path)
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
        rows.append((*key, gender, "" if record["gender"] else "missing"))
    given = pd.DataFrame(rows, columns=["system", "language", "item", "gender", "reason"])
    frames = []
    for (system, language), part in given.groupby(["system", "language"], sort=False):
        full = items[["item", "gold", "stereotype"]].merge(part.drop(columns=["system", "language"]), on="item", how="left")
        full["reason"] = full["reason"].where(full["gender"].notna(), "missing")
        full["gender"] = full["gender"].fillna("unknown")
        frames.append(full.assign(system=system, language=language))
    return pd.concat(frames, ignore_index=True)


def analyse(
    judgements: pd.DataFrame,
    *,
    n_boot: int = 10_000,
    seed: int = 0,
    level: float = 0.95,
    correction: str = "holm",
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Metrics with bootstrap intervals per (system, language), and paired comparisons.

    Returns
    -------
    (estimates, comparisons)
        ``estimates``: ``system, language, n, n_unknown`` and per metric its value,
        ``<metric>_ci_low``, ``<metric>_ci_high``. ``comparisons``: ``language,
        system_a, system_b, metric, diff, ci_low, ci_high, p_value, method, p_adjusted``.
    """
    n_boot = check_positive_int(n_boot, "n_boot")
    level = check_level(level)
    check_choice(correction, CORRECTIONS, "correction")
    alpha = (1 - level) / 2
    estimate_rows, compare_rows = [], []
    for language, part in judgements.groupby("language", sort=False):
        systems = list(dict.fromkeys(part["system"]))
        items = np.sort(part["item"].unique())
        stereotype = part.drop_duplicates("item").set_index("item")["stereotype"].reindex(items).to_numpy()
        features = []
        for system in systems:
            rows = part[part["system"] == system].set_index("item").reindex(items)
            if rows["gender"].isna().any():
                raise DataError(f"{system}/{language}: judgements do not cover the same items as the other systems")
            features.append(item_features(rows["gold"], rows["gender"], rows["stereotype"]))
        data = np.stack(features, axis=1)  # (items, systems, features)
        weights = resample_weights(n_boot, strata=stereotype, rng=seed, dtype=np.float32)
        replicates = winomt_metrics(weighted_sums(weights, data, integer_weights=True))  # (boot, systems, metrics)
        point = winomt_metrics(data.sum(axis=0))
        low, high = np.nanquantile(replicates, [alpha, 1 - alpha], axis=0)
        for s, system in enumerate(systems):
            row = {
                "system": system,
                "language": language,
                "n": len(items),
                "n_unknown": int(data[:, s, FEATURE_INDEX["unknown"]].sum()),
            }
            for m, metric in enumerate(METRICS):
                row.update({metric: point[s, m], f"{metric}_ci_low": low[s, m], f"{metric}_ci_high": high[s, m]})
            estimate_rows.append(row)
        for a, b in combinations(range(len(systems)), 2):
            diffs = replicates[:, a] - replicates[:, b]
            d_low, d_high = np.nanquantile(diffs, [alpha, 1 - alpha], axis=0)
            for m, metric in enumerate(METRICS):
                if metric in MCNEMAR_METRICS:
                    k = FEATURE_INDEX[MCNEMAR_METRICS[metric]]
                    only_a = int(np.sum((data[:, a, k] == 1) & (data[:, b, k] == 0)))
                    only_b = int(np.sum((data[:, a, k] == 0) & (data[:, b, k] == 1)))
                    pvalue, method = float(sign_test_pvalue(only_a, only_b, "two-sided")), "McNemar exact"
                else:
                    pvalue, method = float(bootstrap_pvalue(diffs[:, m])), "paired bootstrap"
                compare_rows.append(
                    {"language": language, "system_a": systems[a], "system_b": systems[b], "metric": metric,
                     "diff": point[a, m] - point[b, m], "ci_low": d_low[m], "ci_high": d_high[m],
                     "p_value": pvalue, "method": method}
                )  # fmt: skip
    estimates = pd.DataFrame(estimate_rows)
    comparisons = pd.DataFrame(compare_rows)
    if len(comparisons):
        comparisons["p_adjusted"] = adjust_pvalues(comparisons["p_value"].to_numpy(), correction)
    return estimates, comparisons


def adjective_effect(base: pd.DataFrame, adjective: pd.DataFrame, *, level: float = 0.95) -> pd.DataFrame:
    """Change in Acc when "handsome"/"pretty" is added, on the items both versions judged.

    Per (system, language): Acc without and with the adjective, the paired
    difference with Newcombe's interval, the item-level transition counts
    (right→right, right→wrong, wrong→right, wrong→wrong) and McNemar's exact p-value.
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
        effect = paired_difference_in_proportions(rr, wr, rw, ww, level=level)
        rows.append(
            {"system": system, "language": language, "n": len(part), "acc": 100 * before.mean(), "acc_adj": 100 * after.mean(),
             "change": 100 * float(effect.estimate), "change_ci_low": 100 * float(effect.low),
             "change_ci_high": 100 * float(effect.high), "right_right": rr, "right_wrong": rw, "wrong_right": wr,
             "wrong_wrong": ww, "p_mcnemar": float(sign_test_pvalue(wr, rw, "two-sided"))}
        )  # fmt: skip
    return pd.DataFrame(rows)


def corrected_accuracy(
    estimates: pd.DataFrame,
    pairs: pd.DataFrame,
    *,
    n_draws: int = 10_000,
    seed: int = 0,
    level: float = 0.95,
) -> pd.DataFrame:
    """Acc corrected for the automatic reader's errors, from a language's human-labelled sample.

    In the labelled sample each translation is correct by the automatic reading
    (``automatic == gold``) or not, and correct by the human reading (``human ==
    gold``) or not. With p1 = P(human-correct | automatic-correct) and p0 =
    P(human-correct | automatic-wrong), the accuracy a native speaker would give is

        Acc_corrected = Acc · p1 + (1 − Acc) · p0,

    the predictive-value correction, valid when the labelled translations are a
    random sample of the outputs the reading was applied to (for other systems of
    the same language it assumes the reader errs on them as it does on the
    sample). The interval carries both uncertainties: p1 and p0 are drawn from
    their Jeffreys posteriors Beta(x + ½, n − x + ½) given the labelled counts, Acc
    from Beta(k + ½, n − k + ½) given the items, and the `level` percentile
    interval of the `n_draws` corrected values is reported.

    Parameters
    ----------
    estimates : DataFrame
        From :func:`analyse`: ``system, language, n, acc`` (Acc in percent).
    pairs : DataFrame
        ``language, item, gold, human, automatic``: the labelled rows (``pairs`` of
        :func:`~stats_mtbias.studies.winomt_reading.validate`, one file's or several
        concatenated; rows repeated across files should be dropped first).
    n_draws : int
        Monte Carlo draws of the interval.
    seed : int
        Seed of the draws.

    Returns
    -------
    DataFrame
        ``system, language, n, acc, acc_corrected, ci_low, ci_high, n_labelled,
        p_human_correct_given_auto_correct, p_human_correct_given_auto_wrong``, in
        percent, for every (system, language) whose language has labelled rows.
    """
    level = check_level(level)
    n_draws = check_positive_int(n_draws, "n_draws")
    rng = np.random.default_rng(seed)
    rows = []
    for language, sample in pairs.groupby("language", sort=False):
        auto_right = (sample["automatic"] == sample["gold"]).to_numpy()
        human_right = (sample["human"] == sample["gold"]).to_numpy()
        n1, n0 = int(auto_right.sum()), int((~auto_right).sum())
        x1, x0 = int(human_right[auto_right].sum()), int(human_right[~auto_right].sum())
        for _, est in estimates[estimates["language"] == language].iterrows():
            n = int(est["n"])
            k = round(est["acc"] * n / 100)
            acc = k / n
            if n1 and n0:
                p1, p0 = x1 / n1, x0 / n0
                point = acc * p1 + (1 - acc) * p0
                acc_draw = rng.beta(k + 0.5, n - k + 0.5, n_draws)
                p1_draw = rng.beta(x1 + 0.5, n1 - x1 + 0.5, n_draws)
                p0_draw = rng.beta(x0 + 0.5, n0 - x0 + 0.5, n_draws)
                low, high = np.quantile(acc_draw * p1_draw + (1 - acc_draw) * p0_draw, [(1 - level) / 2, (1 + level) / 2])
            else:  # the sample has no right (or no wrong) automatic readings: nothing to correct with
                p1 = x1 / n1 if n1 else np.nan
                p0 = x0 / n0 if n0 else np.nan
                point = low = high = np.nan
            rows.append(
                {"system": est["system"], "language": language, "n": n, "acc": 100 * acc, "acc_corrected": 100 * point,
                 "ci_low": 100 * low, "ci_high": 100 * high, "n_labelled": len(sample),
                 "p_human_correct_given_auto_correct": 100 * p1, "p_human_correct_given_auto_wrong": 100 * p0}
            )  # fmt: skip
    return pd.DataFrame(rows)

"""The Prates et al. study: male defaults in 12 gender-neutral languages → English.

Judgement table → per-item counts → rates of female, male and neutral pronouns
per language and occupation category (Wilson/Jeffreys/Clopper–Pearson
intervals, widened by the design effect where an item has several outputs) →
one-sided paired tests per language × category (exact sign test on the
discordant occupations by default, the authors' paired t-test as an option)
with Holm or Benjamini–Hochberg over a stated family → tests of independence,
effect sizes → comparison with the BLS reference (correlation, paired test,
calibration GLM with standard errors clustered by category).

Denominators: by default percentages are over *identified* outputs (female,
male, neutral, both); ``denominator="all"`` reproduces the authors' convention:
every row, ``?`` included, and an item's several outputs (Bengali's six pronoun
variants) averaged before averaging over items.

The pairing unit of every test is the item (occupation or adjective): its
outputs in the group's languages and variants are summed first, so correlated
outputs of the same occupation never count as independent pairs.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from scipy import special, stats

from stats_mtbias import _defaults
from stats_mtbias._validation import check_choice, check_level, check_positive_int, check_rng
from stats_mtbias.datasets import prates as prates_data
from stats_mtbias.datasets.prates import SYSTEM
from stats_mtbias.datasets.registry import DataStore, open_store
from stats_mtbias.datasets.sources import as_source, source_sha256
from stats_mtbias.errors import DataError, UsageError
from stats_mtbias.gender.english import REFERENT_DROPPED, bracketed, classify_english, classify_english_referent
from stats_mtbias.planning.designs import one_language
from stats_mtbias.result import Spec, StudyResult
from stats_mtbias.schema import GENDERS, judgement_table
from stats_mtbias.significance.effect_sizes import cohens_h, paired_difference_in_proportions
from stats_mtbias.significance.independence import independence_test
from stats_mtbias.significance.multitest import CORRECTION_NAMES, CORRECTIONS, adjust_pvalues
from stats_mtbias.significance.paired import PAIRED_TESTS, paired_test
from stats_mtbias.stats.metrics import Metric, MetricSet
from stats_mtbias.stats.proportions import sample_design_effect
from stats_mtbias.studies._common import accounting as common_accounting
from stats_mtbias.studies._common import (
    adjust,
    check_systems,
    comparison_frame,
    integrity,
    melt,
    provenance,
    restrict_items,
    unreachable_significance,
)
from stats_mtbias.studies._samples import consistency, unit_codes, warn_unequal
from stats_mtbias.studies._samples import sample_weights as sample_weights_rule
from stats_mtbias.studies._shares import analyse as shares
from stats_mtbias.studies._study import Study, finish, with_notes
from stats_mtbias.tables import wide_counts
from stats_mtbias.uncertainty.analytic import PROPORTION_METHODS, design_effect

ALL = "all"
BY_CHOICES = ("language", "category", "language,category")
DENOMINATORS = ("identified", "all")
COMPARISONS = (("male", "female"), ("male", "neutral"), ("neutral", "female"))
IDENTIFIED = ("female", "male", "neutral", "both")
# The shares of the rates frame, declared once for the engine of :mod:`stats_mtbias.stats.metrics`: over the identified
# outputs, or (``denominator="all"``, the authors' convention) over every output; ``neutral`` is the neutral pronoun
# alone (``both`` is counted, in neither share).
SHARES = {
    "identified": tuple(Metric(g, {g: 1.0}, IDENTIFIED, unknown=("unknown",)) for g in ("female", "male", "neutral")),
    "all": tuple(Metric(g, {g: 1.0}, GENDERS) for g in ("female", "male", "neutral")),
}
# Shares in [0, 1]; p_value/p_adjusted: the one-sided male > female test of the row.
RECORD_COLUMNS = [
    "system",
    "language",
    "category",
    "n",
    "n_items",
    "n_female",
    "n_male",
    "n_neutral",
    "n_unknown",
    "female",
    "male",
    "neutral",
    "female_ci_low",
    "female_ci_high",
    "male_ci_low",
    "male_ci_high",
    "neutral_ci_low",
    "neutral_ci_high",
    "p_value",
    "p_adjusted",
]
TEST_COLUMNS = [
    "system",
    "language",
    "category",
    "comparison",
    "n_items",
    "n_positive",
    "n_negative",
    "statistic",
    "p_value",
    "p_adjusted",
    "diff",
    "diff_ci_low",
    "diff_ci_high",
    "cohens_h",
]
INDEPENDENCE_COLUMNS = [
    "language",
    "table",
    "n",
    "rows",
    "columns",
    "statistic",
    "dof",
    "p_value",
    "p_adjusted",
    "cramers_v",
    "min_expected",
    "method",
]
# translated, reference: mean female shares; p_value: one-sided Wilcoxon that translated < reference.
REFERENCE_COLUMNS = [
    "system",
    "language",
    "level",
    "n",
    "n_excluded",
    "translated",
    "reference",
    "diff",
    "diff_ci_low",
    "diff_ci_high",
    "p_value",
    "r",
    "r_ci_low",
    "r_ci_high",
    "rho",
]
CALIBRATION_COLUMNS = [
    "system",
    "language",
    "n_cells",
    "n_excluded",
    "n_clusters",
    "intercept",
    "intercept_ci_low",
    "intercept_ci_high",
    "slope",
    "slope_ci_low",
    "slope_ci_high",
    "female_at_parity",
]


# ---------------------------------------------------------------- loading


# The authors' scheme: Neutral is a neutral pronoun (they, it); an output with no personal pronoun at all is "?".
NEUTRAL_PRONOUN = r"\b(?:they|them|their|theirs|themselves|themself|it|its|itself)\b"


def judge(frame: pd.DataFrame) -> pd.DataFrame:
    """Read the gender of raw English translations (a ``translation`` column), as the authors did.

    The English reader (:func:`~stats_mtbias.gender.english.classify_english`)
    gives female, male or neutral; as in the authors' scheme, ``neutral`` needs a
    neutral pronoun (they, it), and an output without any personal pronoun is
    ``unknown`` (reason ``no_pronoun``). Rows without text (reason ``missing``)
    stay ``unknown``. A frame without ``translation`` is returned as it is. With a
    ``reference`` column (the asked-about words in [brackets]) only the output's words
    aligned to the bracketed ones are read
    (:func:`~stats_mtbias.gender.english.classify_english_referent`; ``why`` names the
    word read, a dropped referent is ``unknown``, reason ``referent_dropped``), and the
    same scheme holds there: a neutral slot needs a neutral pronoun, else it is ``unknown``
    (``no_pronoun``).

    Examples
    --------
    >>> frame = pd.DataFrame({"system": "s", "item": list("abcd"), "reason": ["", "", "", "missing"],
    ...                       "translation": ["She is a nurse.", "They are a clerk", "Clerk.", None]})
    >>> judge(frame)[["gender", "reason"]].astype(str).values.tolist()
    [['female', ''], ['neutral', ''], ['unknown', 'no_pronoun'], ['unknown', 'missing']]
    """
    if "translation" not in frame:
        return frame

    out = frame.copy()
    text = out["translation"].fillna("").astype(str)
    if "reference" in out:  # the bracketed referent's slot, not the whole output
        for line, ref in zip(out["line"], out["reference"], strict=True):
            try:
                bracketed(ref)
            except ValueError as error:
                raise DataError(f"reference translation: {error}", out["source"].iloc[0], int(line)) from None
        read, dropped, why = classify_english_referent(text.tolist(), out["reference"].tolist())
        said = pd.Series(why).str.extract(r"^'(.*)' for \[", expand=False).fillna("")
        neutral_word = said.str.contains(NEUTRAL_PRONOUN, regex=True).to_numpy().copy()
        # A row without brackets is read whole, as without a reference.
        neutral_word |= (why == "") & text.str.lower().str.contains(NEUTRAL_PRONOUN, regex=True).to_numpy()
    else:
        read = classify_english(text.tolist())
        neutral_word = text.str.lower().str.contains(NEUTRAL_PRONOUN, regex=True).to_numpy()
    read = np.where((read == "neutral") & ~neutral_word, "unknown", read)
    out["gender"] = np.where(out["reason"] == "missing", "unknown", read)
    if "reference" in out:
        out["reason"] = np.where(out["reason"] == "", dropped, out["reason"])
        out["why"] = np.where(out["reason"].isin(["", REFERENT_DROPPED]), why, "")
        out = out.drop(columns="reference")
    out.loc[(out["gender"] == "unknown") & (out["reason"] == ""), "reason"] = "no_pronoun"
    return judgement_table(out.drop(columns="translation"))


def load_judgements(
    *,
    data_dir: str | Path | None = None,
    store: DataStore | None = None,
    items: str = "jobs",
    languages: list[str] | None = None,
    judgements_file: str | Path | None = None,
    bengali: str = "pool",
    sample: str | None = None,
    referent: str | None = None,
) -> tuple[pd.DataFrame, DataStore | None]:
    """The authors' judgements (or a user's CSV), filtered to `languages`.

    Parameters
    ----------
    items : {"jobs", "adjectives"}
    languages : list of str, optional
        Languages to keep (default all); an unknown name is an error listing the known ones.
    judgements_file : path, optional
        A user's CSV (see :func:`stats_mtbias.datasets.prates.read_user_judgements`)
        instead of the shipped judgements.
    bengali : {"pool", "variants"}
        Bengali's six pronoun variants as six outputs of one language (default),
        or as six languages ``Bengali-HF`` … ``Bengali-EP``.
    sample : str, optional
        The column of `judgements_file` telling several samples of one output
        apart (an LLM sampled k times): see :func:`sample_weights`.
    referent : str, optional
        The column of `judgements_file` with reference translations, the asked-about
        words in [brackets] (:func:`judge`).
    """
    check_choice(bengali, prates_data.BENGALI, "bengali")
    if sample is not None and judgements_file is None:
        raise UsageError("`sample` needs your own judgements (the shipped ones have one output per item).")
    if referent is not None and judgements_file is None:
        raise UsageError("`referent` names a column of your own judgements: give `judgements`.")
    if judgements_file is not None:
        judgements = judge(
            prates_data.read_user_judgements(as_source(judgements_file, "judgements"), sample=sample, referent=referent)
        )
    else:
        store = store or open_store(data_dir)
        judgements = prates_data.read_judgements(store, items)
    judgements = prates_data.select(judgements, languages, bengali)
    if sample is not None:
        judgements = sample_weights(judgements)
    return judgements, store


SAMPLE_KEYS = ["system", "item", "language", "variant"]


def sample_weights(judgements: pd.DataFrame) -> pd.DataFrame:
    """Weigh the samples of each output (rows of one system, item, language and variant) by the one rule.

    The judgements get a column ``n``, ``1/K`` for each of the ``K`` known
    samples of an output and 0 for its unknown ones (an unknown sample is an
    absent one; an output with no known sample is one unknown output:
    :func:`~stats_mtbias.studies._samples.sample_weights`), so that every count
    of the study is the mean over an output's known samples (an item weighs one
    whatever its samples; duplicating every sample changes no count), and
    ``_split``, whether the output's known samples disagree in gender. With one
    sample everywhere the judgements are returned as they are: the analysis is
    the single-output one, to the last digit. Unequal numbers of known samples
    are averaged all the same, with a :class:`~stats_mtbias.errors.DataQualityWarning`.

    Examples
    --------
    >>> frame = pd.DataFrame({"system": "s", "item": ["a", "a", "b", "b"], "language": "tr", "variant": "",
    ...                       "sample": ["1", "2", "1", "2"], "gender": ["male", "female", "male", "unknown"]})
    >>> sample_weights(frame)[["n", "_split"]].values.tolist()
    [[0.5, True], [0.5, True], [1.0, False], [0.0, False]]
    """
    grouped = judgements.groupby(SAMPLE_KEYS, sort=False, observed=True)
    k = grouped["gender"].transform("size").to_numpy()
    if (k == 1).all():
        return judgements
    units = unit_codes(judgements, SAMPLE_KEYS)
    gender = judgements["gender"].astype(str)
    known = (gender != "unknown").to_numpy()
    warn_unequal(judgements, ["system"], units, known, "Prates")
    split = gender.where(known).groupby(units, sort=False).transform("nunique").to_numpy() > 1
    return judgements.assign(n=sample_weights_rule(units, known), _split=split)


def _has_samples(judgements: pd.DataFrame) -> bool:
    """Whether some output's samples disagree in gender (then the design effect has no floor at 1)."""
    return "_split" in judgements and bool(judgements["_split"].any())


def _number(x):
    """An int where a count is whole (every count without samples), else a float (a mean over samples)."""
    x = float(x)
    return int(x) if x.is_integer() else x


def _item_counts(judgements: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Per (keys…, item) counts of every gender and the number of outputs ``m``.

    With samples (a weight column ``n``, :func:`sample_weights`) the counts are
    means over the samples, rounded to 12 decimals so that means that are equal
    compare equal (the sign test's ties) whatever the order of summation.
    """
    counts = wide_counts(judgements, [*keys, "item"])
    if "n" in judgements:
        columns = [*GENDERS, "m"]
        counts[columns] = counts[columns].astype(float).round(12)
    return counts


def _groups(judgements: pd.DataFrame, by: str):
    """Yield ``(language, category, rows)`` for every reported group, ``all`` rows included."""
    check_choice(by, BY_CHOICES, "by")
    languages = list(dict.fromkeys(judgements["language"]))
    categories = list(dict.fromkeys(judgements["category"]))
    if by in ("language", "language,category"):
        for language in languages:
            in_language = judgements[judgements["language"] == language]
            yield language, ALL, in_language
            if by == "language,category" and categories != [ALL]:
                for category in categories:
                    rows = in_language[in_language["category"] == category]
                    if len(rows):
                        yield language, category, rows
    else:
        yield ALL, ALL, judgements
        for category in categories:
            rows = judgements[judgements["category"] == category]
            if len(rows):
                yield ALL, category, rows


# ---------------------------------------------------------------- rates and tests


def _rates_row(rows: pd.DataFrame, denominator: str, interval: str, level: float) -> dict:
    per_item = _item_counts(rows, ["language"])  # cells: (language, item)
    totals = per_item[list(GENDERS)].sum()
    n = _number(totals[list(IDENTIFIED) if denominator == "identified" else list(GENDERS)].sum())
    # Clusters are items: an occupation's outputs in all languages and variants of the group, counted into the
    # shares engine's cube (items, one system, one group, genders).
    by_item = per_item.groupby("item", sort=False)[list(GENDERS)].sum()
    cube = by_item.to_numpy(dtype=float)[:, None, None, :]
    engine = MetricSet(SHARES[denominator], GENDERS)
    strata, samples = np.zeros(len(by_item), dtype=int), _has_samples(rows)
    estimate = engine.estimate(cube)
    # Samples that disagree: items' means, no floor at 1 (duplicated samples must not count as outputs).
    deff, _ = engine.design_effects(cube, estimate, strata, None, samples=samples, worst_case=True)
    low, high, _ = engine.score_bounds(cube, estimate, strata, None, level, samples=samples, method=interval, worst_case=True)
    if denominator == "identified":
        share = dict(zip(engine.names, estimate[0, 0]))
    else:
        # The authors' convention: average each cell's outputs, then the cells (the interval: the pooled share's).
        share = {g: float(np.mean(per_item[g] / per_item["m"])) for g in engine.names}
    out = {"n": n, **{f"n_{g}": _number(totals[g]) for g in GENDERS}, "n_items": int(per_item["item"].nunique())}
    # Outputs counted as outputs (rows), whatever the samples' weights: n and n_<gender> are what the shares rest on.
    unknown = int((rows["gender"].astype(str) == "unknown").sum())
    out.update({"n_outputs": len(rows) - unknown, "n_unknown": unknown})
    for k, g in enumerate(engine.names):
        out.update(
            {
                g: share[g],
                f"{g}_ci_low": float(low[0, 0, k]) if n else np.nan,
                f"{g}_ci_high": float(high[0, 0, k]) if n else np.nan,
                f"deff_{g}": float(deff[0, 0, k]) if n else 1.0,
            }
        )
    return out


def _test_rows(rows: pd.DataFrame, method: str, level: float) -> list[dict]:
    per_item = _item_counts(rows, []).set_index("item")  # item: summed over the group's languages
    # With samples the counts are items' means over their samples: the sign test's sign is that of the difference
    # of an item's mean shares, the item is the unit (one sample per item: the counts themselves).
    effect = sample_design_effect if _has_samples(rows) else design_effect
    out = []
    for first, second in COMPARISONS:
        res = paired_test(per_item[first], per_item[second], trials=per_item["m"], method=method)
        # Effect size: difference of the two shares over all outputs, Newcombe interval on the
        # effective sample size (outputs / design effect of the per-item difference).
        n_out = float(per_item["m"].sum())
        x1, x2 = float(per_item[first].sum()), float(per_item[second].sum())
        deff = max(effect(per_item[first], per_item["m"]), effect(per_item[second], per_item["m"]))
        both = 0.0  # exclusive outcomes of one output
        eff = paired_difference_in_proportions(both, x1 / deff, x2 / deff, max(n_out - x1 - x2, 0.0) / deff, level=level)
        out.append(
            {
                "comparison": f"{first}>{second}",
                "n_items": res.n,
                "n_positive": res.n_positive,
                "n_negative": res.n_negative,
                "statistic": res.statistic,
                "p_value": res.pvalue,
                "diff": float(eff.estimate),
                "diff_ci_low": float(eff.low),
                "diff_ci_high": float(eff.high),
                "cohens_h": float(cohens_h(x1 / n_out, x2 / n_out)),
            }
        )
    return out


def _count(n: int, singular: str, plural: str | None = None) -> str:
    """``"12 languages"``, ``"1 language"``."""
    return f"{n} {singular if n == 1 else plural or singular + 's'}"


def analyse(
    judgements: pd.DataFrame,
    *,
    by: str = "language",
    denominator: str = "identified",
    interval: str = "wilson",
    test: str = "exact",
    correction: str = _defaults.CORRECTION,
    level: float = _defaults.LEVEL,
) -> tuple[pd.DataFrame, pd.DataFrame, str]:
    """Rates with intervals and the paired tests, adjusted over their family.

    Returns
    -------
    (rates, tests, family)
        ``rates`` has :data:`RECORD_COLUMNS` (and more); ``tests`` one row per
        group and comparison (:data:`TEST_COLUMNS`); ``family`` describes the
        family each comparison's p-values were adjusted over.
    """
    check_choice(denominator, DENOMINATORS, "denominator")
    check_choice(interval, PROPORTION_METHODS, "interval")
    check_choice(test, PAIRED_TESTS, "test")
    check_choice(correction, CORRECTIONS, "correction")
    level = check_level(level)
    rate_rows, test_rows = [], []
    for language, category, rows in _groups(judgements, by):
        rate_rows.append({"language": language, "category": category, **_rates_row(rows, denominator, interval, level)})
        for row in _test_rows(rows, test, level):
            test_rows.append({"language": language, "category": category, **row})
    system = str(judgements["system"].iloc[0]) if "system" in judgements and len(judgements) else SYSTEM
    rates = pd.DataFrame(rate_rows)
    tests = pd.DataFrame(test_rows)
    rates.insert(0, "system", system)
    tests.insert(0, "system", system)
    tests["p_adjusted"] = np.nan
    for idx in tests.groupby("comparison", sort=False).groups.values():
        tests.loc[idx, "p_adjusted"] = adjust_pvalues(tests.loc[idx, "p_value"].to_numpy(), correction)
    family_size = len(rates)
    n_lang, n_cat = rates["language"].nunique(), rates["category"].nunique()
    family = (
        f"{CORRECTION_NAMES[correction]} over the {family_size} one-sided tests of each comparison, one per row "
        f"({_count(n_lang, 'language')} × {_count(n_cat, 'category', 'categories')}, 'all' rows included)"
    )
    male_female = tests[tests["comparison"] == "male>female"].reset_index(drop=True)
    rates["p_value"] = male_female["p_value"].to_numpy()  # the row's one-sided male > female test
    rates["p_adjusted"] = male_female["p_adjusted"].to_numpy()
    return rates, tests[TEST_COLUMNS], family


def independence(
    judgements: pd.DataFrame,
    *,
    correction: str = _defaults.CORRECTION,
    method: str = "auto",
    rng: np.random.Generator | int = _defaults.SEED,
    n_draws: int = _defaults.N_DRAWS,
) -> pd.DataFrame:
    """Does the pronoun (female/male/neutral) depend on the language, and on the category within a language?

    Tables count identified outputs. Where items have several outputs (Bengali's
    variants) the chi-square is divided by the mean design effect of the three
    shares (first-order Rao–Scott), since outputs of one item are not
    independent. p-values of the per-language tests are adjusted over their family.

    With samples that disagree (:func:`sample_weights`) the tables hold the
    outputs' means over their samples, tested by Pearson's chi-square divided by
    the mean design effect of :func:`sample_design_effect` (no floor at 1: an
    output's averaged samples may be worth more than one draw).
    """
    check_choice(correction, CORRECTIONS, "correction")
    genders = ["female", "male", "neutral"]
    known = judgements[judgements["gender"].isin(genders)]
    rows = []
    rng = check_rng(rng)
    scopes = [(ALL, "language × gender", "language", known)]
    if judgements["category"].nunique() > 1:
        scopes += [(lang, "category × gender", "category", part) for lang, part in known.groupby("language", sort=False)]
    for language, name, row_key, part in scopes:
        per_item = _item_counts(part, [])
        if _has_samples(part):
            rows.append({"language": language, "table": name, **_sampled_independence(part, row_key, per_item)})
            continue
        table = pd.crosstab(part[row_key], part["gender"].astype(str)).reindex(columns=genders, fill_value=0)
        deff = np.mean([design_effect(per_item[g], per_item["m"]) for g in genders])
        try:
            res = independence_test(table.to_numpy(), method=method if deff == 1.0 else "chi2", rng=rng, n_resamples=n_draws)
        except ValueError as exc:  # a table with one non-empty row or column
            rows.append({"language": language, "table": name, "n": int(table.to_numpy().sum()), "method": f"not tested: {exc}"})
            continue
        statistic, pvalue, label = res.statistic, res.pvalue, res.method
        if deff > 1.0:
            statistic = res.statistic / deff
            pvalue = float(stats.chi2.sf(statistic, res.dof))
            label = f"chi2 / design effect {deff:.2f} (first-order Rao–Scott)"
        rows.append(
            {
                "language": language,
                "table": name,
                "n": res.n,
                "rows": res.shape[0],
                "columns": res.shape[1],
                "statistic": statistic,
                "dof": res.dof,
                "p_value": pvalue,
                "cramers_v": res.cramers_v,
                "min_expected": res.min_expected,
                "method": label,
            }
        )
    table = pd.DataFrame(rows).reindex(columns=INDEPENDENCE_COLUMNS)
    per_language = table["table"] == "category × gender"
    table["p_adjusted"] = table["p_value"]
    if per_language.any():
        table.loc[per_language, "p_adjusted"] = adjust_pvalues(table.loc[per_language, "p_value"].to_numpy(), correction)
    return table


def _sampled_independence(part: pd.DataFrame, row_key: str, per_item: pd.DataFrame) -> dict:
    """Chi-square of a table of outputs' means over samples, divided by the mean sample design effect."""
    genders = ["female", "male", "neutral"]
    table = (
        part.groupby([part[row_key].astype(str), part["gender"].astype(str).rename("_gender")], sort=False)["n"]
        .sum()
        .unstack(fill_value=0.0)
        .reindex(columns=genders, fill_value=0.0)
        .round(12)
    )
    observed = table.to_numpy()
    observed = observed[observed.sum(axis=1) > 0][:, observed.sum(axis=0) > 0]
    n = float(observed.sum())
    if min(observed.shape) < 2:
        return {
            "n": _number(n),
            "method": "not tested: `table` needs at least two non-empty rows and columns "
            f"to test independence (has {observed.shape}).",
        }
    raw, _, dof, expected = stats.chi2_contingency(observed, correction=False)
    deff = float(np.mean([sample_design_effect(per_item[g], per_item["m"]) for g in genders]))
    statistic = raw / deff
    return {
        "n": _number(n),
        "rows": observed.shape[0],
        "columns": observed.shape[1],
        "statistic": statistic,
        "dof": dof,
        "p_value": float(stats.chi2.sf(statistic, dof)),
        "cramers_v": float(np.sqrt(raw / (n * (min(observed.shape) - 1)))),
        "min_expected": float(expected.min()),
        "method": f"chi2 of the means over samples / design effect {deff:.2f} (first-order Rao–Scott)",
    }


# ---------------------------------------------------------------- the BLS reference


def _cell_shares(judgements: pd.DataFrame) -> pd.DataFrame:
    """Female share among identified outputs per (language, item); NaN where none is identified."""
    cells = _item_counts(judgements, ["language"])
    identified = cells[list(IDENTIFIED)].sum(axis=1)
    cells["identified"] = identified
    cells["share"] = np.where(identified > 0, cells["female"] / identified.where(identified > 0, 1), np.nan)
    return cells


def _compare(translated: np.ndarray, reference: np.ndarray, level: float) -> dict:
    """Mean difference (t interval), one-sided Wilcoxon that translated < reference, correlations."""
    n = translated.size
    if n == 0:  # no occupation with both shares (e.g. a user's CSV whose names BLS does not list)
        return {"n": 0, "translated": np.nan, "reference": np.nan, "diff": np.nan}
    diff = translated - reference
    out = {"n": n, "translated": translated.mean(), "reference": reference.mean(), "diff": diff.mean()}
    if n >= 3:
        half = stats.t.ppf(0.5 + level / 2, n - 1) * diff.std(ddof=1) / np.sqrt(n)
        out["diff_ci_low"], out["diff_ci_high"] = diff.mean() - half, diff.mean() + half
        out["p_value"] = float(stats.wilcoxon(translated, reference, alternative="less").pvalue) if np.any(diff != 0) else 1.0
        if np.std(translated) > 0 and np.std(reference) > 0:
            pearson = stats.pearsonr(translated, reference)
            ci = pearson.confidence_interval(level)
            out.update(r=float(pearson.statistic), r_ci_low=float(ci.low), r_ci_high=float(ci.high))
            out["rho"] = float(stats.spearmanr(translated, reference).statistic)
    return out


def _reference_cells(judgements: pd.DataFrame, bls: pd.DataFrame) -> pd.DataFrame:
    cells = _cell_shares(judgements)
    ref = prates_data.match_reference(judgements, bls)
    return cells.join(ref[["female_share", "category", "category_female_share"]], on="item")


def _per_occupation(cells: pd.DataFrame) -> pd.DataFrame:
    # Each language counts once in an occupation's translated share.
    return cells.groupby("item", sort=False).agg(share=("share", "mean"), reference=("female_share", "first"))


def occupation_shares(judgements: pd.DataFrame, bls: pd.DataFrame) -> pd.DataFrame:
    """Per occupation: ``share`` (translated female share, mean over languages) and ``reference`` (BLS), as fractions.

    The occupations :func:`reference_comparison` compares at the occupation
    level: those without a BLS share or an identified output are left out.
    """
    return _per_occupation(_reference_cells(judgements, bls)).dropna()


def reference_comparison(judgements: pd.DataFrame, bls: pd.DataFrame, *, level: float = _defaults.LEVEL) -> pd.DataFrame:
    """Translated female share against BLS participation, per occupation and per category.

    Occupation level: an occupation's translated share is the mean over
    languages of the female share among its identified outputs in that language
    (each language counts once); occupations without a BLS share or without any
    identified output are excluded and counted in ``n_excluded``. Category
    level: the female share of the category's identified outputs against BLS's
    category participation. One row per language and for all languages together.
    """
    level = check_level(level)
    cells = _reference_cells(judgements, bls)
    rows = []
    scopes = [(ALL, cells), *list(cells.groupby("language", sort=False))]
    for language, part in scopes:
        occ = _per_occupation(part)
        ok = occ["share"].notna() & occ["reference"].notna()
        rows.append(
            {
                "language": language,
                "level": "occupation",
                "n_excluded": int((~ok).sum()),
                **_compare(occ.loc[ok, "share"].to_numpy(), occ.loc[ok, "reference"].to_numpy(), level),
            }
        )
        cat = part.groupby("category", sort=False).agg(
            female=("female", "sum"), identified=("identified", "sum"), reference=("category_female_share", "first")
        )
        ok = (cat["identified"] > 0) & cat["reference"].notna()
        share = (cat.loc[ok, "female"] / cat.loc[ok, "identified"]).to_numpy()
        rows.append(
            {
                "language": language,
                "level": "category",
                "n_excluded": int((~ok).sum()),
                **_compare(share, cat.loc[ok, "reference"].to_numpy(), level),
            }
        )
    return pd.DataFrame(rows).reindex(columns=REFERENCE_COLUMNS)


def calibration(
    judgements: pd.DataFrame, bls: pd.DataFrame, *, level: float = _defaults.LEVEL, clip: float = 0.005
) -> pd.DataFrame:
    """Binomial GLM of a female output on the logit of the BLS female share.

    ``logit P(female | identified) = a + b · logit(f)``: ``expit(a)`` is the
    female rate where BLS says 50% (below 50% reads as a male default); ``b``
    is how far the translator follows reality (1: as strongly as the logit of
    the reference, 0: not at all). One observation per (language, occupation)
    cell, the female share of its identified outputs weighted by their number;
    standard errors clustered by BLS category with a t reference on
    ``clusters - 1`` degrees of freedom. Cells without a reference share or
    without an identified output are left out and counted in ``n_excluded``. ``f`` is clipped to [clip, 1 - clip].
    One row per language and for all languages together.
    """
    import statsmodels.api as sm

    level = check_level(level)
    cells = _cell_shares(judgements)
    ref = prates_data.match_reference(judgements, bls)
    cells = cells.join(ref[["female_share"]], on="item")
    cells["category"] = judgements.drop_duplicates("item").set_index("item")["category"].reindex(cells["item"]).to_numpy()
    usable = (cells["identified"] > 0) & cells["female_share"].notna()
    excluded = (~usable).groupby(cells["language"], sort=False).sum()  # no identified output or no reference share
    cells = cells[usable]
    rows = []
    for language, part in [(ALL, cells), *list(cells.groupby("language", sort=False))]:
        x = special.logit(part["female_share"].clip(clip, 1 - clip).to_numpy())
        groups = pd.factorize(part["category"])[0]
        n_clusters = int(groups.max() + 1) if len(groups) else 0
        n_excluded = int(excluded.sum() if language == ALL else excluded.get(language, 0))
        row = {"language": language, "n_cells": len(part), "n_excluded": n_excluded, "n_clusters": n_clusters, "note": ""}
        if not 0 < part["female"].sum() < part["identified"].sum():
            row["note"] = "not estimable: no female output" if part["female"].sum() == 0 else "not estimable: only female outputs"
        elif n_clusters < 3:
            row["note"] = "not estimable: fewer than 3 categories to cluster by"
        else:
            # Binomial counts (female, other identified) per cell: the GLM's own trials.
            endog = np.column_stack([part["female"], part["identified"] - part["female"]])
            model = sm.GLM(endog, sm.add_constant(x), family=sm.families.Binomial())
            fit = model.fit(cov_type="cluster", cov_kwds={"groups": groups})
            t = stats.t.ppf(0.5 + level / 2, n_clusters - 1)
            (a, b), (se_a, se_b) = fit.params, fit.bse
            row.update(
                intercept=a,
                intercept_ci_low=a - t * se_a,
                intercept_ci_high=a + t * se_a,
                slope=b,
                slope_ci_low=b - t * se_b,
                slope_ci_high=b + t * se_b,
                female_at_parity=special.expit(a),
            )
        rows.append(row)
    return pd.DataFrame(rows).reindex(columns=[*CALIBRATION_COLUMNS, "note"])


# ---------------------------------------------------------------- running


def accounting(judgements: pd.DataFrame) -> pd.DataFrame:
    """Rows read per system and language, by what became of them: ``system, language, outcome, n``."""
    return common_accounting(
        judgements.assign(outcome=judgements["reason"].replace("", "judged")), ["system", "language"], "outcome"
    )


def sample_consistency(judgements: pd.DataFrame, level: float = _defaults.LEVEL) -> pd.DataFrame:
    """The consistency of each system's samples per language: :func:`stats_mtbias.studies._samples.consistency`.

    An output (an item, language and variant of a system) is the unit; unknown samples are left out (the one rule).
    """
    gender = judgements["gender"].astype(str).to_numpy()
    return consistency(
        judgements.assign(system=judgements["system"].astype(str)),
        keys=["system", "language"],
        unit=["item", "variant"],
        outcome="gender",
        known=gender != "unknown",
        indicators={"female": gender == "female", "male": gender == "male", "neutral": np.isin(gender, ["neutral", "both"])},
        shares=["female", "male"],
        level=level,
    )


def pilot(result, *, systems=None, metric=None, language=None, subset=None):
    """A Prates result as a planning pilot for :func:`stats_mtbias.power`.

    ``metric="male>female"`` (default, or another comparison of the tests): the
    exact power of the one-sided sign test with the pilot's discordance;
    ``"p_female"``: one rate with its design effect.
    """
    metric = metric or "male>female"
    language = one_language(result.frame("tests"), language)
    if metric in ("p_female", "female"):
        row = result.frame("rates")
        row = row[(row["language"] == language) & (row["category"] == (subset or "all"))]
        if not len(row):
            raise UsageError(f"no {language} rates for category {subset or 'all'!r} in the pilot.")
        row = row.iloc[0]
        deff = float(row["deff_female"]) if pd.notna(row["deff_female"]) else 1.0
        return "rate", dict(
            rate=float(row["n_female"]) / float(row["n"]), deff=max(deff, 1.0), metric=f"{language} p_female", comparison=""
        )
    tests = result.frame("tests")
    row = tests[(tests["language"] == language) & (tests["category"] == (subset or "all")) & (tests["comparison"] == metric)]
    if not len(row):
        raise UsageError(
            f"no {language} test {metric!r} (category {subset or 'all'!r}) in the pilot; comparisons: "
            f"{', '.join(sorted(set(tests['comparison'])))} or p_female."
        )
    row = row.iloc[0]
    n_items = float(row["n_items"])
    return "paired", dict(
        discordance=(row["n_positive"] + row["n_negative"]) / n_items,
        observed=(row["n_positive"] - row["n_negative"]) / n_items,
        metric=f"{language} {metric}",
        comparison=metric,
        unit_scale=1.0,
        alternative="greater",
    )


def _per_system(function, judgements: pd.DataFrame, *args, **kwargs) -> pd.DataFrame | None:
    """`function` on each system's judgements, with a ``system`` column first (None where every part gives None)."""
    parts = []
    for system, part in judgements.groupby("system", sort=False, observed=True):
        out = function(part, *args, **kwargs)
        if out is not None:
            out = out.drop(columns="system", errors="ignore")
            out.insert(0, "system", str(system))
            parts.append(out)
    return pd.concat(parts, ignore_index=True) if parts else None


@with_notes
def evaluate(
    judgements=None,
    *,
    reference=None,
    data_dir: str | Path | None = None,
    items="jobs",
    languages: list[str] | None = None,
    bengali: str = "pool",
    by: str = "language",
    denominator: str = "identified",
    interval: str = "wilson",
    test: str = "exact",
    correction: str = _defaults.CORRECTION,
    against=None,
    family="metric",
    alpha: float = _defaults.ALPHA,
    level: float = _defaults.LEVEL,
    rng: np.random.Generator | int = _defaults.SEED,
    n_boot: int = _defaults.N_BOOT,
    n_draws: int = _defaults.N_DRAWS,
    pool: bool = False,
    sample: str | None = None,
    referent: str | None = None,
) -> StudyResult:
    """The Prates study on the shipped judgements or a user's (`judgements`, `reference`), per system: what
    :func:`stats_mtbias.prates` returns.

    See :func:`analyse`, :func:`independence`, :func:`reference_comparison` and
    :func:`calibration`: each runs on every system's judgements apart (several
    systems are never pooled silently; ``pool=True`` pools them into one, named
    ``a+b+…``, on purpose). ``alpha`` is recorded and used to flag significant rows
    (``significant`` column of ``tests``); ``rng`` feeds the Monte Carlo exact
    tests of independence and the comparisons' bootstrap. ``sample``:
    the column of `judgements` telling samples of one output apart
    (:func:`sample_weights`): an item's shares are the means over its samples,
    items stay the unit of every test and interval.

    With several systems: a row per system, and paired comparisons of the
    systems' shares per language (and category) on the occupations both
    translated (the cluster bootstrap of the shares engine, :mod:`stats_mtbias.stats.metrics`,
    ``n_boot`` resamples), with `against`, `family` and `correction`.
    """
    judgements_file, reference_file = judgements, reference
    # items=: a shipped item set by name, or the occupations (of the jobs set, or of yours) to keep.
    shipped = isinstance(items, str) and items in prates_data.ITEMS
    asked_items, items = (None, items) if shipped else (items, "jobs")
    check_positive_int(n_draws, "n_draws")
    alpha = check_level(alpha, "alpha")
    seed = rng
    store = open_store(data_dir) if judgements_file is None or reference_file is None else None
    judgements, _ = load_judgements(
        store=store,
        items=items,
        languages=languages,
        judgements_file=judgements_file,
        bengali=bengali,
        sample=sample,
        referent=referent,
    )
    judgements, restriction = restrict_items(judgements, asked_items, keys=["system", "language"], study="prates")
    judgements = judgements.reset_index(drop=True)
    if shipped and judgements_file is None:
        restriction.record["subset"] = items  # the shipped set by name
    systems = list(dict.fromkeys(judgements["system"].astype(str)))
    if len(systems) > 1 and not pool:
        origin = str(as_source(judgements_file, "judgements")) if judgements_file is not None else None
        units = ["language", "item", "variant", *(["sample"] if sample else [])]
        integrity(
            judgements.assign(value=judgements["gender"].astype(str)),
            units=units,
            groups=["language"],
            value="value",
            source=origin,
            what="outputs",
        )
    if pool and len(systems) > 1:
        judgements = judgements.assign(system="+".join(systems))
    rng = check_rng(rng)
    family_text = ""
    parts = []
    for _, part in judgements.groupby("system", sort=False, observed=True):
        rates_part, tests_part, family_text = analyse(
            part, by=by, denominator=denominator, interval=interval, test=test, correction=correction, level=level
        )
        parts.append((rates_part, tests_part))
    rates = pd.concat([r for r, _ in parts], ignore_index=True)
    tests = pd.concat([t for _, t in parts], ignore_index=True)
    tests["significant"] = tests["p_adjusted"] < alpha
    if test == "exact":  # a one-sided sign test on d discordant occupations cannot go below 2^-d
        unreachable_significance(
            tests,
            np.exp2(-(tests["n_positive"] + tests["n_negative"]).to_numpy(float)),
            alpha=alpha,
            correction=correction,
            families=tests["system"] + " / " + tests["comparison"],
            data_floor=np.exp2(-(tests["n_positive"] + tests["n_negative"]).to_numpy(float)),
            what="Prates one-sided sign tests (the tests frame)",
            fixes=["the authors' paired t-test (test='ttest' / --test ttest: no floor, approximate on few occupations)"],
            smaller="fewer tests a family (by='language' / --by language: no per-category rows)",
        )
    indep = _per_system(independence, judgements, correction=correction, rng=rng, n_draws=n_draws)
    reference = calib = None
    if items == "jobs":
        bls = prates_data.read_bls(store, reference_file)
        if prates_data.match_reference(judgements, bls)["bls_line"].gt(0).any():
            reference = _per_system(reference_comparison, judgements, bls, level=level)
            calib = _per_system(calibration, judgements, bls, level=level)
    data = dict(sorted(store.used.items())) if store is not None else {}
    for given, name in ((judgements_file, "judgements"), (reference_file, "reference")):
        if given is not None:
            source = as_source(given, name)
            data[str(source)] = source_sha256(source)
    method = (
        f"shares of {denominator} outputs"
        + (" (authors' convention: every row, variants averaged)" if denominator == "all" else "")
        + f"; {interval} intervals on the effective sample size (design effect over items); "
        + ("exact sign test on discordant items" if test == "exact" else "paired t-test on per-item differences (authors')")
        + f", one-sided; p-values adjusted by {family_text}, per system"
        + (
            "; several samples per output: an item's shares the means over its samples, items the unit of every test "
            "(the sign of an item's difference of mean shares) and interval (design effect over items, no floor at 1)"
            if "n" in judgements
            else ""
        )
    )
    record = provenance(
        method,
        data,
        rng=seed,
        level=level,
        correction=correction,
        options={
            "items": items,
            "languages": sorted(judgements["language"].unique().tolist()),
            "bengali": bengali,
            "by": by,
            "denominator": denominator,
            "interval": interval,
            "test": test,
            "alpha": alpha,
            "independence_resamples": n_draws,
            "unknown": "`?` rows counted in n_unknown",
            "systems": systems,
            "pooled": bool(pool and len(systems) > 1),
            "sample": sample,
            "yours": systems if judgements_file is not None else [],  # systems of the user's inputs (the report's)
        },
    )
    metrics = {g: (g, f"{g}_ci_low", f"{g}_ci_high") for g in ("female", "male", "neutral")}
    table = melt(rates, metrics, keys={"system": "system", "language": "language", "subset": "category"}, n="n_items")
    systems = list(dict.fromkeys(rates["system"].astype(str)))
    comparisons = None
    if len(systems) > 1:
        comparisons = _between_systems(
            judgements,
            by=by,
            n_boot=n_boot,
            rng=seed,
            level=level,
            correction=correction,
            against=against,
            family=family,
        )
    frames = {
        "rates": rates,
        "tests": tests,
        "independence": indep,
        "accounting": accounting(judgements),
        "judgements": judgements,
        "reference": reference,
        "calibration": calib if reference is not None else None,
        "consistency": sample_consistency(judgements, level) if sample is not None else None,
    }
    notes = [f"systems pooled on request into one: {systems[0]}"] if record.options.get("pooled") else []
    return finish(
        "prates",
        table,
        comparisons,
        record,
        frames,
        allowed=FRAMES,
        correction=correction,
        family=family,
        notes=notes,
        # The report's "your systems" (result.your_systems): against=, as in every study that compares systems.
        options={"against": check_systems(against, "against")},
        items=restriction,
    )


def _between_systems(
    judgements: pd.DataFrame, *, by: str, n_boot: int, rng, level: float, correction: str, against=None, family="metric"
) -> pd.DataFrame:
    """Paired differences of systems' shares per language (and category), clusters = occupations (the shares engine
    that ``rates`` runs too: :func:`stats_mtbias.studies._shares.analyse`)."""
    keys = ["language"] if by == "language" else ["category"] if by == "category" else ["language", "category"]
    table = pd.DataFrame(
        {
            "system": judgements["system"].astype(str),
            "cluster": judgements["item"].astype(str),
            "gender": judgements["gender"],
            "n": judgements["n"] if "n" in judgements else 1,  # samples: 1/k each
            "line": np.arange(len(judgements)),
            "stratum": "all",
            **{f"by:{k}": judgements[k].astype(str) for k in keys},
        }
    )
    _, cmp, _ = shares(
        table,
        by=keys,
        n_boot=n_boot,
        rng=rng,
        level=level,
        correction=correction,
        against=check_systems(against, "against"),
        family="all",
        samples=_has_samples(judgements),
        unit="items",
    )
    cmp = cmp[cmp["metric"] != "gap"].copy()
    cmp["subset"] = cmp["category"] if "category" in keys else ALL
    return adjust(comparison_frame(cmp), correction, family)


READ_COLUMNS = ["system", "item", "language", "category", "variant", "translation", "gender", "reason"]


def read(judgements, *, sample: str | None = None, referent: str | None = None) -> pd.DataFrame:
    """English outputs read as the authors did (a neutral pronoun for ``neutral``; no pronoun is ``unknown``).

    `judgements`: a CSV or frame ``item, language, translation`` (optional ``system, category, variant``);
    returns one row per output with ``gender`` and ``reason``: the table ``prates(judgements=...)`` takes. The
    user's other columns (a sample column, notes; the header lower-cased) follow :data:`READ_COLUMNS` under their
    names, so the table goes back in as it came. `sample` names the column telling several samples of one output
    apart (an LLM sampled k times; without it a repeated item is another occupation of that name): it stays under
    its own name, and ``prates(..., sample=...)`` takes the table. `referent`: the column of reference translations
    with the asked-about words in [brackets] (:func:`judge`); a column ``why`` after ``reason`` names the word read.
    """
    raw = prates_data.read_user_judgements(as_source(judgements, "judgements"), sample=sample, keep=True, referent=referent)
    if "translation" not in raw or raw["translation"].isna().all():
        raise UsageError("`judgements` has no 'translation' column to read (its genders are read already).")
    judged = judge(raw)
    extra = [c for c in judged.columns if str(c).startswith("+")]
    out = judged.assign(item=judged["occupation"], translation=raw["translation"].to_numpy(), gender=judged["gender"].astype(str))
    columns = READ_COLUMNS + (["why"] if "why" in judged else []) + (["sample"] if sample else []) + extra
    return out[columns].rename(columns=lambda c: c[1:] if c in extra else sample if c == "sample" else c).reset_index(drop=True)


FRAMES = ("rates", "tests", "independence", "reference", "calibration", "accounting", "judgements", "consistency")
SPEC = Spec(
    "Shares of female, male and neutral English pronouns for gender-neutral source sentences.",
    ("female", "male", "neutral"),
    ("female",),
    ("female", "male"),
    subset="category",
    title="Prates et al. (2019): gender-neutral languages → English",
)
STUDY = Study("prates", FRAMES, evaluate, pilot, read, spec=SPEC)

"""A user's own labels (agreement, κ, between annotators) and Acc corrected for misreading."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pandas as pd

from stats_mtbias import _defaults
from stats_mtbias._validation import check_choice, check_level, check_positive_int, check_rng
from stats_mtbias.errors import UsageError
from stats_mtbias.significance.agreement import agreement, agreement_table, kappa_interval
from stats_mtbias.uncertainty.bootstrap import tail_resolution
from stats_mtbias.uncertainty.ppi import ppi_ratio

ANNOTATION_COLUMNS = [
    "system",
    "language",
    "annotator",
    "n_labelled",
    "agreement",
    "ci_low",
    "ci_high",
    "kappa",
    "kappa_ci_low",
    "kappa_ci_high",
]


BETWEEN_COLUMNS = [
    "system",
    "language",
    "annotator_a",
    "annotator_b",
    "n_both",
    "agreement",
    "ci_low",
    "ci_high",
    "kappa",
    "kappa_ci_low",
    "kappa_ci_high",
]


def annotation_agreement(annotations: pd.DataFrame, judgements: pd.DataFrame, *, level: float = _defaults.LEVEL, source=None):
    """Agreement of the automatic reading with a user's labels, between the user's annotators, and the labelled pairs.

    Returns ``(agreement, between, pairs)``: :data:`ANNOTATION_COLUMNS` per system,
    language and annotator (Wilson interval of the agreement, κ with its
    large-sample interval); :data:`BETWEEN_COLUMNS` per pair of annotators of one
    system and language, on the items both labelled; and one row per labelled item
    (``system, language, item, gold, human, automatic``, the majority label over
    annotators, ties left out) for :func:`corrected_accuracy`. A label of a system or
    language the run does not evaluate is refused, naming `source` and its ``line``.
    """
    merged = annotations.merge(
        judgements[["system", "language", "item", "gold", "gender"]], on=["system", "language", "item"], how="left"
    )
    unknown = merged["gold"].isna()
    if unknown.any():
        pairs = sorted({f"{r.system}/{r.language}" for r in merged[unknown].itertuples()})
        where = ""
        if source is not None:
            where = f"{source}" + (f", line {int(merged.loc[unknown, 'line'].min())}" if "line" in merged else "") + ": "
        raise UsageError(
            f"{where}annotations for {', '.join(pairs)}, which this run does not evaluate: add the "
            "system's translations or readings, or its language."
        )
    by_annotator, _ = agreement_table(
        merged.assign(gender=merged["gender"].astype(object)),
        "human",
        "gender",
        ["system", "language", "annotator"],
        level=level,
        overall=False,
    )
    by_annotator = by_annotator.rename(columns={"n": "n_labelled"})
    between = []
    for (system, language), part in merged.groupby(["system", "language"], sort=False):
        wide = part.pivot(index="item", columns="annotator", values="human")
        for x, y in combinations(wide.columns, 2):
            both = wide[[x, y]].dropna()
            if both.empty:
                continue
            kappa, k_low, k_high = kappa_interval(both[x].to_numpy(dtype=object), both[y].to_numpy(dtype=object), level)
            agree = agreement(both[x].to_numpy(dtype=object), both[y].to_numpy(dtype=object))
            between.append(
                {
                    "system": system,
                    "language": language,
                    "annotator_a": x,
                    "annotator_b": y,
                    "n_both": len(both),
                    "agreement": agree["agreement"],
                    "ci_low": agree["ci_low"],
                    "ci_high": agree["ci_high"],
                    "kappa": kappa,
                    "kappa_ci_low": k_low,
                    "kappa_ci_high": k_high,
                }
            )
    # One label per item for the correction: the annotators' majority (a tie says nothing and is left out).
    counts = merged.groupby(["system", "language", "item", "gold", "gender", "human"]).size().rename("n").reset_index()
    top = counts.sort_values("n", ascending=False).groupby(["system", "language", "item"], sort=False)
    best = top.head(1).set_index(["system", "language", "item"])
    second = top.nth(1).set_index(["system", "language", "item"])["n"] if len(counts) > len(best) else pd.Series(dtype=float)
    tied = best["n"].reindex(best.index).eq(second.reindex(best.index))
    majority = best[~tied.to_numpy()].reset_index()
    pairs = majority.rename(columns={"gender": "automatic"})[["system", "language", "item", "gold", "human", "automatic"]]
    return (by_annotator[ANNOTATION_COLUMNS], pd.DataFrame(between, columns=BETWEEN_COLUMNS), pairs)


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


def _ppi_accuracy(k: int, n: int, auto_right: np.ndarray, human_right: np.ndarray, level: float) -> tuple:
    """Acc corrected by PPI++ from `k` of `n` items read right and the labelled sample's readings and labels."""
    n_lab, right_lab = len(auto_right), int(auto_right.sum())
    rest, right_rest = n - n_lab, k - right_lab
    if rest <= 0 or not 0 <= right_rest <= rest:  # the labelled items are not among the n: the reader on all n
        rest, right_rest = n, k
    f = np.r_[auto_right.astype(float), np.ones(right_rest), np.zeros(rest - right_rest)]
    y = np.r_[human_right.astype(float), np.zeros(rest)]
    lab = np.arange(len(f)) < n_lab
    one = np.ones_like(f)
    r = ppi_ratio(y[None], one[None], f[None], one[None], lab, ~lab, level=level, share=True)
    return float(r.estimate), float(r.low), float(r.high)


def corrected_accuracy(
    estimates: pd.DataFrame,
    pairs: pd.DataFrame,
    *,
    n_draws: int = _defaults.N_DRAWS,
    rng: np.random.Generator | int = _defaults.SEED,
    level: float = _defaults.LEVEL,
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
        them by :func:`~stats_mtbias.studies.winomt.validation.attribute_pairs`).
    n_draws : int
        Monte Carlo draws of the interval.
    rng : Generator or int
        Source of the draws.
    construct : {"entity", "pronoun"}
        What the metric's reading measures, and so what the labels must measure.

    Returns
    -------
    DataFrame
        ``system, language, n, acc, acc_corrected, ci_low, ci_high, acc_ppi, ppi_ci_low, ppi_ci_high, n_labelled,
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
        other_construct = n_conflict >= MIN_CONFLICTS and 2 * followed > n_conflict
        ppi = (np.nan, np.nan, np.nan)
        if not sample.empty and not other_construct:
            ppi = _ppi_accuracy(k, n, auto_right, human_right, level)
        if sample.empty:
            labels = f"none of {est['system']}'s translations: not corrected"
            point = low = high = np.nan
        elif other_construct:
            other = "translated pronoun" if construct == "entity" else "entity's own words"
            labels = (
                f"{len(sample)} of {est['system']}'s translations, labelled by the {other} in {followed} of "
                f"{n_conflict} conflicts (another construct): not corrected"
            )
            point = low = high = np.nan
        elif n1 and n0:
            labels = f"{len(sample)} of {est['system']}'s translations"
            point = acc * p1 + (1 - acc) * p0
            acc_draw = rng.beta(k + 0.5, n - k + 0.5, n_draws)
            p1_draw = rng.beta(x1 + 0.5, n1 - x1 + 0.5, n_draws)
            p0_draw = rng.beta(x0 + 0.5, n0 - x0 + 0.5, n_draws)
            tail_resolution(n_draws, level, what="n_draws", interval="Monte-Carlo")
            low, high = np.quantile(acc_draw * p1_draw + (1 - acc_draw) * p0_draw, [(1 - level) / 2, (1 + level) / 2])
        else:  # the sample has no right (or no wrong) automatic readings: nothing to correct with
            labels = f"{len(sample)} of {est['system']}'s translations, all read {'right' if n1 else 'wrong'}: not corrected"
            point = low = high = np.nan
        rows.append(
            {
                "system": est["system"],
                "language": language,
                "n": n,
                "acc": acc,
                "acc_corrected": point,
                "ci_low": low,
                "ci_high": high,
                "acc_ppi": ppi[0],
                "ppi_ci_low": ppi[1],
                "ppi_ci_high": ppi[2],
                "n_labelled": len(sample),
                "human_correct_given_auto_correct": p1,
                "human_correct_given_auto_wrong": p0,
                "n_conflict": n_conflict,
                "n_conflict_pronoun": n_pronoun,
                "labels": labels,
            }
        )
    return pd.DataFrame(rows)

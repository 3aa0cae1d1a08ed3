"""The optimal-translator bias B (Farkas & Németh) against a reference point.

Judgements (the Prates languages, or a user's ``occupation, gender`` CSV) are
paired with a reference (BLS, or a user's CSV) per occupation → E_0, E_t, B per
occupation → the category mean of B → sector B, employment-weighted, separately
for female-dominated (weights: women) and male-dominated occupations (weights:
men) → headline rates. Intervals: bootstrap over occupations, stratified by
sector (resp. category), one weight matrix for every group; where the reference
gives counts, each replicate also draws the reference shares from their
Jeffreys posterior Beta(x + 1/2, n - x + 1/2), carrying the reference's own
sampling error into the interval.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from stats_mtbias import _defaults
from stats_mtbias._validation import check_choice, check_level, check_positive_int, check_rng, seed_of
from stats_mtbias.datasets import prates as prates_data
from stats_mtbias.datasets import reference as reference_data
from stats_mtbias.datasets.counting import (
    as_counting_source,
    count_rows,
    first_location,
    source_digest,
    source_label,
    source_stem,
)
from stats_mtbias.datasets.reference import REFERENCE_COLUMNS, SURVEY_COLUMNS
from stats_mtbias.datasets.registry import open_store
from stats_mtbias.datasets.sources import as_source, source_sha256
from stats_mtbias.errors import DataError, UsageError
from stats_mtbias.estimators.optimal import (
    NEUTRAL_RULES,
    b_potential,
    b_status,
    bias_b,
    dominance_weights,
    e_0,
    e_probabilistic,
    e_t,
    survey_female_share,
)
from stats_mtbias.provenance import Provenance
from stats_mtbias.result import Spec, StudyResult
from stats_mtbias.stats.metrics import Metric, MetricSet
from stats_mtbias.studies._common import accounting as common_accounting
from stats_mtbias.studies._common import melt, restrict_items
from stats_mtbias.studies._samples import Kept, consistency, sample_weights, unit_codes, warn_unequal
from stats_mtbias.studies._study import Study, finish
from stats_mtbias.tables import judgement_table, wide_counts
from stats_mtbias.uncertainty.bootstrap import BootstrapResult, cluster_bootstrap, resample_weights
from stats_mtbias.uncertainty.linearization import ratio_se_from_sums

# The gamma interval by default: B is 0 for most occupations and large for a few (a weighted sum of rare events),
# where the bootstrap intervals covered 0.57-0.90 on the shipped sizes.
INTERVALS = ("gamma", "studentized", "percentile")
GROUP_KEYS = ("system", "language")
OCCUPATION_COLUMNS = ["occupation", "gender", "female_share", "e_0", "e_t", "b"]
CATEGORY_COLUMNS = ["category", "n", "b", "ci_low", "ci_high"]
SECTOR_COLUMNS = ["sector", "dominated", "n", "b", "ci_low", "ci_high", "n_biased", "top_share"]
# Shares in [0, 1] of the he/she outputs (see :func:`headline`), declared once for the shares engine
# (:mod:`stats_mtbias.stats.metrics`) over the cells of an occupation: "he" where women dominate, its he/she outputs
# there, "she" where men dominate, and its he/she outputs there.
HEADLINE = MetricSet(
    (
        Metric("minority", {"he_fd": 1.0, "she_md": 1.0}, ("decided_fd", "decided_md")),
        Metric("he_given_female_dominated", {"he_fd": 1.0}, ("decided_fd",)),
        Metric("she_given_male_dominated", {"she_md": 1.0}, ("decided_md",)),
    ),
    ("he_fd", "decided_fd", "she_md", "decided_md"),
)
HEADLINE_RATES = HEADLINE.names
HEADLINE_COLUMNS = [
    "n",
    "minority",
    "minority_ci_low",
    "minority_ci_high",
    "should_be_she",
    "he_given_female_dominated",
    "he_given_female_dominated_ci_low",
    "he_given_female_dominated_ci_high",
    "she_given_male_dominated",
    "she_given_male_dominated_ci_low",
    "she_given_male_dominated_ci_high",
    "n_biased",
    "b_min",
    "b_median",
    "b_max",
]


def read_judgements(path, *, engine: str = "auto", sample: str | None = None) -> pd.DataFrame:
    """A user's judgements ``occupation, gender`` (optional ``system``, ``language``, ``category``), counted.

    Without a ``system`` column the system is named after the source (its stem);
    with one, a row that leaves it empty is an error naming its line.

    Several rows for one occupation (and system, language) are several outputs
    of a sampled translator: without `sample` their counts are pooled, so an
    occupation weighs as many outputs as it has. With `sample` (the column
    telling the samples apart) an occupation's counts are divided by its number
    of known samples (an unknown sample counts as absent: the one rule of
    :mod:`stats_mtbias.studies._samples`; ``outputs`` keeps the rows): its female,
    male and other counts are the means over its known samples, every occupation weighs one, and unequal
    numbers of samples are averaged with a
    :class:`~stats_mtbias.errors.DataQualityWarning`. With the same number of
    samples everywhere B, E_t and every share are those of the pooled counts;
    with one sample per occupation the table is the one without `sample`, and
    duplicating every sample changes no count. Genders as in the Prates reader (female/male/
    neutral/both/unknown or Female/Male/Neutral/?); column names in any case.
    The source — a CSV, Parquet or Arrow file, a directory or glob of them, a
    DataFrame or a dask DataFrame — is counted as it streams
    (:func:`stats_mtbias.datasets.counting.count_rows`): the result has one row per
    distinct (system, language, occupation, category, gender) with ``n``
    judgements and the first ``line`` holding it.
    """
    source = as_counting_source(path)
    extra = [sample] if sample else []
    counts = count_rows(
        source,
        ["occupation", "gender", "system", "language", "category", *extra],
        required=("occupation", "gender", *extra),
        case_insensitive=True,
        engine=engine,
    )
    if counts.attrs["rows"] == 0:
        raise DataError("has a header but no judgements", source, 2)
    for column in ("occupation", "system"):  # a nameless system is refused, not named after the file
        empty = (counts[column] == "").to_numpy() if column in counts else None
        if empty is not None and empty.any():
            raise DataError(f"column {column!r} is empty", *first_location(counts, empty, source))
    labels = {}
    for label in counts["gender"].unique():
        where, line = first_location(counts, (counts["gender"] == label).to_numpy(), source)
        labels[label] = prates_data.parse_gender(label, where, line, "gender")
    default_system = source_stem(source)
    system = counts["system"].replace("", default_system) if "system" in counts else default_system
    table = pd.DataFrame(
        {
            "system": system,
            "language": counts["language"].replace("", "all") if "language" in counts else "all",
            "item": counts["occupation"],
            "occupation": counts["occupation"],
            "category": counts["category"].replace("", "all") if "category" in counts else "all",
            "gender": counts["gender"].map(lambda v: labels[v][0]),
            "reason": counts["gender"].map(lambda v: labels[v][1]),
            "n": counts["n"],
            "line": counts["line"],
        }
    )
    if "part" in counts:
        table["part"] = counts["part"]
    keys = ["system", "language", "item", "occupation", "category", "gender", "reason"]
    sampled = None
    if sample:
        column = next(c for c in counts.columns if c.lower() == sample.lower())
        per = table.assign(_sample=counts[column].astype(str).to_numpy())
        units = unit_codes(per, ["system", "language", "item"])
        if pd.Series(per["_sample"].to_numpy()).groupby(units).nunique().max() > 1:
            # The one rule: an occupation's counts the means over its known samples (an unknown sample is absent).
            known = (per["gender"].astype(str) != "unknown").to_numpy()
            warn_unequal(per, ["system"], units, known, "optimal", noun="occupations")
            sampled = per.drop(columns=["line", *(["part"] if "part" in per else [])])
            table = per.drop(columns="_sample").assign(outputs=per["n"], n=sample_weights(units, known, per["n"].to_numpy()))
    if sampled is not None or table.duplicated(keys).any():  # labels meaning one gender ("F", "female") are one cell
        order = ["part", "line"] if "part" in table else ["line"]
        sums = {"n": ("n", "sum"), **({"outputs": ("outputs", "sum")} if "outputs" in table else {})}
        table = (
            table.sort_values(order, kind="stable")
            .groupby(keys, sort=False)
            .agg(**sums, **{c: (c, "first") for c in order})
            .reset_index()
        )
    if sampled is not None:  # the samples one by one, for their consistency (:func:`sample_consistency`)
        table.attrs["samples"] = Kept(sampled)
    table.attrs["rows"] = counts.attrs["rows"]
    return judgement_table(table)


def occupation_table(judgements: pd.DataFrame, reference: pd.DataFrame, *, neutral: str = "unbiased") -> pd.DataFrame:
    """E_0, E_t and B per (system, language, occupation item).

    Returns
    -------
    DataFrame
        ``system, language, item, occupation, category, sector, female_share,
        weight, n_female, n_male, n_other, n_unknown, gender`` (the single
        output's gender, or ``mixed``), ``e_0, e_t, b, status, dominated``
        (``female``/``male``/``balanced``), ``female_rate`` and ``e_prob``.
    """
    check_choice(neutral, NEUTRAL_RULES, "neutral")
    if "language" not in judgements:
        judgements = judgements.assign(language="all")
    matched = prates_data.match_reference(judgements, reference.drop(columns=["sector"], errors="ignore"))
    counts = wide_counts(judgements, ["system", "language", "item"]).drop(columns="m")
    table = counts.rename(columns={"female": "n_female", "male": "n_male", "unknown": "n_unknown"})
    # n_outputs and n_unknown count outputs (rows), n_female, n_male, n_other what B rests on (samples' means).
    raw = judgements.assign(n=judgements["outputs"]) if "outputs" in judgements else judgements
    raw = wide_counts(raw, ["system", "language", "item"])
    table["n_unknown"] = raw["unknown"].to_numpy()
    table.insert(table.columns.get_loc("n_unknown"), "n_outputs", (raw["m"] - raw["unknown"]).to_numpy())
    table["n_other"] = table.pop("neutral") + table.pop("both")
    info = judgements.drop_duplicates("item").set_index("item")[["occupation", "category"]]
    table = table.join(info, on="item")
    ref_cols = matched[["female_share", "weight", "bls_line"]].copy()
    for column in ("n_female", "n_total"):  # the reference's own counts, where it has them
        ref_cols[f"ref_{column}"] = matched[column] if column in matched else np.nan
    table = table.join(ref_cols, on="item")
    # Judgements without categories take the reference's.
    ref_category = reference.drop_duplicates("occupation").set_index("occupation")["category"]
    no_category = table["category"] == "all"
    table.loc[no_category, "category"] = table.loc[no_category, "occupation"].map(ref_category).fillna("all")
    sectors = reference_data.sector_map()
    ref_sector = reference.drop_duplicates("occupation").set_index("occupation")["sector"] if "sector" in reference else None
    sector = table["category"].map(sectors)
    if ref_sector is not None:
        sector = sector.fillna(table["occupation"].map(ref_sector))
    table["sector"] = sector.fillna(table["category"])
    f = table["female_share"].to_numpy(dtype=float)
    identified = table[["n_female", "n_male", "n_other"]].sum(axis=1)
    single = identified == 1
    gender = np.where(table["n_female"] == identified, "female", np.where(table["n_male"] == identified, "male", "mixed"))
    gender = np.where(single & (table["n_other"] == 1), "neutral", gender)
    table["gender"] = np.where(identified == 0, "unknown", gender)
    safe_f = np.nan_to_num(f, nan=0.5)
    et = e_t(safe_f, table["n_female"], table["n_male"], table["n_other"], neutral=neutral)
    et = np.where(np.isnan(f), np.nan, et)
    # The errors are shares of the workers an output does not represent (the paper's points / 100); B is a ratio.
    table["e_0"] = np.where(np.isnan(f), np.nan, e_0(safe_f)) / 100
    table["e_t"] = et / 100
    table["b"] = np.where(np.isnan(f), np.nan, bias_b(safe_f, et))
    table["status"] = b_status(f, et)
    table["dominated"] = np.where(np.isnan(f), "", np.where(f > 0.5, "female", np.where(f < 0.5, "male", "balanced")))
    he_she = table["n_female"] + table["n_male"]
    table["female_rate"] = np.where(he_she > 0, table["n_female"] / he_she.where(he_she > 0, 1), np.nan)
    table["e_prob"] = np.where(np.isnan(f), np.nan, e_probabilistic(safe_f)) / 100
    return table


def _groups(table: pd.DataFrame):
    return table.groupby(list(GROUP_KEYS), sort=False)


def _reference_draws(part: pd.DataFrame, n_boot: int, rng: np.random.Generator) -> np.ndarray | None:
    """Replicate reference shares (n_boot, n) from counts where the reference has them, else None."""
    if "ref_n_total" not in part or part["ref_n_total"].isna().all():
        return None
    x, n = part["ref_n_female"].to_numpy(float), part["ref_n_total"].to_numpy(float)
    f = np.broadcast_to(part["female_share"].to_numpy(float), (n_boot, len(part))).copy()
    has = ~np.isnan(n)
    f[:, has] = rng.beta(x[has] + 0.5, n[has] - x[has] + 0.5, size=(n_boot, int(has.sum())))
    return f


def _b_replicates(part: pd.DataFrame, f_star: np.ndarray | None, neutral: str) -> np.ndarray | None:
    if f_star is None:
        return None
    et = e_t(
        np.nan_to_num(f_star, nan=0.5),
        part["n_female"].to_numpy(),
        part["n_male"].to_numpy(),
        part["n_other"].to_numpy(),
        neutral=neutral,
    )
    return np.where(np.isnan(f_star), np.nan, bias_b(np.nan_to_num(f_star, nan=0.5), et))


def gamma_bounds(total, square_sum, largest, level: float) -> tuple[np.ndarray, np.ndarray]:
    """Fay and Feuer's (1997) gamma interval for a weighted sum of rare events ``y = sum_i s_i``.

    ``total`` is y, ``square_sum`` its variance estimate ``v = sum_i s_i²`` and
    ``largest`` the largest contribution one more event could make. The lower
    bound is the ``α/2`` quantile of a gamma with mean y and variance v (0 where
    y = 0), the upper the ``1 − α/2`` quantile of one with mean ``y + largest``
    and variance ``v + largest²``. It is the exact Poisson (Garwood) interval
    when every weight is 1, and conservative otherwise.

    >>> low, high = gamma_bounds(np.array([3.0]), np.array([3.0]), np.array([1.0]), 0.95)
    >>> round(float(low[0]), 3), round(float(high[0]), 3)  # Garwood's interval for 3 events
    (0.619, 8.767)
    """
    from scipy import stats

    y, v, wm = (np.asarray(a, dtype=float) for a in (total, square_sum, largest))
    alpha = (1.0 - level) / 2.0
    with np.errstate(invalid="ignore", divide="ignore"):
        low = np.where(y > 0, stats.gamma.ppf(alpha, np.where(y > 0, y**2 / v, 1.0), scale=np.where(y > 0, v / y, 1.0)), 0.0)
        up_mean, up_var = y + wm, v + wm**2
        high = np.where(
            up_mean > 0,
            stats.gamma.ppf(
                1.0 - alpha, np.where(up_mean > 0, up_mean**2 / up_var, 1.0), scale=np.where(up_mean > 0, up_var / up_mean, 1.0)
            ),
            0.0,
        )
    nan = np.isnan(y)
    return np.where(nan, np.nan, low), np.where(nan, np.nan, high)


def _grouped_b(b, labels, weights, w_boot, level, b_star=None, weights_star=None, interval="gamma", potential=None):
    """Weighted mean of B per label with its interval (ratio of weighted sums).

    ``gamma`` (default): B is 0 for most occupations and large for the few said
    with the minority pronoun, so the weighted mean is a weighted sum of rare
    events: :func:`gamma_bounds` with contributions ``s_i = w_i B_i / sum w``
    and the largest further one ``max_i w_i B_max,i / sum w`` (`potential`:
    B_max per occupation, :func:`~stats_mtbias.estimators.optimal.b_potential`).
    With a redrawn reference (`b_star`) the variance of the estimate over the
    reference draws is added to v. ``studentized``: bootstrap-t with the
    linearisation standard error; ``percentile``. In worlds from the shipped
    occupations the gamma interval covered 0.98-1.00 (outputs random) and 0.99
    in the median sector (occupations resampled), where the bootstrap-t fell to
    0.49-0.76 in each language's worst sector. B >= 0 by construction, so lower bounds are
    clipped at 0. `b_star` and `weights_star` (n_boot, n) are the replicates'
    own B and weights when the reference is redrawn per replicate; otherwise B
    and weights are fixed and only the occupations are resampled.
    """
    keys = list(dict.fromkeys(labels))
    onehot = (np.asarray(labels, dtype=object)[:, None] == np.asarray(keys, dtype=object)[None, :]).astype(float)  # (n, K)
    w = np.where(np.isnan(b), 0.0, weights)
    num, den = w * np.nan_to_num(b), w
    m = (onehot * (w > 0)[:, None]).sum(axis=0)
    sums0 = [x @ onehot for x in (num, den, num**2, num * den, den**2)]
    estimate, se0 = ratio_se_from_sums(*sums0, m)

    def gamma():
        with np.errstate(invalid="ignore", divide="ignore"):
            total_w = np.where(sums0[1] > 0, sums0[1], np.nan)
            square_sum = sums0[2] / total_w**2
            pot_b = np.nan_to_num(b) if potential is None else np.fmax(np.nan_to_num(potential), np.nan_to_num(b))
            pot = np.where(w > 0, w * pot_b, 0.0)
            largest = np.max(onehot * pot[:, None], axis=0) / total_w
            if b_star is not None:  # the reference's own sampling error, occupations fixed
                ws = np.broadcast_to(weights if weights_star is None else weights_star, b_star.shape)
                ws = np.where(np.isnan(b_star), 0.0, ws)
                draws = ((ws * np.nan_to_num(b_star)) @ onehot) / (ws @ onehot)
                finite = np.isfinite(draws)
                count = np.maximum(finite.sum(axis=0), 1)
                mean = np.where(finite, draws, 0.0).sum(axis=0) / count
                square_sum = square_sum + np.where(finite, (draws - mean) ** 2, 0.0).sum(axis=0) / count
        return gamma_bounds(estimate, square_sum, np.nan_to_num(largest), level)

    if interval == "gamma":
        low, high = gamma()
        return keys, estimate, low, high, m.astype(int)
    if b_star is None:
        # The five sums of every label in one product: (n_boot, n) @ (n, K x 5).
        parts = onehot[:, :, None] * np.stack([num, den, num**2, num * den, den**2], axis=-1)[:, None, :]
        totals = (w_boot @ parts.reshape(len(b), -1)).reshape(len(w_boot), len(keys), 5)
        sums = [totals[..., j] for j in range(5)]
    else:
        ws = np.broadcast_to(weights if weights_star is None else weights_star, b_star.shape)
        ws = np.where(np.isnan(b_star), 0.0, ws)
        num_s = ws * np.nan_to_num(b_star)
        sums = [(w_boot * x) @ onehot for x in (num_s, ws, num_s**2, num_s * ws, ws**2)]
    replicates, se_star = ratio_se_from_sums(*sums, m)
    boot = BootstrapResult(estimate, replicates, None, level, interval, se0, se_star)
    bounds = boot.confidence_interval()
    low, high = bounds.low, bounds.high
    low = np.maximum(low, 0.0)
    # B = 0 in every occupation of a group (each translated with its majority gender) is 0 in every replicate:
    # the bootstrap interval is a point, the gamma interval (Garwood's exact bound there) is not.
    point = ~(high > low) & np.isfinite(estimate)
    if np.any(point):
        g_low, g_high = gamma()
        low, high = np.where(point, g_low, low), np.where(point, g_high, high)
    return keys, estimate, low, high, m.astype(int)


def _replicates(part: pd.DataFrame, strata: np.ndarray, n_boot: int, rng, interval: str, neutral: str):
    """A group's bootstrap weights within `strata` (none for the gamma interval), then the reference's redrawn
    shares and the B they give (None where the reference is fixed), drawn in that order from `rng`."""
    w_boot = None if interval == "gamma" else resample_weights(n_boot, strata=strata, rng=rng, dtype=np.float32).astype(float)
    f_star = _reference_draws(part, n_boot, rng)
    return w_boot, f_star, _b_replicates(part, f_star, neutral)


def category_b(
    table: pd.DataFrame,
    *,
    n_boot: int = _defaults.N_BOOT,
    rng: np.random.Generator | int = _defaults.SEED,
    level: float = _defaults.LEVEL,
    neutral: str = "unbiased",
    interval: str = "gamma",
) -> pd.DataFrame:
    """Mean B of each reference category (unweighted over its occupations), bootstrap within categories."""
    check_choice(interval, INTERVALS, "interval")
    rng = check_rng(rng)
    rows = []
    for key, part in _groups(table):
        part = part.reset_index(drop=True)
        w_boot, _, b_star = _replicates(part, part["category"].to_numpy(), n_boot, rng, interval, neutral)
        b = part["b"].to_numpy(float)
        keys, est, low, high, n = _grouped_b(
            b,
            part["category"].tolist(),
            np.ones(len(part)),
            w_boot,
            level,
            b_star,
            interval=interval,
            potential=b_potential(part["female_share"].to_numpy(float)),
        )
        for k, e, lo, hi, nn in zip(keys, est, low, high, n):
            rows.append({**dict(zip(GROUP_KEYS, key)), "category": k, "n": nn, "b": e, "ci_low": lo, "ci_high": hi})
    return pd.DataFrame(rows)


def sector_b(
    table: pd.DataFrame,
    *,
    n_boot: int = _defaults.N_BOOT,
    rng: np.random.Generator | int = _defaults.SEED,
    level: float = _defaults.LEVEL,
    neutral: str = "unbiased",
    interval: str = "gamma",
) -> pd.DataFrame:
    """Sector B: employment-weighted mean B, female-dominated (weights: women) and male-dominated (weights: men).

    Besides B and its interval: ``n_biased``, the occupations with B > 0, and
    ``top_share``, the largest one's share of the weighted sum. Where one
    occupation carries most of a sector's B (Chinese services: grounds
    maintenance workers, 0.97), the sector's B is that occupation's, and an
    evaluation of a sample of occupations that may miss it cannot know.
    """
    check_choice(interval, INTERVALS, "interval")
    rng = check_rng(rng)
    rows = []
    for key, part in _groups(table):
        part = part.reset_index(drop=True)
        sectors = part["sector"].to_numpy()
        w_boot, f_star, b_star = _replicates(part, sectors, n_boot, rng, interval, neutral)
        f = part["female_share"].to_numpy(float)
        b = part["b"].to_numpy(float)
        employed = part["weight"].fillna(1.0).to_numpy(float) if "weight" in part else np.ones(len(part))
        women, men = dominance_weights(np.nan_to_num(f, nan=0.5), employed)
        if f_star is None:
            women_star = men_star = None
        else:
            women_star, men_star = dominance_weights(np.nan_to_num(f_star, nan=0.5), employed[None])
        for dominated, weights, weights_star in (("female", women, women_star), ("male", men, men_star)):
            keys, est, low, high, n = _grouped_b(
                b, sectors.tolist(), weights, w_boot, level, b_star, weights_star, interval, potential=b_potential(f)
            )
            # How many occupations B rests on: those with B > 0, and the largest one's share of the weighted sum.
            contribution = pd.Series(np.where(np.isfinite(b), weights * np.nan_to_num(b), 0.0)).groupby(sectors)
            biased, top = (
                contribution.agg(lambda c: int(np.sum(c > 0))),
                contribution.agg(lambda c: c.max() / c.sum() if c.sum() > 0 else np.nan),
            )
            for k, e, lo, hi, nn in zip(keys, est, low, high, n):
                rows.append(
                    {
                        **dict(zip(GROUP_KEYS, key)),
                        "sector": k,
                        "dominated": dominated,
                        "n": nn,
                        "b": e,
                        "ci_low": lo,
                        "ci_high": hi,
                        "n_biased": int(biased[k]),
                        "top_share": float(top[k]),
                    }
                )
    out = pd.DataFrame(rows)
    if len(out):
        out = out[out["n"] > 0]  # a sector with no female- (male-) dominated occupation has no such row
    return out.sort_values([*GROUP_KEYS, "sector", "dominated"], kind="stable").reset_index(drop=True) if len(out) else out


def headline(
    table: pd.DataFrame,
    *,
    n_boot: int = _defaults.N_BOOT,
    rng: np.random.Generator | int = _defaults.SEED,
    level: float = _defaults.LEVEL,
) -> pd.DataFrame:
    """Headline rates per group with bootstrap intervals over occupations (stratified by sector).

    Over he/she outputs of occupations with a reference share other than 0.5:
    the share translated with the minority pronoun, and of those the share that
    should have been "she"; P(he | female-dominated) and P(she | male-dominated);
    the number of biased occupations (B > 0) and the range and median of their B.
    """
    rng = check_rng(rng)
    rows = []
    for key, part in _groups(table):
        part = part.reset_index(drop=True)
        f = part["female_share"].to_numpy(float)
        fem_dom, male_dom = f > 0.5, f < 0.5
        nf, nm = part["n_female"].to_numpy(float), part["n_male"].to_numpy(float)
        he_fd = np.where(fem_dom, nm, 0.0)  # minority pronoun where women dominate: "he" (should be "she")
        she_md = np.where(male_dom, nf, 0.0)
        decided_fd = np.where(fem_dom, nf + nm, 0.0)
        decided_md = np.where(male_dom, nf + nm, 0.0)
        data = np.column_stack([he_fd, decided_fd, she_md, decided_md])  # the cells of HEADLINE, per occupation
        boot = cluster_bootstrap(data, HEADLINE.statistic, n_boot=n_boot, rng=rng, strata=part["sector"].to_numpy())
        estimate, bounds = boot.estimate, boot.confidence_interval()
        # All replicates equal (0% or 100% of the outputs): the bootstrap says nothing about its error; Wilson's
        # interval on the outputs, over the occupations' design effect, keeps a width.
        score_low, score_high, _ = HEADLINE.score_bounds(
            data, estimate, np.zeros(len(data), dtype=int), None, level, worst_case=True
        )
        point = ~(bounds.high > bounds.low) & ~np.isnan(estimate)
        low, high = np.where(point, score_low, bounds.low), np.where(point, score_high, bounds.high)
        row = {**dict(zip(GROUP_KEYS, key)), "n": int(np.sum((fem_dom | male_dom) & (nf + nm > 0)))}
        for k, name in enumerate(HEADLINE.names):
            row[name], row[f"{name}_ci_low"], row[f"{name}_ci_high"] = float(estimate[k]), float(low[k]), float(high[k])
        totals = np.array([(he_fd + she_md).sum(), he_fd.sum()])
        row["should_be_she"] = totals[1] / totals[0] if totals[0] else np.nan
        b = part["b"].to_numpy(float)
        biased = b[b > 0]
        row["n_biased"] = int(biased.size)
        row["b_min"], row["b_median"], row["b_max"] = (
            (float(biased.min()), float(np.median(biased)), float(biased.max())) if biased.size else (np.nan,) * 3
        )
        rows.append(row)
    return pd.DataFrame(rows)


def sample_consistency(judgements: pd.DataFrame, level: float = _defaults.LEVEL) -> pd.DataFrame | None:
    """The consistency of each system's samples per language: :func:`stats_mtbias.studies._samples.consistency`.

    An occupation of a system and language is the unit; unknown samples are left out (the one rule). None
    without samples.
    """
    kept = judgements.attrs.get("samples")
    if kept is None:
        return None
    cells = kept.frame
    rows = cells.loc[cells.index.repeat(cells["n"].astype(np.int64))].reset_index(drop=True)
    gender = rows["gender"].astype(str).to_numpy()
    return consistency(
        rows.assign(system=rows["system"].astype(str)),
        keys=["system", "language"],
        unit=["item"],
        outcome="gender",
        known=gender != "unknown",
        indicators={"female": gender == "female", "male": gender == "male", "other": np.isin(gender, ["neutral", "both"])},
        shares=["female", "male"],
        level=level,
    )


def accounting(table: pd.DataFrame) -> pd.DataFrame:
    """Occupation rows per group by whether B is defined, and why not: ``system, language, outcome, n``."""
    return common_accounting(table.assign(outcome=table["status"]), list(GROUP_KEYS), "outcome")


def pilot(result, *, systems=None, metric=None, language=None, subset=None):
    """An optimal-translator result as a planning pilot: the normal design on one row's interval."""
    from scipy import special

    table = result.table
    rows = table[table["metric"] == (metric or "b")]
    if language is not None:
        rows = rows[rows["language"] == language]
    if subset is not None:
        rows = rows[rows["subset"] == subset]
    if systems is not None:
        rows = rows[rows["system"].isin([systems] if isinstance(systems, str) else list(systems))]
    if len(rows) != 1:
        raise UsageError(f"name one row of the optimal table (`language`, `subset`, `metric`); {len(rows)} match.")
    row = rows.iloc[0]
    z = float(special.ndtri(0.5 + float(result.provenance.get("level") or 0.95) / 2.0))
    se = (row["ci_high"] - row["ci_low"]) / (2 * z)
    return "normal", dict(
        se=float(se), n_pilot=int(row["n"]), metric=f"{row['language']} {row['metric']}", comparison=str(row["subset"])
    )


def survey_shares(reference: pd.DataFrame) -> pd.DataFrame:
    """A read reference with every survey row's share filled from its answers (Farkas & Németh's weights)."""
    if not set(SURVEY_COLUMNS) <= set(reference.columns):
        return reference
    out = reference.copy()
    answers = out[SURVEY_COLUMNS].to_numpy(dtype=float)
    use = out["female_share"].isna().to_numpy() & ~np.isnan(answers).any(axis=1)
    out.loc[use, "female_share"] = survey_female_share(answers[use])
    return out[REFERENCE_COLUMNS]


def evaluate(
    judgements=None,
    *,
    data_dir: str | Path | None = None,
    reference="bls",
    languages: list[str] | None = None,
    engine: str = "auto",
    neutral: str = "unbiased",
    interval: str = "gamma",
    n_boot: int = _defaults.N_BOOT,
    rng: np.random.Generator | int = _defaults.SEED,
    level: float = _defaults.LEVEL,
    sample: str | None = None,
    items=None,
) -> StudyResult:
    """The optimal-translator study (what :func:`stats_mtbias.optimal` returns).

    Parameters
    ----------
    reference : "bls", path or DataFrame
        The built-in BLS reference, or a user's CSV or frame (see :func:`stats_mtbias.datasets.reference.read_reference`).
    judgements : path or DataFrame, optional
        A user's ``occupation, gender`` CSV or frame; default: the Prates languages.
    languages : list of str, optional
        Prates languages to keep (default all twelve).
    neutral : {"unbiased", "exclude"}
        Rule for neutral and both-gender outputs.
    interval : {"gamma", "studentized", "percentile"}
        Interval of category and sector B (:func:`gamma_bounds` by default).
    sample : str, optional
        The column of `judgements` telling an occupation's samples apart
        (:func:`read_judgements`): its counts are the means over its samples.
    items : list, str or path, optional
        The occupations (``item`` ids) kept (:func:`~stats_mtbias.studies._common.restrict_items`); the
        occupations left out are counted in the accounting.
    """
    n_boot = check_positive_int(n_boot, "n_boot")
    level = check_level(level)
    check_choice(neutral, NEUTRAL_RULES, "neutral")
    seed = seed_of(rng)
    rng_categories, rng_sectors, rng_headline = check_rng(rng).spawn(3)
    store = None
    data: dict[str, str] = {}
    judgements_file = judgements
    if judgements_file is None:
        if sample is not None:
            raise UsageError("`sample` needs your own judgements (the Prates languages have one output per item).")
        store = open_store(data_dir)
        judgements = prates_data.select(prates_data.read_judgements(store), languages)
    else:
        source = as_counting_source(judgements_file)
        judgements = read_judgements(source, engine=engine, sample=sample)
        data[source_label(source)] = source_digest(source)
    attrs = dict(judgements.attrs)
    judgements, restriction = restrict_items(judgements, items, keys=list(GROUP_KEYS), per="item", study="optimal")
    judgements.attrs.update(attrs)
    if isinstance(reference, str) and reference == "bls":
        store = store or open_store(data_dir)
        ref = reference_data.bls_reference(store)
        ref_name = "BLS (Prates data), sectors from data/sectors.csv"
    else:
        source = as_source(reference, "reference")
        ref = survey_shares(reference_data.read_reference(source))
        data[str(source)] = source_sha256(source)
        ref_name = str(source)
    if store is not None:
        data.update(store.used)
    table = occupation_table(judgements, ref, neutral=neutral)
    categories = category_b(table, n_boot=n_boot, rng=rng_categories, level=level, neutral=neutral, interval=interval)
    sectors = sector_b(table, n_boot=n_boot, rng=rng_sectors, level=level, neutral=neutral, interval=interval)
    heads = headline(table, n_boot=n_boot, rng=rng_headline, level=level)
    carried = "n_total" in ref and ref["n_total"].notna().any()
    provenance = Provenance(
        method=(
            "E_0 = 100 min(f, 1-f), B = (E_t - E_0) / E_0 per occupation; category B = mean; sector B weighted by women "
            "(female-dominated) or men (male-dominated); "
            + (
                "Fay-Feuer gamma interval for category and sector B (weighted sums of rare events)"
                if interval == "gamma"
                else f"{interval} bootstrap interval over occupations stratified by sector/category for category and sector B"
            )
            + " (headline rates: percentile bootstrap; Wilson with the design effect where every replicate agrees)"
            + (
                "; reference shares redrawn per replicate from Beta(x+1/2, n-x+1/2) (their variance added to the gamma "
                "interval's)"
                if carried
                else "; reference taken as fixed"
            )
            + (
                f"; several samples per occupation ({sample!r}): its counts the means over its samples, every "
                "occupation weighing one"
                if sample
                else ""
            )
        ),
        data=dict(sorted(data.items())),
        n_boot=n_boot,
        seed=seed,
        level=level,
        options={
            "reference": ref_name,
            "neutral": neutral,
            "interval": interval,
            "languages": sorted(table["language"].unique().tolist()),
            "sample": sample,
            # The systems of the user's inputs (the report's "your systems"); the shipped judgements are Google's.
            "yours": sorted(table["system"].astype(str).unique().tolist()) if judgements_file is not None else [],
        },
    )
    occupations = table
    dominated = " (" + sectors["dominated"].astype(str) + "-dominated)"
    keys = {"system": "system", "language": "language", "subset": "subset"}
    table = pd.concat(
        [
            melt(sectors.assign(subset=sectors["sector"].astype(str) + dominated), {"b": ("b", "ci_low", "ci_high")}, keys=keys),
            melt(
                categories.assign(subset="category: " + categories["category"].astype(str)),
                {"b": ("b", "ci_low", "ci_high")},
                keys=keys,
            ),
            melt(
                heads.assign(subset="all"),
                {name: (name, f"{name}_ci_low", f"{name}_ci_high") for name in HEADLINE_RATES},
                keys=keys,
            ),
        ],
        ignore_index=True,
    )
    counted = accounting(occupations)
    frames = {
        "occupations": occupations,
        "categories": categories,
        "sectors": sectors,
        "headline": heads,
        "accounting": counted,
        "judgements": judgements,
        "consistency": sample_consistency(judgements, level),
    }
    notes = [
        f"{r.system} {r.language}: {r.n} occupations without B ({r.outcome})" for r in counted.itertuples() if r.outcome != "ok"
    ]
    return finish(
        "optimal",
        table,
        None,
        provenance,
        frames,
        allowed=FRAMES,
        correction="none",
        family="metric",
        notes=notes,
        items=restriction,
    )


def group_columns(frame: pd.DataFrame) -> list[str]:
    """The group keys that vary in `frame` (shown before a table's own columns)."""
    return [k for k in GROUP_KEYS if k in frame and frame[k].nunique() > 1]


FRAMES = ("occupations", "categories", "sectors", "headline", "accounting", "judgements", "consistency")
SPEC = Spec(
    "Outputs with the pronoun of the occupation's minority gender, and 'he' for female-dominated / "
    "'she' for male-dominated occupations; sector B in the body.",
    ("minority", "he_given_female_dominated", "she_given_male_dominated"),
    ("minority",),
    (),
    title="Optimal-translator bias B (Farkas & Németh)",
)
STUDY = Study("optimal", FRAMES, evaluate, pilot, spec=SPEC)

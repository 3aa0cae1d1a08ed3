"""One rule for several outputs per item (an LLM sampled k times), shared by every study that takes ``sample=``.

- **An unknown sample is the same information as an absent one.** An item's
  share is the mean over its *known* (identified) samples; an item with no
  known sample is unknown, as one unread output is without samples.
- **Items weigh the same.** Every item with a known sample weighs one, whatever
  its number of samples (:func:`sample_weights`); duplicating every sample
  changes no number.
- **Outputs are counted as outputs.** ``n_outputs`` and ``n_unknown`` count
  rows, never the item-equivalents of the weights (:func:`output_counts`).
- **Consistency.** :func:`consistency` gives, per group, the items with two
  known samples or more, the share whose samples disagree (Wilson), the mean of
  an indicator with Wilson's interval on the effective sample size, and its
  intraclass correlation between samples (:func:`icc_anova`), the design
  effect's ingredient (``1 + (k − 1) ICC``).
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

from stats_mtbias import _defaults
from stats_mtbias.errors import DataQualityWarning
from stats_mtbias.uncertainty.analytic import modified_wilson_interval
from stats_mtbias.uncertainty.clustered import effective_counts

__all__ = ["Kept", "average_cells", "consistency", "icc_anova", "output_counts", "sample_weights", "unit_codes", "warn_unequal"]


class Kept:
    """A frame kept in a table's ``attrs`` (the samples one by one) that pandas does not copy with every operation."""

    __slots__ = ("frame",)

    def __init__(self, frame: pd.DataFrame) -> None:
        self.frame = frame

    def __deepcopy__(self, memo) -> Kept:
        return self


def unit_codes(frame: pd.DataFrame, keys: list[str]) -> np.ndarray:
    """An integer code per row of `frame`, one per distinct combination of `keys` (the item of a sample)."""
    if not keys:
        return np.zeros(len(frame), dtype=np.int64)
    return frame.groupby(list(keys), sort=False, observed=True, dropna=False).ngroup().to_numpy()


def sample_weights(units: np.ndarray, known: np.ndarray, n: np.ndarray | None = None) -> np.ndarray:
    """Each row's weight in its item's mean: the rule of the module (an unknown sample is an absent one).

    Parameters
    ----------
    units : array of int
        The item of every row (:func:`unit_codes`).
    known : array of bool
        Whether the row's output is known (identified).
    n : array, optional
        The outputs a row counts (a counted table); 1 each by default.

    Returns
    -------
    array
        ``n / K`` for a known row, ``K`` its item's known outputs; 0 for an
        unknown row of an item with a known output; ``n / N`` for a row of an
        item with no known output (``N`` its outputs: one unknown item). The
        weights of an item sum to one.

    Examples
    --------
    One female and two unknown samples weigh as the female alone; an item of
    three unknown samples is one unknown item.

    >>> sample_weights(np.array([0, 0, 0, 1, 1, 1]), np.array([1, 0, 0, 0, 0, 0], bool)).round(3).tolist()
    [1.0, 0.0, 0.0, 0.333, 0.333, 0.333]
    """
    units = np.asarray(units, dtype=np.int64)
    known = np.asarray(known, dtype=bool)
    n = np.ones(len(units)) if n is None else np.asarray(n, dtype=float)
    size = int(units.max()) + 1 if len(units) else 0
    known_total = np.bincount(units, weights=n * known, minlength=size)
    total = np.bincount(units, weights=n, minlength=size)
    has_known = known_total[units] > 0
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(has_known, np.where(known, n / np.where(has_known, known_total[units], 1.0), 0.0), n / total[units])


def average_cells(counts: np.ndarray, known: int = 4) -> np.ndarray:
    """Counts ``(items, ..., genders)`` of the samples of each cell made the means over its known samples.

    The first `known` genders are known, the rest (``unknown``) not. A cell of
    ``K`` known outputs becomes its known counts times ``K̄ / K`` (``K̄`` the mean
    ``K`` over cells with a known output), its unknown ones 0; a cell without a
    known output keeps ``K̄`` unknown (one unknown item). Every item weighs the
    same and the totals stay on the scale of the outputs: equal numbers of
    samples and no unknown one change nothing, nor does duplicating every sample.

    Examples
    --------
    >>> average_cells(np.array([[1, 0, 0, 0, 2], [1, 1, 0, 0, 0], [0, 0, 0, 0, 3]])).tolist()
    [[1.5, 0.0, 0.0, 0.0, 0.0], [0.75, 0.75, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 1.5]]
    """
    counts = np.asarray(counts, dtype=float)
    k = counts[..., :known].sum(axis=-1)
    filled = k[k > 0]
    if not len(filled):
        return counts
    scale = filled.mean()
    out = np.zeros_like(counts)
    with np.errstate(invalid="ignore", divide="ignore"):
        out[..., :known] = np.where((k > 0)[..., None], counts[..., :known] * (scale / np.where(k > 0, k, 1))[..., None], 0.0)
    none = (k == 0) & (counts.sum(axis=-1) > 0)
    rest = counts[..., known:]
    with np.errstate(invalid="ignore", divide="ignore"):
        out[..., known:] = np.where(none[..., None], rest * (scale / np.maximum(rest.sum(axis=-1), 1e-300))[..., None], 0.0)
    return out


def warn_unequal(
    frame: pd.DataFrame, keys: list[str], units: np.ndarray, known: np.ndarray, label: str, *, noun: str = "items", notes=None
) -> None:
    """Name every group of `keys` whose items have unequal numbers of known samples (a DataQualityWarning, in `notes`).

    `label` starts the message (a study's name, or ""); `noun` names the items (clusters, occupations).
    """
    per = pd.DataFrame({"unit": np.asarray(units), "known": np.asarray(known, bool)})
    for key in keys:
        per[key] = frame[key].astype(str).to_numpy()
    per = per[per["known"]]
    if not len(per):
        return
    sizes = per.groupby([*keys, "unit"], sort=False).size()
    if keys:
        spread = sizes.groupby(level=list(range(len(keys))), sort=False).agg(["min", "max"])
        rows = list(spread.iterrows())
    else:
        rows = [((), {"min": sizes.min(), "max": sizes.max()})]
    for name, row in rows:
        if row["min"] == row["max"]:
            continue
        where = "/".join(str(v) for v in (name if isinstance(name, tuple) else (name,)))
        head = " ".join(filter(None, [label, where]))
        message = (
            f"{head}: {noun} have {row['min']}–{row['max']} samples; each item's samples are averaged "
            "(every item weighs the same; an unknown sample counts as absent)"
        )
        warnings.warn(message, DataQualityWarning, stacklevel=4)
        if notes is not None:
            notes.append(message)


def output_counts(frame: pd.DataFrame, keys: list[str], known: np.ndarray, n: np.ndarray | None = None) -> pd.DataFrame:
    """``n_outputs`` (known) and ``n_unknown`` per group of `keys`: rows (or their `n`), never item-equivalents."""
    n = np.ones(len(frame)) if n is None else np.asarray(n, dtype=float)
    known = np.asarray(known, dtype=bool)
    out = frame[keys].astype(str).assign(n_outputs=n * known, n_unknown=n * ~known)
    sums = out.groupby(keys, sort=False)[["n_outputs", "n_unknown"]].sum()
    return sums.round().astype(np.int64)


def icc_anova(means: np.ndarray, sizes: np.ndarray) -> float:
    """One-way ANOVA intraclass correlation of a 0/1 indicator from its item means and samples per item.

    ``(MSB − MSW) / (MSB + (k₀ − 1) MSW)`` with ``k₀`` the unbalanced mean size
    (Searle), clipped to [0, 1]; NaN with fewer than two items or one sample each.

    Examples
    --------
    >>> round(icc_anova(np.array([1.0, 1, 0, 0]), np.array([3, 3, 3, 3])), 6)
    1.0
    """
    y, k = np.asarray(means, float), np.asarray(sizes, float)
    g, total = len(y), k.sum()
    if g < 2 or total <= g:
        return float("nan")
    grand = np.sum(k * y) / total
    msb = np.sum(k * (y - grand) ** 2) / (g - 1)
    msw = np.sum(k * y * (1 - y)) / (total - g)
    k0 = (total - np.sum(k**2) / total) / (g - 1)
    den = msb + (k0 - 1) * msw
    return float(np.clip((msb - msw) / den, 0.0, 1.0)) if den > 0 else float("nan")


def consistency_columns(keys: list[str], shares: list[str], iccs: list[str]) -> list[str]:
    """The columns of :func:`consistency`."""
    return [
        *keys,
        "n",
        "samples",
        "n_several",
        "disagree",
        "disagree_ci_low",
        "disagree_ci_high",
        *[c for s in shares for c in (s, f"{s}_ci_low", f"{s}_ci_high")],
        *[f"icc_{i}" for i in iccs],
    ]


def consistency(
    frame: pd.DataFrame,
    *,
    keys: list[str],
    unit: list[str],
    outcome: str,
    known: np.ndarray,
    indicators: dict[str, np.ndarray],
    shares: list[str],
    all_of: str | None = None,
    level: float = _defaults.LEVEL,
) -> pd.DataFrame:
    """Consistency of sampled outputs per group of `keys`: the known samples of every item.

    Parameters
    ----------
    frame : DataFrame
        One row per sample (output).
    keys : list of str
        The groups (system, language, set…); ``all_of``, one of them, also gets
        an ``all`` level (its values pooled).
    unit : list of str
        Columns naming an item within a group (a sample's item).
    outcome : str
        The column whose values are compared between an item's samples (the gender read).
    known : array of bool
        The known samples (unknown ones are absent: the module's rule).
    indicators : dict
        ``{name: 0/1 array per row}``; each gets ``icc_<name>``.
    shares : list of str
        The indicators also given as a mean over items with Wilson's interval on
        the effective sample size (:func:`~stats_mtbias.uncertainty.clustered.effective_counts`).

    Returns
    -------
    DataFrame
        Per group: ``n`` (items with a known sample), ``samples`` (their mean
        known samples), ``n_several`` (items with two or more), ``disagree`` (the
        share of those whose known samples differ in `outcome`, Wilson's interval
        over items), per share its mean and interval, per indicator its ICC.
    """
    known = np.asarray(known, dtype=bool)
    part = frame.loc[known, [*dict.fromkeys([*keys, *unit]), outcome]].copy()
    for name, values in indicators.items():
        part[f"_{name}"] = np.asarray(values, dtype=float)[known]
    if all_of is not None:
        part = pd.concat([part.assign(**{all_of: part[all_of].astype(str)}), part.assign(**{all_of: "all"})])
    agg = {"k": (outcome, "size"), "kinds": (outcome, "nunique"), **{n: (f"_{n}", "mean") for n in indicators}}
    items = part.groupby([*keys, *[u for u in unit if u not in keys]], sort=False, observed=True).agg(**agg).reset_index()
    columns = consistency_columns(keys, shares, list(indicators))
    rows = []
    for group, sub in items.groupby(keys, sort=False, observed=True):
        several = sub[sub["k"] > 1]
        d = int((several["kinds"] > 1).sum())
        ci = modified_wilson_interval(d, max(len(several), 1), level)
        k = sub["k"].to_numpy()
        row = dict(zip(keys, group if isinstance(group, tuple) else (group,), strict=True))
        row.update(
            {
                "n": len(sub),
                "samples": float(k.mean()),
                "n_several": len(several),
                "disagree": d / len(several) if len(several) else np.nan,
                "disagree_ci_low": float(ci.low) if len(several) else np.nan,
                "disagree_ci_high": float(ci.high) if len(several) else np.nan,
            }
        )
        for name in shares:
            x, n = effective_counts(sub[name].to_numpy(), np.ones(len(sub)), level=level)
            sci = modified_wilson_interval(x, n, level)
            row.update({name: float(sub[name].mean()), f"{name}_ci_low": float(sci.low), f"{name}_ci_high": float(sci.high)})
        for name in indicators:
            row[f"icc_{name}"] = icc_anova(sub[name].to_numpy(), k)
        rows.append(row)
    return pd.DataFrame(rows, columns=columns)

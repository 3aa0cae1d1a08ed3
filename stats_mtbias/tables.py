"""The judgement table and the contingency tables counted from it.

A judgement table is a DataFrame with one row per (system, item) judgement and
at least the columns ``system``, ``item`` and ``gender`` (one of
:data:`~stats_mtbias.gender.GENDERS`); studies add their own columns (set,
lexicon item, language, gold gender, stereotype, reason, …). Everything
downstream reads counts, never text.

A judgement table may be counted already (:mod:`stats_mtbias.datasets.counting`): a
column ``n`` then says how many judgements each row stands for, and every count
below sums it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from stats_mtbias.errors import DataError
from stats_mtbias.schema import GENDERS, REQUIRED, judgement_table  # noqa: F401 (re-exported)


def contingency(judgements: pd.DataFrame, by: Sequence[str] = ()) -> pd.DataFrame:
    """Count judgements by any grouping into a long-format contingency table.

    Parameters
    ----------
    judgements : DataFrame
        A judgement table.
    by : sequence of str
        Grouping columns. Every observed combination gets a row per gender,
        zero counts included.

    Returns
    -------
    DataFrame
        Columns ``*by, gender, count``.
    """
    by = list(by)
    table = judgement_table(judgements) if judgements["gender"].dtype != "category" else judgements
    if not by:
        counts = (
            table.groupby("gender", observed=False)["n"].sum() if "n" in table else table["gender"].value_counts(sort=False)
        ).reindex(GENDERS, fill_value=0)
        return pd.DataFrame({"gender": list(GENDERS), "count": counts.to_numpy()})
    if "n" in table:
        wide = pd.crosstab([table[c] for c in by], table["gender"], values=table["n"], aggfunc="sum", dropna=False)
        wide = wide.fillna(0).astype(np.int64)
    else:
        wide = pd.crosstab([table[c] for c in by], table["gender"], dropna=False)
    wide = wide.reindex(columns=GENDERS, fill_value=0)
    long = wide.stack().rename("count").reset_index()
    long["gender"] = pd.Categorical(long["gender"], categories=GENDERS)
    return long


def wide_counts(judgements: pd.DataFrame, keys: Sequence[str]) -> pd.DataFrame:
    """Counts of every gender per observed combination of `keys`, one row each (wide format).

    Returns
    -------
    DataFrame
        Columns ``*keys``, one per gender (GENDERS order, zeros included) and ``m``,
        the number of judgements in the row. Only combinations that occur appear.
    """
    keys = list(keys)
    gender = pd.Categorical(judgements["gender"], categories=GENDERS)
    if pd.isna(gender).any():  # an unknown label or a missing one: never dropped silently
        bad = judgements["gender"][pd.isna(gender)].iloc[0]
        raise DataError(f"gender {bad!r} is not one of {', '.join(GENDERS)}")
    table = judgements.assign(gender=gender)
    grouped = table.groupby([*keys, "gender"], observed=True, sort=False)
    counts = (
        (grouped["n"].sum() if "n" in table else grouped.size())
        .unstack("gender", fill_value=0)
        .reindex(columns=list(GENDERS), fill_value=0)
    )
    counts.columns = list(GENDERS)
    counts["m"] = counts[list(GENDERS)].sum(axis=1)
    return counts.reset_index()


@dataclass(frozen=True)
class CountCube:
    """Counts as a dense array with named axes (the estimators' input).

    Attributes
    ----------
    counts : numpy.ndarray
        Integer counts; the last axis is ``gender`` (GENDERS order).
    dims : tuple of str
        The name of every axis, ``gender`` last.
    coords : dict
        Labels along each axis.
    """

    counts: np.ndarray
    dims: tuple[str, ...]
    coords: dict

    def axis(self, dim: str) -> int:
        """Position of a named axis."""
        return self.dims.index(dim)


def count_cube(judgements: pd.DataFrame, dims: Sequence[str]) -> CountCube:
    """Count a judgement table into a dense array over ``dims`` and gender.

    Parameters
    ----------
    judgements : DataFrame
        A judgement table.
    dims : sequence of str
        Columns whose combinations index the array, e.g. ``("lexicon_item",
        "system", "subset")`` for a cluster bootstrap over lexicon items.
        Labels keep their order of first appearance (or categorical order).
    """
    table = judgements
    codes, coords = [], {}
    for dim in dims:
        col = table[dim]
        if isinstance(col.dtype, pd.CategoricalDtype):
            levels = list(col.cat.categories)
            code = col.cat.codes.to_numpy()
        else:
            code, uniques = pd.factorize(col, sort=False)
            levels = list(uniques)
        codes.append(code)
        coords[dim] = levels
    gender = pd.Categorical(table["gender"], categories=GENDERS).codes
    if (gender < 0).any():
        raise DataError("judgement table has a gender outside GENDERS; validate it first")
    codes.append(gender)
    coords["gender"] = list(GENDERS)
    shape = tuple(len(coords[d]) for d in (*dims, "gender"))
    flat = np.ravel_multi_index(tuple(codes), shape)
    weights = table["n"].to_numpy(dtype=np.float64) if "n" in table else None
    counts = np.bincount(flat, weights=weights, minlength=int(np.prod(shape)))
    # Whole counts stay integers; fractional weights (an item's samples averaged, issue 37) stay as they are.
    counts = (counts.astype(np.int64) if weights is None or np.all(weights == np.floor(weights)) else counts).reshape(shape)
    return CountCube(counts=counts, dims=(*dims, "gender"), coords=coords)

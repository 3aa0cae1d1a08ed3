"""Model data from judgement tables: counts per cell, design matrices, group indices.

A cell is the finest unit a study observes repeatedly: a (language, occupation)
for Prates (Bengali's six variants are six outputs of one cell), a (system,
sentence set, lexicon item) for TGBI (the item's two or four styled sentences
in that set's file). Counts are over the outcomes ``female, neutral, male`` (``both`` counts as
neutral, as in P_S; ``unknown`` is left out and reported). The last outcome
(``male``) is the reference category of the logit.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from stats_mtbias.datasets.prates import match_reference
from stats_mtbias.tables import wide_counts

OUTCOMES = ("female", "neutral", "male")


@dataclass(frozen=True)
class Group:
    """A grouping factor of the cells: ``index`` (per cell) into ``levels``.

    ``zero_sum`` groups (few levels, e.g. categories) get zero-sum effects, so they
    do not compete with the fixed intercepts; ``parent`` names a coarser group the
    levels are nested in (occupations within categories), for documentation.
    """

    name: str
    index: np.ndarray
    levels: list
    zero_sum: bool = False
    parent: str | None = None
    redraw: bool = False  # drawn afresh when predicting for new items (else only the finest group is)
    scale_index: np.ndarray | None = None  # per level: which of `scale_levels` sets its sd (None: one sd)
    scale_levels: list | None = None


@dataclass(frozen=True)
class ModelData:
    """Everything a model builder needs, and nothing that needs fitting.

    Attributes
    ----------
    counts : ndarray, shape (n_cells, n_outcomes)
        Outcome counts per cell (outcomes in ``outcomes``; the last is the reference).
    design : ndarray, shape (n_cells, n_terms)
        Fixed-effect design matrix.
    terms : list of str
        Names of the design's columns.
    groups : list of Group
        Random-effect groupings, coarsest first.
    cells : DataFrame
        One row per cell with its labels (for derived quantities and plots).
    outcomes : tuple of str
    unknown : int
        Outputs left out because no gender could be read.
    """

    counts: np.ndarray
    design: np.ndarray
    terms: list
    groups: list
    cells: pd.DataFrame
    outcomes: tuple = OUTCOMES
    unknown: int = 0
    covariate: np.ndarray | None = field(default=None, repr=False)


def _outcome_counts(judgements: pd.DataFrame, keys: list[str]) -> tuple[pd.DataFrame, int]:
    """Outcome counts per cell (``both`` as neutral); cells with only unknown outputs are left out and counted."""
    counts = wide_counts(judgements, keys)
    counts["neutral"] += counts.pop("both")
    unknown = int(counts["unknown"].sum())
    counts = counts[counts[list(OUTCOMES)].sum(axis=1) > 0].drop(columns=["unknown", "m"])
    return counts[[*keys, *OUTCOMES]].reset_index(drop=True), unknown


def _one_hot(values: pd.Series, drop_first: bool) -> tuple[np.ndarray, list[str]]:
    levels = list(dict.fromkeys(values))
    cols = levels[1:] if drop_first else levels
    return np.column_stack([(values == lev).to_numpy(float) for lev in cols]) if cols else np.empty((len(values), 0)), cols


def prates_data(judgements: pd.DataFrame) -> ModelData:
    """Cells (language, occupation): language intercepts, categories (zero-sum) and occupations within them."""
    counts, unknown = _outcome_counts(judgements, ["language", "item"])
    info = judgements.drop_duplicates("item").set_index("item")[["occupation", "category"]]
    cells = counts.join(info, on="item")
    design, languages = _one_hot(cells["language"], drop_first=False)
    categories = list(dict.fromkeys(cells["category"]))
    items = list(dict.fromkeys(cells["item"]))
    groups = [
        Group("category", cells["category"].map({c: i for i, c in enumerate(categories)}).to_numpy(), categories, zero_sum=True),
        Group("occupation", cells["item"].map({c: i for i, c in enumerate(items)}).to_numpy(), items, parent="category"),
    ]
    return ModelData(
        counts=cells[list(OUTCOMES)].to_numpy(int),
        design=design,
        terms=[f"language[{lang}]" for lang in languages],
        groups=groups,
        cells=cells.drop(columns=list(OUTCOMES)),
        unknown=unknown,
    )


def tgbi_data(judgements: pd.DataFrame) -> ModelData:
    """Cells (system, set, lexicon item): per system and set an intercept; item effects per system.

    Each sentence set is its own file of translations, and the same sentence
    can come out differently in different files (Papago's occupation file is
    less balanced than its other files of the same sentences), so every
    (system, set) has its own intercept: the model can fit every set's shares.
    A lexicon item's two or four sentences of a set are one cell. Items carry
    an effect per system (the systems do not agree on which items they gender),
    partially pooled with a spread of its own per system and content (occupations
    vary more than the positive and negative phrases); they are redrawn to
    predict for new items.
    """
    counts, unknown = _outcome_counts(judgements, ["system", "subset", "lexicon_item"])
    info = judgements.drop_duplicates("lexicon_item").set_index("lexicon_item")[["content"]]
    cells = counts.join(info, on="lexicon_item")
    cells["system"] = cells["system"].astype(str)
    cells["subset"] = cells["subset"].astype(str)
    combos = cells["system"] + ":" + cells["subset"]
    design, terms = _one_hot(combos, drop_first=False)
    level_of = cells["lexicon_item"].astype(str) + "|" + cells["system"]
    levels = list(dict.fromkeys(level_of))
    per_level = cells.assign(level=level_of).drop_duplicates("level").set_index("level").loc[levels]
    spread = (per_level["system"] + ":" + per_level["content"].astype(str)).to_numpy()
    spreads = list(dict.fromkeys(spread))
    groups = [
        Group(
            "item_system",
            level_of.map({c: i for i, c in enumerate(levels)}).to_numpy(),
            levels,
            redraw=True,
            scale_index=np.array([spreads.index(v) for v in spread]),
            scale_levels=spreads,
        ),
    ]
    return ModelData(
        counts=cells[list(OUTCOMES)].to_numpy(int),
        design=design,
        terms=terms,
        groups=groups,
        cells=cells.drop(columns=list(OUTCOMES)),
        unknown=unknown,
    )


def calibration_data(judgements: pd.DataFrame, reference: pd.DataFrame, clip: float = 0.005) -> ModelData:
    """Cells (language, occupation) with a reference share: female vs male outputs, x = logit(share).

    Outcomes are ``female, male`` (neutral and unknown outputs left out); the
    covariate is the logit of the reference female share clipped to [clip, 1 - clip].
    """
    data = prates_data(judgements)
    matched = match_reference(judgements, reference)
    share = data.cells["item"].map(matched["female_share"]).to_numpy(float)
    counts = data.counts[:, [0, 2]]
    keep = ~np.isnan(share) & (counts.sum(axis=1) > 0)
    cells = data.cells[keep].reset_index(drop=True)
    cells["female_share"] = share[keep]
    x = np.log(np.clip(share[keep], clip, 1 - clip) / (1 - np.clip(share[keep], clip, 1 - clip)))
    languages = list(dict.fromkeys(cells["language"]))
    categories = list(dict.fromkeys(cells["category"]))
    items = list(dict.fromkeys(cells["item"]))
    groups = [
        Group("language", cells["language"].map({c: i for i, c in enumerate(languages)}).to_numpy(), languages),
        Group("category", cells["category"].map({c: i for i, c in enumerate(categories)}).to_numpy(), categories, zero_sum=True),
        Group("occupation", cells["item"].map({c: i for i, c in enumerate(items)}).to_numpy(), items, parent="category"),
    ]
    return ModelData(
        counts=counts[keep],
        design=np.ones((len(cells), 1)),
        terms=["intercept"],
        groups=groups,
        cells=cells,
        outcomes=("female", "male"),
        unknown=data.unknown,
        covariate=x,
    )

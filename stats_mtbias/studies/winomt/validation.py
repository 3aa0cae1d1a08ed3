"""The automatic reading against people: the shipped human labels, their attribution to systems, agreement between annotators."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from stats_mtbias.datasets import winomt as winomt_data
from stats_mtbias.datasets.registry import DataStore, manifest
from stats_mtbias.datasets.winomt import annotation_language, annotation_rows
from stats_mtbias.gender.entity import pronoun_decides, read_entity_and_pronoun
from stats_mtbias.gender.targets import facts
from stats_mtbias.significance.agreement import agreement
from stats_mtbias.studies.winomt.reading import bitext, reading_alignments

VALIDATION_COLUMNS = [
    "file",
    "language",
    "n_rows",
    "n_labelled",
    "agreement",
    "ci_low",
    "ci_high",
    "kappa",
    "n_conflict",
    "n_conflict_pronoun",
    "agreement_outside",
    "ci_low_outside",
    "ci_high_outside",
]


def validation(store, items: pd.DataFrame, *, aligner: str = "fastalign", use_pronoun: bool = False, progress=None) -> dict:
    """Agreement of the automatic reading with every shipped human-annotation file.

    Returns ``{"validation": DataFrame (VALIDATION_COLUMNS), "confusions": {file: DataFrame},
    "pairs": DataFrame (labelled_pairs), "annotators": DataFrame (inter_annotator)}``.
    """
    files = sorted(p for p in manifest() if p.startswith("winomt/data/human_annotations/"))
    results = [
        validate(store, store.path(relpath), items, method=aligner, use_pronoun=use_pronoun)
        for relpath in (progress(files, "WinoMT: human labels") if progress else files)
    ]
    table = pd.DataFrame([{k: v for k, v in r.items() if k not in ("confusion", "pairs")} for r in results])
    return {
        "validation": table,
        "confusions": {r["file"]: r["confusion"] for r in results if r["confusion"] is not None},
        "pairs": attribute_pairs(store, items, pairs_of(results)),
        "annotators": inter_annotator(store, items),
    }


def pairs_of(results: list[dict]) -> pd.DataFrame:
    """The labelled pairs of several :func:`validate` results, each translation once (see :func:`labelled_pairs`)."""
    frames = [r["pairs"].assign(language=r["language"], file=r["file"]) for r in results if r["pairs"] is not None]
    pairs = pd.concat(frames, ignore_index=True)
    return pairs.drop_duplicates(["language", "item", "translation"], keep="first").reset_index(drop=True)


ATTRIBUTION_SHARE = 0.9  # share of a file's labelled translations one system must have produced


def attribute_pairs(store: DataStore, items: pd.DataFrame, pairs: pd.DataFrame) -> pd.DataFrame:
    """Which shipped system each annotation file labelled: ``pairs`` with a ``system`` column.

    A file's labelled translations are a sample of one system's outputs; which
    one is found by matching each labelled sentence to the shipped systems'
    translations of the same item. The file's system is the one that produced at
    least 90% of them (others may share a translation by coincidence); its rows
    that this system did not produce, and every row of a file no system
    accounts for, get an empty ``system`` and correct nothing.
    """
    shipped = []
    for system, language, is_adj, relpath in winomt_data.translation_files():
        if is_adj or language not in set(pairs["language"]):
            continue
        table = winomt_data.read_translations(store.path(relpath), items, adjectives=False)
        ok = table["reason"] == ""
        shipped.append(
            pd.DataFrame(
                {
                    "system": system,
                    "language": language,
                    "item": table.loc[ok, "item"],
                    "key": table.loc[ok, "translation"].astype(str).str.strip(),
                }
            )
        )
    out = pairs.assign(system="")
    if not shipped:
        return out
    produced = pd.concat(shipped, ignore_index=True)
    keyed = out.assign(key=out["translation"].astype(str).str.strip(), row=np.arange(len(out)))
    matches = keyed.merge(produced, on=["language", "item", "key"], suffixes=("", "_shipped"))
    for name, rows in keyed.groupby("file", sort=False):
        hits = matches[matches["file"] == name]
        if hits.empty:
            continue
        share = hits.groupby("system_shipped")["row"].nunique() / len(rows)
        if share.max() >= ATTRIBUTION_SHARE:
            system = share.idxmax()
            out.iloc[hits.loc[hits["system_shipped"] == system, "row"].to_numpy(), out.columns.get_loc("system")] = system
    return out


def validate(
    store: DataStore, path: str | Path, items: pd.DataFrame, *, method: str = "fastalign", use_pronoun: bool = False
) -> dict:
    """Agreement of the automatic reading with one human-annotation file.

    Rows whose label is not one of M/F/N (empty, "M/N", …) are counted and left
    out. Returns ``file, language, n_rows, n_labelled, agreement, ci_low,
    ci_high, kappa``, ``confusion`` (DataFrame: human rows × automatic columns)
    and ``pairs`` (DataFrame ``item, translation, gold, human, automatic, entity, pronoun``: one row per
    labelled translation, for :func:`stats_mtbias.studies.winomt.corrected_accuracy`).

    It also separates the two things a disagreement can be. A *conflict* is a
    translation whose entity reads as one gender while the translated pronoun that
    refers to it is explicitly the other ("den Arzt … bat sie"): there the metric
    (the entity's own words) and a reader of the whole sentence must differ, and
    no reader of the entity can agree with an annotator who followed the pronoun.
    ``n_conflict`` counts them, ``n_conflict_pronoun`` those the annotator labelled
    with the pronoun's gender, and ``agreement_outside``, ``ci_low_outside``,
    ``ci_high_outside`` give the agreement (Wilson) on the other translations,
    where the annotator's label and the metric ask the same question.
    """
    path = Path(path)
    language = annotation_language(path.name)
    rows, labelled = annotation_rows(path, items)
    result = {"file": path.name, "language": language, "n_rows": len(rows), "n_labelled": len(labelled)}
    if not labelled or language is None:
        empty = dict.fromkeys(
            ["agreement", "ci_low", "ci_high", "kappa", "agreement_outside", "ci_low_outside", "ci_high_outside"], np.nan
        )
        # Counts over no labelled translation are 0 (and stay integers in every table); agreements are undefined.
        return {**result, **empty, "n_conflict": 0, "n_conflict_pronoun": 0, "confusion": None, "pairs": None}
    index, sentences, human = zip(*labelled)
    src = items.set_index("item").loc[list(index)]
    links, lexicon = reading_alignments(store, language, items, src["sentence"].tolist(), list(sentences), method)
    entity, pronoun = read_entity_and_pronoun(
        src["sentence"].tolist(),
        src["entity_index"].to_numpy(),
        list(sentences),
        language,
        extra=bitext(store, language, items) if links is None else None,
        method=method,
        alignments=links,
        lexicon=lexicon,
    )
    entity, pronoun = np.array(entity, dtype=object), np.array(pronoun, dtype=object)
    auto = np.array(pronoun_decides(entity, pronoun), dtype=object) if use_pronoun and facts(language).pronoun_decides else entity
    human = np.array(human, dtype=object)
    gendered = ("male", "female")
    conflict = np.isin(entity, gendered) & np.isin(pronoun, gendered) & (entity != pronoun)
    overall, outside = agreement(human, auto), agreement(human[~conflict], auto[~conflict])
    confusion = pd.crosstab(pd.Series(human, name="human"), pd.Series(auto, name="automatic"))
    pairs = pd.DataFrame(
        {
            "item": list(index),
            "translation": list(sentences),
            "gold": src["gold"].to_numpy(),
            "human": human,
            "automatic": auto,
            "entity": entity,
            "pronoun": pronoun,
        }
    )
    return {
        **result,
        **overall,
        "n_conflict": int(conflict.sum()),
        "n_conflict_pronoun": int(np.sum(human[conflict] == pronoun[conflict])),
        "agreement_outside": outside["agreement"],
        "ci_low_outside": outside["ci_low"],
        "ci_high_outside": outside["ci_high"],
        "confusion": confusion,
        "pairs": pairs,
    }


def inter_annotator(store: DataStore, items: pd.DataFrame) -> pd.DataFrame:
    """Agreement between annotation files that label the same translations differently (two annotators).

    For every pair of files of one language sharing labelled translations (same
    item and text) whose labels are not simply the same file twice: ``file_a,
    file_b, language, n_common, agreement, ci_low, ci_high, kappa`` (Wilson
    interval). It is the ceiling a reader can be expected to reach against either
    annotator: the two Italian annotators of the same Google translations agree on
    about 87%.
    """
    from itertools import combinations

    labels = {}
    for relpath in sorted(p for p in manifest() if p.startswith("winomt/data/human_annotations/")):
        name = Path(relpath).name
        labels[name] = {(item, text): label for item, text, label in annotation_rows(store.path(relpath), items)[1]}
    rows = []
    for a, b in combinations(sorted(labels), 2):
        language = annotation_language(a)
        common = sorted(set(labels[a]) & set(labels[b]))
        if language != annotation_language(b) or not common or labels[a] == labels[b]:
            continue
        x = np.array([labels[a][k] for k in common], dtype=object)
        y = np.array([labels[b][k] for k in common], dtype=object)
        rows.append({"file_a": a, "file_b": b, "language": language, "n_common": len(common), **agreement(x, y)})
    return pd.DataFrame(rows, columns=["file_a", "file_b", "language", "n_common", "agreement", "ci_low", "ci_high", "kappa"])

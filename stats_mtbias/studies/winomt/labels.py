"""Agreement of the new readers (issue 36) with blind human labels of the entity's own noun phrase.

The labels (``data/validation/labels_<language>.csv``: ``language, system, item,
annotator, gender, found, evidence``; gender one of M/F/N/B) were made by
labellers who saw the translation and the English entity, never the reader's
output, on the items of ``data/validation/sample.csv`` (drawn with a fixed seed
before any reader existed). :func:`agreement_table` compares them with the
readings: per language, per language and system, and per annotator, the share of
labels the reader matches with its Wilson interval, and Cohen's κ with the
interval of :func:`stats_mtbias.significance.agreement.kappa_interval`. A label
whose labeller did not find the entity (``found`` N) counts as ``unknown``: the
reader agrees by reading nothing.

``tools/agreement_new_readers.py`` reads the files, runs the readers and prints the table.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from stats_mtbias.datasets._io import read_frame
from stats_mtbias.errors import DataError
from stats_mtbias.significance.agreement import agreement, kappa_interval

LABELS = {"m": "male", "f": "female", "n": "neutral", "b": "both"}
COLUMNS = ["language", "system", "annotator", "n", "agreement", "ci_low", "ci_high", "kappa", "kappa_low", "kappa_high"]


def read_labels(paths) -> pd.DataFrame:
    """Label files as one frame: ``language, system, item, annotator, human, evidence``.

    Raises
    ------
    DataError
        A gender that is not M/F/N/B where the entity was found, or a missing column.
    """
    frames = []
    for path in [Path(p) for p in ([paths] if isinstance(paths, (str, Path)) else paths)]:
        _, frame = read_frame(path, required=("language", "system", "item", "gender", "found"), lower=True, keys=("annotator",))
        found = frame["found"].str.strip().str.upper() != "N"
        human = frame["gender"].str.strip().str.lower().map(LABELS)
        bad = found & human.isna()
        if bad.any():
            row = int(np.flatnonzero(bad.to_numpy())[0])
            raise DataError(f"gender {frame['gender'].iloc[row]!r} is not one of M, F, N, B", path, int(frame["line"].iloc[row]))
        bad = ~frame["item"].str.fullmatch(r"[+-]?\d+")
        if bad.any():
            row = int(np.flatnonzero(bad.to_numpy())[0])
            raise DataError(f"item {frame['item'].iloc[row]!r} is not a whole number", path, int(frame["line"].iloc[row]))
        frames.append(
            pd.DataFrame(
                {
                    "language": frame["language"].str.strip(),
                    "system": frame["system"].str.strip(),
                    "item": frame["item"].astype(int),
                    "annotator": frame.get("annotator", pd.Series("", index=frame.index)),
                    "human": human.where(found, "unknown"),
                    "evidence": frame.get("evidence", pd.Series("", index=frame.index)),
                }
            )
        )
    return pd.concat(frames, ignore_index=True)


def _row(part: pd.DataFrame, **keys) -> dict:
    human, auto = part["human"].to_numpy(dtype=object), part["automatic"].to_numpy(dtype=object)
    agree = agreement(human, auto)
    kappa, low, high = kappa_interval(human, auto) if len(part) else (np.nan, np.nan, np.nan)
    return {
        **keys,
        "n": len(part),
        "agreement": agree["agreement"],
        "ci_low": agree["ci_low"],
        "ci_high": agree["ci_high"],
        "kappa": kappa,
        "kappa_low": low,
        "kappa_high": high,
    }


def agreement_table(labels: pd.DataFrame, readings: pd.DataFrame) -> pd.DataFrame:
    """Agreement of `readings` (``language, system, item, gender``) with `labels` (:func:`read_labels`).

    One row per language (``system`` and ``annotator`` empty), per language and
    system, and per language, system and annotator: :data:`COLUMNS`. A label
    without a reading (the item was not read) is an error, not a disagreement.

    Examples
    --------
    >>> labels = pd.DataFrame({"language": "pt", "system": ["a"] * 4, "item": [1, 2, 3, 4], "annotator": "x",
    ...                        "human": ["male", "female", "both", "neutral"]})
    >>> readings = labels[["language", "system", "item"]].assign(gender=["male", "female", "both", "unknown"])
    >>> row = agreement_table(labels, readings).iloc[0]
    >>> row["language"], int(row["n"]), float(row["agreement"])
    ('pt', 4, 0.75)
    """
    merged = labels.merge(
        readings.rename(columns={"gender": "automatic"})[["language", "system", "item", "automatic"]],
        on=["language", "system", "item"],
        how="left",
    )
    if merged["automatic"].isna().any():
        first = merged[merged["automatic"].isna()].iloc[0]
        raise DataError(f"{first['language']}/{first['system']} item {first['item']}: labelled but not read")
    rows = []
    for language, part in merged.groupby("language", sort=True):
        rows.append(_row(part, language=language, system="", annotator=""))
        for system, sub in part.groupby("system", sort=True):
            rows.append(_row(sub, language=language, system=system, annotator=""))
            for annotator, one in sub.groupby("annotator", sort=True):
                if sub["annotator"].nunique() > 1:
                    rows.append(_row(one, language=language, system=system, annotator=annotator))
    return pd.DataFrame(rows, columns=COLUMNS)

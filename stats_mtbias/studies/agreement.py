"""Agreement between two label columns of any benchmark: an LLM judge against people, two annotators, two readers.

``labels`` (a CSV, Parquet or Arrow file, or a frame) holds one row per labelled
unit with the two label columns ``a`` and ``b`` and any grouping columns
``by`` (language, system, …). Labels are compared after stripping spaces and
lower-casing (``"M"`` and ``"m"`` are one label), and after `mapping` (e.g.
``{"error": "unknown"}``); a row with an empty label in one column is not a
disagreement: it is left out and counted in ``frames["accounting"]``. Per group
(and over all): raw agreement with Wilson's interval, and Cohen's κ with an
interval that holds near κ = 1 (:func:`stats_mtbias.significance.agreement.kappa_interval`),
and the confusion table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from stats_mtbias import _defaults
from stats_mtbias._validation import check_level
from stats_mtbias.datasets._io import read_records
from stats_mtbias.datasets.sources import FrameSource, as_source, source_sha256
from stats_mtbias.errors import DataError, UsageError
from stats_mtbias.result import TABLE_COLUMNS, Spec, StudyResult
from stats_mtbias.significance.agreement import agreement_table
from stats_mtbias.studies._common import accounting, melt, provenance, restrict_items
from stats_mtbias.studies._study import Study, finish

RESERVED = ("subset", "metric", "estimate", "ci_low", "ci_high", "n")


def _read(labels, columns: list[str]) -> tuple[pd.DataFrame, object]:
    """The label table with `columns` as strings (every row kept), and its source."""
    source = as_source(labels, "labels")
    if isinstance(source, FrameSource):
        frame = source.frame
        lines = np.arange(len(frame)) + 2
    else:
        header, records = read_records(source, required=tuple(columns))
        frame = pd.DataFrame([record for _, record in records], columns=header)
        lines = np.array([number for number, _ in records], dtype=np.int64)  # the line each row starts on
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise DataError(f"lacks column(s) {', '.join(missing)} (found {', '.join(map(str, frame.columns))})", source, 1)
    out = frame[columns].astype("string").fillna("")
    for column in columns:
        out[column] = out[column].str.strip()
    out["line"] = lines
    return out.astype({c: object for c in columns}), source


def evaluate(
    labels,
    *,
    a: str,
    b: str,
    by: Sequence[str] | str = (),
    mapping: Mapping[str, str] | None = None,
    level: float = _defaults.LEVEL,
    items=None,
) -> StudyResult:
    """:func:`stats_mtbias.agreement` (see there); ``items`` keeps the rows of these ids of an ``item`` column."""
    level = check_level(level)
    by = [by] if isinstance(by, str) else list(by)
    if a == b:
        raise UsageError("`a` and `b` name the same column; name the two label columns to compare.")
    clash = [c for c in by if c in RESERVED or c in (a, b)]
    if clash:
        raise UsageError(f"`by`: {', '.join(clash)} cannot group (a result column or a label column); rename it.")
    item_column = ["item"] if items is not None and "item" not in (a, b, *by) else []
    frame, source = _read(labels, [a, b, *by, *item_column])
    if not len(frame):
        raise DataError("has a header but no labels", source, 2)
    if items is not None:
        frame, restriction = restrict_items(frame, items, keys=by, study="agreement")
        frame = frame.drop(columns=item_column).reset_index(drop=True)
    else:
        restriction = None
    lowered = {str(k).strip().lower(): str(v).strip().lower() for k, v in (mapping or {}).items()}
    for column in (a, b):
        frame[column] = frame[column].map(lambda v: lowered.get(v.lower(), v.lower()) if v else "")
    empty_a, empty_b = frame[a] == "", frame[b] == ""
    frame["outcome"] = np.select(
        [empty_a & empty_b, empty_a, empty_b], ["both missing", f"{a} missing", f"{b} missing"], "compared"
    )
    used = frame[frame["outcome"] == "compared"]
    table, confusion = agreement_table(used, a, b, by, level=level)
    system = "system" if "system" in by else None
    language = "language" if "language" in by else None
    rest = [c for c in by if c not in ("system", "language")]
    tidy = table.assign(
        system=table[system].astype(str) if system else "all",
        language=table[language].astype(str) if language else "all",
        subset=table[rest].astype(str).agg(" | ".join, axis=1) if rest else "all",
    )
    metrics = {"agreement": ("agreement", "ci_low", "ci_high"), "kappa": ("kappa", "kappa_ci_low", "kappa_ci_high")}
    long = melt(tidy, metrics, keys={"system": "system", "language": "language", "subset": "subset"})
    extra = pd.concat([tidy[rest]] * len(metrics), ignore_index=True) if rest else None
    if extra is not None:
        for i, column in enumerate(rest):
            long.insert(3 + i, column, extra[column].astype(str).to_numpy())
    long = long[[*TABLE_COLUMNS[:3], *rest, *TABLE_COLUMNS[3:]]]
    notes = []
    skipped = frame["outcome"] != "compared"
    if skipped.any():
        lines = frame.loc[skipped, "line"].head(5).astype(str).tolist()
        notes.append(
            f"{int(skipped.sum())} row(s) with an empty label left out (lines {', '.join(lines)}"
            f"{', …' if skipped.sum() > 5 else ''}); counted in frames['accounting']."
        )
    record = provenance(
        "raw agreement with Wilson's interval; Cohen's kappa with Wilson's score interval for p_o on the effective "
        "number of items that carries kappa's large-sample variance (Fleiss, Cohen & Everitt 1969)",
        {str(source): source_sha256(source)},
        rng=None,
        level=level,
        options={"a": a, "b": b, "by": by, "mapping": dict(mapping or {}), "labels": "stripped, lower-cased"},
    )
    frames = {"agreement": table, "confusion": confusion, "accounting": accounting(frame, by, "outcome"), "labels": frame}
    return finish("agreement", long, None, record, frames, allowed=FRAMES, correction="none", notes=notes, items=restriction)


FRAMES = ("agreement", "confusion", "accounting", "labels")
SPEC = Spec(
    "Agreement of two label columns: the share of units labelled alike (Wilson interval) and Cohen's κ (1: perfect, 0: chance).",
    ("agreement", "kappa"),
    ("agreement", "kappa"),
    (),
    subset="group",
    title="Agreement of two label columns",
)
STUDY = Study("agreement", FRAMES, evaluate, spec=SPEC)

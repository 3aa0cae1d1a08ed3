"""What a handler hands back, and how it is rendered: one unit per audience.

``json`` and ``csv`` (and ``--out`` files) hold the public view as the API gives
it: its columns, shares in [0, 1], nothing rounded. ``table`` is for a person:
the columns that hold shares are shown in percent and labelled ``%`` in their
header (``estimate %``); where a tidy table mixes shares and other quantities
(optimal's B beside its headline shares), the share rows say ``%`` in their
``metric`` cell instead.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import dataclass, field

import pandas as pd

from stats_mtbias.report.formatting import format_value, render, to_records

PERCENT_DIGITS = 2  # decimals of a percentage in a table (0.01 points)
DIGITS = 4  # decimals of any other number in a table


@dataclass
class Output:
    """A handler's result: the view to print and what goes around it.

    Attributes
    ----------
    frame : DataFrame
        The public view, as the library returns it (shares in [0, 1]).
    provenance : dict
        Printed with ``--provenance`` and written to ``FILE.provenance.json`` beside ``--out``.
    notes : list of str
        Lines under a table (not with ``--quiet``; never in json or csv).
    shares : collection of str
        The columns in shares (or differences of shares): percent in the table format.
    share_rows : Series of bool, optional
        Of a tidy table: the rows whose metric is a share (default: every row).
    single : bool
        One answer: ``--format json`` prints one object instead of a list of one.
    summary : bool
        ``--out`` was the handler's own (a netCDF, the report's directory): the view goes to stdout as a table.
    """

    frame: pd.DataFrame
    provenance: dict
    notes: list = field(default_factory=list)
    shares: Collection[str] = ()
    share_rows: pd.Series | None = None
    single: bool = False
    summary: bool = False


def public(frame: pd.DataFrame) -> pd.DataFrame:
    """A frame with a meaningful index (a crosstab) gets it back as columns: records keep every column."""
    if isinstance(frame.index, pd.RangeIndex) and frame.index.name is None:
        return (
            frame if all(isinstance(c, str) for c in frame.columns) else frame.set_axis([str(c) for c in frame.columns], axis=1)
        )
    names = [
        n if n is not None else (f"level_{i}" if frame.index.nlevels > 1 else "index") for i, n in enumerate(frame.index.names)
    ]
    out = frame.copy()
    out.index = out.index.set_names(names)
    out = out.reset_index()
    return out.set_axis([str(c) for c in out.columns], axis=1)


def records(frame: pd.DataFrame) -> list[dict]:
    """Flat JSON-ready records: the keys are the frame's columns, NaN is null, nothing rounded."""
    return to_records(frame, [str(c) for c in frame.columns]) if len(frame.columns) else []


def _cells(frame: pd.DataFrame, shares: Collection[str], rows: pd.Series | None) -> pd.DataFrame:
    mixed = rows is not None and not bool(rows.all())
    mask = [True] * len(frame) if rows is None else [bool(v) for v in rows.tolist()]
    cells = {}
    for column in frame.columns:
        values = frame[column].tolist()
        if column in shares and pd.api.types.is_numeric_dtype(frame[column]):
            shown = [
                format_value(100 * v, column, PERCENT_DIGITS)
                if inside and isinstance(v, (int, float)) and not isinstance(v, bool)
                else format_value(v, column, DIGITS)
                for v, inside in zip(values, mask)
            ]
            cells[column if mixed else f"{column} %"] = shown
        elif column == "metric" and mixed:
            cells[column] = [f"{v} %" if inside else str(v) for v, inside in zip(values, mask)]
        else:
            cells[str(column)] = [format_value(v, column, DIGITS) for v in values]
    return pd.DataFrame(cells, columns=list(cells))


def table_text(frame: pd.DataFrame, shares: Collection[str] = (), rows: pd.Series | None = None, width: int | None = None) -> str:
    """The view as a fixed-width table for a person: share columns in percent (``%`` in the header)."""
    if not len(frame.columns):
        return "(no columns)"
    return _cells(frame, shares, rows).to_string(index=False, line_width=width)


def render_output(output: Output, fmt: str, width: int | None = None) -> str:
    """The view in `fmt`: ``table`` (percent, for a person), ``json`` or ``csv`` (the API's shares)."""
    frame = public(output.frame)
    if fmt == "table":
        return table_text(frame, output.shares, output.share_rows, width)
    if fmt == "json":
        found = records(frame)
        if output.single and len(found) == 1:
            return json.dumps(found[0], indent=1, ensure_ascii=False)  # one answer: one object
        return json.dumps(found, indent=1, ensure_ascii=False)
    return render(frame, [str(c) for c in frame.columns], fmt)

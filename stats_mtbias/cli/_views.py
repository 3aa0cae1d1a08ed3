"""The public views of a :class:`~stats_mtbias.result.StudyResult` a study subcommand prints.

``table`` is ``res.table``; ``compare`` is ``res.compare()``; any other name is
``res.frames[name]``. Nothing else of a result is read (never ``res.details``).
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence

import pandas as pd

from stats_mtbias.cli._output import Output
from stats_mtbias.errors import UsageError
from stats_mtbias.significance.multitest import CORRECTION_NAMES
from stats_mtbias.significance.pvalues import FLOOR_TEXT, P_FLOOR, PVALUE_COLUMNS

TABLE_SHARES = ("estimate", "ci_low", "ci_high")
COMPARE_SHARES = ("diff", "ci_low", "ci_high", "mde", "margin", "eq_low", "eq_high")


def chosen(args: argparse.Namespace, default: str) -> str:
    """The view asked for: ``compare`` with ``--compare`` (or ``--margin``), else ``--view``, else the study's default."""
    if getattr(args, "margin", None) is not None:
        if getattr(args, "view", None):
            raise UsageError(
                f"--margin tests the comparisons' equivalence; --view {args.view} is another view: give one of them."
            )
        return "compare"
    if getattr(args, "compare", False):
        return "compare"
    return getattr(args, "view", None) or default


def family_note(res, frame: pd.DataFrame) -> str:
    """The family in force, as the comparisons' ``family`` column says it."""
    options = res.provenance.get("options", {})
    correction = CORRECTION_NAMES.get(res.correction, res.correction)
    label = options.get("family") or res.family
    families = frame["family"].nunique() if "family" in frame else 0
    return (
        f"p_adjusted: {correction} within each family ({label}; {families} famil{'y' if families == 1 else 'ies'}"
        f" of {len(frame)} comparisons; the family column names each row's)"
    )


def floor_note(frame: pd.DataFrame) -> list[str]:
    """One line where a p-value of the view is at the floor (stats_mtbias.significance.pvalues), else none."""
    columns = [c for c in PVALUE_COLUMNS if c in frame and pd.api.types.is_numeric_dtype(frame[c])]
    rows = [i for i in range(len(frame)) if any(0 <= frame[c].iloc[i] <= P_FLOOR for c in columns)]
    if not rows:
        return []
    methods = sorted(set(frame["method"].iloc[rows].astype(str))) if "method" in frame else []
    return [
        f"{FLOOR_TEXT}: below what double precision can state ({len(rows)} row{'s' if len(rows) > 1 else ''}"
        + (f"; {', '.join(methods)}" if methods else "")
        + "); json and csv hold 1e-300, never 0; a p_adjusted from "
        "such a p is the adjusted bound (Holm: at most family size × 1e-300)"
    ]


def equivalence_note(res, frame: pd.DataFrame) -> str:
    """What the equivalence columns say, in one line."""
    margin = float(frame["margin"].iloc[0])
    counts = frame["verdict"].value_counts()
    told = ", ".join(f"{counts[v]} {v}" for v in ("equivalent", "not shown", "differs", "no interval") if v in counts)
    return (
        f"equivalence within ±{100 * margin:g} points: two one-sided tests at α = 0.05 each, read off each row's "
        f"interval (eq_low, eq_high: the 90% interval); p_equivalent_adjusted with the same correction and families "
        f"as p_adjusted; {told}"
    )


def view(
    res,
    name: str,
    shares: Mapping[str, Sequence[str]],
    *,
    not_shares: Sequence[str] = (),
    notes: Sequence[str] = (),
    margin: float | None = None,
) -> Output:
    """The view `name` of `res` as an :class:`Output` with its share columns.

    Parameters
    ----------
    shares : mapping
        Per frame name, its columns in shares (shown as percent in a table).
    not_shares : sequence of str
        Metrics of the tidy table that are not shares (optimal's ``b``): their rows are shown as they are.
    margin : float, optional
        ``--margin``: the comparisons with their equivalence test within ±margin (``res.compare(margin=)``).
    """
    notes = [*res.notes, *notes]
    if name == "table":
        frame = res.table
        rows = ~frame["metric"].isin(not_shares) if not_shares else None
        return Output(frame, res.provenance, notes, TABLE_SHARES, share_rows=rows)
    if name == "compare":
        try:
            frame = res.compare(margin=margin)
        except UsageError as exc:
            if margin is not None and "margin" in str(exc):
                raise
            raise UsageError(f"--compare needs at least two systems on the same items: {exc}") from None
        told = [equivalence_note(res, frame)] if margin is not None and len(frame) else []
        return Output(frame, res.provenance, [*notes, family_note(res, frame), *told, *floor_note(frame)], COMPARE_SHARES)
    frame = flagged(res.frame(name), res.table)
    return Output(frame, res.provenance, [*notes, *floor_note(frame)], tuple(shares.get(name, ())))


def flagged(frame: pd.DataFrame, table: pd.DataFrame) -> pd.DataFrame:
    """`frame` with the tidy table's ``flag`` on the rows of flagged systems (by the keys both have), so that a
    flagged input shows in every view, not only in ``--view table``."""
    if "flag" not in table or "flag" in frame or "system" not in frame:
        return frame
    keys = [k for k in ("system", "language", "subset") if k in frame and k in table]
    flags = table[table["flag"] != ""].drop_duplicates(keys)
    flags = flags.assign(**{k: flags[k].astype(str) for k in keys})[[*keys, "flag"]]
    out = frame.assign(**{f"_{k}": frame[k].astype(str) for k in keys})
    out = out.merge(flags.rename(columns={k: f"_{k}" for k in keys}), on=[f"_{k}" for k in keys], how="left")
    return out.drop(columns=[f"_{k}" for k in keys]).assign(flag=lambda f: f["flag"].fillna(""))


def accounting_notes(res, fine: Sequence[str], text: str) -> list[str]:
    """One line per system (and language, subset) × outcome of the accounting frame that is not in `fine`.

    `text` is formatted with the row's fields, e.g. ``"{system} {subset}: {n} lines {outcome}"``.
    """
    frame = res.frames.get("accounting")
    if frame is None:
        return []
    return [text.format(**row) for row in frame.to_dict("records") if row["outcome"] not in fine and row["n"]]

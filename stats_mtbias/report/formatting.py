"""Rendering results as table, JSON or CSV: the only place numbers are rounded."""

from __future__ import annotations

import io
import json
import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from stats_mtbias.significance.pvalues import FLOOR_TEXT, P_FLOOR

FORMATS = ("table", "json", "csv")
PVALUE_COLUMNS = frozenset({"p_value", "p_adjusted", "p_lower", "p_male_gt_female"})
# Significant digits of every number written to CSV, and of every number a document rounds: the tables'
# precision, without the last-bit noise of summation order (threads) that would make a re-run on the same
# inputs rewrite tracked files. Shown cells are the CSV's numbers rounded, so they agree with a reader of the CSV.
CSV_FLOAT_FORMAT = "%.10g"


def csv_float(value: float) -> float:
    """`value` as the CSV holds it (:data:`CSV_FLOAT_FORMAT`)."""
    return float(CSV_FLOAT_FORMAT % value)


def _plain(value):
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return None if math.isnan(value) else float(value)
    if isinstance(value, np.bool_):
        return bool(value)
    return value


def to_records(frame: pd.DataFrame, columns: Sequence[str]) -> list[dict]:
    """Flat JSON-ready records with exactly `columns`; NaN becomes null, nothing is rounded."""
    return [{c: _plain(v) for c, v in zip(columns, row)} for row in frame[list(columns)].itertuples(index=False)]


def format_value(value, column: str = "", digits: int = 4) -> str:
    """One number as the documents show it: `digits` decimals, small p-values in scientific notation (``< 1e-300`` at
    the floor of every p-value: :mod:`stats_mtbias.significance.pvalues`)."""
    if value is None or (isinstance(value, (float, np.floating)) and math.isnan(value)):
        return ""
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        value = csv_float(value)
        if column in PVALUE_COLUMNS and 0 < value <= P_FLOOR:
            return FLOOR_TEXT  # below what the method can state (stats_mtbias.significance.pvalues), never "0"
        if column in PVALUE_COLUMNS and 0 < value < 10**-digits:
            # Tiny p-values keep their magnitude instead of printing as 0.0000.
            return f"{value:.1e}"
        text = f"{value:.{digits}f}"
        # A tiny negative rounds to "-0.0000", which reads as a sign that is not there.
        return text[1:] if text.startswith("-") and float(text) == 0 else text
    return str(value)


def format_cells(frame: pd.DataFrame, columns: Sequence[str], digits: int = 4, percent: Sequence[str] = ()) -> pd.DataFrame:
    """The shown columns as strings, rounded as the documents show them; `percent` columns ×100 first."""
    shown = frame[list(columns)]
    scaled = set(percent)
    return pd.DataFrame(
        {
            col: [format_value(_scaled(v) if col in scaled else v, col, digits) for v in shown[col].tolist()]
            for col in shown.columns
        }
    )


def _scaled(value):
    # ×100 on the CSV's number, so a shown percent is the CSV's share rounded (not a re-rounded product).
    if isinstance(value, (float, np.floating)) and not math.isnan(value):
        return 100 * csv_float(value)
    return value


def _number(value: float, digits: int) -> str:
    text = f"{value:.{digits}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def format_interval(
    estimate: float, low: float = math.nan, high: float = math.nan, *, scale: float = 100.0, digits: int = 1
) -> str:
    """An estimate with its interval as a document shows it: ``61.2 [59.7, 62.7]``.

    Shares are shown ×`scale` (100: percent, or points for a difference of shares);
    an interval without ends shows the estimate alone, a missing estimate nothing.

    Examples
    --------
    >>> format_interval(0.61234, 0.5971, 0.627)
    '61.2 [59.7, 62.7]'
    >>> format_interval(-0.0004, -0.012, 0.011)
    '0.0 [-1.2, 1.1]'
    >>> format_interval(2.78, 1.0, 9.24, scale=1, digits=2)
    '2.78 [1.00, 9.24]'
    >>> format_interval(float("nan"))
    ''
    """
    values = [math.nan if v is None else float(v) for v in (estimate, low, high)]
    if math.isnan(values[0]):
        return ""
    est, lo, hi = (scale * csv_float(v) if not math.isnan(v) else v for v in values)
    if math.isnan(lo) or math.isnan(hi):
        return _number(est, digits)
    return f"{_number(est, digits)} [{_number(lo, digits)}, {_number(hi, digits)}]"


def format_p(p: float, digits: int = 3) -> str:
    """A p-value for a reader: three decimals, ``< 0.001`` below that, ``< 1e-300`` at the floor of every p-value.

    Examples
    --------
    >>> format_p(0.04567), format_p(2e-12), format_p(1.0), format_p(1e-300)
    ('0.046', '< 0.001', '1.000', '< 1e-300')
    """
    if p is None or math.isnan(float(p)):
        return ""
    p = csv_float(float(p))
    if 0 < p <= P_FLOOR:
        return FLOOR_TEXT
    return f"< {10**-digits:.{digits}f}" if p < 10**-digits else f"{p:.{digits}f}"


def format_table(frame: pd.DataFrame, columns: Sequence[str], digits: int = 4, width: int | None = None) -> str:
    """A fixed-width text table, numbers rounded to `digits` decimals; wider than `width`: blocks of columns."""
    return format_cells(frame, columns, digits).to_string(index=False, line_width=width)


def render(frame: pd.DataFrame, columns: Sequence[str], fmt: str, digits: int = 4, width: int | None = None) -> str:
    """The frame as ``table`` (fitted to `width` characters), ``json`` (list of flat records) or ``csv`` (full precision)."""
    if fmt == "json":
        return json.dumps(to_records(frame, columns), indent=1, ensure_ascii=False)
    if fmt == "csv":
        buffer = io.StringIO()
        frame[list(columns)].to_csv(buffer, index=False, float_format=CSV_FLOAT_FORMAT)
        return buffer.getvalue().rstrip("\n")
    return format_table(frame, columns, digits, width)


def format_provenance(provenance: dict) -> str:
    """Provenance as indented text lines (for the table format)."""
    lines = ["provenance:"]
    for key, value in provenance.items():
        if key == "data":
            lines.append(f"  data ({len(value)} files, sha256):")
            lines += [f"    {digest[:16]}  {path}" for path, digest in value.items()]
        elif isinstance(value, dict):
            lines.append(f"  {key}: " + ", ".join(f"{k}={v}" for k, v in value.items()))
        else:
            lines.append(f"  {key}: {value}")
    return "\n".join(lines)

"""Rendering results as table, JSON or CSV: the only place numbers are rounded."""

from __future__ import annotations

import io
import json
import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

FORMATS = ("table", "json", "csv")
PVALUE_COLUMNS = frozenset({"p_value", "p_adjusted", "p_holm", "p_lower", "p_male_gt_female"})


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


def format_table(frame: pd.DataFrame, columns: Sequence[str], digits: int = 4) -> str:
    """A fixed-width text table, numbers rounded to `digits` decimals."""
    shown = frame[list(columns)].copy()
    for col in shown.columns:
        if col in PVALUE_COLUMNS:
            # Tiny p-values keep their magnitude instead of printing as 0.0000.
            shown[col] = shown[col].map(lambda v: "" if pd.isna(v) else f"{v:.{digits}f}" if v >= 10**-digits else f"{v:.1e}")
        elif pd.api.types.is_float_dtype(shown[col]):
            shown[col] = shown[col].map(lambda v: "" if pd.isna(v) else f"{v:.{digits}f}")
    return shown.to_string(index=False)


def render(frame: pd.DataFrame, columns: Sequence[str], fmt: str, digits: int = 4) -> str:
    """The frame as ``table``, ``json`` (list of flat records) or ``csv`` (full precision)."""
    if fmt == "json":
        return json.dumps(to_records(frame, columns), indent=1, ensure_ascii=False)
    if fmt == "csv":
        buffer = io.StringIO()
        frame[list(columns)].to_csv(buffer, index=False, float_format="%.10g")
        return buffer.getvalue().rstrip("\n")
    return format_table(frame, columns, digits)


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

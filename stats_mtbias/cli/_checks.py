"""Checks around the work: options that would have no effect, paths checked before it, results without information."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pandas as pd


@dataclass(frozen=True)
class Conditional:
    """An option that only matters in some modes: said when given elsewhere, never silently dropped."""

    dest: str
    default: object
    applies: Callable[[argparse.Namespace], bool]
    when: str  # "--compare", or a sentence starting with "(" or "here"

    def message(self) -> str:
        flag = "--" + self.dest.replace("_", "-")
        if self.when.startswith("-"):
            return f"{flag} has no effect here: it applies only with {self.when}"
        return f"{flag} has no effect here {self.when}".rstrip()


def ignored(args: argparse.Namespace, rules: Sequence[Conditional]) -> list[str]:
    """The messages of options given (away from their default) in a mode that does not use them."""
    return [rule.message() for rule in rules
            if hasattr(args, rule.dest) and getattr(args, rule.dest) != rule.default and not rule.applies(args)]  # fmt: skip


def inputs(args: argparse.Namespace) -> list[str]:
    """Every input path given, so that no output overwrites one."""
    found: list = []
    for name in ("translations", "judgements", "reference", "annotations"):
        value = getattr(args, name, None)
        found += value if isinstance(value, list) else [value]
    return [v for v in found if isinstance(v, str) and v != "bls"]


def precheck(args: argparse.Namespace, *, out_dir: bool = False, cache: bool = False) -> None:
    """Every output and cache path is checked before the work starts (never a traceback after it).

    Parameters
    ----------
    out_dir : bool
        ``--out`` names a directory (the report), not a file.
    cache : bool
        The work writes the readings cache (WinoMT): it must be writable.
    """
    from stats_mtbias._cache import check_cache_writable
    from stats_mtbias._files import check_output, check_writable_dir

    out = getattr(args, "out", None)
    if out and out_dir:
        check_writable_dir(out, "--out")
    elif out:
        check_output(out, inputs(args))
        check_output(str(out) + ".provenance.json", inputs(args))
    for option in ("curve", "screenshot"):
        if getattr(args, option, None):
            check_output(getattr(args, option), inputs(args), what=f"--{option}")
    if cache:
        check_cache_writable()


def degenerate(frame) -> list[str]:
    """Results without information: no rows, every estimate undefined, or rows over no judged output."""
    if not isinstance(frame, pd.DataFrame) or not len(frame):
        return ["the result has no rows"]
    notes = []
    if "n" in frame and pd.api.types.is_numeric_dtype(frame["n"]):
        empty = int((frame["n"] == 0).sum())
        if empty:
            notes.append(f"{empty} of {len(frame)} rows rest on no judged output (n = 0): their estimates are undefined")
    numeric = [c for c in frame.columns if pd.api.types.is_float_dtype(frame[c])]
    if numeric and frame[numeric].isna().all(axis=None):
        notes.append("every estimate is undefined (NaN): nothing in the input could be judged")
    return notes

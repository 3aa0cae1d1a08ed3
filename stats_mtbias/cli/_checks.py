"""Checks around the work: options that would have no effect, paths checked before it, results without information."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from stats_mtbias._cache import check_cache_writable
from stats_mtbias._files import check_output, check_outside, check_writable_dir, is_special
from stats_mtbias.cli._options import cli_default
from stats_mtbias.errors import DataNotFoundError, UsageError


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


def conditionals(options) -> list[Conditional]:
    """The rules of a study's options that apply only in some modes, from their fields (``applies``)."""
    return [
        Conditional(item.dest, cli_default(item), item.applies.test, item.applies.when)
        for item in options.info()
        if item.applies is not None
    ]


def ignored(args: argparse.Namespace, rules: Sequence[Conditional]) -> list[str]:
    """The messages of options given (away from their default) in a mode that does not use them."""
    return [
        rule.message()
        for rule in rules
        if hasattr(args, rule.dest) and getattr(args, rule.dest) != rule.default and not rule.applies(args)
    ]


INPUTS = ("translations", "judgements", "reference", "annotations", "labels", "outputs")
COLUMNS = {"rates": ("labels",)}  # an input's name that is a column of the table in these commands (rates --labels COL)


def inputs(args: argparse.Namespace, *, options: bool = False) -> list:
    """Every input path given (with its option: ``(option, path)``), so that no output overwrites one."""
    found: list = []
    for name in INPUTS:
        if name in COLUMNS.get(getattr(args, "command", None), ()):
            continue
        value = getattr(args, name, None)
        found += [(name, v) for v in (value if isinstance(value, list) else [value])]
    found = [(name, v) for name, v in found if isinstance(v, str) and v != "bls"]
    return found if options else [v for _, v in found]


def protected(args: argparse.Namespace) -> tuple[list, list]:
    """What no output may overwrite: ``(files, directories)`` — every input file (a ``--mapping`` or ``--lexicon``
    given as a file included) and the data directory the run reads (``--data-dir``, else ``MTBIAS_DATA``)."""
    import os

    files = inputs(args)
    for name in ("mapping", "lexicon"):
        value = getattr(args, name, None)
        if isinstance(value, str) and Path(value).expanduser().is_file():
            files.append(value)
    directories = [getattr(args, "data_dir", None) or os.environ.get("MTBIAS_DATA") or None]
    return files, directories


def check_inputs(args: argparse.Namespace) -> None:
    """An input that is not there is missing input (exit 66), said before the work; a glob is the library's to expand."""

    for name, value in inputs(args, options=True):
        if not any(c in value for c in "*?[") and not Path(value).expanduser().exists():
            raise DataNotFoundError(f"--{name} {value}: no such file or directory.")


def precheck(args: argparse.Namespace, *, out_dir: bool = False, cache: bool = False) -> None:
    """Every output and cache path is checked before the work starts (never a traceback after it).

    Parameters
    ----------
    out_dir : bool
        ``--out`` names a directory (the report), not a file.
    cache : bool
        The work writes the readings cache (WinoMT): it must be writable.
    """
    if getattr(args, "compare", False) and getattr(args, "view", None):
        raise UsageError(f"--compare prints the comparisons; --view {args.view} another view: give one of them.")
    check_inputs(args)

    out = getattr(args, "out", None)
    files, directories = protected(args)
    if out and out_dir:
        check_outside(out, directories)
        check_writable_dir(out, "--out")
    elif out:
        check_output(out, files, protected=directories)
        if not is_special(out):
            check_output(str(out) + ".provenance.json", files, protected=directories)
    for option in ("curve", "screenshot"):
        if getattr(args, option, None):
            check_output(getattr(args, option), files, what=f"--{option}", protected=directories)
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

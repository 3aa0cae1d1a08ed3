"""``stats-mtbias agreement``: raw agreement and Cohen's κ of two label columns of any benchmark, per group."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import stats_mtbias as smb
from stats_mtbias import options as vocabulary
from stats_mtbias.api import _read_delimited as read_delimited
from stats_mtbias.cli import _checks, _options, _views
from stats_mtbias.cli._output import Output
from stats_mtbias.errors import DataError, DataNotFoundError, UsageError

NAME = "agreement"
OPTIONS = vocabulary.AgreementOptions
CHECK_DEGENERATE = True
DEFAULT_VIEW = "agreement"
SHARES = {"agreement": ("agreement", "ci_low", "ci_high")}
# Cohen's κ is a coefficient in [-1, 1], not a share: its rows of the tidy table are shown as they are.
NOT_SHARES = ("kappa",)


def add_parser(sub) -> argparse.ArgumentParser:
    parser = sub.add_parser(
        NAME,
        help="any labels: raw agreement and Cohen's kappa of two label columns, per group",
        description="Raw agreement (Wilson's interval) and Cohen's kappa (an interval that holds "
        "near 1) of two label columns of any table (an LLM judge against people, two annotators, "
        "two readers), per group and over all, with the confusion table. Labels are compared after "
        "stripping spaces and lower-casing; a row with an empty label is left out and counted "
        "(--view accounting).",
    )
    parser.add_argument("--labels", metavar="FILE", required=True, help="one row per labelled unit: CSV, Parquet or Arrow")
    _options.add_options(parser, OPTIONS)
    parser.add_argument(
        "--mapping",
        metavar="FILE|K=V,…",
        help="labels rewritten before comparing, in both columns: 'error=unknown,b=both', or a file "
        "(a JSON object, or a CSV whose first two columns are the label and what it becomes)",
    )
    _options.add_strict(parser)
    _options.add_format(parser)
    _options.add_show(parser)
    _options.add_view(
        parser, vocabulary.FRAMES[NAME], DEFAULT_VIEW, "; agreement: a row per group with agreement and kappa and their intervals"
    )
    return parser


def _pairs(text: str) -> dict[str, str]:
    mapping = {}
    for part in [p.strip() for p in text.split(",") if p.strip()]:
        label, sep, value = part.partition("=")
        if not sep or not label.strip():
            raise UsageError(f"--mapping {text}: {part!r} is not LABEL=VALUE (or name a file that exists).")
        mapping[label.strip()] = value.strip()
    return mapping


def _file(path: Path) -> dict[str, str]:
    if path.suffix.lower() == ".json":
        try:
            text = path.read_text("utf-8-sig")
        except (OSError, UnicodeDecodeError) as exc:
            raise DataError(f"cannot be read ({exc})", path) from None
        try:
            found = json.loads(text)
        except ValueError as exc:
            raise DataError(f"is not JSON ({exc})", path) from None
        if not isinstance(found, dict):
            raise DataError("is not a JSON object {label: value}", path)
        return {str(k): str(v) for k, v in found.items()}

    rows = read_delimited(path)  # the package's one CSV dialect: its errors name the line
    if not rows or len(rows[0][1]) < 2:
        raise DataError("needs a header and two columns: the label and what it becomes", path, 1)
    mapping = {}
    for number, row in rows[1:]:
        if not any(cell.strip() for cell in row):
            continue
        if len(row) < 2:
            raise DataError("has fewer than two columns", path, number)
        mapping[row[0].strip()] = row[1].strip()
    return mapping


def mapping(text: str | None) -> dict[str, str] | None:
    """``--mapping``: ``K=V,…`` pairs, or a JSON or CSV file of them (a file that is not there: exit 66)."""
    if text is None:
        return None
    path = Path(text).expanduser()
    if path.is_file():
        return _file(path)
    if "=" in text:
        return _pairs(text)
    raise DataNotFoundError(f"--mapping {text}: no such file (nor LABEL=VALUE pairs).")


def precheck(args: argparse.Namespace) -> None:
    _checks.precheck(args)  # --out that names the --mapping file is refused there
    args.mapping = mapping(args.mapping)  # a bad --mapping before the work


def run(args: argparse.Namespace) -> Output:
    res = smb.agreement(args.labels, mapping=args.mapping, **_options.values(args, OPTIONS))
    return _views.view(res, _views.chosen(args, DEFAULT_VIEW), SHARES, not_shares=NOT_SHARES)

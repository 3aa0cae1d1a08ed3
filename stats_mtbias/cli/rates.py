"""``stats-mtbias rates``: female, male and neutral shares and the male − female gap of any judgement table."""

from __future__ import annotations

import argparse

import stats_mtbias as smb
from stats_mtbias import options as vocabulary
from stats_mtbias.cli import _checks, _options, _views
from stats_mtbias.cli._output import Output

NAME = "rates"
CHECK_DEGENERATE = True
DEFAULT_VIEW = "estimates"
SHARES = {"estimates": _views.TABLE_SHARES, "group_differences": ("diff", "ci_low", "ci_high")}

OPTIONS = vocabulary.RatesOptions
CONDITIONAL = [
    *_checks.conditionals(OPTIONS),
    _checks.Conditional("data_dir", None, lambda a: False, "(rates reads only --judgements)"),
]


def add_parser(sub) -> argparse.ArgumentParser:
    parser = sub.add_parser(
        NAME,
        help="any benchmark: female, male, neutral shares and the gap of your judgements",
        description="Female, male and neutral shares and the male − female gap per system and "
        "group of any judgement table (one row per judgement), with cluster-bootstrap or analytic "
        "intervals; --compare: the systems on shared clusters. The table is counted as it streams "
        "(CSV, Parquet, Arrow; a directory or a quoted glob).",
    )
    _options.add_study(parser)
    parser.add_argument(
        "--judgements",
        metavar="FILE",
        required=True,
        help="your judgements: CSV, Parquet or Arrow, a directory or a quoted glob of them",
    )
    _options.add_options(parser, OPTIONS)
    _options.add_old_ci(parser)
    _options.renamed(parser, "--system", "system", "--system-column", type=_options.column, metavar="COL")
    _options.add_engine(
        parser, vocabulary.COUNTING_ENGINES, "count --judgements here with Arrow (auto) or on a Dask cluster (dask)"
    )
    parser.add_argument("--compare", action="store_true", help="print the paired differences between systems")
    _options.add_margin(parser)
    _options.add_view(parser, vocabulary.FRAMES[NAME], DEFAULT_VIEW)
    return parser


def run(args: argparse.Namespace) -> Output:
    with _options.dask_client(args.scheduler):
        res = smb.rates(
            args.judgements,
            rng=args.seed,
            engine=_options.engine(args),
            **_options.values(args, OPTIONS),
        )
    notes = _views.accounting_notes(res, ("female", "male", "neutral", "both"), "{system}: {n} judgements {outcome} (not in n)")
    return _views.view(res, _views.chosen(args, DEFAULT_VIEW), SHARES, notes=notes, margin=args.margin)

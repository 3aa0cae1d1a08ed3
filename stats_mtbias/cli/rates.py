"""``stats-mtbias rates``: female, male and neutral shares and the male − female gap of any judgement table."""

from __future__ import annotations

import argparse

from stats_mtbias import _defaults
from stats_mtbias import options as vocabulary
from stats_mtbias.cli import _options, _views
from stats_mtbias.cli._checks import Conditional
from stats_mtbias.cli._output import Output

NAME = "rates"
CHECK_DEGENERATE = True
DEFAULT_VIEW = "estimates"
SHARES = {"estimates": _views.TABLE_SHARES, "group_differences": ("diff", "ci_low", "ci_high")}

CONDITIONAL = [
    Conditional(
        "correction",
        _defaults.CORRECTION,
        lambda a: a.compare or a.view == "group_differences",
        "--compare or --view group_differences",
    ),
    Conditional("family", "metric", lambda a: a.compare, "--compare"),
    Conditional("against", None, lambda a: a.compare, "--compare"),
    Conditional("interval", "percentile", lambda a: a.ci == "bootstrap", "--ci bootstrap"),
    Conditional("n_boot", _defaults.N_BOOT, lambda a: a.ci == "bootstrap", "--ci bootstrap"),
    Conditional("data_dir", None, lambda a: False, "(rates reads only --judgements)"),
]


def _column(text: str) -> str | None:
    """A column name; '' for none."""
    return text.strip() or None


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
    parser.add_argument(
        "--outcome",
        default="gender",
        metavar="COL",
        help="column of the gender found: female, male, neutral, both, unknown (or f/m/n/?) (default gender)",
    )
    parser.add_argument(
        "--gold",
        type=_column,
        default=None,
        metavar="COL",
        help="column of the gender each output should have (female, male, neutral): adds accuracy, "
        "accuracy_female, accuracy_male and accuracy_gap (male − female)",
    )
    parser.add_argument(
        "--by",
        default="",
        metavar="COLS",
        help="grouping columns, comma-separated (subsets, languages, occupations); a column called "
        "language is the table's language; an 'all' group is added",
    )
    parser.add_argument(
        "--system",
        type=_column,
        default="system",
        metavar="COL",
        help="column naming the system (default system; '' for one system)",
    )
    parser.add_argument(
        "--cluster",
        type=_column,
        default="item",
        metavar="COL",
        help="column of the resampling unit (prompt, template): its judgements are resampled together "
        "(default item; '' for every row its own)",
    )
    parser.add_argument(
        "--sample",
        type=_column,
        default=None,
        metavar="COL",
        help="column telling several outputs of a cluster apart (an LLM sampled k times): each "
        "cluster's known samples are averaged (an unknown one counts as absent), clusters stay the unit; "
        "--view consistency: how the samples agree",
    )
    parser.add_argument(
        "--strata",
        type=_column,
        default=None,
        metavar="COL",
        help="column of fixed-size strata the clusters are resampled within",
    )
    parser.add_argument(
        "--ci",
        choices=vocabulary.RATES_CI,
        default="bootstrap",
        help="the cluster bootstrap (default), or Wilson on the effective sample size",
    )
    parser.add_argument(
        "--interval", choices=vocabulary.BOOTSTRAP_INTERVALS, default="percentile", help="bootstrap interval method"
    )
    _options.add_engine(
        parser, vocabulary.COUNTING_ENGINES, "count --judgements here with Arrow (auto) or on a Dask cluster (dask)"
    )
    parser.add_argument("--compare", action="store_true", help="print the paired differences between systems")
    _options.add_comparisons(parser)
    _options.add_view(parser, vocabulary.FRAMES[NAME], DEFAULT_VIEW)
    return parser


def run(args: argparse.Namespace) -> Output:
    import stats_mtbias as smb

    with _options.dask_client(args.scheduler):
        res = smb.rates(
            args.judgements,
            outcome=args.outcome,
            by=_options.names(args.by),
            system=args.system,
            cluster=args.cluster,
            strata=args.strata,
            n_boot=args.n_boot,
            rng=args.seed,
            level=args.level,
            ci=args.ci,
            interval=args.interval,
            engine=_options.engine(args),
            sample=args.sample,
            gold=args.gold,
            **_views.comparisons(args),
        )
    notes = _views.accounting_notes(res, ("female", "male", "neutral", "both"), "{system}: {n} judgements {outcome} (not in n)")
    return _views.view(res, _views.chosen(args, DEFAULT_VIEW), SHARES, notes=notes)

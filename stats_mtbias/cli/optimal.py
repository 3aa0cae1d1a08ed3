"""``stats-mtbias optimal``: the optimal-translator bias B (Farkas & Németh) against a reference female share."""

from __future__ import annotations

import argparse

import stats_mtbias as smb
from stats_mtbias import options as vocabulary
from stats_mtbias.cli import _options, _views
from stats_mtbias.cli._output import Output
from stats_mtbias.errors import UsageError

NAME = "optimal"
OPTIONS = vocabulary.OptimalOptions
CHECK_DEGENERATE = True
DEFAULT_VIEW = "sectors"
_HEADLINE = ("minority", "he_given_female_dominated", "she_given_male_dominated")
SHARES = {
    "occupations": ("female_share", "female_rate"),
    "categories": (),
    "sectors": ("top_share",),
    "headline": (*[f"{m}{s}" for m in _HEADLINE for s in ("", "_ci_low", "_ci_high")], "should_be_she"),
}
# B is a ratio, not a share: its rows of the tidy table are shown as they are.
NOT_SHARES = ("b",)
# The old --by spellings of the views.
OLD_BY = {"occupation": "occupations", "category": "categories", "sector": "sectors", "headline": "headline"}


def add_parser(sub) -> argparse.ArgumentParser:
    parser = sub.add_parser(
        NAME,
        help="optimal-translator bias B (Farkas & Németh) against a reference",
        description="B per occupation, category and sector, and the headline shares, of the "
        "Prates languages or your judgements, against the BLS or your reference shares.",
    )
    _options.add_study(parser)
    parser.add_argument(
        "--reference",
        default="bls",
        metavar="bls|FILE",
        help="built-in BLS shares, or a CSV occupation,female_share[,weight,category,sector] (or "
        "n_female,n_total, or survey answers answer_1..answer_6)",
    )
    parser.add_argument(
        "--judgements",
        metavar="FILE",
        help="your judgements occupation,gender[,system,language,category]: CSV, Parquet or Arrow, a "
        "directory or a quoted glob of them; counted as they stream (any language code)",
    )
    _options.add_engine(
        parser, vocabulary.COUNTING_ENGINES, "count --judgements here with Arrow (auto) or on a Dask cluster (dask)"
    )
    parser.add_argument("--languages", default=None, help="Prates languages, comma-separated (default: all twelve)")
    _options.add_options(parser, OPTIONS)
    _options.add_view(parser, vocabulary.FRAMES[NAME], DEFAULT_VIEW)
    _options.renamed(parser, "--by", "view", "--view {value}", mapping=OLD_BY, choices=tuple(OLD_BY))
    return parser


def run(args: argparse.Namespace) -> Output:
    engine = _options.engine(args)
    if engine == "dask" and not args.judgements:
        raise UsageError("--engine dask / --scheduler count your --judgements on a cluster; give --judgements.")
    with _options.dask_client(args.scheduler):
        res = smb.optimal(
            args.judgements,
            reference=args.reference,
            data_dir=args.data_dir,
            languages=_options.names(args.languages) or None,
            rng=args.seed,
            engine=engine,
            **_options.values(args, OPTIONS),
        )
    return _views.view(res, args.view or DEFAULT_VIEW, SHARES, not_shares=NOT_SHARES)

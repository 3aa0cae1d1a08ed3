"""``stats-mtbias tgbi``: TGBI (Cho et al. 2019), P_S per sentence set and the index (the Korean sets or yours)."""

from __future__ import annotations

import argparse

import stats_mtbias as smb
from stats_mtbias import _defaults
from stats_mtbias import options as vocabulary
from stats_mtbias.cli import _checks, _options, _views
from stats_mtbias.cli._output import Output

NAME = "tgbi"
CHECK_DEGENERATE = True
DEFAULT_VIEW = "estimates"
SHARES = {"estimates": ("female", "male", "neutral", "p_s", "ci_low", "ci_high")}


OPTIONS = vocabulary.TGBIOptions
CONDITIONAL = _checks.conditionals(OPTIONS)


def _permutations(args) -> bool:
    return args.compare and args.test == "permutation"


def add_parser(sub) -> argparse.ArgumentParser:
    parser = sub.add_parser(
        NAME,
        help="TGBI (Cho et al. 2019): P_S per sentence set and the index",
        description="P_S per sentence set and the TGBI index per system, with score/MOVER or "
        "cluster-bootstrap intervals; --compare: paired differences between systems. The shipped "
        "Korean sets (--systems, --translations) or a benchmark of your own (--outputs: any sets, "
        "any source language).",
    )
    _options.add_study(parser)
    parser.add_argument(
        "--systems",
        default=None,
        help="shipped systems, comma-separated (default google,papago,kakao, none with --outputs; '' for none)",
    )
    parser.add_argument(
        "--outputs",
        metavar="FILE",
        help="a benchmark of your own: CSV or Parquet system,set,item,translation (English outputs) "
        "or system,set,item,gender (already read, e.g. by stats-mtbias read tgbi); any set names and "
        "source language; item names the lexicon entry, the resampling cluster",
    )
    parser.add_argument(
        "--translations",
        action="append",
        default=[],
        metavar="PATH",
        help="your own outputs: a directory of total_<system>_<set>.txt files or a CSV item,set,translation (repeatable)",
    )
    parser.add_argument(
        "--system", action="append", default=[], metavar="NAME", help="name of the system in the matching --translations"
    )
    _options.add_options(parser, OPTIONS, old={"test": {"bootstrap": "interval"}})
    _options.add_old_ci(parser)
    _options.renamed(parser, "--keep-repeated", "repeated_blocks", "--repeated-blocks keep", flag_value="keep")
    _options.renamed(parser, "--exclude-repeated-mine", "repeated_blocks", "--repeated-blocks all", flag_value="all")
    parser.add_argument("--compare", action="store_true", help="print the paired differences between systems")
    _options.add_margin(parser)
    _options.add_view(parser, vocabulary.FRAMES[NAME], DEFAULT_VIEW)
    return parser


def run(args: argparse.Namespace) -> Output:
    n_permutations = args.n_permutations
    if _permutations(args) and args.n_boot != _defaults.N_BOOT and args.n_permutations == _defaults.N_PERMUTATIONS:
        _options.deprecate(args, "--n-boot for the permutations of --test permutation", "--n-permutations")
        n_permutations = args.n_boot  # the old spelling
    res = smb.tgbi(
        _options.names(args.systems),
        translations=_options.named(args.translations, args.system),
        outputs=args.outputs,
        data_dir=args.data_dir,
        rng=args.seed,
        **{**_options.values(args, OPTIONS), "n_permutations": n_permutations},
    )
    notes = _views.accounting_notes(res, ("judged",), "{system} {subset}: {n} lines {outcome} (counted as unknown, not in n)")
    return _views.view(res, _views.chosen(args, DEFAULT_VIEW), SHARES, notes=notes, margin=args.margin)

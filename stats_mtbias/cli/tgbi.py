"""``stats-mtbias tgbi``: TGBI (Cho et al. 2019), P_S per sentence set and the index (the Korean sets or yours)."""

from __future__ import annotations

import argparse

from stats_mtbias import _defaults
from stats_mtbias import options as vocabulary
from stats_mtbias.cli import _options, _views
from stats_mtbias.cli._checks import Conditional
from stats_mtbias.cli._output import Output

NAME = "tgbi"
CHECK_DEGENERATE = True
DEFAULT_VIEW = "estimates"
SHARES = {"estimates": ("female", "male", "neutral", "p_s", "ci_low", "ci_high")}


def _permutations(args) -> bool:
    return args.compare and args.test == "permutation"


CONDITIONAL = [
    Conditional("correction", _defaults.CORRECTION, lambda a: a.compare, "--compare"),
    Conditional("family", "metric", lambda a: a.compare, "--compare"),
    Conditional("against", None, lambda a: a.compare, "--compare"),
    Conditional("test", "bootstrap", lambda a: a.compare, "--compare"),
    Conditional("interval", "percentile", lambda a: a.ci == "bootstrap", "--ci bootstrap"),
    Conditional("n_boot", _defaults.N_BOOT, lambda a: a.ci == "bootstrap" or _permutations(a), "--ci bootstrap"),
    Conditional("n_permutations", _defaults.N_RESAMPLES, _permutations, "--compare --test permutation"),
    Conditional("sample", None, lambda a: a.outputs, "--outputs"),
]


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
        "--sample",
        metavar="COL",
        help="column of --outputs numbering several outputs of one item (an LLM sampled k times): "
        "they stay in their item's cluster",
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
    parser.add_argument("--lexicon", choices=vocabulary.LEXICONS, default="default", help="gender cue rule")
    parser.add_argument(
        "--ci",
        choices=vocabulary.TGBI_CI,
        default="analytic",
        help="score intervals on g with MOVER (default), or the cluster bootstrap",
    )
    parser.add_argument(
        "--interval", choices=vocabulary.BOOTSTRAP_INTERVALS, default="percentile", help="bootstrap interval method"
    )
    parser.add_argument(
        "--test",
        choices=vocabulary.TGBI_TESTS,
        default="bootstrap",
        help="p-values of --compare: the interval's own method, or approximate randomisation",
    )
    parser.add_argument(
        "--n-permutations",
        type=_options.n_boot,
        default=_defaults.N_RESAMPLES,
        help=f"permutations of --test permutation (default {_defaults.N_RESAMPLES})",
    )
    parser.add_argument("--both", choices=vocabulary.BOTH_RULES, default="neutral", help="outputs showing both genders")
    parser.add_argument(
        "--repeated-blocks",
        choices=vocabulary.REPEATED_BLOCKS,
        default="exclude",
        help="copy-paste runs repeating other items' outputs: unknown in the shipped files (exclude, "
        "the default; yours kept with a warning), also in yours (all), or kept everywhere as the "
        "authors did (keep)",
    )
    _options.renamed(parser, "--keep-repeated", "repeated_blocks", "--repeated-blocks keep", flag_value="keep")
    _options.renamed(parser, "--exclude-repeated-mine", "repeated_blocks", "--repeated-blocks all", flag_value="all")
    parser.add_argument("--compare", action="store_true", help="print the paired differences between systems")
    _options.add_comparisons(parser)
    _options.add_view(parser, vocabulary.FRAMES[NAME], DEFAULT_VIEW)
    return parser


def run(args: argparse.Namespace) -> Output:
    import stats_mtbias as smb

    n_permutations = args.n_permutations
    if _permutations(args) and args.n_boot != _defaults.N_BOOT and args.n_permutations == _defaults.N_RESAMPLES:
        _options.deprecate(args, "--n-boot for the permutations of --test permutation", "--n-permutations")
        n_permutations = args.n_boot  # the old spelling
    res = smb.tgbi(
        _options.names(args.systems),
        translations=_options.named(args.translations, args.system),
        outputs=args.outputs,
        sample=args.sample,
        data_dir=args.data_dir,
        lexicon=args.lexicon,
        n_boot=args.n_boot,
        n_permutations=n_permutations,
        repeated_blocks=args.repeated_blocks,
        rng=args.seed,
        level=args.level,
        ci=args.ci,
        interval=args.interval,
        test=args.test,
        both=args.both,
        **_views.comparisons(args),
    )
    notes = _views.accounting_notes(res, ("judged",), "{system} {subset}: {n} lines {outcome} (counted as unknown, not in n)")
    return _views.view(res, _views.chosen(args, DEFAULT_VIEW), SHARES, notes=notes)

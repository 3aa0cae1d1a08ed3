"""``stats-mtbias prates``: Prates et al. (2019), female, male and neutral shares per language and male-default tests."""

from __future__ import annotations

import argparse

import stats_mtbias as smb
from stats_mtbias import options as vocabulary
from stats_mtbias.cli import _checks, _options, _views
from stats_mtbias.cli._output import Output
from stats_mtbias.significance.multitest import CORRECTION_NAMES

NAME = "prates"
CHECK_DEGENERATE = True
DEFAULT_VIEW = "rates"
_DIFF = ("diff", "diff_ci_low", "diff_ci_high")
SHARES = {
    "rates": tuple(f"{g}{s}" for g in ("female", "male", "neutral") for s in ("", "_ci_low", "_ci_high")),
    "tests": _DIFF,
    "reference": ("translated", "reference", *_DIFF),
    "calibration": ("female_at_parity",),
}
# The old print flags, now views.
OLD_VIEWS = ("calibration", "tests", "independence")

OPTIONS = vocabulary.PratesOptions
CONDITIONAL = _checks.conditionals(OPTIONS)


class Reference(argparse.Action):
    """``--reference bls|FILE``; the old ``--reference`` alone (a print flag) is ``--view reference``."""

    def __call__(self, parser, namespace, values, option_string=None):
        if values is None:
            _options.deprecate(namespace, f"{option_string} without a value (print the comparison with BLS)", "--view reference")
            namespace.view = "reference"
        else:
            namespace.reference = values


def add_parser(sub) -> argparse.ArgumentParser:
    parser = sub.add_parser(
        NAME,
        help="Prates et al.: female, male, neutral shares and male-default tests per language",
        description="Female, male and neutral shares per system, language (and category) with "
        "intervals, the male-default tests, the comparison with the BLS reference; several systems "
        "in --judgements are each analysed and compared (--compare).",
    )
    _options.add_study(parser)
    parser.add_argument(
        "--judgements",
        metavar="FILE",
        help="your own CSV: item,language,gender (or item,language,translation), optional system, "
        "category, variant; any language code",
    )
    parser.add_argument("--languages", default=None, help="comma-separated languages (default: all)")
    _options.add_options(parser, OPTIONS)
    parser.add_argument(
        "--reference",
        nargs="?",
        action=Reference,
        default=None,
        metavar="bls|FILE",
        help="the reference shares of --view reference and calibration: the shipped BLS table (bls, "
        "the default) or a BLS-format table of yours",
    )
    _options.renamed(parser, "--reference-file", "reference", "--reference FILE", metavar="FILE")
    for view in OLD_VIEWS:
        _options.renamed(parser, f"--{view}", "view", f"--view {view}", flag_value=view)
    parser.add_argument(
        "--compare", action="store_true", help="print the comparisons between the systems of --judgements, on shared occupations"
    )
    _options.add_margin(parser)
    _options.add_view(parser, vocabulary.FRAMES[NAME], DEFAULT_VIEW)
    return parser


def run(args: argparse.Namespace) -> Output:
    res = smb.prates(
        args.judgements,
        data_dir=args.data_dir,
        languages=_options.names(args.languages) or None,
        reference=None if args.reference in (None, "bls") else args.reference,
        rng=args.seed,
        **_options.values(args, OPTIONS),
    )
    name = _views.chosen(args, DEFAULT_VIEW)
    notes = []
    if name == "calibration" and "calibration" in res.frames:
        notes = [f"{row['language']}: {row['note']}" for row in res.frames["calibration"].to_dict("records") if row["note"]]
    if name == "independence":
        notes = [f"p_adjusted: {CORRECTION_NAMES[args.correction]} over the per-language category × gender tests"]
    notes += _views.accounting_notes(res, ("judged",), "{system} {language}: {n} rows {outcome} (counted in n_unknown, not in n)")
    return _views.view(res, name, SHARES, notes=notes, margin=args.margin)

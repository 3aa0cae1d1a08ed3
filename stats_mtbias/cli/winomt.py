"""``stats-mtbias winomt``: WinoMT (Stanovsky et al. 2019), Acc, F1, ΔG, ΔS per system and target language."""

from __future__ import annotations

import argparse

import stats_mtbias as smb
from stats_mtbias import options as vocabulary
from stats_mtbias.cli import _checks, _options, _views
from stats_mtbias.cli._output import Output, table_text

NAME = "winomt"
CHECK_DEGENERATE = True
DEFAULT_VIEW = "estimates"
AGREEMENT = ("agreement", "ci_low", "ci_high")
SHARES = {
    "adjectives": ("acc", "acc_adj", "change", "change_ci_low", "change_ci_high"),
    "corrected": (
        "acc",
        "acc_corrected",
        "ci_low",
        "ci_high",
        "human_correct_given_auto_correct",
        "human_correct_given_auto_wrong",
    ),
    "validation": (*AGREEMENT, "agreement_outside", "ci_low_outside", "ci_high_outside"),
    "annotations": AGREEMENT,
    "annotators": AGREEMENT,
    "consistency": ("disagree", "disagree_ci_low", "disagree_ci_high", "female", "female_ci_low", "female_ci_high"),
}
# The views that need the study to compute more: the API option each turns on.
NEEDS = {
    "validation": "validate",
    "confusions": "validate",
    "inter_annotator": "validate",
    "unread": "explain",
    "corrected": "corrected",
}

OPTIONS = vocabulary.WinoMTOptions
CONDITIONAL = _checks.conditionals(OPTIONS)


def add_parser(sub) -> argparse.ArgumentParser:
    parser = sub.add_parser(
        NAME,
        help="WinoMT (Stanovsky et al. 2019): Acc, ΔG, ΔS per system and language",
        description="Acc, F1, ΔG and ΔS per system and target language with intervals, of the "
        "shipped systems and yours (translations read here, or your judgements).",
    )
    _options.add_study(parser)
    parser.add_argument(
        "--systems", default=None, help="shipped systems, comma-separated (default: all five, or none with your own data)"
    )
    parser.add_argument(
        "--languages",
        default=None,
        help=f"target languages, comma-separated (default: every one with a reader: {', '.join(vocabulary.winomt_languages())}; "
        "or your files'); one language names that of a --translations file not called en-XX.txt",
    )
    _options.renamed(parser, "--lang", "languages", "--languages")
    parser.add_argument(
        "--translations",
        action="append",
        default=[],
        metavar="PATH",
        help="your own outputs: an en-XX.txt file of 'source ||| translation' lines, or a directory of them (repeatable)",
    )
    parser.add_argument("--system", action="append", default=[], metavar="NAME", help="name of the matching --translations")
    parser.add_argument(
        "--judgements", metavar="FILE", help="your own readings instead: CSV item,system,language,gender (any language code)"
    )
    parser.add_argument("--no-adjectives", action="store_true", help="skip the '+Adj' files")
    _options.add_options(parser, OPTIONS)
    _options.add_engine(
        parser,
        vocabulary.READING_ENGINES,
        "where translations not yet cached are read, a language a task: processes here (auto) or the Dask scheduler",
    )
    parser.add_argument(
        "--annotations",
        metavar="FILE",
        help="your human labels: CSV item,system,language,gender[,annotator] (item 0-based, gender "
        "M/F/N): agreement with the reading (view annotations), between annotators (annotators) and "
        "Acc corrected with them (corrected)",
    )
    parser.add_argument("--compare", action="store_true", help="print the paired comparisons of systems per language")
    _options.add_margin(parser)
    _options.add_view(
        parser, vocabulary.FRAMES[NAME], DEFAULT_VIEW, "; --validate, --corrected, --explain and --annotations show theirs"
    )
    return parser


def precheck(args: argparse.Namespace) -> None:
    _checks.precheck(args, cache=True)  # alignments and readings are cached


def _default_view(args: argparse.Namespace) -> str:
    for flag, name in (
        ("validate", "validation"),
        ("corrected", "corrected"),
        ("explain", "unread"),
        ("annotations", "annotations"),
    ):
        if getattr(args, flag):
            return name
    return DEFAULT_VIEW


def run(args: argparse.Namespace) -> Output:
    name = _views.chosen(args, _default_view(args))
    # Several views need one option (validation, confusions, inter_annotator): any of them turns it on.
    wanted = {
        option: bool(getattr(args, option)) or any(name == v for v, o in NEEDS.items() if o == option)
        for option in dict.fromkeys(NEEDS.values())
    }
    if name == "corrected" and args.annotations:
        wanted["corrected"] = args.corrected  # your labels correct your systems; --corrected adds the shipped ones
    with _options.dask_client(args.scheduler):
        res = smb.winomt(
            _options.names(args.systems),
            translations=_options.named(args.translations, args.system),
            judgements=args.judgements,
            languages=_options.names(args.languages) or None,
            data_dir=args.data_dir,
            adjectives=not args.no_adjectives,
            annotations=args.annotations,
            rng=args.seed,
            engine=_options.engine(args),
            **{**_options.values(args, OPTIONS), **wanted},
        )
    metrics = list(dict.fromkeys(res.table["metric"]))
    shares = {**SHARES, "estimates": ("coverage", *[f"{m}{s}" for m in metrics for s in ("", "_ci_low", "_ci_high")])}
    notes = []
    if name == "unread" and len(res.frames.get("unread", ())):
        counts = res.frames["unread"].groupby(["system", "language", "why"]).size()
        notes.append("unread items by reason:\n" + counts.to_string())
    if name == "validation":
        notes.append(
            "n_conflict: translations whose entity reads as one gender and whose translated pronoun as the "
            "other; n_conflict_pronoun: of those, labelled by the annotator with the pronoun's gender; "
            "*_outside: agreement on the other translations."
        )
    if name == "annotations":
        between = res.frames.get("annotators")
        if between is not None and len(between):
            notes.append("Between your annotators (items both labelled):\n" + table_text(between, AGREEMENT))
        corrected = res.frames.get("corrected")
        if corrected is not None and len(corrected):
            notes.append(
                "Acc corrected with your labels (--view corrected for the full table):\n"
                + table_text(
                    corrected[["system", "language", "acc", "acc_corrected", "ci_low", "ci_high", "n_labelled"]],
                    SHARES["corrected"],
                )
            )
    return _views.view(res, name, shares, notes=notes, margin=args.margin)

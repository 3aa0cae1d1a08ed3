"""``stats-mtbias read {tgbi,prates,winomt}``: outputs read into genders, one row per output, written to a file.

The table ``smb.read`` returns — the gender read and why — is the one every
study's ``--judgements`` (TGBI: ``--outputs``) takes, so a reading can be
inspected, corrected by hand and fed back. ``--out`` is CSV or Parquet by its
suffix, written atomically and checked before the work; the counts per system
and set (or language) are printed.
"""

from __future__ import annotations

import argparse
import io
from pathlib import Path

import pandas as pd

import stats_mtbias as smb
from stats_mtbias import options as vocabulary
from stats_mtbias._files import write_atomic
from stats_mtbias.cli import _checks, _options
from stats_mtbias.cli._output import Output
from stats_mtbias.errors import UsageError

NAME = "read"
SUFFIXES = {".csv": "csv", ".parquet": "parquet", ".pq": "parquet"}
GENDERS = ("female", "male", "neutral", "both", "unknown")


def _out(parser) -> None:
    parser.add_argument(
        "--out", required=True, metavar="FILE", help="the judgement table: CSV (.csv) or Parquet (.parquet, .pq) by its suffix"
    )
    _options.add_show(parser)


def add_parser(sub) -> argparse.ArgumentParser:
    parser = sub.add_parser(
        NAME,
        help="read outputs into genders (one row per output, the gender and why) into a file",
        description="Read outputs into genders without any statistics: one row per output with "
        "the gender read (female, male, neutral, both, unknown) and why (reason). The file is the "
        "table every study's --judgements (tgbi: --outputs) takes: inspect it, correct it, feed it "
        "back.",
    )
    studies = parser.add_subparsers(dest="study", required=True, metavar="{" + ",".join(vocabulary.READERS) + "}")
    tgbi = studies.add_parser(
        "tgbi",
        help="English outputs by the package's TGBI cues",
        description="English outputs by the package's TGBI cues (--lexicon cho2019: the "
        "authors' lists): a benchmark of your own (--outputs) or the shipped systems. Columns: "
        "system, set, item, sample (--sample: under its own name), translation, gender, reason, then "
        "the other columns of --outputs as they came.",
    )
    tgbi.add_argument(
        "--outputs",
        metavar="FILE",
        help="your benchmark: CSV or Parquet system,set,item,translation (any sets, any source "
        "language); without it, the shipped --systems",
    )
    tgbi.add_argument("--sample", metavar="COL", help="column of --outputs numbering several outputs of one item")
    tgbi.add_argument(
        "--referent",
        metavar="COL",
        help="column of --outputs with reference translations, the asked-about words in [brackets] (two people in a "
        "sentence): reads the output's words aligned to them; adds why",
    )
    tgbi.add_argument("--systems", default=None, help="shipped systems, comma-separated (default: all three; not with --outputs)")
    tgbi.add_argument("--lexicon", choices=vocabulary.LEXICONS, default="default", help="gender cue rule")
    tgbi.add_argument(
        "--repeated-blocks",
        choices=vocabulary.REPEATED_BLOCKS,
        default="exclude",
        help="the shipped files' copy-paste runs: unknown (exclude, all) or kept (keep)",
    )
    _options.add_data_dir(tgbi)
    _out(tgbi)
    prates = studies.add_parser(
        "prates",
        help="English outputs by Prates et al.'s rule",
        description="English outputs read as Prates et al. did (a neutral pronoun is neutral, "
        "no pronoun unknown). Columns: system, item, language, category, variant, translation, "
        "gender, reason, then the other columns of --judgements (a sample column too) as they came.",
    )
    prates.add_argument(
        "--judgements", metavar="FILE", required=True, help="CSV item,language,translation (optional system, category, variant)"
    )
    prates.add_argument(
        "--sample", metavar="COL", help="column of --judgements telling several samples of one output apart (kept by its name)"
    )
    prates.add_argument(
        "--referent",
        metavar="COL",
        help="column of --judgements with reference translations, the asked-about words in [brackets]; adds why",
    )
    _out(prates)
    winomt = studies.add_parser(
        "winomt",
        help="translations of WinoMT into a gendered language",
        description="A system's translations of WinoMT aligned and read by the target "
        "language's reader, with the target words read (aligned) and why an item is unknown "
        "(why). Columns: system, language, item, entity, gold, translation, gender, reason, "
        "aligned, why.",
    )
    winomt.add_argument(
        "--translations",
        metavar="PATH",
        required=True,
        help="an en-XX.txt file of 'source ||| translation' lines, or a directory of them",
    )
    winomt.add_argument("--system", default="system", metavar="NAME", help="the system's name (default system)")
    winomt.add_argument(
        "--languages",
        default=None,
        help="target languages, comma-separated (default: the file's); one language names that of a file not called en-XX.txt",
    )
    winomt.add_argument("--aligner", choices=vocabulary.ALIGNERS, default="fastalign", help="word aligner")
    winomt.add_argument(
        "--use-pronoun", action="store_true", help="de/fr: let the translated pronoun override the entity's words"
    )
    _options.add_data_dir(winomt)
    _out(winomt)
    return parser


def precheck(args: argparse.Namespace) -> None:
    if Path(args.out).suffix.lower() not in SUFFIXES:
        raise UsageError(f"--out {args.out}: name a .csv or .parquet file (the format follows the suffix).")
    if args.study == "tgbi" and args.outputs and args.systems is not None:
        raise UsageError("--outputs is a benchmark of its own: it cannot be mixed with the shipped --systems.")
    if args.study == "tgbi" and args.sample and not args.outputs:
        raise UsageError("--sample names a column of --outputs: give --outputs.")
    if args.study == "tgbi" and args.referent and not args.outputs:
        raise UsageError("--referent names a column of --outputs: give --outputs.")
    _checks.precheck(args, cache=args.study == "winomt")  # inputs there, --out writable, before the work


def _read(args: argparse.Namespace) -> pd.DataFrame:
    if args.study == "tgbi":
        return smb.read(
            "tgbi",
            args.outputs,
            systems=_options.names(args.systems),
            lexicon=args.lexicon,
            sample=args.sample,
            referent=args.referent,
            data_dir=args.data_dir,
            repeated_blocks=args.repeated_blocks,
        )
    if args.study == "prates":
        return smb.read("prates", args.judgements, sample=args.sample, referent=args.referent)
    return smb.read(
        "winomt",
        args.translations,
        name=args.system,
        languages=_options.names(args.languages) or None,
        data_dir=args.data_dir,
        aligner=args.aligner,
        use_pronoun=args.use_pronoun,
    )


def write(frame: pd.DataFrame, out: str) -> Path:
    """`frame` to `out` as CSV or Parquet by its suffix, atomically (a temporary file beside it, then a rename)."""
    if SUFFIXES[Path(out).suffix.lower()] == "csv":
        return write_atomic(Path(out), frame.to_csv(index=False))
    buffer = io.BytesIO()
    frame.to_parquet(buffer, index=False)
    return write_atomic(Path(out), buffer.getvalue())


def counts(frame: pd.DataFrame) -> pd.DataFrame:
    """Outputs per system and set (or language) and gender: what the file holds, at a glance."""
    keys = [c for c in ("system", "set", "language") if c in frame.columns]
    table = pd.crosstab([frame[k] for k in keys], frame["gender"]).reindex(columns=list(GENDERS), fill_value=0)
    table.columns.name = None
    return table.assign(n=table.sum(axis=1)).reset_index()


def run(args: argparse.Namespace) -> Output:
    frame = _read(args)
    path = write(frame, args.out)
    provenance = {"command": f"read {args.study}", "out": str(path), "rows": len(frame), "version": _options.version()}
    unknown = frame.loc[frame["gender"] == "unknown", "reason"].value_counts()
    notes = [f"{len(frame)} outputs read into {path}"]
    if len(unknown):
        notes.append("unknown: " + ", ".join(f"{n} {reason or 'no reading'}" for reason, n in unknown.items()))
    return Output(counts(frame), provenance, notes, summary=True)

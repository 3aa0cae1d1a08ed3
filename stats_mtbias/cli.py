"""Command line: ``stats-mtbias <study> [options]``.

Thin on purpose: parse, call the study, render. Library errors map to exit
codes (64 usage, 65 bad data, 66 missing data, 1 other) with a one-line message.

Output: ``--format table`` prints the table and a provenance footer;
``json`` (a list of flat records) and ``csv`` print only the records, and the
provenance goes to stderr as one JSON line — and, with ``--out FILE``, to
``FILE.provenance.json`` beside the output.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import warnings
from pathlib import Path

from stats_mtbias._version import __version__
from stats_mtbias.errors import ConvergenceWarning, DataQualityWarning, MtbiasError, UsageError

MIN_BOOT = 100


def _n_boot(text: str) -> int:
    """``--n-boot``: at least MIN_BOOT, or the 2.5% and 97.5% percentiles and small p-values cannot be read off."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < MIN_BOOT:
        raise argparse.ArgumentTypeError(
            f"{value} is too few: at least {MIN_BOOT} resamples are needed to place a 95% interval's 2.5% and 97.5% "
            "percentiles and to give p-values below 0.01 (10000 for published numbers)"
        )
    return value


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data-dir", help="directory of the public datasets (else $MTBIAS_DATA, else the download cache)")
    parser.add_argument("--seed", type=int, default=0, help="seed of every random number (default 0)")
    parser.add_argument("--n-boot", type=_n_boot, default=10_000,
                        help=f"bootstrap resamples (default 10000, at least {MIN_BOOT})")  # fmt: skip
    parser.add_argument("--strict", action="store_true",
                        help="exit 65 after the output when a data-quality warning or a degenerate result occurs")  # fmt: skip
    parser.add_argument("--level", type=float, default=0.95, help="confidence level (default 0.95)")
    parser.add_argument("--format", choices=("table", "json", "csv"), default="table")
    parser.add_argument("--out", help="write the output to this file instead of stdout (its provenance: FILE.provenance.json)")
    _show_options(parser)


def _show_options(parser: argparse.ArgumentParser) -> None:
    """What is printed besides the result: the provenance on request, nothing else with --quiet."""
    parser.add_argument("--provenance", action="store_true",
                        help="also print the provenance: under a table, or as one JSON line on stderr with json/csv")  # fmt: skip
    parser.add_argument("--quiet", action="store_true", help="print the result only: no notes, warnings or progress")


class _Parser(argparse.ArgumentParser):
    """argparse with the package's exit code for usage errors (64, EX_USAGE) instead of argparse's 2."""

    def error(self, message: str):
        self.print_usage(sys.stderr)
        self.exit(64, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="stats-mtbias", description="Statistics of gender bias in machine translation.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    tgbi = sub.add_parser("tgbi", help="TGBI (Cho et al. 2019): P_S per sentence set and the index")
    _common(tgbi)
    tgbi.add_argument("--systems", default="google,papago,kakao", help="shipped systems, comma-separated ('' for none)")
    tgbi.add_argument("--correction", choices=("holm", "bh", "none"), default="holm", help="adjustment of --compare p-values")
    tgbi.add_argument(
        "--translations",
        action="append",
        default=[],
        metavar="PATH",
        help="your own outputs: a directory of total_<system>_<set>.txt files or a CSV item,set,translation (repeatable)",
    )
    tgbi.add_argument(
        "--system", action="append", default=[], metavar="NAME", help="name of the system in the matching --translations"
    )
    tgbi.add_argument("--lexicon", choices=("default", "cho2019"), default="default", help="gender cue rule")
    tgbi.add_argument("--ci", choices=("analytic", "bootstrap"), default="analytic",
                      help="score intervals on g with MOVER (default), or the cluster bootstrap")  # fmt: skip
    tgbi.add_argument("--interval", choices=("percentile", "bca"), default="percentile", help="bootstrap interval method")
    tgbi.add_argument("--test", choices=("bootstrap", "permutation"), default="bootstrap", help="p-values of --compare")
    tgbi.add_argument("--both", choices=("neutral", "exclude"), default="neutral", help="outputs showing both genders")
    repeated = tgbi.add_mutually_exclusive_group()
    repeated.add_argument("--keep-repeated", action="store_true", help="keep verbatim repeated blocks (as the authors did)")
    repeated.add_argument("--exclude-repeated-mine", action="store_true",
                          help="also count repeated blocks in your --translations as unknown (default: kept, "
                          "with a warning)")  # fmt: skip
    tgbi.add_argument("--compare", action="store_true", help="print the paired differences between systems")
    tgbi.set_defaults(handler=_run_tgbi)

    prates = sub.add_parser("prates", help="Prates et al.: male-default rates and tests per language and category")
    _common(prates)
    prates.add_argument("--languages", default="", help="comma-separated languages (default: all twelve)")
    prates.add_argument("--items", choices=("jobs", "adjectives"), default="jobs", help="occupations or adjectives")
    prates.add_argument(
        "--by",
        choices=("language", "category", "language,category"),
        default="language",
        metavar="BY",
        help="rows per language (default), per category, or per language,category",
    )
    prates.add_argument(
        "--denominator",
        choices=("identified", "all"),
        default="identified",
        help="percentages over identified outputs, or over all rows as the authors did",
    )
    prates.add_argument("--interval", choices=("wilson", "jeffreys", "clopper-pearson"), default="wilson")
    prates.add_argument(
        "--test",
        choices=("exact", "ttest"),
        default="exact",
        help="exact sign test on discordant items, or the authors' paired t-test",
    )
    prates.add_argument("--alpha", type=float, default=0.05, help="significance level of the 'significant' flag (default 0.05)")
    prates.add_argument("--correction", choices=("holm", "bh", "none"), default="holm")
    prates.add_argument(
        "--bengali", choices=("pool", "variants"), default="pool", help="Bengali's six variants as one language or six"
    )
    prates.add_argument("--judgements", metavar="FILE", help="your own CSV: item,language,gender (or item,language,translation)")
    prates.add_argument("--reference-file", metavar="FILE", help="a BLS-format table instead of the shipped one")
    shown = prates.add_mutually_exclusive_group()
    shown.add_argument("--reference", action="store_true", help="print the comparison with the BLS reference")
    shown.add_argument("--calibration", action="store_true", help="print the calibration GLM per language")
    shown.add_argument("--tests", action="store_true", help="print every paired test with effect sizes")
    shown.add_argument("--independence", action="store_true", help="print the tests of independence")
    prates.set_defaults(handler=_run_prates)

    optimal = sub.add_parser("optimal", help="optimal-translator bias B (Farkas & Németh) against a reference")
    _common(optimal)
    optimal.add_argument(
        "--reference",
        default="bls",
        metavar="bls|FILE",
        help="built-in BLS shares, or a CSV occupation,female_share[,weight,category,sector] (or n_female,n_total)",
    )
    optimal.add_argument("--judgements", metavar="FILE",
                         help="your judgements occupation,gender[,system,language,category]: CSV, Parquet or Arrow, "
                              "a directory or a quoted glob of them; counted as they stream")  # fmt: skip
    optimal.add_argument("--engine", choices=("auto", "arrow", "dask"), default="auto",
                         help="count --judgements here with Arrow (auto) or on a Dask cluster (dask)")  # fmt: skip
    optimal.add_argument("--scheduler", metavar="ADDRESS",
                         help="the Dask scheduler to count on (tcp://host:8786); implies --engine dask")  # fmt: skip
    optimal.add_argument("--languages", default="", help="Prates languages, comma-separated (default: all twelve)")
    optimal.add_argument("--by", choices=("occupation", "category", "sector", "headline"), default="sector")
    optimal.add_argument(
        "--neutral",
        choices=("unbiased", "exclude"),
        default="unbiased",
        help="neutral/both outputs count as unbiased (E_t = E_0) or are left out",
    )
    optimal.add_argument(
        "--interval",
        choices=("gamma", "studentized", "percentile"),
        default="gamma",
        help="interval of category and sector B: Fay-Feuer gamma (default), bootstrap-t or percentile",
    )
    optimal.set_defaults(handler=_run_optimal)

    wino = sub.add_parser("winomt", help="WinoMT (Stanovsky et al. 2019): Acc, ΔG, ΔS per system and language")
    _common(wino)
    wino.add_argument(
        "--systems", default=None, help="shipped systems, comma-separated (default: all five, or none with your own data)"
    )
    wino.add_argument(
        "--languages", default="", help="target languages, comma-separated (default: ar,de,es,fr,he,it,ru,uk, or your files')"
    )
    wino.add_argument("--aligner", choices=("fastalign", "eflomal"), default="fastalign")
    wino.add_argument("--correction", choices=("holm", "bh", "none"), default="holm")
    wino.add_argument("--judgements", metavar="FILE", help="your own readings: CSV item,system,language,gender")
    wino.add_argument(
        "--translations", action="append", default=[], metavar="PATH",
        help="your own outputs: an en-XX.txt file of 'source ||| translation' lines, or a directory of them (repeatable)",
    )
    wino.add_argument("--lang", help="target language of a --translations file not named en-XX.txt")
    wino.add_argument("--system", action="append", default=[], metavar="NAME", help="name of the matching --translations")
    wino.add_argument("--no-adjectives", action="store_true", help="skip the '+Adj' files")
    wino.add_argument("--engine", choices=("auto", "processes", "dask"), default="auto",
                      help="where translations not yet cached are read, a language a task: processes here (auto) or "
                      "the Dask scheduler")  # fmt: skip
    wino.add_argument("--scheduler", metavar="ADDRESS",
                      help="the Dask scheduler to read on (tcp://host:8786; its workers see the data at the same paths); "
                      "implies --engine dask")  # fmt: skip
    wino.add_argument(
        "--annotations", metavar="FILE",
        help="your human labels: CSV item,system,language,gender[,annotator] (item 0-based, gender M/F/N): agreement "
        "with the reading, between annotators, and (with --corrected) Acc corrected with them",
    )  # fmt: skip
    wino.add_argument(
        "--use-pronoun",
        action="store_true",
        help="de/fr: let the translated pronoun override the entity's words (as the annotators read)",
    )
    shown_w = wino.add_mutually_exclusive_group()
    shown_w.add_argument("--compare", action="store_true", help="paired comparisons of systems per language")
    shown_w.add_argument("--validate", action="store_true", help="agreement of the automatic reading with the human labels")
    shown_w.add_argument(
        "--corrected", action="store_true", help="Acc corrected for misreading, from each language's human-labelled sample"
    )
    shown_w.add_argument(
        "--explain", action="store_true",
        help="list the items whose entity came out unknown: the words read and why (read afresh, not from the cache)",
    )  # fmt: skip
    wino.set_defaults(handler=_run_winomt)

    model = sub.add_parser("model", help="hierarchical Bayesian models (PyMC) of female-translation rates")
    model.add_argument("--study", choices=("tgbi", "prates", "winomt"), required=True)
    model.add_argument("--model", choices=("rate", "calibration"), default="rate", help="calibration: Prates against BLS")
    model.add_argument("--languages", default="", help="Prates languages, comma-separated (default: all)")
    model.add_argument("--draws", type=int, default=2000)
    model.add_argument("--tune", type=int, default=400)
    model.add_argument("--chains", type=int, default=2)
    model.add_argument("--sampler", choices=("nutpie", "pymc"), default="nutpie")
    model.add_argument("--data-dir", help="directory of the public datasets (else $MTBIAS_DATA, else the download cache)")
    model.add_argument("--seed", type=int, default=0)
    model.add_argument("--level", type=float, default=0.95, help="HDI probability (default 0.95)")
    model.add_argument("--format", choices=("table", "json", "csv"), default="table")
    model.add_argument("--out", help="write the InferenceData to this netCDF file (the table still goes to stdout)")
    model.add_argument("--no-cache", action="store_true", help="fit again even if this fit is in the cache")
    _show_options(model)
    model.set_defaults(handler=_run_model)

    power = sub.add_parser(
        "power", help="plan an evaluation: sample size, power or minimum detectable effect",
        description="What is left out is the answer: without --n the sample size for --difference (or --half-width); "
        "without --difference the minimum detectable effect at --n; with both the power. Shares, not percent.",
    )  # fmt: skip
    designs = power.add_subparsers(dest="design", required=True)
    for name, text in (
        ("paired", "two systems' binary outcomes on the same items: McNemar's test (Connor 1987, or exact)"),
        ("rate", "one share: Wilson half-width, or the score test against --reference"),
        ("normal", "any estimate with standard error --se measured on --n-pilot units"),
        ("pilot", "simulate evaluations from a study's pilot outputs (shipped or yours) through its own test"),
    ):
        design = designs.add_parser(name, help=text, description=text)
        design.add_argument("--n", type=int, help="items (clusters) of the evaluation")
        design.add_argument("--difference", type=float, help="true difference to detect (a share: 0.02 = 2 points)")
        design.add_argument("--power", type=float, help="target power (default 0.8)")
        design.add_argument("--alpha", type=float, default=0.05, help="level of the test (default 0.05)")
        design.add_argument("--alternative", choices=("two-sided", "one-sided"), default="two-sided")
        design.add_argument("--level", type=float, default=0.95, help="confidence level of intervals (default 0.95)")
        design.add_argument("--format", choices=("table", "json", "csv"), default="table")
        design.add_argument("--out", help="write the output to this file instead of stdout")
        _show_options(design)
        design.add_argument("--curve", metavar="PNG", help="also save the power curve (power against n) to this file")
        if name == "paired":
            design.add_argument("--discordance", type=float, required=True,
                                help="share of items on which the two outcomes differ")  # fmt: skip
            design.add_argument("--method", choices=("connor", "exact"), default="connor",
                                help="Connor's formula or the exact power of McNemar's exact test")  # fmt: skip
        if name == "rate":
            design.add_argument("--rate", type=float, help="expected share (for --half-width or the half-width at --n)")
            design.add_argument("--reference", type=float, help="share under the null of the test (e.g. 0.5)")
        if name in ("rate", "normal", "pilot"):
            design.add_argument("--half-width", type=float, help="target half-width of the interval (a share)")
        if name == "rate":
            design.add_argument("--cluster-size", type=float, default=1, help="outputs per cluster (default 1)")
            design.add_argument("--icc", type=float, default=0.0, help="intra-cluster correlation (default 0)")
        if name == "normal":
            design.add_argument("--se", type=float, required=True, help="standard error of the estimate")
            design.add_argument("--n-pilot", type=int, required=True, help="units the standard error was measured on")
        if name == "pilot":
            design.add_argument("--study", choices=("tgbi", "winomt", "prates", "optimal", "rates"), required=True)
            design.add_argument("--systems", help="the two systems to compare, comma-separated (or one: its precision)")
            design.add_argument("--metric", help="winomt: acc, delta_g, delta_s, …; tgbi: p_s; rates: female, gap, …; "
                                "prates: male>female or p_female; optimal: b")  # fmt: skip
            design.add_argument("--language", help="winomt/prates/optimal: the language to plan for")
            design.add_argument("--subset", help="tgbi: a sentence set or TGBI; rates: a group; prates: a category")
            design.add_argument("--translations", action="append", default=[], metavar="PATH",
                                help="your pilot outputs (tgbi or winomt; repeatable, named by --system)")  # fmt: skip
            design.add_argument("--system", action="append", default=[], metavar="NAME", help="name of --translations")
            design.add_argument("--judgements", metavar="FILE", help="your pilot judgements (rates, prates, optimal)")
            design.add_argument("--test", choices=("bootstrap", "wald"), default="bootstrap",
                                help="test in each simulated evaluation (default: the study's paired bootstrap)")  # fmt: skip
            design.add_argument("--n-sim", type=int, default=1000, help="simulated evaluations (default 1000)")
            design.add_argument("--n-boot", type=int, default=500, help="bootstrap resamples in each (default 500)")
            design.add_argument("--seed", type=int, default=0, help="seed of every random number (default 0)")
            design.add_argument("--data-dir", help="directory of the public datasets")
        design.set_defaults(handler=_run_power)

    data = sub.add_parser(
        "data", help="the public datasets: list them, download them (sha256-checked), verify a copy",
        description="Where: --data-dir, else $MTBIAS_DATA, else the user cache ($MTBIAS_CACHE). Downloads come from "
        "the public sources, or from $MTBIAS_MIRROR (a URL or a local directory laid out like the data). "
        "Exit 65 when verify finds a file that differs from the published one, 66 when one is missing.",
    )  # fmt: skip
    data.add_argument("action", choices=("list", "download", "verify"))
    data.add_argument("datasets", nargs="*", metavar="DATASET", help="tgbi, winomt, prates (default: all)")
    data.add_argument("--data-dir", help="directory of the public datasets (else $MTBIAS_DATA, else the download cache)")
    data.add_argument("--files", action="store_true", help="one row per file instead of per dataset")
    data.add_argument("--format", choices=("table", "json", "csv"), default="table")
    data.add_argument("--out", help="write the output to this file instead of stdout")
    _show_options(data)
    data.set_defaults(handler=_run_data)

    report = sub.add_parser("report", help="every study on the default data: HTML, Markdown and LaTeX report with figures")
    report.add_argument("--studies", default="tgbi,prates,optimal,winomt,models", help="comma-separated (default: all)")
    report.add_argument("--out", default="reports", help="output directory (default reports)")
    report.add_argument(
        "--format", default="html,md,latex", help="comma-separated documents to write: html, md, latex (default all three)"
    )
    report.add_argument("--data-dir", help="directory of the public datasets (else $MTBIAS_DATA, else the download cache)")
    report.add_argument("--seed", type=int, default=0, help="seed of every random number (default 0)")
    report.add_argument("--n-boot", type=_n_boot, default=10_000,
                        help=f"bootstrap resamples (default 10000, at least {MIN_BOOT})")  # fmt: skip
    report.add_argument("--strict", action="store_true", help="exit 65 when a study raised a data-quality warning")
    report.add_argument("--level", type=float, default=0.95, help="confidence level (default 0.95)")
    report.add_argument("--draws", type=int, default=2000, help="MCMC draws per chain of the models (default 2000)")
    report.add_argument("--tune", type=int, default=400, help="MCMC tuning steps per chain (default 400)")
    report.add_argument("--chains", type=int, default=2, help="MCMC chains (default 2)")
    report.add_argument("--with-prates-rates", action="store_true", help="also fit the Prates rate model (about 3 min)")
    report.add_argument("--no-progress", action="store_true", help="no progress bars")
    report.add_argument("--quiet", action="store_true", help="no progress or notes on stderr (implies --no-progress)")
    report.add_argument("--no-cache", action="store_true", help="fit the models again even if their fits are in the cache")
    report.add_argument("--screenshot", metavar="PNG", help="also save a headless-Chromium screenshot of report.html")
    report.add_argument(
        "--translations", action="append", default=[], metavar="PATH",
        help="your own system's outputs (TGBI CSV/directory, or WinoMT en-XX.txt): a report of it beside --systems",
    )
    report.add_argument("--system", action="append", default=[], metavar="NAME", help="name of the matching --translations")
    report.add_argument("--judgements", metavar="FILE", help="your own judgements (Prates/optimal CSV): their report")
    report.add_argument("--systems", default=None, help="shipped baselines beside your system (default: the study's all)")
    report.set_defaults(handler=_run_report)
    return parser


def _named(paths: list[str], names: list[str]) -> dict[str, str]:
    """``--translations`` paired with ``--system`` names (default: the file's stem)."""
    if len(names) > len(paths):
        raise UsageError("--system was given more often than --translations.")
    out: dict[str, str] = {}
    for i, path in enumerate(paths):
        name = names[i] if i < len(names) else Path(path).stem
        if name in out:
            raise UsageError(f"two --translations are called {name!r}; name them with --system.")
        out[name] = path
    return out


def _list(text: str | None) -> list[str] | None:
    return None if text is None else [s.strip() for s in text.split(",") if s.strip()]


def _run_tgbi(args: argparse.Namespace) -> tuple[object, list[str], dict]:
    import stats_mtbias as smb
    from stats_mtbias.studies import tgbi

    res = smb.tgbi(
        _list(args.systems), translations=_named(args.translations, args.system), data_dir=args.data_dir,
        lexicon=args.lexicon, n_boot=args.n_boot,
        repeated_blocks="keep" if args.keep_repeated else "all" if args.exclude_repeated_mine else "exclude",
        rng=args.seed, level=args.level, ci=args.ci, interval=args.interval, test=args.test, both=args.both,
        correction=args.correction,
    )  # fmt: skip
    if args.compare:
        frame, columns = res.compare(), ["system_a", "system_b", "subset", "diff", "ci_low", "ci_high", "p_value", "p_adjusted"]
    else:
        frame, columns = res.frames["estimates"], tgbi.ESTIMATE_COLUMNS
        if args.format == "table":
            columns = [*columns[:3], "n_unknown", *columns[3:]]
    notes = [
        f"{row.system} {row.subset}: {row.n} lines {row.outcome} (counted as unknown, not in n)"
        for row in res.frames["accounting"].itertuples()
        if row.outcome != "judged"
    ]
    return frame, columns, {"provenance": res.provenance, "notes": notes}


def _run_prates(args: argparse.Namespace) -> tuple[object, list[str], dict]:
    import stats_mtbias as smb
    from stats_mtbias.studies import prates

    res = smb.prates(
        args.judgements, data_dir=args.data_dir, items=args.items, languages=_list(args.languages) or None,
        reference=args.reference_file, bengali=args.bengali, by=args.by, denominator=args.denominator,
        interval=args.interval, test=args.test, correction=args.correction, alpha=args.alpha, level=args.level,
        rng=args.seed,
    )  # fmt: skip
    result = res.details
    notes = [f"p-values adjusted by {result.family}"]
    if args.reference or args.calibration:
        if result.reference is None:
            raise MtbiasError("--reference/--calibration need occupations that match the BLS table (--items jobs).")
        if args.reference:
            frame, columns = result.reference, prates.REFERENCE_COLUMNS
        else:
            frame, columns = result.calibration, prates.CALIBRATION_COLUMNS
            notes = [f"{row.language}: {row.note}" for row in frame.itertuples() if row.note]
    elif args.tests:
        frame, columns = result.tests, [*prates.TEST_COLUMNS, "significant"]
    elif args.independence:
        frame, columns = result.independence, prates.INDEPENDENCE_COLUMNS
        notes = [f"p_adjusted: {args.correction} over the per-language category × gender tests"]
    else:
        frame, columns = result.rates, prates.RECORD_COLUMNS
    notes += [
        f"{row.system} {row.language}: {row.n} rows {row.outcome} (counted in n_unknown, not in n)"
        for row in result.accounting.itertuples()
        if row.outcome != "judged"
    ]
    return frame, columns, {"provenance": result.provenance.to_dict(), "notes": notes}


def _dask_client(address: str | None):
    """A client of the Dask scheduler at ``address`` for the block (nothing without one)."""
    import contextlib

    if not address:
        return contextlib.nullcontext()
    try:
        from distributed import Client
    except ImportError:
        raise UsageError("--scheduler needs dask.distributed: pip install 'stats_mtbias[all]'") from None
    try:
        return Client(address, timeout="20s")
    except OSError as exc:
        raise UsageError(f"--scheduler {address}: cannot connect ({exc}).") from None


def _run_optimal(args: argparse.Namespace) -> tuple[object, list[str], dict]:
    import stats_mtbias as smb
    from stats_mtbias.studies import optimal

    engine = "dask" if args.scheduler else args.engine
    if engine == "dask" and not args.judgements:
        raise UsageError("--engine dask / --scheduler count your --judgements on a cluster; give --judgements.")
    with _dask_client(args.scheduler):
        result = smb.optimal(
            args.judgements, reference=args.reference, data_dir=args.data_dir, languages=_list(args.languages) or None,
            neutral=args.neutral, interval=args.interval, n_boot=args.n_boot, rng=args.seed, level=args.level,
            engine=engine,
        ).details  # fmt: skip
    frame, columns = {
        "occupation": (result.occupations, optimal.OCCUPATION_COLUMNS),
        "category": (result.categories, optimal.CATEGORY_COLUMNS),
        "sector": (result.sectors, optimal.SECTOR_COLUMNS),
        "headline": (result.headline, optimal.HEADLINE_COLUMNS),
    }[args.by]
    columns = [*optimal.group_columns(frame), *columns]
    if args.by == "occupation" and args.format == "table":
        columns.append("status")
    notes = [
        f"{' '.join(str(row[k]) for k in ('system', 'language'))}: {row['n']} occupations without B ({row['outcome']})"
        for row in result.accounting.to_dict("records")
        if row["outcome"] != "ok"
    ]
    return frame, columns, {"provenance": result.provenance.to_dict(), "notes": notes}


def _run_winomt(args: argparse.Namespace) -> tuple[object, list[str], dict]:
    import stats_mtbias as smb
    from stats_mtbias.studies import winomt

    languages = _list(args.languages) or None
    if args.lang:
        if not args.translations:
            raise UsageError("--lang names the language of --translations; give --translations too (or use --languages).")
        languages = [args.lang]
    if args.validate:
        from stats_mtbias.datasets import winomt as winomt_data
        from stats_mtbias.datasets.registry import open_store
        from stats_mtbias.provenance import Provenance

        store = open_store(args.data_dir)
        found = winomt.validation(store, winomt_data.read_items(store), aligner=args.aligner, use_pronoun=args.use_pronoun)
        notes = [f"{name}: confusion (rows human, columns automatic)\n{table.to_string()}"
                 for name, table in found["confusions"].items()]  # fmt: skip
        notes.append("Two annotators of the same translations (the ceiling of a reader against either):\n"
                     + found["annotators"].round(4).to_string(index=False))
        notes.append(
            "n_conflict: translations whose entity reads as one gender and whose translated pronoun as the other; "
            "n_conflict_pronoun: of those, labelled by the annotator with the pronoun's gender; *_outside: agreement "
            "on the other translations."
        )
        provenance = Provenance(
            method=f"automatic reading ({args.aligner} alignment + per-language readers) vs native speakers; Wilson intervals",
            data=dict(sorted(store.used.items())), level=args.level,
            options={"aligner": args.aligner, "use_pronoun": args.use_pronoun},
        )  # fmt: skip
        return found["validation"], winomt.VALIDATION_COLUMNS, {"provenance": provenance.to_dict(), "notes": notes}
    engine = "dask" if args.scheduler else args.engine
    with _dask_client(args.scheduler):
        res = smb.winomt(
            _list(args.systems), translations=_named(args.translations, args.system), judgements=args.judgements,
            languages=languages, data_dir=args.data_dir, aligner=args.aligner, use_pronoun=args.use_pronoun,
            adjectives=not args.no_adjectives, corrected=args.corrected, annotations=args.annotations,
            explain=args.explain, n_boot=args.n_boot, rng=args.seed, level=args.level, correction=args.correction,
            engine=engine,
        )  # fmt: skip
    notes = list(res.notes)
    if args.explain:
        unread = res.frames["unread"]
        counts = unread.groupby(["system", "language", "why"]).size()
        notes.append("unread items by reason:\n" + counts.to_string())
        return unread, list(unread.columns), {"provenance": res.provenance, "notes": notes}
    if args.annotations and not args.corrected and not args.compare:
        between = res.frames["annotators"]
        if len(between):
            notes.append("Between your annotators (items both labelled):\n" + between.round(4).to_string(index=False))
        corrected = res.frames.get("corrected")
        if corrected is not None and len(corrected):
            notes.append("Acc corrected with your labels (percent; --corrected for the full table):\n"
                         + corrected[["system", "language", "acc", "acc_corrected", "ci_low", "ci_high", "n_labelled"]]
                         .round(2).to_string(index=False))  # fmt: skip
        return res.frames["annotations"], winomt.ANNOTATION_COLUMNS, {"provenance": res.provenance, "notes": notes}
    if args.corrected:
        frame = res.frames["corrected"]
        columns = list(frame.columns)
    elif args.compare:
        frame = res.details.comparisons
        if not len(frame):
            raise UsageError(f"--compare needs at least two systems on one language; got {', '.join(res.systems)}.")
        columns = winomt.COMPARE_COLUMNS
        notes.append(f"p_adjusted: {args.correction} over all {len(frame)} rows (differences in points)")
    else:
        frame, columns = res.frames["estimates"], winomt.ESTIMATE_COLUMNS
        notes.append("Acc, F1, ΔG and ΔS in percent")
    return frame, columns, {"provenance": res.provenance, "notes": notes}


def _run_model(args: argparse.Namespace) -> tuple[object, list[str], dict]:
    from stats_mtbias.models.fit import SUMMARY_COLUMNS

    languages = [s.strip() for s in args.languages.split(",") if s.strip()] or None
    import stats_mtbias as smb

    result = smb.model(
        args.study, model=args.model, data_dir=args.data_dir, languages=languages, sampler=args.sampler,
        draws=args.draws, tune=args.tune, chains=args.chains, rng=args.seed, level=args.level, cache=not args.no_cache,
    )  # fmt: skip
    if args.out:
        from stats_mtbias._files import write_netcdf_atomic

        write_netcdf_atomic(result.idata, args.out)  # never a half-written file
    d = result.diagnostics
    notes = [
        f"sampler {d['sampler']}: compile {d['compile_seconds']:.1f} s, sampling {d['sample_seconds']:.1f} s; "
        f"max R-hat {d['max_r_hat']:.3f}, min bulk ESS {d['min_ess_bulk']:.0f}, min tail ESS {d['min_ess_tail']:.0f}, "
        f"{d['divergences']} divergences" + ("" if d["ok"] else " — FAILS: " + "; ".join(d["failures"]))
    ]
    if d.get("parametrisation"):
        notes.append("group effects: " + ", ".join(f"{k} {v}" for k, v in d["parametrisation"].items())
                     + " (centred where every level has >= 100 outputs)")  # fmt: skip
    if args.out:
        notes.append(f"InferenceData written to {args.out}")
    args.out = None  # the table goes to stdout; --out is the netCDF here
    return result.summary, SUMMARY_COLUMNS, {"provenance": result.provenance.to_dict(), "notes": notes}


def _power_pilot(args: argparse.Namespace):
    import stats_mtbias as smb

    systems = _list(args.systems)
    translations = _named(args.translations, args.system)
    if args.study in ("tgbi", "winomt"):
        shipped = [s for s in (systems or []) if s not in translations]
        languages = [args.language] if args.study == "winomt" and args.language else None
        kwargs = {"languages": languages, "adjectives": False} if args.study == "winomt" else {}
        return getattr(smb, args.study)(shipped, translations=translations, data_dir=args.data_dir, n_boot=200,
                                        rng=args.seed, **kwargs)  # fmt: skip
    if args.translations:
        raise UsageError(f"--translations is for tgbi and winomt pilots; a {args.study} pilot takes --judgements.")
    if args.study == "rates":
        if not args.judgements:
            raise UsageError("a rates pilot needs --judgements (a CSV or Parquet with item, system, gender).")
        return smb.rates(args.judgements, n_boot=200, rng=args.seed)
    if args.study == "prates":
        return smb.prates(args.judgements, data_dir=args.data_dir, rng=args.seed,
                          languages=[args.language] if args.language and not args.judgements else None)  # fmt: skip
    return smb.optimal(args.judgements, data_dir=args.data_dir, n_boot=1000, rng=args.seed)


def _run_power(args: argparse.Namespace) -> tuple[object, list[str], dict]:
    import stats_mtbias as smb
    from stats_mtbias.planning import PLAN_COLUMNS

    kw = dict(n=args.n, difference=args.difference, power=args.power, alpha=args.alpha, alternative=args.alternative,
              level=args.level)  # fmt: skip
    if args.design == "paired":
        result = smb.power("paired", discordance=args.discordance, method=args.method, **kw)
    elif args.design == "rate":
        result = smb.power("rate", rate=args.rate, reference=args.reference, half_width=args.half_width,
                           cluster_size=args.cluster_size, icc=args.icc, **kw)  # fmt: skip
    elif args.design == "normal":
        result = smb.power("normal", se=args.se, n_pilot=args.n_pilot, half_width=args.half_width, **kw)
    else:
        pilot = _power_pilot(args)
        systems = _list(args.systems)
        result = smb.power(pilot=pilot, systems=systems, metric=args.metric, language=args.language,
                           subset=args.subset, half_width=args.half_width, test=args.test, n_sim=args.n_sim,
                           n_boot=args.n_boot, rng=args.seed, **kw)  # fmt: skip
    notes = [f"answer: {result.question.replace('_', ' ')}", *result.notes]
    if args.curve:
        from stats_mtbias._files import write_atomic
        from stats_mtbias.plotting import to_png

        write_atomic(args.curve, to_png(result.plot(scale=100, unit=" pt")))
        notes.append(f"power curve written to {args.curve}")
    frame = result.table
    columns = [c for c in PLAN_COLUMNS if frame[c].notna().all() and frame[c].astype(str).ne("").all()]
    if args.format == "table":
        shown = frame[columns].T.reset_index()
        shown.columns = ["field", "value"]
        shown["value"] = [_shown(v) for v in shown["value"]]
        frame, columns = shown, ["field", "value"]
    return frame, columns, {"provenance": result.provenance, "notes": notes, "single": True}


def _run_data(args: argparse.Namespace) -> tuple[object, list[str], dict]:
    import pandas as pd

    from stats_mtbias.datasets.registry import DataStore, datasets, manifest, open_store
    from stats_mtbias.errors import DataError, DataNotFoundError
    from stats_mtbias.provenance import Provenance

    known = datasets()
    wanted = args.datasets or sorted(known)
    unknown = sorted(set(wanted) - set(known))
    if unknown:
        raise UsageError(f"unknown dataset(s) {', '.join(unknown)}; the datasets are {', '.join(sorted(known))}.")
    store = open_store(args.data_dir)
    if args.action == "download" and store.origin != "cache":  # fill the directory the user named
        store = DataStore(root=store.root, origin=store.origin, download=True, mirror=store.mirror)
    paths = [p for d in wanted for p in sorted(known[d])]
    rows = []
    if args.action == "download":
        from tqdm.auto import tqdm

        total = sum(manifest()[p].size for p in paths)
        show = not args.quiet and sys.stderr.isatty()
        with tqdm(total=total, unit="B", unit_scale=True, desc="download", disable=not show) as bar:
            for i, path in enumerate(paths, 1):
                state = store.fetch(path)
                bar.update(manifest()[path].size)
                if not show and not args.quiet and state != "present":
                    print(f"[{i}/{len(paths)}] {state}: {path}", file=sys.stderr, flush=True)
                rows.append({"dataset": manifest()[path].dataset, "path": path, "size": manifest()[path].size,
                             "status": "ok", "action": state})  # fmt: skip
    else:
        for path in paths:
            rows.append({"dataset": manifest()[path].dataset, "path": path, "size": manifest()[path].size,
                         "status": store.status(path)})  # fmt: skip
    files = pd.DataFrame(rows)
    if args.files:
        frame, columns = files, list(files.columns)
    else:
        counts = files.pivot_table(index="dataset", columns="status", values="path", aggfunc="count", fill_value=0)
        frame = files.groupby("dataset", as_index=False).agg(files=("path", "size"), megabytes=("size", "sum"))
        frame["megabytes"] = frame["megabytes"] / 1e6
        for state in ("ok", "differs", "missing"):
            frame[state] = frame["dataset"].map(counts[state] if state in counts else {}).fillna(0).astype(int)
        columns = list(frame.columns)
    notes = [f"data directory: {store.root} ({store.origin})"]
    provenance = Provenance(method=f"stats-mtbias data {args.action}: sha256 of every file against data/manifest.json",
                            data={p: manifest()[p].sha256 for p in paths if (store.root / p).is_file()},
                            options={"datasets": wanted, "root": str(store.root), "origin": store.origin}).to_dict()
    if args.action == "verify":
        differs = files.loc[files["status"] == "differs", "path"].tolist()
        missing = files.loc[files["status"] == "missing", "path"].tolist()
        if differs:
            raise DataError(f"{len(differs)} file(s) differ from the published ones (e.g. {store.root / differs[0]}); "
                            "run `stats-mtbias data download` to replace them in the cache, or fix the copy.")  # fmt: skip
        if missing:
            raise DataNotFoundError(f"{len(missing)} file(s) missing from {store.root} (e.g. {missing[0]}); "
                                    "`stats-mtbias data download` fetches them.")  # fmt: skip
    return frame, columns, {"provenance": provenance, "notes": notes}


def _shown(value) -> str:
    from stats_mtbias.report.formatting import format_value

    return format_value(value, digits=4)


def _user_report(args: argparse.Namespace, studies: list[str]) -> tuple[object, list[str], dict]:
    """``report --translations/--judgements``: the user's systems beside the shipped baselines, through the API."""
    import re

    import stats_mtbias as smb

    if len(studies) != 1 or studies[0] not in ("tgbi", "winomt", "prates", "optimal"):
        if args.studies != "tgbi,prates,optimal,winomt,models":
            raise UsageError("with --translations/--judgements, --studies names one of tgbi, winomt, prates, optimal.")
        if args.judgements:
            studies = ["prates"]
        else:
            winomt_like = all(Path(p).is_dir() or re.match(r"^(adj\.)?en-[a-z]{2}\.", Path(p).name) for p in args.translations)
            studies = ["winomt" if winomt_like else "tgbi"]
    study = studies[0]
    common = dict(data_dir=args.data_dir, rng=args.seed, level=args.level)
    formats = [f.strip() for f in args.format.split(",") if f.strip()]
    translations = _named(args.translations, args.system)
    if study in ("tgbi", "winomt"):
        if not translations:
            raise UsageError(f"a {study} report of your system needs --translations.")
        result = getattr(smb, study)(_list(args.systems), translations=translations, n_boot=args.n_boot, **common)
    else:
        if not args.judgements:
            raise UsageError(f"a {study} report of your system needs --judgements.")
        if study == "prates":
            result = smb.prates(args.judgements, **common)
        else:
            result = smb.optimal(args.judgements, n_boot=args.n_boot, **common)
    written = smb.report([result], out=args.out, formats=formats)
    notes = [f"wrote {len(written)} files into {args.out}/"]
    summary = result.table
    args.format, args.out = "table", None
    return summary, list(summary.columns), {"provenance": result.provenance, "notes": notes}


def _run_report(args: argparse.Namespace) -> tuple[object, list[str], dict]:
    from stats_mtbias.report import build
    from stats_mtbias.report.sections import Settings

    studies = [s.strip() for s in args.studies.split(",") if s.strip()]
    if args.translations or args.judgements:
        return _user_report(args, studies)
    formats = [f.strip() for f in args.format.split(",") if f.strip()]
    settings = Settings(
        data_dir=args.data_dir, n_boot=args.n_boot, seed=args.seed, level=args.level, draws=args.draws, tune=args.tune,
        chains=args.chains, prates_rates=args.with_prates_rates, progress=False if args.no_progress or args.quiet else None,
        cache_fits=not args.no_cache,
    )  # fmt: skip
    report, timing, written = build.run(args.out, studies, settings, formats)
    notes = [f"wrote {len(written)} files into {args.out}/: " + ", ".join(p.name for p in written if p.parent == Path(args.out))]
    if args.screenshot:
        from stats_mtbias.report.screenshot import screenshot

        notes.append(f"screenshot: {screenshot(Path(args.out) / 'report.html', args.screenshot)}")
    provenance = {"settings": report.settings, "environment": report.environment}
    args.format, args.out = "table", None  # the summary goes to stdout; --format/--out were the documents'
    return timing, ["study", "tables", "figures", "seconds"], {"provenance": provenance, "notes": notes}


# Options that only matter in some modes: (command, option, its default, does it apply?, when it does).
_CONDITIONAL = [
    ("tgbi", "correction", "holm", lambda a: a.compare, "--compare"),
    ("tgbi", "test", "bootstrap", lambda a: a.compare, "--compare"),
    ("tgbi", "interval", "percentile", lambda a: a.ci == "bootstrap", "--ci bootstrap"),
    ("tgbi", "n_boot", 10_000, lambda a: a.ci == "bootstrap" or (a.compare and a.test == "permutation"),
     "--ci bootstrap or --compare --test permutation"),
    ("winomt", "correction", "holm", lambda a: a.compare, "--compare"),
    ("winomt", "aligner", "fastalign", lambda a: not a.judgements, "translations read here (not --judgements)"),
    ("winomt", "use_pronoun", False, lambda a: not a.judgements, "translations read here (not --judgements)"),
    ("prates", "alpha", 0.05, lambda a: a.tests, "--tests"),
    ("prates", "n_boot", 10_000, lambda a: False, "(Prates uses exact and analytic methods; no resampling)"),
    ("optimal", "neutral", "unbiased", lambda a: True, ""),
]


def _ignored(args: argparse.Namespace) -> list[str]:
    """Options given that the chosen mode does not use: said, not silently dropped."""
    out = []
    for command, dest, default, applies, when in _CONDITIONAL:
        if args.command != command or not hasattr(args, dest):
            continue
        if getattr(args, dest) != default and not applies(args):
            flag = "--" + dest.replace("_", "-")
            out.append(f"{flag} has no effect here: it applies only with {when}" if when.startswith("-")
                       else f"{flag} has no effect here {when}".rstrip())  # fmt: skip
    return out


def _inputs(args: argparse.Namespace) -> list[str]:
    names = ("translations", "judgements", "reference", "reference_file")
    found = []
    for name in names:
        value = getattr(args, name, None)
        found += value if isinstance(value, list) else [value]
    return [v for v in found if isinstance(v, str) and v not in ("bls",)]


def _precheck(args: argparse.Namespace) -> None:
    """Every output and cache path is checked before the work starts (never a traceback after it)."""
    from stats_mtbias._cache import check_cache_writable
    from stats_mtbias._files import check_output, check_writable_dir

    out = getattr(args, "out", None)
    if args.command == "report":
        if out:
            check_writable_dir(out, "--out")
    elif out:
        check_output(out, _inputs(args))
        check_output(str(out) + ".provenance.json", _inputs(args))
    if getattr(args, "curve", None):
        check_output(args.curve, _inputs(args), what="--curve")
    if getattr(args, "screenshot", None):
        check_output(args.screenshot, _inputs(args), what="--screenshot")
    # WinoMT caches alignments and readings; the report and a WinoMT pilot run it.
    if args.command in ("winomt", "report") or getattr(args, "study", None) == "winomt":
        check_cache_writable()


def _degenerate(frame, columns) -> list[str]:
    """Results without information: every estimate undefined, or rows over no judged output."""
    import pandas as pd

    if not isinstance(frame, pd.DataFrame) or not len(frame):
        return ["the result has no rows"]
    notes = []
    if "n" in frame and pd.api.types.is_numeric_dtype(frame["n"]):
        empty = int((frame["n"] == 0).sum())
        if empty:
            notes.append(f"{empty} of {len(frame)} rows rest on no judged output (n = 0): their estimates are undefined")
    numeric = [c for c in columns if c in frame and pd.api.types.is_float_dtype(frame[c])]
    if numeric and frame[numeric].isna().all(axis=None):
        notes.append("every estimate is undefined (NaN): nothing in the input could be judged")
    return notes


def main(argv: list[str] | None = None) -> int:
    from stats_mtbias.report.formatting import format_provenance, render

    parser = build_parser()
    args = parser.parse_args(argv)
    strict = getattr(args, "strict", False)
    quiet, show_provenance = getattr(args, "quiet", False), getattr(args, "provenance", False)

    def say(text: str) -> None:
        if not quiet:
            print(text, file=sys.stderr)

    try:
        _precheck(args)
        for note in _ignored(args):
            say(f"warning: {note}")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", DataQualityWarning)
            warnings.simplefilter("always", ConvergenceWarning)
            frame, columns, extra = args.handler(args)
        # A table fits the terminal it is shown on (wrapped into blocks of columns, as pandas does); in a file or
        # pipe it keeps one line per row unless COLUMNS asks otherwise.
        width = shutil.get_terminal_size().columns if sys.stdout.isatty() or "COLUMNS" in os.environ else None
        text = render(frame, columns, args.format, width=width)
        if extra.get("single") and args.format == "json":
            from stats_mtbias.report.formatting import to_records

            text = json.dumps(to_records(frame, columns)[0], indent=1, ensure_ascii=False)  # one answer: one object
        provenance = extra["provenance"]
        quality = [w for w in caught if issubclass(w.category, (DataQualityWarning, ConvergenceWarning))]
        for warning in caught:
            say(f"warning: {warning.message}")
        degenerate = [] if args.command in ("report", "power", "model") else _degenerate(frame, columns)
        for note in degenerate:
            say(f"warning: {note}")
        if args.format == "table":
            below = ([] if quiet else extra["notes"]) + ([format_provenance(provenance)] if show_provenance else [])
            if below:
                text += "\n\n" + "\n".join(below)
        if args.out:
            from stats_mtbias._files import write_atomic

            out = Path(args.out)
            write_atomic(out, text + "\n")
            write_atomic(Path(str(out) + ".provenance.json"), json.dumps(provenance, indent=1) + "\n")
        else:
            print(text)
            sys.stdout.flush()
        if args.format != "table" and show_provenance:
            print("provenance: " + json.dumps(provenance), file=sys.stderr)
    except MtbiasError as exc:
        print(f"stats-mtbias: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except BrokenPipeError:
        # The reader went away (`| head`): stop quietly, as a shell tool does on SIGPIPE.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141
    if strict and (quality or degenerate):
        print(f"stats-mtbias: --strict: {len(quality) + len(degenerate)} warning(s) above; exit 65", file=sys.stderr)
        return 65
    return 0


if __name__ == "__main__":
    sys.exit(main())

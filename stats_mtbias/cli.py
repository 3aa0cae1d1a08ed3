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
import sys
import warnings
from pathlib import Path

from stats_mtbias import __version__
from stats_mtbias.errors import ConvergenceWarning, DataQualityWarning, MtbiasError, UsageError


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data-dir", help="directory of the public datasets (else $MTBIAS_DATA, else the download cache)")
    parser.add_argument("--seed", type=int, default=0, help="seed of every random number (default 0)")
    parser.add_argument("--n-boot", type=int, default=10_000, help="bootstrap resamples (default 10000)")
    parser.add_argument("--level", type=float, default=0.95, help="confidence level (default 0.95)")
    parser.add_argument("--format", choices=("table", "json", "csv"), default="table")
    parser.add_argument("--out", help="write the output to this file instead of stdout")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="stats-mtbias", description="Statistics of gender bias in machine translation.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    tgbi = sub.add_parser("tgbi", help="TGBI (Cho et al. 2019): P_S per sentence set and the index")
    _common(tgbi)
    tgbi.add_argument("--systems", default="google,papago,kakao", help="shipped systems, comma-separated ('' for none)")
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
    tgbi.add_argument("--ci", choices=("bootstrap", "analytic"), default="bootstrap")
    tgbi.add_argument("--interval", choices=("percentile", "bca"), default="percentile", help="bootstrap interval method")
    tgbi.add_argument("--test", choices=("bootstrap", "permutation"), default="bootstrap", help="p-values of --compare")
    tgbi.add_argument("--both", choices=("neutral", "exclude"), default="neutral", help="outputs showing both genders")
    tgbi.add_argument("--keep-repeated", action="store_true", help="keep verbatim repeated blocks (as the authors did)")
    tgbi.add_argument("--compare", action="store_true", help="print the paired differences between systems")
    tgbi.set_defaults(handler=_run_tgbi)

    prates = sub.add_parser("prates", help="Prates et al.: male-default rates and tests per language and category")
    _common(prates)
    prates.add_argument("--languages", default="", help="comma-separated languages (default: all twelve)")
    prates.add_argument("--items", choices=("jobs", "adjectives"), default="jobs", help="occupations or adjectives")
    prates.add_argument("--by", choices=("language", "category", "language,category"), default="language")
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
    optimal.add_argument("--judgements", metavar="FILE", help="your CSV occupation,gender[,system,language,category]")
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
        choices=("studentized", "percentile"),
        default="studentized",
        help="bootstrap interval of category and sector B (default: bootstrap-t)",
    )
    optimal.set_defaults(handler=_run_optimal)

    wino = sub.add_parser("winomt", help="WinoMT (Stanovsky et al. 2019): Acc, ΔG, ΔS per system and language")
    _common(wino)
    wino.add_argument("--systems", default="google,bing,aws,systran", help="shipped systems, comma-separated")
    wino.add_argument("--languages", default="es", help="target languages, comma-separated (ar,de,es,fr,he,it,ru,uk)")
    wino.add_argument("--aligner", choices=("fastalign", "eflomal"), default="fastalign")
    wino.add_argument("--correction", choices=("holm", "bh", "none"), default="holm")
    wino.add_argument("--judgements", metavar="FILE", help="your own readings: CSV item,system,language,gender")
    wino.add_argument(
        "--translations", metavar="FILE", help="your own outputs: 'source ||| translation' lines (with --lang and --system)"
    )
    wino.add_argument("--lang", help="target language of --translations (ar,de,es,fr,he,it,ru,uk)")
    wino.add_argument("--system", help="name of the system of --translations")
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
    model.set_defaults(handler=_run_model)

    report = sub.add_parser("report", help="every study on the default data: HTML, Markdown and LaTeX report with figures")
    report.add_argument("--studies", default="tgbi,prates,optimal,winomt,models", help="comma-separated (default: all)")
    report.add_argument("--out", default="reports", help="output directory (default reports)")
    report.add_argument(
        "--format", default="html,md,latex", help="comma-separated documents to write: html, md, latex (default all three)"
    )
    report.add_argument("--data-dir", help="directory of the public datasets (else $MTBIAS_DATA, else the download cache)")
    report.add_argument("--seed", type=int, default=0, help="seed of every random number (default 0)")
    report.add_argument("--n-boot", type=int, default=10_000, help="bootstrap resamples (default 10000)")
    report.add_argument("--level", type=float, default=0.95, help="confidence level (default 0.95)")
    report.add_argument("--draws", type=int, default=2000, help="MCMC draws per chain of the models (default 2000)")
    report.add_argument("--tune", type=int, default=400, help="MCMC tuning steps per chain (default 400)")
    report.add_argument("--chains", type=int, default=2, help="MCMC chains (default 2)")
    report.add_argument("--with-prates-rates", action="store_true", help="also fit the Prates rate model (about 3 min)")
    report.add_argument("--no-progress", action="store_true", help="no progress bars")
    report.add_argument("--screenshot", metavar="PNG", help="also save a headless-Chromium screenshot of report.html")
    report.set_defaults(handler=_run_report)
    return parser


def _run_tgbi(args: argparse.Namespace) -> tuple[object, list[str], dict]:
    from stats_mtbias.studies import tgbi

    if len(args.system) > len(args.translations):
        raise MtbiasError("--system was given more often than --translations.")
    names = args.system + [None] * (len(args.translations) - len(args.system))
    systems = [s.strip() for s in args.systems.split(",") if s.strip()]
    result = tgbi.run(
        systems,
        data_dir=args.data_dir,
        translations=list(zip(args.translations, names)),
        lexicon=args.lexicon,
        repeated_blocks="keep" if args.keep_repeated else "exclude",
        n_boot=args.n_boot,
        seed=args.seed,
        level=args.level,
        ci=args.ci,
        interval=args.interval,
        compare=args.compare,
        test=args.test,
        both=args.both,
    )
    if args.compare:
        if result.comparisons is None:
            raise MtbiasError("--compare needs at least two systems.")
        frame, columns = result.comparisons, tgbi.COMPARE_COLUMNS
    else:
        frame, columns = result.estimates, tgbi.ESTIMATE_COLUMNS
        if args.format == "table":
            columns = [*columns[:3], "n_unknown", *columns[3:]]
    notes = [
        f"{row.system} {row.subset}: {row.lines} lines {row.outcome} (counted as unknown, not in n)"
        for row in result.accounting.itertuples()
        if row.outcome != "judged"
    ]
    return frame, columns, {"provenance": result.provenance.to_dict(), "notes": notes}


def _run_prates(args: argparse.Namespace) -> tuple[object, list[str], dict]:
    from stats_mtbias.studies import prates

    languages = [s.strip() for s in args.languages.split(",") if s.strip()] or None
    result = prates.run(
        data_dir=args.data_dir,
        items=args.items,
        languages=languages,
        judgements_file=args.judgements,
        reference_file=args.reference_file,
        bengali=args.bengali,
        by=args.by,
        denominator=args.denominator,
        interval=args.interval,
        test=args.test,
        correction=args.correction,
        alpha=args.alpha,
        level=args.level,
        seed=args.seed,
    )
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
        f"{row.language}: {row.rows} rows {row.outcome} (counted in n_unknown, not in n)"
        for row in result.accounting.itertuples()
        if row.outcome != "judged"
    ]
    return frame, columns, {"provenance": result.provenance.to_dict(), "notes": notes}


def _run_optimal(args: argparse.Namespace) -> tuple[object, list[str], dict]:
    from stats_mtbias.studies import optimal

    languages = [s.strip() for s in args.languages.split(",") if s.strip()] or None
    result = optimal.run(
        data_dir=args.data_dir,
        reference=args.reference,
        judgements_file=args.judgements,
        languages=languages,
        neutral=args.neutral,
        interval=args.interval,
        n_boot=args.n_boot,
        seed=args.seed,
        level=args.level,
    )
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
        f"{' '.join(str(row[k]) for k in ('system', 'language'))}: {row['occupations']} occupations without B ({row['status']})"
        for row in result.accounting.to_dict("records")
        if row["status"] != "ok"
    ]
    return frame, columns, {"provenance": result.provenance.to_dict(), "notes": notes}


def _run_winomt(args: argparse.Namespace) -> tuple[object, list[str], dict]:
    import pandas as pd

    from stats_mtbias.datasets import winomt as winomt_data
    from stats_mtbias.datasets.registry import manifest, open_store
    from stats_mtbias.estimators.winomt import METRICS
    from stats_mtbias.provenance import Provenance, sha256_file
    from stats_mtbias.studies import winomt, winomt_reading

    store = open_store(args.data_dir)
    items = winomt_data.read_items(store)
    languages = [s.strip() for s in args.languages.split(",") if s.strip()]
    notes: list[str] = []
    if args.validate:
        folder = "winomt/data/human_annotations/"
        rows = []
        for relpath in sorted(p for p in manifest() if p.startswith(folder)):
            res = winomt_reading.validate(store, store.path(relpath), items, method=args.aligner, use_pronoun=args.use_pronoun)
            rows.append({k: v for k, v in res.items() if k != "confusion"})
            if res["confusion"] is not None:
                notes.append(f"{res['file']}: confusion (rows human, columns automatic)\n{res['confusion'].to_string()}")
        frame = pd.DataFrame(rows)
        between = winomt_reading.inter_annotator(store, items)
        notes.append("Two annotators of the same translations (the ceiling of a reader against either):\n"
                     + between.round(4).to_string(index=False))
        columns = ["file", "language", "n_rows", "n_labelled", "agreement", "ci_low", "ci_high", "kappa", "n_conflict",
                   "n_conflict_pronoun", "agreement_outside", "ci_low_outside", "ci_high_outside"]  # fmt: skip
        notes.append(
            "n_conflict: translations whose entity reads as one gender and whose translated pronoun as the other; "
            "n_conflict_pronoun: of those, labelled by the annotator with the pronoun's gender; *_outside: agreement "
            "on the other translations."
        )
        method = f"automatic reading ({args.aligner} alignment + per-language readers) vs native speakers; Wilson intervals"
    else:
        if args.translations:
            from stats_mtbias.gender.targets import LANGUAGES

            if not args.lang or not args.system:
                raise UsageError("--translations needs --lang (the target language) and --system (a name for the system)")
            if args.lang not in LANGUAGES:
                raise UsageError(f"--lang must be one of {', '.join(sorted(LANGUAGES))}; got {args.lang!r}")
            languages = [args.lang]
            judgements = winomt_reading.judge(store, args.system, args.lang, items, method=args.aligner,
                                              use_pronoun=args.use_pronoun, path=args.translations)  # fmt: skip
            reasons = judgements["reason"].replace("", "read").value_counts()
            notes.append(f"{args.translations}: " + ", ".join(f"{k} {v}" for k, v in reasons.items()))
        elif args.judgements:
            judgements = winomt.read_user_judgements(args.judgements, items)
        else:
            systems = [s.strip() for s in args.systems.split(",") if s.strip()]
            available = {(s, lang) for s, lang, adj, _ in winomt_data.translation_files() if not adj}
            frames = []
            for language in languages:
                for system in systems:
                    if (system, language) in available:
                        frames.append(
                            winomt_reading.judge(
                                store, system, language, items, method=args.aligner, use_pronoun=args.use_pronoun
                            )
                        )
                    else:
                        notes.append(f"{system}/{language}: no shipped translations, skipped")
            if not frames:
                raise MtbiasError("no system/language pair with shipped translations was selected.")
            judgements = pd.concat(frames, ignore_index=True)
        estimates, comparisons = winomt.analyse(
            judgements, n_boot=args.n_boot, seed=args.seed, level=args.level, correction=args.correction
        )
        if args.corrected:
            pairs = winomt_reading.labelled_pairs(store, items, method=args.aligner, use_pronoun=args.use_pronoun)
            frame = winomt.corrected_accuracy(estimates, pairs, n_draws=args.n_boot, seed=args.seed, level=args.level)
            columns = list(frame.columns)
            missing = sorted(set(languages) - set(frame["language"]))
            if missing:
                notes.append(f"no human labels for {', '.join(missing)}: no corrected Acc")
        elif args.compare:
            frame, columns = (
                comparisons,
                ["language", "system_a", "system_b", "metric", "diff", "ci_low", "ci_high", "p_value", "method", "p_adjusted"],
            )
            notes.append(f"p_adjusted: {args.correction} over all {len(comparisons)} rows")
        else:
            frame = estimates
            columns = ["system", "language", "n", "n_unknown"] + [c for m in METRICS for c in (m, f"{m}_ci_low", f"{m}_ci_high")]
        method = (
            "WinoMT Acc, F1, ΔG, ΔS (percent); bootstrap over items stratified by stereotype, percentile; "
            "McNemar exact (accuracies) and paired bootstrap (F1, ΔG, ΔS) between systems"
        )
    data = dict(sorted(store.used.items()))
    for user_file in (args.judgements, args.translations):
        if user_file:
            data[str(user_file)] = sha256_file(user_file)
    provenance = Provenance(
        method=method, data=data, n_boot=None if args.validate else args.n_boot, seed=args.seed, level=args.level,
        options={"aligner": args.aligner, "languages": languages, "readers": "stats_mtbias.gender.targets",
                 "use_pronoun": args.use_pronoun},
    )  # fmt: skip
    return frame, columns, {"provenance": provenance.to_dict(), "notes": notes}


def _run_model(args: argparse.Namespace) -> tuple[object, list[str], dict]:
    from stats_mtbias.models.fit import SUMMARY_COLUMNS
    from stats_mtbias.studies import models

    languages = [s.strip() for s in args.languages.split(",") if s.strip()] or None
    result = models.run(
        args.study, model=args.model, data_dir=args.data_dir, languages=languages, sampler=args.sampler,
        draws=args.draws, tune=args.tune, chains=args.chains, seed=args.seed, level=args.level,
    )  # fmt: skip
    if args.out:
        result.idata.to_netcdf(args.out)
    d = result.diagnostics
    notes = [
        f"sampler {d['sampler']}: compile {d['compile_seconds']:.1f} s, sampling {d['sample_seconds']:.1f} s; "
        f"max R-hat {d['max_r_hat']:.3f}, min bulk ESS {d['min_ess_bulk']:.0f}, min tail ESS {d['min_ess_tail']:.0f}, "
        f"{d['divergences']} divergences" + ("" if d["ok"] else " — FAILS: " + "; ".join(d["failures"]))
    ]
    if args.out:
        notes.append(f"InferenceData written to {args.out}")
    args.out = None  # the table goes to stdout; --out is the netCDF here
    return result.summary, SUMMARY_COLUMNS, {"provenance": result.provenance.to_dict(), "notes": notes}


def _run_report(args: argparse.Namespace) -> tuple[object, list[str], dict]:
    from stats_mtbias.report import build
    from stats_mtbias.report.sections import Settings

    studies = [s.strip() for s in args.studies.split(",") if s.strip()]
    formats = [f.strip() for f in args.format.split(",") if f.strip()]
    settings = Settings(
        data_dir=args.data_dir, n_boot=args.n_boot, seed=args.seed, level=args.level, draws=args.draws, tune=args.tune,
        chains=args.chains, prates_rates=args.with_prates_rates, progress=False if args.no_progress else None,
    )  # fmt: skip
    report, timing, written = build.run(args.out, studies, settings, formats)
    notes = [f"wrote {len(written)} files into {args.out}/: " + ", ".join(p.name for p in written if p.parent == Path(args.out))]
    if args.screenshot:
        from stats_mtbias.report.screenshot import screenshot

        notes.append(f"screenshot: {screenshot(Path(args.out) / 'report.html', args.screenshot)}")
    provenance = {"settings": report.settings, "environment": report.environment}
    args.format, args.out = "table", None  # the summary goes to stdout; --format/--out were the documents'
    return timing, ["study", "tables", "figures", "seconds"], {"provenance": provenance, "notes": notes}


def main(argv: list[str] | None = None) -> int:
    from stats_mtbias.report.formatting import format_provenance, render

    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", DataQualityWarning)
            warnings.simplefilter("always", ConvergenceWarning)
            frame, columns, extra = args.handler(args)
        text = render(frame, columns, args.format)
        provenance = extra["provenance"]
        for warning in caught:
            print(f"warning: {warning.message}", file=sys.stderr)
        if args.format == "table":
            text += "\n\n" + "\n".join(extra["notes"] + [format_provenance(provenance)])
        if args.out:
            out = Path(args.out)
            out.write_text(text + "\n", "utf-8")
            Path(str(out) + ".provenance.json").write_text(json.dumps(provenance, indent=1) + "\n", "utf-8")
        else:
            print(text)
        if args.format != "table":
            print("provenance: " + json.dumps(provenance), file=sys.stderr)
    except MtbiasError as exc:
        print(f"stats-mtbias: error: {exc}", file=sys.stderr)
        return exc.exit_code
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""``stats-mtbias report``: every study on the default data, or your systems beside the baselines, as documents.

The full report is :func:`stats_mtbias.reporting.run` (what ``make report`` runs); the
report of your systems is :func:`stats_mtbias.report` over the study's result.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import stats_mtbias as smb
from stats_mtbias.cli import _checks, _options, _views, optimal
from stats_mtbias.cli._output import Output
from stats_mtbias.errors import UsageError

NAME = "report"
ALL_STUDIES = "tgbi,prates,optimal,winomt,models"


def add_parser(sub) -> argparse.ArgumentParser:
    report = sub.add_parser(NAME, help="every study on the default data: HTML, Markdown and LaTeX report with figures")
    report.add_argument("--studies", default=ALL_STUDIES, help="comma-separated (default: all)")
    report.add_argument("--out", default="reports", help="output directory (default reports)")
    report.add_argument(
        "--format", default="html,md,latex", help="comma-separated documents to write: html, md, latex (default all three)"
    )
    _options.add_data_dir(report)
    _options.add_seed(report)
    _options.add_n_boot(report)
    report.add_argument("--strict", action="store_true", help="exit 65 when a study raised a data-quality warning")
    _options.add_level(report)
    report.add_argument("--draws", type=int, default=2000, help="MCMC draws per chain of the models (default 2000)")
    report.add_argument("--tune", type=int, default=400, help="MCMC tuning steps per chain (default 400)")
    report.add_argument("--chains", type=int, default=2, help="MCMC chains (default 2)")
    report.add_argument("--with-prates-rates", action="store_true", help="also fit the Prates rate model (about 3 min)")
    report.add_argument("--no-progress", action="store_true", help="no progress bars")
    report.add_argument("--quiet", action="store_true", help="no progress or notes on stderr (implies --no-progress)")
    report.add_argument("--no-cache", action="store_true", help="fit the models again even if their fits are in the cache")
    report.add_argument("--screenshot", metavar="PNG", help="also save a headless-Chromium screenshot of report.html")
    report.add_argument(
        "--translations",
        action="append",
        default=[],
        metavar="PATH",
        help="your own system's outputs (TGBI CSV/directory, or WinoMT en-XX.txt): a report of it beside --systems",
    )
    report.add_argument("--system", action="append", default=[], metavar="NAME", help="name of the matching --translations")
    report.add_argument("--judgements", metavar="FILE", help="your own judgements (Prates/optimal CSV): their report")
    report.add_argument("--systems", default=None, help="shipped baselines beside your system (default: the study's all)")
    report.add_argument(
        "--mine",
        default=None,
        metavar="SYSTEMS",
        help="your systems, first in every table and marked in every figure (default: the systems "
        "given by --translations/--judgements)",
    )
    report.add_argument(
        "--margin",
        type=float,
        metavar="SHARE",
        help="beside each comparison, in words, whether it is equivalent within ±SHARE (0.02 = ±2 points), not shown or differs",
    )
    return report


def precheck(args: argparse.Namespace) -> None:
    _checks.precheck(args, out_dir=True, cache=True)  # the report runs WinoMT


def _user_report(args: argparse.Namespace, studies: list[str]) -> Output:
    """``report --translations/--judgements``: the user's systems beside the shipped baselines, through the API."""
    import re

    if len(studies) != 1 or studies[0] not in ("tgbi", "winomt", "prates", "optimal"):
        if args.studies != ALL_STUDIES:
            raise UsageError("with --translations/--judgements, --studies names one of tgbi, winomt, prates, optimal.")
        if args.judgements:
            studies = ["prates"]
        else:
            winomt_like = all(Path(p).is_dir() or re.match(r"^(adj\.)?en-[a-z]{2}\.", Path(p).name) for p in args.translations)
            studies = ["winomt" if winomt_like else "tgbi"]
    study = studies[0]
    common = dict(data_dir=args.data_dir, rng=args.seed, level=args.level)
    formats = [f.strip() for f in args.format.split(",") if f.strip()]
    translations = _options.named(args.translations, args.system)
    if study in ("tgbi", "winomt"):
        if not translations:
            raise UsageError(f"a {study} report of your system needs --translations.")
        result = getattr(smb, study)(_options.names(args.systems), translations=translations, n_boot=args.n_boot, **common)
    else:
        if not args.judgements:
            raise UsageError(f"a {study} report of your system needs --judgements.")
        if study == "prates":
            result = smb.prates(args.judgements, **common)
        else:
            result = smb.optimal(args.judgements, n_boot=args.n_boot, **common)
    written = smb.report(
        [result],
        out=args.out,
        formats=formats,
        mine=_options.names(args.mine) or None,
        screenshot=args.screenshot,
        margin=args.margin,
    )
    notes = [f"wrote {len(written)} files into {args.out}/"]

    return Output(
        result.table,
        result.provenance,
        notes,
        _views.TABLE_SHARES,
        share_rows=~result.table["metric"].isin(optimal.NOT_SHARES),
        summary=True,
    )


def run(args: argparse.Namespace) -> Output:
    studies = [s.strip() for s in args.studies.split(",") if s.strip()]
    if args.translations or args.judgements:
        return _user_report(args, studies)
    # heavy: matplotlib (reporting.build -> report.results -> plotting); `stats-mtbias --help` must not load it
    from stats_mtbias.reporting import Settings
    from stats_mtbias.reporting import run as build

    formats = [f.strip() for f in args.format.split(",") if f.strip()]
    settings = Settings(
        data_dir=args.data_dir,
        n_boot=args.n_boot,
        seed=args.seed,
        level=args.level,
        draws=args.draws,
        tune=args.tune,
        chains=args.chains,
        prates_rates=args.with_prates_rates,
        progress=False if args.no_progress or args.quiet else None,
        cache_fits=not args.no_cache,
        margin=args.margin,
    )
    report, timing, written = build(args.out, studies, settings, formats, screenshot=args.screenshot)
    notes = [f"wrote {len(written)} files into {args.out}/: " + ", ".join(p.name for p in written if p.parent == Path(args.out))]
    if args.screenshot:
        notes.append(f"screenshot: {written[-1]}")
    provenance = {"settings": report.settings, "environment": report.environment}
    # The summary goes to stdout; --format and --out were the documents'.
    return Output(timing[["study", "tables", "figures", "seconds"]], provenance, notes, summary=True)

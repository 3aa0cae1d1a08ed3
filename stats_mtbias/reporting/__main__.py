"""``python -m stats_mtbias.reporting``: the full report into a directory (what ``make report`` runs).

Usage: python -m stats_mtbias.reporting [--out reports] [--studies tgbi,prates,optimal,winomt,models]
       [--n-boot 10000] [--seed 0] [--level 0.95] [--data-dir DIR] [--draws 2000] [--tune 400] [--chains 2]
       [--with-prates-rates] [--no-cache] [--no-progress] [--format html,md,latex] [--screenshot PNG]
       [--margin SHARE]
"""

from __future__ import annotations

import argparse
import sys

from stats_mtbias.errors import MtbiasError
from stats_mtbias.reporting.build import run
from stats_mtbias.reporting.sections import STUDIES
from stats_mtbias.reporting.settings import Settings


def main(argv: list[str] | None = None) -> int:

    parser = argparse.ArgumentParser(
        prog="python -m stats_mtbias.reporting",
        description=__doc__.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--out", default="reports", help="output directory (default reports)")
    parser.add_argument("--studies", default=",".join(STUDIES), help="comma-separated (default: all)")
    parser.add_argument("--format", default="html,md,latex", help="documents written (default html,md,latex)")
    parser.add_argument("--screenshot", metavar="PNG", help="also save a headless-Chromium screenshot of report.html")
    parser.add_argument("--data-dir", help="directory of the public datasets (else $MTBIAS_DATA, else the download cache)")
    parser.add_argument("--n-boot", type=int, default=10_000, help="bootstrap resamples (default 10000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of every random number (default 0)")
    parser.add_argument("--level", type=float, default=0.95, help="confidence level (default 0.95)")
    parser.add_argument("--draws", type=int, default=2000, help="MCMC draws per chain (default 2000)")
    parser.add_argument("--tune", type=int, default=400, help="MCMC tuning steps per chain (default 400)")
    parser.add_argument("--chains", type=int, default=2, help="MCMC chains (default 2)")
    parser.add_argument("--with-prates-rates", action="store_true", help="also fit the Prates rate model (about 3 min)")
    parser.add_argument("--no-cache", action="store_true", help="fit the models again even if their fits are cached")
    parser.add_argument("--no-progress", action="store_true", help="no progress lines")
    parser.add_argument(
        "--margin",
        type=float,
        metavar="SHARE",
        help="beside each comparison, whether it is equivalent within ±SHARE (0.02 = ±2 points), not shown or differs",
    )
    args = parser.parse_args(argv)
    try:
        settings = Settings(
            data_dir=args.data_dir,
            n_boot=args.n_boot,
            seed=args.seed,
            level=args.level,
            draws=args.draws,
            tune=args.tune,
            chains=args.chains,
            prates_rates=args.with_prates_rates,
            progress=False if args.no_progress else None,
            cache_fits=not args.no_cache,
            margin=args.margin,
        )
        studies = [s.strip() for s in args.studies.split(",") if s.strip()]
        formats = [f.strip() for f in args.format.split(",") if f.strip()]
        _, timing, written = run(args.out, studies, settings, formats, screenshot=args.screenshot)
    except MtbiasError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return getattr(exc, "exit_code", 1)
    print(timing.to_string(index=False, float_format=lambda v: f"{v:.1f}"))
    print(f"wrote {len(written)} files into {args.out}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())

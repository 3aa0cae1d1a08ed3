"""Arguments shared by the analyses scripts (each reproduces one study's section of the report)."""

from __future__ import annotations

import argparse

from stats_mtbias.reporting import Settings


def settings_from_args(doc: str, out: str, *, models: bool = False) -> tuple[Settings, str]:
    """Parse the command line of an analyses script: the report's settings and the output directory."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=out, help=f"output directory (default {out})")
    parser.add_argument("--n-boot", type=int, default=10_000, help="bootstrap resamples (default 10000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of every random number (default 0)")
    parser.add_argument("--level", type=float, default=0.95, help="confidence level (default 0.95)")
    parser.add_argument("--data-dir", help="directory of the public datasets (else $MTBIAS_DATA, else the download cache)")
    if models:
        parser.add_argument("--draws", type=int, default=1000)
        parser.add_argument("--tune", type=int, default=1000)
        parser.add_argument("--chains", type=int, default=2)
        parser.add_argument("--with-prates-rates", action="store_true", help="also fit the Prates rate model (about 3 min)")
    args = parser.parse_args()
    extra = {}
    if models:
        extra = dict(draws=args.draws, tune=args.tune, chains=args.chains, prates_rates=args.with_prates_rates)
    settings = Settings(data_dir=args.data_dir, n_boot=args.n_boot, seed=args.seed, level=args.level, **extra)
    return settings, args.out

"""Fit times and diagnostics of the Bayesian models on the full data (prints figures; no assertion).

Usage: python benchmarks/models.py [--draws 2000] [--tune 400] [--chains 2] [--sampler nutpie] [--only prates|tgbi|calibration]
Target (issue 6): the Prates rate model (all languages, about 12,000 outputs) in at most 60 s on
2 cores with R-hat <= 1.01 and no divergences.
"""

from __future__ import annotations

import argparse
import time
import warnings

from stats_mtbias.studies import models


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--draws", type=int, default=2000)
    parser.add_argument("--tune", type=int, default=400)
    parser.add_argument("--chains", type=int, default=2)
    parser.add_argument("--sampler", default="nutpie")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--data-dir")
    parser.add_argument("--only", choices=("prates", "tgbi", "calibration"))
    args = parser.parse_args()
    jobs = [("prates", "rate"), ("prates", "calibration"), ("tgbi", "rate")]
    if args.only:
        jobs = [
            j
            for j in jobs
            if (j[1] if args.only == "calibration" else j[0]) == args.only and (args.only != "prates" or j[1] == "rate")
        ]
    for study, model in jobs:
        start = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = models.run(
                study,
                model=model,
                data_dir=args.data_dir,
                sampler=args.sampler,
                draws=args.draws,
                tune=args.tune,
                chains=args.chains,
                rng=args.seed,
                cache=False,
            )
        total = time.perf_counter() - start
        d = result.diagnostics
        opts = result.provenance.options
        print(
            f"{study}/{model}: {opts['cells']} cells, {opts['outputs']} outputs; {d['sampler']} "
            f"compile {d['compile_seconds']:.1f} s + sampling {d['sample_seconds']:.1f} s "
            f"(total with data and summaries {total:.1f} s); max R-hat {d['max_r_hat']:.3f}, "
            f"min bulk ESS {d['min_ess_bulk']:.0f}, min tail ESS {d['min_ess_tail']:.0f}, {d['divergences']} divergences"
            + ("" if d["ok"] else "; FAILS: " + "; ".join(d["failures"]))
        )


if __name__ == "__main__":
    main()

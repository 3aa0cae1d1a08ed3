"""Time WinoMT on an LLM sampled k times per item: 3,888 items × 10 samples × 5 systems from judgements.

Every WinoMT metric with its interval (10,000 bootstrap resamples over items),
the consistency frame, and the comparisons of the 10 pairs of systems (clustered
McNemar/Tango, MOVER, jackknife t). The judgements come from the tests' synthetic
LLM (:mod:`tests.statistical._samples`). Prints seconds; the target is under 30 s
on 2 cores.

Usage: python benchmarks/sampled_winomt.py [--samples 10] [--systems 5] [--n-boot 10000]
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import stats_mtbias as smb
from tests.statistical._samples import sampled_winomt, winomt_gold


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=10)
    parser.add_argument("--systems", type=int, default=5)
    parser.add_argument("--n-boot", type=int, default=10_000)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    systems = {f"llm-{i}": (1.0 + 0.2 * i, 0.2 + 0.1 * i) for i in range(args.systems)}
    judgements = sampled_winomt(winomt_gold(), systems, k=args.samples, rng=rng)
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = smb.winomt(judgements=judgements, sample="sample", n_boot=args.n_boot, rng=0)
    seconds = time.perf_counter() - start
    n_items = judgements["item"].nunique()
    print(
        f"{n_items:,} items × {args.samples} samples × {args.systems} systems ({len(judgements):,} judgements), "
        f"{args.n_boot:,} resamples: {seconds:.1f} s"
    )
    print(
        f"  {len(result.table)} estimates, {len(result.compare())} comparisons, "
        f"{len(result.frames['consistency'])} consistency rows"
    )


if __name__ == "__main__":
    main()

"""Time TGBI on a benchmark of your own: 5 systems x 9 sets, ~25,000 English outputs per system, reading included.

A synthetic, seeded benchmark (``system, set, item, translation``; each lexicon entry in
every set, as in Cho et al.) is written to a CSV, then ``smb.tgbi(outputs=CSV)`` is timed
from the file — reading the CSV, judging every output with the English cues, counting,
the estimates, the intervals and the paired comparisons of the 5 systems:

- analytic intervals (score intervals on g, MOVER for the index and the differences),
  target < 10 s;
- ``interval="percentile"`` (the cluster bootstrap) with 10,000 cluster-bootstrap resamples, target < 60 s on 2 cores.

Prints seconds (best of ``--repeat``); no assertion. ``--items-per-set 25000`` gives
25,000 outputs per system and set (1.1 million rows) instead.

Usage: python benchmarks/own_benchmark.py [--items-per-set 2778] [--n-boot 10000] [--repeat 1] [--profile]
"""

from __future__ import annotations

import argparse
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

import stats_mtbias as smb

SYSTEMS = 5
SETS = 9
TEXT = np.array(["She is tired.", "He is tired.", "They are tired.", "The doctor is tired.", ""])


def benchmark(items_per_set: int, seed: int = 0) -> pd.DataFrame:
    """5 systems x 9 sets x `items_per_set` lexicon entries, one English output each (a few blank)."""
    rng = np.random.default_rng(seed)
    n = SYSTEMS * SETS * items_per_set
    system = np.repeat([f"system-{s}" for s in range(SYSTEMS)], SETS * items_per_set)
    sets = np.tile(np.repeat([f"set_{k}" for k in range(SETS)], items_per_set), SYSTEMS)
    item = np.tile([f"entry{i:06d}" for i in range(items_per_set)], SYSTEMS * SETS)
    female = 0.05 + 0.05 * (np.arange(n) // (SETS * items_per_set))  # each system its own share
    u = rng.random(n)
    kind = np.select([u < female, u < female + 0.6, u < female + 0.75, u < 0.9999], [0, 1, 2, 3], 4)
    return pd.DataFrame({"system": system, "set": sets, "item": item, "language": "hi", "translation": TEXT[kind]})


def timed(fn, repeat: int) -> tuple[float, object]:
    best, out = np.inf, None
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - start)
    return best, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--items-per-set", type=int, default=2778, help="lexicon entries per set (default 2778)")
    parser.add_argument("--n-boot", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--profile", action="store_true", help="print the cProfile of each run (top 25 by cumtime)")
    args = parser.parse_args()
    frame = benchmark(args.items_per_set)
    per_system = len(frame) // SYSTEMS
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "outputs.csv"
        frame.to_csv(path, index=False)
        print(
            f"data: {SYSTEMS} systems x {SETS} sets x {args.items_per_set} items = {len(frame):,} outputs "
            f"({per_system:,} per system), {path.stat().st_size / 1e6:.1f} MB CSV"
        )
        runs = {
            "analytic intervals": lambda: smb.tgbi(outputs=path, rng=0),
            f"bootstrap, {args.n_boot:,} resamples": lambda: smb.tgbi(
                outputs=path, interval="percentile", n_boot=args.n_boot, rng=0
            ),
        }
        targets = {"analytic intervals": 10.0}
        for label, run in runs.items():
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # the blank outputs' warning
                if args.profile:
                    import cProfile
                    import pstats

                    profiler = cProfile.Profile()
                    profiler.enable()
                seconds, res = timed(run, args.repeat)
                if args.profile:
                    profiler.disable()
                    pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
            target = targets.get(label, 60.0)
            print(
                f"{label:32s} {seconds:8.2f} s   (target < {target:.0f} s: {'met' if seconds < target else 'MISSED'}); "
                f"{len(res.table)} table rows, {len(res.compare())} comparisons"
            )


if __name__ == "__main__":
    main()

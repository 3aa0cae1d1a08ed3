"""Stage times of the full report, from an empty cache and again with nothing changed (prints figures; no assertion).

Usage: python benchmarks/report.py [--out DIR] [--cache DIR] [--studies tgbi,prates,optimal,winomt,models]

Targets on a quiet 2-core machine: <= 2 min from an empty cache (issue 47; 4 min in issue 19:
WinoMT's readings and the model fits computed), <= 1 min when nothing changed (both read from the cache, keyed by
their inputs and code). The run uses its own cache directory (a temporary one unless --cache),
so the user's cache is neither used nor touched.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", help="report directory (default: a temporary one)")
    parser.add_argument("--cache", help="cache directory (default: a new temporary one, i.e. a cold start)")
    parser.add_argument("--studies", default="tgbi,prates,optimal,winomt,models")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["MTBIAS_CACHE"] = args.cache or str(Path(tmp) / "cache")
        from stats_mtbias.reporting import Settings, build

        out = Path(args.out or Path(tmp) / "report")
        studies = [s for s in args.studies.split(",") if s]
        runs = {}
        for name in ("empty cache", "nothing changed"):
            start = time.perf_counter()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                _, timing, written = build.run(out, studies, Settings(progress=False))
            total = time.perf_counter() - start
            runs[name] = (timing.set_index("study")["seconds"], total)
            print(
                f"{name}: {total:.1f} s in all ({len(written)} files); per stage: "
                + ", ".join(f"{s} {v:.1f} s" for s, v in runs[name][0].items()),
                flush=True,
            )
        (cold_stages, cold), (warm_stages, warm) = runs["empty cache"], runs["nothing changed"]
        print(
            f"\ntargets: empty cache {cold:.0f} s (<= 120), nothing changed {warm:.0f} s (<= 60); "
            f"the second run takes {warm / cold:.2f} of the first"
        )
        for stage in cold_stages.index:
            print(f"  {stage:8s} {cold_stages[stage]:7.1f} s -> {warm_stages[stage]:6.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

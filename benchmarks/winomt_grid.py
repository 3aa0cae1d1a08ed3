"""Time the WinoMT grid (every shipped system × language with a reader, plus the "+Adj" files) by stage.

Stages, as ``stats-mtbias winomt`` and the report run them (``winomt_reading.judge`` per file):
read (items and translation files), align (FastAlign, grow-diag-final-and, one run per
language over all its files, which it also reads), morphology (the per-language readers),
metrics and intervals (Acc/F1/ΔG/ΔS with 10,000 stratified resamples, paired comparisons,
"+Adj"). Run twice in a fresh cache directory: cold (nothing cached, readers not yet
loaded) and from the cache (alignments and readings cached by content and code hash).
Target (issue 3): ≤ 3 min cold, ≤ 10 s from cache, on 2 cores.

Usage: python benchmarks/winomt_grid.py [--data-dir DIR] [--n-boot 10000]
"""

from __future__ import annotations

import argparse
import functools
import os
import tempfile
import time

import pandas as pd


def _timed(function, times: dict, stage: str):
    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        start = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            times[stage] += time.perf_counter() - start

    return wrapper


def run_grid(data_dir, n_boot: int) -> dict[str, float]:
    from stats_mtbias.datasets import winomt as winomt_data
    from stats_mtbias.datasets.registry import open_store
    from stats_mtbias.gender.targets import LANGUAGES
    from stats_mtbias.studies import winomt, winomt_reading

    winomt_reading._LANGUAGE_LINKS.clear()  # the in-process memo: "from cache" means from the disk cache
    times = dict.fromkeys(("judge", "align", "morphology", "metrics"), 0.0)
    originals = winomt_reading._language_links, winomt_reading.read_pairs
    # Instrument the two inner stages where judge() looks them up.
    winomt_reading._language_links = _timed(originals[0], times, "align")
    winomt_reading.read_pairs = _timed(originals[1], times, "morphology")
    try:
        start = time.perf_counter()
        store = open_store(data_dir)
        items = winomt_data.read_items(store)
        files = [f for f in winomt_data.translation_files() if f[1] in LANGUAGES]
        base = [winomt_reading.judge(store, s, lang, items) for s, lang, adj, _ in files if not adj]
        adj = [winomt_reading.judge(store, s, lang, items, adjectives=True) for s, lang, a, _ in files if a]
        times["judge"] = time.perf_counter() - start
    finally:
        winomt_reading._language_links, winomt_reading.read_pairs = originals
    start = time.perf_counter()
    base, adj = pd.concat(base, ignore_index=True), pd.concat(adj, ignore_index=True)
    winomt.analyse(base, n_boot=n_boot, seed=0)
    winomt.adjective_effect(base, adj)
    times["metrics"] = time.perf_counter() - start
    times["read"] = times.pop("judge") - times["align"] - times["morphology"]
    times["files"] = len(files)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir")
    parser.add_argument("--n-boot", type=int, default=10_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        os.environ["MTBIAS_CACHE"] = cache
        rows = []
        for label in ("cold", "from cache"):
            start = time.perf_counter()
            times = run_grid(args.data_dir, args.n_boot)
            rows.append({"run": label, **times, "total": time.perf_counter() - start})
    frame = pd.DataFrame(rows).set_index("run")[["read", "align", "morphology", "metrics", "total", "files"]]
    print(f"WinoMT grid: {int(frame['files'].iloc[0])} translation files, {args.n_boot} resamples; seconds per stage")
    print(frame.drop(columns="files").round(1).to_string())
    print("target: cold <= 180 s, from cache <= 10 s")


if __name__ == "__main__":
    main()

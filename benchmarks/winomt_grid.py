"""Time the WinoMT grid (every shipped system × language with a reader, plus the "+Adj" files) by stage.

Stages, as ``stats-mtbias winomt`` and the report run them: read (items and translation
files, FastAlign alignment per language over all its files, the per-language readers; one
process per language to read, at most the CPUs), metrics and intervals (Acc/F1/ΔG/ΔS with
stratified resamples, paired comparisons, "+Adj"). Run twice in a fresh cache directory:
cold (nothing cached, readers not yet loaded) and from the cache (readings cached by
content and code hash). Targets (issue 21): cold ≤ 60 s, from cache ≤ 5 s, on 2 cores.
``MTBIAS_WORKERS=1 python benchmarks/winomt_grid.py`` gives the one-process figure to compare.

Usage: python benchmarks/winomt_grid.py [--data-dir DIR] [--n-boot 10000]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

import pandas as pd


def run_grid(data_dir, n_boot: int) -> dict[str, float]:
    from stats_mtbias.datasets import winomt as winomt_data
    from stats_mtbias.datasets.registry import open_store
    from stats_mtbias.gender.targets import LANGUAGES
    from stats_mtbias.studies import winomt, winomt_reading

    winomt_reading._LANGUAGE_LINKS.clear()  # the in-process memo: "from cache" means from the disk cache
    times = {}
    start = time.perf_counter()
    store = open_store(data_dir)
    items = winomt_data.read_items(store)
    jobs = [(s, lang, adj, None) for s, lang, adj, _ in winomt_data.translation_files() if lang in LANGUAGES]
    languages = {lang for _, lang, _, _ in jobs}
    times["workers"] = winomt.reading_workers(len(languages))
    tables = winomt._judge_all(store, items, jobs, aligner="fastalign", use_pronoun=False, explain=False, progress=None)
    times["read"] = time.perf_counter() - start
    start = time.perf_counter()
    base = pd.concat([t for t, job in zip(tables, jobs) if not job[2]], ignore_index=True)
    adj = pd.concat([t for t, job in zip(tables, jobs) if job[2]], ignore_index=True)
    winomt.analyse(base, n_boot=n_boot, rng=0)
    winomt.adjective_effect(base, adj)
    times["metrics"] = time.perf_counter() - start
    times["files"] = len(jobs)
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
    frame = pd.DataFrame(rows).set_index("run")[["read", "metrics", "total", "workers", "files"]]
    print(f"WinoMT grid: {int(frame['files'].iloc[0])} translation files, {args.n_boot} resamples; seconds per stage "
          f"(read = align + morphology, {int(frame['workers'].iloc[0])} processes when cold; MTBIAS_WORKERS=1: one)")
    print(frame.drop(columns=["files", "workers"]).round(1).to_string())
    print("target (issue 21): cold <= 60 s, from cache <= 5 s on 2 cores")


if __name__ == "__main__":
    main()

"""Time the WinoMT grid (every shipped system × language with a reader, plus the "+Adj" files) by stage.

Stages: read (items, translation files, the extra bitext per language), align
(FastAlign, grow-diag-final-and), morphology (the per-language readers), metrics
and intervals (Acc/F1/ΔG/ΔS with 10,000 stratified resamples, paired comparisons,
"+Adj"). Run twice: cold (empty alignment cache, readers not loaded) and from the
alignment cache. Target (issue 3): ≤ 3 min cold, ≤ 10 s from cache, on 2 cores.

Usage: python benchmarks/winomt_grid.py [--data-dir DIR] [--n-boot 10000]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

import pandas as pd


def run_grid(data_dir, n_boot: int) -> dict[str, float]:
    from stats_mtbias.alignment import align, tokenize
    from stats_mtbias.datasets import winomt as winomt_data
    from stats_mtbias.datasets.registry import open_store
    from stats_mtbias.gender.targets import LANGUAGES
    from stats_mtbias.studies import winomt
    from stats_mtbias.studies.winomt_reading import _bitext, read_pairs

    times = dict.fromkeys(("read", "align", "morphology", "metrics"), 0.0)
    start = time.perf_counter()
    store = open_store(data_dir)
    items = winomt_data.read_items(store)
    files = [f for f in winomt_data.translation_files() if f[1] in LANGUAGES]
    times["read"] += time.perf_counter() - start
    base, adj = [], []
    for system, language, is_adj, relpath in files:
        t0 = time.perf_counter()
        table = winomt_data.read_translations(store.path(relpath), items, adjectives=is_adj)
        extra = _bitext(store, language, items, skip=relpath)
        ok = (table["reason"] == "").to_numpy()
        merged = items.merge(table[["item", "source", "translation", "reason"]], on="item")
        sources = merged.loc[ok, "source"].tolist()
        translations = merged.loc[ok, "translation"].tolist()
        indices = merged.loc[ok, "entity_index"].to_numpy() + (1 if is_adj else 0)
        t1 = time.perf_counter()
        links = align([tokenize(s) for s in sources], [tokenize(t) if t else [] for t in translations], extra=extra)
        t2 = time.perf_counter()
        genders = pd.Series("unknown", index=merged.index, dtype=object)
        genders[ok] = read_pairs(sources, indices, translations, language, alignments=links)
        t3 = time.perf_counter()
        merged["gender"], merged["system"], merged["language"] = genders, system, language
        merged["reason"] = merged["reason"].where(~(ok & (genders == "unknown")), "no_reading")
        (adj if is_adj else base).append(merged)
        times["read"] += t1 - t0
        times["align"] += t2 - t1
        times["morphology"] += t3 - t2
    t0 = time.perf_counter()
    base, adj = pd.concat(base, ignore_index=True), pd.concat(adj, ignore_index=True)
    winomt.analyse(base, n_boot=n_boot, seed=0)
    winomt.adjective_effect(base, adj)
    times["metrics"] = time.perf_counter() - t0
    times["files"] = len(files)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir")
    parser.add_argument("--n-boot", type=int, default=10_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        # A fresh cache directory: the first pass aligns everything, the second reads the cached alignments.
        os.environ["MTBIAS_CACHE"] = cache
        rows = []
        for label in ("cold", "from cache"):
            start = time.perf_counter()
            times = run_grid(args.data_dir, args.n_boot)
            rows.append({"run": label, **times, "total": time.perf_counter() - start})
    frame = pd.DataFrame(rows).set_index("run")
    print(f"WinoMT grid: {int(frame['files'].iloc[0])} translation files, {args.n_boot} resamples; seconds per stage")
    print(frame.drop(columns="files").round(1).to_string())
    print("target: cold <= 180 s, from cache <= 10 s")


if __name__ == "__main__":
    main()

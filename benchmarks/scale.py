"""Counting judgements at scale: time and peak memory against pyarrow's own read + group-by (prints figures; no assertion).

Usage: python benchmarks/scale.py [--rows 10_000_000] [--big-rows 100_000_000] [--dir DIR] [--skip-big] [--skip-dask]

Generates judgements ``occupation, gender, system, language`` over the BLS
occupations (the shipped reference; MTBIAS_DATA or the cache) and measures, each
in a fresh process (peak memory = that process's maximum resident set):

1. pyarrow: ``pyarrow.csv.read_csv`` + ``Table.group_by(keys).aggregate(count)``,
   the physical lower bound the issue measured (2.6 s, 1.3 GB on 2 cores);
2. ``stats_mtbias.datasets.counting.count_rows`` on the same CSV (target: <= 2x the time,
   <= 1.5x the memory of 1), and the whole ``stats-mtbias optimal --judgements``;
3. the same judgements as one Parquet file (target: <= 2 s), and ``smb.rates``
   on it with every judgement its own cluster (``cluster=None``, 1,000 resamples);
4. ``--big-rows`` judgements as Parquet partitions, streamed (target: peak <= 2 GB);
5. Dask: the partitions counted on a ``LocalCluster`` of 2 workers, and
   ``smb.optimal`` / ``smb.rates`` through it, compared with the local path
   (target: identical, exactly).

Targets are the issue's (21); the script prints the ratios, it does not judge.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
KEYS = ["occupation", "gender", "system", "language"]
SYSTEMS = ["llm-a", "llm-b", "llm-c", "mt-d", "mt-e"]
LANGUAGES = ["de", "es", "fr", "it"]


def _occupations():
    """BLS occupation names that occur once in the reference (so no category is needed) and their female shares."""
    import numpy as np

    from stats_mtbias.datasets import reference
    from stats_mtbias.datasets.registry import open_store

    bls = reference.bls_reference(open_store())
    once = bls.groupby("occupation").filter(lambda g: len(g) == 1)
    return once["occupation"].to_numpy(), np.clip(once["female_share"].to_numpy(float), 0.02, 0.98)


def _table(rows: int, seed: int):
    """A pyarrow table of ``rows`` judgements: the female share of a system follows the reference, shrunk to male."""
    import numpy as np
    import pyarrow as pa

    names, shares = _occupations()
    rng = np.random.default_rng(seed)
    occ = rng.integers(0, len(names), rows)
    system = rng.integers(0, len(SYSTEMS), rows)
    language = rng.integers(0, len(LANGUAGES), rows)
    p_female = shares[occ] * (0.5 + 0.1 * system)
    u = rng.random(rows)
    gender = np.where(u < p_female, 0, np.where(u < 0.97, 1, 2))  # female, male, neutral
    genders = np.array(["female", "male", "neutral"])

    def column(codes, labels):
        return pa.DictionaryArray.from_arrays(pa.array(codes.astype(np.int32)), pa.array(labels)).cast(pa.string())

    return pa.table(
        {
            "occupation": column(occ, list(names)),
            "gender": column(gender, list(genders)),
            "system": column(system, SYSTEMS),
            "language": column(language, LANGUAGES),
        }
    )


def generate(directory: Path, rows: int, big_rows: int) -> dict[str, Path]:
    """The CSV and Parquet files of ``rows`` judgements, and ``big_rows`` as Parquet partitions of 5 million."""
    import pyarrow.csv as pacsv
    import pyarrow.parquet as pq

    directory.mkdir(parents=True, exist_ok=True)
    paths = {
        "csv": directory / f"judgements-{rows}.csv",
        "parquet": directory / f"judgements-{rows}.parquet",
        "big": directory / f"partitions-{big_rows}",
    }
    if not paths["csv"].exists() or not paths["parquet"].exists():
        table = _table(rows, seed=1)
        pacsv.write_csv(table, paths["csv"])
        pq.write_table(table, paths["parquet"])
        del table
    part_rows = 5_000_000
    if big_rows and not (paths["big"] / "done").exists():
        paths["big"].mkdir(exist_ok=True)
        for i in range(0, big_rows, part_rows):
            part = _table(min(part_rows, big_rows - i), seed=100 + i // part_rows)
            pq.write_table(part, paths["big"] / f"part-{i // part_rows:03d}.parquet")
        (paths["big"] / "done").write_text("")
    return paths


_GROUP = "r = t.group_by(K).aggregate([([], 'count_all')]); N = r.num_rows"
_OURS = "from stats_mtbias.datasets.counting import count_rows; r = count_rows(P, K); N = len(r)"
TASKS = {
    "arrow-csv": f"import pyarrow.csv as c; t = c.read_csv(P); {_GROUP}",
    "count-csv": _OURS,
    "arrow-parquet": f"import pyarrow.parquet as q; t = q.read_table(P); {_GROUP}",
    "count-parquet": _OURS,
    "count-big": _OURS,
    # Every judgement its own cluster: the bootstrap over rows drawn as multinomial counts of the cells.
    "rates-cells": "import stats_mtbias as smb; r = smb.rates(P, system='system', cluster=None, by='language', "
    "n_boot=1000, rng=0); N = len(r.table)",
}


def _measure(task: str, path: Path) -> dict:
    """Run one task in a fresh interpreter: wall seconds (import excluded) and that process's peak memory."""
    code = (
        "import json, time, warnings; warnings.simplefilter('ignore')\n"
        "import numpy, pandas, pyarrow, pyarrow.csv, pyarrow.parquet, stats_mtbias.datasets.counting\n"
        f"P, K = {str(path)!r}, {KEYS!r}\n"
        "start = time.perf_counter()\n"
        f"{TASKS[task]}\n"
        "seconds = time.perf_counter() - start\n"
        # VmHWM: this process's own peak (ru_maxrss would carry the parent's peak over fork and exec).
        "hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM')][0].split()[1]\n"
        "print(json.dumps({'seconds': seconds, 'cells': N, 'peak_mb': int(hwm) / 1024}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _cli(path: Path) -> dict:
    """The whole command a user runs (start-up, counting, bootstrap, output): wall seconds and peak memory."""
    args = ["optimal", "--judgements", str(path), "--n-boot", "1000", "--quiet"]
    code = (
        "import sys, time\n"
        "start = time.perf_counter()\n"
        "from stats_mtbias.cli import main\n"
        f"rc = main({args!r})\n"
        "hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM')][0].split()[1]\n"
        "print(time.perf_counter() - start, int(hwm) / 1024, file=sys.stderr)\n"
        "sys.exit(rc)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=ROOT, check=True
    )
    seconds, peak = map(float, out.stderr.strip().splitlines()[-1].split())
    return {"seconds": seconds, "peak_mb": peak}


def _dask(big: Path, csv_path: Path) -> None:
    """Counts and results on a 2-worker LocalCluster against the local path."""
    import warnings

    import pandas as pd
    from distributed import Client, LocalCluster

    import stats_mtbias as smb
    from stats_mtbias.datasets.counting import count_rows

    warnings.simplefilter("ignore")
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, Client(cluster):
        start = time.perf_counter()
        distributed = count_rows(str(big / "*.parquet"), KEYS, engine="dask")
        dask_seconds = time.perf_counter() - start
        start = time.perf_counter()
        local = count_rows(str(big / "*.parquet"), KEYS, engine="arrow")
        local_seconds = time.perf_counter() - start
        same = distributed.reset_index(drop=True).equals(local.reset_index(drop=True))
        print(
            f"  count table of {local.attrs['rows']:,} rows: dask {dask_seconds:.1f} s, local {local_seconds:.1f} s; "
            f"identical: {same} ({len(local)} cells)"
        )
        a = smb.optimal(str(big / "*.parquet"), engine="dask", n_boot=500, rng=1).table
        b = smb.optimal(str(big / "*.parquet"), engine="arrow", n_boot=500, rng=1).table
        print(f"  smb.optimal through dask == local: {a.equals(b)} ({len(a)} rows)")
        a = smb.rates(str(csv_path), engine="dask", cluster="occupation", by="language", n_boot=200, rng=1).table
        b = smb.rates(str(csv_path), engine="arrow", cluster="occupation", by="language", n_boot=200, rng=1).table
        print(f"  smb.rates through dask == local: {pd.DataFrame.equals(a, b)} ({len(a)} rows)")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--big-rows", type=int, default=100_000_000)
    parser.add_argument("--dir", help="where the generated files are kept (default: a temporary directory)")
    parser.add_argument("--skip-big", action="store_true", help="no 100-million-row run")
    parser.add_argument("--skip-dask", action="store_true", help="no Dask LocalCluster run")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(args.dir or tmp)
        start = time.perf_counter()
        paths = generate(directory, args.rows, 0 if args.skip_big else args.big_rows)
        size = paths["csv"].stat().st_size / 1e6
        print(
            f"data: {args.rows:,} judgements, CSV {size:.0f} MB, Parquet {paths['parquet'].stat().st_size / 1e6:.0f} MB"
            f" ({time.perf_counter() - start:.0f} s to generate or find) in {directory}"
        )
        print(f"cores: {os.cpu_count()}")
        arrow, ours = _measure("arrow-csv", paths["csv"]), _measure("count-csv", paths["csv"])
        print(f"\nCSV, {args.rows:,} rows")
        print(f"  pyarrow read_csv + group_by : {arrow['seconds']:6.2f} s, peak {arrow['peak_mb']:6.0f} MB")
        print(f"  count_rows (streamed)       : {ours['seconds']:6.2f} s, peak {ours['peak_mb']:6.0f} MB, {ours['cells']} cells")
        print(
            f"  ratios: time {ours['seconds'] / arrow['seconds']:.2f} (target <= 2), "
            f"memory {ours['peak_mb'] / arrow['peak_mb']:.2f} (target <= 1.5)"
        )
        cli = _cli(paths["csv"])
        print(
            f"  stats-mtbias optimal --judgements (whole command, 1,000 resamples): {cli['seconds']:.1f} s, "
            f"peak {cli['peak_mb']:.0f} MB (issue: 88 s, 10 GB before)"
        )
        arrow, ours = _measure("arrow-parquet", paths["parquet"]), _measure("count-parquet", paths["parquet"])
        print(f"\nParquet, {args.rows:,} rows")
        print(f"  pyarrow read_table + group_by: {arrow['seconds']:6.2f} s, peak {arrow['peak_mb']:6.0f} MB")
        print(f"  count_rows (streamed)        : {ours['seconds']:6.2f} s, peak {ours['peak_mb']:6.0f} MB (target <= 2 s)")
        cells = _measure("rates-cells", paths["parquet"])
        print(
            f"  smb.rates(cluster=None, by='language'), 1,000 resamples: {cells['seconds']:.2f} s, "
            f"peak {cells['peak_mb']:.0f} MB ({cells['cells']} table rows)"
        )
        if not args.skip_big:
            big = _measure("count-big", paths["big"])
            print(f"\nParquet partitions, {args.big_rows:,} rows, streamed")
            print(
                f"  count_rows: {big['seconds']:.1f} s ({args.big_rows / big['seconds'] / 1e6:.1f} M rows/s), "
                f"peak {big['peak_mb']:.0f} MB (target <= 2048 MB)"
            )
        if not args.skip_dask:
            print("\nDask LocalCluster, 2 workers")
            _dask(paths["big"] if not args.skip_big else paths["parquet"].parent, paths["csv"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

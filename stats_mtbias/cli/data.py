"""``stats-mtbias data list|download|verify``: the public datasets (a thin wrapper over :mod:`stats_mtbias.datasets.registry`)."""

from __future__ import annotations

import argparse
import importlib.util
import sys

from stats_mtbias.cli import _options
from stats_mtbias.cli._output import Output
from stats_mtbias.datasets.registry import ACTIONS, check_datasets, datasets, inventory

NAME = "data"


def add_parser(sub) -> argparse.ArgumentParser:
    data = sub.add_parser(
        NAME,
        help="the public datasets: list them, download them (sha256-checked), verify a copy",
        description="Where: --data-dir, else $MTBIAS_DATA, else the user cache ($MTBIAS_CACHE). "
        "Downloads come from the public sources, or from $MTBIAS_MIRROR (a URL or a local directory "
        "laid out like the data). Exit 65 when verify finds a file that differs from the published "
        "one, 66 when one is missing.",
    )
    data.add_argument("action", choices=ACTIONS)
    data.add_argument("datasets", nargs="*", metavar="DATASET", help=f"{', '.join(sorted(datasets()))} (default: all)")
    _options.add_data_dir(data)
    data.add_argument("--files", action="store_true", help="one row per file instead of per dataset")
    _options.add_format(data, "write the output to this file instead of stdout")
    _options.add_show(data)
    return data


def run(args: argparse.Namespace) -> Output:
    check_datasets(args.datasets)  # an unknown name before any download
    progress, bar = None, None
    if args.action == "download" and not args.quiet:
        if sys.stderr.isatty() and importlib.util.find_spec("tqdm") is not None:  # a bar with the report extra
            from tqdm.auto import tqdm

            bar = tqdm(unit="B", unit_scale=True, desc="download")

            def progress(i, total, entry, state):
                bar.update(entry.size)
        else:

            def progress(i, total, entry, state):
                if state != "present":
                    print(f"[{i}/{total}] {state}: {entry.path}", file=sys.stderr, flush=True)

    try:
        found = inventory(args.datasets, data_dir=args.data_dir, action=args.action, progress=progress)
    finally:
        if bar is not None:
            bar.close()
    notes = [f"data directory: {found.store.root} ({found.store.origin})"]
    if args.action == "verify":
        found.check()
    return Output(found.files if args.files else found.summary(), found.provenance(), notes)

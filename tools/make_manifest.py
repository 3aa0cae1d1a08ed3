"""Regenerate data/manifest.json from a verified copy of the public datasets.

Usage: python tools/make_manifest.py ../shared/data

Records, for every file, its path in the data directory, its path in the source
repository, the raw download URL and its sha256. Run it only on a copy you have
checked; the manifest is what downloads are verified against.
"""

from __future__ import annotations

import hashlib
import json
import sys
import urllib.parse
from pathlib import Path

SOURCES = {
    "tgbi": {
        "repository": "https://github.com/nolongerprejudice/tgbi",
        "raw": "https://raw.githubusercontent.com/nolongerprejudice/tgbi/master/",
        "license": "none stated by the authors; research use",
    },
    "winomt": {
        "repository": "https://github.com/gabrielStanovsky/mt_gender",
        "raw": "https://raw.githubusercontent.com/gabrielStanovsky/mt_gender/master/",
        "license": "MIT",
    },
    "prates": {
        "repository": "https://github.com/marceloprates/Gender-Bias",
        "raw": "https://raw.githubusercontent.com/marceloprates/Gender-Bias/master/",
        "license": "none stated by the authors; research use",
    },
}


def source_path(dataset: str, inner: str) -> str:
    """Path in the source repository (human-annotation names were de-spaced locally)."""
    if dataset == "winomt" and inner.startswith("data/human_annotations/"):
        name = inner.rsplit("/", 1)[1]
        left, sep, right = name.partition("__")
        if sep:
            stem = right.removesuffix(".csv")
            if stem[-1].isdigit() and stem[-2].isalpha():
                stem = f"{stem[:-1]} ({stem[-1]})"
            name = f"{left} - {stem}.csv"
        return "data/human_annotations/" + name
    return inner


def main(root: Path) -> None:
    files = []
    for path in sorted(p for p in root.rglob("*") if p.is_file() and p.name != "README.md"):
        rel = path.relative_to(root).as_posix()
        dataset, inner = rel.split("/", 1)
        src = source_path(dataset, inner)
        files.append(
            {
                "path": rel,
                "dataset": dataset,
                "source_path": src,
                "url": SOURCES[dataset]["raw"] + urllib.parse.quote(src),
                "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
                "size": path.stat().st_size,
            }
        )
    out = Path(__file__).resolve().parents[1] / "data" / "manifest.json"
    out.write_text(json.dumps({"sources": SOURCES, "files": files}, indent=1) + "\n", "utf-8")
    print(f"wrote {len(files)} entries to {out}")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "../shared/data"))

"""The two example reports of issue 35: your own systems beside baselines, and your own benchmark.

Usage: python tools/example_reports.py [--out reports/examples] [--n-boot 2000] [--screenshot]

1. ``own-winomt``: two "own" WinoMT systems beside google and aws in Spanish, German and
   French, through the command line (``stats-mtbias report --translations ... --systems
   google,aws``). The own systems are made from the shipped outputs, so anyone can
   rebuild them: ``mine-a`` takes each line from bing or systran, ``mine-b`` from google
   or sota where sota has the language, else systran — at random with a fixed seed
   (``mine-b`` shares about half its lines with google: the comparison is of two close
   systems).
2. ``own-benchmark``: a synthetic TGBI-style benchmark of three systems on four sets in
   one source language (``smb.tgbi(outputs=...)``), the same outputs' gender rates per
   set (``smb.rates``) and two annotators' labels of 300 of them (``smb.agreement``) in
   one report, through the API.

With ``--screenshot`` (headless Chromium on PATH) each report's first screen is saved as
``screenshot.png`` in its folder.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

LANGUAGES = ("es", "de", "fr")
SEED = 20261125


def mixed_translations(data_dir: Path | None, out: Path, rng: np.random.Generator) -> dict[str, list[Path]]:
    """Write mine-a and mine-b's en-XX.txt files (one shipped system's line or another's, chosen at random)."""
    from stats_mtbias.datasets.registry import open_store

    store = open_store(data_dir)
    files: dict[str, list[Path]] = {"mine-a": [], "mine-b": []}
    for language in LANGUAGES:

        def lines(system: str, language: str = language) -> list[str] | None:
            try:
                path = store.path(f"winomt/translations/{system}/en-{language}.txt")
            except Exception:  # a system without this language
                return None
            return path.read_text("utf-8").splitlines()

        bing, systran, google = lines("bing"), lines("systran"), lines("google")
        sota = lines("sota") or systran
        pick_a = rng.random(len(bing)) < 0.5
        pick_b = rng.random(len(google)) < 0.5
        for name, first, second, pick in (("mine-a", bing, systran, pick_a), ("mine-b", google, sota, pick_b)):
            folder = out / "inputs" / name
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / f"en-{language}.txt"
            path.write_text("\n".join(a if p else b for a, b, p in zip(first, second, pick)) + "\n", "utf-8")
            files[name].append(path)
    return files


def synthetic_benchmark(rng: np.random.Generator) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Outputs of three systems on four sets (already read: a gender per output) and two annotators' labels."""
    sets = {"occupations": 120, "adjectives": 80, "verbs": 60, "mixed": 100}
    female = {"base": 0.22, "mine": 0.34, "mine-debiased": 0.45}
    neutral = {"base": 0.10, "mine": 0.12, "mine-debiased": 0.20}
    rows = []
    for system in female:
        for name, size in sets.items():
            u = rng.random(size)
            shift = {"occupations": -0.08, "adjectives": 0.05, "verbs": 0.0, "mixed": 0.02}[name]
            f, n = female[system] + shift, neutral[system]
            gender = np.where(u < f, "female", np.where(u < f + n, "neutral", "male"))
            rows.append(
                pd.DataFrame({"system": system, "set": name, "item": [f"{name}-{i:03d}" for i in range(size)], "gender": gender})
            )
    outputs = pd.concat(rows, ignore_index=True)
    labelled = outputs[outputs["system"] == "mine"].sample(300, random_state=SEED).reset_index(drop=True)
    flip = rng.random(len(labelled)) < 0.06
    other = np.where(labelled["gender"] == "female", "male", "female")
    labels = pd.DataFrame(
        {
            "set": labelled["set"],
            "item": labelled["item"],
            "annotator_1": labelled["gender"],
            "annotator_2": np.where(flip, other, labelled["gender"]),
        }
    )
    return outputs, labels


def main(argv: list[str] | None = None) -> int:
    import stats_mtbias as smb
    from stats_mtbias.cli import main as cli

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="reports/examples", type=Path)
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--n-boot", type=int, default=2000)
    parser.add_argument("--screenshot", action="store_true")
    args = parser.parse_args(argv)
    rng = np.random.default_rng(SEED)

    own = args.out / "own-winomt"
    # The own systems' files are built outside the report (they are the shipped outputs, mixed).
    build = Path(tempfile.mkdtemp(prefix="own-winomt-"))
    files = mixed_translations(Path(args.data_dir) if args.data_dir else None, build, rng)
    argv = [
        "report",
        "--studies",
        "winomt",
        "--out",
        str(own),
        "--systems",
        "google,aws",
        "--n-boot",
        str(args.n_boot),
        "--seed",
        str(SEED),
        "--no-progress",
    ]
    for name, paths in files.items():  # a system's directory of en-XX.txt files
        argv += ["--translations", str(paths[0].parent), "--system", name]
    if args.data_dir:
        argv += ["--data-dir", args.data_dir]
    if args.screenshot:
        argv += ["--screenshot", str(own / "screenshot.png")]
    code = cli(argv)
    if code:
        return code

    outputs, labels = synthetic_benchmark(rng)
    bench = args.out / "own-benchmark"
    tgbi = smb.tgbi(outputs=outputs, n_boot=args.n_boot, rng=SEED, against=["mine", "mine-debiased"])
    rates = smb.rates(outputs, by="set", n_boot=args.n_boot, rng=SEED, against=["mine", "mine-debiased"])
    agreement = smb.agreement(labels, a="annotator_1", b="annotator_2", by="set")
    written = smb.report(
        [tgbi, rates, agreement],
        out=bench,
        title="Gender bias of our systems on our benchmark",
        mine=["mine", "mine-debiased"],
        screenshot=bench / "screenshot.png" if args.screenshot else None,
    )
    print(f"wrote {len(written)} files into {bench}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Time a new user's first commands (issue 47) against their targets and the physical limit.

Figures, each in a fresh interpreter with CPU time (user + sys) beside the wall clock and
the machine's load (a loaded machine stretches the wall clock, not the CPU time):

- a user's WinoMT file (one shipped system's translations copied to a temporary file, so
  3,888 sentences of one language) with an empty cache (target ≤ 5 s) and warm (≤ 1 s),
  and the same file with every line changed (a user's own system: aligned anew), cold;
  the limit is the aligner alone on the same sentences: the language-wide training text
  (every shipped translation into the language), which a cold reading must align once;
- with ``--report``, ``python -m stats_mtbias.reporting`` with an empty cache (≤ 120 s).

Speed targets live here, never in timed tests. Prints figures; no assertion.

Usage: python benchmarks/first_contact.py [--language de] [--system google] [--report]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Run in the child: the import and the call timed apart, CPU and wall, printed as JSON on the last line.
_WINOMT = textwrap.dedent("""
    import json, sys, time, warnings
    warnings.simplefilter("ignore")
    c0, w0 = time.process_time(), time.perf_counter()
    import stats_mtbias as smb
    c1, w1 = time.process_time(), time.perf_counter()
    smb.winomt(translations={"mine": sys.argv[1]}, languages=[sys.argv[2]], n_boot=2000, rng=0)
    c2, w2 = time.process_time(), time.perf_counter()
    print(json.dumps({"import_cpu": c1 - c0, "import_wall": w1 - w0, "cpu": c2 - c1, "wall": w2 - w1}))
""")

# The physical limit: the aligner alone on the language's training text, no cache, no reading around it.
_ALIGNER = textwrap.dedent("""
    import json, sys, time, warnings
    warnings.simplefilter("ignore")
    from stats_mtbias.alignment import align, tokenize
    from stats_mtbias.datasets import winomt as winomt_data
    from stats_mtbias.datasets.registry import open_store
    from stats_mtbias.gender.entity import aligner_tokens
    from stats_mtbias.studies.winomt.reading import shipped_pairs
    store = open_store()
    items = winomt_data.read_items(store)
    src, trg = shipped_pairs(store, sys.argv[1], items, adjectives=True)
    src = [tokenize(s) for s in src]
    trg = aligner_tokens([tokenize(t) if t else [] for t in trg], sys.argv[1])
    c0, w0 = time.process_time(), time.perf_counter()
    align(src, trg, cache=False)
    c1, w1 = time.process_time(), time.perf_counter()
    print(json.dumps({"cpu": c1 - c0, "wall": w1 - w0, "pairs": len(src)}))
""")


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def child(code: str, *args: str, cache: Path) -> dict:
    env = dict(os.environ, MTBIAS_CACHE=str(cache), OMP_NUM_THREADS=os.environ.get("OMP_NUM_THREADS", "1"))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    before = load()  # the load when the figure was taken, printed beside it
    out = subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True, text=True, check=True)
    return {**json.loads(out.stdout.strip().splitlines()[-1]), "load": f"{before} → {load()}"}


def line(name: str, figure: dict, target: float, limit: dict | None = None) -> None:
    ratio = f"  {figure['cpu'] / limit['cpu']:.2f}× the limit (CPU)" if limit else ""
    print(
        f"{name:<34} CPU {figure['cpu']:6.2f} s  wall {figure['wall']:6.2f} s  target ≤ {target:g} s"
        f"{'  ok' if figure['cpu'] <= target else '  OVER'}{ratio}  [load {figure.get('load', load())}]"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--language", default="de")
    parser.add_argument("--system", default="google")
    parser.add_argument("--report", action="store_true", help="also time the full report (minutes)")
    args = parser.parse_args()

    from stats_mtbias.datasets.registry import open_store

    with tempfile.TemporaryDirectory(prefix="mtbias-bench-") as scratch:
        scratch = Path(scratch)
        mine = scratch / f"en-{args.language}.txt"
        mine.write_bytes(open_store().path(f"winomt/translations/{args.system}/en-{args.language}.txt").read_bytes())
        # A user's own system: every line new (the full stop made "!"), so aligned with the bitext, not looked up.
        own = scratch / "own" / f"en-{args.language}.txt"
        own.parent.mkdir()
        lines = mine.read_text("utf-8").splitlines()
        own.write_text("\n".join(x[:-1] + "!" if x.endswith(".") else x + " !" for x in lines) + "\n", "utf-8")
        cold = child(_WINOMT, str(mine), args.language, cache=scratch / "cache")
        new = child(_WINOMT, str(own), args.language, cache=scratch / "cache-own")
        warm = child(_WINOMT, str(mine), args.language, cache=scratch / "cache")
        limit = child(_ALIGNER, args.language, cache=scratch / "unused")
        print(f"import stats_mtbias: CPU {cold['import_cpu']:.2f} s, wall {cold['import_wall']:.2f} s (not in the figures)")
        print(f"aligner alone ({limit['pairs']:,} pairs into {args.language}): CPU {limit['cpu']:.2f} s")
        line(f"WinoMT file ({args.language}), empty cache", cold, 5, limit)
        line(f"WinoMT file ({args.language}), warm", warm, 1)
        line(f"own new lines ({args.language}), empty cache", new, 5, limit)
        if args.report:
            start, before, at = time.perf_counter(), os.times(), load()
            env = dict(os.environ, MTBIAS_CACHE=str(scratch / "report-cache"))
            command = [sys.executable, "-m", "stats_mtbias.reporting", "--out", str(scratch / "reports")]
            subprocess.run(command, env=env, check=True, capture_output=True)
            after = os.times()
            cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
            # CPU of both cores against the 2-minute wall-clock target: a conservative reading on a loaded machine.
            figure = {"cpu": cpu, "wall": time.perf_counter() - start, "load": f"{at} → {load()}"}
            line("make report, empty cache", figure, 120)


if __name__ == "__main__":
    main()

"""Mutation score of the statistics core, per module, from mutmut's results (``make mutation``; docs/testing.md).

Reads ``mutants/**/*.py.meta`` (what ``mutmut run`` leaves) and ``tests/mutation/equivalent/*.toml``
(mutants recorded as equivalent, each with its reason; one file per module) and prints, per module: killed, survived,
equivalent, timeout, no tests, not checked, and the score ``killed / (killed + survived)`` over the
non-equivalent mutants that were run (a timeout counts as killed, as mutmut counts it). Then every
surviving mutant that is not recorded as equivalent, one per line (``mutmut show NAME`` prints its diff).

``--json FILE`` also writes the table; ``--fail-under SCORE`` exits 1 when the overall score is lower.

``--sample FILE`` (a sample drawn by ``tests/mutation/sample.py``) scores only the mutants drawn: per module the
population size, the number drawn, their outcomes and the sampled score with its 95% Wilson interval, an estimate
of the whole module's score (the finite-population correction is left out, so the interval is slightly wide).
The modules' shares of the sample are proportional to their sizes, so the pooled row is self-weighting.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import Counter
from pathlib import Path

import tomllib

STATUS = {
    1: "killed",
    3: "killed",
    0: "survived",
    5: "no tests",
    33: "no tests",
    34: "skipped",
    36: "timeout",
    24: "timeout",
    -24: "timeout",
    152: "timeout",
    255: "timeout",
    None: "not checked",
}
COLUMNS = ("killed", "survived", "equivalent", "timeout", "no tests", "not checked", "other")


def equivalents(path: Path) -> dict[str, str]:
    """``{mutant name: reason}`` from an equivalents file or a folder of them (``[[equivalent]] name = ...,
    reason = ...``); a mutant recorded twice, or without a reason, is an error."""
    files = sorted(path.glob("*.toml")) if path.is_dir() else [path] if path.exists() else []
    out: dict[str, str] = {}
    for file in files:
        for entry in tomllib.loads(file.read_text("utf-8")).get("equivalent", []):
            name, reason = entry["name"], entry.get("reason", "").strip()
            if not reason or name in out:
                raise SystemExit(f"{file}: {name} is recorded {'twice' if name in out else 'without a reason'}")
            out[name] = reason
    return out


def collect(root: Path, equivalent: dict[str, str]) -> tuple[dict[str, Counter], list[str]]:
    table: dict[str, Counter] = {}
    survivors = []
    for meta in sorted(root.glob("**/*.py.meta")):
        module = str(meta.relative_to(root))[: -len(".py.meta")].replace("/", ".")
        counts = table.setdefault(module, Counter())
        for name, code in json.loads(meta.read_text("utf-8"))["exit_code_by_key"].items():
            status = STATUS.get(code, "other")
            if status == "survived" and name in equivalent:
                status = "equivalent"
            counts[status] += 1
            if status == "survived":
                survivors.append(name)
    return table, survivors


def score(c: Counter) -> float:
    run = c["killed"] + c["timeout"] + c["survived"]
    return (c["killed"] + c["timeout"]) / run if run else float("nan")


def wilson(k: int, n: int, level: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for ``k`` successes in ``n`` trials.

    >>> [round(x, 4) for x in wilson(45, 50)]
    [0.7864, 0.9565]
    >>> wilson(0, 0)
    (nan, nan)
    """
    if n == 0:
        return float("nan"), float("nan")
    z = {0.95: 1.959963984540054}.get(level) or _z(level)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def _z(level: float) -> float:
    from statistics import NormalDist

    return NormalDist().inv_cdf(0.5 + level / 2)


def exit_codes(root: Path) -> dict[str, int | None]:
    """``{mutant name: mutmut's exit code}`` over every ``*.py.meta`` under ``root``."""
    out = {}
    for meta in sorted(root.glob("**/*.py.meta")):
        out.update(json.loads(meta.read_text("utf-8"))["exit_code_by_key"])
    return out


def sampled(sample: Path, root: Path, equivalent: dict[str, str]) -> tuple[dict[str, dict], list[str]]:
    """Per module of ``sample``: population, drawn, outcome counts of the drawn mutants, the score and its
    Wilson interval; and the drawn survivors not recorded as equivalent."""
    data = tomllib.loads(sample.read_text("utf-8"))
    codes = exit_codes(root)
    rows: dict[str, dict] = {}
    survivors = []
    for module in data["module"]:
        name = module["path"][: -len(".py")].replace("/", ".")
        c = Counter()
        for mutant in module["names"]:
            status = STATUS.get(codes.get(mutant), "other") if mutant in codes else "not checked"
            if status == "survived" and mutant in equivalent:
                status = "equivalent"
            c[status] += 1
            if status == "survived":
                survivors.append(mutant)
        rows[name] = {"population": module["population"], "drawn": len(module["names"]), **c}
    total = Counter()
    for row in rows.values():
        total.update(row)
    rows["TOTAL"] = dict(total)
    for row in rows.values():
        killed = row.get("killed", 0) + row.get("timeout", 0)
        run = killed + row.get("survived", 0)
        row["score"] = killed / run if run else float("nan")
        row["low"], row["high"] = wilson(killed, run)
    return rows, survivors


def print_sampled(rows: dict[str, dict], survivors: list[str]) -> None:
    cols = ("population", "drawn", "killed", "survived", "equivalent", "timeout", "no tests", "not checked")
    width = max(map(len, rows)) + 2
    print(f"{'module':<{width}}" + "".join(f"{c:>12}" for c in cols) + f"{'score':>9}  95% Wilson")
    for module, row in rows.items():
        cells = "".join(f"{row.get(k, 0):>12}" for k in cols)
        print(f"{module:<{width}}{cells}{row['score']:>9.1%}  [{row['low']:.1%}, {row['high']:.1%}]")
    for module, row in rows.items():  # a run stopped early: mutmut runs the fastest mutants first, not a random part
        killed = row.get("killed", 0) + row.get("timeout", 0)
        if row.get("not checked", 0):
            n = killed + row.get("survived", 0) + row.get("not checked", 0)
            high, low = (killed + row["not checked"]) / n, killed / n
            print(f"  {module}: {row['not checked']} not checked; if all were killed {high:.1%}, if none {low:.1%}")
    print(f"\n{len(survivors)} drawn mutants survived and are not recorded as equivalent (mutmut show NAME):")
    for name in survivors:
        print(f"  {name}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mutants", default="mutants", type=Path)
    parser.add_argument("--equivalent", default=Path(__file__).with_name("equivalent"), type=Path)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--fail-under", type=float)
    parser.add_argument("--sample", type=Path, help="score only the mutants drawn by tests/mutation/sample.py")
    args = parser.parse_args(argv)
    equivalent = equivalents(args.equivalent)
    if args.sample:
        rows, survivors = sampled(args.sample, args.mutants, equivalent)
        print_sampled(rows, survivors)
        if args.json:
            args.json.write_text(json.dumps(rows, indent=2))
        if args.fail_under is not None and not rows["TOTAL"]["score"] >= args.fail_under:
            print(f"sampled mutation score {rows['TOTAL']['score']:.1%} is below {args.fail_under:.1%}")
            return 1
        return 0
    table, survivors = collect(args.mutants, equivalent)
    if not table:
        print(f"no mutmut results under {args.mutants}/ (run `make mutation` first)")
        return 1
    total = sum(table.values(), Counter())
    width = max(map(len, table)) + 2
    print(f"{'module':<{width}}" + "".join(f"{c:>12}" for c in COLUMNS) + f"{'score':>9}")
    for module, c in [*table.items(), ("TOTAL", total)]:
        print(f"{module:<{width}}" + "".join(f"{c[k]:>12}" for k in COLUMNS) + f"{score(c):>9.1%}")
    print(f"\n{len(survivors)} surviving mutants not recorded as equivalent (mutmut show NAME):")
    for name in survivors:
        print(f"  {name}")
    if args.json:
        args.json.write_text(json.dumps({m: {**c, "score": score(c)} for m, c in [*table.items(), ("TOTAL", total)]}, indent=2))
    if args.fail_under is not None and not score(total) >= args.fail_under:
        print(f"mutation score {score(total):.1%} is below {args.fail_under:.1%}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

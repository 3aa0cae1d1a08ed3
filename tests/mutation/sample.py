"""A sampled mutation score: a seeded random draw of mutants, run with mutmut against chosen fast tests.

The whole of ``studies/rates.py`` and ``studies/tgbi.py`` is ~3,500 mutants, hours on two cores. A seeded
random sample estimates the score of the whole population with a stated interval (``report.py --sample``)::

    python tests/mutation/sample.py draw --n 240 --seed 45 --out tests/mutation/samples/rates-tgbi.toml
    nice -n 15 python tests/mutation/sample.py run tests/mutation/samples/rates-tgbi.toml
    python tests/mutation/report.py --mutants mutants-sample/mutants --sample tests/mutation/samples/rates-tgbi.toml
    python tests/mutation/sample.py check NAME [NAME ...] --tests tests/studies/test_tgbi.py::test_x

``check`` shows that a test kills a mutant: it runs the tests (the repository's current ones, copied in) on the
original and then on each named mutant, in one process, and prints each outcome (the original must pass).

``draw`` enumerates every mutant of the modules with mutmut's own generator (the same names ``mutmut run``
gives, ``do_not_mutate_patterns`` applied), draws ``n`` of them without replacement, allocated to the modules in
proportion to their size (largest remainders), and records the population sizes, the seed, the commit and the
names drawn. ``run`` copies the package and its tests into a scratch directory (``mutants-sample/``, never the
``mutants/`` of ``make mutation``) whose ``[tool.mutmut]`` mutates only those modules and selects only the tests
recorded in the sample (``tests``/``deselect``), then runs ``mutmut run --max-children 1`` on the names drawn.
A mutant these tests let survive may be killed by the wider selection of ``make mutation``: the sampled score is
the score of the recorded tests.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parents[2]
MODULES = ("stats_mtbias/studies/rates.py", "stats_mtbias/studies/tgbi.py")
# The fast tests that reach the rates engine and the TGBI study (no dataset is read; seconds per mutant).
TESTS = (
    "tests/studies/test_rates_engine.py",
    "tests/studies/test_rates_cells.py",
    "tests/studies/test_rates_family.py",
    "tests/studies/test_rates_gold.py",
    "tests/studies/test_rates_shared_items.py",
    "tests/studies/test_tgbi.py",
    "tests/studies/test_samples_rule.py",
    "tests/contract/test_rules.py",
)
# Simulations of tens of seconds; each has a fast sibling in the files above.
DESELECT = (
    "tests/studies/test_rates_cells.py::test_cells_coverage",
    "tests/studies/test_rates_shared_items.py::test_comparisons_near_zero_cover_their_level",
    "tests/studies/test_rates_shared_items.py::test_the_shared_items_comparison_covers_its_level_in_both_tails",
)


def module_name(path: str) -> str:
    """``stats_mtbias/studies/rates.py`` → ``stats_mtbias.studies.rates`` (mutmut's prefix of a mutant's name)."""
    return path[: -len(".py")].replace("/", ".")


def population(modules: list[str]) -> dict[str, list[str]]:
    """Every mutant name of each module, as ``mutmut run`` names them (run from the repository root, whose
    ``[tool.mutmut]`` gives the patterns left unmutated)."""
    from mutmut.mutation.file_mutation import mutate_file_contents

    out = {}
    for path in modules:
        mutated = mutate_file_contents(path, (ROOT / path).read_text("utf-8"))
        out[path] = sorted(f"{module_name(path)}.{name}" for name in mutated.mutant_names)
    return out


def allocate(sizes: dict[str, int], n: int) -> dict[str, int]:
    """``n`` split in proportion to ``sizes``, the remainder to the largest fractional parts (Hamilton).

    >>> allocate({"a": 2091, "b": 1419}, 240)
    {'a': 143, 'b': 97}
    """
    total = sum(sizes.values())
    if not 0 < n <= total:
        raise SystemExit(f"--n must be between 1 and the population size {total}, got {n}")
    quota = {k: n * v / total for k, v in sizes.items()}
    out = {k: int(q) for k, q in quota.items()}
    for k in sorted(quota, key=lambda k: out[k] - quota[k])[: n - sum(out.values())]:
        out[k] += 1
    return out


def draw(pop: dict[str, list[str]], n: int, seed: int) -> dict[str, list[str]]:
    """A stratified simple random sample without replacement, reproducible from ``seed``."""
    rng = random.Random(seed)
    take = allocate({k: len(v) for k, v in pop.items()}, n)
    return {k: sorted(rng.sample(pop[k], take[k])) for k in sorted(pop)}


def _toml_list(values) -> str:
    return "[\n" + "".join(f'    "{v}",\n' for v in values) + "]"


def write_sample(path: Path, *, seed: int, pop: dict[str, list[str]], drawn: dict[str, list[str]]) -> None:
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    lines = [
        "# A seeded sample of mutants (tests/mutation/sample.py draw); run with `sample.py run`, scored with",
        "# `report.py --sample`. Written by the script: edit by drawing again.",
        f"seed = {seed}",
        f'commit = "{commit}"',
        f'drawn_at = "{datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")}"',
        f"tests = {_toml_list(TESTS)}",
        f"deselect = {_toml_list(DESELECT)}",
    ]
    for module in sorted(drawn):
        lines += [
            "",
            "[[module]]",
            f'path = "{module}"',
            f"population = {len(pop[module])}",
            f"names = {_toml_list(drawn[module])}",
        ]
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text("\n".join(lines) + "\n", "utf-8")
    tmp.replace(path)


def read_sample(path: Path) -> dict:
    """The recorded sample; ``names`` maps each module (dotted) to its drawn mutants, ``population`` to its size."""
    data = tomllib.loads(path.read_text("utf-8"))
    data["names"] = {module_name(m["path"]): m["names"] for m in data["module"]}
    data["population"] = {module_name(m["path"]): m["population"] for m in data["module"]}
    return data


def _workdir_config(sample: dict) -> str:
    """The scratch directory's ``pyproject.toml``: the repository's, with ``[tool.mutmut]`` narrowed."""
    text = (ROOT / "pyproject.toml").read_text("utf-8")
    head, _, rest = text.partition("[tool.mutmut]")
    old = tomllib.loads(text)["tool"]["mutmut"]
    # The next table after [tool.mutmut] (if any) is kept as it is.
    nxt = rest.find("\n[")
    tail = rest[nxt:] if nxt >= 0 else ""
    selection = [*sample["tests"], "-m", "not slow"] + [x for d in sample["deselect"] for x in ("--deselect", d)]
    paths = [m["path"] for m in sample["module"]]

    def q(values) -> str:
        return "[" + ", ".join(f"'{v}'" for v in values) + "]"

    table = "\n".join(
        [
            "[tool.mutmut]",
            f"source_paths = {q(old['source_paths'])}",
            f"only_mutate = {q(paths)}",
            f"do_not_mutate = {q(old.get('do_not_mutate', []))}",
            f"do_not_mutate_patterns = {q(old.get('do_not_mutate_patterns', []))}",
            f"pytest_add_cli_args_test_selection = {q(selection)}",
            f"pytest_add_cli_args = {q(old.get('pytest_add_cli_args', []))}",
            f"timeout_multiplier = {old.get('timeout_multiplier', 15.0)}",
            "use_git_change_detection = false",
        ]
    )
    return head + table + "\n" + tail


def prepare(sample: dict, workdir: Path) -> None:
    """Copy the package, the tests and the project files into ``workdir`` (a previous copy is replaced; mutmut's
    results in ``workdir/mutants`` are kept, and it re-runs a named mutant whose function changed)."""
    workdir.mkdir(parents=True, exist_ok=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in ("stats_mtbias", "tests"):
        shutil.rmtree(workdir / name, ignore_errors=True)
        shutil.copytree(ROOT / name, workdir / name, ignore=ignore)
    shutil.copy2(ROOT / "conftest.py", workdir / "conftest.py")
    (workdir / "pyproject.toml").write_text(_workdir_config(sample), "utf-8")
    (workdir / "no-data").mkdir(exist_ok=True)


def unchecked(mutants: Path, names: list[str]) -> list[str]:
    """The `names` without a result in `mutants`: none yet, or their function changed in the repository since
    (mutmut's function hashes), so that ``run`` resumes where it stopped (mutmut runs again every mutant named)."""
    from mutmut.mutation.file_mutation import compute_function_hashes

    stale: dict[str, int | None] = {}
    for meta in mutants.glob("**/*.py.meta"):
        data = json.loads(meta.read_text("utf-8"))
        source = ROOT / str(meta.relative_to(mutants))[: -len(".meta")]
        now = compute_function_hashes(source.read_text("utf-8")) if source.exists() else {}
        changed = {f for f, h in data["hash_by_function_name"].items() if now.get(f) != h}
        for name, code in data["exit_code_by_key"].items():
            stale[name] = None if name.rpartition(".")[2].partition("__mutmut_")[0] in changed else code
    return [n for n in names if stale.get(n) is None]


def check(mutants: Path, names: list[str], tests: list[str]) -> int:
    """Run `tests` in `mutants` (mutmut's copy, the current tests copied in) on the original, then on each mutant;
    returns 1 unless the original passes and a test fails on every mutant."""
    import pytest

    shutil.rmtree(mutants / "tests", ignore_errors=True)
    shutil.copytree(ROOT / "tests", mutants / "tests", ignore=shutil.ignore_patterns("__pycache__"))
    os.chdir(mutants)
    sys.path.insert(0, str(mutants))
    os.environ.update(MTBIAS_DATA=str(mutants.parent / "no-data"), OMP_NUM_THREADS="1")
    outcome = {}
    for name in ["", *names]:
        os.environ["MUTANT_UNDER_TEST"] = name
        code = pytest.main(["-q", "-x", "-n", "0", "-p", "no:cacheprovider", "-o", "addopts=", "-W", "ignore", *tests])
        # Exit 1: a test failed; any other code (collection, usage) says nothing about the mutant.
        outcome[name or "original"] = {0: "passed", 1: "failed"}.get(int(code), f"error (pytest exit {int(code)})")
    for name, result in outcome.items():
        print(f"{result:<26} {name}")
    ok = outcome["original"] == "passed" and all(r == "failed" for n, r in outcome.items() if n != "original")
    return 0 if ok else 1


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    d = sub.add_parser("draw", help="draw and record a sample of mutant names")
    d.add_argument("--n", type=int, default=240)
    d.add_argument("--seed", type=int, required=True)
    d.add_argument("--modules", nargs="+", default=list(MODULES))
    d.add_argument("--out", type=Path, required=True)
    r = sub.add_parser("run", help="run the recorded sample with mutmut in a scratch directory")
    r.add_argument("sample", type=Path)
    r.add_argument("--workdir", type=Path, default=ROOT / "mutants-sample")
    r.add_argument("--only", nargs="*", help="run these names again (e.g. the survivors, after adding tests)")
    c = sub.add_parser("check", help="run tests on the original and on each named mutant (after `run`)")
    c.add_argument("names", nargs="+")
    c.add_argument("--tests", nargs="+", required=True)
    c.add_argument("--workdir", type=Path, default=ROOT / "mutants-sample")
    args = parser.parse_args(argv)
    if args.command == "check":
        return check(args.workdir / "mutants", args.names, args.tests)
    if args.command == "draw":
        os.chdir(ROOT)
        pop = population(args.modules)
        drawn = draw(pop, args.n, args.seed)
        write_sample(args.out, seed=args.seed, pop=pop, drawn=drawn)
        sizes = Counter({k: len(v) for k, v in drawn.items()})
        print(f"drew {sum(sizes.values())} of {sum(map(len, pop.values()))} mutants -> {args.out}: {dict(sizes)}")
        return 0
    sample = read_sample(args.sample)
    prepare(sample, args.workdir)
    names = args.only or unchecked(args.workdir / "mutants", [n for names in sample["names"].values() for n in names])
    if not names:
        print("every mutant drawn has a result (name some with --only to run them again)")
        return 0
    mutmut = Path(sys.executable).with_name("mutmut")
    env = {**os.environ, "MTBIAS_DATA": str(args.workdir / "no-data"), "OMP_NUM_THREADS": "1"}
    env.pop("PYTHONPATH", None)  # the copy in the scratch directory is the package under test
    return subprocess.run([str(mutmut), "run", "--max-children", "1", *names], cwd=args.workdir, env=env).returncode


if __name__ == "__main__":
    sys.exit(main())

"""Imports of the package's own modules sit at the top of each module (issue 45), except where listed here.

Every module of ``stats_mtbias`` is parsed with :mod:`ast`; an import of a ``stats_mtbias`` module inside a
function (or method) must be in :data:`ALLOWED`, with its reason — a cycle it breaks, a heavy optional
dependency it keeps out of start-up (PyMC, ArviZ, nutpie, PyTensor, Dask, spaCy, pyarrow, matplotlib, jinja2,
the aligners, Morfeusz, pymorphy3, or a package module importing one of them at its top), or the import time of
``import stats_mtbias`` — and every entry of the list must still be there. Relative imports count too.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "stats_mtbias"

# (module, function, imported module): reason.
ALLOWED = {
    ("stats_mtbias.planning.result", "PowerResult.plot", "stats_mtbias.plotting"): (
        "heavy: plotting imports matplotlib at its top, and planning.result is loaded by `import stats_mtbias`"
    ),
    ("stats_mtbias.reporting.sections", "builders", "stats_mtbias.reporting.sections"): (
        "cycle (each section module imports this package) and heavy (the models section imports PyMC)"
    ),
    ("stats_mtbias.api", "_checked", "stats_mtbias"): "import time: `options` imports every study (about 110 ms)",
    ("stats_mtbias.api", "parse_signature", "stats_mtbias"): "import time: `options` imports every study (about 110 ms)",
    ("stats_mtbias.api", "_read_delimited", "stats_mtbias.datasets._io"): "import time: no datasets layer at start-up",
    ("stats_mtbias.api", "from_harness", "stats_mtbias.datasets"): "import time: no datasets layer at start-up",
    (
        "stats_mtbias.api",
        "agreement",
        "stats_mtbias.studies",
    ): "import time: a study loads on first use (all of them: about 110 ms)",
    ("stats_mtbias.api", "model", "stats_mtbias.studies"): "import time: a study loads on first use (all of them: about 110 ms)",
    (
        "stats_mtbias.api",
        "optimal",
        "stats_mtbias.studies",
    ): "import time: a study loads on first use (all of them: about 110 ms)",
    ("stats_mtbias.api", "prates", "stats_mtbias.studies"): "import time: a study loads on first use (all of them: about 110 ms)",
    ("stats_mtbias.api", "rates", "stats_mtbias.studies"): "import time: a study loads on first use (all of them: about 110 ms)",
    ("stats_mtbias.api", "report", "stats_mtbias.report.results"): "heavy: matplotlib",
    ("stats_mtbias.api", "tgbi", "stats_mtbias.studies"): "import time: a study loads on first use (all of them: about 110 ms)",
    ("stats_mtbias.api", "winomt", "stats_mtbias.studies"): "import time: a study loads on first use (all of them: about 110 ms)",
    ("stats_mtbias.cli.power", "run", "stats_mtbias.plotting"): "heavy: matplotlib",
    ("stats_mtbias.cli.report", "run", "stats_mtbias.reporting"): (
        "heavy: matplotlib (reporting.build imports report.results, which imports plotting)"
    ),
    (
        "stats_mtbias.studies._reading_worker",
        "main",
        "stats_mtbias.studies.winomt.reading",
    ): "import time: only after stdout is redirected, so nothing printed while importing reaches the pickle on stdout",
}


def _resolve(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    package = module if is_package else module.rpartition(".")[0]
    parts = package.split(".")[: len(package.split(".")) - node.level + 1]
    return ".".join([*parts, node.module] if node.module else parts)


def _scan(node: ast.AST, module: str, is_package: bool, scope: tuple[str, ...] = (), in_function: bool = False):
    """Yield ``(module, function, imported module)`` for the stats_mtbias imports inside functions under `node`."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield from _scan(child, module, is_package, (*scope, child.name), True)
        elif isinstance(child, ast.ClassDef):
            yield from _scan(child, module, is_package, (*scope, child.name), in_function)
        elif in_function and isinstance(child, ast.Import):
            for alias in child.names:
                if alias.name.split(".")[0] == "stats_mtbias":
                    yield module, ".".join(scope), alias.name
        elif in_function and isinstance(child, ast.ImportFrom):
            target = _resolve(child, module, is_package)
            if target.split(".")[0] == "stats_mtbias":
                yield module, ".".join(scope), target
        else:
            yield from _scan(child, module, is_package, scope, in_function)


def function_level_imports(package: Path = PACKAGE) -> set[tuple[str, str, str]]:
    """``(module, function, imported module)`` of every import of a stats_mtbias module inside a function."""
    found = set()
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found.update(_scan(ast.parse(path.read_text("utf-8")), module, path.name == "__init__.py"))
    return found


def test_own_imports_are_at_the_top_except_the_listed_ones():
    found = function_level_imports()
    allowed = set(ALLOWED)
    new = sorted(found - allowed)
    gone = sorted(allowed - found)
    assert not new, "imports of stats_mtbias inside functions, not in the allowlist (move them to the top):\n" + "\n".join(
        map(repr, new)
    )
    assert not gone, "allowlisted imports that are no longer inside a function (drop them from the list):\n" + "\n".join(
        map(repr, gone)
    )


def test_every_allowed_import_says_why():
    for key, reason in ALLOWED.items():
        assert any(word in reason for word in ("cycle", "heavy", "import time")), key


def test_the_scan_sees_methods_nested_functions_and_relative_imports(tmp_path):
    """The scanner itself: an import in a method, in a nested function and a relative one are found; a module-level
    one and one of another package are not."""
    package = tmp_path / "stats_mtbias"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "sub" / "m.py").write_text(
        "import os\nfrom stats_mtbias import errors\n\n"
        "class A:\n    def f(self):\n        from stats_mtbias.x import y\n\n"
        "def g():\n    def h():\n        import stats_mtbias.z\n    from . import w\n    import json\n"
    )
    assert function_level_imports(package) == {
        ("stats_mtbias.sub.m", "A.f", "stats_mtbias.x"),
        ("stats_mtbias.sub.m", "g.h", "stats_mtbias.z"),
        ("stats_mtbias.sub.m", "g", "stats_mtbias.sub"),
    }


def test_start_up_loads_no_heavy_dependency():
    """`import stats_mtbias` and the command line's parser load none of the heavy optional dependencies: each is
    imported where it is used (a module-level import of the reporting package once pulled matplotlib into
    `stats-mtbias --help`)."""
    heavy = ("matplotlib", "pymc", "arviz", "pytensor", "nutpie", "spacy", "dask", "distributed", "jinja2", "thot")
    code = (
        "import sys, stats_mtbias, stats_mtbias.cli; stats_mtbias.cli.build_parser(); "
        f"print(','.join(m for m in {heavy!r} if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == ""


@pytest.mark.slow  # three fresh interpreters loading numpy, pandas and scipy: seconds on a loaded machine
def test_import_adds_at_most_a_tenth_of_a_second_to_numpy_pandas_and_scipy():
    """`import stats_mtbias` after numpy, pandas and scipy.stats costs at most 0.1 s of CPU (about 0.055 s here): CPU
    time, not wall time, so that a loaded machine does not fail it; the least of three fresh interpreters."""
    code = (
        "import resource, numpy, pandas, scipy.stats\n"
        "r0 = resource.getrusage(resource.RUSAGE_SELF)\n"
        "import stats_mtbias\n"
        "r1 = resource.getrusage(resource.RUSAGE_SELF)\n"
        "print(r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime)"
    )
    costs = [
        float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout) for _ in range(3)
    ]
    assert min(costs) <= 0.1, costs

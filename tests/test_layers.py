"""The package's layers (docs/design.md, issue 32): no import points upward, no cycle between packages.

The order is read from the ``layers`` code block of ``docs/design.md`` — the one place it
is written. Every import counts, those inside functions too.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "stats_mtbias"


def _layers() -> list[list[str]]:
    text = (ROOT / "docs" / "design.md").read_text("utf-8")
    block = re.search(r"```\{code-block\} text\n:name: layers\n\n(.*?)```", text, re.S)
    assert block, "docs/design.md has no 'layers' code block"
    return [line.split()[1:] for line in block.group(1).strip().splitlines()]


LAYERS = _layers()


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


MODULES = _modules()


def layer_of(module: str) -> int:
    """The index of the most specific layer prefix naming `module`."""
    best = None
    for index, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and (best is None or len(prefix) > best[1]):
                best = (index, len(prefix))
    if best is None:
        raise AssertionError(f"{module} is in no layer of docs/design.md")
    return best[0]


def imports(module: str) -> list[tuple[str, int]]:
    """``(imported module, line)`` for every stats_mtbias import of `module`, relative ones resolved."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            found += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.append((sub if sub in MODULES else base, node.lineno))
    return [(m, line) for m, line in found if m == "stats_mtbias" or m.startswith("stats_mtbias.")]


def test_the_layer_list_names_every_module_once():
    prefixes = [p for layer in LAYERS for p in layer]
    assert len(prefixes) == len(set(prefixes))
    for module in MODULES:
        layer_of(module)  # raises for a module no layer names


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_import_points_upward(module):
    own = layer_of(module)
    upward = [
        f"{target} (line {line}, layer {LAYERS[layer_of(target)][0]})"
        for target, line in imports(module)
        if layer_of(target) > own
    ]
    assert not upward, f"{MODULES[module].relative_to(ROOT)} (layer of {LAYERS[own][0]}) imports upward: {upward}"


def test_the_checker_sees_an_upward_import_inside_a_function(tmp_path, monkeypatch):
    # The check must be able to fail: a function-level import of the API from an estimator is caught.
    monkeypatch.setitem(MODULES, "stats_mtbias.estimators._probe", tmp_path / "probe.py")
    (tmp_path / "probe.py").write_text("def f():\n    from stats_mtbias import api\n", "utf-8")
    targets = imports("stats_mtbias.estimators._probe")
    assert targets == [("stats_mtbias.api", 2)] and layer_of("stats_mtbias.api") > layer_of("stats_mtbias.estimators")


def _package(module: str) -> str:
    # Packages one level below stats_mtbias (stats_mtbias.studies.winomt.x -> stats_mtbias.studies).
    return ".".join(module.split(".")[:2])


def test_no_cycle_between_packages():
    graph: dict[str, set[str]] = defaultdict(set)
    for module in MODULES:
        for target, _ in imports(module):
            a, b = _package(module), _package(target)
            if a != b and b != "stats_mtbias":
                graph[a].add(b)
    seen, stack, cycles = set(), [], []

    def visit(node: str) -> None:
        if node in stack:
            cycles.append([*stack[stack.index(node) :], node])
            return
        if node in seen:
            return
        seen.add(node)
        stack.append(node)
        for nxt in sorted(graph[node]):
            visit(nxt)
        stack.pop()

    for node in sorted(graph):
        visit(node)
    assert not cycles, f"import cycles between packages: {cycles}"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_module_reads_a_private_result(module):
    # A study's result is its public StudyResult (table, frames, provenance); there is no private object behind it,
    # the studies' own pilots included.
    tree = ast.parse(MODULES[module].read_text("utf-8"))
    reads = [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr == "details"]
    assert not reads, f"{MODULES[module].relative_to(ROOT)} reads .details on line(s) {reads}"

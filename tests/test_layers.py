"""The layer rule, one check (docs/design.md; issue 45 item 5): one table of layers, one table of contracts.

- :data:`LAYERS`, read from the ``layers`` code block of ``docs/design.md`` (the one place the order is written):
  no module imports from a layer above its own, imports inside functions included; no cycle between packages.
- :data:`CONTRACTS`: who may not import what, beside the order — the front ends (the command line, the full
  report, ``analyses/``) reach the studies only through the public API, and rendering (``stats_mtbias.report``)
  uses only the result type, figures, files and the floor of p-values.
- :data:`PUBLIC_VIEWS`: no code reads a private result object (``.details``; on the command line not even the
  string), and the command line types no ``choices=`` of its own (every vocabulary is the library's).

Every import is read from the syntax tree (one walker, :func:`imports`), relative ones resolved; a
``from stats_mtbias import x`` counts as the module ``stats_mtbias.x`` when ``x`` is one, else as the facade.
The last tests feed the checker modules that break each rule, so the check can fail.
"""

from __future__ import annotations

import ast
import functools
import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "stats_mtbias"


def _layers() -> list[tuple[str, list[str]]]:
    text = (ROOT / "docs" / "design.md").read_text("utf-8")
    block = re.search(r"```\{code-block\} text\n:name: layers\n\n(.*?)```", text, re.S)
    assert block, "docs/design.md has no 'layers' code block"
    return [(line.split()[0], line.split()[1:]) for line in block.group(1).strip().splitlines()]


NAMES, LAYERS = zip(*_layers(), strict=True)


def _modules() -> dict[str, Path]:
    """Every module of the package and of ``analyses/`` (the project's scripts, clients of the API), by name."""
    found = {}
    for path in [*PACKAGE.rglob("*.py"), *(ROOT / "analyses").glob("*.py")]:
        parts = path.relative_to(ROOT).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


MODULES = _modules()
PACKAGE_MODULES = sorted(m for m in MODULES if m == "stats_mtbias" or m.startswith("stats_mtbias."))


@dataclass(frozen=True)
class Contract:
    """Modules under `importers` import nothing under `forbidden` (but `exceptions`: ``{importer: (module, …)}``)
    and, when `only` is given, nothing of the package outside `only`."""

    name: str
    importers: tuple[str, ...]
    forbidden: tuple[str, ...] = ()
    only: tuple[str, ...] | None = None
    exceptions: tuple[tuple[str, str], ...] = ()
    unless: tuple[str, ...] = ()  # importers the contract leaves out


# The study modules (a package's submodules belong to its study); stats_mtbias.studies._* are shared by them.
STUDY_MODULES = tuple(
    sorted({".".join(m.split(".")[:3]) for m in MODULES if m.startswith("stats_mtbias.studies.") and m.split(".")[2][0] != "_"})
)
# The facade and the foundation a front end may use besides the public API.
CLIENT = (
    "stats_mtbias",
    "stats_mtbias.report",
    "stats_mtbias.reporting",
    "stats_mtbias.errors",
    "stats_mtbias._validation",
    "stats_mtbias._files",
)
CONTRACTS = (
    Contract(
        "the command line is a client of the public API: no study, no dataset reader",
        importers=("stats_mtbias.cli",),
        forbidden=("stats_mtbias.studies", "stats_mtbias.datasets"),
        exceptions=(("stats_mtbias.cli.data", "stats_mtbias.datasets.registry"),),  # `stats-mtbias data` wraps it
    ),
    Contract(
        "rendering stays below the API: the result type, figures, files, provenance, the floor of p-values and the "
        "language records (a language's display name lives in its module)",
        importers=("stats_mtbias.report",),
        only=(
            "stats_mtbias.report",
            "stats_mtbias.result",
            "stats_mtbias.plotting",
            "stats_mtbias._files",
            "stats_mtbias._version",
            "stats_mtbias.provenance",
            "stats_mtbias.errors",
            "stats_mtbias._validation",
            "stats_mtbias.planning.closed",
            "stats_mtbias._data",
            "stats_mtbias.significance.pvalues",
            "stats_mtbias.gender.targets",
        ),
    ),
    Contract(
        "the full report and analyses/ use only the public API (stats_mtbias, stats_mtbias.report)",
        importers=("stats_mtbias.reporting", "analyses"),
        forbidden=("stats_mtbias.studies",),
        only=CLIENT,
    ),
    Contract(
        "nothing but the command line calls the full report",
        importers=("stats_mtbias",),
        forbidden=("stats_mtbias.reporting",),
        unless=("stats_mtbias.reporting", "stats_mtbias.cli"),
    ),
    *(
        Contract(
            "a study does not import another study; shared code lives in studies/_*.py or below",
            importers=(study,),
            forbidden=tuple(other for other in STUDY_MODULES if other != study),
        )
        for study in STUDY_MODULES
    ),
)


def _under(module: str, prefixes) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def layer_of(module: str) -> int:
    """The index of the most specific layer prefix naming `module`."""
    best = None
    for index, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if _under(module, [prefix]) and (best is None or len(prefix) > best[1]):
                best = (index, len(prefix))
    if best is None:
        raise AssertionError(f"{module} is in no layer of docs/design.md")
    return best[0]


@functools.cache
def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text("utf-8"))


def imports(module: str, modules: dict[str, Path] = MODULES) -> list[tuple[str, int]]:
    """``(imported module, line)`` for every stats_mtbias import of `module`, relative ones resolved."""
    path = modules[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Import):
            found += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.append((sub if sub in modules else base, node.lineno))
    return [(m, line) for m, line in found if _under(m, ["stats_mtbias"])]


def upward(module: str, modules: dict[str, Path] = MODULES) -> list[str]:
    """The imports of a package module that point to a layer above its own."""
    own = layer_of(module)
    return [
        f"{target} (line {line}, layer {NAMES[layer_of(target)]})"
        for target, line in imports(module, modules)
        if layer_of(target) > own
    ]


def broken(module: str, modules: dict[str, Path] = MODULES) -> list[str]:
    """The contracts `module` breaks, one line per import."""
    found = []
    for contract in CONTRACTS:
        if not _under(module, contract.importers) or _under(module, contract.unless):
            continue
        for target, line in imports(module, modules):
            excepted = any(module == m and _under(target, [t]) for m, t in contract.exceptions)
            bad = _under(target, contract.forbidden) or (contract.only is not None and not _under(target, contract.only))
            if bad and not excepted:
                found.append(f"line {line}: imports {target} ({contract.name})")
    return found


def private_reads(module: str, modules: dict[str, Path] = MODULES) -> list[str]:
    """Reads of a private result (``.details``; in the command line also the string, a ``getattr`` of it) and, in the
    command line, ``choices=`` typed as literal words."""
    tree = _tree(modules[module])
    cli = _under(module, ["stats_mtbias.cli"])
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "details":
            found.append(f"line {node.lineno}: .details (a study's result is its public StudyResult)")
        elif cli and isinstance(node, ast.Constant) and node.value == "details":
            found.append(f"line {node.lineno}: 'details' (getattr of the private result?)")
        elif cli and isinstance(node, ast.keyword) and node.arg == "choices":
            value = node.value
            if isinstance(value, (ast.Tuple, ast.List, ast.Set)) and all(isinstance(e, ast.Constant) for e in value.elts):
                found.append(f"line {value.lineno}: choices typed here (use the library's constant, stats_mtbias.options)")
    return found


# ---------------------------------------------------------------- the package as it is


def test_the_layer_list_names_every_module_once():
    prefixes = [p for layer in LAYERS for p in layer]
    assert len(prefixes) == len(set(prefixes))
    for module in PACKAGE_MODULES:
        layer_of(module)  # raises for a module no layer names


def test_every_contract_governs_some_module():
    for contract in CONTRACTS:
        assert any(_under(m, contract.importers) and not _under(m, contract.unless) for m in MODULES), contract.name


@pytest.mark.parametrize("module", PACKAGE_MODULES)
def test_no_import_points_upward(module):
    bad = upward(module)
    assert not bad, f"{MODULES[module].relative_to(ROOT)} (layer {NAMES[layer_of(module)]}) imports upward: {bad}"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_every_contract_holds(module):
    bad = broken(module)
    assert not bad, f"{MODULES[module].relative_to(ROOT)}: " + "; ".join(bad)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_only_public_views_are_read(module):
    bad = private_reads(module)
    assert not bad, f"{MODULES[module].relative_to(ROOT)}: " + "; ".join(bad)


def _package(module: str) -> str:
    # Packages one level below stats_mtbias (stats_mtbias.studies.winomt.x -> stats_mtbias.studies).
    return ".".join(module.split(".")[:2])


def test_no_cycle_between_packages():
    graph: dict[str, set[str]] = defaultdict(set)
    for module in PACKAGE_MODULES:
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


# ---------------------------------------------------------------- the check can fail


def _probe(tmp_path: Path, name: str, text: str) -> dict[str, Path]:
    """MODULES with one more module, `name`, whose source is `text`."""
    path = tmp_path / f"{name}.py"
    path.write_text(text, "utf-8")
    return {**MODULES, name: path}


def test_an_upward_import_inside_a_function_is_caught(tmp_path):
    # An interval module asking the studies (above it) for something, where pytest would never import it.
    modules = _probe(tmp_path, "stats_mtbias.uncertainty._probe", "def f():\n    from stats_mtbias.studies import rates\n")
    assert upward("stats_mtbias.uncertainty._probe", modules) == ["stats_mtbias.studies.rates (line 2, layer studies)"]
    modules = _probe(tmp_path, "stats_mtbias.estimators._probe", "import stats_mtbias.api as smb_api\n")
    assert upward("stats_mtbias.estimators._probe", modules) == ["stats_mtbias.api (line 1, layer api)"]


def test_a_front_end_reaching_a_study_is_caught(tmp_path):
    # The order allows it (the command line is the top layer); the contract does not: a private study helper.
    text = "from stats_mtbias.studies._common import system_pairs\n"
    modules = _probe(tmp_path, "stats_mtbias.cli._probe", text)
    assert upward("stats_mtbias.cli._probe", modules) == []
    assert broken("stats_mtbias.cli._probe", modules) == [
        "line 1: imports stats_mtbias.studies._common (the command line is a client of the public API: no study, no "
        "dataset reader)"
    ]
    modules = _probe(tmp_path, "analyses._probe", "from stats_mtbias.studies import tgbi\n")
    assert len(broken("analyses._probe", modules)) == 1
    modules = _probe(tmp_path, "stats_mtbias.report._probe", "from stats_mtbias import options\n")
    assert broken("stats_mtbias.report._probe", modules) == [
        "line 1: imports stats_mtbias.options (rendering stays below the API: the result type, figures, files, "
        "provenance, the floor of p-values and the language records (a language's display name lives in its module))"
    ]


def test_a_study_importing_another_study_is_caught(tmp_path):
    assert {"stats_mtbias.studies.prates", "stats_mtbias.studies.winomt", "stats_mtbias.studies.models"} <= set(STUDY_MODULES)
    text = "from stats_mtbias.studies import prates\nfrom stats_mtbias.studies._common import melt\n"
    modules = _probe(tmp_path, "stats_mtbias.studies.optimal", text)
    assert broken("stats_mtbias.studies.optimal", modules) == [
        "line 1: imports stats_mtbias.studies.prates (a study does not import another study; shared code lives in "
        "studies/_*.py or below)"
    ]
    # A study's own submodules are the study; a shared module may read a study (the reading worker reads WinoMT's).
    modules = _probe(tmp_path, "stats_mtbias.studies.winomt._probe", "from stats_mtbias.studies.winomt import reading\n")
    assert broken("stats_mtbias.studies.winomt._probe", modules) == []


def test_a_private_read_and_a_typed_choice_are_caught(tmp_path):
    text = "x = res.details\ny = getattr(res, 'details')\np.add_argument('--a', choices=('x', 'y'))\n"
    modules = _probe(tmp_path, "stats_mtbias.cli._probe", text)
    assert [line.split(":")[0] for line in private_reads("stats_mtbias.cli._probe", modules)] == ["line 1", "line 2", "line 3"]
    modules = _probe(tmp_path, "stats_mtbias.report._probe", text)
    assert [line.split(":")[0] for line in private_reads("stats_mtbias.report._probe", modules)] == ["line 1"]

"""The command line is a client of the public API: no private result, no study internals, no literal choices."""

from __future__ import annotations

import argparse
import ast
import re
import shlex
from pathlib import Path

import pytest

import stats_mtbias.cli
from stats_mtbias import options as vocabulary
from stats_mtbias.cli import build_parser
from stats_mtbias.significance.multitest import CORRECTIONS

CLI = Path(stats_mtbias.cli.__file__).parent
ROOT = Path(stats_mtbias.cli.__file__).resolve().parents[2]
FORBIDDEN = ("stats_mtbias.studies", "stats_mtbias.datasets")
ALLOWED = {("data.py", "stats_mtbias.datasets.registry")}  # `stats-mtbias data` wraps the registry


def _modules():
    files = sorted(CLI.glob("*.py"))
    assert {
        "__init__.py",
        "_options.py",
        "_checks.py",
        "tgbi.py",
        "winomt.py",
        "prates.py",
        "optimal.py",
        "rates.py",
        "agreement.py",
        "read.py",
        "model.py",
        "power.py",
        "data.py",
        "report.py",
    } <= {f.name for f in files}
    return [(f, ast.parse(f.read_text("utf-8"), str(f))) for f in files]


def _imported(node) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
        return [node.module, *[f"{node.module}.{alias.name}" for alias in node.names]]
    return []


def test_the_cli_never_reads_details_nor_imports_studies_or_datasets():
    problems = []
    for path, tree in _modules():
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr == "details":
                problems.append(f"{path.name}:{node.lineno}: .details (StudyResult.details is private)")
            if isinstance(node, ast.Constant) and node.value == "details":
                problems.append(f"{path.name}:{node.lineno}: 'details' (getattr of the private result?)")
            for name in _imported(node):
                if name.startswith(FORBIDDEN) and not any(
                    path.name == f and (name == m or name.startswith(m + ".")) for f, m in ALLOWED
                ):
                    problems.append(f"{path.name}:{node.lineno}: imports {name}")
    assert not problems, "\n".join(problems)


def test_no_choices_are_literals():
    """Every ``choices=`` is the library's constant (stats_mtbias.options), never a tuple of words typed here."""
    literals = []
    for path, tree in _modules():
        for node in ast.walk(tree):
            if isinstance(node, ast.keyword) and node.arg == "choices":
                value = node.value
                if isinstance(value, (ast.Tuple, ast.List, ast.Set)) and all(isinstance(e, ast.Constant) for e in value.elts):
                    literals.append(f"{path.name}:{node.value.lineno}")
    assert not literals, literals


def _actions(parser: argparse.ArgumentParser, prefix=()):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _actions(sub, (*prefix, name))
        else:
            yield prefix, action


def test_choices_are_the_apis():
    found = {
        (prefix, a.dest): tuple(a.choices) for prefix, a in _actions(build_parser()) if a.choices and a.help != argparse.SUPPRESS
    }
    assert found[(("tgbi",), "correction")] == tuple(CORRECTIONS) == ("holm", "bh", "none")
    for study in ("tgbi", "winomt", "prates", "rates"):
        assert found[((study,), "family")] == vocabulary.FAMILIES
    assert found[(("model",), "study")] == vocabulary.MODEL_STUDIES and "winomt" not in vocabulary.MODEL_STUDIES
    assert found[(("power", "paired"), "alternative")][:3] == vocabulary.ALTERNATIVES == ("two-sided", "less", "greater")
    assert found[(("winomt",), "missing")] == vocabulary.MISSING_RULES == ("shared", "wrong")
    assert found[(("optimal",), "view")] == ("table", *vocabulary.FRAMES["optimal"])


def _documented_commands():
    """Every `stats-mtbias …` line of the README's and docs' code blocks."""
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        inside = False
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            if line.lstrip().startswith("```"):
                inside = not inside
                continue
            if inside and "stats-mtbias " in line:
                command = line[line.index("stats-mtbias ") + len("stats-mtbias ") :]
                words = shlex.split(command, comments=True)
                words = words[: words.index("|")] if "|" in words else words  # a pipe into another tool
                yield pytest.param(words, id=f"{path.name}:{number}")


@pytest.mark.parametrize("argv", list(_documented_commands()))
def test_documented_commands_parse_in_their_current_spelling(argv):
    args = build_parser().parse_args(argv)
    assert not getattr(args, "deprecated", []), f"the docs show an old spelling: {args.deprecated}"


def test_every_subcommand_has_help(capsys):
    parser = build_parser()
    commands = re.findall(r"\{(.*?)\}", parser.format_usage())[0].split(",")
    assert commands == ["tgbi", "winomt", "prates", "optimal", "rates", "agreement", "read", "model", "power", "data", "report"]
    for command in [
        *commands,
        "power paired",
        "power rate",
        "power normal",
        "power pilot",
        *[f"read {study}" for study in vocabulary.READERS],
    ]:
        with pytest.raises(SystemExit) as exc:
            build_parser().parse_args([*command.split(), "--help"])
        assert exc.value.code == 0
        text = capsys.readouterr().out
        assert text.startswith("usage: stats-mtbias " + command)
        assert "==SUPPRESS==" not in text
        if command in ("tgbi", "winomt", "prates", "optimal", "rates"):
            for option in (
                "--data-dir",
                "--seed",
                "--n-boot",
                "--level",
                "--format",
                "--out",
                "--provenance",
                "--quiet",
                "--strict",
                "--view",
            ):
                assert option in text, (command, option)
        if command in ("tgbi", "winomt", "prates", "rates"):
            for option in ("--compare", "--correction", "--family", "--against"):
                assert option in text, (command, option)
        if command == "agreement":
            for option in ("--labels", "--a", "--b", "--by", "--mapping", "--level", "--view", "--format", "--out"):
                assert option in text, (command, option)
        if command.startswith("read "):
            assert "--out" in text and "--format" not in text, command

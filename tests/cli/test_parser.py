"""The command line's parser: its choices are the API's, every documented command parses, every subcommand has help.

(Its imports and public views are held by the one layer check, tests/test_layers.py.)
"""

from __future__ import annotations

import argparse
import re
import shlex
from pathlib import Path

import pytest

import stats_mtbias.cli
from stats_mtbias import options as vocabulary
from stats_mtbias.cli import build_parser
from stats_mtbias.significance.multitest import CORRECTIONS

ROOT = Path(stats_mtbias.cli.__file__).resolve().parents[2]


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
            # The command, not a package name ("pip install stats-mtbias").
            if inside and "stats-mtbias " in line and not line.lstrip().startswith("pip "):
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
    shipped = ("tgbi", "winomt", "prates", "optimal", "rates")
    # A study added to the registry (none shipped) has its subcommand after the shipped studies.
    added = [name for name in vocabulary.STUDIES if name not in shipped]
    assert commands == [*shipped, *added, "agreement", "read", "model", "power", "data", "report"]
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
        if command in added:
            for option in ("--data-dir", "--seed", "--format", "--out", "--provenance", "--quiet", "--strict", "--view"):
                assert option in text, (command, option)
        if command in shipped:
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

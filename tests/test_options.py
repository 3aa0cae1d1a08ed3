"""Each study's Options class is the one description of its options: the API signature, its docstring, the
command line and the docs' table agree with it, and its validation refuses bad values before any file is read.

Adding an option is one field in :mod:`stats_mtbias.options`, its use in the study, and its keyword in the API
signature; these tests fail until the signature, the docstring's Parameters and the CLI carry it.
"""

from __future__ import annotations

import argparse
import inspect
import re
import warnings
from dataclasses import fields
from pathlib import Path

import pytest

import stats_mtbias as smb
from stats_mtbias import _defaults
from stats_mtbias import options as vocabulary
from stats_mtbias.cli import COMMANDS, _checks, build_parser, commands
from stats_mtbias.cli._options import cli_default
from stats_mtbias.errors import NoEffectWarning, UsageError

STUDIES = tuple(vocabulary.OPTIONS)
ROOT = Path(__file__).resolve().parents[1]
# The options every study shares, and the one constant each default comes from.
SHARED_DEFAULTS = {
    "level": _defaults.LEVEL,
    "n_boot": _defaults.N_BOOT,
    "n_permutations": _defaults.N_PERMUTATIONS,
    "n_draws": _defaults.N_DRAWS,
    "rng": _defaults.SEED,
    "correction": _defaults.CORRECTION,
    "alpha": _defaults.ALPHA,
}


def _parameters(study: str) -> list[inspect.Parameter]:
    return list(inspect.signature(getattr(smb, study)).parameters.values())


def _subparser(study: str) -> argparse.ArgumentParser:
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices[study]


def _actions(study: str) -> dict[str, argparse.Action]:
    """The shown options of a subcommand by dest (old spellings, hidden, left out)."""
    return {a.dest: a for a in _subparser(study)._actions if a.help != argparse.SUPPRESS}


def _documented(function) -> list[str]:
    """The names the numpydoc ``Parameters`` section of `function` documents (``a, b : str`` names two)."""
    doc = inspect.getdoc(function)
    section = re.search(r"^Parameters\n-+\n(.*?)(?:^\w[\w ]*\n-+\n|\Z)", doc, re.M | re.S)
    assert section, f"{function.__name__} has no Parameters section"
    heads = [line for line in section.group(1).splitlines() if line and not line.startswith(" ")]
    return [name.strip() for head in heads for name in head.split(" : ")[0].split(",")]


@pytest.mark.parametrize("study", STUDIES)
def test_the_api_signature_is_the_options_fields_and_defaults(study):
    cls = vocabulary.OPTIONS[study]
    signature = [(p.name, p.default) for p in _parameters(study)]
    declared = [(f.name, f.default) for f in fields(cls)]
    assert signature == [(n, inspect.Parameter.empty if d is vocabulary.MISSING else d) for n, d in declared]
    # The first argument, what to analyse, is the one passed by position; every option is keyword-only.
    kinds = [p.kind is inspect.Parameter.KEYWORD_ONLY for p in _parameters(study)]
    assert kinds == [not item.positional for item in cls.info()] and kinds[0] is False


@pytest.mark.parametrize("study", STUDIES)
def test_shared_defaults_come_from_the_defaults_module(study):
    for item in vocabulary.OPTIONS[study].info():
        if item.name in SHARED_DEFAULTS:
            assert item.default == SHARED_DEFAULTS[item.name], (study, item.name)
        if item.kind == "resamples":
            assert f"at least {_defaults.MIN_BOOT}" in item.help, (study, item.name)


@pytest.mark.parametrize("study", STUDIES)
def test_the_docstring_documents_every_option(study):
    documented = set(_documented(getattr(smb, study)))
    missing = [item.name for item in vocabulary.OPTIONS[study].info() if item.name not in documented]
    assert not missing, f"smb.{study}'s Parameters do not document {missing}"


@pytest.mark.parametrize("study", STUDIES)
def test_every_option_has_its_flag_with_the_same_default_and_choices(study):
    actions = _actions(study)
    for item in vocabulary.OPTIONS[study].info():
        assert item.dest in actions, (study, item.name, item.dest)
        action = actions[item.dest]
        assert item.flag in action.option_strings, (study, item.name, action.option_strings)
        if item.choices is not None:
            current = tuple(c for c in action.choices if c not in getattr(action, "old", {}))  # old words: hidden
            assert current == item.choices, (study, item.name)
        if item.dest == item.name and not item.required and item.kind != "input":  # files: the CLI's own actions
            assert action.default == cli_default(item), (study, item.name, action.default)
        if item.cli == "auto":
            assert item.help.replace("%", "%%") in action.help, (study, item.name)
            assert action.required == item.required, (study, item.name)
        if item.kind == "flag" and item.dest == item.name:
            assert isinstance(action, argparse._StoreTrueAction) and item.default is False, (study, item.name)
    if "rng" in {f.name for f in fields(vocabulary.OPTIONS[study])}:
        assert actions["seed"].default == _defaults.SEED


@pytest.mark.parametrize("study", STUDIES)
def test_the_clis_no_effect_rules_are_the_options(study):
    rules = {rule.dest: rule for rule in getattr(commands()[study], "CONDITIONAL", ())}
    for item in vocabulary.OPTIONS[study].info():
        if item.applies is not None:
            assert rules[item.dest].when == item.applies.when, (study, item.name)
            assert rules[item.dest].default == cli_default(item), (study, item.name)


def test_a_cli_no_effect_rule_is_said_with_its_condition():
    args = build_parser().parse_args(["tgbi", "--n-boot", "500", "--n-permutations", "500"])
    assert _checks.ignored(args, COMMANDS["tgbi"].CONDITIONAL) == [
        "--n-boot has no effect here: it applies only with --interval percentile|bca",
        "--n-permutations has no effect here: it applies only with --compare --test permutation",
    ]
    args = build_parser().parse_args(["tgbi", "--interval", "bca", "--n-boot", "500"])
    assert _checks.ignored(args, COMMANDS["tgbi"].CONDITIONAL) == []


@pytest.mark.parametrize("study", STUDIES)
def test_the_docs_table_lists_every_option(study):
    page = (ROOT / "docs" / "options.md").read_text("utf-8")
    # A shipped study has its section; any other is printed by the page's last cell, which shows every study.
    assert f'show("{study}")' in page or (study not in COMMANDS and "for study in OPTIONS:" in page)
    table = vocabulary.options_table(vocabulary.OPTIONS[study])
    rows = [line for line in table.splitlines()[2:]]
    assert [row.split(" | ")[0].strip("| `") for row in rows] == [f.name for f in fields(vocabulary.OPTIONS[study])]
    for row, item in zip(rows, vocabulary.OPTIONS[study].info(), strict=True):
        assert item.flag in row and item.help.replace("|", "\\|") in row
        for choice in item.choices or ():
            assert f"`{choice}`" in row


def _required(study: str) -> dict:
    """The smallest call of a study that would read a file that is not there (so a check must come first)."""
    missing = "no-such-file.csv"
    return {
        "tgbi": ((), {"outputs": missing}),
        "winomt": ((), {"judgements": missing}),
        "prates": ((missing,), {}),
        "optimal": ((missing,), {}),
        "rates": ((missing,), {}),
        "agreement": ((missing,), {"a": "x", "b": "y"}),
        "model": (("tgbi",), {"data_dir": "no-such-directory"}),
    }.get(study, ((missing,), {}))  # any other study: its input, by position


@pytest.mark.parametrize("study", STUDIES)
def test_validate_refuses_a_bad_choice_before_any_file_is_read(study):
    args, kwargs = _required(study)
    choices = [
        item for item in vocabulary.OPTIONS[study].info() if item.kind == "choice" and item.cli == "auto" and not item.positional
    ]
    assert choices or study == "agreement"
    for item in choices:
        with pytest.raises(UsageError, match=rf"`{item.name}` must be one of"):
            getattr(smb, study)(*args, **kwargs, **{item.name: "no-such-choice"})


@pytest.mark.parametrize("study", STUDIES)
def test_validate_refuses_too_few_resamples_and_a_level_outside_0_1(study):
    args, kwargs = _required(study)
    counts = [item.name for item in vocabulary.OPTIONS[study].info() if item.kind == "resamples"]
    assert counts or study in ("agreement", "model")
    for name in counts:
        with pytest.raises(UsageError, match=rf"`{name}` must be at least {_defaults.MIN_BOOT}; got 99"):
            getattr(smb, study)(*args, **kwargs, **{name: _defaults.MIN_BOOT - 1})
        parser = _subparser(study)
        with pytest.raises(SystemExit) as exc:
            parser.parse_args(["--" + name.replace("_", "-"), str(_defaults.MIN_BOOT - 1)])
        assert exc.value.code == 64
    for level in (0, 1, 1.5, float("nan")):
        with pytest.raises(UsageError, match="`level` must be"):
            getattr(smb, study)(*args, **kwargs, level=level)


def test_an_option_without_effect_warns_in_the_api_and_a_resample_count_does_not():
    with pytest.warns(NoEffectWarning, match=r"`sample`='k' has no effect here: it applies only with outputs"):
        vocabulary.validate(vocabulary.TGBIOptions(sample="k"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        vocabulary.validate(vocabulary.TGBIOptions(n_boot=500))  # a budget shared by several runs: no warning
        vocabulary.validate(vocabulary.TGBIOptions(interval="bca", n_boot=500))
        vocabulary.validate(vocabulary.RatesOptions("judgements.csv", interval="bca", family=["language"]))
    assert vocabulary.TGBIOptions(n_boot=500).ignored() == [
        "`n_boot`=500 has no effect here: it applies only with interval='percentile' or interval='bca'"
    ]


def test_a_family_is_a_choice_or_comparison_columns():
    vocabulary.validate(vocabulary.RatesOptions("judgements.csv", family=("language", "metric")))
    with pytest.raises(UsageError, match="`family` must be one of"):
        vocabulary.validate(vocabulary.RatesOptions("judgements.csv", family="everything"))
    with pytest.raises(UsageError, match="`family` must be a string or a list of strings"):
        vocabulary.validate(vocabulary.RatesOptions("judgements.csv", family=[1, 2]))


def test_a_models_counts_are_positive_integers_checked_before_any_fit():
    for name in ("draws", "tune", "chains"):
        with pytest.raises(UsageError, match=rf"`{name}` must be at least 1; got 0"):
            smb.model("tgbi", data_dir="no-such-directory", **{name: 0})
    with pytest.raises(UsageError, match="`study` must be one of 'tgbi', 'prates'; got 'winomt'"):
        smb.model("winomt")


def test_an_option_without_effect_is_said_once_by_the_api_and_once_by_the_cli(tmp_path, capsys):
    import pandas as pd

    from stats_mtbias.cli import main

    frame = pd.DataFrame({"item": [1, 1, 2, 2, 3, 3], "system": ["a", "b"] * 3, "gender": ["male", "female"] * 3})
    with pytest.warns(NoEffectWarning) as caught:
        vocabulary.validate(vocabulary.TGBIOptions(sample="k", n_boot=500))  # a resample count is a budget: unsaid
    said = [str(w.message) for w in caught if issubclass(w.category, NoEffectWarning)]
    assert said == ["`sample`='k' has no effect here: it applies only with outputs"]
    path = tmp_path / "judgements.csv"
    frame.to_csv(path, index=False)
    assert main(["rates", "--judgements", str(path), "--interval", "score", "--n-boot", "500", "--format", "csv"]) == 0
    err = capsys.readouterr().err
    assert err.count("has no effect") == 1
    assert "--n-boot has no effect here: it applies only with --interval percentile|bca" in err

"""Every float parameter is checked for NaN, ±inf and its range before the work (issue 49, item 4).

NaN passes every comparison (``NaN < 0`` is False), so a range check alone let it through: the planning
functions gave n = −9.2e18 for a NaN discordance, and ``power pilot`` or a study ran (read every file) before a
NaN level was refused. One helper (:func:`stats_mtbias._validation.check_number`) refuses them by name.
"""

from __future__ import annotations

import argparse
import math

import pytest

import stats_mtbias as smb
from stats_mtbias import planning as pl
from stats_mtbias._validation import check_number
from stats_mtbias.cli import build_parser, main
from stats_mtbias.errors import UsageError

NAN, INF = math.nan, math.inf


def test_check_number_refuses_nan_inf_and_out_of_range_by_name():
    assert check_number(0.2, "discordance", low=0, high=1, low_open=True) == 0.2
    assert check_number("0.3", "rate", low=0, high=1) == 0.3  # as read from a text file
    assert check_number([0.0, 1.0], "rate", low=0, high=1).tolist() == [0.0, 1.0]
    for bad in (NAN, INF, -INF, 0.0, 1.5):
        with pytest.raises(UsageError, match=r"`discordance` must be a finite number in \(0, 1\]"):
            check_number(bad, "discordance", low=0, high=1, low_open=True)
    with pytest.raises(UsageError, match=r"got nan \(2 such\)"):
        check_number([0.1, NAN, NAN], "rate", low=0, high=1)
    with pytest.raises(UsageError, match="`se`"):
        check_number(None, "se")


# (function, keyword arguments that work, the parameter to spoil): every float parameter of every planning function.
PLANNING = [
    (pl.paired_sample_size, dict(difference=0.05, discordance=0.2), ["difference", "discordance", "alpha", "power"]),
    (pl.paired_power, dict(n=626, difference=0.05, discordance=0.2), ["n", "difference", "discordance", "alpha"]),
    (pl.paired_mde, dict(n=626, discordance=0.2), ["n", "discordance", "alpha", "power"]),
    (pl.paired_power_exact, dict(n=626, difference=0.05, discordance=0.2), ["n", "difference", "discordance", "alpha"]),
    (pl.paired_sample_size_exact, dict(difference=0.05, discordance=0.2), ["difference", "discordance", "alpha", "power"]),
    (pl.rate_half_width, dict(n=1000, rate=0.5), ["n", "rate", "level", "deff"]),
    (pl.rate_sample_size, dict(half_width=0.03, rate=0.5), ["half_width", "rate", "level", "deff"]),
    (pl.rate_power, dict(n=194, rate=0.4, reference=0.5), ["n", "rate", "reference", "alpha", "deff"]),
    (pl.rate_sample_size_test, dict(rate=0.4, reference=0.5), ["rate", "reference", "alpha", "power", "deff"]),
    (pl.normal_power, dict(difference=0.1, se=0.05), ["difference", "se", "alpha"]),
    (pl.normal_mde, dict(se=0.05), ["se", "alpha", "power"]),
    (pl.normal_sample_size, dict(difference=0.1, se=0.05, n=100), ["difference", "se", "n", "alpha", "power"]),
    (pl.mde_from_interval, dict(ci_low=-0.1, ci_high=0.1), ["level", "alpha", "power"]),
    (pl.design_effect, dict(cluster_size=5, icc=0.1), ["cluster_size", "icc"]),
]
CASES = [(f, kw, name, bad) for f, kw, names in PLANNING for name in names for bad in (NAN, INF, -INF)]


@pytest.mark.parametrize(
    ("function", "kwargs", "name", "bad"), CASES, ids=[f"{f.__name__}-{name}-{bad}" for f, _, name, bad in CASES]
)
def test_every_planning_function_refuses_nan_and_inf_by_name(function, kwargs, name, bad):
    function(**kwargs)  # the plan itself is fine
    with pytest.raises(UsageError, match=f"`{name}`"):
        function(**{**kwargs, name: bad})


@pytest.mark.parametrize(
    ("function", "kwargs", "name"),
    [
        (pl.paired_sample_size, dict(difference=0.05, discordance=1.2), "discordance"),
        (pl.rate_half_width, dict(n=-10, rate=0.5), "n"),
        (pl.rate_half_width, dict(n=100, rate=0.5, level=1.5), "level"),
        (pl.rate_half_width, dict(n=100, rate=0.5, deff=0), "deff"),
        (pl.normal_power, dict(difference=0.1, se=-0.05), "se"),
        (pl.normal_mde, dict(se=-1), "se"),
        (pl.mde_from_interval, dict(ci_low=-0.1, ci_high=0.1, level=2), "level"),
    ],
)
def test_planning_functions_refuse_out_of_range_values(function, kwargs, name):
    with pytest.raises(UsageError, match=f"`{name}`"):
        function(**kwargs)


def test_an_interval_without_ends_still_has_no_mde():
    assert math.isnan(float(pl.mde_from_interval(NAN, 0.1)))  # a comparison without an interval: no MDE, no error


def test_power_names_the_null_and_a_rate_beyond_it():
    with pytest.raises(UsageError, match="`null` must be a finite number in"):
        smb.power("rate", null=1.5, difference=0.1)
    with pytest.raises(UsageError, match=r"`null` \+ `difference` = 0.5 \+ 0.6 is not a share"):
        smb.power("rate", null=0.5, difference=0.6)


# ---------------------------------------------------------------- every float option of every subcommand


def _float_options() -> list[tuple[tuple[str, ...], str]]:
    """``(subcommand path, option)`` of every option parsed as a float, found in the parser itself."""
    found = []

    def walk(parser: argparse.ArgumentParser, path: tuple[str, ...]):
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    walk(sub, (*path, name))
            elif action.type is float and action.option_strings and action.help != argparse.SUPPRESS:
                found.append((path, action.option_strings[0]))

    walk(build_parser(), ())
    return found


# The least each subcommand needs besides the option under test (the files need not exist: the number is said first).
BASE = {
    ("agreement",): ["--labels", "{labels}", "--a", "a", "--b", "b"],
    ("model",): ["--study", "tgbi"],
    ("report",): ["--out", "{out}"],
    ("rates",): ["--judgements", "{labels}"],
    ("power", "paired"): ["--discordance", "0.2", "--difference", "0.05"],
    ("power", "rate"): ["--rate", "0.3", "--half-width", "0.03"],
    ("power", "normal"): ["--se", "0.1", "--n-pilot", "10", "--difference", "0.1"],
    ("power", "labels"): ["--rate", "0.3", "--discordance", "0.1", "--half-width", "0.03"],
    ("power", "pilot"): ["--study", "tgbi", "--systems", "google,papago", "--difference", "0.1"],
}
FLOAT_OPTIONS = _float_options()


def test_the_float_options_are_found():
    options = {(" ".join(path), option) for path, option in FLOAT_OPTIONS}
    assert {
        ("tgbi", "--level"),
        ("prates", "--alpha"),
        ("power paired", "--discordance"),
        ("power rate", "--icc"),
        ("power normal", "--se"),
        ("power pilot", "--half-width"),
    } <= options


@pytest.mark.parametrize(("path", "option"), FLOAT_OPTIONS, ids=[" ".join((*p, o)) for p, o in FLOAT_OPTIONS])
@pytest.mark.parametrize("bad", ["nan", "inf"])
def test_every_float_option_refuses_nan_and_inf_before_the_work(path, option, bad, tmp_path, capsys, monkeypatch):
    # An empty data directory: a study that read its files before checking its numbers would exit 66, not 64.
    monkeypatch.setenv("MTBIAS_DATA", str(tmp_path / "no-data"))
    monkeypatch.setenv("MTBIAS_CACHE", str(tmp_path / "cache"))
    labels = tmp_path / "labels.csv"
    labels.write_text("a,b,system,item,gender\nx,x,s,1,male\n", "utf-8")
    base = [a.format(labels=labels, out=tmp_path / "report") for a in BASE.get(path, [])]
    code = main([*path, *base, option, bad])
    err = capsys.readouterr().err
    assert code == 64, err
    name = option.removeprefix("--").replace("-", "_")
    assert f"`{name}`" in err, err
    assert "a bug" not in err

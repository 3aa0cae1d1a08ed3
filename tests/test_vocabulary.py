"""One vocabulary per idea (issue 45): a name means one method in every study, each study accepts the subset it
implements, and every old spelling keeps working for one release, with one FutureWarning and the same numbers."""

from __future__ import annotations

import ast
import inspect
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import stats_mtbias as smb
from stats_mtbias import _defaults
from stats_mtbias import options as vocabulary
from stats_mtbias.cli import build_parser, main
from stats_mtbias.planning.simulate import TESTS as PILOT_TESTS
from stats_mtbias.significance.multitest import CORRECTION_NAMES, CORRECTIONS
from stats_mtbias.significance.paired import PAIRED_TESTS
from stats_mtbias.studies import optimal as optimal_study
from stats_mtbias.uncertainty.analytic import PROPORTION_METHODS
from stats_mtbias.uncertainty.bootstrap import CI_METHODS

PACKAGE = Path(smb.__file__).resolve().parent


def _fields(name: str):
    return [(cls.STUDY, item) for cls in vocabulary.OPTIONS.values() for item in cls.info() if item.name == name]


def test_every_interval_option_draws_from_the_one_vocabulary():
    found = {study: item.choices for study, item in _fields("interval")}
    assert found == {
        "tgbi": ("score", "percentile", "bca"),
        "winomt": ("percentile", "bca"),
        "prates": ("wilson", "jeffreys", "clopper-pearson"),
        "optimal": ("gamma", "studentized", "percentile"),
        "rates": ("percentile", "bca", "score"),
    }
    for study, choices in found.items():
        assert set(choices) <= set(_defaults.INTERVALS), study
    # The lower layers' methods are names of the same vocabulary, each meaning the same thing.
    for methods in (CI_METHODS, PROPORTION_METHODS, optimal_study.INTERVALS):
        assert set(methods) <= set(_defaults.INTERVALS), methods
    assert set(CI_METHODS) == set(_defaults.BOOTSTRAP_INTERVALS)
    assert vocabulary.INTERVALS == tuple(_defaults.INTERVALS)


def test_every_test_option_draws_from_the_one_vocabulary():
    found = {study: item.choices for study, item in _fields("test")}
    assert found == {"tgbi": ("interval", "permutation"), "prates": ("exact", "ttest")}
    for methods in (*found.values(), PAIRED_TESTS, PILOT_TESTS):
        assert set(methods) <= set(_defaults.TESTS), methods
    assert inspect.signature(smb.power).parameters["test"].default in PILOT_TESTS
    assert vocabulary.TESTS == tuple(_defaults.TESTS)
    # "bootstrap" is a bootstrap test wherever it is a test; TGBI's interval-own test is "interval".
    assert "bootstrap" not in found["tgbi"]


def test_corrections_families_and_alternatives_are_one_list_each():
    for study, item in _fields("correction"):
        assert item.choices == _defaults.CORRECTIONS, study
    for study, item in _fields("family"):
        assert item.choices == _defaults.FAMILIES, study
    assert tuple(CORRECTIONS) == tuple(CORRECTION_NAMES) == _defaults.CORRECTIONS
    assert vocabulary.ALTERNATIVES == _defaults.ALTERNATIVES == ("two-sided", "less", "greater")


def _literal_tuples() -> list[tuple[str, int, tuple]]:
    found = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Tuple) and node.elts and all(isinstance(e, ast.Constant) for e in node.elts):
                found.append((path.relative_to(PACKAGE).as_posix(), node.lineno, tuple(e.value for e in node.elts)))
    return found


def test_each_vocabulary_is_written_once():
    """The words of `alternative`, `correction`, `family` and the power formulas are typed only in _defaults."""
    lists = {
        frozenset(_defaults.ALTERNATIVES),
        frozenset(_defaults.CORRECTIONS),
        frozenset(_defaults.FAMILIES),
        frozenset(_defaults.POWER_FORMULAS),
    }
    typed = [(path, line) for path, line, words in _literal_tuples() if frozenset(words) in lists and path != "_defaults.py"]
    assert typed == []
    assert not hasattr(_defaults, "N_RESAMPLES")  # scipy's name, used here for permutations and draws: split in two
    assert _defaults.N_PERMUTATIONS >= _defaults.MIN_BOOT and _defaults.N_DRAWS >= _defaults.MIN_BOOT


def _public_callables():
    for name in smb.__all__:
        value = getattr(smb, name)
        if inspect.isfunction(value):
            yield name, value
        elif inspect.isclass(value):
            for attr, member in vars(value).items():
                if inspect.isfunction(member) and not attr.startswith("_"):
                    yield f"{name}.{attr}", member


def test_no_public_signature_has_ci_or_an_unreachable_resample_count():
    names = dict(_public_callables())
    assert {"tgbi", "rates", "prates", "power"} <= set(names)
    for name, function in names.items():
        parameters = inspect.signature(function).parameters
        assert "ci" not in parameters, name
        assert "n_resamples" not in parameters, name
    # Every resample count of a study is one of three names, each reachable from the API and the command line.
    counts = {item.name for cls in vocabulary.OPTIONS.values() for item in cls.info() if item.kind == "resamples"}
    assert counts == {"n_boot", "n_permutations", "n_draws"}
    assert "n_draws" in inspect.signature(smb.prates).parameters


# ---------------------------------------------------------------- old spellings: one FutureWarning, the same numbers


def _rates_frame() -> pd.DataFrame:
    rng = np.random.default_rng(5)
    n = 60
    return pd.DataFrame(
        {
            "item": np.repeat(np.arange(n), 2),
            "system": ["a", "b"] * n,
            "gender": rng.choice(["female", "male", "neutral"], size=2 * n, p=[0.3, 0.6, 0.1]),
        }
    )


def _tgbi_frame() -> pd.DataFrame:
    rng = np.random.default_rng(6)
    rows = [
        {"system": s, "set": k, "item": f"w{i}", "gender": rng.choice(["female", "male", "neutral"], p=[0.3, 0.5, 0.2])}
        for s in ("a", "b")
        for k in ("s1", "s2")
        for i in range(40)
    ]
    return pd.DataFrame(rows)


def _same(old, new) -> None:
    pd.testing.assert_frame_equal(old.table, new.table)
    pd.testing.assert_frame_equal(old.compare(), new.compare())


def _warned_once(call, said: str):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call()
    future = [str(w.message) for w in caught if issubclass(w.category, FutureWarning)]
    assert len(future) == 1 and said in future[0], future
    return result


def _quiet(call):
    with warnings.catch_warnings():
        warnings.simplefilter("error", FutureWarning)  # the new spelling says nothing of the old
        warnings.filterwarnings("ignore", category=UserWarning)
        return call()


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        ({"ci": "analytic"}, {"interval": "score"}, "use `interval='score'`"),
        ({"ci": "bootstrap"}, {"interval": "percentile"}, "use `interval='percentile'`"),
        ({"ci": "bootstrap", "interval": "bca"}, {"interval": "bca"}, "use `interval='bca'`"),
    ],
)
def test_rates_ci_is_interval(old, new, said):
    frame = _rates_frame()
    common = {"n_boot": 200, "rng": 3}
    _same(_warned_once(lambda: smb.rates(frame, **common, **old), said), _quiet(lambda: smb.rates(frame, **common, **new)))


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        ({"ci": "analytic"}, {"interval": "score"}, "use `interval='score'`"),
        ({"ci": "bootstrap"}, {"interval": "percentile"}, "use `interval='percentile'`"),
        ({"test": "bootstrap"}, {"test": "interval"}, "use `test='interval'`"),
    ],
)
def test_tgbi_ci_and_test_are_interval_and_test(old, new, said):
    frame = _tgbi_frame()
    common = {"outputs": frame, "n_boot": 200, "rng": 4}
    _same(_warned_once(lambda: smb.tgbi(**common, **old), said), _quiet(lambda: smb.tgbi(**common, **new)))


def test_an_old_and_a_new_spelling_that_disagree_are_refused():
    with pytest.raises(smb.UsageError, match="disagree"):
        smb.rates(_rates_frame(), ci="bootstrap", interval="score")
    with pytest.raises(smb.UsageError, match="`ci` must be one of"):
        smb.rates(_rates_frame(), ci="wilson")


def test_power_method_is_formula():
    old = _warned_once(lambda: smb.power("paired", discordance=0.2, difference=0.05, method="exact"), "`formula`")
    new = _quiet(lambda: smb.power("paired", discordance=0.2, difference=0.05, formula="exact"))
    assert old.n == new.n == 658  # the exact power of McNemar's exact test (docs/power.md)


# ---------------------------------------------------------------- the command line's old spellings


def _run(capsys, *argv) -> tuple[str, str]:
    assert main([str(a) for a in argv]) == 0
    out, err = capsys.readouterr()
    return out, err


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        (["--ci", "analytic"], ["--interval", "score"], "--ci analytic"),
        (["--interval", "bca", "--ci", "bootstrap"], ["--interval", "bca"], "--ci bootstrap"),
        (["--system", "system"], ["--system-column", "system"], "--system"),
    ],
)
def test_rates_cli_aliases_warn_once_and_give_the_same_output(tmp_path, capsys, old, new, said):
    path = tmp_path / "judgements.csv"
    _rates_frame().to_csv(path, index=False)
    base = ["rates", "--judgements", path, "--n-boot", "200", "--compare", "--format", "json"]
    out_old, err_old = _run(capsys, *base, *old)
    out_new, err_new = _run(capsys, *base, *new)
    assert out_old == out_new
    assert err_old.count(f"warning: FutureWarning: {said} is deprecated") == 1, err_old
    assert "FutureWarning" not in err_new


def test_tgbi_and_power_cli_aliases_read_as_the_new_spelling():
    parser = build_parser()
    args = parser.parse_args(["tgbi", "--test", "bootstrap", "--ci", "bootstrap"])
    assert (args.test, args.interval) == ("interval", "percentile")
    assert [m.split(" is deprecated")[0] for m in args.deprecated] == ["--test bootstrap", "--ci bootstrap"]
    args = parser.parse_args(["tgbi", "--ci", "analytic"])
    assert args.interval == "score"
    args = parser.parse_args(["power", "paired", "--discordance", "0.2", "--method", "exact"])
    assert args.formula == "exact" and "use --formula exact" in args.deprecated[0]
    with pytest.raises(SystemExit):
        parser.parse_args(["tgbi", "--test", "wald"])  # a word of the vocabulary TGBI does not implement

"""A new study is its module and nothing else (issue 45 item 7): no hidden list of studies needs an edit.

A toy study, ``share`` — the female share per system of a judgement table, with its interval and the systems'
paired comparisons — is declared here as a module of ``stats_mtbias/studies/`` would declare it (its ``Options``,
its reading and metric, its ``Study`` record with its ``spec``) and registered at run time
(:data:`stats_mtbias.studies.REGISTERED`, undone after each test). It is then reachable everywhere the shipped
studies are: ``smb.share`` (signature and numpydoc docstring from its options, checked by tests/test_options.py's
own checks), ``stats-mtbias share`` (its flags in ``--help``, ``--format json`` giving the API's numbers),
``smb.power(pilot=…)`` and ``stats-mtbias power pilot --study share``, ``smb.report(result)`` (its title and lead
from its spec), the options table of docs/options.md, and the contract cases of tests/contract/.

Its numbers are those of ``smb.rates`` on the same table (its metric is rates' ``female`` row), checked against a
share computed by hand. (The contract caught the toy's first version: it kept rates' ``p_adjusted``, adjusted over
rates' four metrics, under ``family="all"``.) Deterministic: no Monte-Carlo band is asserted. About 10 s.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np
import pandas as pd
import pytest

import stats_mtbias as smb
from stats_mtbias import _defaults
from stats_mtbias import studies as registry
from stats_mtbias._options import Options, option
from stats_mtbias.cli import build_parser, main
from stats_mtbias.result import FAMILIES, Spec, adjust
from stats_mtbias.significance.multitest import CORRECTIONS
from stats_mtbias.studies._study import Study, finish
from tests import test_options
from tests.cli import test_api_keywords
from tests.contract import _studies as contract
from tests.contract import test_rules

# ---------------------------------------------------------------- the toy study, as its module would be


@dataclass(frozen=True)
class ShareOptions(Options):
    """The female share per system of a judgement table, with the systems' paired comparisons."""

    STUDY: ClassVar[str] = "share"

    judgements: Any = field(
        **option(help="a judgement table: item, system, gender", kind="input", cli="own", metavar="FILE", positional=True)
    )
    n_boot: int = field(**option(_defaults.N_BOOT, f"bootstrap resamples, at least {_defaults.MIN_BOOT}", kind="resamples"))
    rng: Any = field(**option(_defaults.SEED, "seed of every random number", kind="seed", flag="--seed", dest="seed", cli="own"))
    level: float = field(**option(_defaults.LEVEL, "confidence level of every interval", kind="level"))
    correction: str = field(**option(_defaults.CORRECTION, "multiplicity adjustment", kind="choice", choices=tuple(CORRECTIONS)))
    family: Any = field(**option("metric", "the comparisons adjusted together", kind="choice", choices=FAMILIES))
    against: Any = field(**option(None, "compare these systems with every other", kind="names", metavar="A,B"))


FRAMES = ("accounting", "judgements")


def evaluate(judgements, *, n_boot, rng, level, correction, family, against) -> smb.StudyResult:
    """The female share per system: the rates engine's ``female`` rows (the shared rules come with it)."""
    res = registry.STUDIES["rates"].evaluate(
        judgements, n_boot=n_boot, rng=rng, level=level, correction=correction, family=family, against=against
    )
    female = lambda frame: None if frame is None else frame[frame["metric"] == "female"]  # noqa: E731
    # Its own rows make its families: adjusted again over them (rates adjusted over its four metrics).
    comparisons = None if res.comparisons is None else adjust(female(res.comparisons), correction, family)
    frames = {name: res.frames.get(name) for name in FRAMES}
    return finish(
        "share",
        female(res.table),
        comparisons,
        res.provenance,
        frames,
        allowed=FRAMES,
        correction=correction,
        family=family,
        notes=res.notes,
    )


def pilot(result, **kwargs):
    """Its result as a planning pilot: the rates pilot of the same judgements."""
    return registry.STUDIES["rates"].pilot(dataclasses.replace(result, study="rates"), **kwargs)


SPEC = Spec("Share of female outputs per system.", ("female",), ("female",), ("female",), subset="group", title="Female share")
STUDY = Study("share", FRAMES, evaluate, pilot, spec=SPEC, options=ShareOptions)


# ---------------------------------------------------------------- registered, it is everywhere


@pytest.fixture
def share(monkeypatch):
    monkeypatch.setitem(registry.REGISTERED, "share", STUDY)
    return STUDY


def _frame(n: int = 40, seed: int = 5) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rows = [(i, s, "female" if rng.random() < p else "male") for i in range(n) for s, p in (("a", 0.3), ("b", 0.6))]
    return pd.DataFrame(rows, columns=["item", "system", "gender"])


def test_the_registry_and_the_options_have_it(share):
    from stats_mtbias import options

    assert "share" in registry.STUDIES and "share" in registry.ALL and registry.STUDIES["share"] is STUDY
    assert options.OPTIONS["share"] is ShareOptions and options.FRAMES["share"] == FRAMES
    assert "share" in options.STUDIES  # the studies a pilot may come from
    assert "| `n_boot` | `--n-boot` | `10000` |" in options.options_table(options.OPTIONS["share"])


def test_the_api_function_is_made_from_its_options(share):
    for check in (
        test_options.test_the_api_signature_is_the_options_fields_and_defaults,
        test_options.test_the_docstring_documents_every_option,
        test_options.test_every_option_has_its_flag_with_the_same_default_and_choices,
        test_options.test_the_clis_no_effect_rules_are_the_options,
        test_options.test_the_docs_table_lists_every_option,
        test_options.test_validate_refuses_a_bad_choice_before_any_file_is_read,
        test_options.test_validate_refuses_too_few_resamples_and_a_level_outside_0_1,
        test_api_keywords.test_every_api_keyword_has_its_option,
    ):
        check("share")
    assert smb.share.__doc__.startswith("Female share\n")
    frame = _frame()
    res = smb.share(frame, n_boot=200, rng=0)
    by_hand = frame.groupby("system")["gender"].apply(lambda g: float(np.mean(g == "female")))
    assert res.study == "share" and res.spec is SPEC
    assert res.table.set_index("system")["estimate"].to_dict() == pytest.approx(by_hand.to_dict(), abs=1e-12)
    cmp = res.compare()
    assert list(cmp["metric"]) == ["female"] and cmp["diff"].iloc[0] == pytest.approx(by_hand["a"] - by_hand["b"], abs=1e-12)
    with pytest.raises(smb.UsageError, match="`n_boot` must be at least 100"):
        smb.share(frame, n_boot=99)


def test_the_command_line_has_it(share, tmp_path, capsys):
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert list(sub.choices)[4:7] == ["rates", "share", "agreement"]
    with pytest.raises(SystemExit):
        parser.parse_args(["share", "--help"])
    text = capsys.readouterr().out
    for flag in ("--judgements", "--n-boot", "--seed", "--level", "--correction", "--family", "--against", "--compare"):
        assert flag in text, flag
    path = tmp_path / "judgements.csv"
    frame = _frame()
    frame.to_csv(path, index=False)
    assert main(["share", "--judgements", str(path), "--n-boot", "200", "--format", "json"]) == 0
    records = json.loads(capsys.readouterr().out)
    api = smb.share(frame, n_boot=200, rng=_defaults.SEED).table
    assert [r["estimate"] for r in records] == pytest.approx(list(api["estimate"]), abs=1e-12)
    assert [r["ci_low"] for r in records] == pytest.approx(list(api["ci_low"]), abs=1e-12)
    assert main(["share", "--judgements", str(path), "--n-boot", "200", "--compare", "--format", "json"]) == 0
    assert [r["metric"] for r in json.loads(capsys.readouterr().out)] == ["female"]


def test_power_takes_its_result_as_a_pilot(share, tmp_path, capsys):
    frame = _frame()
    plan = dict(n=60, n_sim=100, n_boot=100, rng=1)
    mine = smb.power(pilot=smb.share(frame, n_boot=200, rng=0), **plan)
    theirs = smb.power(pilot=smb.rates(frame, n_boot=200, rng=0), metric="female", **plan)
    assert mine.table["difference"].iloc[0] == pytest.approx(theirs.table["difference"].iloc[0], abs=1e-12)
    path = tmp_path / "pilot.csv"
    frame.to_csv(path, index=False)
    argv = ["power", "pilot", "--study", "share", "--judgements", str(path), "--n", "60", "--n-sim", "100"]
    assert main([*argv, "--n-boot", "100", "--seed", "1", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["difference"] == pytest.approx(mine.table["difference"].iloc[0], abs=1e-12)


def test_the_report_lays_it_out_by_its_spec(share, tmp_path):
    written = smb.report(smb.share(_frame(), n_boot=200, rng=0), out=tmp_path / "report", formats=["md"])
    text = next(p for p in written if p.name == "report.md").read_text("utf-8")
    assert "Female share" in text and "Share of female outputs per system." in text


def test_the_contract_holds_it_to_the_same_cases(share):
    found = {s.name: s for s in contract.studies()}
    assert list(found) == [*registry.SHIPPED, "share"]
    study = found["share"]
    assert (study.metric, study.subset) == ("female", "all")
    test_rules.test_a_pair_is_compared_on_the_items_both_have(study, {})
    test_rules.test_your_systems_are_the_inputs_or_against_never_a_name(study)
    test_rules.test_no_comparison_interval_is_a_point_at_the_boundary(study, {}, "female")
    test_rules.test_family_means_the_same_everywhere(study, "holm")

"""The signature of a result (issue 48 item 4): one line, the same for equal inputs and options, different when any
option or input that changes the numbers differs, read back into the study's options so the result can be made again.
No statistics checked here (the studies' own tests do): small frames, analytic intervals or a few hundred resamples.
"""

from __future__ import annotations

import json
import warnings

import numpy as np
import pandas as pd
import pytest

import stats_mtbias as smb
from stats_mtbias.errors import UsageError
from stats_mtbias.provenance import Signature, input_digests

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.fixture
def frame() -> pd.DataFrame:
    rng = np.random.default_rng(3)
    n = 40
    return pd.DataFrame(
        {
            "item": np.repeat(np.arange(n // 2), 2),
            "system": ["a", "b"] * (n // 2),
            "gender": rng.choice(["female", "male", "neutral"], n),
            "domain": rng.choice(["news", "chat"], n),
            "gold": rng.choice(["female", "male"], n),
        }
    )


def _rates(frame, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return smb.rates(frame, **kwargs)


def test_a_signature_reads_back_as_it_was_written_whatever_its_values_hold():
    awkward = {"by": ["a|b", "c:d", "e,f"], "sample": "100%~", "gold": None, "pool": True, "alpha": 0.01, "system": ""}
    s = Signature("rates", "0.1.0", ("female", "gap"), ("bootstrap", "bca"), 500, 7, 0.9, awkward, ("abc", "def"))
    line = s.format()
    assert "\n" not in line and line.startswith("stats_mtbias:0.1.0|study:rates|metric:female,gap|ci:bootstrap+bca|B:500")
    back = Signature.parse(line)
    assert back.format() == line
    assert back.options["by"] == ["a|b", "c:d", "e,f"] and back.options["sample"] == "100%~" and back.options["gold"] is None
    assert (back.n_boot, back.seed, back.level, back.inputs) == (500, 7, 0.9, ("abc", "def"))
    # A Generator's seed is said, but is no keyword to make the result again.
    generator = Signature.parse(Signature("rates", seed="Generator(PCG64)").format())
    assert generator.seed == "Generator(PCG64)" and "rng" not in generator.kwargs()


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("study:rates|inputs:", "stats_mtbias"),
        ("stats_mtbias:0.1.0|rates", "field 2"),
        ("stats_mtbias:1|study:x|study:y", "twice"),
    ],
)
def test_a_line_that_is_not_a_signature_is_refused_by_name(text, says):
    with pytest.raises(ValueError, match=says):
        Signature.parse(text)
    with pytest.raises(UsageError, match=says):
        smb.parse_signature(text)


def test_unknown_study_or_option_is_refused():
    with pytest.raises(UsageError, match="unknown study 'bleu'"):
        smb.parse_signature("stats_mtbias:0.1.0|study:bleu|inputs:")
    with pytest.raises(UsageError, match="no option 'tokenize'"):
        smb.parse_signature("stats_mtbias:0.1.0|study:rates|tokenize:13a|inputs:")


def test_inputs_are_listed_up_to_four_then_one_digest_of_all():
    few = {f"f{i}": f"{i:064x}" for i in range(4)}
    assert input_digests(few) == tuple(f"{i:064x}"[:12] for i in range(4))
    many = {f"/home/me/f{i}": f"{i:064x}" for i in range(5)}
    moved = {f"/data/f{i}": f"{i:064x}" for i in range(5)}  # the same files elsewhere: the same digest
    assert input_digests(many) == input_digests(moved) and input_digests(many)[0].startswith("5@")
    assert input_digests(many) != input_digests({**many, "/home/me/f4": "f" * 64})


def test_equal_inputs_and_options_give_one_signature_and_the_line_has_its_parts(frame):
    first = _rates(frame, interval="score", by=["domain"])
    again = _rates(frame.copy(), interval="score", by=["domain"])
    assert first.signature == again.signature == first.provenance["signature"]
    fields = dict(part.split(":", 1) for part in first.signature.split("|"))
    assert fields["stats_mtbias"] == smb.__version__ and fields["study"] == "rates"
    assert fields["metric"] == "female,male,neutral,gap" and fields["ci"] == "score"
    assert fields["seed"] == "0" and fields["level"] == "0.95" and fields["by"] == "domain"
    assert "B" not in fields  # no resamples in an analytic interval
    (digest,) = first.provenance["data"].values()
    assert fields["inputs"] == digest[:12]
    json.dumps(first.provenance)  # still a plain record


@pytest.mark.parametrize(
    "changed",
    [
        {"interval": "percentile", "n_boot": 200},
        {"level": 0.9},
        {"correction": "bh"},
        {"family": "all"},
        {"by": []},
        {"gold": "gold"},
        {"cluster": None},
        {"outcome": "gold"},
    ],
    ids=lambda d: ",".join(d),
)
def test_any_option_that_changes_the_numbers_changes_the_signature(frame, changed):
    base = {"interval": "score", "by": ["domain"]}
    assert _rates(frame, **{**base, **changed}).signature != _rates(frame, **base).signature


def test_resamples_seed_and_input_change_it_and_an_option_without_effect_does_not(frame):
    boot = {"interval": "percentile", "n_boot": 200}
    signature = _rates(frame, **boot, rng=1).signature
    assert _rates(frame, **boot, rng=2).signature != signature
    assert _rates(frame, interval="percentile", n_boot=300, rng=1).signature != signature
    assert _rates(frame, **{**boot, "interval": "bca"}, rng=1).signature != signature
    edited = frame.copy()
    edited.loc[0, "gender"] = "male" if edited.loc[0, "gender"] != "male" else "female"
    assert _rates(edited, **boot, rng=1).signature != signature
    # The bootstrap's count does nothing to a score interval: the same line.
    assert _rates(frame, interval="score", n_boot=300).signature == _rates(frame, interval="score").signature


@pytest.mark.parametrize(
    "kwargs",
    [
        {"interval": "score"},
        {"interval": "bca", "n_boot": 200, "rng": 5, "level": 0.9},
        {"interval": "score", "by": ["domain"], "gold": "gold", "correction": "none", "family": "all", "against": ["b"]},
        {"interval": "score", "cluster": None, "system": "system", "strata": "domain"},
    ],
    ids=["analytic", "bootstrap", "options", "cluster"],
)
def test_a_signature_makes_the_result_again(frame, kwargs):
    """Round trip: the options parsed from a result's signature give the same signature and the same numbers."""
    res = _rates(frame, **kwargs)
    parsed = smb.parse_signature(res.signature)
    assert parsed.study == "rates" and parsed.format() == res.signature
    again = _rates(frame, **parsed.kwargs())
    assert again.signature == res.signature
    pd.testing.assert_frame_equal(again.table, res.table)


def test_agreement_signature_keeps_its_columns():
    labels = pd.DataFrame({"human": ["f", "m", "f", "m"], "llm": ["f", "m", "m", "m"]})
    res = smb.agreement(labels, a="human", b="llm")
    assert "|a:human|b:llm|" in res.signature and "ci:" not in res.signature
    assert smb.agreement(labels, **smb.parse_signature(res.signature).kwargs()).signature == res.signature


@pytest.mark.needs_data
def test_tgbi_signature_names_its_systems_and_shipped_inputs():
    res = smb.tgbi(systems=["google"], interval="percentile", n_boot=200, rng=0)
    parsed = smb.parse_signature(res.signature)
    assert parsed.options["systems"] == ["google"] and parsed.ci == ("percentile",)
    assert parsed.inputs[0].startswith(f"{len(res.provenance['data'])}@")
    assert smb.tgbi(**parsed.kwargs()).signature == res.signature


def test_a_result_made_outside_the_api_still_has_a_signature():
    res = smb.StudyResult("rates", pd.DataFrame({"system": ["a"], "metric": ["female"]}), None, {"seed": 0, "data": {}})
    assert res.signature == f"stats_mtbias:{smb.__version__}|study:rates|metric:female|seed:0|inputs:"


def test_a_plan_from_a_pilot_keeps_the_pilots_signature(frame):
    pilot = _rates(frame, interval="score")
    plan = smb.power(pilot=pilot, difference=0.1, metric="female")
    assert plan.provenance["pilot"]["signature"] == pilot.signature


def test_a_models_signature_names_the_study_it_fitted_and_reads_back_into_smb_model_keywords():
    from stats_mtbias.provenance import Provenance
    from stats_mtbias.studies.models import ModelResult

    options = {"study": "prates", "model": "calibration", "draws": 500, "tune": 300, "chains": 4, "sampler": "pymc"}
    provenance = Provenance("x", {"prates/a.tsv": "ab" * 32}, seed=3, level=0.9, options={**options, "cells": 12})
    fit = ModelResult(pd.DataFrame(), {}, {}, provenance, None, None, None)
    line = fit.signature
    assert line.startswith(f"stats_mtbias:{smb.__version__}|study:model/prates|seed:3|level:0.9|model:calibration|")
    assert smb.parse_signature(line).kwargs() == {**options, "rng": 3, "level": 0.9}

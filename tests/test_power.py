"""Issue 45: a plan for one group counts that group's items, through the API and the CLI (`power pilot --by`)."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pandas as pd
import pytest

import stats_mtbias as smb
from stats_mtbias.cli import main


@pytest.fixture(scope="module")
def pilot(tmp_path_factory):
    rng = np.random.default_rng(0)
    n = 1000
    group = np.where(np.arange(n) < 208, "G", "H")
    a = np.where(rng.random(n) < 0.4, "female", "male")
    b = np.where(rng.random(n) < 0.35, "female", "male")
    frame = pd.concat([pd.DataFrame({"item": range(n), "system": s, "gender": g, "grp": group}) for s, g in (("a", a), ("b", b))])
    path = tmp_path_factory.mktemp("pilot") / "pilot.csv"
    frame.to_csv(path, index=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return smb.rates(frame, by="grp", n_boot=200, rng=0), path


def test_the_mde_of_a_group_rests_on_the_groups_items(pilot):
    result, _ = pilot
    compared = result.compare().set_index(["subset", "metric"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        plan = smb.power(pilot=result, subset="G", n=208, metric="female", test="wald", n_sim=400, rng=0)
    # The group's own paired standard error (compare's mde) and the simulation agree to within the simulation's
    # error and the location-shift approximation; reading n as items of the whole benchmark gave 0.59-0.64.
    assert plan.difference == pytest.approx(compared.loc[("G", "female"), "mde"], rel=0.2)
    assert plan.n == 208


def test_the_cli_plans_for_a_group(pilot, capsys):
    _, path = pilot
    argv = [
        "power",
        "pilot",
        "--study",
        "rates",
        "--judgements",
        str(path),
        "--by",
        "grp",
        "--subset",
        "G",
        "--metric",
        "female",
        "--n",
        "208",
        "--test",
        "wald",
        "--n-sim",
        "400",
        "--format",
        "json",
    ]
    assert main(argv) == 0
    row = json.loads(capsys.readouterr().out)  # one plan: one record
    assert row["n"] == 208 and 0.1 < row["difference"] < 0.18

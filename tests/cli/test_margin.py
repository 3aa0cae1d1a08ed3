"""``--margin``: the comparisons with their equivalence test, as ``res.compare(margin=)`` gives them; and plans."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import stats_mtbias as smb


@pytest.fixture(scope="module")
def judgements(tmp_path_factory):
    rng = np.random.default_rng(0)
    n = 200
    frame = pd.DataFrame(
        {
            "item": np.tile(np.arange(n), 3),
            "system": np.repeat(["mine", "google", "deepl"], n),
            "gender": rng.choice(["male", "female"], 3 * n, p=[0.55, 0.45]),
        }
    )
    path = tmp_path_factory.mktemp("margin") / "judgements.csv"
    frame.to_csv(path, index=False)
    return path


def test_rates_margin_is_the_apis(cli, judgements):
    records, err = cli.json("rates", "--judgements", judgements, "--ci", "analytic", "--margin", "0.08")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api = smb.rates(judgements, ci="analytic").compare(margin=0.08)
    got = pd.DataFrame(records)
    for column in ("p_equivalent", "p_equivalent_adjusted", "eq_low", "eq_high"):
        assert np.allclose(got[column], api[column], rtol=0, atol=1e-12), column
    assert got["verdict"].tolist() == api["verdict"].tolist()
    assert got["equivalent"].tolist() == api["equivalent"].tolist()
    code, out, err = cli("rates", "--judgements", judgements, "--ci", "analytic", "--margin", "0.08")
    assert code == 0 and "equivalence within ±8 points" in out + err


@pytest.mark.parametrize(
    "argv, said",
    [
        (["--margin", "0"], "`margin` must be a finite number > 0"),
        (["--margin", "0.1", "--view", "estimates"], "--margin tests the comparisons' equivalence"),
    ],
)
def test_rates_margin_errors(cli, judgements, argv, said):
    code, _, err = cli("rates", "--judgements", judgements, "--ci", "analytic", *argv)
    assert code == 64 and said in err


def test_power_margin_is_the_apis(cli):
    record, _ = cli.json("power", "paired", "--discordance", "0.2", "--margin", "0.03", "--difference", "0.01")
    record = record[0] if isinstance(record, list) else record
    api = smb.power("paired", discordance=0.2, margin=0.03, difference=0.01)
    assert record["n"] == api.n and record["margin"] == 0.03
    record, _ = cli.json("power", "normal", "--se", "0.02", "--n-pilot", "100", "--margin", "0.03", "--n", "300")
    record = record[0] if isinstance(record, list) else record
    assert record["power"] == pytest.approx(smb.power("normal", se=0.02, n_pilot=100, margin=0.03, n=300).power, abs=1e-12)

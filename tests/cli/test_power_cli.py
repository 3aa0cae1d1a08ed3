"""`stats-mtbias power`: the issue's example, every design, the pilot path and clear refusals."""

from __future__ import annotations

import json
import subprocess
import sys

import pandas as pd
import pytest

import stats_mtbias as smb
from stats_mtbias.cli import main


def test_paired_json_is_one_object_with_connors_n():
    # The installed entry point, as a user types it.
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "stats_mtbias.cli",
            "power",
            "paired",
            "--discordance",
            "0.2",
            "--difference",
            "0.05",
            "--format",
            "json",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    record = json.loads(out.stdout)
    assert record["n"] == 626 and record["question"] == "sample_size"
    assert record == {
        k: v for k, v in smb.power("paired", discordance=0.2, difference=0.05).to_dict().items() if v not in (None, "")
    }


def test_table_power_and_mde(capsys):
    from scipy.stats import norm

    # Every expected number from its formula here, not from the package's own output.
    z, n, d, psi = norm.ppf(0.975), 626, 0.05, 0.2
    sd = (psi - d * d) ** 0.5
    connor = norm.cdf((d * n**0.5 - z * psi**0.5) / sd) + norm.cdf((-d * n**0.5 - z * psi**0.5) / sd)
    assert main(["power", "paired", "--discordance", "0.2", "--n", "626", "--difference", "0.05"]) == 0
    text = capsys.readouterr().out
    assert "power" in text and f"{connor:.4f}" in text
    # Wilson's half-width z/(1 + z²/n) √(p q/n + z²/4n²) at p = 0.3 first reaches 0.03 at this n:
    wilson = next(k for k in range(100, 5000) if z / (1 + z * z / k) * (0.21 / k + z * z / (4 * k * k)) ** 0.5 <= 0.03)
    assert main(["power", "rate", "--rate", "0.3", "--half-width", "0.03", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["n"] == wilson
    assert main(["power", "normal", "--se", "0.01", "--n-pilot", "500", "--n", "500", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["difference"] == pytest.approx((z + norm.ppf(0.8)) * 0.01, rel=1e-9)


def test_pilot_from_a_users_judgements_with_a_curve(tmp_path, capsys):
    n = 600
    frame = pd.DataFrame(
        {
            "item": list(range(n)) * 2,
            "system": ["mine"] * n + ["base"] * n,
            "gender": (["female"] * 200 + ["male"] * 400) + (["female"] * 150 + ["male"] * 450),
        }
    )
    path = tmp_path / "pilot.csv"
    frame.to_csv(path, index=False)
    png = tmp_path / "curve.png"
    assert (
        main(
            [
                "power",
                "pilot",
                "--study",
                "rates",
                "--judgements",
                str(path),
                "--systems",
                "mine,base",
                "--n",
                "600",
                "--test",
                "wald",
                "--n-sim",
                "200",
                "--format",
                "json",
                "--curve",
                str(png),
                "--provenance",
            ]
        )
        == 0
    )
    out = capsys.readouterr()
    record = json.loads(out.out)
    assert record["question"] == "mde" and 0 < record["difference"] < 0.2
    assert png.stat().st_size > 1000
    assert str(path) in json.loads(out.err.split("provenance: ", 1)[1])["pilot"]["data"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["power", "paired", "--discordance", "0.2", "--difference", "0.3"], "at most `discordance`"),
        (["power", "paired", "--discordance", "0.2"], "give `n`"),
        (["power", "pilot", "--study", "rates"], "--judgements"),
    ],
)
def test_refusals_exit_64_with_a_message(argv, message, capsys):
    assert main(argv) == 64
    assert message in capsys.readouterr().err


def test_power_labels(cli):
    records, _ = cli.json("power", "labels", "--rate", "0.3", "--discordance", "0.1", "--items", "5000", "--half-width", "0.03")
    assert records["n"] == smb.power("labels", rate=0.3, discordance=0.1, items=5000, half_width=0.03).n

"""The Prates study on the shipped data, checked against an independent recount of the raw file."""

import csv
from collections import Counter

import numpy as np
import pytest

from stats_mtbias.studies import prates

# A full run on the shipped data (20 s on two cores): the slow tier.
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def result(data_dir):
    return prates.evaluate(data_dir=data_dir, by="language,category")


@pytest.fixture(scope="module")
def recount(data_dir):
    with open(data_dir / "prates/Results/job-genders.tsv", encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle, delimiter="\t"))
    header, body = rows[0], rows[1:]
    counts = {}
    for j, column in enumerate(header[2:], start=2):
        language = column.split("-")[0]
        counts.setdefault(language, Counter()).update(row[j] for row in body)
    return counts, len(body)


def test_every_row_is_counted(result, recount):
    counts, n_rows = recount
    assert n_rows == 1019
    rows = result.frames["rates"][result.frames["rates"]["category"] == "all"].set_index("language")
    for language, c in counts.items():
        row = rows.loc[language]
        assert (row["n_female"], row["n_male"], row["n_neutral"], row["n_unknown"]) == (
            c["Female"],
            c["Male"],
            c["Neutral"],
            c["?"],
        )
        assert row["n"] == c["Female"] + c["Male"] + c["Neutral"]
        assert row["female"] == pytest.approx(c["Female"] / row["n"])
    assert result.frames["accounting"]["n"].sum() == 1019 * 17


def test_authors_convention_matches_the_recount(data_dir, recount):
    counts, _n_rows = recount
    rates, _, _ = prates.analyse(prates.load_judgements(data_dir=data_dir)[0], denominator="all")
    rows = rates.set_index("language")
    # Every occupation has all six Bengali variants, so averaging them equals pooling.
    for language, c in counts.items():
        total = sum(c.values())
        assert rows.loc[language, "female"] == pytest.approx(c["Female"] / total)
        assert rows.loc[language, "male"] == pytest.approx(c["Male"] / total)
    assert rows.loc["Malay", "female"] == pytest.approx(39 / 1019)


def test_tests_and_family(result):
    tests = result.frames["tests"]
    assert len(tests) == 3 * 12 * 23
    male_female = tests[tests["comparison"] == "male>female"]
    assert np.all(male_female["p_adjusted"] >= male_female["p_value"])
    # Male outnumbers female in every language overall.
    overall = male_female[male_female["category"] == "all"]
    assert (overall["p_adjusted"] < 0.001).all()
    assert "276 one-sided tests" in result.provenance["method"]


def test_reference_and_calibration(result):
    ref = result.frames["reference"].set_index(["language", "level"])
    overall = ref.loc[("all", "occupation")]
    assert overall["n"] == 1019 - 429 and overall["n_excluded"] == 429  # BLS gives no share for 429
    assert overall["translated"] < overall["reference"] and overall["p_value"] < 1e-10
    calib = result.frames["calibration"].set_index("language")
    assert calib.loc["Japanese", "note"] == "not estimable: no female output"
    assert 0 < calib.loc["all", "slope"] < 1 and calib.loc["all", "female_at_parity"] < 0.5

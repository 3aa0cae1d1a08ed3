"""Sector B for the 12 Prates languages against the BLS reference."""

import numpy as np
import pytest

from stats_mtbias.studies import optimal

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def result(data_dir):
    return optimal.evaluate(data_dir=data_dir, n_boot=2000, rng=0)


def test_every_language_has_sector_tables(result):
    sectors = result.frames["sectors"]
    assert sectors["language"].nunique() == 12
    per_language = sectors.groupby("language").size()
    assert (per_language >= 13).all()  # 7 sectors x 2, except sectors without female-dominated occupations
    assert (sectors["ci_low"] <= sectors["b"] + 1e-9).all() and (sectors["b"] <= sectors["ci_high"] + 1e-9).all()


def test_occupations_accounted_for(result):
    acc = result.frames["accounting"].groupby("language")["n"].sum()
    assert (acc == 1019).all()
    occ = result.frames["occupations"]
    hungarian = occ[occ["language"] == "Hungarian"]
    # Recompute B by hand for Hungarian's first occupations with a share.
    row = hungarian.dropna(subset=["b"]).iloc[0]
    f = row["female_share"]
    said_she = row["n_female"] == 1
    et = 100 * (1 - f) if said_she else 100 * f
    assert row["b"] == pytest.approx((et - 100 * min(f, 1 - f)) / (100 * min(f, 1 - f)))


def test_japanese_never_says_she(result):
    head = result.frames["headline"].set_index("language")
    assert head.loc["Japanese", "she_given_male_dominated"] == 0.0
    assert head.loc["Japanese", "he_given_female_dominated"] == 1.0
    assert np.all(head["minority"].between(0, 1))

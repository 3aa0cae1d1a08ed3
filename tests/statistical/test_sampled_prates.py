"""Several samples per output in Prates and the optimal translator (issue 37): items stay the unit.

- One sample per item is today's analysis, to the last digit (every frame).
- Duplicating every sample three times changes no share, interval or p-value.
- Unequal numbers of samples are averaged with a warning; ``--sample`` is the API.
- The sample-aware sign test (the sign of an item's difference of mean shares)
  keeps its size under the null, by simulation.
"""

from __future__ import annotations

import io
import json
import warnings

import numpy as np
import pandas as pd
import pytest

import stats_mtbias as smb
from stats_mtbias.cli import main
from stats_mtbias.errors import DataQualityWarning
from stats_mtbias.studies import prates as prates_study
from tests.statistical._samples import mc_error

FRAMES = ("rates", "tests", "independence")
# smb.prates compares with the shipped BLS reference (women's share per occupation), for the user's judgements too.
NEEDS_DATA = pytest.mark.needs_data


def sampled_prates(*, n_items=60, k=5, rng, languages=("tr", "hu", "fi"), spread=1.0, male=0.5) -> pd.DataFrame:
    """Judgements ``item, language, system, category, gender, sample``: items with their own male propensity."""
    effect = np.repeat(rng.normal(male, spread, n_items), k)
    frames = []
    for language in languages:
        p = 1 / (1 + np.exp(-effect))
        u = rng.random(p.size)
        gender = np.where(u < 0.9 * p, "male", np.where(u < 0.9, "female", "neutral"))
        frames.append(
            pd.DataFrame(
                {
                    "item": np.repeat([f"occ{i}" for i in range(n_items)], k),
                    "language": language,
                    "system": "llm",
                    "category": np.repeat([f"c{i % 4}" for i in range(n_items)], k),
                    "gender": gender,
                    "sample": np.tile(np.arange(k), n_items).astype(str),
                }
            )
        )
    return pd.concat(frames, ignore_index=True)


def _prates(judgements, **options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataQualityWarning)
        return smb.prates(judgements=judgements, by="language,category", **options)


def _numbers(frame: pd.DataFrame) -> np.ndarray:
    return frame.select_dtypes("number").to_numpy(float)


@NEEDS_DATA
def test_prates_one_sample_is_todays():
    one = sampled_prates(k=1, rng=np.random.default_rng(0))
    for denominator in ("identified", "all"):
        today = _prates(one.drop(columns="sample"), denominator=denominator)
        again = _prates(one, sample="sample", denominator=denominator)
        pd.testing.assert_frame_equal(today.table, again.table)
        for name in FRAMES:
            pd.testing.assert_frame_equal(today.frames[name], again.frames[name])


@NEEDS_DATA
@pytest.mark.parametrize("test", ["exact", "ttest"])
def test_prates_duplicating_samples_changes_nothing(test):
    frame = sampled_prates(k=4, rng=np.random.default_rng(1))
    once = _prates(frame, sample="sample", test=test)
    tripled = pd.concat([frame.assign(sample=frame["sample"] + f"-{c}") for c in range(3)], ignore_index=True)
    again = _prates(tripled, sample="sample", test=test)
    assert "several samples per output" in once.provenance["method"]
    np.testing.assert_allclose(_numbers(again.table), _numbers(once.table), rtol=0, atol=1e-9)
    rows = ["n_outputs", "n_unknown"]  # outputs counted as outputs (rows): three times as many
    for name in FRAMES:
        a, b = again.frames[name], once.frames[name]
        np.testing.assert_allclose(
            _numbers(a.drop(columns=rows, errors="ignore")), _numbers(b.drop(columns=rows, errors="ignore")), atol=1e-9
        )
    np.testing.assert_array_equal(again.frames["rates"][rows], 3 * once.frames["rates"][rows])


@NEEDS_DATA
def test_prates_samples_are_not_items():
    """Samples averaged: n is the outputs (items × languages), and the sign test counts items, not samples."""
    frame = sampled_prates(n_items=40, k=6, rng=np.random.default_rng(2), languages=("tr",))
    res = _prates(frame, sample="sample")
    rates = res.frames["rates"].query("category == 'all'").iloc[0]
    assert rates["n_items"] == 40 and rates["n"] <= 40 + 1e-9
    tests = res.frames["tests"]
    assert (tests["n_positive"] + tests["n_negative"] <= 40).all()
    assert ((res.table["estimate"] >= 0) & (res.table["ci_high"] <= 1)).all()
    # an item whose male and female means are equal is a tie of the sign test
    means = frame.assign(m=frame["gender"] == "male", f=frame["gender"] == "female").groupby("item")[["m", "f"]].mean()
    male_female = tests.query("comparison == 'male>female' and category == 'all'").iloc[0]
    assert male_female["n_positive"] == int((means["m"] > means["f"]).sum())
    assert male_female["n_negative"] == int((means["m"] < means["f"]).sum())


@NEEDS_DATA
def test_prates_unequal_samples_warn():
    frame = sampled_prates(k=4, rng=np.random.default_rng(3))
    frame = frame[~(frame["item"].isin(["occ1", "occ2"]) & (frame["sample"] != "0"))]
    with pytest.warns(DataQualityWarning, match="items have 1–4 samples; each item's samples are averaged"):
        smb.prates(judgements=frame, sample="sample")


def _cli_json(*argv) -> list:
    import contextlib

    out = io.StringIO()
    with contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter("ignore", DataQualityWarning)
        assert main([str(a) for a in argv] + ["--format", "json"]) == 0
    return json.loads(out.getvalue())


@NEEDS_DATA
def test_prates_cli_sample_is_the_api(tmp_path):
    frame = sampled_prates(k=3, rng=np.random.default_rng(4))
    path = tmp_path / "llm.csv"
    frame.to_csv(path, index=False)
    got = pd.DataFrame(_cli_json("prates", "--judgements", path, "--sample", "sample", "--view", "tests"))
    want = smb.prates(judgements=path, sample="sample").frames["tests"]
    np.testing.assert_allclose(got["p_value"].to_numpy(float), want["p_value"].to_numpy(float), rtol=0, atol=1e-12)
    np.testing.assert_allclose(got["diff_ci_low"].to_numpy(float), want["diff_ci_low"].to_numpy(float), atol=1e-12)


def test_sign_test_size_with_samples():
    """Under H0 (male and female exchangeable within an item, items' propensities symmetric about 1/2) the
    one-sided exact sign test on items' mean differences rejects at most 5% (plus 2.5 points), and not far below
    what the exact test's discreteness allows: 400 reps, Monte-Carlo SE stated."""
    rng = np.random.default_rng(5)
    reps, n_items, k, alpha = 400, 40, 5, 0.05
    q = np.clip(rng.beta(2, 2, (reps, n_items)), 0, 1)  # per item P(male | gendered), symmetric about 1/2
    samples = rng.random((reps, n_items, k)) < q[..., None]
    male = samples.mean(axis=2)
    d = 2 * male - 1  # mean male − mean female share
    pos, neg = (d > 0).sum(axis=1), (d < 0).sum(axis=1)
    from stats_mtbias.significance.paired import sign_test_pvalue

    p = sign_test_pvalue(pos, neg)
    size = float(np.mean(p < alpha))
    se = mc_error(alpha, reps)  # ≈ 0.011
    assert se < 0.012
    assert size <= alpha + 0.025, (size, se)
    assert size >= alpha - 0.04, (size, se)  # the exact sign test's discreteness keeps it a little under 5%
    # the study gives the same p-values as the direct computation (first 20 replicates)
    for r in range(20):
        judgements = pd.DataFrame(
            {
                "item": np.repeat(np.arange(n_items).astype(str), k),
                "language": "tr",
                "system": "s",
                "category": "all",
                "variant": "",
                "reason": "",
                "sample": np.tile(np.arange(k), n_items).astype(str),
                "gender": np.where(samples[r].ravel(), "male", "female"),
            }
        )
        weighted = prates_study.sample_weights(judgements)
        _, tests, _ = prates_study.analyse(weighted)
        got = tests.query("comparison == 'male>female'")["p_value"].iloc[0]
        assert got == pytest.approx(float(p[r]), abs=1e-12)


# ---------------------------------------------------------------- optimal


@pytest.fixture(scope="module")
def occupations(data_dir):
    """The shipped occupations (the default data of smb.optimal: skipped without the public datasets)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataQualityWarning)
        table = smb.optimal(n_boot=100).frames["occupations"].drop_duplicates("item")
    return table[~table["occupation"].duplicated(keep=False)]["occupation"].head(80).tolist()


def _optimal_frame(occupations, k, rng):
    p = np.repeat(rng.random(len(occupations)), k)
    return pd.DataFrame(
        {
            "occupation": np.repeat(occupations, k),
            "sample": np.tile(np.arange(k), len(occupations)).astype(str),
            "gender": np.where(rng.random(p.size) < p, "female", "male"),
        }
    )


def test_optimal_one_sample_is_todays(occupations):
    one = _optimal_frame(occupations, 1, np.random.default_rng(6))
    today = smb.optimal(judgements=one.drop(columns="sample"), n_boot=300, rng=1)
    again = smb.optimal(judgements=one, sample="sample", n_boot=300, rng=1)
    pd.testing.assert_frame_equal(today.table, again.table)
    pd.testing.assert_frame_equal(today.frames["occupations"], again.frames["occupations"])


def test_optimal_duplicating_samples_changes_nothing(occupations):
    frame = _optimal_frame(occupations, 4, np.random.default_rng(7))
    once = smb.optimal(judgements=frame, sample="sample", n_boot=300, rng=1)
    tripled = pd.concat([frame.assign(sample=frame["sample"] + f"-{c}") for c in range(3)], ignore_index=True)
    again = smb.optimal(judgements=tripled, sample="sample", n_boot=300, rng=1)
    np.testing.assert_allclose(_numbers(again.table), _numbers(once.table), rtol=0, atol=1e-9)
    # equal numbers of samples: the pooled counts give the same B and shares (samples were always pooled)
    pooled = smb.optimal(judgements=frame.drop(columns="sample"), n_boot=300, rng=1)
    np.testing.assert_allclose(_numbers(pooled.table), _numbers(once.table), rtol=0, atol=1e-9)


def test_optimal_unequal_samples_warn_and_weigh_items_alike(occupations):
    frame = _optimal_frame(occupations, 4, np.random.default_rng(8))
    frame = frame[~(frame["occupation"].isin(occupations[:10]) & (frame["sample"] != "0"))]
    with pytest.warns(DataQualityWarning, match="occupations have 1–4 samples"):
        res = smb.optimal(judgements=frame, sample="sample", n_boot=200, rng=1)
    occ = res.frames["occupations"]
    assert np.allclose(occ[["n_female", "n_male", "n_other", "n_unknown"]].sum(axis=1), 1.0)


def test_optimal_cli_sample_is_the_api(occupations, tmp_path):
    frame = _optimal_frame(occupations, 3, np.random.default_rng(9))
    path = tmp_path / "llm.csv"
    frame.to_csv(path, index=False)
    got = pd.DataFrame(
        _cli_json("optimal", "--judgements", path, "--sample", "sample", "--view", "headline", "--n-boot", 300, "--seed", 1)
    )
    want = smb.optimal(judgements=path, sample="sample", n_boot=300, rng=1).frames["headline"]
    np.testing.assert_allclose(got["minority_ci_low"].to_numpy(float), want["minority_ci_low"].to_numpy(float), atol=1e-12)

"""Power by simulation from pilot data: against the closed forms, its own size, the bootstrap and reproducibility."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import stats_mtbias as smb
from stats_mtbias.planning import closed
from stats_mtbias.planning import simulate as sim


def _paired_pilot(n: int, p10: float, p01: float, p11: float) -> smb.StudyResult:
    """A rates pilot of two systems whose 'female' outcomes have exactly these paired shares."""
    k10, k01, k11 = round(n * p10), round(n * p01), round(n * p11)
    k00 = n - k10 - k01 - k11
    a = ["female"] * (k10 + k11) + ["male"] * (k01 + k00)
    b = ["male"] * k10 + ["female"] * (k11 + k01) + ["male"] * k00
    frame = pd.DataFrame({"item": np.tile(np.arange(n), 2), "system": ["a"] * n + ["b"] * n, "gender": a + b})
    return smb.rates(frame, n_boot=100, rng=0)


@pytest.fixture(scope="module")
def pilot():
    return _paired_pilot(2000, 0.125, 0.075, 0.3)  # discordance 0.2, difference 0.05


def test_allocation_is_proportional_and_complete():
    assert sim.allocate(10, [50, 30, 20]).tolist() == [5, 3, 2]
    assert sim.allocate(7, [100, 1, 1]).tolist() == [5, 1, 1]
    assert sim.allocate(3888, [1000, 944, 1000, 944]).sum() == 3888
    with pytest.raises(smb.UsageError, match="strata"):
        sim.allocate(2, [1, 1, 1])


@pytest.mark.parametrize("test", ["wald", "bootstrap"])
def test_simulated_power_agrees_with_connor(pilot, test):
    n_sim = 2000 if test == "wald" else 1000
    res = smb.power(
        pilot=pilot, systems=("a", "b"), metric="female", n=626, difference=0.05, test=test, n_sim=n_sim, n_boot=400, rng=1
    )
    connor = float(closed.paired_power(626, 0.05, 0.2))
    # The Wald/bootstrap test of the difference uses the unpooled variance: up to half a point above McNemar's.
    assert abs(res.power - connor) < 4 * np.sqrt(connor * (1 - connor) / n_sim) + 0.005
    assert res.table["size"].iloc[0] == pytest.approx(0.05, abs=4 * np.sqrt(0.05 * 0.95 / n_sim) + 0.005)


def test_location_shift_matches_a_pilot_generated_at_the_difference():
    # The power at 0.02 read from a pilot whose own difference is 0.05, against a pilot made with difference 0.02.
    shifted = _paired_pilot(2000, 0.125, 0.075, 0.3)
    direct = _paired_pilot(2000, 0.11, 0.09, 0.3)
    kw = dict(systems=("a", "b"), metric="female", n=2000, difference=0.02, test="wald", n_sim=4000)
    p_shift = smb.power(pilot=shifted, rng=2, **kw).power
    p_direct = smb.power(pilot=direct, rng=3, **kw).power
    assert abs(p_shift - p_direct) < 4 * np.sqrt(2 * 0.25 / 4000)


def test_simulated_sample_size_agrees_with_connor_and_is_reproducible(pilot):
    res = smb.power(pilot=pilot, systems=("a", "b"), metric="female", difference=0.05, test="wald", n_sim=2000, rng=4)
    assert res.n == pytest.approx(626, rel=0.06)
    assert res.power == pytest.approx(0.8, abs=0.035)
    assert list(res.trace.columns) == ["n", "power"] and len(res.trace) == 5
    again = smb.power(
        pilot=pilot, systems=("a", "b"), metric="female", difference=0.05, test="wald", n_sim=2000, rng=np.random.default_rng(4)
    )
    assert again.n == res.n and again.power == res.power
    other = smb.power(pilot=pilot, systems=("a", "b"), metric="female", difference=0.05, test="wald", n_sim=2000, rng=5)
    assert other.trace["power"].tolist() != res.trace["power"].tolist()


def test_simulated_mde_agrees_with_connor(pilot):
    res = smb.power(pilot=pilot, systems=("a", "b"), metric="female", n=1500, test="wald", n_sim=4000, rng=6)
    assert res.difference == pytest.approx(float(closed.paired_mde(1500, 0.2)), rel=0.06)


def test_single_system_half_width_agrees_with_wilson():
    frame = pd.DataFrame({"item": np.arange(1000), "system": "a", "gender": ["female"] * 300 + ["male"] * 700})
    one = smb.rates(frame, n_boot=100, rng=0)
    res = smb.power(pilot=one, metric="female", half_width=0.03, test="wald", n_sim=1000, rng=7)
    assert res.n == pytest.approx(int(closed.rate_sample_size(0.03, 0.3)), rel=0.05)
    assert res.half_width == pytest.approx(0.03, rel=0.05)


def test_clustered_pilot_carries_its_design_effect():
    # Five outputs per prompt, shared prompt effect: the simulation resamples prompts, so n is prompts.
    rng = np.random.default_rng(8)
    prompts, m = 400, 5
    p_prompt = rng.beta(1.2, 2.8, size=prompts)  # ICC 1/(1.2+2.8+1) = 0.2, mean 0.3
    female = rng.random((prompts, m)) < p_prompt[:, None]
    frame = pd.DataFrame(
        {"item": np.repeat(np.arange(prompts), m), "system": "a", "gender": np.where(female.ravel(), "female", "male")}
    )
    res = smb.power(pilot=smb.rates(frame, n_boot=100, rng=0), metric="female", n=prompts, test="wald", n_sim=2000, rng=9)
    share = female.mean()
    naive = float(closed.rate_half_width(prompts * m, share))
    assert res.half_width > 1.3 * naive  # clustering widens it (deff ≈ 1.8)
    assert res.table["n_outputs"].iloc[0] == prompts * m


def test_winomt_bootstrap_and_wald_agree_on_german_delta_g(data_dir):
    pilot = smb.winomt(["google", "aws"], languages=["de"], data_dir=data_dir, adjectives=False, n_boot=200, rng=0)
    kw = dict(pilot=pilot, language="de", metric="delta_g", n=3888, difference=0.02, n_sim=1000)
    boot = smb.power(test="bootstrap", n_boot=400, rng=10, **kw)
    wald = smb.power(test="wald", rng=11, **kw)
    assert abs(boot.power - wald.power) < 4 * np.sqrt(2 * 0.25 / 1000)
    assert boot.table["size"].iloc[0] <= 0.05 + 4 * np.sqrt(0.05 * 0.95 / 1000)
    # Acc is compared with McNemar's exact test: the plan uses its exact power with the pilot's discordance.
    acc = smb.power(pilot=pilot, language="de", metric="acc", difference=0.02)
    assert acc.table["method"].iloc[0].startswith("exact power")
    assert 0 < acc.table["discordance"].iloc[0] < 1


def test_pilot_errors_name_what_is_there(data_dir):
    pilot = smb.winomt(["google", "aws"], languages=["de", "fr"], data_dir=data_dir, adjectives=False, n_boot=100, rng=0)
    with pytest.raises(smb.UsageError, match="de, fr"):
        smb.power(pilot=pilot, difference=0.02)
    with pytest.raises(smb.UsageError, match="metric"):
        smb.power(pilot=pilot, language="de", metric="bleu", difference=0.02)


def test_tgbi_pilot_plans_the_index_and_flags_an_anti_conservative_set(data_dir):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", smb.DataQualityWarning)  # Papago's shipped repeated block
        pilot = smb.tgbi(["google", "papago"], data_dir=data_dir, n_boot=200, rng=0)
    index = smb.power(pilot=pilot, subset="TGBI", n=1059, test="wald", rng=0)
    assert index.notes == [] and 0.01 < index.difference < 0.06
    assert index.table["n_outputs"].iloc[0] > 10 * 1059  # a lexicon item holds many sentences
    # Formal-set P_S is near zero for both systems: the simulated size shows the test rejects too often there.
    formal = smb.power(pilot=pilot, subset="formal", n=1059, test="wald", rng=0)
    assert formal.table["size"].iloc[0] > 0.1 and "anti-conservative" in formal.notes[0]
    # The bootstrap test in each simulated evaluation (many distinct lexicon items: resampled by index draws).
    boot = smb.power(pilot=pilot, subset="TGBI", n=300, n_sim=200, n_boot=200, rng=1)
    assert boot.table["size"].iloc[0] <= 0.05 + 4 * np.sqrt(0.05 * 0.95 / 200)


def test_prates_and_optimal_pilots(data_dir):
    prates = smb.prates(languages=["Turkish"], data_dir=data_dir, rng=0)
    tests = prates.details.tests
    row = tests[(tests["comparison"] == "male>female") & (tests["category"] == "all")].iloc[0]
    psi = (row["n_positive"] + row["n_negative"]) / row["n_items"]
    res = smb.power(pilot=prates, metric="male>female", n=200)
    assert res.table["alternative"].iloc[0] == "greater"
    assert float(closed.paired_power_exact(200, res.difference, psi, alternative="greater")) == pytest.approx(0.8, abs=1e-6)
    share = smb.power(pilot=prates, metric="p_female", half_width=0.02)
    assert share.n == int(closed.rate_sample_size(0.02, share.table["rate"].iloc[0]))
    optimal = smb.optimal(data_dir=data_dir, n_boot=500, rng=0)
    row = optimal.table[(optimal.table["language"] == "Armenian") & (optimal.table["metric"] == "b")].iloc[0]
    plan = smb.power(pilot=optimal, language="Armenian", subset=row["subset"], n=int(row["n"]))
    se = (row["ci_high"] - row["ci_low"]) / (2 * 1.959964)
    assert plan.difference == pytest.approx(2.8016 * se, rel=1e-3)

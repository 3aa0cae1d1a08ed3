"""Power by simulation from pilot data: against the closed forms, its own size, the bootstrap and reproducibility."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import stats_mtbias as smb
from stats_mtbias.errors import UsageError
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
    tests = prates.frames["tests"]
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


# -----------------------------------------------------------------------------
# Simulated power from a pilot: inner bootstrap, interval half-width and MDE on designs whose answer is known.


def _mean_statistic(totals):
    # Totals (r, 2, 2) of [sum of values, clusters] per system → the mean value per system, shape (r, 2, 1).
    return totals[..., :1] / totals[..., 1:]


def _design(a, b=None, strata=None, single=False):
    """Clusters with value a_i (system a) and b_i (system b); the metric is the mean value per cluster."""
    a = np.asarray(a, float)
    b = a.copy() if b is None else np.asarray(b, float)
    ones = np.ones_like(a)
    counts = np.stack([np.stack([a, ones], axis=1), np.stack([b, ones], axis=1)], axis=1)  # (n, 2, 2)
    strata = np.zeros(len(a), int) if strata is None else np.asarray(strata)
    return sim.PairedDesign(counts, _mean_statistic, (0,), strata, single=single)


def _wald(estimates, se, alternative="two-sided", alpha=0.05):
    """A Wald Simulation whose pilot difference is 0, so the power at δ tests estimates + δ."""
    design = _design([0.0, 1.0])  # a == b: observed difference 0
    est = np.asarray(estimates, float)
    return sim.Simulation(
        design, 10, est, np.broadcast_to(np.asarray(se, float), est.shape).copy(), None, "wald", alpha, alternative
    )


@pytest.mark.parametrize("k", [5, 70])  # 5: multinomial resampling; 70 (> 64 patterns): index draws
def test_inner_bootstrap_of_one_pattern_evaluations_is_their_value(k):
    """Evaluations whose clusters are copies of one pattern per stratum give that (stratified) mean in every replicate."""
    values = np.r_[np.arange(k), 100 + np.arange(k)]
    design = _design(values, strata=np.repeat([0, 1], k), single=True)
    patterns = sim._patterns(design)
    assert [p.rows.shape[0] for p in patterns] == [k, k]
    picks = [(0, 4), (3, 1), (k - 1, k - 1)]  # pattern of stratum 0 and of stratum 1 in each evaluation
    m0, m1 = np.zeros((3, k), int), np.zeros((3, k), int)
    for j, (u, v) in enumerate(picks):
        m0[j, u], m1[j, v] = 3, 2
    out = sim._inner_bootstrap(design, [m0, m1], patterns, 40, np.random.default_rng(0))
    assert out.shape == (40, 3)
    for j, (u, v) in enumerate(picks):
        assert np.allclose(out[:, j], (3 * u + 2 * (100 + v)) / 5, rtol=0, atol=1e-12)
    # One evaluation alone (a block of one column).
    one = sim._inner_bootstrap(design, [m0[1:2], m1[1:2]], patterns, 30, np.random.default_rng(1))
    assert np.allclose(one, (3 * 3 + 2 * 101) / 5, rtol=0, atol=1e-12)


@pytest.mark.parametrize("k", [5, 70])
def test_inner_bootstrap_resamples_each_evaluations_own_clusters_with_replacement(k):
    """Two clusters (values u, v) resampled twice: u, (u+v)/2, v with probabilities 1/4, 1/2, 1/4, per evaluation."""
    design = _design(np.arange(k) * 1.0, single=True)
    patterns = sim._patterns(design)
    m = np.zeros((2, k), int)
    m[0, [0, 1]] = 1  # values 0 and 1
    m[1, [2, 4]] = 1  # values 2 and 4
    b = 2000
    out = sim._inner_bootstrap(design, [m], patterns, b, np.random.default_rng(2))
    tol = 4.5 * np.sqrt(0.25 * 0.75 / b)
    for j, (u, v) in enumerate([(0, 1), (2, 4)]):
        col = out[:, j]
        assert set(np.round(col, 9)) == {u, (u + v) / 2, v}
        assert np.mean(col == u) == pytest.approx(0.25, abs=tol)
        assert np.mean(col == v) == pytest.approx(0.25, abs=tol)


@pytest.mark.parametrize("k", [5, 70])
def test_inner_bootstrap_mean_and_variance_are_those_of_resampling_the_evaluation(k):
    """Replicates of an evaluation of n distinct clusters: mean = its mean, variance = population variance / n."""
    design = _design(np.arange(k) ** 1.5, single=True)
    patterns = sim._patterns(design)
    vals = patterns[0].rows[:, 0]
    m = np.zeros((1, k), int)
    m[0] = 1 if k > 5 else [3, 1, 4, 1, 5]  # n = 70 distinct clusters, or 14 clusters with repeats
    n = m.sum()
    mean = (m[0] * vals).sum() / n
    var = (m[0] * (vals - mean) ** 2).sum() / n / n
    b = 4000
    out = sim._inner_bootstrap(design, [m], patterns, b, np.random.default_rng(3))[:, 0]
    assert out.mean() == pytest.approx(mean, abs=4.5 * np.sqrt(var / b))
    assert out.var() == pytest.approx(var, rel=0.12)


@pytest.mark.filterwarnings("ignore:All-NaN slice:RuntimeWarning")
def test_bootstrap_half_width_is_the_mean_percentile_half_width():
    """Replicates 0..100 (and twice that): linear quantiles are 100q, so the half-width at level L is 50·L per column."""
    col = np.arange(101.0)
    reps = np.stack([col, 2 * col, np.full(101, np.nan)], axis=1)  # an all-NaN evaluation is left out of the mean
    s = sim.Simulation(_design([0.0, 1.0]), 10, np.zeros(3), None, reps, "bootstrap", 0.05, "two-sided")
    assert s.half_width() == pytest.approx((47.5 + 95.0) / 2, rel=1e-12)
    assert s.half_width(0.9) == pytest.approx((45.0 + 90.0) / 2, rel=1e-12)
    assert s.half_width(0.5) == pytest.approx((25.0 + 50.0) / 2, rel=1e-12)


def test_wald_half_width_is_z_times_the_mean_se():
    """Wald: the mean of z_{(1+L)/2} · se."""
    s = _wald(np.zeros(4), [0.1, 0.2, 0.3, np.nan])
    assert s.half_width() == pytest.approx(stats.norm.ppf(0.975) * 0.2, rel=1e-12)
    assert s.half_width(0.8) == pytest.approx(stats.norm.ppf(0.9) * 0.2, rel=1e-12)


def test_mde_of_evaluations_without_spread_is_nan():
    """se = 0 in every evaluation (clusters all alike) is no evidence: no δ is detected, the MDE is NaN (it was the
    grid's first step, 8·1e-6/320, when se = 0 counted as certainty)."""
    s = _wald(np.zeros(20), 0.0)
    assert np.isnan(s.mde()) and np.isnan(s.mde(0.5))
    assert s.power([1e-6, 1.0, -5.0]).tolist() == [0.0, 0.0, 0.0]


def test_one_sided_mde_reads_the_power_in_the_tested_direction():
    """One-sided Wald test, estimates uniform on [−1, 1], se 1: power(δ) = (1 − (z_{0.95} − δ))/2, so MDE = z + 2p − 1.

    (Before the fix, the one-sided MDE took the smaller power of both directions, which a one-sided test never
    reaches the other way: the answer was always NaN.)
    """
    e = np.linspace(-1, 1, 4001)
    z = stats.norm.ppf(0.95)
    for target in (0.55, 0.7, 0.8, 0.93):
        want = z + 2 * target - 1
        assert _wald(e, 1.0, "greater").mde(target) == pytest.approx(want, abs=2e-3)
        assert _wald(-e, 1.0, "less").mde(target) == pytest.approx(want, abs=2e-3)


def _two_sided_power(e, deltas, z):
    # Share of the evaluations with |estimate + δ| / se > z (se = 1), for each δ: e > z − δ or e < −z − δ.
    srt, d = np.sort(e), np.asarray(deltas)
    above = len(srt) - np.searchsorted(srt, z - d, side="right")
    below = np.searchsorted(srt, -z - d, side="left")
    return (above + below) / len(srt)


def test_two_sided_mde_is_the_smaller_power_of_the_two_directions():
    """Skewed estimates: the MDE is where the weaker direction reaches the power (enumerated on a fine δ grid)."""
    e = np.r_[np.linspace(0, 1.5, 3000), np.linspace(-0.3, 0, 1001)]
    z = stats.norm.ppf(0.975)
    deltas = np.arange(0, 6, 1e-3)
    for target in (0.6, 0.8):
        both = np.minimum(_two_sided_power(e, deltas, z), _two_sided_power(e, -deltas, z))
        i = int(np.argmax(both >= target))
        want = deltas[i]
        assert _wald(e, 1.0).mde(target) == pytest.approx(want, abs=5e-3)
    # The weaker direction is the negative one here: its MDE is larger than the positive direction's alone.
    plus = _two_sided_power(e, deltas, z)
    assert deltas[int(np.argmax(plus >= 0.8))] < _wald(e, 1.0).mde(0.8) - 0.3


def test_mde_with_few_evaluations_is_where_the_power_first_reaches_the_target():
    """Ten evaluations: the power steps by 0.1; the MDE lies within one grid step above the δ where it first reaches it."""
    e = np.array([-0.9, -0.5, -0.45, -0.4, -0.3, 0.0, 0.2, 0.3, 0.35, 0.4])
    s = _wald(e, 1.0, "greater")
    z = stats.norm.ppf(0.95)
    step = 8 * np.std(e) / 320
    for target, k in [(0.8, 8), (0.75, 8), (0.7, 7), (0.5, 5)]:
        # power(δ) = #{e_j > z − δ} / 10 reaches k/10 when δ passes z − (k-th largest e).
        first = z - np.sort(e)[::-1][k - 1]
        got = s.mde(target)
        assert first - step <= got <= first + step


def test_mde_is_nan_when_the_power_is_never_reached():
    """A test that never rejects (NaN estimates) has no MDE."""
    s = _wald(np.r_[np.full(10, np.nan), 0.0], 1.0)
    assert np.isnan(s.mde())


def test_mde_refuses_a_power_outside_0_1():
    """power must lie in (0, 1)."""
    with pytest.raises(UsageError):
        _wald(np.zeros(10), 1.0).mde(1.0)


def _paired_binary(n=200, p10=0.2, p01=0.05, p11=0.3):
    """n items of two systems judged right (1) / wrong (0), with exactly these paired shares."""
    k10, k01, k11 = round(n * p10), round(n * p01), round(n * p11)
    a = np.r_[np.ones(k10), np.zeros(k01), np.ones(k11), np.zeros(n - k10 - k01 - k11)]
    b = np.r_[np.zeros(k10), np.ones(k01), np.ones(k11), np.zeros(n - k10 - k01 - k11)]
    return _design(a, b)


def test_sample_size_passes_its_options_to_every_batch():
    """n_sim, alpha and alternative reach the batches (the returned simulation carries them)."""
    design = _paired_binary()
    n, final, trace = sim.sample_size(design, 0.15, n_sim=20, rng=0, test="wald", alpha=0.1, alternative="greater")
    assert (final.n_sim, final.alpha, final.alternative, final.test, final.n) == (20, 0.1, "greater", "wald", n)
    assert len(trace) >= 5 and dict(trace)[n] == float(np.mean(final.reject(0.15)))  # the answer's batch in the trace


def test_sample_size_first_guess_scales_the_pilot_spread_by_one_over_root_n():
    """The first four sizes are 0.6, 0.85, 1.15, 1.5 × n_pilot ((z_{1−α} + z_β) · spread / δ)², spread from a Wald batch."""
    design = _paired_binary()
    for alternative, alpha, power in [("greater", 0.05, 0.8), ("two-sided", 0.1, 0.9)]:
        # The first batch is a Wald simulation at the pilot's size drawn first from the generator.
        first = sim.simulate(
            design, design.n_pilot, n_sim=50, rng=np.random.default_rng(3), test="wald", alpha=alpha, alternative=alternative
        )
        spread = np.std(first.estimates)
        za = stats.norm.ppf(1 - alpha) if alternative == "greater" else stats.norm.ppf(1 - alpha / 2)
        guess = design.n_pilot * ((za + stats.norm.ppf(power)) * spread / 0.1) ** 2
        _, _, trace = sim.sample_size(
            design, 0.1, power=power, n_sim=50, rng=np.random.default_rng(3), test="wald", alpha=alpha, alternative=alternative
        )
        assert [s for s, _ in trace[:4]] == sorted({max(2, round(guess * f)) for f in (0.6, 0.85, 1.15, 1.5)})


def _fit_and_check(trace, power, n_sim):
    """The size the probit line through the batches before the check solves for, and the check's index: the four
    sizes around the guess and any halved below them (when all four had the power)."""
    k = 4
    while k < len(trace) and trace[k][0] < min(s for s, _ in trace[:4]):
        k += 1
    sizes, powers = np.array(trace[:k]).T
    ps = np.clip(powers, 0.5 / n_sim, 1 - 0.5 / n_sim)
    slope, intercept = np.polyfit(np.sqrt(sizes), stats.norm.ppf(ps), 1)
    return max(2, int(np.ceil(((stats.norm.ppf(power) - intercept) / slope) ** 2))), k


def test_sample_size_solves_the_probit_line_through_the_batches():
    """n solves Φ⁻¹(power) = a + b√n fitted to the batches, powers 0 and 1 counted as half an evaluation from the end."""
    design = _paired_binary()
    seen = set()
    for seed, power in [(0, 0.2), (5, 0.2), (0, 0.3), (1, 0.8), (2, 0.9), (5, 0.95)]:  # seeds where the fit rises
        n_sim = 10
        n, _, trace = sim.sample_size(design, 0.1, power=power, n_sim=n_sim, rng=seed, test="wald")
        seen.update(p for _, p in trace[:4])
        fitted, k = _fit_and_check(trace, power, n_sim)
        # The fitted n is checked by the next batch; the answer is it, or (its check short) a larger size that passed.
        assert trace[k][0] == fitted and (n == fitted) == (trace[k][1] >= power) and n >= fitted
        assert dict(trace)[n] >= power
    assert {0.0, 1.0} <= seen  # the clipping was exercised at both ends


def test_sample_size_refuses_no_difference_and_no_variance():
    """difference 0, or a pilot without sampling variance (every cluster alike), is refused."""
    with pytest.raises(UsageError, match="non-zero"):
        sim.sample_size(_paired_binary(), 0.0, n_sim=10, rng=0, test="wald")
    with pytest.raises(UsageError, match="no sampling variance"):
        sim.sample_size(_design(np.ones(30), np.zeros(30)), 0.1, n_sim=10, rng=0, test="wald")


def test_sample_size_wald_first_batch_and_n_boot_reach_the_bootstrap_batches():
    """A small alpha needs n_boot >= 2/alpha only for the bootstrap: the Wald plan never asks for it, and the
    bootstrap plan uses the n_boot given, not the default 500."""
    design = _paired_binary()
    _, final, _ = sim.sample_size(design, 0.15, n_sim=10, rng=1, test="wald", n_boot=50, alpha=0.001)
    assert final.test == "wald" and final.replicates is None
    _, final, _ = sim.sample_size(design, 0.15, n_sim=10, rng=1, test="bootstrap", n_boot=700, alpha=0.003)
    assert final.replicates.shape == (700, 10)


def test_sample_size_defaults():
    """Defaults: the bootstrap test, 80% power, two-sided 5% (evaluations and resamples given, to stay fast)."""
    design = _paired_binary(60)
    n, final, trace = sim.sample_size(design, 0.3, rng=0, n_sim=10, n_boot=40)
    assert (final.test, final.n_sim, final.alpha, final.alternative) == ("bootstrap", 10, 0.05, "two-sided")
    assert final.replicates.shape == (40, 10)
    fitted, k = _fit_and_check(trace, 0.8, 10)
    assert k == 5 and trace[4][1] < 0.8  # this seed: all four sizes had the power, so 11 (22 halved) was tried
    assert trace[k][0] == fitted and n >= fitted and dict(trace)[n] >= 0.8


def test_inner_bootstrap_of_a_wide_count_array_with_few_patterns():
    """80 statistics per cluster but 3 patterns (multinomial resampling): one-pattern evaluations give their value."""
    rows = np.zeros((3, 2, 40))
    rows[:, :, 0] = [[1, 1], [2, 2], [7, 7]]  # the value
    rows[:, :, 1] = 1  # the cluster count
    counts = np.repeat(rows, [4, 5, 6], axis=0)
    design = sim.PairedDesign(counts, lambda t: t[..., :1] / t[..., 1:2], (0,), np.zeros(15, int), single=True)
    patterns = sim._patterns(design)
    m = np.diag([3, 3, 3])  # evaluation j: three copies of pattern j
    out = sim._inner_bootstrap(design, [m], patterns, 20, np.random.default_rng(4))
    assert np.allclose(out, [[1, 2, 7]] * 20, rtol=0, atol=1e-12)


@pytest.mark.parametrize("k", [5, 70])
def test_inner_bootstrap_in_small_blocks_gives_every_evaluation_its_value(k, monkeypatch):
    """With blocks of one or two evaluations (a tiny cell budget) each evaluation still gets its own replicates."""
    design = _design(np.arange(k) * 1.0, single=True)
    patterns = sim._patterns(design)
    m = np.zeros((5, k), int)
    for j, u in enumerate([0, 3, 1, 4, 2]):
        m[j, u] = 2
    for cells in (1, 12, 2 * 30 * max(k, 2)):  # blocks of one or two evaluations (the last block has one)
        monkeypatch.setattr(sim, "_CHUNK_CELLS", cells)
        out = sim._inner_bootstrap(design, [m], patterns, 30, np.random.default_rng(5))
        assert np.allclose(out, [[0, 3, 1, 4, 2]] * 30, rtol=0, atol=1e-12)


def test_mde_interpolates_when_the_second_grid_point_reaches_the_power():
    """Power 0 at the first grid point and 0.7 at the second: the MDE for 0.2 is interpolated between them."""
    e = np.r_[np.ones(7), np.zeros(3)]
    step = 8 * np.std(e) / 320
    crossing = 1.2 * step  # the power jumps from 0 to 0.7 when δ passes z·se − 1
    s = _wald(e, (1 + crossing) / stats.norm.ppf(0.95), "greater")
    got = s.mde(0.2)
    assert step < got < 2 * step
    assert got == pytest.approx(crossing, abs=0.5 * step)


def _boot_sim(reps, alternative, alpha, estimates=None):
    reps = np.asarray(reps, float)
    est = np.zeros(reps.shape[1]) if estimates is None else np.asarray(estimates, float)
    return sim.Simulation(_design([0.0, 1.0]), 10, est, None, reps, "bootstrap", alpha, alternative)


def _boot_p(col, alternative):
    # Bootstrap p-value (Davison & Hinkley 1997, eq. 4.11): (1 + #{replicates on the far side of 0}) / (B + 1),
    # ties counted on both sides, NaN replicates left out; two-sided: twice the smaller tail, at most 1.
    col = col[~np.isnan(col)]
    below = (1 + sum(1 for x in col if x <= 0)) / (len(col) + 1)
    above = (1 + sum(1 for x in col if x >= 0)) / (len(col) + 1)
    return {"two-sided": min(1.0, 2 * min(below, above)), "greater": below, "less": above}[alternative]


def test_bootstrap_reject_is_the_p_value_at_most_alpha():
    """The bootstrap test rejects when (1 + #far side)/(B + 1) (two-sided: doubled) <= alpha; ties, NaN, exact alpha."""
    pos = np.arange(1.0, 40.0)  # 39 positive replicates
    cols = [
        pos,
        -pos,
        np.r_[0.0, pos[1:]],
        np.r_[-1.0, pos[1:]],
        np.r_[np.nan, np.nan, pos[2:]],
        np.r_[pos[:20], -pos[:19]],
        np.r_[np.zeros(3), pos[3:]],
    ]
    reps = np.stack(cols, axis=1)
    for alternative in ("two-sided", "greater", "less"):
        ps = np.array([_boot_p(reps[:, j], alternative) for j in range(reps.shape[1])])
        for alpha in sorted({*ps, *(ps * 0.999), *(ps * 1.001), 0.05, 0.049, 0.3}):
            if not 0 < alpha < 1:
                continue
            got = _boot_sim(reps, alternative, alpha).reject(0.0)
            assert got.tolist() == (ps <= alpha).tolist(), (alternative, alpha)
    # Exactly at alpha: 2 · 1/40 = 0.05 rejects two-sided.
    assert _boot_sim(pos[:, None], "two-sided", 0.05).reject(0.0).tolist() == [True]
    # A NaN estimate never rejects; the shift moves the replicates with the difference.
    assert _boot_sim(pos[:, None], "greater", 0.05, [np.nan]).reject(0.0).tolist() == [False]
    assert _boot_sim(pos[:, None], "greater", 0.05).reject(-39.5).tolist() == [False]
    assert _boot_sim(-pos[:, None], "greater", 0.05).reject(39.5).tolist() == [True]


def test_wald_reject_compares_the_t_statistic_with_the_normal_critical_value():
    """|t| > z_{1−α/2} (two-sided), t > z_{1−α} ("greater"), −t > z_{1−α} ("less"); se 0 (no spread: no evidence)
    or NaN never rejects."""
    z2, z1 = stats.norm.ppf(0.975), stats.norm.ppf(0.95)
    est = np.array([2.0, -2.0, 1.8, -1.8, z2, -z2, 1.0, 0.0, 0.5, -0.5, 0.3, np.nan])
    se = np.array([1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, np.nan, 1.0])
    want = {
        "two-sided": [True, True, False, False, False, False, False, False, False, False, False, False],
        "greater": [True, False, True, False, True, False, False, False, False, False, False, False],
        "less": [False, True, False, True, False, True, False, False, False, False, False, False],
    }
    assert 1.8 > z1 and 1.8 < z2
    for alternative, expected in want.items():
        assert _wald(est, se, alternative).reject(0.0).tolist() == expected, alternative
    # A large alpha (z < 1): a NaN standard error still never rejects.
    assert _wald([1.5, 0.0], [np.nan, 1.0], "two-sided", alpha=0.5).reject(0.0).tolist() == [False, False]
    assert _wald([1.5], [1.0], "two-sided", alpha=0.5).reject(0.0).tolist() == [True]
    assert _wald([0.0, 3.0], [0.0, 0.0], "two-sided", alpha=0.5).reject(0.0).tolist() == [False, False]  # no spread
    # Exactly at the one-sided critical value: not beyond it, no rejection.
    assert _wald([z1, -z1], [1.0, 1.0], "greater").reject(0.0).tolist() == [False, False]
    assert _wald([z1, -z1], [1.0, 1.0], "less").reject(0.0).tolist() == [False, False]


def test_wald_se_is_the_stratified_standard_error_of_the_mean():
    """Mean of n values: se = √(Σ_h Σ_i (v_i − v̄_h)²) / n (within-stratum deviations; a one-cluster stratum adds 0)."""
    values = np.r_[np.arange(6.0), 10 + np.arange(4.0), 50.0]
    strata = np.r_[np.zeros(6, int), np.ones(4, int), 2]
    design = _design(values, strata=strata, single=True)
    patterns = sim._patterns(design)
    m = [np.array([[2, 1, 0, 1, 1, 1], [1, 1, 1, 1, 1, 1]]), np.array([[0, 2, 1, 0], [1, 1, 1, 0]]), np.array([[1], [1]])]
    totals = sim._totals(m, patterns)
    got = sim.wald_se(design, m, patterns, totals)
    for j in range(2):
        dev = 0.0
        for mh, p in zip(m, patterns):
            v = np.repeat(p.rows[:, 0], mh[j])
            dev += ((v - v.mean()) ** 2).sum()
        n = sum(int(mh[j].sum()) for mh in m)
        assert got[j] == pytest.approx(np.sqrt(dev) / n, rel=1e-6)


def test_wald_se_keeps_its_accuracy_for_large_totals():
    """Values of order 1e7: the numerical gradient still gives se = √(Σ (v − v̄)²) / n (relative step, not absolute)."""
    values = 1e7 * (1 + np.arange(6.0))
    design = _design(values, single=True)
    patterns = sim._patterns(design)
    m = [np.array([[1, 1, 1, 1, 1, 1], [2, 0, 1, 0, 0, 3]])]
    got = sim.wald_se(design, m, patterns, sim._totals(m, patterns))
    for j in range(2):
        v = np.repeat(patterns[0].rows[:, 0], m[0][j])
        assert got[j] == pytest.approx(np.sqrt(((v - v.mean()) ** 2).sum()) / len(v), rel=1e-6)


def test_simulate_defaults_and_the_minimum_number_of_evaluations():
    """Defaults: the bootstrap test with 500 resamples, 1000 evaluations, two-sided 5%; fewer than 10 evaluations refused."""
    design = _paired_binary(20)
    s = sim.simulate(design, 20, rng=0)
    assert (s.test, s.n_sim, s.alpha, s.alternative) == ("bootstrap", 1000, 0.05, "two-sided")
    assert s.replicates.shape == (500, 1000)
    assert sim.simulate(design, 20, n_sim=10, rng=0, test="wald").n_sim == 10
    with pytest.raises(UsageError):
        sim.simulate(design, 20, n_sim=9, rng=0, test="wald")


# ---------------------------------------------------------------- sample_size's search, on scripted power curves


class _Scripted:
    """A batch whose power is ``curve(n)``; the pilot's Wald batch has estimates ±1 (spread 1)."""

    def __init__(self, n, power, difference):
        self.n, self._power, self._difference, self.estimates = n, power, difference, np.array([-1.0, 1.0])

    def power(self, difference):
        assert difference == self._difference  # the power is read at the difference planned for
        return np.array([self._power])


def _search(monkeypatch, curve, difference=0.5, power=0.8):
    """sample_size on a 40-cluster, one-stratum design whose batches have the scripted power: (n, sizes asked)."""
    asked = []

    def fake(design, n, *, test, n_boot=500, n_sim, rng, alpha, alternative):
        asked.append(n)
        return _Scripted(n, curve(n), difference)

    monkeypatch.setattr(sim, "simulate", fake)
    n, final, trace = sim.sample_size(_paired_binary(40), difference, power=power, n_sim=1000, rng=0, test="wald")
    # The pilot batch, then one trace entry per batch, in order; the answer is one of them, its simulation returned.
    assert asked[0] == 40 and [size for size, _ in trace] == asked[1:]
    assert final.n == n and dict(trace)[n] == curve(n)
    return n, asked[1:]


# guess = 40 · ((z_.975 + z_.8) · 1 / 0.5)² = 1,255.8: sizes 753, 1,067, 1,444, 1,884
GUESS = 40 * ((stats.norm.ppf(0.975) + stats.norm.ppf(0.8)) / 0.5) ** 2
FIRST = [round(GUESS * f) for f in (0.6, 0.85, 1.15, 1.5)]


def test_search_answers_the_probit_line_where_its_check_holds(monkeypatch):
    """Φ⁻¹(power) = −3 + 0.1 √n exactly: the fit through the four sizes solves ((z_.8 + 3)/0.1)² = 1,475.7 → 1,476."""
    curve = lambda n: float(stats.norm.cdf(-3 + 0.1 * np.sqrt(n)))  # noqa: E731
    n, asked = _search(monkeypatch, curve)
    assert FIRST == [753, 1067, 1444, 1884] and asked == [*FIRST, 1476]
    assert n == 1476 == int(np.ceil(((stats.norm.ppf(0.8) + 3) / 0.1) ** 2))


def test_search_bisects_between_a_short_check_and_a_larger_size_that_passed(monkeypatch):
    """The probit line's values at the four sizes (1,884 passes), elsewhere exactly 0.8 from 1,500 on and 0.79 below:
    the fit lands on 1,476 (short), so the first passing size is bisected to within 2% (exactly the target passes)."""
    line = lambda n: float(stats.norm.cdf(-3 + 0.1 * np.sqrt(n)))  # noqa: E731
    curve = lambda n: line(n) if n in FIRST else 0.8 if n >= 1500 else 0.79  # noqa: E731
    n, asked = _search(monkeypatch, curve)
    assert asked[:5] == [*FIRST, 1476]
    # Bisection of [1476, 1884] while the gap exceeds 2% of the upper end: 1680 (pass), 1578 (pass), 1527 (pass),
    # 1501 (pass), then 1501 − 1476 = 25 <= int(0.02 · 1501) = 30: stop at 1,501.
    assert asked[5:] == [1680, 1578, 1527, 1501] and n == 1501


def test_search_steps_up_by_a_quarter_when_nothing_larger_passed(monkeypatch):
    """Powers of the four sizes rising below the target, a short check, and no larger size that passed: the search
    steps up by a quarter (n → ⌈1.25 n⌉) until one passes, then bisects back; the answer's batch comes last."""
    rising = dict(zip(FIRST, (0.3, 0.45, 0.6, 0.75), strict=True))
    curve = lambda n: rising.get(n, 0.8 if n >= 3000 else 0.5)  # noqa: E731
    n, asked = _search(monkeypatch, curve)
    probits = stats.norm.ppf([0.3, 0.45, 0.6, 0.75])
    slope, intercept = np.polyfit(np.sqrt(FIRST), probits, 1)
    fitted = int(np.ceil(((stats.norm.ppf(0.8) - intercept) / slope) ** 2))
    steps = [fitted]
    while steps[-1] < 3000:
        steps.append(int(np.ceil(1.25 * steps[-1])))
    assert asked[: 4 + len(steps)] == [*FIRST, *steps]
    assert 3000 <= n <= 3000 + int(0.02 * n) and curve(n) == 0.8
    assert all(curve(size) < 0.8 for size in asked if size < 3000)


def test_search_gives_up_after_eight_steps_up(monkeypatch):
    """Never reaching the target after the fitted n: eight steps up by a quarter, then a UsageError naming both ends."""
    rising = dict(zip(FIRST, (0.3, 0.45, 0.6, 0.75), strict=True))
    asked = []
    with pytest.raises(UsageError, match=r"stays below 0\.8 from n = "):
        _search(monkeypatch, lambda n: asked.append(n) or rising.get(n, 0.5))
    assert len(asked) == 1 + 4 + 1 + 8  # the pilot, the four sizes, the check, eight steps


def test_search_below_the_guess_halves_down_to_two_clusters_per_stratum(monkeypatch):
    """Every size has the power (here exactly the target): the smallest is halved until one falls short; all reaching
    it, the answer is two clusters per stratum."""
    n, asked = _search(monkeypatch, lambda n: 0.8)
    assert n == 2 and asked == [*FIRST, 376, 188, 94, 47, 23, 11, 5, 2]
    n, asked = _search(monkeypatch, lambda n: 0.8 if n >= 40 else 0.1)
    assert asked[:8] == [*FIRST, 376, 188, 94, 47] and asked[8] == 23 and n >= 40


def test_search_from_a_guess_at_the_floor_fits_three_sizes(monkeypatch):
    """A difference far beyond the spread puts every first size at the floor (2): 4 and 8 are added, doubling, so a
    line can be fitted; all having the power, the answer is 2 (its batch the first)."""
    n, asked = _search(monkeypatch, lambda n: 1.0, difference=100.0)
    assert n == 2 and asked == [2, 4, 8]


def test_search_on_a_dozen_clusters_bisects_to_the_cluster(monkeypatch):
    """Small sizes (difference 5: guess 12.6, sizes 8, 11, 14, 19): the bisection runs to a gap of one cluster. Power
    0.8 from 18 on (the four sizes rising, 19 passing): the answer is 18 itself; from 19 on: 19, a first size, after
    short batches at 17 and 18."""
    first = [round(40 * ((stats.norm.ppf(0.975) + stats.norm.ppf(0.8)) / 5) ** 2 * f) for f in (0.6, 0.85, 1.15, 1.5)]
    rising = dict(zip(first, (0.3, 0.5, 0.72, 0.9), strict=True))
    slope, intercept = np.polyfit(np.sqrt(first), stats.norm.ppf([0.3, 0.5, 0.72, 0.9]), 1)
    fitted = int(np.ceil(((stats.norm.ppf(0.8) - intercept) / slope) ** 2))
    assert first == [8, 11, 14, 19] and fitted == 16
    n, asked = _search(monkeypatch, lambda n: rising.get(n, 0.8 if n >= 18 else 0.79), difference=5.0)
    assert asked == [*first, 16, 17, 18] and n == 18  # 19 passed: [16, 19] → 17 (short) → 18 (passes)
    n, asked = _search(monkeypatch, lambda n: rising.get(n, 0.8 if n >= 19 else 0.79), difference=5.0)
    assert asked == [*first, 16, 17, 18] and n == 19


def test_search_takes_a_larger_size_at_exactly_the_target_as_passing(monkeypatch):
    """The largest first size has power exactly 0.8: it bounds the bisection from above (no step up), whose first
    midpoint is halfway from the fitted n."""
    powers = [float(stats.norm.cdf(-3 + 0.1 * np.sqrt(n))) for n in FIRST[:3]] + [0.8]
    slope, intercept = np.polyfit(np.sqrt(FIRST), stats.norm.ppf(powers), 1)
    fitted = int(np.ceil(((stats.norm.ppf(0.8) - intercept) / slope) ** 2))
    assert fitted < 1784
    first = dict(zip(FIRST, powers, strict=True))
    n, asked = _search(monkeypatch, lambda n: first.get(n, 0.8 if n >= fitted + 100 else 0.79))
    assert asked[4:6] == [fitted, (fitted + 1884) // 2]
    assert fitted + 100 <= n <= fitted + 100 + int(0.02 * n)


def test_wald_se_of_clusters_all_alike_is_exactly_zero():
    """Strata of 3 to 9 clusters all alike (value 0.1, not exact in binary): the rounding of s2 − s1²/n (about 1e-19)
    is not spread, so se is exactly 0 and nothing is detected; a stratum with two values has se > 0."""
    values = np.r_[np.full(9, 0.1), np.full(9, 0.7)]
    design = _design(values, np.zeros(18), strata=np.repeat([0, 1], 9), single=True)
    for n in (6, 8, 12, 18):
        s = sim.simulate(design, n, n_sim=50, rng=0, test="wald")
        assert np.all(s.se == 0.0), n
        assert s.power([0.5])[0] == 0.0
    mixed = sim.simulate(_design(np.r_[np.full(8, 0.1), 0.2], np.zeros(9)), 9, n_sim=200, rng=0, test="wald")
    alike = np.isclose(mixed.estimates, 0.1, rtol=0, atol=1e-12)  # no 0.2 cluster drawn: all nine alike
    assert alike.any() and (~alike).any()
    assert np.all(mixed.se[alike] == 0.0) and np.all(mixed.se[~alike] > 1e-3)


def test_bootstrap_power_ignores_evaluations_without_a_defined_statistic(recwarn):
    """All-NaN replicates (the statistic undefined in an evaluation) do not reject and raise no RuntimeWarning."""
    reps = np.array([[np.nan, 1.0], [np.nan, 2.0], [np.nan, 3.0]])
    s = sim.Simulation(_design([0.0, 1.0]), 10, np.array([np.nan, 2.0]), None, reps, "bootstrap", 0.5, "greater")
    assert s.reject(0.0).tolist() == [False, True]
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]


def test_least_size_gives_every_stratum_two_clusters(monkeypatch):
    """Strata of 90 and 10 clusters: largest remainders give the small one 2 clusters first at n = 16 (15: 13.5 and
    1.5, the tie to the earlier stratum); every size having the power, that is the answer."""
    assert sim.allocate(15, [90, 10]).tolist() == [14, 1] and sim.allocate(16, [90, 10]).tolist() == [14, 2]
    asked = []

    def fake(design, n, *, test, n_boot=500, n_sim, rng, alpha, alternative):
        asked.append(n)
        return _Scripted(n, 1.0, 100.0)

    monkeypatch.setattr(sim, "simulate", fake)
    design = _design(np.r_[np.ones(30), np.zeros(70)], np.zeros(100), strata=np.repeat([0, 1], [90, 10]))
    n, _, _ = sim.sample_size(design, 100.0, n_sim=100, rng=0, test="wald")
    assert n == 16 and min(asked[1:]) == 16


def test_least_size_is_the_first_n_that_gives_every_stratum_two(monkeypatch):
    """Strata of 80, 10 and 10: 16 clusters allocate 13, 2, 1 and 17 allocate 13, 2, 2, so the least size is 17
    (odd: found one cluster at a time from 2 per stratum)."""
    assert sim.allocate(16, [80, 10, 10]).tolist() == [13, 2, 1] and sim.allocate(17, [80, 10, 10]).tolist() == [13, 2, 2]
    monkeypatch.setattr(sim, "simulate", lambda design, n, **kw: _Scripted(n, 1.0, 100.0))
    design = _design(np.r_[np.ones(30), np.zeros(70)], np.zeros(100), strata=np.repeat([0, 1, 2], [80, 10, 10]))
    assert sim.sample_size(design, 100.0, n_sim=100, rng=0, test="wald")[0] == 17


# -----------------------------------------------------------------------------
# Allocation of clusters over strata and the simulation's argument checks, by hand and by invariants (mutation kills).


@pytest.mark.parametrize(
    ("n", "sizes", "expected"),
    [
        (10, [50, 30, 20], [5, 3, 2]),  # exact shares
        (10, [14, 33, 53], [2, 3, 5]),  # shares 1.4, 3.3, 5.3: the one left over goes to the largest remainder (0.4)
        (10, [1, 1, 1], [4, 3, 3]),  # equal remainders: the earlier stratum first
        (11, [1, 1, 1], [4, 4, 3]),
        (4, [1, 1, 1], [2, 1, 1]),
        (3, [1, 1, 1], [1, 1, 1]),  # exactly one per stratum is allowed
        (5, [100, 1, 1], [3, 1, 1]),  # the minimum of one per stratum comes out of the large one
        (6, [50, 30, 1, 1, 1], [2, 1, 1, 1, 1]),  # 3 left for shares 50:30 → 1.875, 1.125 → 2, 1
        (9, [50, 30, 1, 1, 1], [4, 2, 1, 1, 1]),  # 6 left for 50:30 → 3.75, 2.25 → 4, 2
    ],
)
def test_allocate_by_hand(n, sizes, expected):
    """Largest remainders with at least one cluster per stratum, worked by hand."""
    assert sim.allocate(n, sizes).tolist() == expected


def test_allocate_ties_go_to_the_earlier_strata_even_with_many_strata():
    """60 clusters over 40 equal strata: 1.5 each, the 20 extra go to the first 20 strata (stable order)."""
    assert sim.allocate(60, [1] * 40).tolist() == [2] * 20 + [1] * 20
    sizes = [3, 3, 3, 1] * 10  # shares 1.8 (×30) and 0.6 (×10): floor 1, the ten extra to the first ten big strata
    big = [i for i, s in enumerate(sizes) if s == 3]
    expected = [1] * 40
    for i in big[:10]:
        expected[i] = 2
    assert sim.allocate(50, sizes).tolist() == expected


def test_allocate_respects_the_quota_when_every_share_is_at_least_one():
    """Hamilton's quota: each stratum gets ⌊share⌋ or ⌈share⌉, and the total is n (random designs)."""
    rng = np.random.default_rng(3)
    for _ in range(200):
        k = int(rng.integers(1, 30))
        sizes = rng.integers(1, 50, size=k).astype(float)
        lo = int(np.ceil(sizes.sum() / sizes.min()))  # every share at least one
        n = int(rng.integers(lo, lo + 500))
        share = sizes / sizes.sum() * n
        alloc = sim.allocate(n, sizes)
        assert alloc.sum() == n
        assert np.all(alloc >= np.floor(share)) and np.all(alloc <= np.ceil(share))
        # largest remainders: no stratum rounded down has a larger remainder than one rounded up
        up = alloc > np.floor(share)
        rem = share - np.floor(share)
        if up.any() and (~up).any():
            assert rem[up].min() >= rem[~up].max()


def test_allocate_with_tiny_strata_keeps_one_each_and_the_total():
    """Strata whose share is below one still get one cluster, and the total is n (random designs)."""
    rng = np.random.default_rng(4)
    for _ in range(200):
        k = int(rng.integers(2, 12))
        sizes = np.concatenate([rng.integers(1, 3, size=k - 1), [int(rng.integers(50, 500))]]).astype(float)
        n = int(rng.integers(k, 3 * k + 5))
        alloc = sim.allocate(n, sizes)
        assert alloc.sum() == n and alloc.min() >= 1
        assert alloc.dtype.kind == "i"
        # the big stratum takes everything beyond one per small stratum, up to its rounded share
        assert alloc[-1] <= max(1, int(np.ceil(sizes[-1] / sizes.sum() * n)))


def test_allocate_refuses_fewer_clusters_than_strata():
    """n below the number of strata cannot give one cluster each."""
    with pytest.raises(UsageError):
        sim.allocate(2, [1, 1, 1])


def _one_stratum_design(a, b=None):
    """Clusters with value a_i (system a) and b_i (system b) in one stratum; the metric is the mean value."""
    a = np.asarray(a, float)
    b = a.copy() if b is None else np.asarray(b, float)
    ones = np.ones_like(a)
    counts = np.stack([np.stack([a, ones], axis=1), np.stack([b, ones], axis=1)], axis=1)  # (n, 2, 2)
    return sim.PairedDesign(counts, _mean_statistic, (0,), np.zeros(len(a), int))


def test_simulate_refuses_fewer_bootstrap_resamples_than_two_over_alpha():
    """The bootstrap test needs n_boot >= ⌈2/α⌉ (40 at α = 0.05, 10 at α = 0.2)."""
    design = _one_stratum_design([1, 0, 0, 1, 0] * 4, [0] * 20)
    with pytest.raises(UsageError):
        sim.simulate(design, 20, n_sim=10, rng=0, n_boot=10)
    with pytest.raises(UsageError):
        sim.simulate(design, 20, n_sim=10, rng=0, n_boot=39)
    assert sim.simulate(design, 20, n_sim=10, rng=0, n_boot=40).replicates.shape == (40, 10)
    assert sim.simulate(design, 20, n_sim=10, rng=0, n_boot=10, alpha=0.2).replicates.shape == (10, 10)


def test_two_sided_mde_takes_the_weaker_direction():
    """Wald, se = 1: half the evaluations at 0 and half at −3 reject for +δ only beyond 3 + z, so the MDE is 3 + 1.96."""
    design = _one_stratum_design([0.0, 1.0])  # a == b: the pilot's difference is 0, so the power at δ tests estimates + δ
    est = np.r_[np.zeros(50), np.full(50, -3.0)]
    simulation = sim.Simulation(design, 10, est, np.ones(100), None, "wald", 0.05, "two-sided")
    # −δ: 0 − δ and −3 − δ both reject once δ > 1.96; +δ: δ − 3 needs δ > 3 + 1.96. The minimum is the +δ side.
    assert simulation.mde(0.8) == pytest.approx(3.0 + 1.959964, abs=0.05)


@pytest.mark.parametrize("difference", [0.1, 0.15, 0.2, 0.3, 0.4])
def test_sample_size_refuses_a_power_that_does_not_grow_with_n(difference):
    """A 'less' test at a positive difference has power 0 at every n: a usage error whatever the round-off slope."""
    # Bug fixed: a flat power curve fits a slope of ±1e-16; a positive one passed the check and gave an OverflowError.
    design = _one_stratum_design([1, 0, 0, 1, 0, 0, 0, 0, 1, 0] * 4, [0] * 40)
    with pytest.raises(UsageError, match="does not grow"):
        sim.sample_size(design, difference, rng=0, n_sim=100, test="wald", alternative="less")


def test_sample_size_defaults_are_1000_evaluations_of_500_resamples():
    """The documented defaults: n_sim = 1000 simulated evaluations, each with the bootstrap test of n_boot = 500."""
    design = _one_stratum_design([1, 0, 0, 1, 0, 0, 0, 0, 1, 0] * 4, [0] * 40)
    n, final, trace = sim.sample_size(design, 0.2, rng=0)
    assert final.n_sim == 1000 and final.test == "bootstrap"
    assert final.replicates.shape == (500, 1000)
    assert final.n == n and n in dict(trace)


@pytest.mark.parametrize("test", ["wald", "bootstrap"])
def test_sample_size_of_a_difference_far_beyond_the_spread_needs_clusters_that_differ(test):
    """A difference far beyond the spread is detected wherever the clusters drawn differ at all; clusters all alike
    (spread 0) are no evidence and do not reject. With values 0/1 in shares .7/.3, P(n clusters not all alike) =
    1 − .3ⁿ − .7ⁿ: 0.42, 0.63, 0.74, 0.83 at n = 2..5, so the answer is 5 (or 6 where the fit lands there)."""
    # Bug fixed: clusters all alike counted as certain, so one cluster "detected" any difference (answer 1), and a
    # difference whose sizes all had power 1 failed with "does not grow".
    design = _one_stratum_design([1, 0, 0, 1, 0, 0, 0, 0, 1, 0] * 4, [0] * 40)
    n, final, trace = sim.sample_size(design, 5.0, rng=0, n_sim=2000, test=test, n_boot=100)
    exact = lambda k: 1 - 0.3**k - 0.7**k  # noqa: E731
    assert n in (5, 6) and final.n == n and n in dict(trace)
    assert float(final.power(5.0)[0]) == pytest.approx(exact(n), abs=3 * np.sqrt(0.2 / 2000))
    for size, power in trace:
        assert power == pytest.approx(exact(size), abs=4 * np.sqrt(0.25 / 2000)), size


def test_sample_size_when_every_guessed_size_has_the_power_looks_below_them():
    """Every size around the guess reaches the power: smaller sizes are tried (halving) until one falls short, and the
    answer lies between; its batch reaches the power and the batch just below (or the halved size) does not."""
    design = _one_stratum_design([1, 0, 0, 1, 0, 0, 0, 0, 1, 0] * 4, [0] * 40)
    n, final, trace = sim.sample_size(design, 0.5, rng=0, n_sim=200, test="wald")
    assert all(p >= 0.8 for _, p in trace[:4])  # this seed's four sizes around the guess (5 to 11) all reach it
    powers = dict(trace)
    assert float(final.power(0.5)[0]) >= 0.8 and final.n == n
    assert any(size < n and p < 0.8 for size, p in powers.items())  # a smaller size tried fell short
    assert min(powers) == 2  # halved down to two clusters per stratum


def test_sample_size_steps_past_a_fitted_n_whose_check_falls_short():
    """The fitted n's batch falls short (a Wald test on a dozen binary clusters is not smooth in n): the answer is
    the first size from there whose batch reaches the power, found between it and a larger size that did."""
    design = _one_stratum_design([1, 0, 0, 1, 0, 0, 0, 0, 1, 0] * 4, [0] * 40)
    n, final, trace = sim.sample_size(design, 0.3, rng=0, n_sim=200, test="wald")
    fitted = trace[4][0]  # after the four sizes around the guess
    assert trace[4][1] < 0.8 and n > fitted
    assert float(final.power(0.3)[0]) >= 0.8
    below = [p for size, p in trace if fitted <= size < n]
    assert below and max(below) < 0.8  # every size tried between the fitted n and the answer fell short

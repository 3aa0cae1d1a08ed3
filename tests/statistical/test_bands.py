"""Coverage with both ends and both tails, sizes with a floor, and truths away from 0 (issue 38).

Every band comes from ``_bands``: ``nominal ± 3`` Monte-Carlo SEs at 2,500
replications (a method off by 2 points passes it with probability ≤ 0.084,
printed by each test, shown with ``pytest -rA`` or ``-s``); each tail's miss rate
is checked apart (nominal 2.5% each). Where the coverage can be computed exactly
(every table enumerated) there is no Monte-Carlo error and the bands are those of
``test_exact_differences``.

The difference metrics are simulated where the truth is *not* 0 — the paired
TGBI difference of one set and of the index, the index itself, WinoMT's ΔG
few-error interval and ΔS — so that an interval built for the mirror-image
difference (a sign error) or one far too wide fails.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import special

from stats_mtbias.estimators.winomt import FEATURES, METRICS, item_features, winomt_metrics
from stats_mtbias.uncertainty.analytic import FEW_EVENTS, p_s_interval, paired_difference_analytic, tgbi_index_interval
from stats_mtbias.uncertainty.bootstrap import ConfidenceInterval

from . import _bands
from ._sim import one_hot_tables, trinomial_pmf, trinomial_tables

REPS = 4000  # coverage ± 3 SE and each tail: a method 2 points off, or a one-sided one, passes with p < 0.10
LEVEL = 0.95


# ----------------------------------------------------------------------------- the bands themselves
def test_the_bands_reject_a_method_two_points_off():
    assert _bands.replications_for(0.95) == 2500  # the smallest multiple of 100 for ±3 SE and ≤ 10%
    cover = _bands.coverage_band(LEVEL, 2500)
    assert cover.low == pytest.approx(0.95 - 3 * np.sqrt(0.95 * 0.05 / 2500))
    # Exact binomial pass probabilities, against a normal approximation of the same.
    se = np.sqrt(0.93 * 0.07 / 2500)
    assert cover.pass_probability(0.93) == pytest.approx(1 - special.ndtr((cover.low - 0.93) / se), abs=0.01)
    assert cover.wrong_pass() <= 0.10 and cover.pass_probability(0.95) > 0.99
    assert _bands.band(0.95, 600).wrong_pass() > 0.25  # the old fast band (600 reps, ±3 SE) let a 0.93 method through
    for tail in _bands.tail_bands(LEVEL, REPS):
        assert (tail.low, tail.high) == pytest.approx((0.005, 0.045))
        assert tail.wrong_pass() <= 0.10 and tail.pass_probability(0.025) > 0.99  # none or twice: fails
    size = _bands.size_band(0.05, REPS)
    assert size.pass_probability(0.0) == 0.0  # a test that never rejects fails
    assert size.wrong_pass() <= 0.10
    with pytest.raises(AssertionError, match="never rejects"):
        _bands.size_band(0.05, 20)
    # The exact method's coverage: Clopper–Pearson at n = 10, p = 0.5 by hand (covers k = 2..8).
    from scipy import stats

    assert _bands.clopper_pearson_coverage(10, 0.5) == pytest.approx(stats.binom.cdf(8, 10, 0.5) - stats.binom.cdf(1, 10, 0.5))


# ----------------------------------------------------------------------------- TGBI: one set, exactly
TGBI_GRID = [
    (0.02, 0.97, 0.01),
    (0.1, 0.89, 0.01),
    (0.3, 0.5, 0.2),
    (0.45, 0.45, 0.1),
    (0.01, 0.01, 0.98),
    (0.2, 0.7, 0.1),
    (0.05, 0.9, 0.05),
    (0.002, 0.993, 0.005),
    (0.1, 0.1, 0.8),
    (0.3, 0.3, 0.4),
]


@pytest.mark.parametrize("n", [100, 150])
def test_tgbi_set_interval_exact_coverage_both_ends(n):
    """P_S's score interval on independent sentences: every table enumerated (no Monte-Carlo error).

    Regular points (more than ten minority outputs expected): mean coverage in 0.95 ± 0.0175 and each tail's
    mean miss in (0.005, 0.045), the bands of ``test_exact_differences``. Discrete points (ten or fewer):
    at least 0.935 and at most the exact (Clopper–Pearson) interval's coverage at that minority count + 0.005,
    so an interval far too wide fails there too.
    """
    f, m, _ = trinomial_tables(n)
    ci = p_s_interval(one_hot_tables(n, f, m))
    rows = []
    for p in TGBI_GRID:
        truth = np.sqrt(p[0] * p[1] + p[2])
        prob = trinomial_pmf(n, p)
        below, above = float(prob @ (truth < ci.low)), float(prob @ (truth > ci.high))
        g = truth**2
        minority = n * min(g, 1 - g)
        rows.append((1 - below - above, below, above, minority))
        if minority <= FEW_EVENTS:
            exact = _bands.clopper_pearson_coverage(n, min(g, 1 - g))
            print(
                f"BAND TGBI set n={n} p={p} (discrete): {1 - below - above:.4f} in [0.935, {exact + 0.005:.4f}] "
                "(exact, no Monte-Carlo error)"
            )
            assert 0.935 <= 1 - below - above <= exact + 0.005, p
    r = np.array(rows)
    regular = r[:, 3] > FEW_EVENTS
    mean, below, above = r[regular, 0].mean(), r[regular, 1].mean(), r[regular, 2].mean()
    print(
        f"BAND TGBI set n={n}: mean coverage {mean:.4f} in 0.95 ± 0.0175; tails {below:.4f} / {above:.4f} in (0.005, 0.045) "
        "(exact: a method 2 points off fails)"
    )
    assert abs(mean - 0.95) < 0.0175
    assert 0.005 < below < 0.045 and 0.005 < above < 0.045
    assert r[:, 0].min() >= 0.92


# ----------------------------------------------------------------------------- TGBI: paired differences and the index
def _pairs(pa, q, copy, n, reps, rng):
    """Two systems on the same n sentences: b copies a's gender with probability `copy`, else draws from q.

    Returns one-hot counts (n, reps, 5) for each and the true P_S of each (from the marginals).
    """
    la = rng.choice(3, size=(n, reps), p=pa)
    lb = np.where(rng.random((n, reps)) < copy, la, rng.choice(3, size=(n, reps), p=q))
    a, b = np.zeros((n, reps, 5)), np.zeros((n, reps, 5))
    np.put_along_axis(a, la[..., None], 1.0, axis=-1)
    np.put_along_axis(b, lb[..., None], 1.0, axis=-1)
    pb = copy * np.asarray(pa) + (1 - copy) * np.asarray(q)
    ps = lambda p: float(np.sqrt(p[0] * p[1] + p[2]))  # noqa: E731
    return a, b, ps(pa), ps(pb)


def test_tgbi_paired_difference_of_a_set_with_a_real_difference():
    """System b says "he" more often (true P_S(a) − P_S(b) = 0.13), its outputs correlated with a's.

    A sign error (the interval of b − a) or the correlation entered without the weights' signs (an interval
    too wide: it covered 0.99) fails the two-sided band; a test that disagrees with its interval fails too.
    """
    a, b, ps_a, ps_b = _pairs((0.3, 0.5, 0.2), (0.0, 1.0, 0.0), 0.5, 300, REPS, np.random.default_rng(21))
    ci, p = paired_difference_analytic(a, b)
    _bands.check_interval(ci.low, ci.high, ps_a - ps_b, LEVEL, "TGBI paired P_S(a) − P_S(b) = 0.13")
    excludes = (ci.low > 0) | (ci.high < 0)
    assert np.array_equal(excludes, p < 1 - LEVEL)


def test_tgbi_paired_test_size_has_a_floor_and_a_ceiling():
    """Exchangeable systems (b copies a half the time, else draws from a's shares): the size is 0.05 ± 3 SE."""
    pa = (0.2, 0.6, 0.2)
    a, b, ps_a, ps_b = _pairs(pa, pa, 0.5, 300, REPS, np.random.default_rng(22))
    assert ps_a == ps_b
    _, p = paired_difference_analytic(a, b)
    _bands.size_band(0.05, REPS).check(float(np.mean(p < 0.05)), "TGBI paired analytic test at the null")


SETS = [(0.3, 0.5, 0.2), (0.1, 0.8, 0.1), (0.2, 0.3, 0.5)]


def test_tgbi_index_interval_both_ends():
    rng = np.random.default_rng(23)
    n = 200
    counts = np.zeros((n, REPS, len(SETS), 5))
    for s, p in enumerate(SETS):
        labels = rng.choice(3, size=(n, REPS), p=p)
        np.put_along_axis(counts[:, :, s], labels[..., None], 1.0, axis=-1)
    truth = np.mean([np.sqrt(p[0] * p[1] + p[2]) for p in SETS])
    ci = tgbi_index_interval(counts)
    _bands.check_interval(ci.low, ci.high, truth, LEVEL, "TGBI index of three sets")


def test_tgbi_paired_index_difference_with_a_real_difference():
    """Two systems on the same three sets, b more male everywhere: the index difference is 0.10, not 0."""
    rng = np.random.default_rng(24)
    n = 200
    a = np.zeros((n, REPS, len(SETS), 5))
    b = np.zeros_like(a)
    truth = 0.0
    for s, p in enumerate(SETS):
        xa, xb, ps_a, ps_b = _pairs(p, (0.05, 0.95, 0.0), 0.6, n, REPS, rng)
        a[:, :, s], b[:, :, s] = xa, xb
        truth += (ps_a - ps_b) / len(SETS)
    assert truth > 0.05
    ci, p = paired_difference_analytic(a, b, index=True)
    _bands.check_interval(ci.low, ci.high, truth, LEVEL, f"TGBI paired index difference {truth:.3f}")
    assert np.array_equal((ci.low > 0) | (ci.high < 0), p < 1 - LEVEL)


# ----------------------------------------------------------------------------- WinoMT: ΔG where few errors are made, ΔS
def _winomt_features(pred: np.ndarray, gold: np.ndarray, stereo: np.ndarray) -> np.ndarray:
    """Item features of (items, reps) readings: (items, reps, FEATURES)."""
    items, reps = pred.shape
    g = np.broadcast_to(gold[:, None], pred.shape).ravel()
    s = np.broadcast_to(stereo[:, None], pred.shape).ravel()
    return item_features(g, pred.ravel(), s).reshape(items, reps, -1)


def _f1_truth(n_gold: dict, miss: dict, swap: dict) -> dict:
    """Population F1 per gender: 2 E[TP] / (E[predicted] + gold); `miss` unknown readings, `swap` read as the other."""
    out = {}
    for g, other in (("male", "female"), ("female", "male")):
        tp = n_gold[g] * (1 - miss[g] - swap[g])
        predicted = tp + n_gold[other] * swap[other]
        out[g] = 2 * tp / (predicted + n_gold[g])
    return out


def test_winomt_delta_g_few_error_interval_with_a_real_difference():
    """A near-perfect system that misreads male entities 6x as often as female ones: ΔG = F1(m) − F1(f) < 0.

    Ten or fewer errors per gender in nearly every data set, so ΔG gets the few-error interval (MOVER of the
    two F1 score intervals). The mirror-image interval (built for F1(female) − F1(male)) never covers here.
    """
    from stats_mtbias.studies.winomt import score_bounds

    rng = np.random.default_rng(31)
    n_gold = {"male": 600, "female": 600}
    miss, swap = {"male": 0.012, "female": 0.002}, {"male": 0.001, "female": 0.0005}
    gold = np.array(["male"] * 600 + ["female"] * 600)
    stereo = np.array(["pro", "anti"] * 600)
    u = rng.random((1200, REPS))
    other = np.where(gold == "male", "female", "male")[:, None]
    m = np.array([miss[g] for g in gold])[:, None]
    s = np.array([swap[g] for g in gold])[:, None]
    pred = np.where(u < m, "unknown", np.where(u < m + s, other, gold[:, None]))
    data = _winomt_features(pred, gold, stereo)
    nan = np.full((REPS, len(METRICS)), np.nan)
    bounds = score_bounds(data, ConfidenceInterval(nan, nan.copy()), LEVEL)
    f1 = _f1_truth(n_gold, miss, swap)
    truth = f1["male"] - f1["female"]
    k = METRICS.index("delta_g")
    few = np.isfinite(bounds.low[:, k])
    assert few.mean() > 0.99  # ten or fewer errors per gender: the regime of the few-error interval
    estimate = winomt_metrics(data.sum(axis=0))[:, k]
    assert truth < -0.004 and np.mean(estimate) == pytest.approx(truth, abs=0.0005)
    low, high = bounds.low[few, k], bounds.high[few, k]
    # A discrete regime (Poisson ends): at least 0.95 − 3 SE, at most the coverage of the exact method on the same
    # data — Clopper–Pearson intervals of each F1 (2 TP of 2 TP + errors), combined by square-and-add — + 3 SE.
    exact = _exact_delta_g_coverage(data[:, few].sum(axis=0), truth)
    cover = float(np.mean((low <= truth) & (truth <= high)))
    reps = int(few.sum())
    label = f"WinoMT ΔG few errors (truth {truth:.4f}, discrete: upper = exact method {exact:.4f} + 3 SE)"
    _bands.discrete_band(LEVEL, reps, exact).check(cover, label)
    below, above = np.mean(truth < low), np.mean(truth > high)
    print(f"WinoMT ΔG few errors: misses below {below:.4f}, above {above:.4f} (each at most 0.045)")
    assert below <= 0.045 and above <= 0.045
    mirror = np.mean((-high <= truth) & (truth <= -low))
    assert mirror < 0.5


def _exact_delta_g_coverage(totals: np.ndarray, truth: float) -> float:
    """Coverage of ΔG by square-and-add of the two F1s' Clopper–Pearson intervals (no package code)."""
    from scipy import stats

    f = {name: totals[:, i] for i, name in enumerate(FEATURES)}
    parts = []
    for g in ("male", "female"):
        tp = f[f"tp_{g}"]
        trials = f[f"pred_{g}"] + f[f"gold_{g}"]
        k = 2 * tp
        low = np.where(k > 0, stats.beta.ppf(0.025, k, trials - k + 1), 0.0)
        high = np.where(k < trials, stats.beta.ppf(0.975, k + 1, trials - k), 1.0)
        parts.append((k / trials, low, high))
    (m, lm, hm), (w, lw, hw) = parts
    low = (m - w) - np.sqrt((m - lm) ** 2 + (hw - w) ** 2)
    high = (m - w) + np.sqrt((hm - m) ** 2 + (w - lw) ** 2)
    return float(np.mean((low <= truth) & (truth <= high)))


def _delta_s_pairs(reps, rng, n=240):
    """Two systems on n WinoMT items (half pro, half anti); a is right 95/75% (pro/anti), b 90/85%, correlated."""
    gold = np.array(["male", "female"] * (n // 2))
    stereo = np.array(["pro"] * (n // 2) + ["anti"] * (n // 2))
    pro = stereo == "pro"
    shared = rng.random((n, reps))
    own_a, own_b = rng.random((n, reps)), rng.random((n, reps))
    ua = np.where(rng.random((n, reps)) < 0.5, shared, own_a)
    ub = np.where(rng.random((n, reps)) < 0.5, shared, own_b)
    acc_a = np.where(pro, 0.95, 0.75)[:, None]
    acc_b = np.where(pro, 0.90, 0.85)[:, None]
    other = np.where(gold == "male", "female", "male")[:, None]
    pred_a = np.where(ua < acc_a, gold[:, None], other)
    pred_b = np.where(ub < acc_b, gold[:, None], other)
    truth = (0.95 - 0.75) - (0.90 - 0.85)
    return _winomt_features(pred_a, gold, stereo), _winomt_features(pred_b, gold, stereo), truth


def _paired_delta_s(reps, seed):
    from stats_mtbias.studies.winomt import paired_comparison

    a, b, truth = _delta_s_pairs(reps, np.random.default_rng(seed))
    k = METRICS.index("delta_s")
    out = np.array(
        [[paired_comparison(a[:, r], b[:, r], LEVEL)[key][k] for key in ("low", "high", "p_value")] for r in range(reps)]
    )
    return out[:, 0], out[:, 1], out[:, 2], truth


def test_winomt_paired_delta_s_with_a_real_difference_fast():
    """Fast sibling of the slow band below: 60 pairs, ΔS(a) − ΔS(b) = 0.15; a sign error covers almost never."""
    low, high, p, truth = _paired_delta_s(60, 41)
    cover = np.mean((low <= truth) & (truth <= high))
    mirror = np.mean((-high <= truth) & (truth <= -low))
    print(f"WinoMT paired ΔS fast sibling: coverage {cover:.3f} of 60 (no band: see the slow test), mirror {mirror:.3f}")
    assert 0.85 <= cover and mirror < 0.2
    assert np.array_equal((low > 0) | (high < 0), p < 1 - LEVEL)


def _paired_delta_s_at_once(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The study's paired ΔS interval for (items, reps, FEATURES) data, every data set at once: the Tango
    intervals of the pro and of the anti accuracies' paired tables, combined by MOVER (uncorrelated)."""
    from stats_mtbias.uncertainty.analytic import mover_interval
    from stats_mtbias.uncertainty.differences import paired_difference_interval

    parts = []
    for hit, of in (("correct_pro", "pro"), ("correct_anti", "anti")):
        on = a[..., FEATURES.index(of)] > 0
        x, y = a[..., FEATURES.index(hit)], b[..., FEATURES.index(hit)]
        table = [np.sum(on * u * v, axis=0) for u, v in ((x, y), (x, 1 - y), (1 - x, y), (1 - x, 1 - y))]
        parts.append(paired_difference_interval(*table, level=LEVEL, method="tango"))
    pro, anti = parts
    stack = lambda *v: np.stack(v, axis=-1)  # noqa: E731
    ds = mover_interval(
        stack(pro.estimate, anti.estimate), stack(pro.low, anti.low), stack(pro.high, anti.high), np.array([1.0, -1.0]), np.eye(2)
    )
    return ds.low, ds.high


@pytest.mark.slow
def test_winomt_paired_delta_s_with_a_real_difference():
    from stats_mtbias.studies.winomt import paired_comparison

    a, b, truth = _delta_s_pairs(REPS, np.random.default_rng(42))
    low, high = _paired_delta_s_at_once(a, b)
    # The study's own function on the first data sets: the same limits (so the band below is the study's).
    k = METRICS.index("delta_s")
    study = np.array([[paired_comparison(a[:, r], b[:, r], LEVEL)[key][k] for key in ("low", "high")] for r in range(100)])
    np.testing.assert_allclose(study, np.column_stack([low[:100], high[:100]]), rtol=0, atol=1e-12)
    _bands.check_interval(low, high, truth, LEVEL, "WinoMT paired ΔS difference 0.15")


# ----------------------------------------------------------------------------- the female-rate interval, exactly
@pytest.mark.parametrize("n", [100, 300, 1018])
def test_female_rate_interval_exact_coverage_over_every_rate(n):
    """The female-rate interval (one output per occupation: modified Wilson) at every rate, by enumeration.

    Its coverage oscillates with p (Brown, Cai & DasGupta 2001): the minimum over p in (0, 0.5] is at least
    0.935 (``_bands.check_method``'s floor; 0.936–0.938 on fine grids), and away from the boundary its mean is the
    nominal: 0.95 ± 0.005 over p in [0.1, 0.5]. A method 2 points off fails both.
    """
    from stats_mtbias.uncertainty.analytic import proportion_interval

    def interval(k, size):
        ci = proportion_interval(k, size)
        return ci.low, ci.high

    rates = np.linspace(0.001, 0.5, 1000)
    cover = np.array([_bands.enumerated_coverage(interval, n, p)[0] for p in rates])
    middle = cover[rates >= 0.1].mean()
    print(
        f"BAND female rate n={n}: min coverage {cover.min():.4f} >= {LEVEL - _bands.METHOD_OFF:.3f} (at p = "
        f"{rates[cover.argmin()]:.3f}); mean over p in [0.1, 0.5] {middle:.4f} in 0.95 ± 0.005 (exact)"
    )
    assert cover.min() >= LEVEL - _bands.METHOD_OFF
    assert abs(middle - LEVEL) <= 0.005

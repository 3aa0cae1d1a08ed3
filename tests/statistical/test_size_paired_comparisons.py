"""Size and coverage of the paired comparisons the studies use that had no simulation of their own (issue 34).

- WinoMT (``paired_comparison``): the item jackknife's t test and interval for
  F1(male), F1(female) and ΔG differences between two systems on the same items;
  the MOVER-of-Tango interval for the ΔS difference and the p-value it implies.
- TGBI (``paired_difference_analytic``): the analytic test of a set's P_S
  difference (MOVER of the score intervals on g, its p-value from
  ``_interval_pvalue``) and of the index's.

Two-sided 5% tests and 95% intervals, near 0, in the middle and near 1, on small
sets (40 items) and at the studies' sizes. Each data set is simulated with a known
truth (the null: two exchangeable systems; or two systems that differ, whose
difference is computed exactly from the generating model).

Monte-Carlo error. A point's estimate from R data sets has standard error
``sqrt(π(1 − π)/R)`` (0.0069 for a coverage of 0.95 at R = 1,000). Each point must
lie within 3 standard errors of its target (a loose check, for gross failures), and
the mean over the points of one method — R × points data sets — within 3 of
its standard errors, a band narrow enough (< 0.02 on each side, checked) that a
method 2 points off (size 0.07, coverage 0.93) fails it. Where a method is
conservative by design (discordant items or minority outputs so few that the
interval is discrete), only its lower side is held (coverage ≥ target − 3 SE;
size ≤ target + 3 SE) and the figures are printed (``-s``).
"""

from __future__ import annotations

import numpy as np
import pytest

from stats_mtbias.estimators.winomt import METRICS, item_features, winomt_metrics
from stats_mtbias.studies.winomt import paired_comparison
from stats_mtbias.uncertainty.analytic import paired_difference_analytic

from . import _cases

ALPHA, LEVEL = 0.05, 0.95


def mc_se(target: float, reps: int) -> float:
    return float(np.sqrt(target * (1 - target) / reps))


def _report(label: str, rows: list[tuple[str, str, float, int]]) -> None:
    print(f"\n{label}")
    for point, kind, value, reps in rows:
        target = LEVEL if kind == "coverage" else ALPHA
        print(f"  {point:<58} {kind:<8} {value:.4f}  (MC SE {mc_se(target, reps):.4f}, R = {reps})")


def _hold(rows: list[tuple[str, str, float, int]], *, conservative: bool = False) -> None:
    """Each point within 3 MC SE of its target, and the mean of the points within 3 of its (smaller) SE."""
    bad = []
    for kind, target in (("coverage", LEVEL), ("size", ALPHA)):
        values = [(point, value, reps) for point, k, value, reps in rows if k == kind]
        if not values:
            continue
        for point, value, reps in values:
            pad = 3 * mc_se(target, reps)
            low_ok = value >= target - pad if kind == "coverage" else True
            high_ok = value <= target + pad if kind == "size" else conservative or value <= target + pad
            if not (low_ok and high_ok):
                bad.append(f"{point}: {kind} {value:.4f} (target {target} ± {pad:.4f})")
        mean = float(np.mean([v for _, v, _ in values]))
        total = sum(r for _, _, r in values)
        pad = 3 * mc_se(target, total)
        assert pad < 0.02, f"the band ±{pad:.4f} could not fail a method 2 points off: more data sets"
        if kind == "coverage" and (mean < target - pad or (not conservative and mean > target + pad)):
            bad.append(f"mean coverage {mean:.4f} outside {target} ± {pad:.4f}")
        if kind == "size" and mean > target + pad:
            bad.append(f"mean size {mean:.4f} above {target} + {pad:.4f}")
    assert not bad, "\n".join(bad)


# Points where a method misses its target, documented (docs/methods-differences.md, "Paired comparisons by
# simulation"): reported, held only to a floor so that a worse regression still fails.
LIMITATIONS = {
    # F1 of 40 items when both systems are right on under a tenth of them (about 3 true positives per gender):
    # the jackknife t's interval covers a true difference ~0.90 (no real WinoMT system is this bad).
    "near 0, differ, 40 items": 0.87,
    # A set of 40 sentences with 1-2 expected outputs off the majority per system: MOVER of the score intervals
    # covers a true difference ~0.89-0.90 (the study warns of such sets: SmallExpectedCountWarning).
    "near 0, differ (.12 vs .22), 40 items x 1": 0.87,
    "near 1, differ (.99 vs .98), 40 items x 1": 0.86,
}


def _limited(rows):
    """Rows of documented limitations apart: each held to its floor, and left out of the band checks."""
    kept = []
    for row in rows:
        floor = LIMITATIONS.get(row[0])
        if floor is not None and row[1] == "coverage":
            assert row[2] >= floor, f"{row[0]}: coverage {row[2]:.4f} below even its documented floor {floor}"
        else:
            kept.append(row)
    return kept


def test_the_bands_reject_a_method_two_points_off():
    """What the bands can detect: at R = 1,000 per point and 6 points, a size of 0.07 or a coverage of 0.93."""
    rows = [(f"point {i}", "size", 0.07, 1000) for i in range(6)]
    with pytest.raises(AssertionError, match="mean size"):
        _hold(rows)
    rows = [(f"point {i}", "coverage", 0.93, 1000) for i in range(6)]
    with pytest.raises(AssertionError, match="mean coverage"):
        _hold(rows)
    _hold([(f"point {i}", "coverage", 0.95, 1000) for i in range(6)] + [(f"p{i}", "size", 0.05, 1000) for i in range(6)])


# ---------------------------------------------------------------- WinoMT: jackknife t (F1, ΔG) and MOVER of Tango (ΔS)

# A system (acc_pro, acc_anti, lean): right with probability acc_pro / acc_anti, + lean for male gold, − lean for
# female; a wrong reading is the other gender (90%) or unknown (``_cases._winomt_items``).
WINOMT_NULLS = {
    "near 0 (Acc .08)": (0.1, 0.05, 0.0),
    "middle (Acc .72, ΔG 10)": (0.85, 0.6, 0.05),
    "near 1 (Acc .97)": (0.98, 0.96, 0.0),
}
WINOMT_PAIRS = {
    "near 0, differ": ((0.1, 0.05, 0.0), (0.16, 0.06, 0.03)),
    "middle, differ": ((0.85, 0.6, 0.05), (0.8, 0.62, 0.1)),
    "near 1, differ": ((0.98, 0.96, 0.0), (0.97, 0.9, 0.02)),
}
PAIRED = ("f1_male", "f1_female", "delta_g", "delta_s")


def winomt_truth(system) -> np.ndarray:
    """The population metrics of a simulated system: ratios of expected item features, exactly."""
    acc_pro, acc_anti, lean = system
    total = np.zeros(len(item_features(np.array(["male"]), np.array(["male"]), np.array(["pro"]))[0]))
    for stereo, acc in (("pro", acc_pro), ("anti", acc_anti)):
        for gold, other, shift in (("male", "female", lean), ("female", "male", -lean)):
            right = acc + shift
            for pred, prob in ((gold, right), (other, 0.9 * (1 - right)), ("unknown", 0.1 * (1 - right))):
                total += prob * item_features(np.array([gold]), np.array([pred]), np.array([stereo]))[0]
    return winomt_metrics(total)


def comparison_many(fa: np.ndarray, fb: np.ndarray, level: float = LEVEL) -> dict[str, np.ndarray]:
    """``paired_comparison`` for many data sets at once (features (items, reps, F)): ΔS, F1 and ΔG rows.

    The same composition as the study's (Tango intervals of pro and anti, their MOVER and its interval p; the
    item jackknife with the study's degrees of freedom), vectorised over data sets; data sets where the jackknife
    has no spread (pseudo-items there) go through the study's own function. Checked equal to it below.
    """
    from scipy import special, stats

    from stats_mtbias.studies.winomt.analysis import FEATURE_INDEX, FEW_DISCORDANT
    from stats_mtbias.uncertainty.analytic import _interval_pvalue, mover_interval
    from stats_mtbias.uncertainty.differences import paired_difference_interval

    n = fa.shape[0]
    diff = winomt_metrics(fa.sum(axis=0)) - winomt_metrics(fb.sum(axis=0))  # (reps, METRICS)
    low, high, p = np.full(diff.shape, np.nan), np.full(diff.shape, np.nan), np.full(diff.shape, np.nan)
    z = float(special.ndtri(0.5 + level / 2))
    parts = []
    for hit, of in (("correct_pro", "pro"), ("correct_anti", "anti")):
        on = fa[..., FEATURE_INDEX[of]] > 0
        x, y = fa[..., FEATURE_INDEX[hit]] * on, fb[..., FEATURE_INDEX[hit]] * on
        table = [np.sum(x * y, 0), np.sum(x * (1 - y), 0), np.sum((1 - x) * y * on, 0), np.sum((1 - x) * (1 - y) * on, 0)]
        parts.append(paired_difference_interval(*table, level=level, method="tango"))
    pro, anti = parts
    ds = mover_interval(
        np.stack([pro.estimate, anti.estimate], -1),
        np.stack([pro.low, anti.low], -1),
        np.stack([pro.high, anti.high], -1),
        np.array([1.0, -1.0]),
        np.eye(2),
    )
    m = METRICS.index("delta_s")
    low[:, m], high[:, m] = ds.low, ds.high
    p[:, m] = _interval_pvalue(diff[:, m], ds, z)
    discordant = np.any(fa != fb, axis=-1).sum(axis=0)  # (reps,)
    left_out = winomt_metrics(fa.sum(axis=0) - fa) - winomt_metrics(fb.sum(axis=0) - fb)  # (items, reps, METRICS)
    se = np.sqrt((n - 1) / n * np.sum((left_out - left_out.mean(axis=0)) ** 2, axis=0))
    dof = np.where(discordant <= FEW_DISCORDANT, np.maximum(discordant, 2) - 1, n - 1)[:, None]
    t = stats.t.ppf(0.5 + level / 2, dof)
    jack = [METRICS.index(k) for k in ("f1_male", "f1_female", "delta_g")]
    bound = np.array([1.0, 1.0, 2.0])  # an F1 difference is in [-1, 1], a ΔG difference in [-2, 2]
    low[:, jack], high[:, jack] = np.maximum((diff - t * se)[:, jack], -bound), np.minimum((diff + t * se)[:, jack], bound)
    with np.errstate(invalid="ignore", divide="ignore"):
        pj = np.where(se > 0, 2 * stats.t.sf(np.abs(diff) / np.where(se > 0, se, 1.0), dof), np.where(diff == 0, 1.0, 0.0))
    p[:, jack] = pj[:, jack]
    for r in np.flatnonzero((se[:, jack] == 0).any(axis=1)):  # no spread: the study's pseudo-items
        res = paired_comparison(fa[:, r], fb[:, r], level)
        low[r], high[r], p[r] = res["low"], res["high"], res["p_value"]
    return {"low": low, "high": high, "p_value": p}


def features(gold, preds, stereo) -> np.ndarray:
    """Item features (items, reps, F) of each data set's predictions (items, reps)."""
    return np.stack([item_features(gold, preds[:, r], stereo) for r in range(preds.shape[1])], axis=1)


def test_the_vectorised_rebuild_is_the_studys_paired_comparison():
    rng = np.random.default_rng(7)
    for systems in [((0.85, 0.6, 0.05),) * 2, ((0.98, 0.96, 0.0), (0.97, 0.9, 0.02)), ((0.1, 0.05, 0.0),) * 2]:
        for n in (40, 496):
            stereo, gold, preds = _cases._winomt_items(n, 15, rng, *systems)
            fa, fb = features(gold, preds[0], stereo), features(gold, preds[1], stereo)
            many = comparison_many(fa, fb)
            cols = [METRICS.index(k) for k in PAIRED]
            for r in range(15):
                one = paired_comparison(fa[:, r], fb[:, r], LEVEL)
                for key in ("low", "high", "p_value"):
                    np.testing.assert_allclose(many[key][r, cols], one[key][cols], rtol=1e-9, atol=1e-12)


def winomt_points(regimes: dict, sizes, reps: int, seed: int) -> dict[str, list]:
    """Per metric: rows (point, kind, value, R) of the study's paired comparison on simulated item pairs."""
    rng = np.random.default_rng(seed)
    cols = [METRICS.index(m) for m in PAIRED]
    out = {m: [] for m in PAIRED}
    disagree = 0
    for regime, systems in regimes.items():
        first, second = (systems, systems) if len(systems) == 3 else systems
        truth = (winomt_truth(first) - winomt_truth(second))[cols]
        null = first == second
        for n in sizes:
            stereo, gold, preds = _cases._winomt_items(n, reps, rng, first, second)
            res = comparison_many(features(gold, preds[0], stereo), features(gold, preds[1], stereo))
            low, high, p = res["low"][:, cols], res["high"][:, cols], res["p_value"][:, cols]
            # One method: the interval excludes 0 exactly when p < 1 − level (but for round-off at the edge).
            excludes = (low > 0) | (high < 0)
            disagree += int(np.sum((excludes != (p < ALPHA)) & ~np.isclose(p, ALPHA, rtol=1e-6)))
            covered, rejected = ((low <= truth) & (truth <= high)).mean(0), (p <= ALPHA).mean(0)
            for j, metric in enumerate(PAIRED):
                point = f"{regime}, {n} items"
                out[metric].append((point, "coverage", float(covered[j]), reps))
                if null:
                    out[metric].append((point, "size", float(rejected[j]), reps))
    assert disagree == 0, f"test and interval disagree in {disagree} comparisons"
    return out


def _winomt(sizes, reps, seed, conservative_below: int):
    points = {m: [] for m in PAIRED}
    for regimes in (WINOMT_NULLS, WINOMT_PAIRS):
        for metric, rows in winomt_points(regimes, sizes, reps, seed).items():
            points[metric] += rows
        seed += 1
    for metric, rows in points.items():
        _report(f"WinoMT paired {metric} ({'MOVER of Tango' if metric == 'delta_s' else 'jackknife t'})", rows)
        # Discordant items few (small sets, or both systems near 1): the t on few df and the Tango bounds are
        # conservative there, by design; the others are held to the two-sided band.
        small = [r for r in rows if int(r[0].rsplit(", ", 1)[1].split()[0]) < conservative_below or "near 1" in r[0]]
        large = [r for r in rows if r not in small]
        _hold(_limited(small), conservative=True)
        if large:
            _hold(large)


def test_winomt_paired_jackknife_t_and_mover_of_tango_fast():
    _winomt(sizes=(40, 496), reps=1000, seed=21, conservative_below=100)


@pytest.mark.slow
def test_winomt_paired_jackknife_t_and_mover_of_tango():
    _winomt(sizes=(40, 100, 1584, 3888), reps=400, seed=31, conservative_below=200)


# ---------------------------------------------------------------- TGBI: the analytic paired test of a set and of the index

# (female, male, neutral) shares of system a and of system b (the same: the null).
TGBI_POINTS = {
    "near 0 (P_S .12)": ((0.01, 0.985, 0.005), (0.01, 0.985, 0.005)),
    "middle (P_S .59)": ((0.3, 0.5, 0.2), (0.3, 0.5, 0.2)),
    "near 1 (P_S .99)": ((0.01, 0.01, 0.98), (0.01, 0.01, 0.98)),
    "near 0, differ (.12 vs .22)": ((0.01, 0.985, 0.005), (0.04, 0.95, 0.01)),
    "middle, differ (.59 vs .51)": ((0.3, 0.5, 0.2), (0.2, 0.65, 0.15)),
    "near 1, differ (.99 vs .98)": ((0.01, 0.01, 0.98), (0.02, 0.02, 0.96)),
}


def tgbi_pairs(p_a, p_b, n_items: int, per: int, sets: int, reps: int, rng, concentration: float = 4.0):
    """Two systems' counts (items, reps, sets, 5) on the same items: item shares Dirichlet(c p), outputs read with one
    uniform per sentence for both systems (their outputs agree more than chance), so the marginal shares are p."""
    counts = []
    u = rng.random((n_items, reps, sets, per))
    for p in (p_a, p_b):
        q = rng.dirichlet(concentration * np.asarray(p) + 1e-9, size=(n_items, reps, sets))
        labels = np.minimum((u[..., None] > np.cumsum(q, axis=-1)[..., None, :]).sum(-1), 2)
        c = np.zeros((n_items, reps, sets, 5))
        for k in range(3):
            c[..., k] = (labels == k).sum(-1)
        counts.append(c)
    return counts


def _p_s(p) -> float:
    p = np.asarray(p, float) / np.sum(p)
    return float(np.sqrt(p[0] * p[1] + p[2]))


def tgbi_points(designs: dict, reps: int, seed: int) -> tuple[list, list]:
    rng = np.random.default_rng(seed)
    sets_rows, index_rows = [], []
    for regime, (p_a, p_b) in TGBI_POINTS.items():
        truth = _p_s(p_a) - _p_s(p_b)
        for design, (n_items, per) in designs.items():
            a, b = tgbi_pairs(p_a, p_b, n_items, per, 3, reps, rng)
            ci, p = paired_difference_analytic(a, b)  # (reps, 3): each set
            ci_i, p_i = paired_difference_analytic(a, b, index=True)  # (reps,)
            excludes = (ci.low > 0) | (ci.high < 0)
            assert np.all(excludes == (p < ALPHA)), "set test and interval disagree"
            point = f"{regime}, {design}"
            sets_rows.append((point, "coverage", float(np.mean((ci.low <= truth) & (truth <= ci.high))), 3 * reps))
            index_rows.append((point, "coverage", float(np.mean((ci_i.low <= truth) & (truth <= ci_i.high))), reps))
            if p_a == p_b:
                sets_rows.append((point, "size", float(np.mean(p <= ALPHA)), 3 * reps))
                index_rows.append((point, "size", float(np.mean(p_i <= ALPHA)), reps))
    return sets_rows, index_rows


SMALL_DESIGNS = {"40 items x 1": (40, 1), "124 items x 4": (124, 4)}


def _tgbi(designs, reps, seed):
    sets_rows, index_rows = tgbi_points(designs, reps, seed)
    _report("TGBI paired P_S of a set (MOVER of score intervals on g; its interval p-value)", sets_rows)
    _report("TGBI paired index (MOVER over the sets)", index_rows)
    # Near 0 with 40 sentences (~0.6 minority outputs expected) or near 1: discrete, conservative by design.
    for rows in (sets_rows, index_rows):
        discrete = [r for r in rows if "40 items" in r[0] or "near" in r[0]]
        _hold(_limited(discrete), conservative=True)
        _hold([r for r in rows if r not in discrete])


def test_tgbi_paired_analytic_set_and_index_tests_fast():
    _tgbi(SMALL_DESIGNS, reps=1500, seed=41)


@pytest.mark.slow
def test_tgbi_paired_analytic_set_and_index_tests():
    _tgbi({**SMALL_DESIGNS, "1,059 items x 2": (1059, 2)}, reps=900, seed=51)


def test_the_tgbi_study_says_where_the_paired_interval_undercovers():
    import warnings

    import pandas as pd

    import stats_mtbias as smb
    from stats_mtbias.errors import SmallExpectedCountWarning

    text = {"female": "She is tired {}.", "male": "He is tired {}.", "neutral": "They are tired {}."}
    rows = [
        (system, "set_one", f"w{i}", text["male" if system == "a" or i % 3 else "female"].format(i))
        for system in ("a", "b")
        for i in range(40)
    ]
    outputs = pd.DataFrame(rows, columns=["system", "set", "item", "translation"])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        smb.tgbi(outputs=outputs)
    said = [str(w.message) for w in caught if issubclass(w.category, SmallExpectedCountWarning)]
    assert any("3 or fewer outputs off its majority: set_one" in m for m in said), said

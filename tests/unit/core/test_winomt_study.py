"""WinoMT study: analyse's estimates and comparisons, and adjective_effect, against hand values (mutation kills).

Expected values are independent of the package: WinoMT metrics counted by hand
(Acc = correct / n, F1 = 2 TP / (predicted + gold), ΔG = F1m − F1f, ΔS = Acc_pro − Acc_anti),
Tango's interval from its published examples, McNemar's score test from its formula
(b − c) / √(b + c), Holm from statsmodels, and invariants of the bootstrap.
"""

import numpy as np
import pandas as pd
import pytest
from scipy import optimize, stats
from statsmodels.stats.multitest import multipletests

from stats_mtbias.studies.winomt.analysis import adjective_effect, analyse

METRICS = ["acc", "f1_male", "f1_female", "delta_g", "acc_pro", "acc_anti", "delta_s"]
ESTIMATE_COLUMNS = ["system", "language", "n", "n_unknown", "n_outputs"] + [
    c for m in METRICS for c in (m, f"{m}_ci_low", f"{m}_ci_high", f"{m}_n")
]
COMPARE_COLUMNS = [
    "system_a",
    "system_b",
    "language",
    "subset",
    "metric",
    "diff",
    "ci_low",
    "ci_high",
    "p_value",
    "p_adjusted",
    "method",
    "ci_method",
    "n",
    "family",
]
TANGO = "Tango score interval, McNemar score test"
OPPOSITE = {"male": "female", "female": "male", "neutral": "male"}


def _judgements(readings: dict, gold, stereotype, language: str = "de") -> pd.DataFrame:
    """One language's judgements: `readings` maps a system to its gender read for every item."""
    gold, stereotype = np.asarray(gold), np.asarray(stereotype)
    return pd.concat(
        [
            pd.DataFrame(
                {
                    "system": system,
                    "language": language,
                    "item": np.arange(len(gold)),
                    "gold": gold,
                    "stereotype": stereotype,
                    "gender": np.asarray(read),
                }
            )
            for system, read in readings.items()
        ],
        ignore_index=True,
    )


def _read(gold, correct, wrong=None):
    """The genders read: gold where `correct`, else `wrong` (default the opposite gender)."""
    gold = np.asarray(gold)
    wrong = np.array([OPPOSITE[g] for g in gold]) if wrong is None else np.broadcast_to(wrong, gold.shape)
    return np.where(correct, gold, wrong)


def _cavo(n_systems: int = 2) -> pd.DataFrame:
    """Two systems whose paired accuracy table is Cavo et al. (2012): 59 both right, 6 A only, 16 B only, 80 neither."""
    n = 161
    gold = np.where(np.arange(n) % 2 == 0, "male", "female")
    stereotype = np.where((np.arange(n) // 2) % 2 == 0, "pro", "anti")
    a = np.r_[np.ones(65), np.zeros(96)].astype(bool)
    b = np.r_[np.ones(59), np.zeros(6), np.ones(16), np.zeros(80)].astype(bool)
    readings = {"A": _read(gold, a), "B": _read(gold, b)}
    if n_systems == 3:
        readings["C"] = _read(gold, np.roll(b, 7))
    return _judgements(readings, gold, stereotype)


def _close(value, published, decimals):
    assert abs(float(value) - published) <= 0.5 * 10.0**-decimals + 1e-9, (float(value), published)


def test_accuracy_comparison_is_tangos_interval_on_cavo_2012():
    """The Acc row of A − B: diff (6 − 16)/161, Tango's published limits, McNemar's score p, labelled columns."""
    _, comp = analyse(_cavo(), n_boot=20)
    assert list(comp.columns) == COMPARE_COLUMNS
    assert list(comp["metric"]) == METRICS
    assert set(comp["language"]) == {"de"} and set(comp["subset"]) == {"all"}
    assert set(comp["system_a"]) == {"A"} and set(comp["system_b"]) == {"B"}
    acc = comp.set_index("metric").loc["acc"]
    assert acc["diff"] == pytest.approx(-10 / 161, abs=1e-12)
    # Fagerland, Lydersen & Laake (2017), ch. 8, R contingencytables: Tango_asymptotic_score_CI_paired_2x2(cavo_2012)
    _close(acc["ci_low"], -0.1240, 4)
    _close(acc["ci_high"], -0.0054, 4)
    assert acc["p_value"] == pytest.approx(2 * stats.norm.sf(10 / np.sqrt(22)), rel=1e-9)  # Tango (1998): T(0) = McNemar
    assert acc["n"] == 161 and acc["method"] == TANGO
    assert np.all(comp["ci_low"] <= comp["diff"]) and np.all(comp["diff"] <= comp["ci_high"])


def test_estimates_columns_counts_and_metrics_by_hand():
    """Per system: documented columns in order, n, n_unknown, each metric's n and point value counted by hand."""
    gold = np.array(["male", "female"] * 12)
    stereotype = np.array(["pro"] * 10 + ["anti"] * 8 + ["none"] * 6)
    correct = np.ones(24, bool)
    correct[[0, 3, 11, 12, 19]] = False
    wrong = np.array(["unknown"] * 24, dtype=object)
    wrong[[0, 3]] = ["female", "male"]  # items 11, 12, 19 read "unknown"
    read_a = _read(gold, correct, wrong)
    read_b = _read(gold, np.arange(24) % 3 != 0)
    est, _ = analyse(_judgements({"A": read_a, "B": read_b}, gold, stereotype), n_boot=20)
    assert list(est.columns) == ESTIMATE_COLUMNS
    assert list(est["system"]) == ["A", "B"] and list(est["language"]) == ["de", "de"]
    for row, read in zip(est.itertuples(), (read_a, read_b)):
        ok = read == gold
        assert row.n == 24 and row.n_unknown == int(np.sum(read == "unknown"))
        assert (row.acc_n, row.acc_pro_n, row.acc_anti_n, row.delta_s_n) == (24, 10, 8, 18)
        assert (row.f1_male_n, row.f1_female_n, row.delta_g_n) == (24, 24, 24)
        f1 = {}
        for g in ("male", "female"):
            tp, pred, gold_g = np.sum(ok & (gold == g)), np.sum(read == g), np.sum(gold == g)
            precision, recall = tp / pred, tp / gold_g
            f1[g] = 2 * precision * recall / (precision + recall)
        acc_pro, acc_anti = ok[:10].mean(), ok[10:18].mean()
        expected = {
            "acc": ok.mean(),
            "f1_male": f1["male"],
            "f1_female": f1["female"],
            "delta_g": f1["male"] - f1["female"],
            "acc_pro": acc_pro,
            "acc_anti": acc_anti,
            "delta_s": acc_pro - acc_anti,
        }
        for metric, value in expected.items():
            assert getattr(row, metric) == pytest.approx(value, abs=1e-12), metric
    assert est.loc[0, "n_unknown"] == 3


def test_languages_keep_their_order_of_appearance():
    """Estimates and comparisons list the languages in the order they first appear, not sorted."""
    fr = _cavo().assign(language="fr")
    est, comp = analyse(pd.concat([fr, _cavo()], ignore_index=True), n_boot=20)
    assert list(est["language"]) == ["fr", "fr", "de", "de"]
    assert list(dict.fromkeys(comp["language"])) == ["fr", "de"]


def test_against_compares_the_named_system_with_every_other_only():
    """`against=["C"]` gives the pairs C − A and C − B, not every pair."""
    _, comp = analyse(_cavo(3), n_boot=20, against=["C"])
    pairs = list(dict.fromkeys(zip(comp["system_a"], comp["system_b"])))
    assert pairs == [("C", "A"), ("C", "B")]


def test_family_all_adjusts_over_every_comparison():
    """`family="all"`: p_adjusted is Holm's adjustment (statsmodels) over every row, not within each metric."""
    _, comp = analyse(_cavo(), n_boot=20, family="all", correction="holm")
    expected = multipletests(comp["p_value"].to_numpy(), method="holm")[1]
    assert np.allclose(comp["p_adjusted"], expected, rtol=1e-12, atol=0)
    assert not np.allclose(comp["p_adjusted"], comp["p_value"])


def _f1_bounds(est, system="A"):
    row = est.set_index("system").loc[system]
    return {m: (row[f"{m}_ci_low"], row[m], row[f"{m}_ci_high"]) for m in ("f1_male", "f1_female", "delta_g")}


def test_bootstrap_intervals_of_f1_follow_the_level():
    """F1 and ΔG bootstrap intervals at level 0.5 lie strictly inside those at 0.95 (same resamples)."""
    wide = _f1_bounds(analyse(_cavo(), n_boot=400, level=0.95)[0])
    narrow = _f1_bounds(analyse(_cavo(), n_boot=400, level=0.5)[0])
    for m in wide:
        assert wide[m][0] < narrow[m][0] <= narrow[m][1] <= narrow[m][2] < wide[m][2], m


def test_bca_interval_is_accepted_and_differs_from_the_percentile():
    """`interval="bca"` runs and gives other F1/ΔG bounds than the percentile interval, each containing the estimate."""
    percentile = _f1_bounds(analyse(_cavo(), n_boot=300, interval="percentile")[0])
    bca = _f1_bounds(analyse(_cavo(), n_boot=300, interval="bca")[0])
    for m in bca:
        assert bca[m][0] <= bca[m][1] <= bca[m][2], m
    assert any(bca[m][0] != percentile[m][0] or bca[m][2] != percentile[m][2] for m in bca)


def test_defaults_are_ten_thousand_resamples_and_seed_zero():
    """analyse's defaults are n_boot=10_000 and rng=0: the same numbers as passing them, not 10_001 or seed 1."""
    gold = np.array(["male", "female"] * 20)
    stereotype = np.array(["pro", "pro", "anti", "anti"] * 10)
    data = _judgements({"A": _read(gold, np.arange(40) % 3 != 0)}, gold, stereotype)  # 14 errors per gender's F1
    default, _ = analyse(data)
    pd.testing.assert_frame_equal(default, analyse(data, n_boot=10_000, rng=0)[0])
    for other in ({"n_boot": 10_001, "rng": 0}, {"n_boot": 10_000, "rng": 1}):
        assert not default.equals(analyse(data, **other)[0]), other


def _male_and_neutral() -> pd.DataFrame:
    """Gold male and neutral items only (no female F1): M reads every item male, P errs on 6 of each gold."""
    gold = np.array(["male"] * 40 + ["neutral"] * 40)
    stereotype = np.array(["pro", "anti"] * 20 + ["none"] * 40)
    partial = gold.copy()
    partial[:6] = "neutral"
    partial[40:46] = "male"
    return _judgements({"M": np.array(["male"] * 80), "P": partial}, gold, stereotype)


def test_bootstrap_keeps_the_strata_fixed():
    """Resampling within stereotype × gold: reading every item male has F1m = 2·40/(80 + 40) in every resample."""
    est, _ = analyse(_male_and_neutral(), n_boot=200)
    row = est.set_index("system").loc["M"]
    assert row["f1_male"] == pytest.approx(2 / 3, abs=1e-12)
    assert row["f1_male_ci_low"] == pytest.approx(2 / 3, abs=1e-12)
    assert row["f1_male_ci_high"] == pytest.approx(2 / 3, abs=1e-12)
    assert np.isnan(row["f1_female"])


def test_n_boot_is_the_number_of_resamples():
    """With n_boot=1 the percentile interval of F1m is the single resample's value (a point), with 200 it is not."""
    one = analyse(_male_and_neutral(), n_boot=1)[0].set_index("system").loc["P"]
    many = analyse(_male_and_neutral(), n_boot=200)[0].set_index("system").loc["P"]
    assert one["f1_male_ci_low"] == one["f1_male_ci_high"]
    assert many["f1_male_ci_low"] < many["f1_male"] < many["f1_male_ci_high"]


def test_few_error_delta_g_uses_the_bootstrap_correlation_of_the_f1s():
    """Few errors, male↔female confusions (F1s positively correlated): ΔG's MOVER is narrower than with r = 0."""
    gold = np.array(["male", "female"] * 30)
    stereotype = np.array(["pro", "pro", "anti", "anti"] * 15)
    correct = np.ones(60, bool)
    correct[[0, 2, 4, 1, 3, 5]] = False
    est, _ = analyse(_judgements({"A": _read(gold, correct)}, gold, stereotype), n_boot=400)
    row = est.iloc[0]
    f1m, lm, hm = row["f1_male"], row["f1_male_ci_low"], row["f1_male_ci_high"]
    f1f, lf, hf = row["f1_female"], row["f1_female_ci_low"], row["f1_female_ci_high"]
    assert f1m == pytest.approx(0.9) and f1f == pytest.approx(0.9)
    # Zou's MOVER for F1m − F1f with uncorrelated parts
    low0 = (f1m - f1f) - np.hypot(f1m - lm, hf - f1f)
    high0 = (f1m - f1f) + np.hypot(hm - f1m, f1f - lf)
    assert low0 + 1e-6 < row["delta_g_ci_low"] <= row["delta_g"] <= row["delta_g_ci_high"] < high0 - 1e-6


def _before_after(before, after, reasons=None, system="S", language="de"):
    """Base and "+Adj" judgements of one system from the items' right (True) / wrong readings before and after."""
    n = len(before)
    gold = np.where(np.arange(n) % 2 == 0, "male", "female")
    base = pd.DataFrame(
        {"system": system, "language": language, "item": np.arange(n), "gold": gold, "gender": _read(gold, before)}
    )
    adj = pd.DataFrame(
        {
            "system": system,
            "language": language,
            "item": np.arange(n),
            "gender": _read(gold, after),
            "reason": "ok" if reasons is None else reasons,
        }
    )
    return base, adj


def _transitions(rr, rw, wr, ww):
    before = np.r_[np.ones(rr + rw), np.zeros(wr + ww)].astype(bool)
    after = np.r_[np.ones(rr), np.zeros(rw), np.ones(wr), np.zeros(ww)].astype(bool)
    return before, after


def test_adjective_effect_on_cavo_2012():
    """Transitions 59/16/6/80 (after = Cavo's first): change −10/161, Tango's published limits, McNemar p, columns."""
    out = adjective_effect(*_before_after(*_transitions(rr=59, rw=16, wr=6, ww=80)))
    assert list(out.columns) == [
        "system",
        "language",
        "n",
        "acc",
        "acc_adj",
        "change",
        "change_ci_low",
        "change_ci_high",
        "right_right",
        "right_wrong",
        "wrong_right",
        "wrong_wrong",
        "p_value",
        "method",
    ]
    row = out.iloc[0]
    assert (row["system"], row["language"], row["n"]) == ("S", "de", 161)
    assert (row["right_right"], row["right_wrong"], row["wrong_right"], row["wrong_wrong"]) == (59, 16, 6, 80)
    assert row["acc"] == pytest.approx(75 / 161) and row["acc_adj"] == pytest.approx(65 / 161)
    assert row["change"] == pytest.approx(-10 / 161, abs=1e-12)
    _close(row["change_ci_low"], -0.1240, 4)  # Fagerland et al. (2017) ch. 8, Tango's interval for Cavo et al. (2012)
    _close(row["change_ci_high"], -0.0054, 4)
    assert row["p_value"] == pytest.approx(2 * stats.norm.sf(10 / np.sqrt(22)), rel=1e-9)
    assert row["method"] == TANGO


def test_adjective_effect_uses_the_level():
    """At level 0.90, one item lost of 44: Tango's (1998) published 90% interval (−0.096, 0.037)."""
    out = adjective_effect(*_before_after(*_transitions(rr=43, rw=1, wr=0, ww=0)), level=0.90)
    _close(out.loc[0, "change_ci_low"], -0.096, 3)  # ratesci tests: Tango (1998) example, 90% interval
    _close(out.loc[0, "change_ci_high"], 0.037, 3)


def test_adjective_effect_drops_items_not_in_the_adjective_file():
    """Items whose "+Adj" reason is not_in_file are left out of n and of the transitions."""
    before, after = _transitions(rr=10, rw=2, wr=3, ww=5)
    reasons = np.array(["ok"] * 20, dtype=object)
    reasons[[0, 1, 12]] = "not_in_file"  # two right→right, one wrong→right
    row = adjective_effect(*_before_after(before, after, reasons)).iloc[0]
    assert row["n"] == 17
    assert (row["right_right"], row["right_wrong"], row["wrong_right"], row["wrong_wrong"]) == (8, 2, 2, 5)


def test_adjective_effect_keeps_the_order_of_appearance():
    """Rows follow the systems' order in the input, not an alphabetical one."""
    before, after = _transitions(rr=10, rw=2, wr=3, ww=5)
    parts = [_before_after(before, after, system=s) for s in ("zeta", "alpha")]
    out = adjective_effect(pd.concat([p[0] for p in parts]), pd.concat([p[1] for p in parts]))
    assert list(out["system"]) == ["zeta", "alpha"]


# --- paired_comparison and score_bounds on item features, against hand formulas -------------------------------------


def _tango(b, c, n, level):
    """Tango's (1998) score interval for (b − c)/n by root finding (Fagerland et al. 2017, contingencytables' formula)."""

    def score(delta):
        big_a, big_b = 2 * n, -b - c + (2 * n - b + c) * delta
        big_c = -c * delta * (1 - delta)
        p21 = (np.sqrt(big_b**2 - 4 * big_a * big_c) - big_b) / (2 * big_a)
        return (b - c - n * delta) / np.sqrt(n * (2 * p21 + delta * (1 - delta)))

    z, d, eps = stats.norm.ppf(0.5 + level / 2), (b - c) / n, 1e-12
    low = -1.0 if score(-1 + eps) < z else optimize.brentq(lambda t: score(t) - z, -1 + eps, min(d, 1 - eps))
    high = 1.0 if score(1 - eps) > -z else optimize.brentq(lambda t: score(t) + z, max(d, -1 + eps), 1 - eps)
    return low, high


def test_hand_tango_reproduces_the_published_cavo_limits():
    """The test's own Tango interval gives Fagerland et al.'s (2017) limits for Cavo et al. (2012)."""
    low, high = _tango(6, 16, 161, 0.95)
    _close(low, -0.1240, 4)
    _close(high, -0.0054, 4)


def _f1s(gold, read):
    """F1 of male, of female (2 TP / (predicted + gold)) and ΔG, counted on the items."""
    out = []
    for g in ("male", "female"):
        tp = np.sum((read == gold) & (gold == g))
        out.append(2 * tp / (np.sum(read == g) + np.sum(gold == g)))
    return np.array([out[0], out[1], out[0] - out[1]])


def _jackknife_se(gold, read_a, read_b):
    """The item jackknife's standard error of F1m, F1f and ΔG of A − B, leaving out one item at a time."""
    n = len(gold)
    loo = np.array(
        [_f1s(np.delete(gold, i), np.delete(read_a, i)) - _f1s(np.delete(gold, i), np.delete(read_b, i)) for i in range(n)]
    )
    return np.sqrt((n - 1) / n * np.sum((loo - loo.mean(axis=0)) ** 2, axis=0))


def _pair(n, changed, stereotype=None):
    """Gold alternating male/female; A right on every third item wrong; B differs from A on the `changed` items."""
    gold = np.where(np.arange(n) % 2 == 0, "male", "female")
    stereotype = np.resize(np.array(["pro", "anti", "anti", "none", "pro"]), n) if stereotype is None else stereotype
    read_a = _read(gold, np.arange(n) % 3 != 0)
    read_b = read_a.copy()
    flip = np.asarray(changed, dtype=int)
    read_b[flip] = np.where(
        read_a[flip] == gold[flip], np.where(flip % 4 == 0, "unknown", [OPPOSITE[g] for g in gold[flip]]), gold[flip]
    )
    return gold, stereotype, read_a, read_b


def _compare(gold, stereotype, read_a, read_b, level):
    from stats_mtbias.estimators.winomt import item_features
    from stats_mtbias.studies.winomt.analysis import paired_comparison

    return paired_comparison(item_features(gold, read_a, stereotype), item_features(gold, read_b, stereotype), level)


def test_paired_comparison_every_metric_by_hand():
    """A − B at level 0.9: Tango and McNemar per accuracy, MOVER ΔS and its p, jackknife t for F1 and ΔG, the n's."""
    level = 0.9
    gold, stereotype, read_a, read_b = _pair(60, [1, 2, 4, 7, 8, 13, 16, 20, 25, 31, 40, 44])
    res = _compare(gold, stereotype, read_a, read_b, level)
    ok_a, ok_b = read_a == gold, read_b == gold
    z = stats.norm.ppf(0.5 + level / 2)
    limits = {}
    for metric, on in {"acc": np.ones(60, bool), "acc_pro": stereotype == "pro", "acc_anti": stereotype == "anti"}.items():
        m = METRICS.index(metric)
        b, c, n = np.sum(ok_a & ~ok_b & on), np.sum(~ok_a & ok_b & on), np.sum(on)
        assert res["n"][m] == n and res["diff"][m] == pytest.approx((b - c) / n, abs=1e-12), metric
        limits[metric] = ((b - c) / n, *_tango(b, c, n, level))
        assert res["low"][m] == pytest.approx(limits[metric][1], abs=1e-7), metric
        assert res["high"][m] == pytest.approx(limits[metric][2], abs=1e-7), metric
        assert res["p_value"][m] == pytest.approx(2 * stats.norm.sf(abs(b - c) / np.sqrt(b + c)), rel=1e-9), metric
        assert res["method"][m] == TANGO
    (pro, lp, hp), (anti, la, ha) = limits["acc_pro"], limits["acc_anti"]
    m, d = METRICS.index("delta_s"), pro - anti
    assert res["n"][m] == np.sum(stereotype == "pro") + np.sum(stereotype == "anti")
    assert res["diff"][m] == pytest.approx(d, abs=1e-12)
    low, high = d - np.hypot(pro - lp, ha - anti), d + np.hypot(hp - pro, anti - la)  # MOVER, pro and anti independent
    assert (res["low"][m], res["high"][m]) == (pytest.approx(low, abs=1e-7), pytest.approx(high, abs=1e-7))
    se = (d - low if d >= 0 else high - d) / z
    assert res["p_value"][m] == pytest.approx(2 * stats.norm.sf(abs(d) / se), rel=1e-6)
    assert res["method"][m] == "MOVER of the Tango intervals (pro, anti)"
    discordant = int(np.sum(read_a != read_b))
    diff, se = _f1s(gold, read_a) - _f1s(gold, read_b), _jackknife_se(gold, read_a, read_b)
    t = stats.t.ppf(0.5 + level / 2, discordant - 1)
    for j, metric in enumerate(("f1_male", "f1_female", "delta_g")):
        m = METRICS.index(metric)
        assert res["n"][m] == 60 and res["diff"][m] == pytest.approx(diff[j], abs=1e-12)
        assert res["low"][m] == pytest.approx(diff[j] - t * se[j], abs=1e-12)
        assert res["high"][m] == pytest.approx(diff[j] + t * se[j], abs=1e-12)
        assert res["p_value"][m] == pytest.approx(2 * stats.t.sf(abs(diff[j]) / se[j], discordant - 1), rel=1e-9)
        assert res["method"][m] == f"jackknife t ({discordant} discordant items, {discordant - 1} df)"


@pytest.mark.parametrize("discordant, dof", [(1, 1), (40, 39), (41, 99)])
def test_jackknife_degrees_of_freedom(discordant, dof):
    """The t has the discordant items − 1 df (at least 1) up to 40 discordant items, else the items − 1 (100 items)."""
    gold, stereotype, read_a, read_b = _pair(100, np.arange(discordant) * 2 + 1)
    res = _compare(gold, stereotype, read_a, read_b, 0.95)
    assert int(np.sum(read_a != read_b)) == discordant
    diff, se = _f1s(gold, read_a) - _f1s(gold, read_b), _jackknife_se(gold, read_a, read_b)
    t = stats.t.ppf(0.975, dof)
    for j, metric in enumerate(("f1_male", "f1_female", "delta_g")):
        m = METRICS.index(metric)
        assert res["high"][m] - res["low"][m] == pytest.approx(2 * t * se[j], rel=1e-9), metric
        if se[j] > 0:
            assert res["p_value"][m] == pytest.approx(2 * stats.t.sf(abs(diff[j]) / se[j], dof), rel=1e-9), metric
        assert res["method"][m] == f"jackknife t ({discordant} discordant items, {dof} df)"


def test_identical_systems_get_two_pseudo_items():
    """No discordant item: diff 0, p 1, and the t(1) interval of the jackknife with one pseudo-item won by each system."""
    gold, stereotype, read_a, _ = _pair(30, [])
    res = _compare(gold, stereotype, read_a, read_a, 0.95)
    se = _jackknife_se(np.r_[gold, ["male", "female"]], np.r_[read_a, ["male", "male"]], np.r_[read_a, ["female", "female"]])
    t = stats.t.ppf(0.975, 1)
    for j, metric in enumerate(("f1_male", "f1_female", "delta_g")):
        m = METRICS.index(metric)
        assert res["diff"][m] == 0 and res["p_value"][m] == 1.0
        assert res["low"][m] == pytest.approx(-t * se[j], rel=1e-9) and res["high"][m] == pytest.approx(t * se[j], rel=1e-9)
        assert se[j] > 0
        assert res["method"][m] == "jackknife t (0 discordant items, 1 df, 2 pseudo-items)"


def test_no_pro_items_leaves_acc_pro_and_delta_s_empty():
    """Without pro-stereotypical items, Acc_pro and ΔS have n 0 (ΔS: the anti items) and no interval or p-value."""
    stereotype = np.resize(np.array(["anti", "none"]), 40)
    gold, stereotype, read_a, read_b = _pair(40, [1, 2, 5, 9, 12], stereotype)
    res = _compare(gold, stereotype, read_a, read_b, 0.95)
    pro, anti, ds = (METRICS.index(m) for m in ("acc_pro", "acc_anti", "delta_s"))
    assert res["n"][pro] == 0 and res["n"][anti] == 20 and res["n"][ds] == 20
    for m in (pro, ds):
        assert np.isnan(res["low"][m]) and np.isnan(res["high"][m]) and np.isnan(res["p_value"][m])
    assert np.isfinite(res["low"][anti]) and np.isfinite(res["p_value"][anti])
    assert res["method"][pro] == TANGO and res["method"][ds] == "MOVER of the Tango intervals (pro, anti)"


def test_a_single_pro_item_still_gets_tangos_interval():
    """Acc_pro on one pro item (A right, B wrong) has Tango's interval for (1 − 0)/1 and McNemar's p, not NaN."""
    stereotype = np.array(["pro"] + ["anti", "none"] * 14 + ["anti"])
    gold, stereotype, read_a, read_b = _pair(30, [3, 5, 9, 10], stereotype)
    read_a[0], read_b[0] = gold[0], "unknown"
    res = _compare(gold, stereotype, read_a, read_b, 0.95)
    m = METRICS.index("acc_pro")
    assert res["n"][m] == 1 and res["diff"][m] == 1.0
    low, high = _tango(1, 0, 1, 0.95)
    assert res["low"][m] == pytest.approx(low, abs=1e-7) and res["high"][m] == pytest.approx(high, abs=1e-7)
    assert res["p_value"][m] == pytest.approx(2 * stats.norm.sf(1.0), rel=1e-9)
    assert np.isfinite(res["low"][METRICS.index("delta_s")])


def test_paired_comparison_of_float32_item_means_is_that_of_their_values():
    """Item means stored as float32 (thirds: inexact) give exactly the results of the same values as float64."""
    from stats_mtbias.estimators.winomt import item_features

    gold, stereotype, _, _ = _pair(30, [])
    rng = np.random.default_rng(0)

    def means(p):  # three samples per item, averaged
        return np.mean(
            [item_features(gold, np.where(rng.random(30) < p, gold, "unknown"), stereotype) for _ in range(3)], axis=0
        ).astype(np.float32)

    from stats_mtbias.studies.winomt.analysis import paired_comparison

    a, b = means(0.8), means(0.5)
    expected = paired_comparison(a.astype(float), b.astype(float), 0.95)
    for got in (paired_comparison(a, b.astype(float), 0.95), paired_comparison(a.astype(float), b, 0.95)):
        for key in ("diff", "low", "high", "p_value"):
            assert np.array_equal(got[key], expected[key], equal_nan=True), key


def test_an_undefined_f1_has_no_p_value():
    """No female item, gold or read: F1f and ΔG differences are undefined, so their interval and p-value are NaN, not 0."""
    gold = np.array(["male", "neutral"] * 20, dtype=object)
    stereotype = np.array(["pro", "anti", "none", "anti"] * 10)
    read_a, read_b = gold.copy(), gold.copy()
    read_a[[0, 2, 4]] = "neutral"
    read_b[[1, 3, 5, 7]] = "male"
    res = _compare(gold, stereotype, read_a, read_b, 0.95)
    for metric in ("f1_female", "delta_g"):
        m = METRICS.index(metric)
        assert np.isnan(res["diff"][m]) and np.isnan(res["low"][m]) and np.isnan(res["high"][m]), metric
        assert np.isnan(res["p_value"][m]), metric
    assert 0 < res["p_value"][METRICS.index("f1_male")] < 1


def _pseudo_se(gold, read_a, read_b):
    """The jackknife's standard error with two pseudo-items appended: a male item only A reads right, a female one only B."""
    return _jackknife_se(np.r_[gold, ["male", "female"]], np.r_[read_a, ["male", "male"]], np.r_[read_b, ["female", "female"]])


def test_items_read_differently_but_alike_for_f1_get_the_pseudo_items():
    """A reads "unknown" where B reads "neutral" (both wrong, neither male nor female): F1 differences 0 on every
    leave-one-out, no spread. Not a point interval: the pseudo-items' spread, on the 4 discordant items' 3 df; p 1."""
    gold = np.array(["male", "female"] * 15, dtype=object)
    stereotype = np.array(["pro", "anti"] * 15)
    read_a, read_b = gold.copy(), gold.copy()
    read_a[[0, 1, 6, 9]], read_b[[0, 1, 6, 9]] = "unknown", "neutral"
    assert np.all(_jackknife_se(gold, read_a, read_b) == 0)
    res = _compare(gold, stereotype, read_a, read_b, 0.95)
    se, t = _pseudo_se(gold, read_a, read_b), stats.t.ppf(0.975, 3)
    for j, metric in enumerate(("f1_male", "f1_female", "delta_g")):
        m = METRICS.index(metric)
        assert se[j] > 0 and res["diff"][m] == 0, metric
        assert (res["low"][m], res["high"][m]) == (pytest.approx(-t * se[j], rel=1e-9), pytest.approx(t * se[j], rel=1e-9))
        assert res["p_value"][m] == 1.0, metric
        assert res["method"][m] == "jackknife t (4 discordant items, 3 df, 2 pseudo-items)"


def test_every_item_won_by_one_system_gets_the_pseudo_items_and_stays_in_range():
    """A right on every item, B wrong on every one: F1 differences 1 on every leave-one-out, no spread. The
    pseudo-items give one, so p is small but not 0; the upper limit is 1, the most an F1 difference can be."""
    gold = np.array(["male", "female"] * 10, dtype=object)
    stereotype = np.array(["pro", "anti"] * 10)
    wrong = np.array([OPPOSITE[g] for g in gold], dtype=object)
    res = _compare(gold, stereotype, gold.copy(), wrong, 0.95)
    se, t = _pseudo_se(gold, gold, wrong), stats.t.ppf(0.975, 19)
    for j, metric in enumerate(("f1_male", "f1_female", "delta_g")):
        m = METRICS.index(metric)
        d = 0.0 if metric == "delta_g" else 1.0  # ΔG is 0 for both systems
        assert res["diff"][m] == d and se[j] > 0, metric
        assert res["low"][m] == pytest.approx(d - t * se[j], rel=1e-9), metric
        assert res["high"][m] == pytest.approx(min(d + t * se[j], 1.0), rel=1e-9), metric
        assert res["p_value"][m] == pytest.approx(2 * stats.t.sf(abs(d) / se[j], 19), rel=1e-9), metric
        assert res["method"][m] == "jackknife t (20 discordant items, 19 df, 2 pseudo-items)"
    assert res["high"][METRICS.index("f1_male")] == 1.0 and 0 < res["p_value"][METRICS.index("f1_male")] < 1e-6


def test_a_delta_g_difference_is_kept_within_minus_two_and_two():
    """ΔG of A − B is at most 2: A reads every male item right and no female one (F1m 1, F1f 0: ΔG 1), B the
    reverse (ΔG −1). No spread, so the pseudo-items give one; the upper limit is cut at 2, and an F1's at 1."""
    gold = np.array(["male", "female"] * 6, dtype=object)
    stereotype = np.array(["pro", "anti"] * 6)
    read_a = np.where(gold == "male", "male", "unknown").astype(object)
    read_b = np.where(gold == "female", "female", "unknown").astype(object)
    res = _compare(gold, stereotype, read_a, read_b, 0.95)
    se, t = _pseudo_se(gold, read_a, read_b), stats.t.ppf(0.975, 11)
    for j, (metric, d, bound) in enumerate([("f1_male", 1.0, 1.0), ("f1_female", -1.0, 1.0), ("delta_g", 2.0, 2.0)]):
        m = METRICS.index(metric)
        assert res["diff"][m] == pytest.approx(d, abs=1e-12), metric
        assert max(abs(d - t * se[j]), abs(d + t * se[j])) > bound, metric  # the cut binds
        assert res["low"][m] == pytest.approx(max(d - t * se[j], -bound), rel=1e-9), metric
        assert res["high"][m] == pytest.approx(min(d + t * se[j], bound), rel=1e-9), metric


# --- score_bounds: Wilson with exact Poisson ends, Newcombe's ΔS, few-error F1 and MOVER ΔG -------------------------


def _wilson_poisson(k, n, level):
    """Wilson's interval (statsmodels), each bound widened to Garwood's exact Poisson bound where k or n − k ≤ 10."""
    from statsmodels.stats.proportion import proportion_confint

    alpha = 1 - level
    low, high = proportion_confint(k, n, alpha=alpha, method="wilson")
    rest = n - k
    if k <= 10:
        if k > 0:
            low = min(low, stats.chi2.ppf(alpha / 2, 2 * k) / (2 * n))
        high = max(high, stats.chi2.ppf(1 - alpha / 2, 2 * k + 2) / (2 * n))
    if rest <= 10:
        low = min(low, 1 - stats.chi2.ppf(1 - alpha / 2, 2 * rest + 2) / (2 * n))
        if rest > 0:
            high = max(high, 1 - stats.chi2.ppf(alpha / 2, 2 * rest) / (2 * n))
    return max(low, 0.0), min(high, 1.0)


def _score_bounds(readings, gold, stereotype, level, boot_low=-5.0, boot_high=5.0, replicates=None):
    """score_bounds on these systems' item features, with the given bootstrap bounds for every metric."""
    from stats_mtbias.estimators.winomt import item_features

    data = np.stack([item_features(gold, read, stereotype) for read in readings], axis=1)
    return _score_bounds_of(data, level, boot_low, boot_high, replicates)


def _score_bounds_of(data, level, boot_low=-5.0, boot_high=5.0, replicates=None, dtype=float):
    """score_bounds on item features (items, systems, FEATURES), with the given bootstrap bounds for every metric."""
    from stats_mtbias.studies.winomt.analysis import score_bounds
    from stats_mtbias.uncertainty.intervals import ConfidenceInterval

    shape = (data.shape[1], len(METRICS))
    bounds = ConfidenceInterval(
        np.broadcast_to(np.asarray(boot_low, dtype), shape).copy(), np.broadcast_to(np.asarray(boot_high, dtype), shape).copy()
    )
    return score_bounds(data, bounds, level, replicates)


def test_score_bounds_of_the_accuracies_and_delta_s_by_hand():
    """Acc, Acc_pro, Acc_anti: Wilson with Poisson ends (few wrong or many); ΔS: Newcombe's hybrid of those limits."""
    level = 0.9
    n = 80
    gold = np.where(np.arange(n) % 2 == 0, "male", "female")
    stereotype = np.resize(np.array(["pro", "anti", "anti", "pro", "none"]), n)
    many = _read(gold, np.arange(n) % 3 != 0)  # about a third wrong
    few = _read(gold, ~np.isin(np.arange(n), [0, 5, 11]))  # three wrong
    ci = _score_bounds([many, few], gold, stereotype, level)
    for s, read in enumerate((many, few)):
        ok = read == gold
        limits = {}
        for metric, on in {"acc": np.ones(n, bool), "acc_pro": stereotype == "pro", "acc_anti": stereotype == "anti"}.items():
            m = METRICS.index(metric)
            limits[metric] = (ok[on].mean(), *_wilson_poisson(int(ok[on].sum()), int(on.sum()), level))
            assert ci.low[s, m] == pytest.approx(limits[metric][1], abs=1e-9), (s, metric)
            assert ci.high[s, m] == pytest.approx(limits[metric][2], abs=1e-9), (s, metric)
        (p1, l1, u1), (p2, l2, u2) = limits["acc_pro"], limits["acc_anti"]
        m = METRICS.index("delta_s")
        assert ci.low[s, m] == pytest.approx(p1 - p2 - np.hypot(p1 - l1, u2 - p2), abs=1e-9), s
        assert ci.high[s, m] == pytest.approx(p1 - p2 + np.hypot(u1 - p1, p2 - l2), abs=1e-9), s


def test_score_bounds_without_anti_items_keep_the_bootstrap_delta_s():
    """No anti item: Acc_anti has no interval (NaN) and ΔS keeps the bootstrap's bounds; Acc still gets Wilson's."""
    gold = np.where(np.arange(30) % 2 == 0, "male", "female")
    stereotype = np.resize(np.array(["pro", "none"]), 30)
    read = _read(gold, np.arange(30) % 4 != 0)
    ci = _score_bounds([read], gold, stereotype, 0.95)
    anti, ds, acc = METRICS.index("acc_anti"), METRICS.index("delta_s"), METRICS.index("acc")
    assert np.isnan(ci.low[0, anti]) and np.isnan(ci.high[0, anti])
    assert (ci.low[0, ds], ci.high[0, ds]) == (-5.0, 5.0)
    ok = read == gold
    assert ci.low[0, acc] == pytest.approx(_wilson_poisson(int(ok.sum()), 30, 0.95)[0], abs=1e-9)


def _f1_parts(gold, read, g):
    tp = int(np.sum((read == gold) & (gold == g)))
    errors = int(np.sum(read == g)) + int(np.sum(gold == g)) - 2 * tp
    return tp, errors


def test_few_error_f1_gets_score_intervals_and_delta_g_their_mover():
    """≤ 10 errors: F1 is 2TP of 2TP + FP + FN with Wilson/Poisson limits; ΔG their MOVER (r = 0 without replicates)."""
    level = 0.9
    gold = np.array(["male", "female"] * 30)
    stereotype = np.array(["pro", "anti"] * 30)
    correct = np.ones(60, bool)
    correct[[0, 2, 4, 1]] = False  # three male read female, one female read male
    read = _read(gold, correct)
    ci = _score_bounds([read], gold, stereotype, level)
    parts = {}
    for g in ("male", "female"):
        tp, errors = _f1_parts(gold, read, g)
        assert errors <= 10
        parts[g] = (2 * tp / (2 * tp + errors), *_wilson_poisson(2 * tp, 2 * tp + errors, level))
        m = METRICS.index(f"f1_{g}")
        assert (ci.low[0, m], ci.high[0, m]) == (pytest.approx(parts[g][1], abs=1e-9), pytest.approx(parts[g][2], abs=1e-9))
    (fm, lm, hm), (ff, lf, hf) = parts["male"], parts["female"]
    m = METRICS.index("delta_g")
    assert ci.low[0, m] == pytest.approx(fm - ff - np.hypot(fm - lm, hf - ff), abs=1e-9)
    assert ci.high[0, m] == pytest.approx(fm - ff + np.hypot(hm - fm, ff - lf), abs=1e-9)
    # with replicates whose F1s correlate by r, Zou's MOVER with that correlation
    rng = np.random.default_rng(0)
    x = rng.normal(size=(200, 2))
    reps = np.zeros((200, 1, len(METRICS)))
    reps[:, 0, METRICS.index("f1_male")] = x[:, 0]
    reps[:, 0, METRICS.index("f1_female")] = 0.6 * x[:, 0] + 0.8 * x[:, 1]
    r = np.corrcoef(reps[:, 0, METRICS.index("f1_male")], reps[:, 0, METRICS.index("f1_female")])[0, 1]
    ci = _score_bounds([read], gold, stereotype, level, replicates=reps)
    low_m, up_f = fm - lm, hf - ff
    up_m, low_f = hm - fm, ff - lf
    assert ci.low[0, m] == pytest.approx(fm - ff - np.sqrt(low_m**2 + up_f**2 - 2 * r * low_m * up_f), abs=1e-9)
    assert ci.high[0, m] == pytest.approx(fm - ff + np.sqrt(up_m**2 + low_f**2 - 2 * r * up_m * low_f), abs=1e-9)


def test_many_error_f1_keeps_the_bootstrap_unless_it_is_a_point():
    """> 10 errors per gender: F1 and ΔG keep the bootstrap bounds; a point bootstrap interval gets the score ones."""
    gold = np.array(["male", "female"] * 30)
    stereotype = np.array(["pro", "anti"] * 30)
    read = _read(gold, np.arange(60) % 4 > 1)  # 30 wrong
    cols = [METRICS.index(c) for c in ("f1_male", "f1_female", "delta_g")]
    ci = _score_bounds([read], gold, stereotype, 0.95)
    assert np.all(ci.low[0, cols] == -5.0) and np.all(ci.high[0, cols] == 5.0)
    low, high = np.full(len(METRICS), -5.0), np.full(len(METRICS), 5.0)
    low[METRICS.index("delta_g")] = high[METRICS.index("delta_g")] = 0.0  # the bootstrap's ΔG is a point
    ci = _score_bounds([read], gold, stereotype, 0.95, low, high)
    tp, errors = _f1_parts(gold, read, "male")
    expected = _wilson_poisson(2 * tp, 2 * tp + errors, 0.95)
    m = METRICS.index("f1_male")
    assert (ci.low[0, m], ci.high[0, m]) == (pytest.approx(expected[0], abs=1e-9), pytest.approx(expected[1], abs=1e-9))
    assert ci.low[0, cols[2]] < ci.high[0, cols[2]]


def test_point_bootstrap_f1_stays_where_the_other_gender_has_no_f1():
    """A point bootstrap interval is kept where one gender's F1 is undefined (no score interval for ΔG to use)."""
    gold = np.array(["male", "neutral"] * 20, dtype=object)
    stereotype = np.array(["pro", "none"] * 20)
    read = gold.copy()
    read[:24:2] = "neutral"  # 12 male items missed: more than 10 errors
    ci = _score_bounds([read], gold, stereotype, 0.95, 0.25, 0.25)
    for column in ("f1_male", "f1_female", "delta_g"):
        m = METRICS.index(column)
        assert ci.low[0, m] == 0.25 and ci.high[0, m] == 0.25, column


def test_score_bounds_of_sampled_items_use_the_effective_count_at_the_level():
    """Two samples per item, 20 of 40 split: Acc's Wilson interval on n_eff = 80 · (z / t₃₉)² at the level (0.8)."""
    from statsmodels.stats.proportion import proportion_confint

    from stats_mtbias.estimators.winomt import item_features

    gold = np.array(["male", "female"] * 20)
    stereotype = np.array(["pro", "anti"] * 20)
    i = np.arange(40)
    first = _read(gold, i < 20)  # 0-9 right in both samples, 10-29 in one, 30-39 in none
    second = _read(gold, (i < 10) | ((i >= 20) & (i < 30)))
    data = (item_features(gold, first, stereotype) + item_features(gold, second, stereotype))[:, None, :] / 2
    level = 0.8
    # p = 1/2; Σ (x_i − p)² / 40² = 20 · 1/4 / 1600, so p(1 − p) / V = 80 outputs, times Korn & Graubard's (z / t)²
    n_eff = 80 * (stats.norm.ppf(0.9) / stats.t.ppf(0.9, 39)) ** 2
    low, high = proportion_confint(0.5 * n_eff, n_eff, alpha=1 - level, method="wilson")
    ci = _score_bounds_of(data, level)
    m = METRICS.index("acc")
    assert ci.low[0, m] == pytest.approx(low, abs=1e-9) and ci.high[0, m] == pytest.approx(high, abs=1e-9)


def test_score_bounds_on_a_single_anti_item():
    """One anti item (read right): Acc_anti's interval is Wilson's for 1 of 1 with the Poisson end, not NaN."""
    gold = np.where(np.arange(20) % 2 == 0, "male", "female")
    stereotype = np.array(["anti"] + ["pro"] * 19)
    ci = _score_bounds([gold.copy()], gold, stereotype, 0.95)
    m = METRICS.index("acc_anti")
    low, high = _wilson_poisson(1, 1, 0.95)
    assert ci.low[0, m] == pytest.approx(low, abs=1e-9) and ci.high[0, m] == pytest.approx(high, abs=1e-9)
    p2, (l2, u2) = 1.0, _wilson_poisson(19, 19, 0.95)
    m = METRICS.index("delta_s")  # Newcombe's hybrid of the pro (19 of 19) and anti (1 of 1) limits
    assert ci.low[0, m] == pytest.approx(p2 - 1.0 - np.hypot(p2 - l2, high - 1.0), abs=1e-9)
    assert ci.high[0, m] == pytest.approx(p2 - 1.0 + np.hypot(u2 - p2, 1.0 - low), abs=1e-9)


def test_score_bounds_from_integer_bootstrap_bounds():
    """Bootstrap bounds given as integers are not truncated: Acc still gets its (fractional) Wilson limits."""
    from stats_mtbias.estimators.winomt import item_features

    gold = np.where(np.arange(40) % 2 == 0, "male", "female")
    stereotype = np.resize(np.array(["pro", "anti"]), 40)
    read = _read(gold, np.arange(40) % 3 != 0)
    ci = _score_bounds_of(item_features(gold, read, stereotype)[:, None, :], 0.95, 0, 1, dtype=int)
    ok = read == gold
    low, high = _wilson_poisson(int(ok.sum()), 40, 0.95)
    m = METRICS.index("acc")
    assert ci.low[0, m] == pytest.approx(low, abs=1e-9) and ci.high[0, m] == pytest.approx(high, abs=1e-9)


def test_an_undefined_f1_gets_no_score_interval():
    """No female item, gold or read, and few male errors: F1f and ΔG stay NaN with no interval (not [0, 1])."""
    gold = np.array(["male", "neutral"] * 20, dtype=object)
    read = gold.copy()
    read[0] = "neutral"
    ci = _score_bounds([read], gold, np.array(["pro", "none"] * 20), 0.95, np.nan, np.nan)
    tp, errors = _f1_parts(gold, read, "male")
    m = METRICS.index("f1_male")
    assert ci.low[0, m] == pytest.approx(_wilson_poisson(2 * tp, 2 * tp + errors, 0.95)[0], abs=1e-9)
    for column in ("f1_female", "delta_g"):
        assert np.isnan(ci.low[0, METRICS.index(column)]) and np.isnan(ci.high[0, METRICS.index(column)]), column


@pytest.mark.parametrize("female_errors", [10, 12])
def test_few_errors_of_one_gender_only(female_errors):
    """Male F1 on 2 errors, female on 10 (few: score intervals) or 12 (male few still); a second system keeps its bootstrap."""
    gold = np.array(["male", "female"] * 30, dtype=object)
    stereotype = np.array(["pro", "anti"] * 30)
    one = gold.copy()
    one[[0, 2]] = "unknown"  # male FN
    one[1 : 1 + 2 * female_errors : 2] = "unknown"  # female FN
    other = _read(gold, np.arange(60) % 4 > 1)  # 30 errors: the bootstrap stays
    ci = _score_bounds([one, other], gold, stereotype, 0.95)
    for g in ("male", "female"):
        tp, errors = _f1_parts(gold, one, g)
        m = METRICS.index(f"f1_{g}")
        assert ci.low[0, m] == pytest.approx(_wilson_poisson(2 * tp, 2 * tp + errors, 0.95)[0], abs=1e-9), g
        assert ci.high[0, m] == pytest.approx(_wilson_poisson(2 * tp, 2 * tp + errors, 0.95)[1], abs=1e-9), g
    cols = [METRICS.index(c) for c in ("f1_male", "f1_female", "delta_g")]
    assert np.all(ci.low[1, cols] == -5.0) and np.all(ci.high[1, cols] == 5.0)


def test_constant_replicates_give_delta_g_an_uncorrelated_mover_without_warning():
    """Replicates with a constant F1 have no correlation: ΔG's MOVER uses r = 0, silently."""
    import warnings

    gold = np.array(["male", "female"] * 30)
    stereotype = np.array(["pro", "anti"] * 30)
    correct = np.ones(60, bool)
    correct[[0, 2, 4, 1]] = False
    read = _read(gold, correct)
    reps = np.zeros((50, 1, len(METRICS)))
    reps[:, 0, METRICS.index("f1_male")] = np.linspace(0.8, 1.0, 50)  # f1_female constant 0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ci = _score_bounds([read], gold, stereotype, 0.95, replicates=reps)
    parts = {}
    for g in ("male", "female"):
        tp, errors = _f1_parts(gold, read, g)
        parts[g] = (2 * tp / (2 * tp + errors), *_wilson_poisson(2 * tp, 2 * tp + errors, 0.95))
    (fm, lm, hm), (ff, lf, hf) = parts["male"], parts["female"]
    m = METRICS.index("delta_g")
    assert ci.low[0, m] == pytest.approx(fm - ff - np.hypot(fm - lm, hf - ff), abs=1e-9)
    assert ci.high[0, m] == pytest.approx(fm - ff + np.hypot(hm - fm, ff - lf), abs=1e-9)


@pytest.mark.parametrize("column", ["f1_male", "f1_female"])
def test_a_point_bootstrap_f1_alone_gets_the_score_interval(column):
    """Many errors, but the bootstrap interval of one F1 (not ΔG) is a point: the score intervals replace all three."""
    gold = np.array(["male", "female"] * 30)
    read = _read(gold, np.arange(60) % 4 > 1)
    low, high = np.full(len(METRICS), -5.0), np.full(len(METRICS), 5.0)
    low[METRICS.index(column)] = high[METRICS.index(column)] = 0.5
    ci = _score_bounds([read], gold, np.array(["pro", "anti"] * 30), 0.95, low, high)
    tp, errors = _f1_parts(gold, read, "male")
    m = METRICS.index("f1_male")
    assert ci.low[0, m] == pytest.approx(_wilson_poisson(2 * tp, 2 * tp + errors, 0.95)[0], abs=1e-9)


def test_point_bootstrap_stays_where_male_has_no_f1():
    """No male item, gold or read: a point bootstrap interval of F1f is kept (no ΔG score interval to give)."""
    gold = np.array(["female", "neutral"] * 20, dtype=object)
    read = gold.copy()
    read[:24:2] = "neutral"
    ci = _score_bounds([read], gold, np.array(["anti", "none"] * 20), 0.95, 0.25, 0.25)
    for column in ("f1_male", "f1_female", "delta_g"):
        assert ci.low[0, METRICS.index(column)] == 0.25 and ci.high[0, METRICS.index(column)] == 0.25, column


@pytest.mark.parametrize("pro_items", [0, 1])
def test_delta_s_with_zero_or_one_pro_item(pro_items):
    """No pro item: ΔS keeps the bootstrap bounds; one pro item: Newcombe's hybrid from the Wilson/Poisson limits."""
    gold = np.where(np.arange(30) % 2 == 0, "male", "female")
    stereotype = np.array(["pro"] * pro_items + ["anti"] * (30 - pro_items))
    read = _read(gold, np.arange(30) % 4 != 1)
    ci = _score_bounds([read], gold, stereotype, 0.95)
    m = METRICS.index("delta_s")
    if pro_items == 0:
        assert (ci.low[0, m], ci.high[0, m]) == (-5.0, 5.0)
        return
    ok = read == gold
    p1, (l1, u1) = float(ok[0]), _wilson_poisson(int(ok[0]), 1, 0.95)
    p2, (l2, u2) = ok[1:].mean(), _wilson_poisson(int(ok[1:].sum()), 29, 0.95)
    assert ci.low[0, m] == pytest.approx(p1 - p2 - np.hypot(p1 - l1, u2 - p2), abs=1e-9)
    assert ci.high[0, m] == pytest.approx(p1 - p2 + np.hypot(u1 - p1, p2 - l2), abs=1e-9)


def test_ten_errors_are_few():
    """Male F1 on 12 errors, female on exactly 10: ten errors are few, so the score intervals replace the bootstrap."""
    gold = np.array(["male", "female"] * 30, dtype=object)
    read = gold.copy()
    read[0:24:2] = "unknown"  # 12 male FN
    read[1:21:2] = "unknown"  # 10 female FN
    ci = _score_bounds([read], gold, np.array(["pro", "anti"] * 30), 0.95)
    tp, errors = _f1_parts(gold, read, "female")
    assert errors == 10
    m = METRICS.index("f1_female")
    assert ci.low[0, m] == pytest.approx(_wilson_poisson(2 * tp, 2 * tp + errors, 0.95)[0], abs=1e-9)


def test_an_f1_on_a_single_trial():
    """One female item, read male, no other female reading: F1f = 0 of 2TP + FP + FN = 1, with its score interval."""
    gold = np.array(["female"] + ["male"] * 29, dtype=object)
    read = np.array(["male"] * 30, dtype=object)
    ci = _score_bounds([read], gold, np.array(["anti"] + ["pro"] * 29), 0.95, np.nan, np.nan)
    m = METRICS.index("f1_female")
    low, high = _wilson_poisson(0, 1, 0.95)
    assert ci.low[0, m] == pytest.approx(low, abs=1e-12) and ci.high[0, m] == pytest.approx(high, abs=1e-12)
    assert np.isfinite(ci.low[0, METRICS.index("delta_g")])

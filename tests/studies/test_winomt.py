"""The WinoMT study: analyse and McNemar, adjectives, paired comparisons by hand, the user's own labels."""

import numpy as np
import pandas as pd
import pytest
from statsmodels.stats.contingency_tables import mcnemar

from stats_mtbias.datasets import winomt as data
from stats_mtbias.errors import DataError
from stats_mtbias.estimators.winomt import METRICS, item_features, winomt_metrics
from stats_mtbias.studies import winomt

GOLD = ["male", "male", "female", "female", "neutral", "male"]
STEREO = ["pro", "anti", "pro", "anti", "none", "none"]
PRED = ["male", "female", "female", "unknown", "neutral", "male"]


def _items():
    return pd.DataFrame({"item": range(6), "gold": GOLD, "stereotype": STEREO})


def test_analyse_and_mcnemar(tmp_path):
    csv = tmp_path / "j.csv"
    rows = [(i, "a", "es", p) for i, p in enumerate(PRED)] + [(i, "b", "es", "male") for i in range(5)]
    pd.DataFrame(rows, columns=["item", "system", "language", "gender"]).to_csv(csv, index=False)
    judgements = winomt.read_user_judgements(csv, _items())
    b = judgements[judgements["system"] == "b"].set_index("item")
    assert b.loc[5, "gender"] == "unknown" and b.loc[5, "reason"] == "missing"  # not listed: counted, not dropped
    estimates, comparisons = winomt.analyse(judgements, n_boot=500, rng=1)
    a_row = estimates.set_index("system").loc["a"]
    assert a_row["acc"] == pytest.approx(4 / 6) and a_row["acc_ci_low"] <= a_row["acc"] <= a_row["acc_ci_high"]
    acc = comparisons.set_index("metric").loc["acc"]
    # Correct: a = 1 0 1 0 1 1, b (male everywhere but item 5) = 1 1 0 0 0 0 -> a only: items 2, 4, 5; b only: item 1.
    table = [[1, 3], [1, 1]]  # rows a right/wrong, columns b right/wrong
    # McNemar's score test (no continuity correction), the test Tango's interval inverts: statsmodels by its formula.
    assert acc["p_value"] == pytest.approx(mcnemar(table, exact=False, correction=False).pvalue)
    assert acc["method"] == "Tango score interval, McNemar score test" and acc["diff"] == pytest.approx((4 - 2) / 6)
    assert acc["n"] == 6 and acc["ci_method"] == acc["method"]
    assert set(comparisons["metric"]) == set(METRICS) and (comparisons["p_adjusted"] >= comparisons["p_value"]).all()


def test_adjective_transitions_by_hand():
    base = pd.DataFrame(
        {
            "system": "g",
            "language": "es",
            "item": range(4),
            "gold": ["male", "female", "female", "male"],
            "gender": ["male", "male", "female", "female"],
        }
    )
    adj = base.assign(gender=["male", "female", "male", "male"], reason="")
    table = winomt.adjective_effect(base, adj).iloc[0]
    # Right->right item 0, wrong->right items 1 and 3, right->wrong item 2.
    assert (table["right_right"], table["wrong_right"], table["right_wrong"], table["wrong_wrong"]) == (1, 2, 1, 0)
    assert table["acc"] == 0.5 and table["acc_adj"] == 0.75 and table["change"] == pytest.approx(0.25)
    assert table["p_value"] == pytest.approx(mcnemar([[1, 1], [2, 0]], exact=False, correction=False).pvalue)


def _loo_by_loop(a, b):
    """The jackknife of a metric difference by an explicit loop (independent of the vectorised code)."""
    n = len(a)
    values = np.array([winomt_metrics(np.delete(a, i, 0).sum(0)) - winomt_metrics(np.delete(b, i, 0).sum(0)) for i in range(n)])
    return np.sqrt((n - 1) / n * ((values - values.mean(0)) ** 2).sum(0))


def test_paired_comparison_by_hand():
    from scipy import stats

    a = item_features(GOLD, PRED, STEREO)
    b = item_features(GOLD, ["male"] * 6, STEREO)
    res = winomt.paired_comparison(a, b, 0.95)
    k = METRICS.index("delta_g")
    assert res["method"][k] == "jackknife t (4 discordant items, 3 df)"
    # Acc: correct a = 1 0 1 0 1 1, b = 1 1 0 0 0 1 -> both 2, a only 2, b only 1, neither 1: McNemar's score test.
    assert res["p_value"][0] == pytest.approx(mcnemar([[2, 2], [1, 1]], exact=False, correction=False).pvalue)
    assert res["low"][0] < 1 / 6 < res["high"][0] and res["n"][0] == 6
    # F1 and ΔG: 4 discordant items (1 to 4; item 3 is wrong in both, unread vs 'male'): jackknife t, 3 degrees of freedom.
    diff = winomt_metrics(a.sum(0)) - winomt_metrics(b.sum(0))
    se = _loo_by_loop(a, b)
    t = stats.t.ppf(0.975, 3)
    assert (res["low"][k], res["high"][k]) == pytest.approx((diff[k] - t * se[k], diff[k] + t * se[k]))
    assert res["p_value"][k] == pytest.approx(2 * stats.t.sf(abs(diff[k]) / se[k], 3))
    # ΔS: MOVER of the pro (items 0, 2) and anti (items 1, 3) Tango intervals, independent.
    from stats_mtbias.uncertainty.differences import paired_difference_interval

    pro = paired_difference_interval(1, 1, 0, 0, method="tango")
    anti = paired_difference_interval(0, 0, 1, 1, method="tango")
    ds = float(pro.estimate - anti.estimate)
    low = ds - np.hypot(float(pro.estimate - pro.low), float(anti.high - anti.estimate))
    high = ds + np.hypot(float(pro.high - pro.estimate), float(anti.estimate - anti.low))
    m = METRICS.index("delta_s")
    assert (res["low"][m], res["high"][m]) == pytest.approx((low, high)) and res["n"][m] == 4
    # The p-value is the MOVER interval's own: p < .05 exactly when the interval excludes 0.
    assert (res["p_value"][m] < 0.05) == (low > 0 or high < 0)


def test_paired_comparisons_are_never_a_point_and_agree_with_their_tests():
    a = item_features(GOLD, PRED, STEREO)
    same = winomt.paired_comparison(a, a.copy(), 0.95)
    assert np.all(same["low"] < 0) and np.all(same["high"] > 0)  # identical readings: still an interval around 0
    assert np.all(same["p_value"] == 1.0)
    rng = np.random.default_rng(0)
    for _ in range(20):
        n = rng.integers(30, 300)
        gold = rng.choice(["male", "female"], n)
        stereo = rng.choice(["pro", "anti"], n)
        x = item_features(gold, np.where(rng.random(n) < rng.uniform(0.3, 0.99), gold, "unknown"), stereo)
        y = item_features(gold, np.where(rng.random(n) < rng.uniform(0.3, 0.99), gold, "unknown"), stereo)
        res = winomt.paired_comparison(x, y, 0.95)
        excludes = (res["low"] > 0) | (res["high"] < 0)
        # One method each: the interval excludes 0 exactly when p < 1 - level (issue 34).
        assert np.array_equal(excludes, res["p_value"] < 0.05), res
        many = np.sum(np.any(x != y, axis=1)) > winomt.FEW_DISCORDANT
        if many:
            assert res["method"][METRICS.index("f1_male")].endswith(f"{n - 1} df)")


def _labelled_run(data_dir, tmp_path):
    """A user's readings of Spanish (the first 3,000 items read as gold, the rest unread) and two annotators."""
    from stats_mtbias.datasets.registry import open_store

    items = data.read_items(open_store(data_dir))
    gold = items["gold"].to_numpy()
    readings = pd.DataFrame(
        {"item": items["item"], "system": "mine", "language": "es", "gender": np.where(items["item"] < 3000, gold, "")}
    )
    other = {"male": "F", "female": "M", "neutral": "M"}
    short = {"male": "M", "female": "F", "neutral": "N"}
    rows = [(i, "a", short[gold[i]] if i < 8 else other[gold[i]]) for i in range(10)]  # a: 8 of 10 as gold
    rows += [(i, "b", short[gold[i]]) for i in range(10)]  # b: all 10 as gold
    # Five unread items labelled by a alone: four as gold, one not (the reader is wrong on all five).
    rows += [(i, "a", short[gold[i]] if i < 3004 else other[gold[i]]) for i in range(3000, 3005)]
    labels = pd.DataFrame(rows, columns=["item", "annotator", "gender"]).assign(system="mine", language="es")
    readings.to_csv(tmp_path / "readings.csv", index=False)
    labels.to_csv(tmp_path / "labels.csv", index=False)
    return gold, tmp_path / "readings.csv", tmp_path / "labels.csv"


def test_users_own_labels_give_agreement_kappa_between_annotators_and_corrected_acc(data_dir, tmp_path):
    from stats_mtbias.significance.agreement import kappa_interval

    gold, readings, labels = _labelled_run(data_dir, tmp_path)
    res = winomt.evaluate(judgements=readings, annotations=labels, n_boot=200, rng=0, data_dir=data_dir)
    agree = res.frames["annotations"].set_index("annotator")
    # a: agrees on items 0-7, not on 8, 9 (labelled against gold) nor on 3000-3004 (unread): 8 of 15.
    assert agree.loc["a", "n_labelled"] == 15 and agree.loc["a", "agreement"] == pytest.approx(8 / 15)
    assert agree.loc["b", "agreement"] == 1.0
    assert agree.loc["a", "ci_low"] < 8 / 15 < agree.loc["a", "ci_high"]
    assert agree.loc["a", "kappa_ci_low"] < agree.loc["a", "kappa"] < agree.loc["a", "kappa_ci_high"]
    between = res.frames["annotators"].iloc[0]
    assert (between["annotator_a"], between["annotator_b"], between["n_both"]) == ("a", "b", 10)
    assert between["agreement"] == pytest.approx(0.8)
    human_a = np.array([gold[i] if i < 8 else {"male": "female"}.get(gold[i], "male") for i in range(10)], dtype=object)
    expected = kappa_interval(human_a, gold[:10].astype(object))
    assert (between["kappa"], between["kappa_ci_low"], between["kappa_ci_high"]) == pytest.approx(expected)
    # Corrected with the majority label per item (items 8 and 9 tie between a and b and are left out):
    # reading right on 0-7 (people agree on all 8: p1 = 1), wrong on 3000-3004 (people right on 4: p0 = 0.8).
    row = res.frames["corrected"].iloc[0]
    acc = res.frames["estimates"].iloc[0]["acc"]
    assert row["n_labelled"] == 13
    assert row["acc_corrected"] == pytest.approx(acc * 1.0 + (1 - acc) * 0.8)
    assert row["ci_low"] < row["acc_corrected"] < row["ci_high"]
    assert str(labels) in res.provenance["data"]


def test_users_labels_are_checked_row_by_row(data_dir, tmp_path):
    _, readings, labels = _labelled_run(data_dir, tmp_path)
    frame = pd.read_csv(labels)
    frame.loc[2, "gender"] = "maybe"  # the CSV's line 4 (header on line 1)
    frame.to_csv(tmp_path / "bad.csv", index=False)
    with pytest.raises(DataError, match=r"bad\.csv.*line 4.*'maybe' is not a label"):
        winomt.evaluate(judgements=readings, annotations=tmp_path / "bad.csv", n_boot=200, data_dir=data_dir)
    twice = pd.concat([pd.read_csv(labels), pd.read_csv(labels).iloc[[0]]], ignore_index=True)
    with pytest.raises(DataError, match="already labelled by annotator a on line 2"):
        winomt.evaluate(judgements=readings, annotations=twice, n_boot=200, data_dir=data_dir)
    with pytest.raises(ValueError, match="annotations for theirs/es, which this run does not evaluate"):
        winomt.evaluate(
            judgements=readings, annotations=pd.read_csv(labels).assign(system="theirs"), n_boot=200, data_dir=data_dir
        )

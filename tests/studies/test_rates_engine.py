"""The rates engine (:mod:`stats_mtbias.studies.rates`): group differences, the few-events floor, sample weights.

Each test holds a result to a value computed here by hand (or by an independent
bootstrap of the same design), so that a reversed group-difference interval, a
dropped few-events floor or wrongly scaled sample weights fail it (issue 45).
No dataset is read.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import special, stats

from stats_mtbias.errors import DataQualityWarning, UsageError
from stats_mtbias.studies import prates, rates
from stats_mtbias.studies._common import resample_pvalue
from stats_mtbias.uncertainty.bootstrap import cluster_bootstrap

Z = float(special.ndtri(0.975))


def _groups_frame() -> pd.DataFrame:
    """One system, two languages on disjoint items, one judgement per item: de 60/120/20, fr 30/100/20 (f/m/n)."""
    rows = []
    for lang, (f, m, n) in (("de", (60, 120, 20)), ("fr", (30, 100, 20))):
        genders = ["female"] * f + ["male"] * m + ["neutral"] * n
        rows += [{"system": "s", "item": f"{lang}{i}", "lang": lang, "gender": g} for i, g in enumerate(genders)]
    return pd.DataFrame(rows)


def _hand_modified_wilson(k: float, n: float, level: float = 0.95) -> tuple[float, float]:
    """Wilson's interval widened to Garwood's Poisson bounds (chi-square form) at ten or fewer events (k < n / 2)."""
    z = float(special.ndtri(0.5 + level / 2))
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    alpha = 1 - level
    low, high = centre - half, centre + half
    if k <= 10:
        low = min(low, stats.chi2.ppf(alpha / 2, 2 * k) / 2 / n) if k > 0 else 0.0
        high = max(high, stats.chi2.ppf(1 - alpha / 2, 2 * (k + 1)) / 2 / n)
    return low, high


# ---------------------------------------------------------------- group differences


def test_group_differences_contain_their_estimate_and_match_the_bootstrap_by_hand():
    """Every group difference is ``estimate(group_a) − estimate(group_b)`` and lies inside its interval.

    The interval is the percentile interval of the same cluster bootstrap redrawn here from the same seed
    (exactly), and, independently, within 0.012 of the Wald interval of two independent multinomial samples
    (the groups share no item): the percentile ends' Monte-Carlo SE at 4,000 replicates is about 0.0025,
    their skewness offset from Wald at these sizes about 0.003.
    """
    seed, n_boot = 3, 4000
    result = rates.evaluate(_groups_frame(), by="lang", n_boot=n_boot, rng=seed)
    diffs = result.frames["group_differences"].set_index("metric")
    assert list(diffs.index) == list(rates.METRICS)
    assert set(diffs["group_a"]) == {"de"} and set(diffs["group_b"]) == {"fr"}
    assert (diffs["ci_low"] < diffs["diff"]).all() and (diffs["diff"] < diffs["ci_high"]).all()

    by_hand = {
        "female": (0.30, 0.20),
        "male": (0.60, 100 / 150),
        "neutral": (0.10, 20 / 150),
        "gap": (0.30, (100 - 30) / 150),
    }
    est = result.frames["estimates"].set_index(["group", "metric"])["estimate"]
    for metric, (de, fr) in by_hand.items():
        assert est["de", metric] == pytest.approx(de, abs=1e-12)
        assert diffs.loc[metric, "diff"] == pytest.approx(de - fr, abs=1e-12)

    # Wald of two independent multinomial samples; the gap's variance is (p_m + p_f − gap²) / n.
    var = {
        "female": 0.3 * 0.7 / 200 + 0.2 * 0.8 / 150,
        "male": 0.6 * 0.4 / 200 + (2 / 3) * (1 / 3) / 150,
        "neutral": 0.1 * 0.9 / 200 + (2 / 15) * (13 / 15) / 150,
        "gap": (0.9 - 0.09) / 200 + (130 / 150 - (70 / 150) ** 2) / 150,
    }
    for metric, v in var.items():
        d = by_hand[metric][0] - by_hand[metric][1]
        assert diffs.loc[metric, "ci_low"] == pytest.approx(d - Z * np.sqrt(v), abs=0.012)
        assert diffs.loc[metric, "ci_high"] == pytest.approx(d + Z * np.sqrt(v), abs=0.012)

    # The same bootstrap, by hand: replicates of de − fr and their 2.5% and 97.5% quantiles.
    counts, _, labels, strata, _ = rates.design_arrays(result.frames["judgements"], ["lang"])
    boot = cluster_bootstrap(
        counts, rates.metric_set(counts.shape[-1]).statistic, n_boot=n_boot, rng=np.random.default_rng(seed), strata=strata
    )
    reps = boot.replicates[:, 0, labels.index("de")] - boot.replicates[:, 0, labels.index("fr")]
    low, high = np.quantile(reps, [0.025, 0.975], axis=0)
    np.testing.assert_allclose(diffs["ci_low"].to_numpy(), low, rtol=0, atol=1e-12)
    np.testing.assert_allclose(diffs["ci_high"].to_numpy(), high, rtol=0, atol=1e-12)
    np.testing.assert_allclose(diffs["p_value"].to_numpy(), resample_pvalue(reps, diffs["diff"].to_numpy()), atol=1e-12)
    # Holm within system × metric: one pair of groups per family, so p_adjusted is the p-value.
    np.testing.assert_allclose(diffs["p_adjusted"].to_numpy(), diffs["p_value"].to_numpy(), atol=1e-15)


def test_group_differences_of_three_groups_are_each_ordered_pair_once():
    """Three groups give the pairs (a, b), (a, c), (b, c), each inside its interval and with Holm over the three."""
    frame = _groups_frame()
    extra = pd.DataFrame(
        {"system": "s", "item": [f"it{i}" for i in range(100)], "lang": "it", "gender": ["female"] * 50 + ["male"] * 50}
    )
    result = rates.evaluate(pd.concat([frame, extra], ignore_index=True), by="lang", n_boot=1000, rng=1)
    diffs = result.frames["group_differences"]
    female = diffs[diffs["metric"] == "female"]
    assert list(zip(female["group_a"], female["group_b"])) == [("de", "fr"), ("de", "it"), ("fr", "it")]
    np.testing.assert_allclose(female["diff"].to_numpy(), [0.1, -0.2, -0.3], atol=1e-12)
    assert (diffs["ci_low"] <= diffs["diff"]).all() and (diffs["diff"] <= diffs["ci_high"]).all()
    p = female["p_value"].to_numpy()
    order = np.argsort(p)
    holm = np.maximum.accumulate(np.minimum(1.0, p[order] * np.array([3, 2, 1])))
    expected = np.empty(3)
    expected[order] = holm
    np.testing.assert_allclose(female["p_adjusted"].to_numpy(), expected, atol=1e-15)


# ---------------------------------------------------------------- the few-events floor


def _sampled_frame(n_items: int, split: int, extra: int = 0) -> pd.DataFrame:
    """Items of two samples each: `split` items (female, male), `extra` items (female, female), the rest male."""
    rows = []
    for i in range(n_items):
        pair = ("female", "male") if i < split else ("female", "female") if i < split + extra else ("male", "male")
        rows += [{"system": "s", "item": f"i{i}", "sample": str(j), "gender": g} for j, g in enumerate(pair)]
    return pd.DataFrame(rows)


def test_few_events_with_samples_fall_back_to_the_items_as_outputs():
    """3 of 40 items split (female, male), the rest male: female = 1.5 / 40, an effective 3 events (≤ FEW_EVENTS).

    The samples' design effect is 0.49 (items that disagree are worth more than one output), but with so few
    events the floor takes the worst case: Wilson widened to the Poisson bounds on 1.5 of 40, computed here.
    Without the floor the interval is that of 3.04 of 81.1 effective outputs, a third narrower.
    """
    result = rates.evaluate(_sampled_frame(40, 3), sample="sample", interval="score", rng=0)
    row = result.frames["estimates"].set_index("metric").loc["female"]
    assert row["estimate"] == pytest.approx(1.5 / 40, abs=1e-12)
    low, high = _hand_modified_wilson(1.5, 40.0)
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((low, high), abs=1e-10)
    # The male share, 38.5 / 40, has few *failures*: the same floor, the mirror image of the female interval.
    male = result.frames["estimates"].set_index("metric").loc["male"]
    assert (male["ci_low"], male["ci_high"]) == pytest.approx((1 - high, 1 - low), abs=1e-10)
    # The design effect the floor overrode, by hand: Σ u² · k/(k−1) over the binomial variance.
    p = 1.5 / 40
    u = (np.r_[np.full(3, 0.5), np.zeros(37)] - p) / 40
    deff = np.sum(u**2) * 40 / 39 / (p * (1 - p) / 40)
    assert deff == pytest.approx(0.4929, abs=1e-4)
    narrow = _hand_modified_wilson(1.5 / deff, 40 / deff)
    assert row["ci_high"] - row["ci_low"] > 1.3 * (narrow[1] - narrow[0])


def test_many_events_with_samples_keep_the_design_effect_below_one():
    """12 of 40 items split and 10 more all female: female = 16 / 40, past the floor, so the design effect
    (below 1: disagreeing samples) is used: Wilson on ``16 / deff`` of ``40 / deff``, computed here."""
    result = rates.evaluate(_sampled_frame(40, 12, extra=10), sample="sample", interval="score", rng=0)
    row = result.frames["estimates"].set_index("metric").loc["female"]
    y = np.r_[np.full(12, 0.5), np.ones(10), np.zeros(18)]
    p = y.mean()
    deff = np.sum(((y - p) / 40) ** 2) * 40 / 39 / (p * (1 - p) / 40)
    assert 0.5 < deff < 1
    assert (row["ci_low"], row["ci_high"]) == pytest.approx(_hand_modified_wilson(16 / deff, 40 / deff), abs=1e-10)


# ---------------------------------------------------------------- sample weights


def _unequal_samples() -> pd.DataFrame:
    """Four items of 2, 1, 3 and 4 samples, none unknown: item female shares 1/2, 0, 0, 1."""
    genders = {"i1": ["female", "male"], "i2": ["male"], "i3": ["neutral", "neutral", "male"], "i4": ["female"] * 4}
    return pd.DataFrame(
        [
            {"system": "s", "item": item, "sample": f"k{j}", "gender": g}
            for item, values in genders.items()
            for j, g in enumerate(values)
        ]
    )


def test_unequal_samples_are_averaged_within_their_item():
    """Each item weighs one: female = (1/2 + 0 + 0 + 1) / 4, male = (1/2 + 1 + 1/3 + 0) / 4, neutral = (2/3) / 4;
    ``n`` counts items and ``n_outputs`` the 10 outputs; the unequal numbers of samples are named in a warning."""
    with pytest.warns(DataQualityWarning, match=r"s: clusters have 1–4 samples"):
        result = rates.evaluate(_unequal_samples(), sample="sample", interval="score", rng=0)
    est = result.frames["estimates"].set_index("metric")
    hand = {"female": 1.5 / 4, "male": (0.5 + 1 + 1 / 3) / 4, "neutral": (2 / 3) / 4}
    hand["gap"] = hand["male"] - hand["female"]
    for metric, value in hand.items():
        assert est.loc[metric, "estimate"] == pytest.approx(value, abs=1e-12)
    assert set(est["n"]) == {4} and set(est["n_outputs"]) == {10}
    with pytest.warns(DataQualityWarning, match="1–4 samples"):
        table = rates.read_judgements(
            _unequal_samples(), outcome="gender", system="system", cluster="item", by=[], strata=None, sample="sample"
        )
    n = table.set_index(["cluster", "gender"])["n"]
    assert n["i1", "female"] == pytest.approx(0.5) and n["i3", "neutral"] == pytest.approx(2 / 3)
    assert n["i4", "female"] == pytest.approx(1.0) and n["i2", "male"] == pytest.approx(1.0)


def test_equal_samples_weigh_like_one_output_each():
    """Two samples per item everywhere: the shares are the pooled ones, and no warning is given."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", DataQualityWarning)
        result = rates.evaluate(_sampled_frame(10, 4, extra=2), sample="sample", interval="score", rng=0)
    est = result.frames["estimates"].set_index("metric")["estimate"]
    assert est["female"] == pytest.approx((4 * 0.5 + 2) / 10, abs=1e-12)


def test_prates_sample_weights_are_one_over_each_outputs_samples():
    """Prates weighs each of an output's ``k`` samples ``1/k`` (k = 2, 1, 3): the weighted female count of an
    item is its female share, and the split flag marks items whose samples disagree."""
    frame = pd.DataFrame(
        {
            "system": "s",
            "item": ["a", "a", "b", "c", "c", "c"],
            "language": "tr",
            "variant": "",
            "sample": ["1", "2", "1", "1", "2", "3"],
            "gender": ["female", "male", "male", "female", "female", "male"],
        }
    )
    with pytest.warns(DataQualityWarning, match="1–3 samples"):
        out = prates.sample_weights(frame)
    np.testing.assert_allclose(out["n"].to_numpy(), [0.5, 0.5, 1.0, 1 / 3, 1 / 3, 1 / 3], atol=1e-15)
    assert out["_split"].tolist() == [True, True, False, True, True, True]
    female = out[out["gender"] == "female"].groupby("item")["n"].sum()
    assert female.to_dict() == pytest.approx({"a": 0.5, "c": 2 / 3})


# ---------------------------------------------------------------- analytic gap and group families


def test_analytic_gap_is_the_stratified_cluster_robust_normal_interval_by_hand():
    """The gap (male − female) of ``interval="score"``: gap ± z·se, se² = Σ_h k_h/(k_h − 1) Σ_{i∈h} (u_i − ū_h)²,
    u_i = (y_i − gap·m_i) / N with y_i = +1 male, −1 female, 0 neutral, at level 0.90 (z = 1.645).

    Stratum A: 12 female, 15 male, 3 neutral; stratum B: 4 female, 14 male, 2 neutral; one output per item."""
    rows, y = [], []
    for stratum, (f, m, n) in (("A", (12, 15, 3)), ("B", (4, 14, 2))):
        genders = ["female"] * f + ["male"] * m + ["neutral"] * n
        rows += [{"system": "s", "item": f"{stratum}{i}", "st": stratum, "gender": g} for i, g in enumerate(genders)]
        y.append(np.r_[-np.ones(f), np.ones(m), np.zeros(n)])
    result = rates.evaluate(pd.DataFrame(rows), strata="st", interval="score", level=0.90, rng=0)
    row = result.frames["estimates"].set_index("metric").loc["gap"]
    total = sum(len(v) for v in y)
    gap = sum(v.sum() for v in y) / total
    assert row["estimate"] == pytest.approx(gap, abs=1e-12) == pytest.approx(13 / 50)
    var = 0.0
    for v in y:
        u = (v - gap) / total
        var += len(u) / (len(u) - 1) * np.sum((u - u.mean()) ** 2)
    z = float(special.ndtri(0.95))
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((gap - z * np.sqrt(var), gap + z * np.sqrt(var)), abs=1e-12)
    # Without strata the variance is the pooled one: a different (here wider) interval.
    pooled = (
        rates.evaluate(pd.DataFrame(rows), interval="score", level=0.90, rng=0).frames["estimates"].set_index("metric").loc["gap"]
    )
    u = (np.concatenate(y) - gap) / total
    se = np.sqrt(total / (total - 1) * np.sum(u**2))
    assert pooled["ci_high"] == pytest.approx(gap + z * se, abs=1e-12) and pooled["ci_high"] > row["ci_high"]


def test_group_differences_family_named_and_bh():
    """``family=["metric"]`` (a list) makes each system × metric a family, as ``"metric"`` does; with
    ``correction="bh"`` the three group pairs of a metric get Benjamini–Hochberg's adjustment, by hand."""
    frame = _groups_frame()
    extra = pd.DataFrame(
        {"system": "s", "item": [f"it{i}" for i in range(100)], "lang": "it", "gender": ["female"] * 50 + ["male"] * 50}
    )
    result = rates.evaluate(
        pd.concat([frame, extra], ignore_index=True), by="lang", n_boot=500, rng=2, correction="bh", family=["metric"]
    )
    diffs = result.frames["group_differences"]
    # Each family is labelled by its system and metric, with its size (the three group pairs of one metric).
    assert set(diffs["family"]) == {f"s / {m} (3 comparisons)" for m in ("female", "male", "neutral", "gap")}
    for _, part in diffs.groupby("metric"):
        p = part["p_value"].to_numpy()
        order = np.argsort(p)[::-1]
        bh = np.minimum.accumulate(np.minimum(1.0, p[order] * 3 / np.array([3, 2, 1])))
        expected = np.empty(3)
        expected[order] = bh
        np.testing.assert_allclose(part["p_adjusted"].to_numpy(), expected, atol=1e-15)


def test_the_few_events_count_is_taken_on_the_effective_outputs():
    """4 of 40 items split and 8 all female: female = 10 / 40 with design effect 0.889, so the effective minority
    count is 10 / 0.889 = 11.25 — past FEW_EVENTS (it would be 8.9 if the design effect multiplied instead of
    divided): Wilson on 10 / deff of 40 / deff, computed here."""
    result = rates.evaluate(_sampled_frame(40, 4, extra=8), sample="sample", interval="score", rng=0)
    row = result.frames["estimates"].set_index("metric").loc["female"]
    y = np.r_[np.full(4, 0.5), np.ones(8), np.zeros(28)]
    p = y.mean()
    deff = np.sum(((y - p) / 40) ** 2) * 40 / 39 / (p * (1 - p) / 40)
    assert deff == pytest.approx(0.8889, abs=1e-4) and 10 / deff > 10 >= 10 * deff
    assert (row["ci_low"], row["ci_high"]) == pytest.approx(_hand_modified_wilson(10 / deff, 40 / deff), abs=1e-10)


def test_a_gap_of_one_gets_the_mover_of_its_shares_by_hand():
    """30 items, every output male: the gap is 1 and its normal interval a point, so MOVER of the two shares'
    intervals stands in, the shares moving together exactly (correlation −1, no neutral outputs): with the female
    share's upper bound u (Wilson widened to Garwood's 3.689 / 30 at 0 events) the gap's interval is
    [1 − 2u, 1]. All female: the mirror image, [−1, −1 + 2u]. The bootstrap, a point there too, gets the same."""
    _, u = _hand_modified_wilson(0.0, 30.0)
    assert u == pytest.approx(stats.chi2.ppf(0.975, 2) / 2 / 30)
    for gender, expected in (("male", (1 - 2 * u, 1.0)), ("female", (-1.0, -1 + 2 * u))):
        frame = pd.DataFrame({"system": "s", "item": [f"i{k}" for k in range(30)], "gender": gender})
        for ci in ("score", "percentile"):
            row = rates.evaluate(frame, interval=ci, n_boot=200, rng=0).frames["estimates"].set_index("metric").loc["gap"]
            assert row["estimate"] == (1.0 if gender == "male" else -1.0)
            assert (row["ci_low"], row["ci_high"]) == pytest.approx(expected, abs=1e-12), (gender, ci)


def test_the_judgement_table_with_samples_weighs_each_item_one_by_hand():
    """Items c1 (female, male), c2 (male, male), c3 (female, unknown): a known sample weighs 1 / (the item's known
    samples), an unknown one 0; ``outputs`` keeps the rows and ``line`` the first line of each cell."""
    frame = pd.DataFrame(
        {
            "system": ["a"] * 6,
            "cluster": ["c1", "c1", "c2", "c2", "c3", "c3"],
            "s": ["0", "1"] * 3,
            "gender": ["female", "male", "male", "male", "female", "unknown"],
        }
    )
    table = rates.evaluate(frame, cluster="cluster", sample="s", interval="score").frames["judgements"]
    assert list(table.columns) == ["system", "cluster", "stratum", "gender", "n", "outputs", "line"]
    assert table["cluster"].tolist() == ["c1", "c1", "c2", "c3", "c3"]
    assert table["gender"].astype(str).tolist() == ["female", "male", "male", "female", "unknown"]
    assert table["n"].tolist() == [0.5, 0.5, 1.0, 1.0, 0.0]
    assert table["outputs"].tolist() == [1, 1, 2, 1, 1] and table["line"].tolist() == [2, 3, 4, 6, 7]


@pytest.mark.parametrize(("cluster", "units", "per_unit"), [("cluster", 40, 4.0), (None, 320, 0.5)])
def test_a_pilot_of_clusters_resamples_clusters_and_a_table_of_judgements_judgements(cluster, units, per_unit):
    """Four identical judgements per cluster and system, 40 clusters, two systems: with ``cluster`` the pilot
    resamples the 40 clusters, each holding 4 outputs of a system; without one each of the 320 judgements is its
    own cluster (one output of one of the two systems: 0.5 a system)."""
    rng = np.random.default_rng(0)
    rows = []
    for c in range(40):
        for system, female in (("a", 0.3), ("b", 0.5)):
            rows += [(system, f"c{c}", "female" if rng.random() < female else "male")] * 4
    frame = pd.DataFrame(rows, columns=["system", "cluster", "gender"])
    kind, design = rates.pilot(rates.evaluate(frame, cluster=cluster, interval="score"))
    assert kind == "simulate" and len(design.counts) == units
    assert design.outputs_per_cluster == pytest.approx(per_unit, abs=1e-12)


def test_a_table_without_systems_is_one_system_named_system_and_analytic_comparisons_name_their_method():
    """No ``system`` column: every judgement is of one system, ``system``. Two systems compared with
    ``interval="score"``: the paired difference's interval and p-value are the cluster-robust normal ones."""
    frame = pd.DataFrame({"gender": ["female", "male", "male", "neutral"] * 5})
    alone = rates.evaluate(frame, system=None, cluster=None, interval="score")
    assert set(alone.table["system"]) == {"system"}
    assert alone.table.set_index("metric").loc["female", "estimate"] == pytest.approx(0.25, abs=1e-12)
    pair = pd.concat([frame.assign(system="a"), frame.assign(system="b", gender=frame["gender"][::-1].to_numpy())])
    compared = rates.evaluate(pair, cluster=None, interval="score").compare()
    assert set(compared["method"]) == {"cluster-robust normal"} and set(compared["ci_method"]) == {"cluster-robust normal"}


def test_bad_resample_counts_and_interval_kinds_are_errors_naming_the_option():
    """At least 100 bootstrap resamples (the one minimum); an analytic run does not resample, so ``n_boot`` is not
    held to it there; an interval kind that is not one is an error naming ``interval``."""
    frame = pd.DataFrame({"system": ["a", "b"] * 20, "gender": ["female", "male", "male", "neutral"] * 10})
    with pytest.raises(UsageError, match="n_boot"):
        rates.evaluate(frame, cluster=None, interval="percentile", n_boot=99)
    analytic = rates.evaluate(frame, cluster=None, interval="score", n_boot=50)
    assert analytic.table.set_index(["system", "metric"]).loc[("a", "female"), "estimate"] == pytest.approx(0.5)
    with pytest.raises(UsageError, match=r"^`interval` must be one of"):
        rates.evaluate(frame, cluster=None, interval="normal")


def _zero_female(s: str, i: int, k: int) -> str:
    return "male" if (i + k) % 4 else "neutral"


def _same_in_both(s: str, i: int, k: int) -> str:
    return "female" if (k == 0) != (i % 2 == 0) or (k == 1 and i % 3 == 0) else "male"


@pytest.mark.parametrize("gender", [_zero_female, _same_in_both])
def test_a_difference_the_same_in_every_replicate_takes_the_mover_of_the_systems_own_intervals(gender):
    """40 items of 3 samples each; the female share's difference is the same in every replicate and influence
    (no female output in either system; or both systems give the same outputs, items 1/3 or 2/3 female), so its
    interval is Newcombe's MOVER of the two systems' own score intervals — the analytic estimates' bounds, which
    with samples rest on the items' averages (design effect below 1 where the samples of an item disagree) — never a
    point: [d − √((e_a − l_a)² + (h_b − e_b)²), d + √((h_a − e_a)² + (e_b − l_b)²)]."""
    rows = [(s, f"i{i}", str(k), gender(s, i, k)) for s in "ab" for i in range(40) for k in range(3)]
    frame = pd.DataFrame(rows, columns=["system", "item", "draw", "gender"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataQualityWarning)  # two systems with the same outputs: named elsewhere
        result = rates.evaluate(frame, cluster="item", sample="draw", interval="percentile", n_boot=200, rng=0)
        score = rates.evaluate(frame, cluster="item", sample="draw", interval="score")  # the score intervals
    est = score.table.set_index(["system", "metric"])
    (ea, la, ha), (eb, lb, hb) = (est.loc[(s, "female"), ["estimate", "ci_low", "ci_high"]] for s in "ab")
    female = result.compare().set_index("metric").loc["female"]
    assert female["diff"] == 0 and ha > ea
    low, high = -np.sqrt((ea - la) ** 2 + (hb - eb) ** 2), np.sqrt((ha - ea) ** 2 + (eb - lb) ** 2)
    assert (female["ci_low"], female["ci_high"]) == pytest.approx((low, high), abs=1e-12)


def test_the_shared_clusters_comparison_resamples_within_strata():
    """System b lacks the five clusters of stratum z. On the clusters both have, stratum u is all (a female,
    b male) and stratum v all (a male, b male): resampled within strata every replicate is the data itself, so the
    bootstrap interval is a point and gives way to the MOVER of the score intervals, as the analytic run's does
    (its stratified variance is 0 too); resampled across strata (strata ignored) the replicates would vary."""
    rows = [("a", f"u{i}", "u", "female") for i in range(12)] + [("b", f"u{i}", "u", "male") for i in range(12)]
    rows += [(s, f"v{i}", "v", "male") for s in "ab" for i in range(12)]
    rows += [("a", f"z{i}", "z", "female" if i % 2 else "male") for i in range(5)]
    frame = pd.DataFrame(rows, columns=["system", "item", "stratum", "gender"])
    with pytest.warns(DataQualityWarning, match="b 5 of a's"):
        boot = rates.evaluate(frame, strata="stratum", interval="percentile", n_boot=200, rng=0).compare()
    with pytest.warns(DataQualityWarning, match="b 5 of a's"):
        analytic = rates.evaluate(frame, strata="stratum", interval="score").compare()
    female = boot.set_index("metric").loc["female"]
    assert female["diff"] == pytest.approx(0.5, abs=1e-12) and female["ci_high"] > female["ci_low"]
    np.testing.assert_allclose(boot[["ci_low", "ci_high"]], analytic[["ci_low", "ci_high"]], rtol=0, atol=1e-12)


def test_shares_with_many_events_keep_their_bootstrap_interval():
    """Every share here has at least 20 events each way (the fewest: 20 neutral of 150 in fr), above FEW_EVENTS,
    so each estimate's interval is the percentile interval of the cluster bootstrap, redrawn here from the same
    seed (exactly), not the score interval that stands in for few events."""
    seed, n_boot = 5, 1000
    result = rates.evaluate(_groups_frame(), by="lang", n_boot=n_boot, rng=seed)
    est = result.frames["estimates"].set_index(["group", "metric"])
    counts, _, labels, strata, _ = rates.design_arrays(result.frames["judgements"], ["lang"])
    boot = cluster_bootstrap(
        counts, rates.metric_set(counts.shape[-1]).statistic, n_boot=n_boot, rng=np.random.default_rng(seed), strata=strata
    )
    for label in ("de", "fr"):
        low, high = np.quantile(boot.replicates[:, 0, labels.index(label)], [0.025, 0.975], axis=0)
        rows = est.loc[label].loc[list(rates.METRICS)]
        np.testing.assert_allclose(rows["ci_low"], low, rtol=0, atol=1e-12)
        np.testing.assert_allclose(rows["ci_high"], high, rtol=0, atol=1e-12)

"""Several outputs per item (issue 37): samples clustered in items.

- With one sample per item every number is today's (exactly).
- Duplicating every sample k times narrows no interval and lowers no p-value —
  and the check used for it does fail on an analysis that counts samples as items.
- Coverage of Wilson on the effective sample size (a share of item means) and
  size of the clustered McNemar test (Durkalski's statistic through Tango's
  table), k from 1 to 20, near 0, near 1 and in between, small sets and WinoMT's
  size, two-sided (each tail counted); the Monte-Carlo error is asserted to be
  below a third of the band. The long grids are ``slow``.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import stats_mtbias as smb
from stats_mtbias.errors import DataError, DataQualityWarning
from stats_mtbias.significance.mcnemar import paired_difference_test
from stats_mtbias.uncertainty.analytic import modified_wilson_interval
from stats_mtbias.uncertainty.clustered import clustered_paired_table, effective_counts
from stats_mtbias.uncertainty.differences import paired_difference_interval
from tests.statistical._samples import beta_items, item_means, mc_error, not_narrower, sampled_winomt, winomt_gold

LEVEL = 0.95
BAND = 0.025  # |coverage − 0.95| and size − 0.05 allowed (the k = 1 Wilson/McNemar stray this far too)
TABLE_KEYS = ["system", "language", "subset", "metric"]
PAIR_KEYS = ["system_a", "system_b", "language", "subset", "metric"]


@pytest.fixture(scope="module")
def gold(data_dir):
    return winomt_gold(data_dir)


def _winomt(judgements, **options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataQualityWarning)
        return smb.winomt(judgements=judgements, n_boot=400, rng=3, **options)


# ---------------------------------------------------------------- k = 1: today's numbers


def test_one_sample_gives_the_counts():
    rng = np.random.default_rng(0)
    y = (rng.random((200, 3)) < 0.3).astype(float)
    x, n = effective_counts(y, np.ones_like(y))
    np.testing.assert_array_equal(x, y.sum(axis=0))
    np.testing.assert_array_equal(n, np.full(3, 200.0))
    z = (rng.random((200, 3)) < 0.4).astype(float)
    table = clustered_paired_table(y, z)
    expected = (np.sum(y * z, 0), np.sum(y * (1 - z), 0), np.sum((1 - y) * z, 0), np.sum((1 - y) * (1 - z), 0))
    for got, want in zip(table, expected, strict=True):
        np.testing.assert_array_equal(got, want)


def test_winomt_with_one_sample_is_todays(gold):
    rng = np.random.default_rng(1)
    j = sampled_winomt(gold.sample(300, random_state=1), {"a": (1.5, 0.5), "b": (1.2, 0.6)}, k=1, rng=rng)
    plain, sampled = _winomt(j.drop(columns="sample")), _winomt(j, sample="sample")
    pd.testing.assert_frame_equal(plain.table, sampled.table, check_exact=True)
    pd.testing.assert_frame_equal(plain.compare(), sampled.compare(), check_exact=True)
    assert "consistency" not in sampled.frames


# ---------------------------------------------------------------- duplication


def test_duplicating_samples_narrows_nothing(gold):
    rng = np.random.default_rng(2)
    j = sampled_winomt(gold.sample(400, random_state=2), {"a": (1.5, 0.5), "b": (1.0, 0.8)}, k=3, rng=rng)
    once = _winomt(j, sample="sample")
    for copies in (2, 5):
        dup = pd.concat([j.assign(sample=j["sample"] + f"/{c}") for c in range(copies)], ignore_index=True)
        again = _winomt(dup, sample="sample")
        assert not_narrower(once.table, again.table, keys=TABLE_KEYS) == []
        assert not_narrower(once.compare(), again.compare(), keys=PAIR_KEYS) == []
        pd.testing.assert_frame_equal(once.table, again.table)  # the item means are the same: so is every number


def test_the_duplication_check_can_fail():
    """Counting every output as its own unit (rates without a cluster) narrows under duplication: caught."""
    rng = np.random.default_rng(4)
    rows = pd.DataFrame(
        {"item": np.repeat(np.arange(200), 3), "system": "a", "gender": np.where(rng.random(600) < 0.4, "female", "male")}
    )
    kw = dict(interval="score", cluster=None, rng=0)
    once = smb.rates(rows, **kw).table
    twice = smb.rates(pd.concat([rows, rows], ignore_index=True), **kw).table
    assert not_narrower(once, twice, keys=TABLE_KEYS) != []
    rows["sample"] = np.tile(["0", "1", "2"], 200)
    for ci in ("analytic", "bootstrap"):
        clustered = dict(
            interval="score" if ci == "analytic" else "percentile", cluster="item", sample="sample", rng=0, n_boot=500
        )
        doubled = pd.concat([rows, rows.assign(sample=rows["sample"] + "b")], ignore_index=True)
        assert not_narrower(smb.rates(rows, **clustered).table, smb.rates(doubled, **clustered).table, keys=TABLE_KEYS) == []


# ---------------------------------------------------------------- reading


def test_repeated_items_need_a_sample_column(gold, tmp_path):
    rng = np.random.default_rng(5)
    j = sampled_winomt(gold.head(50), {"llm": (1.0, 1.0)}, k=3, rng=rng)
    path = tmp_path / "j.csv"
    j.to_csv(path, index=False)
    with pytest.raises(DataError, match=r"already given on line 2 \(several outputs per item\? .*sample="):
        _winomt(path)
    j.iloc[[0, 0]].to_csv(path, index=False)
    with pytest.raises(DataError, match=r"item .* sample 0 of llm/es was already given on line 2"):
        _winomt(path, sample="sample")


def test_unequal_samples_are_averaged_with_a_warning(gold):
    rng = np.random.default_rng(6)
    sub = gold.head(60)
    j = sampled_winomt(sub, {"llm": (1.0, 1.0)}, k=np.r_[np.full(30, 2), np.full(30, 5)], rng=rng)
    # Known samples counted (2% are unknown: absent, the one rule), so an item of 2 may have 1.
    with pytest.warns(DataQualityWarning, match="items have [12]–5 samples; each item's samples are averaged"):
        res = smb.winomt(judgements=j, sample="sample", n_boot=200, rng=0)
    known = j[j["gender"] != "unknown"]
    right = known["gender"] == known["item"].map(sub.set_index("item")["gold"])
    per_item = right.groupby(known["item"]).mean().reindex(sub["item"]).fillna(0.0)  # no known sample: wrong
    acc = res.table.query("metric == 'acc'")["estimate"].iloc[0]
    assert acc == pytest.approx(per_item.mean(), abs=1e-12)


def test_consistency_frame(gold):
    items = gold[gold["gold"] == "male"].head(4)["item"].to_numpy()
    genders = [["male", "male"], ["male", "female"], ["female", "female"], ["male", "unknown"]]
    j = pd.DataFrame(
        [(i, "llm", "es", g, s) for i, gs in zip(items, genders, strict=True) for s, g in enumerate(gs)],
        columns=["item", "system", "language", "gender", "sample"],
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataQualityWarning)
        res = smb.winomt(judgements=j, sample="sample", n_boot=100, rng=0)
    row = res.frames["consistency"].query("gold == 'all'").iloc[0]
    # The known samples (item 4's unknown one is absent): 2, 2, 2, 1.
    assert row["n"] == 4 and row["samples"] == 1.75 and row["n_several"] == 3
    assert row["disagree"] == pytest.approx(1 / 3)  # item 2 of items 1-3
    assert row["female"] == pytest.approx((0 + 0.5 + 1 + 0) / 4)
    assert row["female_ci_low"] <= row["female"] <= row["female_ci_high"]


# ---------------------------------------------------------------- coverage and size


def _coverage(n, mean, icc, k, m, rng):
    y = item_means(beta_items(mean, icc, (n, m), rng), k, rng)
    x, size = effective_counts(y, np.ones_like(y), level=LEVEL)
    ci = modified_wilson_interval(x, size, LEVEL)
    return float(np.mean(ci.low > mean)), float(np.mean(ci.high < mean))


def _size(n, mean, icc, k, m, rng):
    pi = beta_items(mean, icc, (n, m), rng)
    a, b = item_means(pi, k, rng), item_means(pi, k, rng)  # the same propensities: H0, paired through the items
    p = paired_difference_test(*clustered_paired_table(a, b), method="tango").pvalue
    up = (p < 1 - LEVEL) & (a.mean(0) > b.mean(0))
    return float(np.mean(up)), float(np.mean((p < 1 - LEVEL) & ~up))


def _check_coverage(n, mean, icc, k, m, rng):
    below, above = _coverage(n, mean, icc, k, m, rng)
    coverage = 1 - below - above
    assert mc_error(LEVEL, m) < BAND / 3
    label = f"n={n} mean={mean} icc={icc} k={k}: coverage {coverage:.3f} ({below:.3f} above / {above:.3f} below)"
    assert coverage >= LEVEL - BAND, label
    assert max(below, above) <= (1 - LEVEL) / 2 + BAND, label
    if n * min(mean, 1 - mean) >= 50:  # away from the boundary also not needlessly wide
        assert coverage <= LEVEL + BAND, label


def _check_size(n, mean, icc, k, m, rng):
    up, down = _size(n, mean, icc, k, m, rng)
    assert mc_error(1 - LEVEL, m) < BAND / 3
    label = f"n={n} mean={mean} icc={icc} k={k}: size {up + down:.3f} ({up:.3f} / {down:.3f})"
    assert up + down <= 1 - LEVEL + BAND, label
    assert max(up, down) <= (1 - LEVEL) / 2 + BAND, label


@pytest.mark.parametrize("k", [1, 5, 20])
@pytest.mark.parametrize("mean", [0.1, 0.5, 0.95])
def test_coverage_fast(k, mean):
    _check_coverage(100, mean, 0.3, k, 2000, np.random.default_rng([k, int(mean * 100)]))


@pytest.mark.parametrize("k", [1, 5, 20])
@pytest.mark.parametrize("mean", [0.05, 0.5])
def test_size_fast(k, mean):
    _check_size(100, mean, 0.3, k, 2000, np.random.default_rng([k, int(mean * 100), 1]))


def test_interval_and_test_agree():
    """The clustered Tango interval excludes 0 exactly when the clustered McNemar p < 1 − level."""
    rng = np.random.default_rng(7)
    pi = beta_items(0.5, 0.3, (80, 400), rng)
    a, b = item_means(np.clip(pi + 0.08, 0, 1), 5, rng), item_means(pi, 5, rng)
    table = clustered_paired_table(a, b)
    p = paired_difference_test(*table, method="tango").pvalue
    ci = paired_difference_interval(*table, level=LEVEL, method="tango")
    excluded = (ci.low > 0) | (ci.high < 0)
    far = np.abs(p - (1 - LEVEL)) > 1e-6
    np.testing.assert_array_equal(excluded[far], (p < 1 - LEVEL)[far])


GRID_K = [1, 2, 5, 10, 20]


@pytest.mark.slow
@pytest.mark.parametrize("n", [30, 100, 3888])
def test_coverage_grid(n):
    """Wilson on the effective size, every k × mean × ICC; 3,888 items: WinoMT's size."""
    m = 2000 if n < 3888 else 1000
    rng = np.random.default_rng(n)
    means, iccs = ((0.02, 0.1, 0.5, 0.9, 0.98), (0.05, 0.3, 0.8)) if n < 3888 else ((0.02, 0.5, 0.98), (0.05, 0.8))
    for mean in means:
        for icc in iccs:
            for k in GRID_K:
                if n == 3888:
                    below, above = _coverage(n, mean, icc, k, m, rng)
                    assert abs(1 - below - above - LEVEL) <= BAND, (n, mean, icc, k, below, above)
                else:
                    _check_coverage(n, mean, icc, k, m, rng)


@pytest.mark.slow
@pytest.mark.parametrize("n", [30, 100, 1000])
def test_size_grid(n):
    """The clustered McNemar test, every k × mean × ICC."""
    rng = np.random.default_rng(n + 1)
    for mean in (0.02, 0.1, 0.5, 0.9, 0.98):
        for icc in (0.05, 0.3, 0.8):
            for k in GRID_K:
                _check_size(n, mean, icc, k, 2000, rng)


@pytest.mark.slow
@pytest.mark.parametrize("n", [50, 400])
def test_difference_coverage_grid(n):
    """The clustered Tango interval of a paired difference covers it under an alternative (both tails)."""
    rng = np.random.default_rng(n + 2)
    m = 1000
    for mean, shift in ((0.5, 0.1), (0.9, 0.05), (0.1, 0.05)):
        for k in GRID_K:
            pi = beta_items(mean, 0.3, (n, m), rng)
            other = np.clip(pi + shift, 0, 1)
            truth = float(np.mean(other) - np.mean(pi))  # population difference (Monte-Carlo over m·n items)
            a, b = item_means(other, k, rng), item_means(pi, k, rng)
            ci = paired_difference_interval(*clustered_paired_table(a, b), level=LEVEL, method="tango")
            below, above = float(np.mean(ci.low > truth)), float(np.mean(ci.high < truth))
            assert 1 - below - above >= LEVEL - BAND - 3 * mc_error(LEVEL, m), (n, mean, k, below, above)
            assert max(below, above) <= (1 - LEVEL) / 2 + BAND, (n, mean, k, below, above)


# ---------------------------------------------------------------- TGBI, rates: the same rules


def _tgbi_outputs(k, rng, n_items=60):
    sets = ["formal", "informal"]
    rows = []
    for system, shift in (("a", 0.0), ("b", 0.6)):
        lean = rng.normal(shift, 1.5, n_items)  # an item's own lean to "he", shared by sets and samples
        for s in sets:
            p_male = 1 / (1 + np.exp(-lean))
            draws = rng.random((n_items, k))
            neutral = rng.random((n_items, k)) < 0.2
            gender = np.where(neutral, "neutral", np.where(draws < p_male[:, None], "male", "female"))
            for i in range(n_items):
                rows += [(system, s, f"w{i}", str(j), gender[i, j]) for j in range(k)]
    return pd.DataFrame(rows, columns=["system", "set", "item", "sample", "gender"])


@pytest.mark.parametrize("ci", ["analytic", "bootstrap"])
def test_tgbi_duplicating_samples_narrows_nothing(ci):
    frame = _tgbi_outputs(3, np.random.default_rng(8))
    kw = dict(systems=[], sample="sample", interval="score" if ci == "analytic" else "percentile", n_boot=400, rng=0)
    once = smb.tgbi(outputs=frame, **kw)
    doubled = pd.concat([frame, frame.assign(sample=frame["sample"] + "b")], ignore_index=True)
    again = smb.tgbi(outputs=doubled, **kw)
    assert not_narrower(once.table, again.table, keys=TABLE_KEYS, tol=1e-9) == []
    assert not_narrower(once.compare(), again.compare(), keys=PAIR_KEYS, tol=1e-9) == []


def test_tgbi_one_sample_is_todays():
    frame = _tgbi_outputs(1, np.random.default_rng(9))
    kw = dict(systems=[], interval="score", rng=0)
    pd.testing.assert_frame_equal(
        smb.tgbi(outputs=frame.drop(columns="sample"), **kw).table, smb.tgbi(outputs=frame, sample="sample", **kw).table
    )


def test_tgbi_unequal_samples_are_averaged():
    frame = _tgbi_outputs(4, np.random.default_rng(10))
    frame = frame[~((frame["item"].isin(["w1", "w2", "w3"])) & (frame["sample"] != "0"))]
    with pytest.warns(DataQualityWarning, match="items have 1–4 samples; each item's samples are averaged"):
        smb.tgbi(outputs=frame, systems=[], sample="sample", interval="score", rng=0)


def test_rates_one_sample_is_todays():
    rng = np.random.default_rng(11)
    rows = pd.DataFrame(
        {"item": np.arange(300), "system": "a", "sample": "0", "gender": np.where(rng.random(300) < 0.3, "female", "male")}
    )
    for ci in ("analytic", "bootstrap"):
        kw = dict(interval="score" if ci == "analytic" else "percentile", n_boot=300, rng=0)
        pd.testing.assert_frame_equal(smb.rates(rows, **kw).table, smb.rates(rows, sample="sample", **kw).table)

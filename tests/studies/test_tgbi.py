"""The TGBI study's counting (:mod:`stats_mtbias.studies.tgbi`): the few-events fallback and sample weights.

A benchmark of one's own (genders given) on a handful of items; every value is computed here by hand.
No dataset is read.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import special, stats

from stats_mtbias.datasets import tgbi as tgbi_data
from stats_mtbias.errors import DataQualityWarning, UsageError
from stats_mtbias.studies import tgbi


def _hand_modified_wilson(k: float, n: float, level: float = 0.95) -> tuple[float, float]:
    """Wilson's interval widened to Garwood's Poisson bounds (chi-square form) at ten or fewer events (k < n / 2)."""
    z = float(special.ndtri(0.5 + level / 2))
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    low, high = centre - half, centre + half
    if k <= 10:
        low = min(low, stats.chi2.ppf((1 - level) / 2, 2 * k) / 2 / n) if k > 0 else 0.0
        high = max(high, stats.chi2.ppf(1 - (1 - level) / 2, 2 * (k + 1)) / 2 / n)
    return low, high


def _benchmark(rows: list[tuple[str, str, str, str]]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["system", "set", "item", "gender"])


def _analyse(outputs: pd.DataFrame, **options):
    judgements, _ = tgbi.load_judgements([], outputs=outputs, sample=options.pop("sample", None))
    return tgbi.analyse(judgements, compare=False, **options)[0].set_index("subset")


def test_a_set_with_few_minority_outputs_keeps_the_score_interval_under_the_bootstrap():
    """Set ``a``: 48 male and 2 neutral outputs on 50 items (one each): g = P_S² = 0.04, two minority outputs,
    at most BOUNDARY_COUNT, so ``interval="percentile"`` keeps the score interval and ``ci_method`` says ``score``.

    The score interval by hand: the design effect of one output per item is k/(k − 1) = 50/49 (the worst case,
    one output per item, is 1), so n_eff = 49 and the interval is the square root of Wilson widened to the
    Poisson bounds on 0.04 · 49 of 49. Set ``b`` (30 female, 30 male on 60 items) has 15 effective minority
    outputs and gets the bootstrap."""
    rows = [("s", "a", f"x{i}", "neutral" if i < 2 else "male") for i in range(50)]
    rows += [("s", "b", f"y{i}", "female" if i < 30 else "male") for i in range(60)]
    est = _analyse(_benchmark(rows), interval="percentile", n_boot=1000, rng=0)
    a, b = est.loc["a"], est.loc["b"]
    assert a["p_s"] == pytest.approx(0.2, abs=1e-12) and b["p_s"] == pytest.approx(0.5, abs=1e-12)
    assert a["ci_method"] == "score"
    assert b["ci_method"] == "bootstrap percentile" and est.loc["TGBI", "ci_method"] == "bootstrap percentile"
    low, high = _hand_modified_wilson(0.04 * 49, 49)
    assert (a["ci_low"], a["ci_high"]) == pytest.approx((np.sqrt(low), np.sqrt(high)), abs=1e-10)
    # The analytic run gives set a the same interval, named "score" too; the index is MOVER's.
    analytic = _analyse(_benchmark(rows), interval="score")
    assert analytic.loc["a", ["ci_low", "ci_high"]].tolist() == pytest.approx([np.sqrt(low), np.sqrt(high)], abs=1e-10)
    assert analytic["ci_method"].tolist() == ["score", "score", "MOVER"]


def test_ten_minority_outputs_is_still_few_and_eleven_is_not():
    """The boundary BOUNDARY_COUNT itself: with one output per item the effective minority count is
    ``minority · (k − 1) / k``, so 10 neutral of 200 (9.95) keeps the score interval and 11 (10.945) does not."""
    assert tgbi.BOUNDARY_COUNT == 10
    for neutral, method in ((10, "score"), (11, "bootstrap percentile")):
        rows = [("s", "a", f"x{i}", "neutral" if i < neutral else "male") for i in range(200)]
        est = _analyse(_benchmark(rows), interval="percentile", n_boot=200, rng=0)
        assert est.loc["a", "ci_method"] == method, neutral


def _sampled(rows: dict[str, list[str]]) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {"system": "s", "set": "a", "item": item, "sample": str(j), "gender": g}
            for item, genders in rows.items()
            for j, g in enumerate(genders)
        ]
    )


def test_unequal_samples_are_averaged_within_their_item():
    """Items of 2, 1 and 3 samples, none unknown — (female, male), (male), (neutral, neutral, male): each item
    weighs one, so the shares are the means of the items' shares, female 1/6, male (1/2 + 1 + 1/3)/3 = 11/18,
    neutral 2/9, and P_S = sqrt(p_w p_m + p_n). The unequal numbers are named in a warning."""
    outputs = _sampled({"i1": ["female", "male"], "i2": ["male"], "i3": ["neutral", "neutral", "male"]})
    with pytest.warns(DataQualityWarning, match="TGBI: items have 1–3 samples"):
        est = _analyse(outputs, sample="sample")
    a = est.loc["a"]
    assert (a["female"], a["male"], a["neutral"]) == pytest.approx((1 / 6, 11 / 18, 2 / 9), abs=1e-12)
    assert a["p_s"] == pytest.approx(np.sqrt(1 / 6 * 11 / 18 + 2 / 9), abs=1e-12)
    assert a["n"] == 3


def test_equal_samples_are_the_pooled_counts():
    """Two samples per item everywhere: the counts are the outputs themselves (no reweighting, no warning)."""
    outputs = _sampled({"i1": ["female", "male"], "i2": ["male", "male"], "i3": ["neutral", "female"]})
    with warnings.catch_warnings():
        warnings.simplefilter("error", DataQualityWarning)
        est = _analyse(outputs, sample="sample")
    a = est.loc["a"]
    assert (a["n_female"], a["n_male"], a["n_neutral"]) == (2, 3, 1)
    assert a["p_s"] == pytest.approx(np.sqrt(2 / 6 * 3 / 6 + 1 / 6), abs=1e-12)


def test_average_samples_scales_each_cell_by_the_mean_over_its_size():
    """Cells of 2, 1 and 3 outputs (mean 2) are multiplied by 2/2, 2/1 and 2/3; an empty cell stays empty."""
    counts = np.zeros((4, 1, 1, 5))
    counts[0, 0, 0, :2] = 1  # female, male
    counts[1, 0, 0, 1] = 1  # male
    counts[2, 0, 0, [1, 2]] = [1, 2]  # male, two neutral
    with pytest.warns(DataQualityWarning):
        out = tgbi._average_samples(counts)
    np.testing.assert_allclose(out[0, 0, 0], [1, 1, 0, 0, 0])
    np.testing.assert_allclose(out[1, 0, 0], [0, 2, 0, 0, 0])
    np.testing.assert_allclose(out[2, 0, 0], [0, 2 / 3, 4 / 3, 0, 0])
    np.testing.assert_allclose(out[3, 0, 0], 0)


def test_consistency_has_every_set_and_all_of_them_by_hand():
    """Item i1 in sets a (female, male) and b (female, female), i2 in a (male, male), i3 in b (male). Over all sets
    an item is its lexicon entry: i1 has four samples, i2 two, i3 one, so 7/3 samples an item, two items with
    several of which one disagrees (i1), and the female share is the mean of the items' means (3/4 + 0 + 0) / 3."""
    rows = [("a", "i1", "female"), ("a", "i1", "male"), ("a", "i2", "male"), ("a", "i2", "male")]
    rows += [("b", "i1", "female"), ("b", "i1", "female"), ("b", "i3", "male")]
    outputs = pd.DataFrame(
        [("s", s, i, str(k % 2), g) for k, (s, i, g) in enumerate(rows)], columns=["system", "set", "item", "sample", "gender"]
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataQualityWarning)  # unequal samples (named in their own test)
        frame = tgbi.evaluate(outputs=outputs, sample="sample", compare=False).frames["consistency"]
    assert frame["subset"].tolist() == ["a", "b", "all"]
    every = frame.set_index("subset").loc["all"]
    assert (every["n"], every["n_several"]) == (3, 2)
    assert (every["samples"], every["disagree"], every["female"]) == pytest.approx((7 / 3, 1 / 2, 1 / 4), abs=1e-12)


@pytest.mark.parametrize(
    ("interval", "test", "method"),
    [
        ("score", "interval", "MOVER of the score intervals on g"),
        ("percentile", "interval", "paired bootstrap (percentile)"),
        ("score", "permutation", "approximate randomisation"),
    ],
)
def test_the_method_names_where_the_comparisons_p_values_come_from(interval, test, method):
    rows = [(s, "a", f"x{i}", "female" if (i + (s == "t")) % 3 == 0 else "male") for s in "st" for i in range(30)]
    result = tgbi.evaluate(outputs=_benchmark(rows), interval=interval, test=test, n_boot=200, n_permutations=99, rng=0)
    assert result.provenance["method"].endswith(f"; paired comparisons: {method} p-values")


def test_the_shared_items_comparison_resamples_within_strata():
    """System t lacks the five items of stratum z. On the items both have, stratum u is all (s female, t male) and
    stratum v all (s male, t male): resampled within strata every replicate is the data itself, so the bootstrap
    interval is a point and the comparison takes the MOVER interval of the analytic run; resampled across strata
    (strata ignored) the replicates would vary."""
    rows = [("s", "a", f"u{i}", "female", "u") for i in range(12)] + [("t", "a", f"u{i}", "male", "u") for i in range(12)]
    rows += [(s, "a", f"v{i}", "male", "v") for s in "st" for i in range(12)]
    rows += [("s", "a", f"z{i}", "female" if i % 2 else "male", "z") for i in range(5)]
    outputs = pd.DataFrame(rows, columns=["system", "set", "item", "gender", "stratum"])
    with pytest.warns(DataQualityWarning, match="different numbers of items"):
        boot = tgbi.evaluate(outputs=outputs, interval="percentile", n_boot=200, rng=0).compare()
    with pytest.warns(DataQualityWarning, match="different numbers of items"):
        analytic = tgbi.evaluate(outputs=outputs, interval="score").compare()
    assert boot["diff"].tolist() == pytest.approx([0.5, 0.5], abs=1e-12)  # s: P_S = sqrt(1/2 · 1/2); t: 0
    np.testing.assert_allclose(boot[["ci_low", "ci_high"]], analytic[["ci_low", "ci_high"]], rtol=0, atol=1e-12)
    assert (boot["ci_high"] > boot["ci_low"]).all()


@pytest.mark.parametrize("against", [None, ["s"]])
def test_a_permutation_test_on_too_few_differing_items_says_no_resampling_can_help(against):
    """Three of 40 items differ between s and the others: the exact permutation floor is 2 / 2³ = 0.25 ≥ α, so the
    warning says that even an exact test cannot reach significance (more permutations would not help); with
    ``against`` only the pairs compared count."""
    rows = [(s, "a", f"x{i}", "female" if s == "s" and i < 3 else "male") for s in "stu" for i in range(40)]
    with pytest.warns(DataQualityWarning, match="even an exact test cannot reach it"):
        tgbi.evaluate(outputs=_benchmark(rows), test="permutation", n_permutations=99, rng=0, against=against)


def test_judge_names_an_item_by_its_set_and_line():
    outputs = pd.DataFrame({"system": ["s", "s"], "subset": ["a", "b"], "line": [3, 3], "translation": ["He is.", "She is."]})
    assert tgbi.judge(outputs)["item"].tolist() == ["a:3", "b:3"]


def test_read_returns_the_users_items_and_columns_as_they_came():
    """Items with ``:`` and ``#`` in them, with and without samples, go back as they came; a user's column named
    like one of read's own (``sample`` when no sample column is named) is not repeated."""
    outputs = pd.DataFrame(
        {
            "system": ["s"] * 4,
            "set": ["a"] * 4,
            "item": ["q#1", "q#1", "x:y", "x:y"],
            "draw": ["1", "2", "1", "2"],
            "gender": ["male", "female", "male", "male"],
            "note": list("abcd"),
        }
    )
    table = tgbi.read(outputs, sample="draw")
    assert table["item"].tolist() == ["q#1", "q#1", "x:y", "x:y"] and table["draw"].tolist() == ["1", "2", "1", "2"]
    alone = tgbi.read(outputs.iloc[[0, 2]].rename(columns={"draw": "sample"}))
    assert alone["item"].tolist() == ["q#1", "x:y"]
    assert alone.columns.is_unique and list(alone.columns) == [*tgbi.READ_COLUMNS, "note"]


@pytest.mark.parametrize(("option", "value"), [("interval", "bc"), ("test", "exact"), ("repeated_blocks", "drop")])
def test_a_bad_choice_is_an_error_naming_the_option(option, value):
    rows = [(s, "a", f"x{i}", "male") for s in "st" for i in range(3)]
    with pytest.raises(UsageError, match=f"^`{option}` must be one of"):
        tgbi.evaluate(outputs=_benchmark(rows), **{option: value})


def test_own_sets_named_as_cho_s_keep_cho_s_order_and_only_those_present():
    """Sets named as Cho et al.'s come in their order whatever the order of the rows (all seven, or two); other
    names keep the order they first appear in."""
    names = list(tgbi_data.SET_NAMES)
    for sets in (names[::-1], ["occupation", "formal"], ["zeta", "alpha"]):
        rows = [("s", subset, f"x{i}", "female" if i % 2 else "male") for subset in sets for i in range(4)]
        subsets = tgbi.evaluate(outputs=_benchmark(rows)).frames["estimates"]["subset"].tolist()
        expected = [s for s in names if s in sets] if sets[0] != "zeta" else sets
        assert subsets == [*expected, "TGBI"], sets


def test_unknown_and_extra_columns_are_counted_apart_from_the_known_outputs():
    """Ten items read (five female, five male) and one unknown: ``n`` and ``n_outputs`` count the ten, ``n_unknown``
    the one; the user's other columns stay out of the judgement table (only :func:`~tgbi.read` carries them)."""
    rows = [("s", "a", f"x{i}", "female" if i < 5 else "male") for i in range(10)] + [("s", "a", "u", "unknown")]
    outputs = _benchmark(rows).assign(note="mine")
    result = tgbi.evaluate(outputs=outputs)
    row = result.frames["estimates"].set_index("subset").loc["a"]
    assert (row["n"], row["n_outputs"], row["n_unknown"], row["n_female"], row["n_male"]) == (10, 10, 1, 5, 5)
    assert not [c for c in result.frames["judgements"].columns if str(c).startswith("+") or c == "note"]


@pytest.mark.parametrize("both", ["neutral", "exclude"])
def test_with_one_set_the_index_is_that_set(both):
    """One set: the index is the set's P_S with the set's interval (MOVER of one term is that term's interval),
    whichever way outputs showing both genders enter."""
    genders = ["female"] * 6 + ["male"] * 9 + ["both"] * 4 + ["neutral"] * 3
    rows = [("s", "a", f"x{i}", g) for i, g in enumerate(genders)]
    table = tgbi.evaluate(outputs=_benchmark(rows), both=both).frames["estimates"].set_index("subset")
    p_w, p_m, p_n = (6, 9, 7) if both == "neutral" else (6, 9, 3)
    n = p_w + p_m + p_n
    assert table.loc["a", "p_s"] == pytest.approx(np.sqrt(p_w * p_m / n**2 + p_n / n), abs=1e-12)
    np.testing.assert_allclose(
        table.loc["TGBI", ["p_s", "ci_low", "ci_high"]], table.loc["a", ["p_s", "ci_low", "ci_high"]], atol=1e-12
    )


@pytest.mark.parametrize("test", ["interval", "permutation"])
def test_one_system_has_no_comparisons(test):
    rows = [("s", "a", f"x{i}", "female" if i % 2 else "male") for i in range(8)]
    result = tgbi.evaluate(outputs=_benchmark(rows), test=test)
    assert "comparisons" not in result.frames
    with pytest.raises(UsageError, match="needs at least two systems"):
        result.compare()


def _corpus(root, jobs: int) -> dict[str, list[str]]:
    """A miniature corpus in Cho et al.'s layout under `root` (`jobs` occupations, one negative and one positive
    phrase; a sentence is its style code and item) and each set's source lines."""
    # Names of varied length, so that a shifted file of outputs shows against its sources (correspondence.py).
    items = {"occupation": [f"job{'x' * (i % 7)}{i}" for i in range(jobs)], "negative": ["rude"], "positive": ["kind"]}
    corpus = root / tgbi_data.CORPUS
    corpus.mkdir(parents=True)
    for content, names in items.items():
        for style in tgbi_data.STYLES:
            code = tgbi_data._STYLE_CODE[style]
            text = "".join(f"{code} {name}\n" for name in names)
            (corpus / f"{tgbi_data._CONTENT_FILE[content]}_{code}.txt").write_text(text, encoding="utf-8")
    sources = {}
    for sset in tgbi_data.SETS:
        sources[sset.code] = [f"{tgbi_data._STYLE_CODE[style]} {name}" for c, style in sset.parts for name in items[c]]
        (corpus / f"total_{sset.source_file}.txt").write_text("\n".join(sources[sset.code]) + "\n", encoding="utf-8")
    return sources


@pytest.mark.filterwarnings("ignore::stats_mtbias.errors.ChecksumWarning")  # the corpus is the test's
def test_read_of_a_shipped_system_numbers_its_lines_and_applies_the_repeated_block_rule(tmp_path):
    """Papago's occupation file (24 jobs × 4 styles = 96 lines) repeats its lines 1–20 at 21–40: by default those
    are ``repeated_block`` (unknown), with ``repeated_blocks="keep"`` they are read (``he`` → male) as the authors
    did. ``item`` is the line of the set's file; the corpus is found through ``data_dir`` alone."""
    sources = _corpus(tmp_path, jobs=24)
    corpus = tmp_path / tgbi_data.CORPUS
    for code, lines in sources.items():
        out = [f"he is {line}" for line in lines]
        if code == "job":
            out = out[:20] * 2 + out[40:]
        (corpus / f"total_papago_{code}.txt").write_text("\n".join(out) + "\n", encoding="utf-8")
    with pytest.warns(DataQualityWarning, match="repeat an earlier block"):
        table = tgbi.read(systems=["papago"], data_dir=tmp_path)
    job = table[table["set"] == "occupation"]
    assert job["item"].tolist() == [str(k) for k in range(1, 97)]
    assert job["reason"].tolist() == [""] * 20 + ["repeated_block"] * 20 + [""] * 56
    assert job["gender"].tolist() == ["male"] * 20 + ["unknown"] * 20 + ["male"] * 56
    with pytest.warns(DataQualityWarning, match="kept as they are"):
        kept = tgbi.read(systems=["papago"], data_dir=tmp_path, repeated_blocks="keep")
    assert (kept["reason"] == "").all() and (kept["gender"] == "male").all()


def test_a_pilot_is_the_pair_and_set_asked_for():
    """Three systems, two sets: the pilot of (u, s) on set b holds u's and s's counts in that order, its statistic
    gives their P_S on b as the study does, and a set the result lacks is an error naming ``subset``."""
    rows = [
        (s, subset, f"x{i}", "female" if (i + k) % (k + 2) == 0 else "male")
        for k, s in enumerate("stu")
        for subset in "ab"
        for i in range(12)
    ]
    result = tgbi.evaluate(outputs=_benchmark(rows))
    kind, design = tgbi.pilot(result, systems=["u", "s"], subset="b")
    assert kind == "simulate" and design.label == "P_S b: u − s"
    assert design.counts.shape == (12, 2, 2, 5) and design.counts[:, :, 1, 0].sum(axis=0).tolist() == [3, 6]
    p_s = design.statistic(design.counts.sum(axis=0)[None])[0][:, 1]
    est = result.frames["estimates"].set_index(["system", "subset"])["p_s"]
    assert p_s.tolist() == pytest.approx([est["u", "b"], est["s", "b"]], abs=1e-12)
    with pytest.raises(UsageError, match=r"^`subset` must be one of"):
        tgbi.pilot(result, systems=["u", "s"], subset="c")


@pytest.mark.filterwarnings("ignore::stats_mtbias.errors.ChecksumWarning")  # the corpus is the test's
def test_a_users_shifted_translations_are_flagged_in_the_table(tmp_path):
    """A user's outputs of the Korean sets (``translations``) whose occupation set slipped by two lines: scored as
    given, with the shift named in the ``flag`` of that set and of the index."""
    sources = _corpus(tmp_path, jobs=24)
    rows = []
    for sset in tgbi_data.SETS:
        out = [f"he is {line}" for line in sources[sset.code]]
        if sset.code == "job":
            out = out[2:] + out[:2]
        rows += [(k + 1, sset.name, text) for k, text in enumerate(out)]
    pd.DataFrame(rows, columns=["item", "set", "translation"]).to_csv(tmp_path / "mine.csv", index=False)
    with pytest.warns(DataQualityWarning, match="shifted by -2 line"):
        table = tgbi.evaluate([], translations={"mine": tmp_path / "mine.csv"}, data_dir=tmp_path).table
    flags = table[table["metric"] == "p_s"].set_index("subset")["flag"]
    assert flags["occupation"].startswith("outputs look shifted by -2 line(s)")
    assert flags["TGBI"].startswith("occupation: outputs look shifted by -2 line(s)")
    assert (flags.drop(["occupation", "TGBI"]) == "").all()

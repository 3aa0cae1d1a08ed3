"""WinoMT analysis helpers (arrays, coverage, samples, consistency, ICC, unread flags, pilots) on small synthetic tables.

Every expected value is counted by eye from the table in the test, or computed by a hand formula written here
(one-way ANOVA from the raw 0/1 data, Wilson from statsmodels, Garwood's Poisson bounds from scipy's chi²).
"""

from __future__ import annotations

import math
import warnings
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from statsmodels.stats.proportion import proportion_confint

from stats_mtbias.errors import DataError, DataQualityWarning, UsageError
from stats_mtbias.estimators.winomt import winomt_metrics
from stats_mtbias.studies.winomt import analysis as A

COLUMNS = ["system", "language", "item", "gold", "stereotype", "gender", "reason"]


def frame(rows, sample=False):
    """A judgement table from tuples ``(system, language, item, gold, stereotype, gender[, reason[, sample]])``."""
    out = []
    for r in rows:
        r = list(r)
        if len(r) == 6:
            r.append("")
        out.append(r)
    columns = [*COLUMNS, "sample"] if sample else COLUMNS
    return pd.DataFrame(out, columns=columns)


@pytest.fixture
def strict():
    """Every warning an error: a test under it fails on any unexpected warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


# ---------------------------------------------------------------- language_arrays, sample_counts, _arrays


def _two_systems_with_samples():
    """System b listed first; items unsorted; item 2 of b has two samples (one right, one wrong)."""
    return frame(
        [
            ("b", "de", 3, "female", "anti", "female"),
            ("b", "de", 1, "male", "pro", "male"),
            ("b", "de", 2, "female", "pro", "male"),
            ("b", "de", 2, "female", "pro", "female"),
            ("a", "de", 1, "male", "pro", "unknown"),
            ("a", "de", 2, "female", "pro", "female"),
            ("a", "de", 3, "female", "anti", "male"),
        ]
    )


def test_language_arrays_order_systems_by_appearance_and_items_by_value():
    """Systems keep their first appearance (b, a), items are sorted, strata are 'stereotype:gold' of each item."""
    systems, items, strata, data = A.language_arrays(_two_systems_with_samples())
    assert systems == ["b", "a"]
    assert items.tolist() == [1, 2, 3]
    assert strata.tolist() == ["pro:male", "pro:female", "anti:female"]
    assert data.shape == (3, 2, len(A.FEATURES))


def test_language_arrays_average_the_samples_of_an_item():
    """An item's features are the means over its samples: n is 1 for every cell, correct is 0.5 for b's item 2."""
    _, _, _, data = A.language_arrays(_two_systems_with_samples())
    f = A.FEATURE_INDEX
    np.testing.assert_array_equal(data[:, :, f["n"]], np.ones((3, 2)))
    # rows: items 1, 2, 3; columns: systems b, a
    np.testing.assert_array_equal(data[:, :, f["correct"]], [[1, 0], [0.5, 1], [1, 0]])
    np.testing.assert_array_equal(data[:, :, f["pred_female"]], [[0, 0], [0.5, 1], [1, 0]])
    np.testing.assert_array_equal(data[:, :, f["pred_male"]], [[1, 0], [0.5, 0], [0, 1]])
    np.testing.assert_array_equal(data[:, :, f["unknown"]], [[0, 1], [0, 0], [0, 0]])
    np.testing.assert_array_equal(data[:, :, f["correct_pro"]], [[1, 0], [0.5, 1], [0, 0]])
    np.testing.assert_array_equal(data[:, :, f["correct_anti"]], [[0, 0], [0, 0], [1, 0]])
    np.testing.assert_array_equal(data[:, :, f["gold_female"]], [[0, 0], [1, 1], [1, 1]])


def test_sample_counts_are_the_rows_of_each_item_and_system():
    """sample_counts gives (systems, items, samples) with samples (items, systems) as floats: 2 for b's item 2."""
    systems, items, samples = A.sample_counts(_two_systems_with_samples())
    assert systems == ["b", "a"]
    assert items.tolist() == [1, 2, 3]
    assert samples.dtype == np.float64
    np.testing.assert_array_equal(samples, [[1, 1], [2, 1], [1, 1]])


def test_language_arrays_of_a_single_judgement():
    """One system, one item, one row: one cell of features, its stratum, one sample."""
    systems, items, strata, data = A.language_arrays(frame([("a", "de", 7, "male", "anti", "female")]))
    assert (systems, items.tolist(), strata.tolist()) == (["a"], [7], ["anti:male"])
    assert data[0, 0, A.FEATURE_INDEX["pred_female"]] == 1.0 and data[0, 0, A.FEATURE_INDEX["correct"]] == 0.0
    assert A.sample_counts(frame([("a", "de", 7, "male", "anti", "female")]))[2].tolist() == [[1.0]]


def test_arrays_refuse_a_system_lacking_the_last_item():
    """The last (item, system) cell empty: a DataError naming that system and the language, not a shape error."""
    table = _two_systems_with_samples()
    table = table[~((table["system"] == "a") & (table["item"] == 3))]
    with pytest.raises(DataError, match=r"^a/de: judgements do not cover the same items as the other systems$"):
        A.language_arrays(table)


def test_arrays_name_the_first_system_when_it_lacks_a_middle_item():
    """System b (the first) lacks item 2 only: the error names b, not a."""
    table = _two_systems_with_samples()
    table = table[~((table["system"] == "b") & (table["item"] == 2))]
    with pytest.raises(DataError, match=r"^b/de: "):
        A.sample_counts(table)


# ---------------------------------------------------------------- pilot_design


def _pilot_table():
    """Two languages; de: systems a, b (and c) on four items; fr differs so that mixing languages would show."""
    rows = []
    de = [(1, "male", "pro"), (2, "female", "anti"), (3, "male", "anti"), (4, "female", "pro")]
    a = ["male", "female", "female", "female"]  # right on 1, 2, 4
    b = ["male", "male", "male", "female"]  # right on 1, 3, 4; wrong on 2
    c = ["female", "female", "female", "male"]
    for (item, gold, st), ga, gb, gc in zip(de, a, b, c):
        rows += [("a", "de", item, gold, st, ga), ("b", "de", item, gold, st, gb), ("c", "de", item, gold, st, gc)]
    rows += [
        ("a", "fr", 9, "male", "pro", "female"),
        ("b", "fr", 9, "male", "pro", "male"),
        ("d", "fr", 9, "male", "pro", "male"),
    ]
    return frame(rows)


def test_pilot_design_holds_the_two_systems_in_the_order_asked():
    """pilot_design(b, a): counts (items, 2, features) with b first, strata, label, unit and the metric's index."""
    from stats_mtbias.planning.simulate import PairedDesign

    design = A.pilot_design(_pilot_table(), ("b", "a"), "de", "acc")
    assert isinstance(design, PairedDesign)
    assert design.counts.shape == (4, 2, len(A.FEATURES))
    correct = A.FEATURE_INDEX["correct"]
    np.testing.assert_array_equal(design.counts[:, 0, correct], [1, 0, 1, 1])  # b
    np.testing.assert_array_equal(design.counts[:, 1, correct], [1, 1, 0, 1])  # a
    assert design.strata.tolist() == ["pro:male", "anti:female", "anti:male", "pro:female"]
    assert design.label == "de acc: b − a"
    assert design.unit == "items"
    assert design.select == (0,)  # acc is the first metric
    assert design.statistic is winomt_metrics
    assert design.observed == pytest.approx(0.0)  # 3/4 − 3/4
    assert design.single is False


def test_pilot_design_selects_the_metric_and_the_language():
    """delta_g is metric 3; the fr judgements (one item) do not enter the de design; a−c of acc is 3/4 − 1/4."""
    table = _pilot_table()
    assert A.pilot_design(table, ("a", "b"), "de", "delta_g").select == (3,)
    design = A.pilot_design(table, ("a", "c"), "de", "acc")
    assert design.n_pilot == 4
    assert design.observed == pytest.approx(0.5)
    fr = A.pilot_design(table, ("b", "a"), "fr", "acc")
    assert fr.n_pilot == 1
    assert fr.observed == pytest.approx(1.0)


def test_pilot_design_names_the_missing_system_and_those_present():
    """A system without judgements in the language: UsageError naming it and the language's systems, sorted."""
    table = _pilot_table()
    with pytest.raises(UsageError, match=r"^d has no de judgements in the pilot; it has a, b, c\.$"):
        A.pilot_design(table, ("a", "d"), "de", "acc")
    with pytest.raises(UsageError, match=r"^x, y has no de judgements in the pilot; it has a, b, c\.$"):
        A.pilot_design(table, ("x", "y"), "de", "acc")
    with pytest.raises(UsageError, match=r"^a, b has no it judgements in the pilot; it has none\.$"):
        A.pilot_design(table, ("a", "b"), "it", "acc")


def test_pilot_design_refuses_an_unknown_metric():
    """The metric is checked against the WinoMT metrics."""
    with pytest.raises(UsageError, match="metric"):
        A.pilot_design(_pilot_table(), ("a", "b"), "de", "bleu")


# ---------------------------------------------------------------- pilot


def _result(table, systems):
    """A stand-in for a WinoMT result: what `pilot` reads of it."""
    return SimpleNamespace(details=SimpleNamespace(judgements=table), systems=list(systems))


def test_pilot_of_an_accuracy_is_mcnemars_design():
    """acc of a vs b: discordance 2/4 (items 2, 3), observed 3/4 − 3/4, the labels and all items in scope."""
    table = _pilot_table()
    table = table[table["language"] == "de"]
    kind, payload = A.pilot(_result(table, ["a", "b"]), metric="acc")
    assert kind == "paired"
    assert payload == {"discordance": 0.5, "observed": 0.0, "metric": "de acc", "comparison": "a − b", "unit_scale": 1.0}
    assert all(type(v) is float for k, v in payload.items() if k not in ("metric", "comparison"))


def test_pilot_of_acc_pro_and_acc_anti_look_at_their_items_only():
    """acc_pro of a vs c on the pro items (1, 4); acc_anti on the anti items (2, 3): each half of the items."""
    table = _pilot_table()
    kind, pro = A.pilot(_result(table, ["a", "c"]), metric="acc_pro", language="de")
    assert kind == "paired"
    # pro items: a right on 1 and 4, c wrong on both
    assert pro == {"discordance": 1.0, "observed": 1.0, "metric": "de acc_pro", "comparison": "a − c", "unit_scale": 0.5}
    _, anti = A.pilot(_result(table, ["a", "c"]), metric="acc_anti", language="de")
    # anti items: a right on 2 (gold female), wrong on 3; c right on 2, wrong on 3
    assert anti == {"discordance": 0.0, "observed": 0.0, "metric": "de acc_anti", "comparison": "a − c", "unit_scale": 0.5}
    _, anti_b = A.pilot(_result(table, ["a", "b"]), systems=("a", "b"), metric="acc_anti", language="de")
    # anti items: a right on 2 wrong on 3, b wrong on 2 right on 3
    assert anti_b["discordance"] == 1.0 and anti_b["observed"] == 0.0


def test_pilot_defaults_to_delta_g_by_simulation():
    """Without a metric: ΔG of the two systems through simulation, labelled with both."""
    table = _pilot_table()
    table = table[(table["language"] == "de") & table["system"].isin(["a", "b"])]
    kind, design = A.pilot(_result(table, ["a", "b"]))
    assert kind == "simulate"
    assert design.label == "de delta_g: a − b"
    assert design.select == (3,)
    assert design.single is False


def test_pilot_of_one_system_is_its_own_precision():
    """One system named, even for acc: the simulated design of that system alone (single, labelled with it)."""
    table = _pilot_table()
    kind, design = A.pilot(_result(table, ["a", "b", "c"]), systems="a", metric="acc", language="de")
    assert kind == "simulate"
    assert design.single is True
    assert design.label == "de acc: a"
    assert design.observed == pytest.approx(0.75)  # a alone: 3 of 4 right


def test_pilot_of_f1_of_two_systems_is_simulated():
    """A metric outside the accuracies with two systems: the simulated design of the difference."""
    kind, design = A.pilot(_result(_pilot_table(), ["a", "b"]), metric="f1_male", language="de")
    assert kind == "simulate"
    assert design.select == (1,)
    assert design.label == "de f1_male: a − b"


# ---------------------------------------------------------------- coverage


def test_coverage_counts_items_not_rows_and_not_absent_ones():
    """translated: distinct items with a reason other than missing/not_in_file; 0 for a file with none; in table order."""
    table = frame(
        [
            ("b", "de", 1, "male", "pro", "male"),
            ("b", "de", 1, "male", "pro", "female"),  # a second sample: still one item
            ("b", "de", 2, "male", "pro", "unknown", "missing"),
            ("b", "de", 3, "male", "pro", "unknown", "not_in_file"),
            ("a", "de", 1, "male", "pro", "male"),
            ("a", "de", 2, "male", "pro", "male", "garbled"),  # read, but unread: translated all the same
            ("a", "de", 3, "male", "pro", "male"),
            ("c", "de", 1, "male", "pro", "unknown", "not_in_file"),
            ("a", "fr", 1, "male", "pro", "male"),
        ]
    )
    out = A.coverage(table, 4)
    assert list(out.columns) == ["system", "language", "translated", "coverage"]
    assert list(zip(out["system"], out["language"])) == [("b", "de"), ("a", "de"), ("c", "de"), ("a", "fr")]
    assert out["translated"].tolist() == [1, 3, 0, 1]
    assert out["translated"].dtype.kind == "i"
    np.testing.assert_allclose(out["coverage"], [0.25, 0.75, 0.0, 0.25])


# ---------------------------------------------------------------- shared_items


def _items(system, language, items, reason="", samples=1):
    return [(system, language, i, "male", "pro", "male", reason) for i in items for _ in range(samples)]


def test_shared_items_keep_the_items_every_system_translated(strict):
    """missing='shared': b lacks item 4, so de keeps items 1-3 of both; fr is kept whole; index renumbered."""
    table = frame(
        _items("fr", "fr", [1, 2, 3, 4])
        + _items("a", "de", [1, 2, 3, 4])
        + _items("b", "de", [1, 2, 3])
        + _items("b", "de", [4], reason="missing")
    )
    notes = ["earlier"]
    with pytest.warns(DataQualityWarning) as record:
        out = A.shared_items(table, notes)
    message = "WinoMT b/de: 3 of 4 items translated (75.0%); analysed on the items every system of the language translated"
    pair = (
        "systems cover different items: a/de lacks 0 of b/de's items and b/de 1 of a/de's (3 shared). Each pair is "
        "compared on the items both have — its difference, interval and test alike; so are the estimates: every "
        "system of a language on the items all of them translated."
    )
    assert [str(w.message) for w in record] == [message, pair]
    assert notes == ["earlier", message, pair]
    assert out["language"].tolist() == ["fr"] * 4 + ["de"] * 6
    assert out.loc[out["language"] == "de", "item"].tolist() == [1, 2, 3, 1, 2, 3]
    assert out.index.tolist() == list(range(10))


def test_shared_items_drop_an_item_two_of_three_systems_translated(strict):
    """Item 3 translated by a and b but not c is dropped for all three; c (2 of 3 items) is the only file named."""
    table = frame(
        _items("a", "de", [1, 2, 3])
        + _items("b", "de", [1, 2, 3])
        + _items("c", "de", [1, 2])
        + _items("c", "de", [3], reason="not_in_file")
    )
    with pytest.warns(DataQualityWarning) as record:
        out = A.shared_items(table)
    said = [str(w.message) for w in record]
    assert said[0].startswith("WinoMT c/de: 2 of 3 items") and len(said) == 2
    assert "a/de lacks 0 of c/de's items and c/de 1 of a/de's (2 shared); b/de lacks 0 of c/de's" in said[1]
    assert sorted(set(out["item"])) == [1, 2]
    assert len(out) == 6


def test_shared_items_wrong_rule_keeps_every_row_and_says_so():
    """missing='wrong': every row stays (the missing one too), the warning names the rule, the origin and the file."""
    table = frame(_items("a", "de", [1, 2, 3, 4]) + _items("b", "de", [1, 2, 3]) + _items("b", "de", [4], reason="missing"))
    notes = []
    with pytest.warns(DataQualityWarning) as record:
        out = A.shared_items(table, notes, {("b", "de"): "b.de.txt"}, missing="wrong")
    message = "WinoMT b/de (b.de.txt): 3 of 4 items translated (75.0%); its untranslated items count as wrong (missing='wrong')"
    assert [str(w.message) for w in record] == [message]
    assert notes == [message]
    pd.testing.assert_frame_equal(out, table)


def test_shared_items_coverage_threshold_is_strictly_below_99_percent(strict):
    """99 of 100 items is not below 99%: no warning; 99 of 101 is (98.0%), with thousands separators for big counts."""
    table = frame(_items("a", "de", range(99)) + _items("b", "de", range(99)))
    out = A.shared_items(table, n_items=100)  # strict: any warning fails
    assert len(out) == 198
    with pytest.warns(DataQualityWarning) as record:
        A.shared_items(table, n_items=101)
    assert [str(w.message).split(";")[0] for w in record] == [
        "WinoMT a/de: 99 of 101 items translated (98.0%)",
        "WinoMT b/de: 99 of 101 items translated (98.0%)",
    ]
    with pytest.warns(DataQualityWarning) as record:
        A.shared_items(table, n_items=1000)
    assert str(record[0].message).startswith("WinoMT a/de: 99 of 1,000 items translated (9.9%); ")


def test_shared_items_without_notes_only_warn():
    """notes=None: the warning is raised all the same (nothing to append to)."""
    table = frame(_items("a", "de", [1, 2]) + _items("b", "de", [1]))
    with pytest.warns(DataQualityWarning, match=r"^WinoMT b/de: 1 of 2 items translated \(50\.0%\)"):
        out = A.shared_items(table)
    assert out["item"].tolist() == [1, 1]


def test_shared_items_count_items_not_rows_of_samples():
    """b has two samples of 50 of 100 items (100 rows): it translated 50 items, named in the warning."""
    table = frame(_items("a", "de", range(100)) + _items("b", "de", range(50), samples=2))
    with pytest.warns(DataQualityWarning) as record:
        out = A.shared_items(table)
    assert [str(w.message).split(";")[0] for w in record if str(w.message).startswith("WinoMT")] == [
        "WinoMT b/de: 50 of 100 items translated (50.0%)"
    ]
    assert len(out) == 50 + 100
    assert set(out["item"]) == set(range(50))


def test_shared_items_refuse_a_system_with_no_item():
    """A file none of whose items is translated: DataError naming it, with its origin as the path."""
    table = frame(_items("a", "de", [1, 2]) + _items("z", "de", [1, 2], reason="not_in_file"))
    with pytest.raises(DataError, match=r"z/de: no WinoMT item is translated") as info:
        A.shared_items(table, origin={("z", "de"): "z.txt", ("a", "de"): "a.txt"})
    assert str(info.value.path) == "z.txt"
    with pytest.raises(DataError) as info:
        A.shared_items(table, missing="wrong")
    assert info.value.path is None


def test_shared_items_refuse_an_unknown_rule():
    """missing must be 'shared' or 'wrong'."""
    with pytest.raises(UsageError, match="missing"):
        A.shared_items(frame(_items("a", "de", [1])), missing="drop")


# ---------------------------------------------------------------- check_samples


def _sampled(counts, system="a", reason=""):
    """Rows of `system` with counts[i] samples of item i."""
    return [(system, "de", i, "male", "pro", "male", reason, s) for i, k in enumerate(counts) for s in range(k)]


def test_check_samples_is_false_without_a_sample_column(strict):
    """No sample column: False, even where an item has several rows."""
    table = frame(_items("a", "de", [1, 2], samples=3))
    assert A.check_samples(table) is False


def test_check_samples_is_false_with_one_sample_each(strict):
    """One present row per item (the extra rows absent ones): False; all rows absent: False."""
    rows = _sampled([1, 1, 1]) + _sampled([2], reason="missing") + _sampled([0, 2], reason="not_in_file")
    assert A.check_samples(frame(rows, sample=True)) is False
    assert A.check_samples(frame(_sampled([2, 2], reason="missing"), sample=True)) is False


def test_check_samples_is_true_and_silent_with_equal_counts(strict):
    """Two present samples of every item (an absent extra row ignored): True and no warning."""
    rows = _sampled([2, 2, 2]) + _sampled([1], reason="not_in_file") + _sampled([3, 3], system="b")
    notes = []
    assert A.check_samples(frame(rows, sample=True), notes) is True
    assert notes == []


def test_check_samples_warn_where_counts_differ_between_items():
    """Items of a with 1 and 3 samples: True, a warning naming the range for a only (b has 2 each)."""
    rows = _sampled([2, 2], system="b") + _sampled([1, 3, 2])
    notes = []
    with pytest.warns(DataQualityWarning) as record:
        assert A.check_samples(frame(rows, sample=True), notes) is True
    message = "WinoMT a/de: items have 1–3 samples; each item's samples are averaged (every item weighs the same)"
    assert [str(w.message) for w in record] == [message]
    assert notes == [message]
    with pytest.warns(DataQualityWarning, match="a/de: items have 1–3 samples"):
        assert A.check_samples(frame(rows, sample=True)) is True


# ---------------------------------------------------------------- icc_anova


def anova_icc(groups):
    """One-way ANOVA ICC from the raw data of unbalanced groups (Searle's k0), unclipped, with MSB and MSW."""
    values = [np.asarray(g, float) for g in groups]
    g = len(values)
    big_n = sum(len(v) for v in values)
    grand = sum(v.sum() for v in values) / big_n
    ssb = sum(len(v) * (v.mean() - grand) ** 2 for v in values)
    ssw = sum(((v - v.mean()) ** 2).sum() for v in values)
    msb, msw = ssb / (g - 1), ssw / (big_n - g)
    k0 = (big_n - sum(len(v) ** 2 for v in values) / big_n) / (g - 1)
    return (msb - msw) / (msb + (k0 - 1) * msw), msb, msw


def _icc(groups):
    return A.icc_anova(np.array([np.mean(g) for g in groups]), np.array([len(g) for g in groups]))


def test_icc_matches_the_anova_of_the_raw_data_of_unbalanced_groups():
    """ICC from item means and sizes equals the raw-data one-way ANOVA (F as scipy's f_oneway) for unbalanced groups."""
    groups = [[1, 1, 1, 0], [0, 0], [1, 0, 1], [0, 0, 0, 0, 1], [1, 1]]
    icc, msb, msw = anova_icc(groups)
    assert msb / msw == pytest.approx(stats.f_oneway(*groups).statistic, rel=1e-12)
    assert 0 < icc < 1
    assert _icc(groups) == pytest.approx(icc, rel=1e-12)
    assert type(_icc(groups)) is float


@pytest.mark.parametrize(
    "groups",
    [
        [[1, 0], [1, 1, 1, 0, 0, 0, 1], [0, 0, 1]],
        [[1, 1, 1, 1, 1, 1, 1, 0], [0], [0, 1]],
        [[0, 1], [1]],  # two items, three samples: the least that gives a value
    ],
)
def test_icc_matches_the_hand_anova_on_more_tables(groups):
    """Other unbalanced tables, including sizes of 1 and the smallest table with a value, against the hand ANOVA."""
    icc, _, _ = anova_icc(groups)
    assert _icc(groups) == pytest.approx(min(max(icc, 0.0), 1.0), rel=1e-12, abs=1e-15)


def test_icc_is_clipped_at_zero_when_items_vary_less_than_samples():
    """Every item half 0, half 1 (MSB = 0 < MSW): the formula is negative, the ICC 0."""
    groups = [[0, 1], [1, 0, 1, 0], [0, 1, 1, 0]]
    icc, msb, msw = anova_icc(groups)
    assert icc < 0 and msb == pytest.approx(0.0) and msw > 0
    assert _icc(groups) == 0.0


def test_icc_is_one_when_samples_always_agree():
    """Every item's samples equal (MSW = 0) and items differ: ICC exactly 1."""
    assert _icc([[1, 1, 1], [0, 0], [1, 1], [0, 0, 0, 0]]) == 1.0


def test_icc_is_nan_without_two_items_or_repeated_samples(strict):
    """NaN with one item (however many samples), with one sample per item, and where no indicator varies at all."""
    assert math.isnan(A.icc_anova(np.array([0.5]), np.array([4])))
    assert math.isnan(A.icc_anova(np.array([1.0, 0.0, 1.0]), np.array([1, 1, 1])))
    assert math.isnan(_icc([[0, 0], [0, 0, 0]]))
    assert math.isnan(_icc([[1, 1], [1]]))


# ---------------------------------------------------------------- consistency


def garwood_wilson(x, n, level=0.95):
    """Wilson (statsmodels) widened to Garwood's exact Poisson bounds (chi²) where x or n − x is at most 10."""
    alpha = 1 - level
    low, high = (float(v) for v in proportion_confint(x, n, alpha=alpha, method="wilson"))
    rest = n - x
    if x <= 10:
        if x > 0:
            low = min(low, stats.chi2.ppf(alpha / 2, 2 * x) / 2 / n)
        high = max(high, stats.chi2.ppf(1 - alpha / 2, 2 * (x + 1)) / 2 / n)
    if rest <= 10:
        low = min(low, 1 - stats.chi2.ppf(1 - alpha / 2, 2 * (rest + 1)) / 2 / n)
        if rest > 0:
            high = max(high, 1 - stats.chi2.ppf(alpha / 2, 2 * rest) / 2 / n)
    return max(low, 0.0), min(high, 1.0)


def _consistency_table():
    """System b (listed first; male golds only, one sample each) and system a (three or fewer samples per item)."""
    rows = [
        ("b", "de", 1, "male", "pro", "female"),
        ("b", "de", 2, "male", "pro", "male"),
        ("b", "de", 3, "male", "pro", "unknown", "missing"),
        ("b", "de", 3, "male", "pro", "unknown", "not_in_file"),
        ("a", "de", 1, "male", "pro", "male"),
        ("a", "de", 1, "male", "pro", "male"),
        ("a", "de", 1, "male", "pro", "male"),
        ("a", "de", 2, "male", "anti", "male"),
        ("a", "de", 2, "male", "anti", "female"),
        ("a", "de", 3, "female", "pro", "female"),
        ("a", "de", 3, "female", "pro", "female"),
        ("a", "de", 3, "female", "pro", "unknown"),
        ("a", "de", 4, "female", "anti", "female"),
        ("a", "de", 4, "female", "anti", "female", "missing"),  # absent rows are no samples
        ("a", "de", 5, "male", "pro", "unknown", "not_in_file"),
        ("a", "de", 6, "female", "pro", "unknown", "missing"),
    ]
    return frame(rows)


def test_consistency_columns_rows_and_counts():
    """Columns in order; rows b:all, b:male (no female gold), a:all, a:male, a:female; n and mean samples per row."""
    out = A.consistency(_consistency_table())
    assert list(out.columns) == [
        "system",
        "language",
        "gold",
        "n",
        "samples",
        "disagree",
        "disagree_ci_low",
        "disagree_ci_high",
        "female",
        "female_ci_low",
        "female_ci_high",
        "icc_female",
        "icc_correct",
    ]
    assert list(zip(out["system"], out["gold"])) == [("b", "all"), ("b", "male"), ("a", "all"), ("a", "male"), ("a", "female")]
    assert (out["language"] == "de").all()
    assert out["n"].tolist() == [2, 2, 4, 2, 2]
    np.testing.assert_allclose(out["samples"], [1.0, 1.0, 9 / 4, 5 / 2, 2.0])


def test_consistency_disagreement_and_its_interval():
    """disagree: items of 2+ samples read as different genders (a: items 2, 3 of 1, 2, 3), modified Wilson over them."""
    out = A.consistency(_consistency_table()).set_index(["system", "gold"])
    for key, (d, n) in {("a", "all"): (2, 3), ("a", "male"): (1, 2), ("a", "female"): (1, 1)}.items():
        row = out.loc[key]
        assert row["disagree"] == pytest.approx(d / n)
        low, high = garwood_wilson(d, n)
        assert row["disagree_ci_low"] == pytest.approx(low, rel=1e-9, abs=1e-12)
        assert row["disagree_ci_high"] == pytest.approx(high, rel=1e-9, abs=1e-12)
    for key in [("b", "all"), ("b", "male")]:  # one sample each: nothing to disagree on
        assert out.loc[key, ["disagree", "disagree_ci_low", "disagree_ci_high"]].isna().all()


def test_consistency_female_share_and_its_interval():
    """female: mean over items of the share read female; interval on the items (few female readings: no clustering gain)."""
    out = A.consistency(_consistency_table()).set_index(["system", "gold"])
    shares = {
        ("a", "all"): [0, 0.5, 2 / 3, 1],
        ("a", "male"): [0, 0.5],
        ("a", "female"): [2 / 3, 1],
        ("b", "all"): [1, 0],
        ("b", "male"): [1, 0],
    }
    for key, y in shares.items():
        row = out.loc[key]
        assert row["female"] == pytest.approx(np.mean(y), rel=1e-12)
        low, high = garwood_wilson(sum(y), len(y))
        assert row["female_ci_low"] == pytest.approx(low, rel=1e-9, abs=1e-12)
        assert row["female_ci_high"] == pytest.approx(high, rel=1e-9, abs=1e-12)


def test_consistency_icc_of_female_and_correct_readings():
    """icc_female and icc_correct are the ANOVA ICCs of the raw 0/1 indicators per item; NaN with one sample each."""
    out = A.consistency(_consistency_table()).set_index(["system", "gold"])
    female = {1: [0, 0, 0], 2: [0, 1], 3: [1, 1, 0], 4: [1]}
    correct = {1: [1, 1, 1], 2: [1, 0], 3: [1, 1, 0], 4: [1]}
    for key, items in {("a", "all"): [1, 2, 3, 4], ("a", "male"): [1, 2], ("a", "female"): [3, 4]}.items():
        expected_f = min(max(anova_icc([female[i] for i in items])[0], 0.0), 1.0)
        expected_c = min(max(anova_icc([correct[i] for i in items])[0], 0.0), 1.0)
        assert out.loc[key, "icc_female"] == pytest.approx(expected_f, rel=1e-12, abs=1e-15)
        assert out.loc[key, "icc_correct"] == pytest.approx(expected_c, rel=1e-12, abs=1e-15)
    assert out.loc[("b", "all"), ["icc_female", "icc_correct"]].isna().all()
    # the female indicator differs from the correct one on items 1 and 2: the columns are not interchangeable
    assert out.loc[("a", "male"), "icc_female"] != out.loc[("a", "male"), "icc_correct"]


def _wide_table():
    """25 items of two samples: 12 read male and neutral (disagree, not female), 13 read female twice (agree)."""
    rows = []
    for i in range(25):
        pair = ("male", "neutral") if i < 12 else ("female", "female")
        rows += [("s", "it", i, "female", "pro", g) for g in pair]
    return frame(rows)


@pytest.mark.parametrize("level", [0.95, 0.9])
def test_consistency_intervals_are_wilson_with_many_events_at_the_level_given(level):
    """12 of 25 disagree, 13 of 25 female (all 0/1 shares): both intervals are Wilson's (statsmodels) at `level`."""
    kwargs = {} if level == 0.95 else {"level": level}
    out = A.consistency(_wide_table(), **kwargs)
    assert out["gold"].tolist() == ["all", "female"]
    for _, row in out.iterrows():
        assert row["n"] == 25 and row["samples"] == 2.0
        assert row["disagree"] == pytest.approx(12 / 25)
        low, high = proportion_confint(12, 25, alpha=1 - level, method="wilson")
        assert row["disagree_ci_low"] == pytest.approx(low, rel=1e-12)
        assert row["disagree_ci_high"] == pytest.approx(high, rel=1e-12)
        assert row["female"] == pytest.approx(13 / 25)
        low, high = proportion_confint(13, 25, alpha=1 - level, method="wilson")
        assert row["female_ci_low"] == pytest.approx(low, rel=1e-12)
        assert row["female_ci_high"] == pytest.approx(high, rel=1e-12)
        assert row["icc_female"] == 1.0  # female reading never varies within an item


def _split_table():
    """40 items of two samples (gold female): 10 read female twice, 10 male twice, 20 once each."""
    rows = []
    for i in range(40):
        pair = ("female", "female") if i < 10 else ("male", "male") if i < 20 else ("female", "male")
        rows += [("s", "de", i, "female", "anti", g) for g in pair]
    return frame(rows)


@pytest.mark.parametrize("level", [0.95, 0.8])
def test_consistency_female_interval_on_the_effective_sample_size(level):
    """Split items: Wilson on n_eff = p(1−p)/V · (z/t₃₉)², V = Σ((yᵢ − p)/n)², p = 1/2 (Korn & Graubard), at `level`."""
    y = np.r_[np.ones(10), np.zeros(10), np.full(20, 0.5)]
    p = y.mean()
    variance = np.sum(((y - p) / len(y)) ** 2)
    z, t = stats.norm.ppf(0.5 + level / 2), stats.t.ppf(0.5 + level / 2, len(y) - 1)
    n_eff = max(p * (1 - p) / variance * (z / t) ** 2, len(y))
    assert min(p, 1 - p) * n_eff > 10  # many events: neither the worst case nor the Poisson widening applies
    out = A.consistency(_split_table(), level=level)
    row = out.set_index("gold").loc["all"]
    low, high = proportion_confint(p * n_eff, n_eff, alpha=1 - level, method="wilson")
    assert row["female"] == pytest.approx(0.5)
    assert row["female_ci_low"] == pytest.approx(low, rel=1e-10)
    assert row["female_ci_high"] == pytest.approx(high, rel=1e-10)
    assert row["disagree"] == pytest.approx(0.5)
    low, high = proportion_confint(20, 40, alpha=1 - level, method="wilson")
    assert (row["disagree_ci_low"], row["disagree_ci_high"]) == (pytest.approx(low, rel=1e-12), pytest.approx(high, rel=1e-12))
    groups = [[1, 1]] * 10 + [[0, 0]] * 10 + [[1, 0]] * 20
    assert row["icc_female"] == pytest.approx(anova_icc(groups)[0], rel=1e-12)
    assert row["icc_correct"] == pytest.approx(anova_icc(groups)[0], rel=1e-12)  # gold female: correct is female


def test_consistency_skips_neutral_rows_only_when_absent():
    """A neutral gold present gets its own row after female."""
    table = frame([("s", "de", 1, "neutral", "none", "neutral"), ("s", "de", 2, "male", "pro", "male")])
    out = A.consistency(table)
    assert out["gold"].tolist() == ["all", "male", "neutral"]
    assert out["n"].tolist() == [2, 1, 1]


# ---------------------------------------------------------------- unread_flags


def _unread(languages, n_unknown, n=None):
    n = n or [100] * len(n_unknown)
    return A.unread_flags(pd.DataFrame({"language": languages, "n": n, "n_unknown": n_unknown}))


def test_unread_flags_ratio_boundary():
    """Others' median 10%: 36% is above 3 × 10% + 5% (flagged), 34% below; the median, not the mean, of the others."""
    flags = _unread(["de"] * 4 + ["fr"] * 4, [2, 10, 10, 34, 2, 10, 10, 36])
    assert flags == ["", "", "", "", "", "", "", "36% unread (other systems: 10%): check the file"]


def test_unread_flags_margin_boundary_is_strict():
    """Others at 0%: exactly 5% is not above 3 × 0 + 5%; 6% is; 4% is not."""
    assert _unread(["w"] * 3, [0, 0, 5]) == ["", "", ""]
    assert _unread(["w"] * 3, [0, 0, 6]) == ["", "", "6% unread (other systems: 0%): check the file"]
    assert _unread(["w"] * 3, [0, 4, 0]) == ["", "", ""]


def test_unread_flags_share_is_over_each_rows_own_n():
    """20 unread of 200 is 10% (not above 3 × 5% + 5%); 42 of 200 is 21% (above), against 5 of 100 and 10 of 200."""
    assert _unread(["de"] * 3, [5, 10, 20], n=[100, 200, 200]) == ["", "", ""]
    assert _unread(["de"] * 3, [5, 10, 42], n=[100, 200, 200]) == ["", "", "21% unread (other systems: 5%): check the file"]


def test_unread_flags_need_another_system_of_the_language():
    """A language with one system is never flagged; with two, the other is the reference."""
    assert _unread(["x"], [90]) == [""]
    assert _unread(["z", "z"], [0, 10]) == ["", "10% unread (other systems: 0%): check the file"]


def test_unread_flags_keep_languages_apart():
    """x at 0% and y at 30%: nothing is flagged, since each is compared within its own language only."""
    assert _unread(["x", "y", "x", "y"], [0, 30, 0, 30]) == ["", "", "", ""]

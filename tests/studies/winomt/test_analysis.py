"""WinoMT analysis helpers (arrays, coverage, samples, consistency, ICC, unread flags, pilots) on small synthetic tables.

Every expected value is counted by eye from the table in the test, or computed by a hand formula written here
(one-way ANOVA from the raw 0/1 data, Wilson from statsmodels, Garwood's Poisson bounds from scipy's chi²).
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import optimize, stats
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint

from stats_mtbias.errors import DataError, DataQualityWarning, UsageError
from stats_mtbias.estimators.winomt import FEATURES, METRICS, winomt_metrics
from stats_mtbias.result import StudyResult
from stats_mtbias.studies._samples import icc_anova
from stats_mtbias.studies.winomt import analysis as A
from stats_mtbias.studies.winomt.analysis import adjective_effect, analyse

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
    """A WinoMT result holding what `pilot` reads of it: the public frame of judgements and the systems."""
    return StudyResult("winomt", pd.DataFrame({"system": list(systems)}), None, {}, {"judgements": table})


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
    message = (
        "WinoMT a/de: items have 1–3 samples; each item's samples are averaged "
        "(every item weighs the same; an unknown sample counts as absent)"
    )
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
    return icc_anova(np.array([np.mean(g) for g in groups]), np.array([len(g) for g in groups]))


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
    assert math.isnan(icc_anova(np.array([0.5]), np.array([4])))
    assert math.isnan(icc_anova(np.array([1.0, 0.0, 1.0]), np.array([1, 1, 1])))
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
        "n_several",
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
    # Known samples only (the one rule: an unknown sample is an absent one): a's item 3 has two, item 4 one.
    np.testing.assert_allclose(out["samples"], [1.0, 1.0, 2.0, 5 / 2, 3 / 2])
    assert out["n_several"].tolist() == [0, 0, 3, 2, 1]


def test_consistency_disagreement_and_its_interval():
    """disagree: items of 2+ known samples read as different genders (a: item 2 of 1, 2, 3; item 3's unknown sample
    is absent), modified Wilson over them."""
    out = A.consistency(_consistency_table()).set_index(["system", "gold"])
    for key, (d, n) in {("a", "all"): (1, 3), ("a", "male"): (1, 2), ("a", "female"): (0, 1)}.items():
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
        ("a", "all"): [0, 0.5, 1, 1],
        ("a", "male"): [0, 0.5],
        ("a", "female"): [1, 1],
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
    female = {1: [0, 0, 0], 2: [0, 1], 3: [1, 1], 4: [1]}  # known samples (item 3's unknown one is absent)
    correct = {1: [1, 1, 1], 2: [1, 0], 3: [1, 1], 4: [1]}
    assert out.loc[("a", "female"), ["icc_female", "icc_correct"]].isna().all()  # every known sample alike: no ICC
    for key, items in {("a", "all"): [1, 2, 3, 4], ("a", "male"): [1, 2]}.items():
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


# -----------------------------------------------------------------------------
# WinoMT study: analyse's estimates and comparisons, and adjective_effect, against hand values (mutation kills).
#
# Expected values are independent of the package: WinoMT metrics counted by hand
# (Acc = correct / n, F1 = 2 TP / (predicted + gold), ΔG = F1m − F1f, ΔS = Acc_pro − Acc_anti),
# Tango's interval from its published examples, McNemar's score test from its formula
# (b − c) / √(b + c), Holm from statsmodels, and invariants of the bootstrap.


STUDY_METRICS = ["acc", "f1_male", "f1_female", "delta_g", "acc_pro", "acc_anti", "delta_s"]
ESTIMATE_COLUMNS = ["system", "language", "n", "n_unknown", "n_outputs"] + [
    c for m in STUDY_METRICS for c in (m, f"{m}_ci_low", f"{m}_ci_high", f"{m}_n")
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
    assert list(comp["metric"]) == STUDY_METRICS
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
        m = STUDY_METRICS.index(metric)
        b, c, n = np.sum(ok_a & ~ok_b & on), np.sum(~ok_a & ok_b & on), np.sum(on)
        assert res["n"][m] == n and res["diff"][m] == pytest.approx((b - c) / n, abs=1e-12), metric
        limits[metric] = ((b - c) / n, *_tango(b, c, n, level))
        assert res["low"][m] == pytest.approx(limits[metric][1], abs=1e-7), metric
        assert res["high"][m] == pytest.approx(limits[metric][2], abs=1e-7), metric
        assert res["p_value"][m] == pytest.approx(2 * stats.norm.sf(abs(b - c) / np.sqrt(b + c)), rel=1e-9), metric
        assert res["method"][m] == TANGO
    (pro, lp, hp), (anti, la, ha) = limits["acc_pro"], limits["acc_anti"]
    m, d = STUDY_METRICS.index("delta_s"), pro - anti
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
        m = STUDY_METRICS.index(metric)
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
        m = STUDY_METRICS.index(metric)
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
        m = STUDY_METRICS.index(metric)
        assert res["diff"][m] == 0 and res["p_value"][m] == 1.0
        assert res["low"][m] == pytest.approx(-t * se[j], rel=1e-9) and res["high"][m] == pytest.approx(t * se[j], rel=1e-9)
        assert se[j] > 0
        assert res["method"][m] == "jackknife t (0 discordant items, 1 df, 2 pseudo-items)"


def test_no_pro_items_leaves_acc_pro_and_delta_s_empty():
    """Without pro-stereotypical items, Acc_pro and ΔS have n 0 (ΔS: the anti items) and no interval or p-value."""
    stereotype = np.resize(np.array(["anti", "none"]), 40)
    gold, stereotype, read_a, read_b = _pair(40, [1, 2, 5, 9, 12], stereotype)
    res = _compare(gold, stereotype, read_a, read_b, 0.95)
    pro, anti, ds = (STUDY_METRICS.index(m) for m in ("acc_pro", "acc_anti", "delta_s"))
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
    m = STUDY_METRICS.index("acc_pro")
    assert res["n"][m] == 1 and res["diff"][m] == 1.0
    low, high = _tango(1, 0, 1, 0.95)
    assert res["low"][m] == pytest.approx(low, abs=1e-7) and res["high"][m] == pytest.approx(high, abs=1e-7)
    assert res["p_value"][m] == pytest.approx(2 * stats.norm.sf(1.0), rel=1e-9)
    assert np.isfinite(res["low"][STUDY_METRICS.index("delta_s")])


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
        m = STUDY_METRICS.index(metric)
        assert np.isnan(res["diff"][m]) and np.isnan(res["low"][m]) and np.isnan(res["high"][m]), metric
        assert np.isnan(res["p_value"][m]), metric
    assert 0 < res["p_value"][STUDY_METRICS.index("f1_male")] < 1


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
        m = STUDY_METRICS.index(metric)
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
        m = STUDY_METRICS.index(metric)
        d = 0.0 if metric == "delta_g" else 1.0  # ΔG is 0 for both systems
        assert res["diff"][m] == d and se[j] > 0, metric
        assert res["low"][m] == pytest.approx(d - t * se[j], rel=1e-9), metric
        assert res["high"][m] == pytest.approx(min(d + t * se[j], 1.0), rel=1e-9), metric
        assert res["p_value"][m] == pytest.approx(2 * stats.t.sf(abs(d) / se[j], 19), rel=1e-9), metric
        assert res["method"][m] == "jackknife t (20 discordant items, 19 df, 2 pseudo-items)"
    assert res["high"][STUDY_METRICS.index("f1_male")] == 1.0 and 0 < res["p_value"][STUDY_METRICS.index("f1_male")] < 1e-6


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
        m = STUDY_METRICS.index(metric)
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

    shape = (data.shape[1], len(STUDY_METRICS))
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
            m = STUDY_METRICS.index(metric)
            limits[metric] = (ok[on].mean(), *_wilson_poisson(int(ok[on].sum()), int(on.sum()), level))
            assert ci.low[s, m] == pytest.approx(limits[metric][1], abs=1e-9), (s, metric)
            assert ci.high[s, m] == pytest.approx(limits[metric][2], abs=1e-9), (s, metric)
        (p1, l1, u1), (p2, l2, u2) = limits["acc_pro"], limits["acc_anti"]
        m = STUDY_METRICS.index("delta_s")
        assert ci.low[s, m] == pytest.approx(p1 - p2 - np.hypot(p1 - l1, u2 - p2), abs=1e-9), s
        assert ci.high[s, m] == pytest.approx(p1 - p2 + np.hypot(u1 - p1, p2 - l2), abs=1e-9), s


def test_score_bounds_without_anti_items_keep_the_bootstrap_delta_s():
    """No anti item: Acc_anti has no interval (NaN) and ΔS keeps the bootstrap's bounds; Acc still gets Wilson's."""
    gold = np.where(np.arange(30) % 2 == 0, "male", "female")
    stereotype = np.resize(np.array(["pro", "none"]), 30)
    read = _read(gold, np.arange(30) % 4 != 0)
    ci = _score_bounds([read], gold, stereotype, 0.95)
    anti, ds, acc = STUDY_METRICS.index("acc_anti"), STUDY_METRICS.index("delta_s"), STUDY_METRICS.index("acc")
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
        m = STUDY_METRICS.index(f"f1_{g}")
        assert (ci.low[0, m], ci.high[0, m]) == (pytest.approx(parts[g][1], abs=1e-9), pytest.approx(parts[g][2], abs=1e-9))
    (fm, lm, hm), (ff, lf, hf) = parts["male"], parts["female"]
    m = STUDY_METRICS.index("delta_g")
    assert ci.low[0, m] == pytest.approx(fm - ff - np.hypot(fm - lm, hf - ff), abs=1e-9)
    assert ci.high[0, m] == pytest.approx(fm - ff + np.hypot(hm - fm, ff - lf), abs=1e-9)
    # with replicates whose F1s correlate by r, Zou's MOVER with that correlation
    rng = np.random.default_rng(0)
    x = rng.normal(size=(200, 2))
    reps = np.zeros((200, 1, len(STUDY_METRICS)))
    reps[:, 0, STUDY_METRICS.index("f1_male")] = x[:, 0]
    reps[:, 0, STUDY_METRICS.index("f1_female")] = 0.6 * x[:, 0] + 0.8 * x[:, 1]
    r = np.corrcoef(reps[:, 0, STUDY_METRICS.index("f1_male")], reps[:, 0, STUDY_METRICS.index("f1_female")])[0, 1]
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
    cols = [STUDY_METRICS.index(c) for c in ("f1_male", "f1_female", "delta_g")]
    ci = _score_bounds([read], gold, stereotype, 0.95)
    assert np.all(ci.low[0, cols] == -5.0) and np.all(ci.high[0, cols] == 5.0)
    low, high = np.full(len(STUDY_METRICS), -5.0), np.full(len(STUDY_METRICS), 5.0)
    low[STUDY_METRICS.index("delta_g")] = high[STUDY_METRICS.index("delta_g")] = 0.0  # the bootstrap's ΔG is a point
    ci = _score_bounds([read], gold, stereotype, 0.95, low, high)
    tp, errors = _f1_parts(gold, read, "male")
    expected = _wilson_poisson(2 * tp, 2 * tp + errors, 0.95)
    m = STUDY_METRICS.index("f1_male")
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
        m = STUDY_METRICS.index(column)
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
    m = STUDY_METRICS.index("acc")
    assert ci.low[0, m] == pytest.approx(low, abs=1e-9) and ci.high[0, m] == pytest.approx(high, abs=1e-9)


def test_score_bounds_on_a_single_anti_item():
    """One anti item (read right): Acc_anti's interval is Wilson's for 1 of 1 with the Poisson end, not NaN."""
    gold = np.where(np.arange(20) % 2 == 0, "male", "female")
    stereotype = np.array(["anti"] + ["pro"] * 19)
    ci = _score_bounds([gold.copy()], gold, stereotype, 0.95)
    m = STUDY_METRICS.index("acc_anti")
    low, high = _wilson_poisson(1, 1, 0.95)
    assert ci.low[0, m] == pytest.approx(low, abs=1e-9) and ci.high[0, m] == pytest.approx(high, abs=1e-9)
    p2, (l2, u2) = 1.0, _wilson_poisson(19, 19, 0.95)
    m = STUDY_METRICS.index("delta_s")  # Newcombe's hybrid of the pro (19 of 19) and anti (1 of 1) limits
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
    m = STUDY_METRICS.index("acc")
    assert ci.low[0, m] == pytest.approx(low, abs=1e-9) and ci.high[0, m] == pytest.approx(high, abs=1e-9)


def test_an_undefined_f1_gets_no_score_interval():
    """No female item, gold or read, and few male errors: F1f and ΔG stay NaN with no interval (not [0, 1])."""
    gold = np.array(["male", "neutral"] * 20, dtype=object)
    read = gold.copy()
    read[0] = "neutral"
    ci = _score_bounds([read], gold, np.array(["pro", "none"] * 20), 0.95, np.nan, np.nan)
    tp, errors = _f1_parts(gold, read, "male")
    m = STUDY_METRICS.index("f1_male")
    assert ci.low[0, m] == pytest.approx(_wilson_poisson(2 * tp, 2 * tp + errors, 0.95)[0], abs=1e-9)
    for column in ("f1_female", "delta_g"):
        assert np.isnan(ci.low[0, STUDY_METRICS.index(column)]) and np.isnan(ci.high[0, STUDY_METRICS.index(column)]), column


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
        m = STUDY_METRICS.index(f"f1_{g}")
        assert ci.low[0, m] == pytest.approx(_wilson_poisson(2 * tp, 2 * tp + errors, 0.95)[0], abs=1e-9), g
        assert ci.high[0, m] == pytest.approx(_wilson_poisson(2 * tp, 2 * tp + errors, 0.95)[1], abs=1e-9), g
    cols = [STUDY_METRICS.index(c) for c in ("f1_male", "f1_female", "delta_g")]
    assert np.all(ci.low[1, cols] == -5.0) and np.all(ci.high[1, cols] == 5.0)


def test_constant_replicates_give_delta_g_an_uncorrelated_mover_without_warning():
    """Replicates with a constant F1 have no correlation: ΔG's MOVER uses r = 0, silently."""
    import warnings

    gold = np.array(["male", "female"] * 30)
    stereotype = np.array(["pro", "anti"] * 30)
    correct = np.ones(60, bool)
    correct[[0, 2, 4, 1]] = False
    read = _read(gold, correct)
    reps = np.zeros((50, 1, len(STUDY_METRICS)))
    reps[:, 0, STUDY_METRICS.index("f1_male")] = np.linspace(0.8, 1.0, 50)  # f1_female constant 0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ci = _score_bounds([read], gold, stereotype, 0.95, replicates=reps)
    parts = {}
    for g in ("male", "female"):
        tp, errors = _f1_parts(gold, read, g)
        parts[g] = (2 * tp / (2 * tp + errors), *_wilson_poisson(2 * tp, 2 * tp + errors, 0.95))
    (fm, lm, hm), (ff, lf, hf) = parts["male"], parts["female"]
    m = STUDY_METRICS.index("delta_g")
    assert ci.low[0, m] == pytest.approx(fm - ff - np.hypot(fm - lm, hf - ff), abs=1e-9)
    assert ci.high[0, m] == pytest.approx(fm - ff + np.hypot(hm - fm, ff - lf), abs=1e-9)


@pytest.mark.parametrize("column", ["f1_male", "f1_female"])
def test_a_point_bootstrap_f1_alone_gets_the_score_interval(column):
    """Many errors, but the bootstrap interval of one F1 (not ΔG) is a point: the score intervals replace all three."""
    gold = np.array(["male", "female"] * 30)
    read = _read(gold, np.arange(60) % 4 > 1)
    low, high = np.full(len(STUDY_METRICS), -5.0), np.full(len(STUDY_METRICS), 5.0)
    low[STUDY_METRICS.index(column)] = high[STUDY_METRICS.index(column)] = 0.5
    ci = _score_bounds([read], gold, np.array(["pro", "anti"] * 30), 0.95, low, high)
    tp, errors = _f1_parts(gold, read, "male")
    m = STUDY_METRICS.index("f1_male")
    assert ci.low[0, m] == pytest.approx(_wilson_poisson(2 * tp, 2 * tp + errors, 0.95)[0], abs=1e-9)


def test_point_bootstrap_stays_where_male_has_no_f1():
    """No male item, gold or read: a point bootstrap interval of F1f is kept (no ΔG score interval to give)."""
    gold = np.array(["female", "neutral"] * 20, dtype=object)
    read = gold.copy()
    read[:24:2] = "neutral"
    ci = _score_bounds([read], gold, np.array(["anti", "none"] * 20), 0.95, 0.25, 0.25)
    for column in ("f1_male", "f1_female", "delta_g"):
        assert ci.low[0, STUDY_METRICS.index(column)] == 0.25 and ci.high[0, STUDY_METRICS.index(column)] == 0.25, column


@pytest.mark.parametrize("pro_items", [0, 1])
def test_delta_s_with_zero_or_one_pro_item(pro_items):
    """No pro item: ΔS keeps the bootstrap bounds; one pro item: Newcombe's hybrid from the Wilson/Poisson limits."""
    gold = np.where(np.arange(30) % 2 == 0, "male", "female")
    stereotype = np.array(["pro"] * pro_items + ["anti"] * (30 - pro_items))
    read = _read(gold, np.arange(30) % 4 != 1)
    ci = _score_bounds([read], gold, stereotype, 0.95)
    m = STUDY_METRICS.index("delta_s")
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
    m = STUDY_METRICS.index("f1_female")
    assert ci.low[0, m] == pytest.approx(_wilson_poisson(2 * tp, 2 * tp + errors, 0.95)[0], abs=1e-9)


def test_an_f1_on_a_single_trial():
    """One female item, read male, no other female reading: F1f = 0 of 2TP + FP + FN = 1, with its score interval."""
    gold = np.array(["female"] + ["male"] * 29, dtype=object)
    read = np.array(["male"] * 30, dtype=object)
    ci = _score_bounds([read], gold, np.array(["anti"] + ["pro"] * 29), 0.95, np.nan, np.nan)
    m = STUDY_METRICS.index("f1_female")
    low, high = _wilson_poisson(0, 1, 0.95)
    assert ci.low[0, m] == pytest.approx(low, abs=1e-12) and ci.high[0, m] == pytest.approx(high, abs=1e-12)
    assert np.isfinite(ci.low[0, STUDY_METRICS.index("delta_g")])


# -----------------------------------------------------------------------------
# WinoMT analysis helpers on small synthetic tables: expected values by eye, by the ANOVA formula or by scipy.


SAMPLED_COLUMNS = ["system", "language", "item", "gold", "stereotype", "gender", "reason", "sample"]


def sampled_frame(rows):
    """A judgement table from tuples ``(system, language, item, gold, stereotype, gender, reason, sample)``."""
    return pd.DataFrame([list(r) for r in rows], columns=SAMPLED_COLUMNS)


def _icc_hand(means, sizes):
    """(MSB − MSW) / (MSB + (k0 − 1) MSW) of the one-way ANOVA, unclipped, in plain Python floats."""
    g, total = len(means), float(sum(sizes))
    grand = sum(k * y for k, y in zip(sizes, means, strict=True)) / total
    msb = sum(k * (y - grand) ** 2 for k, y in zip(sizes, means, strict=True)) / (g - 1)
    msw = sum(k * y * (1 - y) for k, y in zip(sizes, means, strict=True)) / (total - g)
    k0 = (total - sum(float(k) ** 2 for k in sizes) / total) / (g - 1)
    return (msb - msw) / (msb + (k0 - 1) * msw)


def test_icc_of_float32_means_and_uint8_sizes():
    """float32 item means and uint8 sample sizes (k² beyond 255) give the double-precision ANOVA ICC of those numbers."""
    means32 = np.array([0.1, 0.7, 0.3, 0.9, 0.55], dtype=np.float32)
    sizes = [2, 3, 2, 4, 3]
    want = _icc_hand([float(m) for m in means32], sizes)  # the float32 values, exactly, in double
    assert 0 < want < 1
    assert A.icc_anova(means32, np.array(sizes)) == pytest.approx(want, rel=1e-14)
    means = [0.9, 0.1, 0.5, 0.75]
    sizes = [20, 16, 30, 24]
    want = min(max(_icc_hand(means, sizes), 0.0), 1.0)
    assert 0 < want < 1
    assert A.icc_anova(np.array(means), np.array(sizes, dtype=np.uint8)) == pytest.approx(want, rel=1e-12)


def test_icc_is_clipped_at_one():
    """The ratio is clipped to [0, 1] as documented, even where it exceeds one (means outside [0, 1])."""
    means, sizes = [2.0, 2.0, 0.0, 0.0], [3, 3, 3, 3]
    assert _icc_hand(means, sizes) == pytest.approx(5.5)  # MSB 4, MSW −1.5, k0 3
    assert A.icc_anova(np.array(means), np.array(sizes)) == 1.0


def test_shared_items_wrong_rule_keeps_every_language():
    """missing='wrong' keeps the rows of every language, not only of the first."""
    table = sampled_frame(
        [(s, lang, i, "male", "pro", "male", "", 0) for lang in ("de", "fr", "es") for s in ("a", "b") for i in (1, 2)]
    )
    got = A.shared_items(table, missing="wrong")
    assert len(got) == len(table) == 12
    assert sorted(got["language"].unique()) == ["de", "es", "fr"]


def test_check_samples_two_samples_each_and_order_of_notes():
    """Two samples per item are several samples; notes on unequal counts come in order of first appearance."""
    even = sampled_frame([("a", "de", i, "male", "pro", "male", "", s) for i in (1, 2) for s in (0, 1)])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert A.check_samples(even) is True
    rows = [
        ("z", "fr", 1, "male", "pro", "male", "", 0),
        ("z", "fr", 1, "male", "pro", "male", "", 1),
        ("z", "fr", 2, "male", "pro", "male", "", 0),
        ("a", "de", 1, "male", "pro", "male", "", 0),
        ("a", "de", 1, "male", "pro", "male", "", 1),
        ("a", "de", 2, "male", "pro", "male", "", 0),
    ]
    notes = []
    with pytest.warns(DataQualityWarning):
        assert A.check_samples(sampled_frame(rows), notes) is True
    assert len(notes) == 2
    assert notes[0].startswith("WinoMT z/fr") and notes[1].startswith("WinoMT a/de")


def test_consistency_disagreement_interval_of_a_single_item():
    """One item with two samples read alike at level .5: 0 of n = 1, upper bound max(Wilson, Gamma.ppf(.75, 1)/1) → 1."""
    table = sampled_frame([("a", "de", 1, "male", "pro", "male", "", 0), ("a", "de", 1, "male", "pro", "male", "", 1)])
    got = A.consistency(table, level=0.5)
    row = got[got["gold"] == "all"].iloc[0]
    assert row["disagree"] == 0.0 and row["disagree_ci_low"] == 0.0
    # Garwood's upper bound for 0 events in 1 trial is ln 4 ≈ 1.39 > 1 (it would be ln 4 / 2 ≈ 0.69 with n = 2).
    assert stats.gamma.ppf(0.75, 1.0) == pytest.approx(math.log(4))
    assert row["disagree_ci_high"] == 1.0


def test_consistency_without_any_read_item_keeps_its_columns():
    """A table of absent items only gives an empty table that still has every consistency column."""
    table = sampled_frame([("a", "de", 1, "male", "pro", "", "missing", 0)])
    got = A.consistency(table)
    assert len(got) == 0
    assert list(got.columns) == A.CONSISTENCY_COLUMNS


def test_few_error_f1_with_a_gender_nobody_has():
    """F1(female) is undefined (NaN interval) for a system with no female item or reading; the other gets score bounds."""
    totals = np.zeros((2, len(FEATURES)))
    ix = {name: i for i, name in enumerate(FEATURES)}
    for s, (tp_m, pred_m, pred_f) in enumerate([(10, 10, 0), (9, 9, 1)]):  # 10 male items; system 1 says "she" once
        totals[s, [ix["tp_male"], ix["pred_male"], ix["gold_male"], ix["pred_female"]]] = tp_m, pred_m, 10, pred_f
    low, high = np.full((2, len(METRICS)), 0.5), np.full((2, len(METRICS)), 0.5)  # point intervals
    A._few_error_f1(totals, low, high, 0.95, None)
    f1m, f1f = METRICS.index("f1_male"), METRICS.index("f1_female")
    assert math.isnan(low[0, f1f]) and math.isnan(high[0, f1f])
    # System 1: F1(male) = 18/19, F1(female) = 0/1; both intervals contain their estimate.
    assert low[1, f1m] <= 18 / 19 <= high[1, f1m] and high[1, f1m] > low[1, f1m]
    assert low[1, f1f] == 0.0 and 0 < high[1, f1f] <= 1


def test_unread_flags_of_a_lone_system_are_silent():
    """A system alone in its language gets no flag and no warning (no median of an empty set is taken)."""
    est = pd.DataFrame({"language": ["de", "fr", "fr"], "n": [100] * 3, "n_unknown": [50, 1, 2]})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert A.unread_flags(est) == ["", "", ""]

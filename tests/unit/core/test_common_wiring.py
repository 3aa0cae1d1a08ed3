"""Helpers of the studies' shared wiring, checked against their definitions by enumeration."""

from __future__ import annotations

import math
import re
import statistics
import warnings

import numpy as np
import pandas as pd
import pytest

from stats_mtbias.errors import DataQualityWarning, UsageError
from stats_mtbias.studies._common import (
    _nice_ceil,
    integrity,
    melt,
    permutation_floor,
    resample_pvalue,
    system_pairs,
    unreachable_significance,
)

# Every 1, 2, 5 × 10^k from 1 to 10^9, in increasing order.
_NICE = sorted(m * 10**k for k in range(10) for m in (1, 2, 5))


@pytest.mark.parametrize(
    "value",
    [0.0, 0.3, 1, 1.5, 2, 3, 5, 5.5, 9.99, 10, 11, 100, 101, 199, 200, 201, 499, 500, 501, 600, 999, 1000, 1001, 2e5, 6e6, 8e8],
)
def test_nice_ceil_is_the_smallest_1_2_5_number_at_or_above_the_value(value):
    """_nice_ceil(v) is the smallest of 1, 2, 5 × 10^k that is ≥ v (1 for v ≤ 1), returned as an int."""
    got = _nice_ceil(value)
    assert isinstance(got, int)
    assert got == next(x for x in _NICE if x >= value)


def _resample_p_hand(column, estimate):
    """Percentile p 2·min(#(d ≤ 0) + 1, #(d ≥ 0) + 1)/(B + 1) on non-NaN d; at the floor 2/(B + 1), min(floor, 2Φ(−|est|/sd))."""
    d = [v for v in column if not math.isnan(v)]
    b = len(d)
    p = min(1.0, 2 * min(sum(v <= 0 for v in d) + 1, sum(v >= 0 for v in d) + 1) / (b + 1))
    floor = 2 / (b + 1)
    if p > floor * (1 + 1e-9):
        return p
    sd = statistics.stdev(d)
    return floor if sd == 0 else min(floor, math.erfc(abs(estimate) / sd / math.sqrt(2)))


def _resample_columns():
    """Replicate columns (B = 9): straddling 0, one on the far side, all positive (narrow, wide, constant), a NaN."""
    return [
        ([-0.2, -0.1, 0.1, 0.3, 0.5, 0.7, 0.9, 1.1, 1.2], 0.5),
        ([-0.1, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6], 0.35),
        ([0.30, 0.31, 0.29, 0.32, 0.28, 0.30, 0.33, 0.27, 0.30], 0.3),
        ([0.01, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0], 0.01),
        ([5.0] * 9, 5.0),
        ([0.4, 0.6, float("nan"), 0.5, 0.55, 0.45, 0.5, 0.52, 0.48], 0.5),
        ([0.02, 0.03, 0.025, 0.035, 0.015, 0.02, 0.03, 0.025, 0.02], 0.025),
    ]


def test_resample_pvalue_is_the_percentile_p_or_the_capped_normal_tail():
    """Per column: the percentile p-value, or at its floor 2/(B + 1) the normal tail 2Φ(−|d|/sd) capped at the floor."""
    columns = _resample_columns()
    reps = np.array([c for c, _ in columns]).T  # (B, k): replicates along axis 0
    estimate = np.array([e for _, e in columns])
    expected = [_resample_p_hand(c, e) for c, e in columns]
    assert expected[2] < 1e-20 < expected[6] < 2 / 10 == expected[3] == expected[4]  # the cases do what they should
    assert resample_pvalue(reps, estimate) == pytest.approx(expected, rel=1e-9, abs=0)
    assert resample_pvalue(reps.T, estimate, axis=1) == pytest.approx(expected, rel=1e-9, abs=0)
    for column, est in columns:
        got = resample_pvalue(np.array(column)[:, None], np.array([est]))
        assert got == pytest.approx([_resample_p_hand(column, est)], rel=1e-9, abs=0)


def test_resample_pvalue_is_nan_where_the_estimate_is():
    """A NaN estimate gives a NaN p-value (a float NaN), the other columns keep theirs."""
    columns = _resample_columns()[:3]
    reps = np.array([c for c, _ in columns]).T
    got = resample_pvalue(reps, np.array([np.nan, 0.35, 0.3]))
    assert got.dtype == np.float64 and np.isnan(got[0])
    assert got[1:] == pytest.approx([_resample_p_hand(c, e) for c, e in columns[1:]], rel=1e-9, abs=0)


def test_permutation_floor_is_two_to_the_one_minus_d():
    """2^(1 − d), and 1 for d ≤ 1, also from integer counts."""
    assert permutation_floor([0, 1, 2, 5, 20]).tolist() == [1.0, 1.0, 0.5, 2.0**-4, 2.0**-19]
    assert permutation_floor(np.array([3], np.uint8)).tolist() == [0.25]


def test_system_pairs_against_named_systems_each_pair_once():
    """With `against`, each named system (a single name or a list) is paired with every other system once, named first."""
    systems = ["google", "aws", "mine", "deepl"]
    assert system_pairs(systems) == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    assert system_pairs(systems, against="mine") == [(2, 0), (2, 1), (2, 3)]
    assert system_pairs(systems, against=["mine", "aws"]) == [(2, 0), (2, 1), (2, 3), (1, 0), (1, 3)]
    with pytest.raises(UsageError):
        system_pairs(systems, against=["mine", "mine"])
    with pytest.raises(UsageError):
        system_pairs(systems, against="bing")


def test_melt_long_table_with_defaults_scale_missing_bounds_and_counts():
    """melt: one row per (group, metric) on a fresh 0..k−1 index, estimates and bounds scaled, defaults filled in."""
    wide = pd.DataFrame(
        {
            "sys": ["a", "b"],
            "set": ["s1", "s2"],
            "acc": [50.0, 80.0],
            "lo": [40.0, 70.0],
            "hi": [60.0, 90.0],
            "bias": ["1.5", "2"],
            "size": [10, 20],
        }
    )
    metrics = {"accuracy": ("acc", "lo", "hi"), "bias": ("bias", None, None)}
    keys = {"system": "sys", "subset": "set"}
    long = melt(wide, metrics, keys=keys, defaults={"language": "ko"}, n="size", scale=0.01)
    assert list(long.columns) == ["system", "language", "subset", "metric", "estimate", "ci_low", "ci_high", "n"]
    assert long.index.tolist() == [0, 1, 2, 3]
    assert long["system"].tolist() == ["a", "b", "a", "b"] and long["language"].tolist() == ["ko"] * 4
    assert long["metric"].tolist() == ["accuracy", "accuracy", "bias", "bias"]
    assert long["estimate"].tolist() == pytest.approx([0.5, 0.8, 0.015, 0.02], rel=1e-15)
    assert long["ci_low"].tolist()[:2] == pytest.approx([0.4, 0.7], rel=1e-15)
    assert long["ci_high"].tolist()[:2] == pytest.approx([0.6, 0.9], rel=1e-15)
    assert long[["ci_low", "ci_high"]].iloc[2:].isna().all().all()
    assert long["n"].tolist() == [10, 20, 10, 20]
    without_n = melt(wide, metrics, keys=keys, defaults={"language": "ko"}, n=None)
    assert without_n["n"].isna().all()
    assert without_n.loc[0, "estimate"] == 50.0


def _comparisons(families, p_values=None):
    """A comparison frame with the given family labels and p-values (0.5 unless given)."""
    return pd.DataFrame({"family": families, "p_value": p_values if p_values is not None else [0.5] * len(families)})


def test_unreachable_significance_warns_exactly_where_the_corrected_floor_reaches_alpha():
    """Holm's smallest attainable p_adjusted is m × (smallest floor), BH's min_k m f_(k)/k: a warning (and a message) iff ≥ α."""
    assert unreachable_significance(None, 0.01, alpha=0.05, correction="holm") is None
    assert unreachable_significance(_comparisons([]), [], alpha=0.05, correction="holm") is None
    frame = _comparisons(["x"] * 3)
    with pytest.warns(DataQualityWarning):  # Holm: 3 × 0.02 = 0.06 ≥ 0.05
        assert isinstance(unreachable_significance(frame, 0.02, alpha=0.05, correction="holm"), str)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert unreachable_significance(frame, 0.02, alpha=0.05, correction="bh") is None  # BH: 3 × 0.02 / 3 = 0.02
        assert unreachable_significance(frame, 0.016, alpha=0.05, correction="holm") is None  # 0.048 < 0.05
        # The same rows as three families of one: each reaches 0.02 < 0.05 (families= overrides the column).
        assert unreachable_significance(frame, 0.02, alpha=0.05, correction="holm", families=["a", "b", "c"]) is None
    with pytest.warns(DataQualityWarning):  # the floor equal to α is out of reach (p_adjusted ≥ α)
        assert isinstance(unreachable_significance(_comparisons(["x"]), 0.05, alpha=0.05, correction="holm"), str)


def test_unreachable_significance_skips_families_without_p_values_and_mixes_sizes():
    """A family whose p-values are all NaN is skipped, not the end of the search; families of different sizes are reported."""
    frame = _comparisons(["a", "a", "b", "b", "b"], [np.nan, np.nan, 0.5, 0.5, 0.5])
    with pytest.warns(DataQualityWarning):  # family b: 3 × 0.02 = 0.06 ≥ 0.05
        assert isinstance(unreachable_significance(frame, 0.02, alpha=0.05, correction="holm"), str)
    frame = _comparisons(["a", "a", "b", "b", "b"])
    with pytest.warns(DataQualityWarning):  # a: 2 × 0.03 = 0.06, b: 3 × 0.03 = 0.09
        assert isinstance(unreachable_significance(frame, 0.03, alpha=0.05, correction="holm"), str)


def _unreachable_numbers(message):
    """The numbers a reader acts on: families out of reach / checked, 1/(B + 1), suggested B, families no test can fix."""
    out_of = re.search(r"(\d+) of (\d+) famil", message)
    floor = re.search(r"= ([0-9.e+-]+) with B=", message)
    suggested = re.search(r"B ≥ ([\d,]+)", message)
    by_data = re.search(r"in (\d+) famil\w* even", message)
    return (
        (int(out_of[1]), int(out_of[2])),
        float(floor[1]) if floor else None,
        int(suggested[1].replace(",", "")) if suggested else None,
        int(by_data[1]) if by_data else None,
    )


def test_unreachable_significance_message_numbers():
    """The message counts the families, gives 1/(B + 1), suggests the 1-2-5 B ≥ 10 m/α (m = family size for Holm, 1 for BH)."""
    kwargs = {"alpha": 0.05, "resamples": ("B", 9)}
    frame = _comparisons(["a", "a", "a", "b"])
    with pytest.warns(DataQualityWarning):  # a: 3 × 0.02 = 0.06 out of reach, b: 0.02 fine; 10 · 3 / 0.05 = 600 → 1,000
        message = unreachable_significance(frame, 0.02, correction="holm", **kwargs)
    assert _unreachable_numbers(message) == ((1, 2), 0.1, 1000, None)
    frame = _comparisons(["a", "a", "a"])
    with pytest.warns(DataQualityWarning):  # BH of three floors 0.06 is 0.06; 10 · 1 / 0.05 = 200; exact floors 0.02 reach 0.02
        message = unreachable_significance(frame, 0.06, correction="bh", data_floor=0.02, **kwargs)
    assert _unreachable_numbers(message) == ((1, 1), 0.1, 200, None)
    with pytest.warns(DataQualityWarning):  # even the exact floors give Holm 3 × 0.05 ≥ α: no B helps, 1 family
        message = unreachable_significance(frame, 0.02, correction="holm", data_floor=0.05, **kwargs)
    assert _unreachable_numbers(message) == ((1, 1), 0.1, None, 1)
    with pytest.warns(DataQualityWarning):  # one comparison whose exact floor is exactly α: out of reach for the data
        message = unreachable_significance(_comparisons(["a"]), 0.05, correction="holm", data_floor=0.05, **kwargs)
    assert _unreachable_numbers(message) == ((1, 1), 0.1, None, 1)


def _outputs(system, units, texts, **columns):
    """Rows of one system's outputs: (set, item) units and their texts, plus any constant columns."""
    frame = pd.DataFrame({"system": system, "set": [u[0] for u in units], "item": [u[1] for u in units], "text": texts})
    return frame.assign(**columns)


def test_integrity_flags_copies_at_the_threshold_and_names_the_files():
    """Two systems equal on ≥ 99% of their shared units (even one unit) are flagged, each pair once, naming the files."""
    units = [("s1", i) for i in range(100)]
    table = pd.concat(
        [
            _outputs("X", [("s9", i) for i in range(5)], ["x"] * 5),  # shares nothing with anyone
            _outputs("A", units, [f"a{i}" for i in range(100)]),
            _outputs("B", units, ["b0"] + [f"a{i}" for i in range(1, 100)]),  # 99 of 100 equal: 0.99
            _outputs("C", [("s2", 0)], ["same"]),
            _outputs("D", [("s2", 0)], ["same"]),  # one shared unit, equal
            _outputs("E", units, [f"e{i}" for i in range(100)]),  # shares with A and B, equal on none
        ]
    )
    with pytest.warns(DataQualityWarning):
        messages = integrity(table, units=["set", "item"], groups=[], value="text", source={"A": "a.tsv", "B": "b.tsv"})
    assert len(messages) == 2 and all(isinstance(m, str) for m in messages)
    assert "A" in messages[0] and "B" in messages[0] and "a.tsv" in messages[0] and "b.tsv" in messages[0]
    assert "C" in messages[1] and "D" in messages[1]
    table = table[~table["system"].isin(["C", "D"])]
    table = table.assign(text=table["text"].where(table["system"] != "B", "b"))  # B now differs from A everywhere
    assert integrity(table, units=["set", "item"], groups=[], value="text", source="run.tsv") == []
    assert integrity(table.iloc[:0], units=["set", "item"], groups=[], value="text") == []


def test_integrity_flags_groups_where_systems_have_different_sizes_in_order():
    """A group (one column or two) where systems have different unit counts is flagged once, in order of appearance."""
    rows = []
    for lang, sizes in [("fr", {"A": 3, "B": 2}), ("de", {"A": 2, "B": 1}), ("en", {"A": 2, "B": 2})]:
        for system, size in sizes.items():
            units = [(lang, f"{lang}{i}") for i in range(size)]  # item ids unique across languages
            rows.append(_outputs(system, units, [f"{system}{i}" for i in range(size)], lang=lang))
    table = pd.concat(rows, ignore_index=True)
    with pytest.warns(DataQualityWarning):
        messages = integrity(table, units=["item"], groups=["lang"], value="text")
    assert len(messages) == 2 and "fr" in messages[0] and "de" in messages[1]
    with pytest.warns(DataQualityWarning):
        messages = integrity(table, units=["set", "item"], groups=["lang", "set"], value="text")
    assert len(messages) == 2 and "fr" in messages[0] and "de" in messages[1]
    assert integrity(table[table["lang"] == "en"], units=["item"], groups=["lang"], value="text") == []


def test_integrity_counts_blank_outputs_per_system_in_order():
    """Blank outputs (reason "empty") are counted per system in order of appearance, with or without a line column."""
    table = pd.concat(
        [
            _outputs("B", [("s", i) for i in range(4)], ["", "", "x", ""], reason=["empty", "empty", "ok", "empty"]),
            _outputs("A", [("s", i) for i in range(4)], ["", "y", "z", "w"], reason=["empty", "ok", "ok", "ok"]),
        ],
        ignore_index=True,
    )
    for with_lines in (True, False):
        frame = table.assign(line=range(1, 9)) if with_lines else table
        with pytest.warns(DataQualityWarning):
            messages = integrity(frame, units=["set", "item"], groups=[], value="text")
        assert [int(re.search(r"(\d+) blank", m)[1]) for m in messages] == [3, 1]
        assert messages[0].startswith("B") and messages[1].startswith("A")
    assert integrity(table.assign(reason="ok"), units=["set", "item"], groups=[], value="text") == []


def test_integrity_gives_the_same_verdict_for_categorical_groups():
    """A categorical group column (with an unused category) flags the same groups as plain strings: none here."""
    table = pd.DataFrame(
        {
            "system": ["A", "A", "B"],
            "set": ["s", "s", "s"],
            "item": ["fr0", "de0", "fr1"],
            "text": ["x", "y", "z"],
            "lang": ["fr", "de", "fr"],
        }
    )
    as_category = table.assign(lang=pd.Categorical(table["lang"], categories=["fr", "de", "it"]))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert integrity(table, units=["item"], groups=["lang"], value="text") == []
        assert integrity(as_category, units=["item"], groups=["lang"], value="text") == []


def test_integrity_keeps_units_with_a_missing_key_part_apart():
    """Units whose set is missing (None) are still told apart by their item: a copy on them is found, and nothing else."""
    units = [(None, i) for i in range(50)]
    copy = _outputs("B", units, [f"a{i}" for i in range(50)]).iloc[::-1]  # the same outputs, listed in reverse
    table = pd.concat([_outputs("A", units, [f"a{i}" for i in range(50)]), copy])
    with pytest.warns(DataQualityWarning):
        messages = integrity(table, units=["set", "item"], groups=[], value="text")
    assert len(messages) == 1 and "A" in messages[0] and "B" in messages[0]
    different = table.assign(text=table["text"].where(table["system"] == "A", "b"))
    assert integrity(different, units=["set", "item"], groups=[], value="text") == []

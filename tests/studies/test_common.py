"""The studies' shared wiring: `noted` keeps data-quality warnings as notes and raises them on."""

from __future__ import annotations

import inspect
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
    accounting,
    check_systems,
    comparison_frame,
    integrity,
    melt,
    noted,
    permutation_floor,
    provenance,
    resample_pvalue,
    system_pairs,
    unreachable_significance,
)


class _Copied(DataQualityWarning):
    """A subclass of the data-quality warning, as a study might raise."""


def test_noted_returns_the_notes_list_itself():
    """`with noted(notes) as got`: got is the very list passed in."""
    notes = ["before"]
    with warnings.catch_warnings(), noted(notes) as got:
        warnings.simplefilter("ignore")
        assert got is notes
    assert notes == ["before"]


def test_noted_appends_a_data_quality_warning_once_and_raises_it_on():
    """A DataQualityWarning inside the block is appended to the notes and raised on to the caller, unchanged."""
    notes = []
    with pytest.warns(DataQualityWarning, match="^system b is a copy of a$") as record:
        with noted(notes):
            warnings.warn("system b is a copy of a", DataQualityWarning, stacklevel=1)
            line = inspect.currentframe().f_lineno - 1
    assert notes == ["system b is a copy of a"]
    assert len(record) == 1
    assert record[0].category is DataQualityWarning
    assert record[0].filename == __file__
    assert record[0].lineno == line


def test_noted_keeps_subclasses_and_skips_other_warnings():
    """A subclass of DataQualityWarning is noted; a UserWarning or a RuntimeWarning is raised on but not noted."""
    notes = []
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        with noted(notes):
            warnings.warn("plain", UserWarning, stacklevel=1)
            warnings.warn("copied", _Copied, stacklevel=1)
            warnings.warn("overflow", RuntimeWarning, stacklevel=1)
    assert notes == ["copied"]
    assert [(w.category, str(w.message)) for w in record] == [
        (UserWarning, "plain"),
        (_Copied, "copied"),
        (RuntimeWarning, "overflow"),
    ]


def test_noted_does_not_append_a_note_twice():
    """The same message twice (and one already among the notes) is noted once, and raised on once (every interval
    of a study may say the same: tail_resolution); a message already among the notes is still raised."""
    notes = ["old"]
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        with noted(notes):
            for message in ("new", "new", "old"):
                warnings.warn(message, DataQualityWarning, stacklevel=1)
    assert notes == ["old", "new"]
    assert [str(w.message) for w in record] == ["new", "old"]


def test_noted_sees_warnings_the_caller_ignores():
    """Under an outer 'ignore' filter the warning is still noted (the block records every warning), then dropped."""
    notes = []
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("ignore")
        with noted(notes):
            warnings.warn("quiet", DataQualityWarning, stacklevel=1)
            warnings.warn("quiet", DataQualityWarning, stacklevel=1)
    assert notes == ["quiet"]
    assert record == []


def test_noted_lets_an_exception_through_after_noting():
    """An exception inside the block propagates (not swallowed); the warnings before it are noted."""
    notes = []
    with pytest.raises(KeyError, match="boom"), pytest.warns(DataQualityWarning, match="early"):
        with noted(notes):
            warnings.warn("early", DataQualityWarning, stacklevel=1)
            raise KeyError("boom")
    assert notes == ["early"]


# -----------------------------------------------------------------------------
# The studies' shared wiring: integrity warnings, unreachable significance, provenance, systems, the comparison frame.


COLUMNS = [
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


def _integrity(table, **kwargs):
    """Run integrity, collecting its warnings (all DataQualityWarning) and returning the messages."""
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        messages = integrity(table, **kwargs)
    assert [w.category for w in record] == [DataQualityWarning] * len(messages)
    assert [str(w.message) for w in record] == messages
    return messages


def _table(rows):
    """A long table from (system, item, value) rows."""
    return pd.DataFrame(rows, columns=["system", "item", "value"])


# ---------------------------------------------------------------- integrity: copies


def test_integrity_flags_a_copy_with_each_file_and_counts():
    """Two identical systems of three items: one message naming each system with its own file, 100.0% of 3 items."""
    table = _table([(s, i, f"t{i}") for s in ("a", "b") for i in (1, 2, 3)])
    messages = _integrity(table, units=["item"], groups=[], value="value", source={"a": "a.txt", "b": "b.txt"})
    assert len(messages) == 1
    assert "a (a.txt)" in messages[0] and "b (b.txt)" in messages[0]
    assert "100.0%" in messages[0] and " 3 " in messages[0]


def test_integrity_one_source_file_for_every_system():
    """`source` a single file: each system is named with that file."""
    table = _table([(s, i, "x") for s in ("a", "b") for i in (1, 2)])
    (message,) = _integrity(table, units=["item"], groups=[], value="value", source="all.tsv")
    assert "a (all.tsv)" in message and "b (all.tsv)" in message


def test_integrity_distinct_systems_give_no_message():
    """Systems that differ on every shared item raise nothing."""
    table = _table([("a", 1, "x"), ("a", 2, "y"), ("b", 1, "p"), ("b", 2, "q")])
    assert _integrity(table, units=["item"], groups=[], value="value") == []


def test_integrity_empty_table_gives_no_message():
    """No rows: no message (the study reports the empty input itself)."""
    assert _integrity(_table([]), units=["item"], groups=[], value="value") == []


def test_integrity_copy_threshold_is_inclusive_at_99_percent():
    """99 of 100 shared items identical (= IDENTICAL) is flagged, with 99.0%; 98 of 100 is not."""

    def pair(n_same):
        rows = [("a", i, f"t{i}") for i in range(100)]
        rows += [("b", i, f"t{i}" if i < n_same else "other") for i in range(100)]
        return _table(rows)

    (message,) = _integrity(pair(99), units=["item"], groups=[], value="value")
    assert "99.0%" in message and "100 " in message
    assert _integrity(pair(98), units=["item"], groups=[], value="value") == []


def test_integrity_pairs_without_shared_items_are_skipped_not_the_end():
    """a and b share no item; a and c (one shared item, the same) and b and c are still checked."""
    table = _table([("a", 1, "x"), ("b", 2, "y"), ("c", 1, "x"), ("c", 2, "z")])
    messages = _integrity(table, units=["item"], groups=[], value="value")
    assert len(messages) == 1
    assert "systems a and c" in messages[0] and "100.0%" in messages[0] and " 1 " in messages[0]


def test_integrity_units_with_missing_keys_are_distinct_units():
    """Rows of two sentences whose item is missing are two units: a and b share 2 units and agree on 1 (50%)."""
    table = pd.DataFrame(
        {
            "system": ["a", "a", "b", "b"],
            "sentence": ["s1", "s2", "s1", "s2"],
            "item": [np.nan, np.nan, np.nan, np.nan],
            "value": ["x", "y", "x", "z"],
        }
    )
    assert _integrity(table, units=["sentence", "item"], groups=[], value="value") == []


# ---------------------------------------------------------------- integrity: sizes


def _sizes_message(message):
    """(label, {system: count}) of a different-sizes message."""
    label, rest = message.split(": ", 1)
    listed = re.search(r"\(([^()]*)\)", rest).group(1)
    return label, {s: int(n.replace(",", "")) for s, n in (pair.rsplit(" ", 1) for pair in listed.split(", "))}


def test_integrity_different_sizes_one_group_column():
    """One group column: the label is the group value; each system with its own number of items."""
    rows = [("a", i, f"a{i}", "test") for i in range(3)] + [("b", i, f"b{i}", "test") for i in range(2)]
    table = pd.DataFrame(rows, columns=["system", "item", "value", "set"])
    (message,) = _integrity(table, units=["item"], groups=["set"], value="value")
    assert _sizes_message(message) == ("test", {"a": 3, "b": 2})


def test_integrity_different_sizes_two_group_columns_in_table_order():
    """Two group columns: the label joins them with ' / '; groups and systems in the table's order."""
    rows = (
        [("b", i, "v", "fr", "dev") for i in range(2)]
        + [("a", i, "w", "fr", "dev") for i in range(1)]
        + [("b", i, "v", "de", "test") for i in range(4)]
        + [("a", i, "w", "de", "test") for i in range(3)]
        + [("b", i, "v", "en", "test") for i in range(2)]
        + [("a", i, "w", "en", "test") for i in range(2)]
    )
    table = pd.DataFrame(rows, columns=["system", "item", "value", "language", "set"])
    messages = _integrity(table, units=["language", "set", "item"], groups=["language", "set"], value="value")
    assert [_sizes_message(m) for m in messages] == [("fr / dev", {"b": 2, "a": 1}), ("de / test", {"b": 4, "a": 3})]


def test_integrity_three_systems_two_sizes_and_equal_sizes():
    """Sizes 2, 2, 1 (two distinct numbers) are reported; equal sizes are not."""
    rows = [(s, i, s, "g1") for s, n in (("a", 2), ("b", 2), ("c", 1)) for i in range(n)]
    rows += [(s, i, s, "g2") for s in ("a", "b", "c") for i in range(2)]
    table = pd.DataFrame(rows, columns=["system", "item", "value", "set"])
    messages = _integrity(table, units=["set", "item"], groups=["set"], value="value")
    assert [_sizes_message(m) for m in messages] == [("g1", {"a": 2, "b": 2, "c": 1})]


def test_integrity_sizes_ignore_categories_a_system_does_not_have():
    """Categorical groups: a language only one system has is no size difference (no zero count for the other)."""
    table = pd.DataFrame(
        {
            "system": ["a", "a", "b"],
            "item": [1, 2, 1],
            "value": ["x", "y", "z"],
            "language": pd.Categorical(["de", "fr", "de"], categories=["de", "fr", "it"]),
        }
    )
    assert _integrity(table, units=["item"], groups=["language"], value="value") == []


# ---------------------------------------------------------------- integrity: blanks


def _blank_message(message):
    """(who, count, lines, more) of a blank-output message: `who` is the system with its file."""
    who, rest = message.split(": ", 1)
    count = int(re.match(r"([\d,]+) ", rest).group(1).replace(",", ""))
    shown = re.search(r"\(lines ([\d, ]+?)(, …)?\)", rest)
    if shown is None:
        assert "(lines" not in rest
        return who, count, None, False
    return who, count, [int(x) for x in shown.group(1).split(", ")], shown.group(2) is not None


def _blanks(spec, line=True):
    """A table of systems with n blank rows (reason 'empty') each after two good rows, in the order given."""
    rows = []
    for system, n in spec:
        for i in range(2 + n):
            rows.append(
                {
                    "system": system,
                    "item": i,
                    "value": "" if i >= 2 else f"v{i}{system}",
                    "reason": "empty" if i >= 2 else "ok",
                    "line": 10 + i,
                }
            )
    table = pd.DataFrame(rows)
    return table if line else table.drop(columns="line")


def test_integrity_blank_outputs_counted_per_system_with_lines():
    """b then a: 6 and 5 blanks; the first five lines each, '…' only where there are more than five."""
    table = _blanks([("b", 6), ("a", 5)])
    messages = _integrity(table, units=["item"], groups=[], value="value", source={"a": "a.txt", "b": "b.txt"})
    assert [_blank_message(m) for m in messages] == [
        ("b (b.txt)", 6, [12, 13, 14, 15, 16], True),
        ("a (a.txt)", 5, [12, 13, 14, 15, 16], False),
    ]


def test_integrity_blank_outputs_without_line_numbers_or_files():
    """No `line` column and no source: the system alone and the count, no lines shown."""
    messages = _integrity(_blanks([("b", 1), ("a", 2)], line=False), units=["item"], groups=[], value="value")
    assert [_blank_message(m) for m in messages] == [("b", 1, None, False), ("a", 2, None, False)]


def test_integrity_no_reason_column_no_blank_check():
    """Without a `reason` column, empty values are not reported as blanks."""
    table = _table([("a", 1, ""), ("a", 2, "x"), ("b", 1, "y"), ("b", 2, "")])
    assert _integrity(table, units=["item"], groups=[], value="value") == []


# ---------------------------------------------------------------- unreachable_significance


def _frame(families, p=0.5):
    """A comparison frame with one row per family label, all with a p-value."""
    return pd.DataFrame({"family": families, "p_value": p})


def _numbers(message):
    """The numbers a reader acts on, parsed from the message."""
    got = {}
    m = re.search(r"in (\d+) of (\d+) famil", message)
    got["out"], got["total"] = int(m.group(1)), int(m.group(2))
    got["attainable"] = float(re.search(r"p_adjusted is ([\d.e+-]+) ≥", message).group(1))
    got["alpha"] = float(re.search(r"α = ([\d.e+-]+) ", message).group(1))
    got["sizes"] = re.search(r" over ([\d–]+) comparison", message).group(1)
    got["lowest"] = float(re.search(r"smallest attainable p ([\d.e+-]+)", message).group(1))
    b = re.search(r"1/\((\w+) \+ 1\) = ([\d.e+-]+) with (\w+)=([\d,]+)", message)
    if b:
        got["floor_of"], got["floor"], got["option"], got["B"] = b.group(1), float(b.group(2)), b.group(3), b.group(4)
    s = re.search(r"(\w+) ≥ ([\d,]+) \(p_adjusted", message)
    got["suggest"] = int(s.group(2).replace(",", "")) if s else None
    d = re.search(r"in (\d+) famil\w+ even an exact test", message)
    got["by_data"] = int(d.group(1)) if d else 0
    return got


def _unreachable(frame, floor, **kwargs):
    """The message, checked to be raised once as a DataQualityWarning."""
    with pytest.warns(DataQualityWarning) as record:
        message = unreachable_significance(frame, floor, **kwargs)
    assert [str(w.message) for w in record] == [message]
    return message


def test_unreachable_holm_counts_families_and_suggests_resamples():
    """Holm, families of 2 and 3 with floor 1/(99+1): attainable 2·0.01 and 3·0.01 ≥ 0.01; 3 families in all.

    The third family (one comparison, floor 0.001) reaches α. Suggestion: 10·3/0.01 = 3000 → 5,000.
    """
    frame = _frame(["x", "x", "y", "y", "y", "z"])
    floor = [0.01] * 5 + [0.001]
    message = _unreachable(frame, floor, alpha=0.01, correction="holm", resamples=("n_perm", 99))
    assert _numbers(message) == {
        "out": 2,
        "total": 3,
        "attainable": 0.02,
        "alpha": 0.01,
        "sizes": "2–3",
        "lowest": 0.01,
        "floor_of": "n_perm",
        "floor": 0.01,
        "option": "n_perm",
        "B": "99",
        "suggest": 5000,
        "by_data": 0,
    }


def test_unreachable_equal_sizes_and_the_boundary():
    """Holm, two comparisons of floor 0.125 at α = 0.25: attainable exactly 0.25 = α is out of reach."""
    message = _unreachable(_frame(["x", "x"]), 0.125, alpha=0.25, correction="holm")
    got = _numbers(message)
    assert (got["out"], got["total"], got["attainable"], got["sizes"], got["lowest"]) == (1, 1, 0.25, "2", 0.125)
    assert got["suggest"] is None


def test_unreachable_bh_suggestion_does_not_scale_with_family_size():
    """BH with equal floors attains the floor itself: 0.1 ≥ 0.05; 10/0.05 = 200 resamples suffice."""
    message = _unreachable(_frame(["x"] * 4), 0.1, alpha=0.05, correction="bh", resamples=("n_boot", 9))
    got = _numbers(message)
    assert (got["attainable"], got["suggest"], got["floor"], got["B"]) == (0.1, 200, 0.1, "9")


def test_unreachable_families_argument_overrides_the_column():
    """`families` groups the rows (one family of 2), not the frame's own column (two families of 1)."""
    frame = _frame(["x", "y"])
    message = _unreachable(frame, 0.03, alpha=0.05, correction="holm", families=["f", "f"])
    got = _numbers(message)
    assert (got["out"], got["total"], got["attainable"], got["sizes"]) == (1, 1, 0.06, "2")
    assert unreachable_significance(frame, 0.03, alpha=0.05, correction="holm") is None


def test_unreachable_skips_families_without_p_values_and_goes_on():
    """A family whose p-values are all missing is no family; the next one is still checked (1 of 1)."""
    frame = pd.DataFrame({"family": ["x", "y", "y"], "p_value": [None, None, None]})
    assert unreachable_significance(frame, 0.5, alpha=0.05, correction="holm") is None
    frame = pd.DataFrame({"family": ["x", "y", "y"], "p_value": [np.nan, 0.5, 0.5]})
    got = _numbers(_unreachable(frame, 0.5, alpha=0.05, correction="holm"))
    assert (got["out"], got["total"], got["attainable"], got["sizes"]) == (1, 1, 1.0, "2")


def test_unreachable_data_floor_counts_families_out_of_reach_by_the_data():
    """BH floors 0.1 (m = 4); data floors 0.02 reach 0.05 under BH (0.02) though Holm would not (0.08)."""
    message = _unreachable(_frame(["x"] * 4), 0.1, alpha=0.05, correction="bh", data_floor=0.02, resamples=("n_perm", 9))
    assert _numbers(message)["by_data"] == 0 and _numbers(message)["suggest"] == 200


def test_unreachable_data_floor_at_alpha_is_out_of_reach():
    """Holm, data floors 0.125 for 2 comparisons: 0.25 = α, so one family is out of reach by the data."""
    message = _unreachable(_frame(["x", "x"]), 0.25, alpha=0.25, correction="holm", data_floor=0.125, resamples=("n_perm", 3))
    got = _numbers(message)
    assert got["by_data"] == 1 and got["suggest"] is None


def test_unreachable_data_floor_one_of_two_families():
    """Two families out of reach, one of them also by the data: by_data 1 and resamples still suggested."""
    frame = _frame(["x", "x", "y", "y"])
    message = _unreachable(
        frame, 0.5, alpha=0.05, correction="holm", data_floor=[0.5, 0.5, 0.001, 0.001], resamples=("n_perm", 1)
    )
    got = _numbers(message)
    assert (got["out"], got["total"], got["by_data"], got["suggest"]) == (2, 2, 1, 500)


def test_unreachable_no_frame_or_reachable_gives_none():
    """No frame, an empty frame, or every family able to reach α: None and no warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert unreachable_significance(None, 0.5, alpha=0.05, correction="holm") is None
        assert unreachable_significance(_frame([]), 0.5, alpha=0.05, correction="holm") is None
        assert unreachable_significance(_frame(["x", "x"]), 0.001, alpha=0.05, correction="holm") is None


def test_unreachable_suggests_a_smaller_family_by_metric_only_when_not_already():
    """The family='metric' advice appears for family='all', not for the default or family=None; against= always."""
    frame, args = _frame(["x", "x"]), {"alpha": 0.05, "correction": "holm"}
    default = _unreachable(frame, 0.5, **args)
    assert "against" in default and "family='metric'" not in default
    assert "family='metric'" not in _unreachable(frame, 0.5, family="metric", **args)
    assert "family='metric'" not in _unreachable(frame, 0.5, family=None, **args)
    every = _unreachable(frame, 0.5, family="all", **args)
    assert "against" in every and "family='metric'" in every


# ---------------------------------------------------------------- provenance, check_systems, comparison_frame


def test_provenance_records_every_argument():
    """Method, data, resamples, seed, level, correction and family label all land in the record."""
    record = provenance(
        "P_S; bootstrap",
        {"a.txt": "0" * 64},
        rng=7,
        level=0.9,
        n_boot=499,
        options={"lexicon": "x"},
        family=["language", "metric"],
        correction="bh",
    )
    assert (record.method, record.data, record.n_boot, record.seed, record.level) == (
        "P_S; bootstrap",
        {"a.txt": "0" * 64},
        499,
        7,
        0.9,
    )
    assert record.options == {"lexicon": "x", "correction": "bh", "family": "language × metric"}


def test_provenance_without_correction_or_family():
    """No correction and no family: the options are only those given."""
    record = provenance("m", {}, rng=None, level=0.95)
    assert record.options == {} and record.seed is None and record.n_boot is None


def test_check_systems():
    """None stays None; one name becomes a list; names become strings; a name given twice or thrice is an error."""
    assert check_systems(None) is None
    assert check_systems("mine") == ["mine"]
    assert check_systems(["a", 1]) == ["a", "1"]
    with pytest.raises(UsageError):
        check_systems(["a", "b", "a"])
    with pytest.raises(UsageError):
        check_systems(["a", "a", "a"])


def test_comparison_frame_columns_defaults_and_missing():
    """All COMPARE_COLUMNS in order; a default fills only an absent column; other absent ones are NaN floats."""
    rows = pd.DataFrame(
        {
            "system_a": ["a", "b"],
            "system_b": ["c", "c"],
            "language": ["de", "fr"],
            "subset": ["all", "all"],
            "metric": ["acc", "acc"],
            "diff": [0.1, 0.2],
            "method": ["z", "z"],
        },
        index=[5, 9],
    )
    frame = comparison_frame(rows, method="default", family="metric")
    assert list(frame.columns) == COLUMNS
    assert list(frame.index) == [0, 1]
    assert frame["method"].tolist() == ["z", "z"] and frame["family"].tolist() == ["metric", "metric"]
    assert frame["p_value"].dtype == float and frame["p_value"].isna().all()


def test_integrity_missing_unit_keys_of_one_system_only():
    """b lacks the unit (s2, missing item): a and b share 2 units, both the same, so 100.0% of 2 is flagged."""
    table = pd.DataFrame(
        {
            "system": ["a", "a", "a", "b", "b"],
            "sentence": ["s1", "s2", "s3", "s1", "s3"],
            "item": [np.nan, np.nan, "i", np.nan, "i"],
            "value": ["x", "y", "z", "x", "z"],
        }
    )
    (message,) = _integrity(table, units=["sentence", "item"], groups=[], value="value")
    assert "systems a and b" in message and "100.0%" in message and " 2 " in message


def test_unreachable_a_row_with_no_family_label_is_in_no_family():
    """`families` with a missing label (NaN): that row is in no family, so 1 of 1 family (of 2), not 2 of 2."""
    frame = _frame(["x", "x", "x"])
    message = _unreachable(frame, 0.5, alpha=0.05, correction="holm", families=["f", "f", np.nan])
    got = _numbers(message)
    assert (got["out"], got["total"], got["sizes"]) == (1, 1, "2")


def test_integrity_different_sizes_one_numeric_group_column():
    """A single group column of numbers (rates' by=['year']): the label is the number, not a TypeError."""
    table = pd.DataFrame({"system": ["a", "a", "b"], "item": [1, 2, 1], "value": ["x", "y", "z"], "by:year": [2020, 2020, 2020]})
    (message,) = _integrity(table, units=["item"], groups=["by:year"], value="value")
    assert _sizes_message(message) == ("2020", {"a": 2, "b": 1})


# -----------------------------------------------------------------------------
# Helpers of the studies' shared wiring, checked against their definitions by enumeration.


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


# -----------------------------------------------------------------------------
# The accounting table of the studies, counted by hand.


def _accounting_frame():
    """Six rows: system b first, a categorical system column with an unused category."""
    return pd.DataFrame(
        {
            "system": pd.Categorical(["b", "b", "a", "b", "a", "a"], categories=["a", "b", "zzz"]),
            "reason": ["ok", "bad", "ok", "ok", "ok", "bad"],
            "w": [2, 5, 1, 3, 4, 10],
        }
    )


def test_accounting_counts_rows_in_order_of_appearance():
    """One row per (system, outcome) seen, first-seen order, counting the rows; unused categories give no row."""
    got = accounting(_accounting_frame(), ["system"], "reason")
    rows = [(str(s), o, int(n)) for s, o, n in got[["system", "outcome", "n"]].itertuples(index=False)]
    assert rows == [("b", "ok", 2), ("b", "bad", 1), ("a", "ok", 2), ("a", "bad", 1)]


def test_accounting_sums_the_count_column():
    """With a count column the n of each group is the sum of that column, not the number of rows."""
    got = accounting(_accounting_frame(), ["system"], "reason", "w")
    rows = {(str(s), o): int(n) for s, o, n in got[["system", "outcome", "n"]].itertuples(index=False)}
    assert rows == {("b", "ok"): 2 + 3, ("b", "bad"): 5, ("a", "ok"): 1 + 4, ("a", "bad"): 10}

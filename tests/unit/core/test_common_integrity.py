"""The studies' shared wiring: integrity warnings, unreachable significance, provenance, systems, the comparison frame."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pandas as pd
import pytest

from stats_mtbias.errors import DataQualityWarning, UsageError
from stats_mtbias.studies._common import check_systems, comparison_frame, integrity, provenance, unreachable_significance

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

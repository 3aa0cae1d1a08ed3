"""Cohen's κ, its variance and interval, and raw agreement, checked against statsmodels and hand formulas."""

from __future__ import annotations

import sys
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import special, stats
from statsmodels.stats.inter_rater import cohens_kappa as sm_cohens_kappa

from stats_mtbias.errors import DataQualityWarning
from stats_mtbias.significance.agreement import (
    AGREEMENT_COLUMNS,
    agreement,
    agreement_table,
    cohens_kappa,
    kappa_interval,
    kappa_interval_table,
    kappa_variance,
    sparse_categories,
)
from stats_mtbias.uncertainty import analytic as an


def _wilson(k: float, n: float, level: float) -> tuple[float, float]:
    """Wilson's score interval written out (Wilson 1927), exact ends at k = 0 and k = n."""
    z = special.ndtri(0.5 + level / 2)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (0.0 if k == 0 else max(centre - half, 0.0)), (1.0 if k == n else min(centre + half, 1.0))


def _garwood(k: float, n: float, level: float) -> tuple[float, float]:
    """Garwood's (1936) exact Poisson interval for a count k, as a share of n: χ²(α/2; 2k)/2n, χ²(1 − α/2; 2k + 2)/2n."""
    alpha = 1 - level
    low = 0.0 if k == 0 else stats.chi2.ppf(alpha / 2, 2 * k) / (2 * n)
    return low, stats.chi2.ppf(1 - alpha / 2, 2 * k + 2) / (2 * n)


def _modified_wilson(k: float, n: float, level: float) -> tuple[float, float]:
    """Wilson's interval with each end widened to Garwood's where at most 10 successes (or failures) are seen."""
    low, high = _wilson(k, n, level)
    if k <= 10:
        g_low, g_high = _garwood(k, n, level)
        low, high = (min(low, g_low) if k > 0 else low), max(high, g_high)
    if n - k <= 10:
        g_low, g_high = _garwood(n - k, n, level)  # the failures' interval, mirrored
        low, high = min(low, 1 - g_high), (max(high, 1 - g_low) if n - k > 0 else high)
    return max(low, 0.0), min(high, 1.0)


def _hand_kappa_interval(table, level: float = 0.95, n_eff=None) -> tuple[float, float, float]:
    """κ, and the modified Wilson interval for p_o on n_eff items mapped onto κ with the unbiased chance agreement
    (n p_e − p_o)/(n − 1); n_eff from statsmodels' var(κ) unless given."""
    t = np.asarray(table, dtype=float)
    n = t.sum()
    p_o = np.trace(t) / n
    p_e = float(t.sum(axis=1) @ t.sum(axis=0)) / n**2
    if n_eff is None:
        n_eff = p_o * (1 - p_o) / ((1 - p_e) ** 2 * sm_cohens_kappa(t).var_kappa)
    low, high = _modified_wilson(p_o * n_eff, n_eff, level)
    chance = (n * p_e - p_o) / (n - 1) if n > 1 else p_e
    chance = p_e if chance >= 1 else chance  # 1 only on degenerate tables (e.g. [[0, 1], [1, 0]]): the plug-in there
    return (p_o - p_e) / (1 - p_e), max(-1.0, (low - chance) / (1 - chance)), min(1.0, (high - chance) / (1 - chance))


@pytest.mark.parametrize("level", [0.95, 0.9])
def test_kappa_interval_table_matches_the_hand_formula(level):
    """κ's interval at a level is Wilson's for p_o on n_eff = p_o(1 − p_o)/((1 − p_e)² var κ) items, mapped onto κ."""
    table = [[40, 5], [10, 45]]  # the docstring's example: p_o = .85, p_e = .5, κ = .7
    got = kappa_interval_table(table, level) if level != 0.95 else kappa_interval_table(table)
    assert got == pytest.approx(_hand_kappa_interval(table, level), rel=1e-9)


@pytest.mark.parametrize(
    "table",
    [
        [[0, 1], [2, 0]],  # p_o = 0 (var κ > 0)
        [[0, 0], [1, 1]],  # 0 < p_o < 1 but var κ = 0
        [[2, 0, 0], [0, 3, 0], [0, 0, 1]],  # p_o = 1 (var κ is 0 up to round-off)
    ],
    ids=["p_o=0", "var=0", "p_o=1"],
)
def test_kappa_interval_table_uses_n_items_at_the_edges(table):
    """Where p_o is 0 or 1, or var(κ) is 0, Wilson's interval is taken on the n items themselves."""
    n = float(np.sum(table))
    assert kappa_interval_table(table) == pytest.approx(_hand_kappa_interval(table, n_eff=n), rel=1e-9, abs=1e-12)


@pytest.mark.parametrize(
    "table, expected",
    [
        ([[0, 10], [20, 0]], None),  # p_o = 0 on 30 items (var κ > 0): on the 30 items, not on n_eff = 0 ([−0.85, 1])
        ([[0, 1], [0, 0]], (0.0, 0.0, 1.0)),  # one item: the plug-in p_e (0), no (n − 1) to divide by
        ([[1, 0], [0, 1]], (1.0, 0.0, 1.0)),  # two items: unbiased p_e = (2·0.5 − 1)/1 = 0, p_o's [0, 1] mapped as is
        ([[0, 1], [1, 0]], (-1.0, -1.0, 1.0)),  # unbiased p_e = (2·0.5 − 0)/1 = 1: the plug-in 0.5 instead
    ],
    ids=["p_o=0 on 30", "n=1", "n=2", "unbiased p_e=1"],
)
def test_kappa_interval_table_on_the_smallest_tables(table, expected):
    """The chance agreement's small-sample rules, by hand: (n p_e − p_o)/(n − 1) from two items, the plug-in p_e on
    one item or where that gives 1; and n_eff = n where p_o is 0."""
    got = kappa_interval_table(table)
    assert got == pytest.approx(_hand_kappa_interval(table, n_eff=float(np.sum(table))), rel=1e-9, abs=1e-12)
    if expected is not None:
        assert got == pytest.approx(expected, abs=1e-12)
    else:
        assert got[2] < -0.6  # κ = −0.8 on 30 items: the interval stays well below 0, not up to 1


def test_kappa_interval_table_is_clipped_to_kappas_range():
    """κ's limits stay in [-1, 1]: a small table whose mapped lower limit falls below -1 gets exactly -1."""
    table = [[0, 0], [1, 2]]  # p_o = 2/3 = p_e: κ = 0, n_eff = 3
    unclipped_low, _ = _modified_wilson(2.0, 3.0, 0.95)
    assert (unclipped_low - 2 / 3) / (1 / 3) < -1
    kappa, low, high = kappa_interval_table(table)
    assert kappa == pytest.approx(0.0, abs=1e-12)
    assert low == -1.0
    assert high <= 1.0


@pytest.mark.parametrize("table", [[[0, 0], [0, 0]], [[5, 0], [0, 0]], [[0, 0], [0, 1]]], ids=["empty", "one-category", "n=1"])
def test_kappa_interval_table_is_nan_where_kappa_is_undefined(table):
    """No item, or one category used by both raters (chance agreement 1): κ and its limits are NaN."""
    assert np.isnan(kappa_interval_table(table)).all()


def test_kappa_computed_in_double_precision_from_float32_counts():
    """Counts held as float32 give κ's variance and interval of the float64 table (sums above 2**24 stay exact)."""
    counts = [[3001, 1000], [1000, 3000]]  # Σ r_i c_i = 4001² + 4000² = 32,008,001, not a float32
    table32 = np.array(counts, dtype=np.float32)
    assert kappa_variance(table32) == pytest.approx(sm_cohens_kappa(np.array(counts, float)).var_kappa, rel=1e-12)
    assert kappa_interval_table(table32) == pytest.approx(_hand_kappa_interval(counts), rel=1e-12)


def test_cohens_kappa_compares_labels_as_python_objects():
    """Integer codes above 2**53 next to a float code stay distinct (not rounded into one float64 label)."""
    big = 2**53
    a = [big + 1, big + 1, big, 0.5, 0.5, big]
    b = [big + 1, big, big + 1, 0.5, big, big]
    # Hand-counted table over the labels (0.5, big, big + 1), rows a, columns b.
    table = [[1, 1, 0], [0, 1, 1], [0, 1, 1]]  # p_o = 1/2, p_e = (2 + 6 + 4)/36: κ = 1/4
    hand = _hand_kappa_interval(table)
    assert cohens_kappa(a, b) == pytest.approx(hand[0], rel=1e-12)
    assert cohens_kappa(np.array(a, dtype=object), b) == pytest.approx(hand[0], rel=1e-12)


def test_kappa_interval_keeps_labels_as_given():
    """kappa_interval tabulates labels as given: one ending in a NUL character is not merged into its prefix."""
    a = ["x\x00", "x", "x", "y", "y", "x"]
    b = ["x", "x", "x\x00", "y", "x", "x\x00"]
    # Hand-counted table over (x, x\x00, y), rows a, columns b: p_o = 2/6, p_e = (3·3 + 1·2 + 2·1)/36 = 13/36.
    table = [[1, 2, 0], [1, 0, 0], [1, 0, 1]]
    assert kappa_interval(a, b) == pytest.approx(_hand_kappa_interval(table), rel=1e-9)
    assert kappa_interval(a, b)[0] == pytest.approx(-1 / 23, rel=1e-12)


def test_kappa_interval_with_a_label_only_one_rater_used():
    """A label used by only the second rater still gets a row: the table is square over all labels, level passed on."""
    a = ["m"] * 6 + ["f"] * 6
    b = ["m"] * 5 + ["n"] + ["f"] * 4 + ["m", "n"]
    table = [[5, 0, 1], [1, 4, 1], [0, 0, 0]]  # rows a (m, f, n), columns b (m, f, n)
    assert kappa_interval(a, b, level=0.8) == pytest.approx(_hand_kappa_interval(table, 0.8), rel=1e-9)
    assert kappa_interval(a, b) == pytest.approx(_hand_kappa_interval(table, 0.95), rel=1e-9)


def test_cohens_kappa_hand_values():
    """κ = (p_o − p_e)/(1 − p_e) by hand, and NaN with a warning for one shared category."""
    a = np.array(["m", "f", "m", "m"])
    b = np.array(["m", "f", "f", "m"])
    p_o, p_e = 3 / 4, (3 / 4) * (2 / 4) + (1 / 4) * (2 / 4)
    assert cohens_kappa(a, b) == pytest.approx((p_o - p_e) / (1 - p_e), rel=1e-12)
    with pytest.warns(DataQualityWarning):
        assert np.isnan(cohens_kappa(["m", "m"], ["m", "m"]))


def test_agreement_keys_and_values():
    """Raw agreement, Wilson's limits and κ under their documented keys; all NaN for no item."""
    empty = agreement(np.array([]), np.array([]))
    assert set(empty) == {"agreement", "ci_low", "ci_high", "kappa"}
    assert all(np.isnan(v) for v in empty.values())
    a = np.array(["m", "f", "m", "m"])
    b = np.array(["m", "f", "f", "m"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = agreement(a, b)
    assert set(res) == {"agreement", "ci_low", "ci_high", "kappa"}
    assert res["agreement"] == 0.75
    assert (res["ci_low"], res["ci_high"]) == pytest.approx(_wilson(3, 4, 0.95), rel=1e-12)
    assert res["kappa"] == pytest.approx(0.5, rel=1e-12)


def _agreement_frame():
    """Two raters on 14 units in two languages, "fr" listed first, with four labels (one unused by a group)."""
    return pd.DataFrame(
        {
            "lang": ["fr"] * 8 + ["de"] * 6,
            "human": ["m", "f", "f", "m", "n", "m", "f", "m", "m", "m", "f", "n", "f", "m"],
            "llm": ["m", "f", "m", "m", "n", "f", "f", "m", "m", "f", "f", "n", "m", "m"],
        }
    )


def _hand_row(x, y, level):
    """n, raw agreement with Wilson's limits, and κ with its interval by hand for one group."""
    labels = sorted(set(x) | set(y))
    table = np.array([[sum(1 for u, v in zip(x, y, strict=True) if (u, v) == (r, c)) for c in labels] for r in labels])
    agree = sum(u == v for u, v in zip(x, y, strict=True))
    return [len(x), agree / len(x), *_wilson(agree, len(x), level), *_hand_kappa_interval(table, level)]


@pytest.mark.parametrize("level", [None, 0.95, 0.8])
def test_agreement_table_rows_per_group_in_order_of_appearance_then_all(level):
    """One row per group in order of appearance, then "all": n, agreement, Wilson and κ limits at the level (default 0.95)."""
    frame = _agreement_frame()
    kwargs = {} if level is None else {"level": level}
    table, _ = agreement_table(frame, "human", "llm", ["lang"], **kwargs)
    assert list(table.columns) == ["lang", *AGREEMENT_COLUMNS]
    assert table["lang"].tolist() == ["fr", "de", "all"]
    for row, part in zip(table.itertuples(index=False), [frame[:8], frame[8:], frame], strict=True):
        expected = _hand_row(list(part["human"]), list(part["llm"]), level or 0.95)
        assert row.n == expected[0]
        assert list(row)[2:] == pytest.approx(expected[1:], rel=1e-9, abs=1e-12)


def test_agreement_table_without_overall_row():
    """overall=False leaves out the "all" row; the groups keep their own rows and the confusion counts."""
    frame = _agreement_frame()
    table, confusion = agreement_table(frame, "human", "llm", ["lang"], overall=False)
    assert table["lang"].tolist() == ["fr", "de"]
    assert table["n"].tolist() == [8, 6]
    assert set(confusion["lang"]) == {"fr", "de"}
    assert confusion["n"].sum() == 14
    fr = confusion[confusion["lang"] == "fr"].set_index(["human", "llm"])["n"]
    assert fr.to_dict() == {("f", "f"): 2, ("f", "m"): 1, ("m", "f"): 1, ("m", "m"): 3, ("n", "n"): 1}


def test_agreement_table_of_no_unit():
    """An empty frame gives n = 0 and NaN statistics (floats), or empty tables with the documented columns."""
    empty = pd.DataFrame({"lang": [], "human": [], "llm": []}, dtype=object)
    for by, overall, keys in [((), True, []), (["lang"], True, ["all"])]:
        table, confusion = agreement_table(empty, "human", "llm", by, overall=overall)
        assert list(table.columns) == [*by, *AGREEMENT_COLUMNS]
        assert table["n"].tolist() == [0]
        assert [table[k].tolist() for k in by] == [keys] * len(by)
        for column in AGREEMENT_COLUMNS[1:]:
            assert table[column].dtype == np.float64 and np.isnan(table[column].iloc[0])
        assert list(confusion.columns) == [*by, "human", "llm", "n"] and len(confusion) == 0
    table, confusion = agreement_table(empty, "human", "llm", ["lang"], overall=False)
    assert list(table.columns) == ["lang", *AGREEMENT_COLUMNS] and len(table) == 0
    assert list(confusion.columns) == ["lang", "human", "llm", "n"] and len(confusion) == 0


def test_agreement_table_of_a_single_unit():
    """One unit with equal labels: n = 1, agreement 1 with Wilson's limits for 1/1, κ undefined (NaN, warned)."""
    frame = pd.DataFrame({"human": ["f"], "llm": ["f"]})
    with pytest.warns(DataQualityWarning):
        table, confusion = agreement_table(frame, "human", "llm")
    assert table["n"].tolist() == [1]
    assert table["agreement"].iloc[0] == 1.0
    assert (table["ci_low"].iloc[0], table["ci_high"].iloc[0]) == pytest.approx(_wilson(1, 1, 0.95), rel=1e-12)
    assert np.isnan(table["kappa"].iloc[0])
    assert confusion.to_dict("records") == [{"human": "f", "llm": "f", "n": 1}]


def test_agreement_table_with_a_missing_label_of_another_type():
    """A None label among strings is one more label: no TypeError from sorting, κ and agreement by hand."""
    x, y = ["m", "f", None, "m", "f", None], ["m", "f", "f", None, "f", None]
    table, confusion = agreement_table(pd.DataFrame({"human": x, "llm": y}), "human", "llm")
    assert table["n"].iloc[0] == 6 and table["agreement"].iloc[0] == pytest.approx(4 / 6, rel=1e-15)
    labels = ["f", "m", None]
    counts = np.array([[sum(1 for u, v in zip(x, y, strict=True) if (u, v) == (r, c)) for c in labels] for r in labels])
    assert table["kappa"].iloc[0] == pytest.approx(_hand_kappa_interval(counts)[0], rel=1e-12)
    assert confusion["n"].sum() == 6


def test_agreement_table_counts_nan_labels_as_never_agreeing():
    """NaN labels in float columns (missing judgements) do not agree with anything: agreement = mean(a == b), n = all units."""
    frame = pd.DataFrame({"human": [1.0, np.nan, 2.0, np.nan, 1.0], "llm": [1.0, np.nan, 2.0, 2.0, np.nan]})
    expected = float(np.mean(frame["human"].to_numpy() == frame["llm"].to_numpy()))
    for a, b in [("human", "llm"), ("llm", "human")]:
        table, _ = agreement_table(frame, a, b)
        assert table["n"].iloc[0] == 5
        assert table["agreement"].iloc[0] == pytest.approx(expected, rel=1e-15) == 0.4
        assert (table["ci_low"].iloc[0], table["ci_high"].iloc[0]) == pytest.approx(_wilson(2, 5, 0.95), rel=1e-12)


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        ([[20, 2], [1, 2]], "'b' (3 and 4 times)"),  # rows 22, 3; columns 21, 4
        ([[5, 0], [0, 5]], ""),  # five times each: not sparse
        ([[6, 0, 0], [0, 5, 0], [0, 0, 0]], ""),  # a category neither labelling uses is not listed
        ([[26, 3, 0], [0, 0, 0], [1, 0, 0]], "'b' (0 and 3 times), 'c' (1 and 0 times)"),
        ([[10, 4], [0, 5]], ""),  # rows 14, 5; columns 10, 9
        ([[10, 0], [4, 0]], "'b' (4 and 0 times)"),
    ],
)
def test_sparse_categories_hand_cases(table, expected):
    """A category one labelling uses fewer than 5 times (and some labelling uses) is named with both counts."""
    assert sparse_categories(np.array(table), ["a", "b", "c"][: len(table)]) == expected


def test_kappa_interval_warns_of_a_sparse_category_naming_it():
    """Three 'neutral' labels in 40: a warning naming the category and its counts; the values are unchanged."""
    a = np.array(["male"] * 20 + ["female"] * 17 + ["neutral"] * 3, dtype=object)
    b = np.array(["male"] * 18 + ["female"] * 2 + ["female"] * 15 + ["male"] * 2 + ["neutral"] * 2 + ["male"], dtype=object)
    with pytest.warns(DataQualityWarning, match=r"40 items: .*fewer than 5 times \('neutral' \(3 and 2 times\)\)"):
        got = kappa_interval(a, b)
    table = np.array([[18, 2, 0], [2, 15, 0], [1, 0, 2]])[[1, 0, 2]][:, [1, 0, 2]]  # sorted labels: female, male, neutral
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataQualityWarning)
        assert got == kappa_interval_table(table)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        kappa_interval_table(np.array([[20, 3], [4, 13]]))  # every category at least 5 times: no warning


def test_agreement_table_warns_once_naming_the_sparse_groups():
    """One warning per call naming each group with a sparse category (five at most, then how many more)."""
    rng = np.random.default_rng(0)
    groups = np.repeat([f"g{i}" for i in range(8)], 30)
    frame = pd.DataFrame({"g": groups, "human": rng.choice(["m", "f", "n"], 240, p=[0.6, 0.35, 0.05])})
    frame["llm"] = frame["human"]
    with pytest.warns(DataQualityWarning) as caught:
        agreement_table(frame, "human", "llm", ["g"], overall=True)
    sparse = [w for w in caught if "fewer than 5 times" in str(w.message)]
    assert len(sparse) == 1
    message = str(sparse[0].message)
    counts = frame.groupby("g")["human"].apply(lambda s: int((s == "n").sum()))
    groups = [g for g, k in counts.items() if 0 < k < 5]
    assert len(groups) > 5  # so the message is cut
    for g in groups[:5]:
        assert f"{g}: 'n' ({counts[g]} and {counts[g]} times)" in message
    assert f"and {len(groups) - 5} more group(s)" in message
    assert "all:" not in message  # the overall row has enough 'n' labels


def _groups(n_sparse: int, n_plain: int = 1, by=("g",)) -> pd.DataFrame:
    """Groups of 10 'm', 10 'f' and k 'n' labels, the same in both columns: k = 1..4 (sparse) or 5 (not)."""
    parts = []
    for i, k in enumerate([1 + i % 4 for i in range(n_sparse)] + [5] * n_plain):
        labels = ["m"] * 10 + ["f"] * 10 + ["n"] * k
        key = {c: f"{c}{i}" for c in by}
        parts.append(pd.DataFrame({**key, "human": labels, "llm": labels}))
    return pd.concat(parts, ignore_index=True)


def _at_caller(caught) -> bool:
    """Every warning points at this file (the caller's line). Under mutmut its trampoline adds frames between a
    function and its caller, so the line cannot be checked there (the check runs in every ordinary test run)."""
    return "mutmut" in sys.modules or [w.filename for w in caught] == [__file__] * len(caught)


def _sparse_message(frame, by, **kwargs):
    with pytest.warns(DataQualityWarning) as caught:
        agreement_table(frame, "human", "llm", list(by), **kwargs)
    found = [w for w in caught if "fewer than 5 times" in str(w.message)]
    assert len(found) == 1 and _at_caller(found)  # one warning, pointing at the caller
    return str(found[0].message)


@pytest.mark.parametrize(("n_sparse", "more"), [(5, ""), (6, "; and 1 more group(s)"), (8, "; and 3 more group(s)")])
def test_agreement_table_names_five_sparse_groups_then_counts_the_rest(n_sparse, more):
    """The first five sparse groups by name, separated by '; ', then how many more; groups with every label at least
    5 times are not named."""
    message = _sparse_message(_groups(n_sparse), ["g"], overall=False)
    named = "; ".join(f"g{i}: 'n' ({1 + i % 4} and {1 + i % 4} times)" for i in range(5))
    assert message.startswith(
        f"agreement of 'human' and 'llm': Cohen's kappa with a category one labelling uses fewer than 5 times ({named}{more}): "
    )
    assert "g5:" not in message  # the sixth sparse group (or, with five, the group that is not sparse)
    assert message.endswith(
        "): its interval may cover less than its level (0.85 to 0.92 simulated for 95% at low kappa "
        "on 30 items); label more items or merge the rare category."
    )


def test_agreement_table_names_groups_of_two_columns_and_the_whole():
    """Two grouping columns are joined by ' / '; without grouping the one table is named 'all'."""
    assert "(g0 / h0: 'n' (1 and 1 times)): " in _sparse_message(_groups(1, 0, by=("g", "h")), ["g", "h"], overall=False)
    assert "(all: 'n' (1 and 1 times)): " in _sparse_message(_groups(1, 0), [])


def test_sparse_warning_points_at_the_caller_of_either_kappa_interval():
    """kappa_interval and kappa_interval_table warn at their caller's line (this file), not inside the package."""
    table = np.array([[20, 2], [1, 2]])
    a, b = np.repeat(["f", "m"], [22, 3]), np.repeat(["f", "m", "f"], [20, 2, 3])
    for call in (lambda: kappa_interval_table(table), lambda: kappa_interval(a, b)):
        with pytest.warns(DataQualityWarning, match="fewer than 5 times") as caught:
            call()
        assert len(caught) == 1 and _at_caller(caught)


def test_kappa_interval_table_names_the_labels_given_and_only_where_kappa_is_defined():
    """labels= names the sparse categories in the warning; an undefined κ (one category) gives no sparse warning."""
    with pytest.warns(DataQualityWarning, match=r"25 items: .*\('female' \(3 and 4 times\)\)"):
        kappa_interval_table(np.array([[20, 2], [1, 2]]), labels=["male", "female"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert np.isnan(kappa_interval_table(np.array([[3, 0], [0, 0]]))[0])  # p_e = 1: NaN, and no warning


def test_sparse_categories_without_labels_names_the_positions():
    """Without labels the categories are named by their row (and column) position."""
    assert sparse_categories(np.array([[20, 2], [1, 2]])) == "'1' (3 and 4 times)"
    assert sparse_categories(np.array([[20.0, 2.5], [1.5, 2.0]]), ["a", "b"]) == "'b' (3.5 and 4.5 times)"


def test_agreement_table_does_not_call_an_undefined_kappa_sparse():
    """A group whose κ is undefined (one label for all its units) gets the 'undefined' warning, not the sparse one."""
    frame = pd.concat([_groups(0, 1), pd.DataFrame({"g": "solo", "human": ["m"] * 3, "llm": ["m"] * 3})])
    with pytest.warns(DataQualityWarning) as caught:
        agreement_table(frame, "human", "llm", ["g"], overall=False)
    messages = [str(w.message) for w in caught]
    assert any("undefined" in m and "solo" in m for m in messages)
    assert not any("fewer than 5 times" in m for m in messages)


def test_sparse_categories_refuses_labels_that_do_not_fit_the_table():
    """One label per category: a list of another length is refused, naming both numbers."""
    with pytest.raises(ValueError, match="1 labels for a table of 2 categories"):
        sparse_categories(np.array([[20, 2], [1, 2]]), ["a"])


# -----------------------------------------------------------------------------
# Hand formulas and independent implementations for the parts of the statistics core that mutation testing
# showed no fast test would miss (issue 38; docs/testing.md). Every expected value is computed here, from the
# formula or by scipy/statsmodels, never by the package function under test.


# ----------------------------------------------------------------------------- Cohen's kappa: the undefined cases
def test_kappa_is_undefined_for_no_item_and_for_one_shared_category():
    assert np.isnan(cohens_kappa(np.array([]), np.array([])))
    with pytest.warns(DataQualityWarning, match="undefined"):
        assert np.isnan(cohens_kappa(np.array(["m", "m"]), np.array(["m", "m"])))
    # One item, two categories: p_o = 0, p_e = 0: kappa 0 (defined).
    assert cohens_kappa(np.array(["m"]), np.array(["f"])) == 0.0
    # Categories used by one rater only count in p_e: a = m m f, b = m f n -> p_o = 1/3, p_e = 2/9 + 1/9 = 1/3... by hand
    a, b = np.array(["m", "m", "f"]), np.array(["m", "f", "n"])
    p_o, p_e = 1 / 3, (2 / 3) * (1 / 3) + (1 / 3) * (1 / 3)
    assert cohens_kappa(a, b) == pytest.approx((p_o - p_e) / (1 - p_e))
    assert cohens_kappa(list(a), list(b)) == pytest.approx((p_o - p_e) / (1 - p_e))
    res = agreement(np.array(["m", "f", "m", "m"]), np.array(["m", "f", "f", "m"]))
    w = an.wilson_interval(3, 4)
    assert res["agreement"] == 0.75 and (res["ci_low"], res["ci_high"]) == pytest.approx((float(w.low), float(w.high)))
    assert all(np.isnan(v) for v in agreement(np.array([]), np.array([])).values())


# -----------------------------------------------------------------------------
# Target-language gender readers on hand-written sentences; alignment; validation against people.


def test_agreement_by_hand_and_when_empty():
    from stats_mtbias.significance.agreement import agreement

    a = np.array(["male", "male", "female", "female"], dtype=object)
    b = np.array(["male", "female", "female", "female"], dtype=object)
    got = agreement(a, b)
    # 3 of 4 agree; chance agreement .5·.25 + .5·.75 = .5, so κ = (.75 − .5)/(1 − .5) = .5.
    assert got["agreement"] == 0.75 and got["kappa"] == pytest.approx(0.5)
    z = 1.959963984540054  # Wilson by hand
    centre, half = (0.75 + z**2 / 8) / (1 + z**2 / 4), z * np.sqrt(0.75 * 0.25 / 4 + z**2 / 64) / (1 + z**2 / 4)
    assert got["ci_low"] == pytest.approx(centre - half) and got["ci_high"] == pytest.approx(centre + half)
    empty = agreement(np.array([], dtype=object), np.array([], dtype=object))
    assert all(np.isnan(v) for v in empty.values())


def test_cohens_kappa_against_statsmodels():
    from statsmodels.stats.inter_rater import cohens_kappa as sm_kappa

    from stats_mtbias.significance.agreement import cohens_kappa

    human = np.array(["male"] * 50 + ["female"] * 30 + ["neutral"] * 20)
    auto = human.copy()
    auto[:10] = "female"
    auto[50:58] = "male"
    auto[80:85] = "unknown"
    labels = ["female", "male", "neutral", "unknown"]
    table = np.array([[np.sum((human == a) & (auto == b)) for b in labels] for a in labels])
    assert cohens_kappa(human, auto) == pytest.approx(sm_kappa(table).kappa)


def test_cohens_kappa_is_nan_with_a_reason_when_undefined():
    from stats_mtbias.errors import DataQualityWarning
    from stats_mtbias.significance.agreement import cohens_kappa

    one = np.array(["male"] * 12, dtype=object)
    with pytest.warns(DataQualityWarning, match="undefined.*'male'.*12 items"):
        assert np.isnan(cohens_kappa(one, one.copy()))
    # Two categories used by only one rater: defined (chance agreement < 1), and 0 here by hand.
    other = one.copy()
    other[:6] = "female"
    # p_o = 0.5, p_e = 1 * 0.5 = 0.5 -> kappa = 0
    assert cohens_kappa(one, other) == pytest.approx(0.0)

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from stats_mtbias.estimators.tgbi import p_s, tgbi_index, tgbi_shares
from stats_mtbias.tables import contingency, count_cube


def g(f=0, m=0, n=0, b=0, u=0):
    return np.array([f, m, n, b, u], dtype=float)


@pytest.mark.parametrize(
    ("counts", "expected"),
    [
        (g(n=10), 1.0),  # all neutral
        (g(m=10), 0.0),  # all male
        (g(f=7), 0.0),  # all female
        (g(f=5, m=5), 0.5),  # p_w = p_m = 1/2
        (g(f=1, m=3), np.sqrt(3 / 16)),
        # p = (0.2, 0.6, 0.2): sqrt(0.12 + 0.2) = sqrt(0.32)
        (g(f=2, m=6, n=2), np.sqrt(0.32)),
        # unknown leaves the denominator; both counts as neutral
        (g(f=2, m=6, b=2, u=90), np.sqrt(0.32)),
    ],
)
def test_p_s_hand_computed(counts, expected):
    assert p_s(counts) == pytest.approx(expected, abs=1e-12)


def test_both_excluded_changes_denominator():
    # both excluded: p = (0.25, 0.75, 0) -> sqrt(3/16)
    assert p_s(g(f=2, m=6, b=2), both="exclude") == pytest.approx(np.sqrt(3 / 16))


def test_empty_set_is_nan_not_zero():
    assert np.isnan(p_s(g(u=5)))


def test_index_is_unweighted_mean_of_sets():
    sets = np.array([g(n=1), g(m=1000), g(f=5, m=5)])  # 1, 0, 0.5: sizes ignored
    assert tgbi_index(p_s(sets)) == pytest.approx(0.5)


def test_vectorised_over_leading_axes():
    counts = np.random.default_rng(1).integers(0, 50, size=(7, 3, 4, 5))
    values = p_s(counts)
    assert values.shape == (7, 3, 4)
    assert values[2, 1, 3] == pytest.approx(p_s(counts[2, 1, 3]))


@given(st.lists(st.integers(0, 10_000), min_size=5, max_size=5).filter(lambda c: sum(c[:4]) > 0))
def test_p_s_bounds_and_maximum_for_fixed_neutral(counts):
    counts = np.array(counts, dtype=float)
    value = float(p_s(counts))
    assert 0.0 <= value <= 1.0
    # For fixed p_n, P_S is largest when female and male are equal.
    shares = tgbi_shares(counts)
    half = (shares[0] + shares[1]) / 2
    assert value <= np.sqrt(half * half + shares[2]) + 1e-12


@given(st.permutations(list(range(12))))
def test_counts_invariant_to_row_order(order):
    genders = ["female", "male", "neutral", "male", "male", "female", "neutral", "both", "unknown", "male", "male", "female"]
    frame = pd.DataFrame({"system": ["a"] * 6 + ["b"] * 6, "item": range(12), "subset": ["x", "y"] * 6, "gender": genders})
    shuffled = frame.iloc[list(order)]
    base = contingency(frame, ["system", "subset"]).sort_values(["system", "subset", "gender"])
    perm = contingency(shuffled, ["system", "subset"]).sort_values(["system", "subset", "gender"])
    assert base["count"].tolist() == perm["count"].tolist()
    cube_a = count_cube(frame.sort_values("system"), ["system", "subset"])
    cube_b = count_cube(shuffled.sort_values(["system", "subset"]), ["system", "subset"])
    # Same P_S whatever the order of rows, cell by cell.
    for system in ("a", "b"):
        for subset in ("x", "y"):
            ia = cube_a.coords["system"].index(system), cube_a.coords["subset"].index(subset)
            ib = cube_b.coords["system"].index(system), cube_b.coords["subset"].index(subset)
            assert p_s(cube_a.counts[ia]) == p_s(cube_b.counts[ib]) or (
                np.isnan(p_s(cube_a.counts[ia])) and np.isnan(p_s(cube_b.counts[ib]))
            )


def test_contingency_has_zero_cells_and_hand_counts():
    frame = pd.DataFrame({"system": ["a", "a", "a"], "item": [1, 2, 3], "gender": ["male", "male", "female"]})
    table = contingency(frame, ["system"]).set_index("gender")["count"]
    assert table.to_dict() == {"female": 1, "male": 2, "neutral": 0, "both": 0, "unknown": 0}


def test_bad_gender_is_a_clear_error():
    from stats_mtbias.errors import DataError

    frame = pd.DataFrame({"system": ["a"], "item": [1], "gender": ["Male"]})
    with pytest.raises(DataError, match="'Male' is not one of"):
        contingency(frame, ["system"])


def test_wide_counts_count_every_row():
    import pandas as pd

    from stats_mtbias.tables import wide_counts

    table = pd.DataFrame(
        {
            "system": "s",
            "item": ["a", "a", "b", "a", "b"],
            "language": ["x", "x", "x", "y", "y"],
            "gender": ["female", "male", "unknown", "both", "male"],
        }
    )
    wide = wide_counts(table, ["language", "item"]).set_index(["language", "item"])
    assert wide.loc[("x", "a"), ["female", "male", "m"]].tolist() == [1, 1, 2]
    assert wide.loc[("x", "b"), "unknown"] == 1 and wide.loc[("y", "a"), "both"] == 1
    assert wide["m"].sum() == len(table) and len(wide) == 4

"""Count tables (contingency, count cube, wide counts) against counts by hand."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from stats_mtbias.estimators.tgbi import p_s
from stats_mtbias.tables import contingency, count_cube


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

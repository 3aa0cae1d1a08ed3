"""Issue 45: `family` means the same everywhere — for rates' group differences too."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

import stats_mtbias as smb
from stats_mtbias.significance.multitest import adjust_pvalues


def test_group_differences_are_adjusted_within_the_family_asked_for():
    rng = np.random.default_rng(4)
    n = 300
    group = np.array(["x", "y", "z"])[np.arange(n) % 3]
    frame = pd.concat([pd.DataFrame({"item": range(n), "system": s, "grp": group,
                                     "gender": np.where(rng.random(n) < p, "female", "male")})
                       for s, p in (("a", 0.3), ("b", 0.4))])  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        per_metric = smb.rates(frame, by="grp", n_boot=300, rng=0).frame("group_differences")
        everything = smb.rates(frame, by="grp", n_boot=300, rng=0, family="all").frame("group_differences")
    for (_, _), part in per_metric.groupby(["system", "metric"]):
        assert len(part) == 3  # x-y, x-z, y-z of one system and metric
        np.testing.assert_allclose(part["p_adjusted"], adjust_pvalues(part["p_value"].to_numpy(), "holm"))
    np.testing.assert_allclose(everything["p_adjusted"], adjust_pvalues(everything["p_value"].to_numpy(), "holm"))
    assert set(per_metric["family"]) == {"system × metric"} and set(everything["family"]) == {"all"}

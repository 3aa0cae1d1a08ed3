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
    frame = pd.concat(
        [
            pd.DataFrame({"item": range(n), "system": s, "grp": group, "gender": np.where(rng.random(n) < p, "female", "male")})
            for s, p in (("a", 0.3), ("b", 0.4))
        ]
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        per_metric = smb.rates(frame, by="grp", n_boot=300, rng=0).frame("group_differences")
        everything = smb.rates(frame, by="grp", n_boot=300, rng=0, family="all").frame("group_differences")
    for (_, _), part in per_metric.groupby(["system", "metric"]):
        assert len(part) == 3  # x-y, x-z, y-z of one system and metric
        np.testing.assert_allclose(part["p_adjusted"], adjust_pvalues(part["p_value"].to_numpy(), "holm"))
    np.testing.assert_allclose(everything["p_adjusted"], adjust_pvalues(everything["p_value"].to_numpy(), "holm"))
    # Labelled as the systems' comparisons are (result.adjust): the family's values and its size.
    assert set(per_metric["family"]) == {f"{s} / {m} (3 comparisons)" for s in "ab" for m in ("female", "male", "neutral", "gap")}
    assert set(everything["family"]) == {"all (24 comparisons)"}


def test_with_samples_n_outputs_and_n_unknown_count_outputs():
    """Issue 45: with `sample=`, n_outputs and n_unknown count the outputs given (were item-equivalents, floored)."""
    rng = np.random.default_rng(0)
    rows = [
        (item, "a", s, rng.choice(["female", "male", "unknown"], p=[0.4, 0.5, 0.1]), "g1" if item < 20 else "g2")
        for item in range(40)
        for s in range(3 if item % 2 else 5)
    ]
    frame = pd.DataFrame(rows, columns=["item", "system", "k", "gender", "grp"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est = smb.rates(frame, sample="k", by="grp", n_boot=100, rng=0).frame("estimates")
    counts = est[est["metric"] == "female"].set_index("group")[["n", "n_outputs", "n_unknown"]]
    for group, part in [*frame.groupby("grp"), ("all", frame)]:
        unknown = int((part["gender"] == "unknown").sum())
        assert (counts.loc[group, "n_outputs"], counts.loc[group, "n_unknown"]) == (len(part) - unknown, unknown)
    assert counts.loc["all", "n"] == 40  # items, the unit of the intervals

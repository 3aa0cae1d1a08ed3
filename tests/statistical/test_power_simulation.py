"""The pilot simulation's power against the study's real analysis run on independently drawn evaluations (slow)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import stats_mtbias as smb
from stats_mtbias.studies import winomt

pytestmark = pytest.mark.slow


def test_winomt_delta_g_power_equals_the_rejection_rate_of_the_real_analysis(data_dir):
    pilot = smb.winomt(["google", "aws"], languages=["de"], data_dir=data_dir, adjectives=False, n_boot=200, rng=0)
    judgements = pilot.frames["judgements"][["system", "language", "item", "gold", "stereotype", "gender"]]
    cmp = pilot.compare()
    d0 = float(cmp.loc[cmp["metric"] == "delta_g", "diff"].iloc[0])
    n = 1500  # power near 0.5 here: the most demanding point for a comparison of rates
    plan = smb.power(pilot=pilot, language="de", metric="delta_g", n=n, difference=d0, n_sim=2000, n_boot=500, rng=1)

    # Independent evaluations: n items drawn within stereotype x gold from the pilot's items (both systems' readings
    # of an item kept together), each analysed by the study's own function with its own 500-resample bootstrap.
    wide = judgements.pivot_table(
        index=["item", "gold", "stereotype"], columns="system", values="gender", aggfunc="first"
    ).reset_index()
    strata = wide["stereotype"].astype(str) + ":" + wide["gold"].astype(str)
    sizes = strata.value_counts()
    from stats_mtbias.planning.simulate import allocate

    alloc = dict(zip(sizes.index, allocate(n, sizes.to_numpy()), strict=True))
    rng = np.random.default_rng(2)
    reps, rejected = 1000, 0
    for _ in range(reps):
        parts = [part.iloc[rng.integers(0, len(part), size=alloc[label])] for label, part in wide.groupby(strata, sort=False)]
        drawn = pd.concat(parts, ignore_index=True).assign(item=lambda f: np.arange(len(f)))
        long = pd.concat([drawn.assign(system=s, gender=drawn[s]) for s in ("google", "aws")], ignore_index=True)
        long = long.assign(language="de")[["system", "language", "item", "gold", "stereotype", "gender"]]
        _, comparisons = winomt.analyse(long, n_boot=500, rng=rng, correction="none")
        row = comparisons[comparisons["metric"] == "delta_g"].iloc[0]
        rejected += row["p_value"] <= 0.05
    real = rejected / reps
    p = plan.power
    band = 4 * np.sqrt(p * (1 - p) / reps + p * (1 - p) / 2000)
    print(f"real analysis {real:.3f} vs simulated plan {p:.3f} (band {band:.3f})")
    assert abs(real - p) < band, (real, p, band)

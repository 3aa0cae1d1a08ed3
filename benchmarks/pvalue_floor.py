"""Issue 34: can a 10-system grid reach significance after the multiplicity correction, and how long does it take?

For a grid of systems × languages × metrics under the defaults (Holm within each language × subset × metric
family), prints per study: the comparisons and families, the smallest attainable ``p_adjusted`` (the
correction applied to each test's floor: 0 where a test has none), the smallest observed one, how many
comparisons come out significant (``p_adjusted`` < 0.05) against how many intervals exclude 0, and the
seconds the comparisons take.

- WinoMT: 10 systems × 3 languages from a synthetic judgements frame on the shipped 3,888 items (accuracies
  from realistic MT figures; some systems clearly different, two pairs nearly identical). The comparisons
  alone (Tango/McNemar score, MOVER of Tango, item jackknife t) are timed apart from the study's bootstrap
  intervals of each system (target: ≤ 30 s for the comparisons on 2 cores).
- rates: 5 systems × 3 languages of a generic benchmark (1,000 items), bootstrap (the default) and analytic.
- TGBI with approximate randomisation, the one option with a floor: 1/(B + 1) at the defaults and at 999.

Prints figures; asserts nothing. Usage: python benchmarks/pvalue_floor.py [--data-dir DIR] [--n-boot 10000]
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
import pandas as pd

LANGUAGES = ("es", "fr", "de")
# (acc_pro, acc_anti, lean): lean > 0 reads male more often (ΔG > 0).
SYSTEMS = {
    "s01": (0.85, 0.70, 0.02),
    "s02": (0.85, 0.70, 0.02),
    "s03": (0.80, 0.55, 0.05),
    "s04": (0.75, 0.45, 0.08),
    "s05": (0.70, 0.40, 0.10),
    "s06": (0.65, 0.45, 0.04),
    "s07": (0.90, 0.85, 0.00),
    "s08": (0.60, 0.30, 0.12),
    "s09": (0.80, 0.56, 0.05),
    "s10": (0.55, 0.35, 0.06),
}


def winomt_frame(items: pd.DataFrame, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    gold, stereo = items["gold"].to_numpy(), items["stereotype"].to_numpy()
    other = np.where(gold == "male", "female", "male")
    frames = []
    for language in LANGUAGES:
        common = rng.random(len(items))  # systems share part of their errors, as real ones do
        for system, (pro, anti, lean) in SYSTEMS.items():
            base = np.where(stereo == "pro", pro, np.where(stereo == "anti", anti, (pro + anti) / 2))
            base = np.clip(base + np.where(gold == "male", lean, np.where(gold == "female", -lean, 0.0)), 0, 1)
            u = np.where(rng.random(len(items)) < 0.6, common, rng.random(len(items)))
            wrong = np.where(rng.random(len(items)) < 0.9, other, "unknown")
            frames.append(
                pd.DataFrame(
                    {"item": items["item"], "system": system, "language": language, "gender": np.where(u < base, gold, wrong)}
                )
            )
    return pd.concat(frames, ignore_index=True)


def summary(label: str, cmp: pd.DataFrame, floor: float | np.ndarray, seconds: float, correction="holm") -> None:
    from stats_mtbias.significance.multitest import adjust_pvalues

    floor = np.broadcast_to(np.asarray(floor, float), (len(cmp),))
    attainable = min(
        float(np.min(adjust_pvalues(floor[cmp["family"].to_numpy() == f], correction))) for f in cmp["family"].unique()
    )
    significant = int((cmp["p_adjusted"] < 0.05).sum())
    excludes = int(((cmp["ci_low"] > 0) | (cmp["ci_high"] < 0)).sum())
    both = int(((cmp["p_adjusted"] < 0.05) & ((cmp["ci_low"] > 0) | (cmp["ci_high"] < 0))).sum())
    print(
        f"{label}\n  {len(cmp):,} comparisons in {cmp['family'].nunique()} families of "
        f"{cmp.groupby('family').size().max()}; smallest attainable p_adjusted {attainable:.3g}, smallest observed "
        f"{cmp['p_adjusted'].min():.3g}\n  significant after Holm: {significant} ({significant / len(cmp):.0%}); "
        f"intervals excluding 0: {excludes} ({excludes / len(cmp):.0%}); both: {both}; "
        f"ratio significant / excluding 0: {significant / max(excludes, 1):.2f}\n  seconds: {seconds:.1f}"
    )


def winomt_grid(data_dir, n_boot: int) -> None:
    import stats_mtbias as smb
    from stats_mtbias.datasets import winomt as winomt_data
    from stats_mtbias.datasets.registry import open_store
    from stats_mtbias.studies._common import adjust, comparison_frame, system_pairs
    from stats_mtbias.studies.winomt import paired_comparison
    from stats_mtbias.studies.winomt.analysis import language_arrays

    items = winomt_data.read_items(open_store(data_dir))
    frame = winomt_frame(items)
    # The comparisons alone: every pair of systems in every language, by the study's own function.
    from stats_mtbias.estimators.winomt import METRICS

    start = time.perf_counter()
    rows = []
    for language, part in frame.assign(
        stereotype=frame["item"].map(items.set_index("item")["stereotype"]),
        gold=frame["item"].map(items.set_index("item")["gold"]),
    ).groupby("language"):
        systems, _, _, data = language_arrays(part)
        for a, b in system_pairs(systems):
            res = paired_comparison(data[:, a], data[:, b], 0.95)
            for m, metric in enumerate(METRICS):
                rows.append(
                    {
                        "system_a": systems[a],
                        "system_b": systems[b],
                        "language": language,
                        "subset": "all",
                        "metric": metric,
                        "diff": res["diff"][m],
                        "ci_low": res["low"][m],
                        "ci_high": res["high"][m],
                        "p_value": res["p_value"][m],
                    }
                )
    cmp = adjust(comparison_frame(rows), "holm")
    seconds = time.perf_counter() - start
    summary(
        f"WinoMT, {len(SYSTEMS)} systems × {len(LANGUAGES)} languages × {len(METRICS)} metrics, comparisons only "
        "(defaults: Tango/McNemar score, MOVER of Tango, jackknife t; no floor)",
        cmp,
        0.0,
        seconds,
    )
    for metric in ("acc", "delta_g", "delta_s"):
        part = cmp[cmp["metric"] == metric]
        print(
            f"    {metric}: significant {int((part['p_adjusted'] < 0.05).sum())} of {len(part)}, intervals excluding "
            f"0 {int(((part['ci_low'] > 0) | (part['ci_high'] < 0)).sum())}"
        )
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = smb.winomt(judgements=frame, n_boot=n_boot)
    print(
        f"  the whole study (each system's bootstrap intervals with n_boot={n_boot:,}, and the comparisons): "
        f"{time.perf_counter() - start:.1f} s; its smallest p_adjusted {res.compare()['p_adjusted'].min():.3g}"
    )
    # A 10-system example where large differences come out significant.
    big = cmp[(cmp["metric"] == "acc") & (cmp["language"] == "es")].assign(abs_diff=lambda f: f["diff"].abs())
    print("  es, Acc: the largest and the smallest differences")
    shown = pd.concat([big.nlargest(3, "abs_diff"), big.nsmallest(3, "abs_diff")])
    print(shown[["system_a", "system_b", "diff", "ci_low", "ci_high", "p_value", "p_adjusted"]].to_string(index=False))


def rates_grid(n_boot: int) -> None:
    import stats_mtbias as smb

    rng = np.random.default_rng(1)
    female = {"m1": 0.10, "m2": 0.12, "m3": 0.30, "m4": 0.45, "m5": 0.11}
    rows = []
    for language in LANGUAGES:
        for system, p in female.items():
            genders = rng.choice(["female", "male", "neutral"], size=1000, p=[p, 0.9 - p, 0.1])
            rows.append(pd.DataFrame({"item": np.arange(1000), "system": system, "language": language, "gender": genders}))
    frame = pd.concat(rows, ignore_index=True)
    for ci in ("bootstrap", "analytic"):
        start = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = smb.rates(frame, by=["language"], ci=ci, n_boot=n_boot)
        seconds = time.perf_counter() - start
        cmp = res.compare()
        summary(f"rates, 5 systems × 3 languages × 4 metrics, ci={ci!r} (whole study)", cmp, 0.0, seconds)


def tgbi_floor() -> None:
    from stats_mtbias._defaults import N_RESAMPLES
    from stats_mtbias.significance.multitest import adjust_pvalues

    print("TGBI approximate randomisation (test='permutation'), 3 systems, 8 rows a pair: the floor 1/(B + 1)")
    for b in (999, N_RESAMPLES):
        for family, size in (("metric", 3), ("all", 24)):
            attainable = float(np.min(adjust_pvalues(np.full(size, 1 / (b + 1)), "holm")))
            print(
                f"  n_permutations={b:>6,}, family={family!r:>8} ({size} a family): smallest attainable p_adjusted "
                f"{attainable:.4f}{'  (warns: out of reach)' if attainable >= 0.05 else ''}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--n-boot", type=int, default=10_000)
    args = parser.parse_args()
    winomt_grid(args.data_dir, args.n_boot)
    rates_grid(args.n_boot)
    tgbi_floor()


if __name__ == "__main__":
    main()

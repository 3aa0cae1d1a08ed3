"""Time 10,000 cluster-bootstrap replicates of the 21 P_S values and 3 indices.

Three ways to the same statistic (P_S of 3 systems x 7 sets, and 3 indices, from
lexicon-item counts): stats_mtbias (integer weight matrix @ per-item counts),
scipy.stats.bootstrap with a vectorised statistic over resampled item indices,
and a straightforward loop over replicates. Prints seconds; no assertion.

Usage: python benchmarks/bootstrap_tgbi.py [--n-boot 10000] [--data-dir DIR]
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
from scipy import stats

from stats_mtbias.estimators.tgbi import p_s
from stats_mtbias.studies import tgbi
from stats_mtbias.tables import count_cube
from stats_mtbias.uncertainty.bootstrap import cluster_bootstrap


def statistic(totals: np.ndarray) -> np.ndarray:
    values = p_s(totals)  # (r, systems, sets)
    return np.concatenate([values, values.mean(axis=-1, keepdims=True)], axis=-1)


def timed(fn, repeat=3):
    best = np.inf
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - start)
    return best, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n-boot", type=int, default=10_000)
    parser.add_argument("--data-dir")
    args = parser.parse_args()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        judgements, _ = tgbi.load_judgements(data_dir=args.data_dir)
    cube = count_cube(judgements, ("lexicon_item", "system", "subset"))
    counts = cube.counts.astype(float)  # (1059 items, 3 systems, 7 sets, 5 genders)
    content = judgements.drop_duplicates("lexicon_item").set_index("lexicon_item")["content"]
    strata = content.reindex(cube.coords["lexicon_item"]).to_numpy()
    n_items, n_boot = counts.shape[0], args.n_boot
    print(
        f"data: {n_items} lexicon items x {counts.shape[1]} systems x {counts.shape[2]} sets; "
        f"{n_boot} replicates of 21 P_S + 3 indices"
    )

    t_ours, res = timed(lambda: cluster_bootstrap(counts, statistic, n_boot=n_boot, rng=0, strata=strata))
    t_bca, _ = timed(lambda: cluster_bootstrap(counts, statistic, n_boot=n_boot, rng=0, strata=strata, method="bca"))
    print(f"stats_mtbias (stratified, percentile): {t_ours:8.3f} s")
    print(f"stats_mtbias (stratified, BCa)       : {t_bca:8.3f} s")

    flat = counts.reshape(n_items, -1)

    def scipy_stat(idx, axis=-1):
        idx = np.asarray(idx, dtype=int)
        totals = flat[idx].sum(axis=-2).reshape((*idx.shape[:-1], *counts.shape[1:]))
        out = statistic(totals.reshape(-1, *counts.shape[1:])).reshape((*idx.shape[:-1], -1))
        return np.moveaxis(out, -1, 0)

    t_scipy, sres = timed(
        lambda: stats.bootstrap(
            (np.arange(n_items),),
            scipy_stat,
            n_resamples=n_boot,
            vectorized=True,
            method="percentile",
            batch=500,
            rng=0,
        ),
        repeat=1,
    )
    print(f"scipy.stats.bootstrap (unstratified, vectorised statistic, batch 500): {t_scipy:8.3f} s")

    def loop():
        rng = np.random.default_rng(0)
        members = [np.flatnonzero(strata == s) for s in np.unique(strata)]
        reps = np.empty((n_boot, *res.estimate.shape))
        for b in range(n_boot):
            idx = np.concatenate([m[rng.integers(0, len(m), len(m))] for m in members])
            reps[b] = statistic(counts[idx].sum(axis=0)[None])[0]
        return reps

    t_loop, _ = timed(loop, repeat=1)
    print(f"per-replicate Python loop (stratified)  : {t_loop:8.3f} s")
    print(f"speed-up vs scipy: {t_scipy / t_ours:6.1f}x; vs loop: {t_loop / t_ours:6.1f}x")
    ci = res.confidence_interval()
    sc = sres.confidence_interval
    width_ours = np.mean(ci.high - ci.low)
    width_scipy = np.mean(np.asarray(sc.high) - np.asarray(sc.low))
    print(f"mean interval width: ours {width_ours:.4f}, scipy (unstratified) {width_scipy:.4f}")


if __name__ == "__main__":
    main()

"""Time power analysis by simulation from pilot data, and compare the closed forms.

1. WinoMT, Google vs Amazon on German ΔG (the docs' worked example): 1,000 simulated
   evaluations of 3,888 items through the study's paired bootstrap (500 resamples each)
   and through its linearised form; the power at a 2-point difference, the minimum
   detectable difference, and the items needed for 2 points. Target (issue 20): ≤ 30 s
   for 1,000 simulated evaluations on 2 cores.
2. McNemar: Connor's (1987) sample size against the exact power of McNemar's
   chi-square and of the exact test the package runs, over discordance 0.05–0.4 and
   differences 0.02–0.2.

Usage: python benchmarks/power.py [--data-dir DIR] [--repeats 3]
"""

from __future__ import annotations

import argparse
import time


def _best(function, repeats: int):
    times, value = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        value = function()
        times.append(time.perf_counter() - start)
    return min(times), value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()

    import stats_mtbias as smb
    from stats_mtbias.planning import closed

    pilot = smb.winomt(["google", "aws"], languages=["de"], data_dir=args.data_dir, adjectives=False, n_boot=1000, rng=0)
    common = dict(pilot=pilot, language="de", metric="delta_g", n_sim=1000, rng=0)
    cmp = pilot.compare()
    observed = float(cmp.loc[cmp["metric"] == "delta_g", "diff"].iloc[0])
    print(f"WinoMT de ΔG, google − aws; pilot difference {observed:.4f}; 1,000 simulated evaluations per size")
    print(f"{'question':<34}{'test':<11}{'seconds':>9}  answer")
    timings = {}
    for test in ("bootstrap", "wald"):
        for label, kwargs in (
            ("power at n = 3,888, 2 points", dict(n=3888, difference=0.02)),
            ("minimum detectable, n = 3,888", dict(n=3888)),
            ("items for 2 points, power 0.8", dict(difference=0.02)),
        ):
            seconds, res = _best(
                lambda kwargs=kwargs, test=test: smb.power(test=test, n_boot=500, **common, **kwargs), args.repeats
            )
            timings[(label, test)] = seconds
            answer = {
                "power": f"power {res.power:.3f} (size {res.table['size'].iloc[0]:.3f})",
                "mde": f"{100 * res.difference:.2f} points",
                "sample_size": f"n = {res.n:,} (simulated power {res.power:.3f})",
            }[res.question]
            print(f"{label:<34}{test:<11}{seconds:>9.2f}  {answer}")
    first = timings[("power at n = 3,888, 2 points", "bootstrap")]
    print(
        f"\n1,000 simulated evaluations with the bootstrap test: {first:.2f} s (target ≤ 30 s); "
        f"bootstrap / Wald time ratio {first / timings[('power at n = 3,888, 2 points', 'wald')]:.0f}×"
    )

    print("\nMcNemar, items for power 0.8 at two-sided α = 0.05")
    head = ("discordance", "difference", "Connor", "chi-sq exact", "ratio", "exact test", "ratio")
    print(" ".join(f"{h:>{w}}" for h, w in zip(head, (11, 10, 8, 13, 6, 11, 6), strict=True)))
    for psi in (0.05, 0.1, 0.2, 0.4):
        for d in (0.02, 0.05, 0.1, 0.2):
            if d >= psi:
                continue
            connor = int(closed.paired_sample_size(d, psi))
            chi = closed.paired_sample_size_exact(d, psi, test="asymptotic")
            exact = closed.paired_sample_size_exact(d, psi)
            print(f"{psi:>11} {d:>10} {connor:>8} {chi:>13} {chi / connor:>6.3f} {exact:>11} {exact / connor:>6.3f}")


if __name__ == "__main__":
    main()

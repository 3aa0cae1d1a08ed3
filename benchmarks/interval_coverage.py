"""Simulated coverage of every interval and size of every test, in the regimes users meet.

Near 0 and 1, on small sets (100 items or sentences) and at the shipped sizes, for
TGBI (a set's P_S, the index, paired differences and tests, in synthetic sets and
in worlds resampled from the shipped outputs), WinoMT (Acc, ΔG, ΔS and their paired
differences and tests), Prates (female rates, the one-sided sign test), corrected
Acc (systems of different accuracy, each with its own labels) and the optimal
translator's sector B (synthetic populations, and worlds from the shipped
occupations: occupations resampled, or outputs random). Every simulated data set
gets a fresh bootstrap.

Prints one table: the value, its Monte-Carlo standard error and whether it meets
its two-sided band (``Row.band`` of ``tests/statistical/_cases``, from ``_bands``)
of two Monte-Carlo standard errors: 95% coverage around 0.95, or up to the exact
method's coverage where the data hold ten or fewer minority outputs and the interval
is discrete (no upper limit where that cannot be computed); size around 0.05 (down
to the exact size for the discrete sign test). ``reference`` rows show a non-default method beside
(the TGBI bootstrap's index interval; corrected Acc with another system's labels;
sector B's bootstrap-t). In the shipped worlds of sector B a row is a language's
worst sector, with the median over its sectors in the regime.

    python benchmarks/interval_coverage.py [--reps 2000] [--quick] [--csv out.csv]

``--quick`` (200 replications, a minute) is a smoke run; the figures in the
closing note of issue 16 are from the default.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.statistical import _cases


def _tgbi_world(reps: int) -> list:
    from stats_mtbias.datasets.registry import open_store
    from stats_mtbias.studies import tgbi

    judgements, _ = tgbi.load_judgements(store=open_store(None))
    counts, systems, strata = tgbi.design_arrays(judgements)
    return _cases.tgbi_world(counts, systems, strata, reps)


def _optimal_worlds(reps: int) -> list:
    from stats_mtbias.datasets import reference as reference_data
    from stats_mtbias.datasets.registry import open_store
    from stats_mtbias.studies import optimal
    from stats_mtbias.studies import prates as prates_study

    store = open_store(None)
    judgements, _ = prates_study.load_judgements(store=store)
    table = optimal.occupation_table(judgements, reference_data.bls_reference(store))
    rows = _cases.optimal_outputs_world(table, reps) + _cases.optimal_world(table, reps)
    return rows + _cases.optimal_world(table, reps, interval="studentized")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=2000, help="simulated data sets per regime (default 2000)")
    parser.add_argument("--quick", action="store_true", help="200 replications: a smoke run")
    parser.add_argument("--csv", help="also write the table here")
    args = parser.parse_args(argv)
    reps = 200 if args.quick else args.reps
    warnings.simplefilter("ignore")
    scenarios = {
        "TGBI sets (synthetic)": lambda: _cases.tgbi_sets(reps),
        "TGBI worlds (shipped outputs)": lambda: _tgbi_world(reps),
        "WinoMT": lambda: _cases.winomt(max(200, reps // 2)),
        "Prates": lambda: _cases.prates(reps),
        "corrected Acc": lambda: _cases.corrected_accuracy(max(200, reps // 4)),
        "optimal B": lambda: _cases.optimal(max(200, reps // 2)) + _cases.optimal(max(200, reps // 2), interval="studentized"),
        "optimal B (shipped worlds)": lambda: _optimal_worlds(max(200, reps // 4)),
    }
    rows = []
    for name, run in scenarios.items():
        start = time.perf_counter()
        found = run()
        print(f"{name}: {len(found)} figures in {time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
        rows += [r.as_dict() for r in found]
    table = pd.DataFrame(rows)
    with pd.option_context("display.width", 200, "display.max_rows", None, "display.max_colwidth", 48):
        print(
            table[["study", "quantity", "method", "regime", "reps", "kind", "value", "mc_se", "target", "ok"]].to_string(
                index=False, float_format=lambda v: f"{v:.3f}"
            )
        )
    failing = table[~table["ok"]]
    print(f"\n{len(table)} figures; {len(failing)} outside their target by more than 2 Monte-Carlo standard errors")
    if args.csv:
        table.to_csv(args.csv, index=False)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

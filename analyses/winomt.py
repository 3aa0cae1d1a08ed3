"""WinoMT: read every shipped translation's entity gender, and write metrics, comparisons, "+Adj" and validation.

Usage: python analyses/winomt.py [--out reports/winomt] [--n-boot 10000] [--seed 0] [--data-dir DIR]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pandas as pd

from stats_mtbias.datasets import winomt as winomt_data
from stats_mtbias.datasets.registry import manifest, open_store
from stats_mtbias.provenance import Provenance
from stats_mtbias.report.formatting import format_table
from stats_mtbias.studies import winomt, winomt_reading


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", default="reports/winomt")
    parser.add_argument("--n-boot", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--data-dir")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    store = open_store(args.data_dir)
    items = winomt_data.read_items(store)
    from stats_mtbias.gender.targets import LANGUAGES

    # Dutch and Portuguese outputs are shipped, but there is no reader for them (nor human labels).
    files = [f for f in winomt_data.translation_files() if f[1] in LANGUAGES]
    base = pd.concat([winomt_reading.judge(store, s, lang, items) for s, lang, adj, _ in files if not adj], ignore_index=True)
    adj = pd.concat(
        [winomt_reading.judge(store, s, lang, items, adjectives=True) for s, lang, a, _ in files if a], ignore_index=True
    )
    estimates, comparisons = winomt.analyse(base, n_boot=args.n_boot, seed=args.seed)
    adjective = winomt.adjective_effect(base, adj)
    validation = []
    for relpath in sorted(p for p in manifest() if p.startswith("winomt/data/human_annotations/")):
        res = winomt_reading.validate(store, store.path(relpath), items)
        validation.append({k: v for k, v in res.items() if k != "confusion"})
    validation = pd.DataFrame(validation)
    accounting = base.assign(outcome=base["reason"].replace("", "read")).groupby(["system", "language", "outcome"]).size()
    estimates.to_csv(out / "estimates.csv", index=False)
    comparisons.to_csv(out / "comparisons.csv", index=False)
    adjective.to_csv(out / "adjectives.csv", index=False)
    validation.to_csv(out / "validation.csv", index=False)
    accounting.rename("items").reset_index().to_csv(out / "accounting.csv", index=False)
    provenance = Provenance(
        method="sil-thot FastAlign (grow-diag-final-and) + stats_mtbias.gender.targets readers; bootstrap over items "
        "stratified by stereotype (percentile); McNemar exact / paired bootstrap, Holm over all comparisons",
        data=dict(sorted(store.used.items())), n_boot=args.n_boot, seed=args.seed, level=0.95,
        options={"aligner": "fastalign", "use_pronoun": False},
    )  # fmt: skip
    (out / "provenance.json").write_text(json.dumps(provenance.to_dict(), indent=1) + "\n", "utf-8")
    cols = ["system", "language", "n_unknown", "acc", "acc_ci_low", "acc_ci_high", "delta_g", "delta_g_ci_low",
            "delta_g_ci_high", "delta_s", "delta_s_ci_low", "delta_s_ci_high"]  # fmt: skip
    md = [
        "# WinoMT (Stanovsky et al. 2019): English → 10 languages",
        "",
        "Acc, ΔG = F1(male) − F1(female) and ΔS = Acc(pro) − Acc(anti), in percent, with 95% bootstrap intervals",
        f"({args.n_boot} resamples of the 3,888 items within the pro/anti/none strata, seed {args.seed}).",
        "",
        "## Agreement of the automatic reading with native speakers",
        "```",
        format_table(validation, ["file", "language", "n_labelled", "agreement", "ci_low", "ci_high", "kappa"]),
        "```",
        "## Estimates",
        "```",
        format_table(estimates, cols),
        "```",
        '## "+Adj" (handsome/pretty before the entity; anti-stereotypical items)',
        "```",
        format_table(adjective, list(adjective.columns)),
        "```",
        "## Provenance",
        "```json",
        json.dumps(provenance.to_dict(), indent=1),
        "```",
    ]
    (out / "report.md").write_text("\n".join(md) + "\n", "utf-8")
    print(f"wrote {out}/report.md")


if __name__ == "__main__":
    main()

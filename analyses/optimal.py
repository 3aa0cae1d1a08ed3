"""Optimal-translator bias B of the 12 Prates languages against the BLS reference; tables to reports/.

Usage: python analyses/optimal.py [--out reports/optimal] [--n-boot 10000] [--seed 0] [--data-dir DIR]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from stats_mtbias.report.formatting import format_table
from stats_mtbias.studies import optimal


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", default="reports/optimal")
    parser.add_argument("--n-boot", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--data-dir")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    result = optimal.run(data_dir=args.data_dir, n_boot=args.n_boot, seed=args.seed)
    result.occupations.to_csv(out / "occupations.csv", index=False)
    result.categories.to_csv(out / "categories.csv", index=False)
    result.sectors.to_csv(out / "sectors.csv", index=False)
    result.headline.to_csv(out / "headline.csv", index=False)
    result.accounting.to_csv(out / "accounting.csv", index=False)
    (out / "provenance.json").write_text(json.dumps(result.provenance.to_dict(), indent=1) + "\n", "utf-8")
    level = int(result.provenance.level * 100)
    head_cols = [
        "language", "n", "pct_minority", "pct_minority_ci_low", "pct_minority_ci_high", "pct_should_be_she",
        "pct_he_given_female_dominated", "pct_she_given_male_dominated", "n_biased", "b_min", "b_median", "b_max",
    ]  # fmt: skip
    md = [
        "# Optimal-translator bias B (Farkas & Németh): 12 languages → English against BLS",
        "",
        "E_0 = 100·min(f, 1−f) is the error of the translator that always says the majority gender; B = (E_t − E_0)/E_0.",
        "Reference f: BLS women's participation (590 of 1,019 occupations have one). Neutral outputs count as unbiased.",
        "Sector B: mean B weighted by women (female-dominated occupations) or men (male-dominated), sectors from",
        f"`data/sectors.csv`. {level}% intervals: bootstrap over occupations stratified by sector, bootstrap-t",
        f"({args.n_boot} resamples, seed {args.seed}); the BLS shares are taken as fixed.",
        "",
        "## Headline rates",
        "```",
        format_table(result.headline, head_cols),
        "```",
        "## Sector B",
        "```",
        format_table(result.sectors, ["language", *optimal.SECTOR_COLUMNS]),
        "```",
        "## Category B (mean over the category's occupations)",
        "```",
        format_table(result.categories, ["language", *optimal.CATEGORY_COLUMNS]),
        "```",
        "## Accounting: occupations with and without B",
        "```",
        result.accounting.to_string(index=False),
        "```",
        "## Provenance",
        "```json",
        json.dumps(result.provenance.to_dict(), indent=1),
        "```",
    ]
    (out / "report.md").write_text("\n".join(md) + "\n", "utf-8")
    print(f"wrote {out}/report.md")


if __name__ == "__main__":
    main()

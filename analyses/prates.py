"""Reproduce the Prates et al. study's tables through the public API and write them to reports/.

Usage: python analyses/prates.py [--out reports/prates] [--seed 0] [--data-dir DIR]
"""

from __future__ import annotations

import argparse
import json
import warnings
from pathlib import Path

from stats_mtbias.report.formatting import format_table
from stats_mtbias.studies import prates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", default="reports/prates")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--data-dir")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # small-count warnings are resolved by the exact tests
        main_run = prates.run(data_dir=args.data_dir, by="language,category", seed=args.seed)
        authors = prates.run(data_dir=args.data_dir, by="language", denominator="all", test="ttest", correction="none")
        adjectives = prates.run(data_dir=args.data_dir, items="adjectives", seed=args.seed)
    main_run.rates.to_csv(out / "rates.csv", index=False)
    main_run.tests.to_csv(out / "tests.csv", index=False)
    main_run.independence.to_csv(out / "independence.csv", index=False)
    main_run.reference.to_csv(out / "reference.csv", index=False)
    main_run.calibration.to_csv(out / "calibration.csv", index=False)
    authors.rates.to_csv(out / "rates_authors_convention.csv", index=False)
    adjectives.rates.to_csv(out / "rates_adjectives.csv", index=False)
    main_run.accounting.to_csv(out / "accounting.csv", index=False)
    (out / "provenance.json").write_text(json.dumps(main_run.provenance.to_dict(), indent=1) + "\n", "utf-8")
    per_language = main_run.rates[main_run.rates["category"] == "all"]
    per_category = prates.analyse(main_run.judgements, by="category")[0]
    male_female = main_run.tests[main_run.tests["comparison"] == "male>female"]
    level = int(main_run.provenance.level * 100)
    md = [
        "# Prates, Avelar & Lamb (2019): 12 gender-neutral languages → English (Google Translate)",
        "",
        '1,019 BLS occupations in "he/she is a(n) <occupation>"; the pronoun of each English output as the authors',
        "read it (Female, Male, Neutral, `?`). Percentages are over identified outputs; `?` rows are counted in",
        f"`n_unknown`. {level}% Wilson intervals on the effective sample size (Bengali's six variants per occupation",
        "are correlated). Tests: one-sided exact sign tests on the occupations where the two counts differ; p-values",
        f"adjusted by {main_run.family}.",
        "",
        "## Per language",
        "```",
        format_table(per_language, prates.RECORD_COLUMNS),
        "```",
        "## Per category (all languages; an occupation's outputs in all languages are one cluster)",
        "```",
        format_table(per_category, prates.RECORD_COLUMNS),
        "```",
        "## Per language and category: male > female",
        "```",
        format_table(male_female, [*prates.TEST_COLUMNS, "significant"]),
        "```",
        "## Tests of independence (Holm over the per-language tests)",
        "```",
        format_table(main_run.independence, prates.INDEPENDENCE_COLUMNS),
        "```",
        "## Translated female share against BLS participation",
        "```",
        format_table(main_run.reference, prates.REFERENCE_COLUMNS),
        "```",
        "## Calibration: logit P(female) = intercept + slope · logit(BLS share), SEs clustered by category",
        "```",
        format_table(main_run.calibration, [*prates.CALIBRATION_COLUMNS, "note"]),
        "```",
        "## The authors' convention (all rows, variants averaged; paired t-test, no correction)",
        "```",
        format_table(authors.rates, prates.RECORD_COLUMNS),
        "```",
        "## Adjectives",
        "```",
        format_table(adjectives.rates, prates.RECORD_COLUMNS),
        "```",
        "## Data accounting: every row read",
        "```",
        main_run.accounting.to_string(index=False),
        "```",
        "## Provenance",
        "```json",
        json.dumps(main_run.provenance.to_dict(), indent=1),
        "```",
    ]
    (out / "report.md").write_text("\n".join(md) + "\n", "utf-8")
    print(f"wrote {out}/report.md and {len(list(out.glob('*.csv')))} CSV files")


if __name__ == "__main__":
    main()

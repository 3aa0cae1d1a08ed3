"""Draw a blind-labelling sample of a reader from REAL system outputs of WinoMT (issue 46, item 3).

The issue-36 validation set of the Czech reader was partly written by LLMs for the purpose;
this draws the new one from real MT or LLM outputs of the whole benchmark, before anyone
labels it, with a fixed seed, so that neither the reader's author nor its output chooses the
items. Per system `--per-system` items (default 60: 25 female, 25 male, 10 neutral gold;
within female and male half pro- and half anti-stereotypical, as tools/validation_sample.py),
the systems' items disjoint, drawn only among the items the system translated.

Each ``--system NAME=PATH`` is a system's WinoMT outputs into `--language`, either a
``source ||| translation`` file (mt_gender's format, matched to the items by source sentence)
or a CSV with ``item, translation`` columns (``item`` = 0-based line of en.txt).

Writes
- `--sample` (default ``data/validation/sample_<language>_real.csv``): ``language, system, item,
  sentence, entity, translation``, the provenance of every row;
- `--label-input`: what annotators see (LABELLING.md: the English sentence, the entity and the
  translation) and the keys they return with their labels; no reader output;
- `--reader-output`: the language's reader on the sample (``gender, aligned, why``), read as
  tools/agreement_new_readers.py reads (every output of the given systems is aligner training
  text); keep it away from the annotators.

Annotators return ``language,system,item,annotator,found,gender,evidence,note`` (the format of
``data/validation/labels_cs.csv``).

Usage: MTBIAS_DATA=../shared/data python tools/validation_sample_real.py --language cs \
    --system nllb=PATH --system llama=PATH --label-input /work/czech_label_input.csv \
    --reader-output /work/czech_reader_output.csv
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
PER_GOLD = {"female": 25 / 60, "male": 25 / 60, "neutral": 10 / 60}
SEED = 46  # issue 46


def system_outputs(path: str, items: pd.DataFrame) -> pd.DataFrame:
    """One system's outputs as ``item, translation`` (only items with a non-empty translation)."""
    from stats_mtbias.datasets import winomt as winomt_data

    if path.endswith(".csv"):
        table = pd.read_csv(path, dtype={"translation": str}, keep_default_na=False)
        missing = {"item", "translation"} - set(table.columns)
        if missing:
            raise SystemExit(f"{path}: no column {', '.join(sorted(missing))} (need item, translation)")
        table = table[["item", "translation"]]
    else:
        table = winomt_data.read_translations(Path(path), items)[["item", "translation"]]
    table["translation"] = table["translation"].fillna("").astype(str).str.strip()
    return table[table["translation"] != ""].drop_duplicates("item").reset_index(drop=True)


def counts(per_system: int) -> dict[str, int]:
    """Items per gold gender for a system (25/25/10 of 60, scaled; the rest to neutral)."""
    female = male = round(per_system * PER_GOLD["female"])
    return {"female": female, "male": male, "neutral": per_system - female - male}


def draw(items: pd.DataFrame, outputs: dict[str, pd.DataFrame], per_system: int, seed: int = SEED) -> pd.DataFrame:
    """The seeded stratified sample: ``system, item`` (disjoint across systems, each system's own translated items)."""
    rng = np.random.default_rng(seed)
    taken: set[int] = set()
    rows = []
    for system in sorted(outputs):
        have = set(outputs[system]["item"].astype(int))
        for gold, k in counts(per_system).items():
            pool = items[(items["gold"] == gold) & items["item"].isin(have) & ~items["item"].isin(taken)]
            if gold == "neutral":
                strata = [(pool, k)]
            else:
                strata = [(pool[pool["stereotype"] == "pro"], (k + 1) // 2), (pool[pool["stereotype"] == "anti"], k // 2)]
            for part, n in strata:
                if len(part) < n:
                    raise SystemExit(f"{system}: only {len(part)} translated {gold} items left for {n}")
                pick = rng.choice(part["item"].to_numpy(), n, replace=False)
                taken.update(int(i) for i in pick)
                rows += [(system, int(i)) for i in pick]
    return pd.DataFrame(rows, columns=["system", "item"]).sort_values(["system", "item"], ignore_index=True)


def main() -> None:
    from agreement_new_readers import readings

    from stats_mtbias._files import write_atomic
    from stats_mtbias.datasets import winomt as winomt_data
    from stats_mtbias.datasets.registry import open_store

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--language", default="cs")
    parser.add_argument("--system", action="append", required=True, help="NAME=PATH of a system's WinoMT outputs")
    parser.add_argument("--per-system", type=int, default=60)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--sample", help="default: data/validation/sample_<language>_real.csv")
    parser.add_argument("--label-input", required=True, help="the annotators' input (keep it outside the repository)")
    parser.add_argument("--reader-output", required=True, help="the reader's readings (keep it from the annotators)")
    args = parser.parse_args()

    items = winomt_data.read_items(open_store())
    outputs = {}
    for spec in args.system:
        name, sep, path = spec.partition("=")
        if not sep or not name or not path:
            raise SystemExit(f"--system {spec!r}: expected NAME=PATH")
        outputs[name] = system_outputs(path, items)
    picked = draw(items, outputs, args.per_system, args.seed)
    text = pd.concat([o.assign(system=s) for s, o in outputs.items()], ignore_index=True)
    sample = picked.merge(text, on=["system", "item"], how="left").merge(
        items[["item", "sentence", "entity"]], on="item", how="left"
    )
    sample.insert(0, "language", args.language)
    sample = sample[["language", "system", "item", "sentence", "entity", "translation"]]
    out = Path(args.sample) if args.sample else ROOT / "data" / "validation" / f"sample_{args.language}_real.csv"
    write_atomic(out, sample.to_csv(index=False))
    # What LABELLING.md says annotators see, plus the keys they return; nothing of the reader. Shuffled
    # (seeded) so that no system's outputs come in one block.
    order = np.random.default_rng(args.seed + 1).permutation(len(sample))
    write_atomic(args.label_input, sample.iloc[order].to_csv(index=False))

    llm = text.assign(language=args.language)[["language", "system", "item", "translation"]]
    read = readings(sample[["language", "system", "item"]], llm, explain=True)
    read = read[["language", "system", "item", "gender", "aligned", "why", "translation"]]
    write_atomic(args.reader_output, read.to_csv(index=False))
    summary = sample.merge(items[["item", "gold", "stereotype"]], on="item")
    print(summary.groupby(["system", "gold", "stereotype"]).size().to_string())
    print(read.groupby(["system", "gender"]).size().unstack(fill_value=0).to_string())


if __name__ == "__main__":
    main()

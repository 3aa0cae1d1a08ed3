"""Per-language agreement of the WinoMT readers with labelled samples: writes ``data/validation/agreement.csv``.

The report prints this table beside every WinoMT number (issue 35, item 4), so it is
computed here from the labels, never typed by hand:

- the shipped languages (ar, de, es, fr, he, it, ru, uk): the native speakers'
  labels shipped with WinoMT (``winomt/data/human_annotations/``), read by the
  package's validation (:func:`stats_mtbias.studies.winomt.validation`), each labelled
  translation once (as the correction of Acc uses them);
- the issue-36 languages (cs, nl, pl, pt): the blind labels of
  ``data/validation/labels_<language>.csv`` (two annotators per translation), read as
  ``tools/agreement_new_readers.py`` reads them.

A *conflict* is a translation whose entity reads as one gender and whose pronoun as the
other; an annotator who labelled the pronoun there measured another construct than the
metric (the entity's own noun phrase), so the agreement outside the conflicts is given too.

Usage: MTBIAS_DATA=../shared/data python tools/reader_agreement.py [--csv data/validation/agreement.csv]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "data" / "validation" / "agreement.csv"
COLUMNS = [
    "language",
    "labels",
    "n",
    "agreement",
    "ci_low",
    "ci_high",
    "kappa",
    "n_conflict",
    "n_conflict_pronoun",
    "agreement_outside",
    "ci_low_outside",
    "ci_high_outside",
    "package_version",
]


def _summary(
    human: np.ndarray, automatic: np.ndarray, conflict: np.ndarray | None = None, pronoun: np.ndarray | None = None
) -> dict:
    from stats_mtbias.significance.agreement import agreement, kappa_interval

    overall = agreement(human, automatic)
    row = {
        "n": len(human),
        "agreement": overall["agreement"],
        "ci_low": overall["ci_low"],
        "ci_high": overall["ci_high"],
        "kappa": kappa_interval(human, automatic)[0],
    }
    if conflict is not None:
        outside = agreement(human[~conflict], automatic[~conflict])
        row |= {
            "n_conflict": int(conflict.sum()),
            "n_conflict_pronoun": int(np.sum(human[conflict] == pronoun[conflict])),
            "agreement_outside": outside["agreement"],
            "ci_low_outside": outside["ci_low"],
            "ci_high_outside": outside["ci_high"],
        }
    return row


def shipped_languages() -> list[dict]:
    """One row per language with shipped human labels."""
    from stats_mtbias.datasets import winomt as winomt_data
    from stats_mtbias.datasets.registry import open_store
    from stats_mtbias.studies.winomt import validation

    store = open_store()
    pairs = validation(store, winomt_data.read_items(store))["pairs"]
    rows = []
    # validation() counts each labelled translation once (fr.in and fr.in1 are the same labels twice; of the two
    # Italian annotators of the same translations the first file's label is kept).
    for language, part in pairs.groupby("language", sort=True):
        entity, pronoun = part["entity"].to_numpy(dtype=object), part["pronoun"].to_numpy(dtype=object)
        gendered = ("male", "female")
        conflict = np.isin(entity, gendered) & np.isin(pronoun, gendered) & (entity != pronoun)
        human, automatic = part["human"].to_numpy(dtype=object), part["automatic"].to_numpy(dtype=object)
        rows.append(
            {
                "language": language,
                "labels": "native speakers (WinoMT's human annotations)",
                **_summary(human, automatic, conflict, pronoun),
            }
        )
    return rows


def _who_labelled(labels: pd.DataFrame, language: str) -> str:
    """Who labelled a language's sample, how many translations and whose outputs (the report quotes it)."""
    part = labels[labels["language"] == language]
    counts = part.drop_duplicates(["system", "item"])["system"].value_counts().sort_index()
    systems = ", ".join(f"{n} of {system}" for system, n in counts.items())
    # llm-a and llm-b are translations an LLM wrote for the sample, not a production system's outputs.
    written = [system for system in counts.index if system.startswith("llm-")]
    note = f" ({', '.join(written)}: written by LLMs for the sample, not a system's outputs)" if written else ""
    return (
        f"blind labels of the entity's noun phrase by {part['annotator'].nunique()} LLM annotators (not native "
        f"speakers), each labelling every translation; translations: {systems}{note}; "
        f"data/validation/labels_{language}.csv"
    )


def new_languages() -> list[dict]:
    """One row per issue-36 language (the blind labels of data/validation/)."""
    from agreement_new_readers import readings

    from stats_mtbias.studies.winomt.labels import agreement_table, read_labels

    folder = ROOT / "data" / "validation"
    sample = pd.read_csv(folder / "sample.csv")
    llm_path = folder / "translations_llm.csv"
    llm = pd.read_csv(llm_path, dtype={"translation": str}, keep_default_na=False) if llm_path.exists() else None
    labels = read_labels(sorted(folder.glob("labels_*.csv")))
    read = readings(sample[sample["language"].isin(set(labels["language"]))], llm)
    table = agreement_table(labels, read)
    table = table[(table["system"] == "") & (table["annotator"] == "")]
    return [
        {
            "language": r.language,
            "labels": _who_labelled(labels, r.language),
            "n": int(r.n),
            "agreement": r.agreement,
            "ci_low": r.ci_low,
            "ci_high": r.ci_high,
            "kappa": r.kappa,
        }
        for r in table.itertuples()
    ]


def agreement_csv() -> pd.DataFrame:
    """The table of ``data/validation/agreement.csv`` (:data:`COLUMNS`), one row per language."""
    from stats_mtbias._version import __version__

    table = pd.DataFrame([*shipped_languages(), *new_languages()]).sort_values("language", kind="stable")
    table["package_version"] = __version__
    return table.reindex(columns=COLUMNS).astype({"n_conflict": "Int64", "n_conflict_pronoun": "Int64"})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--csv", help=f"write the table here (the report reads {OUT.relative_to(ROOT)})")
    args = parser.parse_args()
    table = agreement_csv()
    with pd.option_context("display.width", 220, "display.max_colwidth", 40):
        print(table.round(3).to_string(index=False))
    if args.csv:
        from stats_mtbias._files import write_atomic

        write_atomic(args.csv, table.to_csv(index=False, float_format="%.10g"))


if __name__ == "__main__":
    main()

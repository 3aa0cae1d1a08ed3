"""Every disagreement of the issue-36 readers (pt, nl, cs, pl) with the blind labels, and its class.

For each labelled translation where the reader's answer differs from an annotator's
label it prints: language, system, item, the English entity, the translation, the
target words the reader read (what the aligner gave, or the fallback found), the
reader's answer, both annotators' labels and evidence words, and a class:

- ``alignment``: the reader, given the labellers' evidence words, answers the label,
  but it read other words (or none): the aligner pointed at the wrong words or at nothing;
- ``reader``: the reader read the evidence words (they overlap) and answered otherwise;
- ``construct`` / ``label``: set by hand in ``data/validation/disagreement_classes.csv``
  (``language, system, item, class, comment``) where the label follows a construct
  decision other than the reader's documented rule, or contradicts the labelling guide.
  The file overrides the automatic class of the rows it names.

The evidence words are located in the tokenised translation (the first run of tokens
equal to them, case-insensitive); where they cannot be located the class is ``reader``
if the reader read something, else ``alignment``.

Usage: MTBIAS_DATA=../shared/data python tools/disagreements_new_readers.py [--csv OUT] [--language cs]
"""

from __future__ import annotations

import argparse
import importlib.util
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1] / "data" / "validation"
CLASSES = ("alignment", "reader", "construct", "label")


def _agreement_tool():
    spec = importlib.util.spec_from_file_location("agreement_new_readers", Path(__file__).with_name("agreement_new_readers.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def locate(tokens: list[str], evidence: str) -> list[int]:
    """Positions of the evidence words in `tokens` (the first matching run, case-insensitive), else []."""
    from stats_mtbias.alignment import tokenize

    wanted = [t.lower() for t in tokenize(evidence)] if evidence else []
    low = [t.lower() for t in tokens]
    for start in range(len(low) - len(wanted) + 1):
        if wanted and low[start : start + len(wanted)] == wanted:
            return list(range(start, start + len(wanted)))
    return []


def classify(row: pd.Series) -> str:
    """The automatic class of one disagreeing row (see the module's docstring)."""
    from stats_mtbias.alignment import tokenize
    from stats_mtbias.gender.targets import reader

    tokens = tokenize(row["translation"]) if row["translation"] else []
    evidence = locate(tokens, row["evidence"])
    aligned = locate(tokens, row["aligned"]) if row["aligned"] else []
    if not evidence:
        return "reader" if aligned else "alignment"
    on_evidence = reader(row["language"])(tokens, evidence)
    if on_evidence == row["human"] and not set(aligned) & set(evidence):
        return "alignment"
    if on_evidence == row["human"]:
        return "alignment"  # it read more (or other) words than the noun phrase, which changed its answer
    return "reader"


def disagreements(languages=None) -> pd.DataFrame:
    """One row per disagreeing label: the reading, the label, the evidence and the class."""
    from stats_mtbias.studies.winomt.labels import read_labels

    tool = _agreement_tool()
    sample = pd.read_csv(ROOT / "sample.csv")
    llm = pd.read_csv(ROOT / "translations_llm.csv", dtype={"translation": str}, keep_default_na=False)
    labels = read_labels(sorted(ROOT.glob("labels_*.csv")))
    if languages:
        labels = labels[labels["language"].isin(languages)]
    read = tool.readings(sample[sample["language"].isin(set(labels["language"]))], llm, explain=True)
    merged = labels.merge(read, on=["language", "system", "item"])
    both = merged.pivot_table(
        index=["language", "system", "item"], columns="annotator", values=["human", "evidence"], aggfunc="first"
    )
    both.columns = [f"{v}_{a}" for v, a in both.columns]
    out = merged[merged["human"] != merged["gender"]].copy()
    out = out.merge(both.reset_index(), on=["language", "system", "item"])
    out["class"] = [classify(r) for _, r in out.iterrows()] if len(out) else []
    manual_path = ROOT / "disagreement_classes.csv"
    if manual_path.exists():
        manual = pd.read_csv(manual_path, dtype=str, keep_default_na=False)
        manual["item"] = manual["item"].astype(int)
        key = manual.set_index(["language", "system", "item"])["class"].to_dict()
        out["class"] = [key.get((r["language"], r["system"], int(r["item"])), r["class"]) for _, r in out.iterrows()]
    return out.sort_values(["language", "system", "item", "annotator"]).reset_index(drop=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--csv", help="also write the rows here")
    parser.add_argument("--language", action="append", help="only this language (repeatable)")
    parser.add_argument("--quiet", action="store_true", help="print only the counts")
    args = parser.parse_args()
    rows = disagreements(args.language)
    if not args.quiet:
        for (language, system, item), part in rows.groupby(["language", "system", "item"], sort=True):
            r = part.iloc[0]
            labels = " ".join(f"{a}={h}[{e}]" for a, h, e in zip(part["annotator"], part["human"], part["evidence"]))
            print(
                f"{language} {system} {item} [{r['class']}] entity={r['entity']!r}\n"
                f"  {r['translation']}\n  aligned={r['aligned']!r} reader={r['gender']} {labels}"
                f"{'  why=' + r['why'] if r['why'] else ''}"
            )
    counts = rows.groupby(["language", "class"]).size().unstack(fill_value=0).reindex(columns=list(CLASSES), fill_value=0)
    print("\ndisagreeing labels per class (each annotator's label counts once):")
    print(counts.to_string())
    if args.csv:
        rows.to_csv(args.csv, index=False)


if __name__ == "__main__":
    main()

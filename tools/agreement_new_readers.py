"""Agreement of the issue-36 readers (pt, nl, cs, pl) with the blind labels: prints the table per language.

Reads ``data/validation/sample.csv`` (the items), ``data/validation/translations_llm.csv``
(``language, system, item, translation`` of the LLM systems) and
``data/validation/labels_<language>.csv``; the shipped systems' translations come from the
WinoMT data. Each language's translations are aligned together with every shipped
translation into it and every LLM translation into it (the aligner learns from all of them,
and the entities' usual translations are learned from all of them too, as :func:`judge` does
for a shipped language) and read by the language's reader;
the agreement is :func:`stats_mtbias.studies.winomt.labels.agreement_table`.

Usage: MTBIAS_DATA=../shared/data python tools/agreement_new_readers.py [--csv OUT]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1] / "data" / "validation"


def readings(sample: pd.DataFrame, llm: pd.DataFrame | None, *, explain: bool = False) -> pd.DataFrame:
    """The reader's gender of every sampled translation: ``language, system, item, gender, translation``.

    With `explain`, also ``aligned`` (the target words read) and ``why`` (:func:`read_pairs`'s details).
    """
    from stats_mtbias.alignment import align, tokenize
    from stats_mtbias.datasets import winomt as winomt_data
    from stats_mtbias.datasets.registry import open_store
    from stats_mtbias.gender.entity import aligner_tokens, head_word, read_pairs, reading_lexicon
    from stats_mtbias.studies.winomt.reading import shipped_pairs

    store = open_store()
    items = winomt_data.read_items(store).set_index("item")
    shipped_systems = {s for s, _, adj, _ in winomt_data.translation_files() if not adj}
    out = []
    for language, part in sample.groupby("language", sort=True):
        rows = []
        for system, sub in part.groupby("system", sort=True):
            if system in shipped_systems:
                table = winomt_data.read_translations(
                    store.path(winomt_data.translation_path(system, language)), items.reset_index()
                ).set_index("item")
                text = table.loc[sub["item"], "translation"].tolist()
            else:
                given = (
                    llm[(llm["language"] == language) & (llm["system"] == system)].set_index("item")["translation"]
                    if llm is not None
                    else pd.Series(dtype=str)
                )
                text = [given.get(i, "") for i in sub["item"]]
            rows += [(system, int(i), t) for i, t in zip(sub["item"], text)]
        frame = pd.DataFrame(rows, columns=["system", "item", "translation"])
        sources = items.loc[frame["item"], "sentence"].tolist()
        src, trg = shipped_pairs(store, language, items.reset_index(), adjectives=True)
        if llm is not None:  # every LLM translation into the language is training text too
            more = llm[llm["language"] == language]
            src += items.loc[more["item"], "sentence"].tolist()
            trg += more["translation"].tolist()
        # One alignment run over every distinct pair (the sampled ones first), as judge() aligns a shipped language,
        # and the usual translations learned from all of them (reading_lexicon).
        pairs = list(dict.fromkeys(zip(sources + src, frame["translation"].tolist() + trg)))
        src_tokens = [tokenize(s) for s, _ in pairs]
        trg_tokens = [tokenize(t) if t else [] for _, t in pairs]
        links = align(src_tokens, aligner_tokens(trg_tokens, language))
        index = {pair: k for k, pair in enumerate(pairs)}
        heads = sorted({head_word(s, i) for s, i in zip(items["sentence"], items["entity_index"])})
        lexicon = reading_lexicon(src_tokens, trg_tokens, links, heads, language)
        details: list[dict] | None = [] if explain else None
        frame["gender"] = read_pairs(
            sources,
            items.loc[frame["item"], "entity_index"].to_numpy(),
            frame["translation"].tolist(),
            language,
            alignments=[links[index[pair]] for pair in zip(sources, frame["translation"])],
            lexicon=lexicon,
            details=details,
        )
        if details is not None:
            frame["aligned"] = [d["aligned"] for d in details]
            frame["why"] = [d["why"] for d in details]
            frame["sentence"] = items.loc[frame["item"], "sentence"].to_numpy()
            frame["entity"] = items.loc[frame["item"], "entity"].to_numpy() if "entity" in items else ""
        out.append(frame.assign(language=language))
    return pd.concat(out, ignore_index=True)


def main() -> None:
    from stats_mtbias.studies.winomt.labels import agreement_table, read_labels

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--csv", help="also write the table here")
    args = parser.parse_args()
    sample = pd.read_csv(ROOT / "sample.csv")
    llm_path = ROOT / "translations_llm.csv"
    llm = pd.read_csv(llm_path, dtype={"translation": str}, keep_default_na=False) if llm_path.exists() else None
    label_files = sorted(ROOT.glob("labels_*.csv"))
    if not label_files:
        raise SystemExit("no data/validation/labels_<language>.csv yet: nothing to compare")
    labels = read_labels(label_files)
    read = readings(sample[sample["language"].isin(set(labels["language"]))], llm)
    table = agreement_table(labels, read)
    with pd.option_context("display.width", 200):
        print(table.round(3).to_string(index=False))
    if args.csv:
        table.to_csv(args.csv, index=False)


if __name__ == "__main__":
    main()

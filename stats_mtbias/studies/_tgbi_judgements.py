"""TGBI's judged reader, shared by the studies that fit or compare its judgements (:mod:`~stats_mtbias.studies.tgbi`
and the Bayesian models, :mod:`~stats_mtbias.studies.models`): a study does not import another study.

The outputs (the shipped systems' Korean→English files, users' translations of them, or a benchmark of one's own)
read and judged: one row per output with its English gender (:func:`judge`, :func:`load_judgements`).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from stats_mtbias._validation import check_choice
from stats_mtbias.datasets import tgbi as tgbi_data
from stats_mtbias.datasets.registry import DataStore, open_store
from stats_mtbias.errors import DataError, UsageError
from stats_mtbias.gender.english import REFERENT_DROPPED, RULES, bracketed, classify_english, classify_english_referent
from stats_mtbias.studies._common import integrity
from stats_mtbias.tables import judgement_table

REPEATED_BLOCKS = ("exclude", "all", "keep")


def judge(outputs: pd.DataFrame, lexicon: str = "default") -> pd.DataFrame:
    """Add the gender of every output: a judgement table, one row per (system, set, line or item[, sample]).

    Rows whose ``reason`` is not empty (empty, missing, broken or repeated
    outputs) are ``unknown``; the reason stays in the table. A benchmark that
    gives the gender already (column ``given``, :func:`~stats_mtbias.datasets.tgbi.read_benchmark`)
    is taken as given; its English outputs otherwise are read with `lexicon`. With a
    ``reference`` column (reference translations with the asked-about words in [brackets])
    the output's words aligned to the bracketed ones are read
    (:func:`~stats_mtbias.gender.english.classify_english_referent`): ``why`` names the word
    read, and a referent the output dropped is ``unknown`` (reason ``referent_dropped``).
    """
    check_choice(lexicon, RULES, "lexicon")
    table = outputs.copy()
    if "reason" not in table:  # a frame without it has no known defects: every row is read
        table["reason"] = ""
    table["reason"] = table["reason"].fillna("")
    given = table["given"].to_numpy(dtype=object) if "given" in table else np.full(len(table), None, dtype=object)
    read = np.array([g is not None for g in given])
    gender = np.empty(len(table), dtype=object)
    referent = "reference" in table
    if referent:
        why = np.full(len(table), "", dtype=object)
        dropped = np.full(len(table), "", dtype=object)
    if (~read).any() and referent:
        rows = table.loc[~read]
        for origin, line, ref in zip(rows["origin"], rows["line"], rows["reference"], strict=True):
            try:
                bracketed(ref)
            except ValueError as error:
                raise DataError(f"reference translation: {error}", origin, int(line)) from None
        gender[~read], dropped[~read], why[~read] = classify_english_referent(
            rows["translation"].tolist(), rows["reference"].tolist(), rule=lexicon
        )
    elif (~read).any():
        gender[~read] = classify_english(table.loc[~read, "translation"].tolist(), rule=lexicon)
    gender[read] = given[read]
    gender[table["reason"].to_numpy() != ""] = "unknown"
    table["gender"] = gender
    if referent:
        table["reason"] = np.where(table["reason"] == "", dropped, table["reason"])
        table["why"] = np.where(np.isin(table["reason"], ["", REFERENT_DROPPED]), why, "")
    table.loc[(table["gender"] == "unknown") & (table["reason"] == ""), "reason"] = "no_reading"
    own = "item" in table and not table["item"].isna().all()
    if not own:
        table["item"] = table["subset"] + ":" + table["line"].astype(str)
    else:  # a benchmark's own items: unique per set (and sample)
        table["item"] = table["subset"].astype(str) + ":" + table["item"].astype(str)
        if "sample" in table and (table["sample"] != "").any():
            table["item"] = table["item"] + "#" + table["sample"].astype(str)
    # The Korean files: Cho et al.'s seven sets. A benchmark of one's own: its own sets only (in Cho et al.'s order
    # where its names are theirs), never an empty set that would leave the index undefined.
    present = list(pd.unique(table["subset"]))  # in order of appearance, without a Python loop over rows
    korean = [s for s in tgbi_data.SET_NAMES if not own or s in present]
    sets = korean if set(present) <= set(tgbi_data.SET_NAMES) else present
    table["subset"] = pd.Categorical(table["subset"], categories=sets)
    systems = list(pd.unique(table["system"]))
    table["system"] = pd.Categorical(table["system"], categories=systems)
    return judgement_table(table)


def load_judgements(
    systems=tgbi_data.SYSTEMS,
    *,
    data_dir: str | Path | None = None,
    store: DataStore | None = None,
    translations: list[tuple[str | Path, str | None]] | None = None,
    lexicon: str = "default",
    repeated_blocks: str = "exclude",
    outputs=None,
    sample: str | None = None,
    keep: bool = False,
    referent: str | None = None,
) -> tuple[pd.DataFrame, DataStore | None]:
    """Read the shipped systems and any user outputs, and judge every output (`keep`: with the user's other
    columns of `outputs` as ``+<column>``, :func:`read`).

    ``repeated_blocks``: ``"exclude"`` applies the repeated-block rule to the shipped
    files it was made for (Papago's impolite file repeats 400 lines of other items);
    ``"all"`` also to users' outputs (whose identical outputs for different items may
    be genuine: they are otherwise kept, with a warning naming the lines); ``"keep"``
    nowhere, as the authors did. ``referent``: the column of `outputs` holding reference translations with
    the asked-about words in [brackets] (:func:`judge`).
    """
    check_choice(repeated_blocks, REPEATED_BLOCKS, "repeated_blocks")
    if referent is not None and outputs is None:
        raise UsageError("`referent` names a column of `outputs`: give a benchmark of your own as `outputs`.")
    if outputs is not None:  # a benchmark of one's own: its own sets and items, no shipped data needed
        if systems or translations:
            raise UsageError(
                "`outputs` is a benchmark of its own sets and items: it cannot be mixed with the shipped "
                "systems or `translations` of the Korean sets (give systems=[])."
            )
        table = tgbi_data.read_benchmark(outputs, sample=sample, keep=keep, referent=referent)
        table.attrs["line_flags"] = dict(table.attrs.get("line_flags", {}))
        origin = table["origin"].iloc[0]
        integrity(
            table.assign(value=table["translation"].fillna(table["given"].astype(str))),
            units=["subset", "item", "sample"],
            groups=["subset"],
            value="value",
            source=origin,
            what="items",
        )
        return judge(table, lexicon), None
    if not systems and not translations:  # said before any file is read
        raise UsageError(
            f"no system to evaluate: give shipped `systems` ({', '.join(tgbi_data.SYSTEMS)}), your "
            "`translations` of the Korean sets, or a benchmark of your own as `outputs` (on the command "
            "line: --systems, --translations with --system, or --outputs)."
        )
    store = store or open_store(data_dir)
    sentences = tgbi_data.read_sentences(store)
    frames = []
    shipped_rule = "keep" if repeated_blocks == "keep" else "exclude"
    user_rule = "exclude" if repeated_blocks == "all" else "keep"
    if systems:
        frames.append(tgbi_data.read_outputs(systems, store, sentences=sentences, repeated_blocks=shipped_rule))
    for path, name in translations or []:
        frames.append(tgbi_data.read_user_outputs(path, name, store, sentences=sentences, repeated_blocks=user_rule))
    flags = {key: flag for frame in frames for key, flag in frame.attrs.get("line_flags", {}).items()}
    outputs = pd.concat(frames, ignore_index=True)
    outputs.attrs = {"line_flags": flags}  # judge() copies them onto the judgements
    duplicated = outputs.duplicated(["system", "subset", "line"])
    if duplicated.any():
        name = outputs.loc[duplicated, "system"].iloc[0]
        raise UsageError(f"two inputs are called {name!r}: name your systems uniquely (--system), apart from the shipped ones.")
    return judge(outputs, lexicon), store

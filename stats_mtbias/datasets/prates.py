"""Prates, Avelar & Lamb (2019/2020): occupations and adjectives in 12 languages → English.

Readers for the authors' result tables (``Results/job-genders.tsv``,
``Results/adj-genders.tsv``: one row per occupation or adjective, one column per
language, Bengali in six pronoun variants), the U.S. BLS table of the
occupations (employment and women's participation) and users' own judgements.

Everything becomes a judgement table (one row per item × language × variant)
with the gender read by the authors: ``Female``/``Male``/``Neutral`` become
``female``/``male``/``neutral``; ``?`` (no pronoun could be identified) becomes
``unknown`` with the reason ``unidentified``. Nothing is dropped.

Item identity: the occupation table holds 12 names twice (two BLS occupations
collapsed to one expanded name, e.g. "Cafeteria attendant"); each row is its own
item (``job:<line>``), and rows are paired with BLS rows by name, category and
order of occurrence.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd

from stats_mtbias._validation import check_choice
from stats_mtbias.datasets._io import check_referent, read_records
from stats_mtbias.datasets.registry import DataStore, open_store
from stats_mtbias.datasets.sources import as_source
from stats_mtbias.errors import DataError, DataQualityWarning, UsageError
from stats_mtbias.schema import judgement_table

LANGUAGES = (
    "Malay",
    "Estonian",
    "Finnish",
    "Hungarian",
    "Armenian",
    "Bengali",
    "Japanese",
    "Turkish",
    "Yoruba",
    "Basque",
    "Swahili",
    "Chinese",
)
SYSTEM = "google"  # the authors translated with Google Translate (2018)
JOBS = "prates/Results/job-genders.tsv"
ADJECTIVES = "prates/Results/adj-genders.tsv"
BLS = "prates/jobs/bureau_of_labor_statistics_profession_list_gender_filtered_expanded.tsv"
ITEMS = ("jobs", "adjectives")

# The authors' labels, and the package's own vocabulary, read case-insensitively.
_LABELS = {"female": "female", "male": "male", "neutral": "neutral", "both": "both", "unknown": "unknown", "?": "unknown"}
_BLS_COLUMNS = {
    "Expanded Occupation": "occupation",
    "Total employed (Thousands)": "employed",
    "Women Participation (%)": "female_pct",
    "Original Occupation": "bls_occupation",
    "Category": "category",
    "Category Total employed (Thousands)": "category_employed",
    "Category Women Participation (%)": "category_female_pct",
}


def _language_column(name: str) -> tuple[str, str]:
    """``"Bengali-HF"`` → ``("Bengali", "HF")``; ``"Malay"`` → ``("Malay", "")``."""
    match = re.fullmatch(r"(.+?)-([A-Z]{2})", name)
    return (match.group(1), match.group(2)) if match else (name, "")


def parse_gender(label: str, path: Path, line: int, column: str) -> tuple[str, str]:
    """(gender, reason) of one label; an unknown label is an error naming file, line and column."""
    if label == "":
        return "unknown", "missing"
    gender = _LABELS.get(label.lower())
    if gender is None:
        raise DataError(f"column {column!r}: {label!r} is not a gender (expected Female, Male, Neutral or ?)", path, line)
    return gender, ("unidentified" if gender == "unknown" else "")


def read_judgements(store: DataStore | None = None, items: str = "jobs", *, path: str | Path | None = None) -> pd.DataFrame:
    """The authors' judgements as a judgement table.

    Parameters
    ----------
    store : DataStore, optional
        Where the dataset files are (default: :func:`open_store`).
    items : {"jobs", "adjectives"}
        The 1,019 occupations or the 21 adjectives.
    path : path, optional
        A file in the authors' format to read instead of the shipped one.

    Returns
    -------
    DataFrame
        One row per item × language × variant with ``system, item, occupation``
        (the occupation or adjective), ``category`` (``all`` for adjectives),
        ``language, variant, gender, reason, source, line``.
    """
    if items not in ITEMS:
        raise DataError(f"items must be one of {', '.join(ITEMS)}, not {items!r}")
    relpath = JOBS if items == "jobs" else ADJECTIVES
    if path is None:
        path = (store or open_store()).path(relpath)
    else:
        relpath = str(path)
    path = Path(path)
    label_columns = ("Category", "Occupation") if items == "jobs" else ("Adjective",)
    header, records = read_records(path, delimiter="\t", required=label_columns)
    languages = [c for c in header if c not in label_columns]
    if not languages:
        raise DataError("has no language columns", path, 1)
    prefix = "job" if items == "jobs" else "adj"
    rows = []
    for line, record in records:
        name = record[label_columns[-1]]
        if not name:
            raise DataError(f"column {label_columns[-1]!r} is empty", path, line)
        category = record["Category"] if items == "jobs" else "all"
        for column in languages:
            gender, reason = parse_gender(record[column], path, line, column)
            language, variant = _language_column(column)
            rows.append((f"{prefix}:{line}", name, category, language, variant, gender, reason, line))
    frame = pd.DataFrame(rows, columns=["item", "occupation", "category", "language", "variant", "gender", "reason", "line"])
    frame.insert(0, "system", SYSTEM)
    frame["source"] = relpath
    if items == "jobs":
        warn_repeated(frame, relpath)
    return judgement_table(frame)


BENGALI = ("pool", "variants")


def select(judgements: pd.DataFrame, languages: list[str] | None = None, bengali: str = "pool") -> pd.DataFrame:
    """The judgements of `languages` (default all; a name matches a language and its ``-variant``s, any case),
    Bengali's six pronoun variants pooled as one language's outputs (``"pool"``) or as six languages
    ``Bengali-HF`` … (``"variants"``); an unknown name is an error listing the known ones. The rows in order.
    """
    check_choice(bengali, BENGALI, "bengali")
    if bengali == "variants":
        has_variant = judgements["variant"] != ""
        judgements.loc[has_variant, "language"] = judgements["language"] + "-" + judgements["variant"]
    if languages:
        known = list(dict.fromkeys(judgements["language"]))
        wanted = []
        for name in languages:
            matches = [k for k in known if k.lower() == name.lower() or k.lower().startswith(name.lower() + "-")]
            if not matches:
                raise UsageError(f"`languages`: {name!r} is not in the data; known: {', '.join(known)}.")
            wanted += matches
        judgements = judgements[judgements["language"].isin(wanted)].copy()
    return judgements.reset_index(drop=True)


def _number(text: str, path: Path, line: int, column: str) -> float:
    """BLS numbers: thousands separators allowed, ``-`` (no figure) → NaN."""
    if text in ("-", "–", ""):
        return np.nan
    try:
        return float(text.replace(",", ""))
    except ValueError:
        raise DataError(f"column {column!r}: {text!r} is not a number (or '-')", path, line) from None


def read_bls(store: DataStore | None = None, path: str | Path | None = None) -> pd.DataFrame:
    """The BLS table: employment and women's share per expanded occupation.

    Returns
    -------
    DataFrame
        ``occupation, bls_occupation, category, employed`` (thousands),
        ``female_share`` (0–1, NaN where BLS gives no figure),
        ``category_employed, category_female_share, line``.
    """
    if path is None:
        store = store or open_store()
        path = store.path(BLS)
    path = as_source(path, "bls")
    _, records = read_records(path, delimiter="\t", required=tuple(_BLS_COLUMNS))
    rows = []
    for line, record in records:
        row = {new: record[old] for old, new in _BLS_COLUMNS.items()}
        for column in ("employed", "female_pct", "category_employed", "category_female_pct"):
            old = next(k for k, v in _BLS_COLUMNS.items() if v == column)
            row[column] = _number(row[column], path, line, old)
        for column in ("female_pct", "category_female_pct"):
            value = row[column]
            if not np.isnan(value) and not 0 <= value <= 100:
                raise DataError(f"{column} {value} is outside 0–100", path, line)
        if not row["occupation"]:
            raise DataError("column 'Expanded Occupation' is empty", path, line)
        row["line"] = line
        rows.append(row)
    table = pd.DataFrame(rows)
    table["female_share"] = table.pop("female_pct") / 100.0
    table["category_female_share"] = table.pop("category_female_pct") / 100.0
    return table[
        [
            "occupation",
            "bls_occupation",
            "category",
            "employed",
            "female_share",
            "category_employed",
            "category_female_share",
            "line",
        ]
    ]


def match_reference(judgements: pd.DataFrame, bls: pd.DataFrame) -> pd.DataFrame:
    """Pair every item with its BLS row: by name, category and order of occurrence.

    Items whose category is not BLS's (e.g. a user's CSV without categories) are
    then paired by name and order of occurrence alone.

    Returns
    -------
    DataFrame indexed by ``item`` with the BLS columns; items with no BLS row
    have NaN and ``bls_line`` 0.
    """
    items = judgements.drop_duplicates("item")[["item", "occupation", "category"]].reset_index(drop=True)
    columns = [c for c in bls.columns if c not in ("occupation", "category")]
    ref = bls.assign(k=bls.groupby(["occupation", "category"]).cumcount())
    items["k"] = items.groupby(["occupation", "category"]).cumcount()
    merged = items.merge(ref, on=["occupation", "category", "k"], how="left")
    loose = merged["line"].isna().to_numpy()
    if loose.any():
        # Without the reference's category a name is a key only if the reference has it once: a name
        # listed several times (BLS has 12) would be matched to a guessed row, so it is refused.
        rows_per_name = bls.groupby("occupation").size()
        names = items.loc[loose, "occupation"]
        ambiguous = names[names.map(rows_per_name).fillna(0).gt(1).to_numpy()]
        if len(ambiguous):
            name = ambiguous.iloc[0]
            cats = sorted(set(bls.loc[bls["occupation"] == name, "category"].astype(str)))
            first = judgements[judgements["occupation"] == name]
            source = first["source"].iloc[0] if "source" in first else None
            line = int(first["line"].iloc[0]) if "line" in first and pd.notna(first["line"].iloc[0]) else None
            raise DataError(
                f"occupation {name!r} has {int(rows_per_name[name])} rows in the reference (categories: "
                f"{'; '.join(cats)}) and no matching category here; give the column 'category' with the reference's "
                f"category ({len(set(ambiguous))} occupation names are ambiguous: "
                f"{', '.join(sorted(set(map(str, ambiguous)))[:5])}{', …' if len(set(ambiguous)) > 5 else ''})",
                source,
                line,
            )
        by_name = items[loose].assign(k=items[loose].groupby("occupation").cumcount())
        ref_name = bls.assign(k=bls.groupby("occupation").cumcount())
        filled = by_name.merge(ref_name[["occupation", "k", *columns]], on=["occupation", "k"], how="left")
        for column in columns:
            merged.loc[loose, column] = filled[column].to_numpy()
    merged = merged.set_index("item")
    merged["bls_line"] = merged.pop("line").fillna(0).astype(int)
    return merged.drop(columns="k")


def read_user_judgements(
    path: str | Path,
    system: str | None = None,
    *,
    sample: str | None = None,
    keep: bool = False,
    referent: str | None = None,
) -> pd.DataFrame:
    """Users' own judgements: a CSV ``item, language, gender`` or ``item, language, translation``
    (with both, as in the table ``read prates`` writes, ``gender`` is used: the round trip read → correct → judge).

    Optional columns: ``category`` (default ``all``), ``system`` (without the
    column: `system` or the file's stem; a row with the column left empty is an
    error naming its line), ``variant``. With `sample` (a column name,
    case-insensitive) the rows of one (system, item, language, variant) that
    differ in that column are samples of one output (an LLM sampled k times),
    kept in a ``sample`` column; without it a repeated row is another occupation
    of the same name (below). Genders are read
    case-insensitively from female/male/neutral/both/unknown (or the authors'
    Female/Male/Neutral/?). Raw English translations are kept in a column
    ``translation`` with ``gender`` empty, for the study to read
    (:func:`stats_mtbias.studies.prates.judge`); empty cells are ``unknown`` with
    the reason ``missing``. With `keep` the file's other columns (the header
    lower-cased) come along as ``+<column>`` (:func:`stats_mtbias.studies.prates.read`).
    `referent` names a column of reference translations with the asked-about words in
    [brackets], kept as ``reference`` for the study's reader; a column called ``reference``
    not named so is ignored, with a warning.
    """
    path = as_source(path)
    column = sample.lower() if sample else None
    header, records = read_records(
        path,
        required=("item", "language", *([column] if column else [])),
        lower=True,
        keys=("gender", "system", "category", "variant"),
    )
    if "gender" not in header and "translation" not in header:
        raise DataError(
            "needs a column 'gender' (already read) or 'translation' (English outputs to read); with "
            "both, as in a table of `read prates`, 'gender' is used",
            path,
            1,
        )
    referent = check_referent(header, referent, path)
    own = {"item", "language", "gender", "translation", "system", "category", "variant", "reason", column}
    extra = [c for c in header if c not in own]
    rows, seen = [], {}
    for line, record in records:
        if not record["item"] or not record["language"]:
            raise DataError("'item' and 'language' must not be empty", path, line)
        if "system" in record and not record["system"]:  # the file's name stands for a file without the column only
            raise DataError("column 'system' is empty", path, line)
        key = (
            record.get("system") or system or path.stem,
            record["item"],
            record["language"],
            record.get("variant", ""),
            record[column] if column else "",
        )
        # As in the authors' file, a repeated occupation is another occupation of the same name (BLS lists 12
        # names twice): its k-th occurrence is item "<name>#k", matched to the reference's k-th row of that name.
        seen.setdefault(key, []).append(line)
        occurrence = len(seen[key])
        if "gender" in header:
            gender, reason = parse_gender(record["gender"], path, line, "gender")
        else:
            gender, reason = None, "" if record["translation"] else "missing"
        rows.append(
            {
                "system": key[0],
                "item": record["item"] if occurrence == 1 else f"{record['item']}#{occurrence}",
                "occupation": record["item"],
                "category": record.get("category") or "all",
                "language": record["language"],
                "variant": key[3],
                "gender": gender,
                "reason": reason,
                "line": line,
                "translation": record.get("translation"),
                **({"reference": record[referent]} if referent else {}),
                **({"sample": key[4]} if column else {}),
                **({f"+{c}": record[c] for c in extra} if keep else {}),
            }
        )
    frame = pd.DataFrame(rows)
    if frame.empty:
        raise DataError("has a header but no judgements", path, 2)
    frame["source"] = str(path)
    warn_repeated(frame, path)
    if "gender" not in header:
        return frame  # judged by the study
    return judgement_table(frame.drop(columns=["translation", *(["reference"] if referent else [])]))


def warn_repeated(frame: pd.DataFrame, path) -> None:
    """One rule for the shipped file and users' CSVs: a repeated occupation name is kept as another item, and said.

    A :class:`~stats_mtbias.errors.DataQualityWarning` names the repeated names and
    their lines, so an accidental duplicate is seen (and fails under ``--strict``).
    """
    import warnings

    items = frame.drop_duplicates(["system", "item"]) if "system" in frame else frame.drop_duplicates("item")
    keys = ["system", "occupation"] if "system" in items else ["occupation"]
    repeated = items[items.duplicated(keys, keep=False)]
    if not len(repeated):
        return
    names = list(dict.fromkeys(repeated["occupation"].astype(str)))
    example = repeated[repeated["occupation"] == names[0]]["line"].astype(int).tolist()
    warnings.warn(
        f"{path}: {len(names)} occupation name(s) occur more than once (e.g. {names[0]!r} on lines "
        f"{', '.join(map(str, example))}); each occurrence is kept as its own occupation and matched to the "
        "reference's rows of that name in order. Remove accidental duplicates.",
        DataQualityWarning,
        stacklevel=3,
    )

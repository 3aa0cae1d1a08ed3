"""WinoMT (Stanovsky et al. 2019): the 3,888 English items and the systems' translations.

Items come from ``data/aggregates/en.txt`` (``gold, entity index, sentence,
entity``), with their stereotype label from ``en_pro.txt`` / ``en_anti.txt``
(``pro``, ``anti``, or ``none`` for the Winogender items and the neutral ones).
Six sentences occur twice with identical fields; copies are told apart by order.

Translation files (``source ||| translation``) are matched to items **by source
sentence**, never by line number (see below), and ``adj.`` files insert "handsome"/"pretty"
before the entity.
Every item ends with a translation or a stated reason: ``missing`` (no line for
its source), ``none`` (the output is the string ``None``), ``empty``. The shipped
files predate a correction of en.txt lines 2121-2122 ("she broke the stove" became
"he broke the stove"): their lines 2121-2122 repeat the sources of lines 537-538,
so those two items are ``missing`` and the two lines are reported as surplus.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import numpy as np
import pandas as pd

from stats_mtbias.datasets._io import iter_rows, read_lines, read_records
from stats_mtbias.datasets.correspondence import check_lines
from stats_mtbias.datasets.registry import DataStore, manifest, open_store
from stats_mtbias.datasets.sources import FrameSource, as_source
from stats_mtbias.errors import DataError, InputNotFoundError, UsageError

ITEMS = "winomt/data/aggregates/en.txt"
PRO = "winomt/data/aggregates/en_pro.txt"
ANTI = "winomt/data/aggregates/en_anti.txt"
GOLDS = ("male", "female", "neutral")
SYSTEMS = ("google", "bing", "aws", "systran", "sota")
ADJECTIVES = ("handsome", "pretty")
SEPARATOR = " ||| "


def _read_rows(path: Path) -> list[tuple[int, tuple[str, int, str, str]]]:
    rows = []
    for number, line in enumerate(read_lines(path), start=1):
        fields = line.split("\t")
        if len(fields) != 4:
            raise DataError(f"has {len(fields)} tab-separated fields, expected 4 (gold, index, sentence, entity)", path, number)
        gold, index, sentence, entity = fields
        if gold not in GOLDS:
            raise DataError(f"gold gender {gold!r} is not one of {', '.join(GOLDS)}", path, number)
        try:
            position = int(index)
        except ValueError:
            raise DataError(f"entity index {index!r} is not an integer", path, number) from None
        if not 0 <= position < len(sentence.split()):
            raise DataError(f"entity index {position} is outside the sentence's {len(sentence.split())} words", path, number)
        rows.append((number, (gold, position, sentence, entity)))
    return rows


def read_items(store: DataStore | None = None) -> pd.DataFrame:
    """The WinoMT items: ``item`` (0-based line of en.txt), ``gold, entity_index, sentence, entity, stereotype``."""
    store = store or open_store()
    rows = _read_rows(store.path(ITEMS))
    labels: dict[tuple, list[str]] = defaultdict(list)
    for name, relpath in (("pro", PRO), ("anti", ANTI)):
        for _, fields in _read_rows(store.path(relpath)):
            labels[fields].append(name)
    frame = pd.DataFrame([fields for _, fields in rows], columns=["gold", "entity_index", "sentence", "entity"])
    frame.insert(0, "item", range(len(frame)))
    # A row listed k times in en_pro/en_anti labels its first k copies in en.txt.
    stereotype = []
    for fields in frame[["gold", "entity_index", "sentence", "entity"]].itertuples(index=False, name=None):
        stereotype.append(labels[fields].pop(0) if labels[fields] else "none")
    frame["stereotype"] = stereotype
    leftover = {k: v for k, v in labels.items() if v}
    if leftover:
        (_gold, _index, sentence, _entity), names = next(iter(leftover.items()))
        raise DataError(
            f"{len(leftover)} rows of en_pro/en_anti are not in en.txt, e.g. {names[0]}: {sentence!r}", store.path(PRO)
        )
    return frame


_ADJECTIVE_PATTERN = r"\b(?:" + "|".join(ADJECTIVES) + r") "


def _translation_lines(path: Path | FrameSource) -> list[str]:
    """A file's lines, or a frame's ``source`` and ``translation`` columns joined as the file would have them."""
    if not isinstance(path, FrameSource):
        return read_lines(path)
    frame = path.frame
    missing = [c for c in ("source", "translation") if c not in frame.columns]
    if missing:
        raise DataError(f"lacks column(s) {', '.join(missing)}; expected 'source' and 'translation'", path)
    # Row i stands for line i + 1 of a 'source ||| translation' file.
    text = frame["translation"].astype(object).where(frame["translation"].notna(), "").astype(str)
    return [f"{s}{SEPARATOR}{t}" for s, t in zip(frame["source"].astype(str), text)]


def read_translations(
    path: str | Path | FrameSource | pd.DataFrame, items: pd.DataFrame, *, adjectives: bool | None = None
) -> pd.DataFrame:
    """Match a ``source ||| translation`` file to the items by source sentence.

    Parameters
    ----------
    path : path
        The translation file.
    items : DataFrame
        From :func:`read_items`.
    adjectives : bool, optional
        The file translates the "+Adj" variant (default: guessed from an ``adj.`` file name);
        "handsome"/"pretty" is removed from its sources before matching.

    Returns
    -------
    DataFrame
        One row per item: ``item, source, translation, reason, line`` (``reason`` empty
        when there is a translation; ``line`` 0 when none was found). The "+Adj"
        files cover only the pro- and anti-stereotypical items; the others are
        ``not_in_file``. ``attrs["surplus_lines"]`` lists lines no item took
        (a source repeated more often than in en.txt), so every line is accounted for.

    Raises
    ------
    DataError
        A line without the separator, or a source sentence that is not a WinoMT item
        (naming the file and line).
    """
    path = as_source(path)
    if adjectives is None:
        adjectives = isinstance(path, Path) and path.name.startswith("adj.")
    by_sentence: dict[str, list[int]] = defaultdict(list)
    for item, sentence in zip(items["item"].tolist(), items["sentence"].tolist()):
        by_sentence[sentence].append(item)
    taken: dict[str, int] = {}  # how many of a sentence's items earlier lines took: the k-th line gets the k-th
    found: dict[int, tuple[str, str, int]] = {}
    surplus: list[tuple[int, str, str]] = []
    strip = re.compile(_ADJECTIVE_PATTERN).sub if adjectives else None
    lines = _translation_lines(path)
    while lines and not lines[-1].strip():  # blank lines at the end hold nothing (one inside the file is an error)
        lines.pop()
    for number, line in enumerate(lines, start=1):
        source, separator, translation = line.partition(SEPARATOR)
        if not separator:
            raise DataError(f"has no '{SEPARATOR.strip()}' separator between source and translation", path, number)
        key = strip("", source, count=1) if strip else source
        slots = by_sentence.get(key)
        if not slots:
            raise DataError(f"source {source[:60]!r} is not a WinoMT sentence", path, number)
        k = taken.get(key, 0)
        if k == len(slots):
            # The shipped files translate two sentences of an older en.txt (lines 2121-2122 then repeated
            # lines 537-538): such a line is a second translation of an item, kept out and reported.
            surplus.append((number, source, "repeated_source"))
            continue
        taken[key] = k + 1
        found[slots[k]] = (source, translation.strip(), number)
    rows = []
    if adjectives:
        # A "+Adj" file covers the stereotype halves its lines come from; the rest is out of its scope.
        halves = set(items.loc[items["item"].isin(list(found)), "stereotype"])
        scope = set(items.loc[items["stereotype"].isin(halves), "item"])
    else:
        scope = set(items["item"].tolist())
    for item in items["item"].tolist():
        if item in found:
            source, translation, number = found[item]
            reason = "none" if translation == "None" else "empty" if not translation else ""
            rows.append((item, source, translation if not reason else "", reason, number))
        else:
            rows.append((item, "", "", "missing" if item in scope else "not_in_file", 0))
    frame = pd.DataFrame(rows, columns=["item", "source", "translation", "reason", "line"])
    frame.attrs["surplus_lines"] = surplus  # (line, source, reason) of lines no item took
    return frame


def translation_path(system: str, language: str, adjectives: bool = False) -> str:
    """Relative path of a shipped translation file (``adj.en-XX.txt`` for the "+Adj" one).

    >>> translation_path("google", "de", adjectives=True)
    'winomt/translations/google/adj.en-de.txt'
    """
    return f"winomt/translations/{system}/{'adj.' if adjectives else ''}en-{language}.txt"


def translation_files(store: DataStore | None = None) -> list[tuple[str, str, bool, str]]:
    """``(system, language, adjectives, relative path)`` of every shipped translation file in the manifest.

    The language is the file's ISO code (``en-de.txt``); the languages come from the manifest, not from a list here
    (which of them have a reader is the gender layer's to say).
    """
    out = []
    for relpath in manifest():
        match = re.fullmatch(r"winomt/translations/(\w+)/(adj\.)?en-([a-z]{2,3})\.txt", relpath)
        if match:
            out.append((match.group(1), match.group(3), bool(match.group(2)), relpath))
    return sorted(out)


# ---------------------------------------------------------------- users' files and labels

HUMAN = {"m": "male", "f": "female", "n": "neutral"}


def annotation_rows(path: Path, items: pd.DataFrame) -> tuple[list, list[tuple[int, str, str]]]:
    """Every row of a human-annotation CSV, and the labelled ones as (item, translation, label).

    Read by the package's one dialect (:func:`stats_mtbias.datasets._io.iter_rows`): rows of any width are
    given as they are (the annotators' files carry notes), a row that does not label an item is skipped.
    """
    rows, labelled = [], []
    records = iter_rows(path, ",", single_line=("index",), lower=True)
    next(records, None)  # header
    for number, row in records:
        rows.append(row)
        if len(row) < 5 or not row[0].strip().isdigit():
            continue
        item = int(row[0])
        if item >= len(items):
            raise DataError(f"Index {item} is not a line of en.txt (0–{len(items) - 1})", path, number)
        label = HUMAN.get(row[4].strip().lower())
        if label is not None:
            labelled.append((item, row[2], label))
    return rows, labelled


def annotation_language(name: str) -> str | None:
    """The language of a shipped human-annotation file: the code after ``__`` (``aws.de.in__de.in.csv``).

    >>> annotation_language("google.it.in.2__it.in1.csv"), annotation_language("notes.csv")
    ('it', None)
    """
    match = re.search(r"__([a-z]{2,3})\.in\d*\.csv$", name)
    return match.group(1) if match else None


def __getattr__(name: str):
    """``LANGUAGES``: the languages of the shipped translation files (read from the manifest)."""
    if name == "LANGUAGES":
        return tuple(sorted({language for _, language, _, _ in translation_files()}))
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


PREDICTED = ("male", "female", "neutral", "both", "unknown")  # both: a double or inclusive form (issue 36)


def read_user_judgements(path: str | Path, items: pd.DataFrame, *, sample: str | None = None) -> pd.DataFrame:
    """A CSV ``item, system, language, gender`` (item = 0-based line of en.txt) joined with the items.

    Items a system/language pair does not list become ``unknown`` with the reason
    ``missing`` (absent: :func:`shared_items` decides how they count), so every
    WinoMT item is accounted for; a listed item with an empty gender is an unread
    one (``unknown``, reason ``no_reading``, counted as wrong).

    `sample` names a column that tells several outputs of one item apart (an LLM
    sampled k times): an item may then appear once per sample, and the table has a
    ``sample`` column (``""`` without one). A repeated (system, language, item,
    sample) is refused with its line.
    """
    path = as_source(path)
    required = ("item", "system", "language", "gender") + ((sample.lower(),) if sample else ())
    _, records = read_records(path, required=required, lower=True)
    if not records:
        raise DataError("has a header but no readings", path, 2)
    lines = np.array([line for line, _ in records])
    frame = pd.DataFrame.from_records([r for _, r in records])
    for column in ("system", "language"):  # never a nameless system or language
        empty = (frame[column] == "").to_numpy()
        if empty.any():
            raise DataError(f"column {column!r} is empty", path, int(lines[np.flatnonzero(empty)[0]]))
    n_items = len(items)
    bad = ~frame["item"].str.fullmatch(r"[+-]?\d+")
    if bad.any():
        i = int(np.flatnonzero(bad.to_numpy())[0])
        raise DataError(f"item {frame['item'].iloc[i]!r} is not a line number of en.txt (0-based)", path, int(lines[i]))
    item = frame["item"].astype(np.int64)
    outside = (item < 0) | (item >= n_items)
    if outside.any():
        i = int(np.flatnonzero(outside.to_numpy())[0])
        raise DataError(f"item {int(item.iloc[i])} is outside en.txt's items 0–{n_items - 1}", path, int(lines[i]))
    gender = frame["gender"].str.lower().replace("", "unknown")
    wrong = ~gender.isin(PREDICTED)
    if wrong.any():
        i = int(np.flatnonzero(wrong.to_numpy())[0])
        raise DataError(f"gender {frame['gender'].iloc[i]!r} is not one of {', '.join(PREDICTED)}", path, int(lines[i]))
    given = pd.DataFrame(
        {
            "system": frame["system"],
            "language": frame["language"],
            "item": item,
            "sample": frame[sample.lower()].astype(str) if sample else "",
            "gender": gender,
            "reason": np.where(frame["gender"] == "", "no_reading", ""),
        }
    )
    keys = ["system", "language", "item", "sample"]
    repeated = given.duplicated(keys).to_numpy()
    if repeated.any():
        later = int(np.flatnonzero(repeated)[0])
        row = given.iloc[later]
        earlier = int(lines[np.flatnonzero((given[keys] == row[keys]).all(axis=1).to_numpy())[0]])
        what = f" sample {row['sample']}" if sample else ""
        hint = "" if sample else " (several outputs per item? name the column that tells them apart: sample=... or --sample COL)"
        raise DataError(
            f"item {row['item']}{what} of {row['system']}/{row['language']} was already given on line {earlier}{hint}",
            path,
            int(lines[later]),
        )
    flags = {}
    if "translation" in frame:  # readings beside their translations: do the translations follow the items' sources?
        sentences = items.set_index("item")["sentence"]
        for (system, language), part in given.assign(_t=frame["translation"].to_numpy()).groupby(
            ["system", "language"], sort=False
        ):
            found = check_lines(
                sentences.reindex(part["item"]).fillna("").tolist(),
                part["_t"].tolist(),
                label=f"{system}/{language}",
                path=path,
                stacklevel=3,
            )
            if not found.ok:
                flags[str(system), str(language)] = found.flag()
    frames = []
    for (system, language), part in given.groupby(["system", "language"], sort=False):
        full = items[["item", "gold", "stereotype"]].merge(part.drop(columns=["system", "language"]), on="item", how="left")
        full["reason"] = full["reason"].where(full["gender"].notna(), "missing")
        full["gender"] = full["gender"].fillna("unknown")
        full["sample"] = full["sample"].fillna("")
        frames.append(full.assign(system=system, language=language))
    out = pd.concat(frames, ignore_index=True)
    out.attrs["line_flags"] = flags  # {(system, language): flag}, for the result's flag column
    return out


HUMAN_LABELS = {
    "m": "male",
    "f": "female",
    "n": "neutral",
    "b": "both",
    "male": "male",
    "female": "female",
    "neutral": "neutral",
    "both": "both",
}


def read_annotations(path, items: pd.DataFrame) -> pd.DataFrame:
    """A user's human labels: CSV ``item, system, language, gender`` and optionally ``annotator``.

    ``item`` is the 0-based line of en.txt (as in :func:`read_user_judgements`),
    ``gender`` one of M/F/N/B (or male/female/neutral/both, any case; B: a double form). Every row must
    parse: a bad item, label or a repeated (system, language, item, annotator) is
    refused with its line. Returns ``system, language, item, annotator, human, line``.
    """
    path = as_source(path)
    _, records = read_records(path, required=("item", "system", "language", "gender"), lower=True, keys=("annotator",))
    n_items, rows, seen = len(items), [], {}
    for line, record in records:
        try:
            item = int(record["item"])
        except ValueError:
            raise DataError(f"item {record['item']!r} is not a line number of en.txt (0-based)", path, line) from None
        if not 0 <= item < n_items:
            raise DataError(f"item {item} is outside en.txt's items 0–{n_items - 1}", path, line)
        label = HUMAN_LABELS.get(record["gender"].lower())
        if label is None:
            raise DataError(f"gender {record['gender']!r} is not a label (M, F or N)", path, line)
        annotator = record.get("annotator", "") or "1"
        key = (record["system"], record["language"], item, annotator)
        if key in seen:
            raise DataError(
                f"item {item} of {key[0]}/{key[1]} was already labelled by annotator {annotator} on line {seen[key]}", path, line
            )
        seen[key] = line
        rows.append((*key, label, line))
    if not rows:
        raise DataError("has a header but no labels", path, 2)
    return pd.DataFrame(rows, columns=["system", "language", "item", "annotator", "human", "line"])


_FILE_LANGUAGE = re.compile(r"^(?:adj\.)?en-(?P<lang>[a-z]{2})\.(?:txt|csv|tsv)$")


def user_files(name: str, given, languages: list[str] | None) -> list[tuple[str, object, bool]]:
    """``(language, source, adjectives)`` of every translation file a user gave for system `name`.

    `given` is a path to an ``en-XX.txt`` file (``adj.en-XX.txt`` for "+Adj"), a
    directory of such files (every language it covers), a mapping
    ``{language: path or DataFrame}``, or a DataFrame with columns ``source,
    translation`` (and ``language``, unless `languages` names exactly one); a harness log or JSON-lines
    file with a ``language`` column is split by it, as such a frame is.
    """
    if isinstance(given, dict):
        return [(str(lang), src, False) for lang, src in given.items()]
    if isinstance(given, (str, Path)) and Path(given).is_file():
        source = as_source(given)  # a harness log or JSON lines: a frame, split by its language column as a frame is
        if isinstance(source, FrameSource) and "language" in source.frame.columns:
            given = source.frame
    if isinstance(given, pd.DataFrame):
        if "language" in given.columns:
            return [
                (str(lang), FrameSource(part.reset_index(drop=True), f"{name}/{lang}"), False)
                for lang, part in given.groupby("language", sort=False)
            ]
        if languages and len(languages) == 1:
            return [(languages[0], FrameSource(given, name), False)]
        raise UsageError(f"translations[{name!r}]: a DataFrame needs a 'language' column, or give exactly one language.")
    path = Path(given)
    if path.is_dir():
        found = [(m["lang"], f, f.name.startswith("adj.")) for f in sorted(path.iterdir()) if (m := _FILE_LANGUAGE.match(f.name))]
        if not found:
            raise DataError("contains no translation files named en-XX.txt (XX the target language)", path)
        return found
    if not path.exists():
        raise InputNotFoundError("does not exist", path)
    match = _FILE_LANGUAGE.match(path.name)
    if match:
        return [(match["lang"], path, path.name.startswith("adj."))]
    if languages and len(languages) == 1:
        return [(languages[0], path, False)]
    raise UsageError(
        f"translations[{name!r}]: cannot tell the target language of {path.name!r}; name the file en-XX.txt "
        "or give exactly one language."
    )

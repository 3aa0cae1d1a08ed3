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

import pandas as pd

from stats_mtbias.datasets._io import FrameSource, as_source, read_lines
from stats_mtbias.datasets.registry import DataStore, open_store
from stats_mtbias.errors import DataError

ITEMS = "winomt/data/aggregates/en.txt"
PRO = "winomt/data/aggregates/en_pro.txt"
ANTI = "winomt/data/aggregates/en_anti.txt"
GOLDS = ("male", "female", "neutral")
SYSTEMS = ("google", "bing", "aws", "systran", "sota")
LANGUAGES = ("ar", "de", "es", "fr", "he", "it", "ru", "uk", "nl", "pt")
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
    for number, line in enumerate(_translation_lines(path), start=1):
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
    """``(system, language, adjectives, relative path)`` of every shipped translation file in the manifest."""
    from stats_mtbias.datasets.registry import manifest

    out = []
    for relpath in manifest():
        match = re.fullmatch(r"winomt/translations/(\w+)/(adj\.)?en-(\w+)\.txt", relpath)
        if match and match.group(3) in LANGUAGES:
            out.append((match.group(1), match.group(3), bool(match.group(2)), relpath))
    return sorted(out)

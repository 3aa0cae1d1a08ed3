"""Lines in the wrong language: a translation file's lines that are confidently another language.

A translation file in language XX may hold lines a system left untranslated
(the English source) or wrote in another language (an Italian sentence inside a
French file). The XX reader would read them as if they were XX, so such lines
are flagged: :func:`mark_wrong_language` gives them the reason
``wrong_language`` (the entity is unread: ``unknown``, counted as wrong for Acc,
as every unread item is), counts them in the accounting and warns with their
line numbers (a :class:`~stats_mtbias.errors.DataQualityWarning`: ``--strict``
exits 65).

Identification: py3langid (the maintained fork of langid.py; its model of 97
languages ships in the wheel, no download), probabilities normalised. A line is
flagged only when the detector is confident (probability ≥ :data:`THRESHOLD`)
that it is a language other than XX and not a close variety of XX
(the language record's ``varieties``: Walloon for French, Galician for Portuguese, …), and only
when it has at least :data:`MIN_LETTERS` letters: short sentences with names are
easily misdetected. On the 165,240 lines of the shipped translation files (the
"+Adj" files included) this flags 9, all English lines left in the academic
French system's output ("The staff were very friendly and helpful ."): no false
alarm (95% upper bound 1.8 per 100,000 lines). Without the varieties and the
length floor, two French lines read as Walloon were flagged. py3langid reads
about 25,000 lines per second (lingua-language-detector: 1,900, with 602 lines
of the shipped Ukrainian files taken for Kazakh); answers are cached by content.
"""

from __future__ import annotations

import hashlib
import json
import warnings
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from stats_mtbias._cache import default_cache_dir
from stats_mtbias._files import read_cache, write_cache
from stats_mtbias.errors import DataQualityWarning
from stats_mtbias.gender.targets import facts, languages

THRESHOLD = 0.9
MIN_LETTERS = 20
# Varieties a detector may name for a line of the language itself: the language record's `varieties`.


def __getattr__(name: str):
    """``VARIETIES`` by code, read from the language records."""
    if name == "VARIETIES":
        return {code: rec.varieties for code, rec in languages().items() if rec.varieties}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@lru_cache(maxsize=1)
def _identifier():
    try:
        from py3langid.langid import MODEL_FILE, LanguageIdentifier
    except ImportError:
        return None
    return LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)


def detect(lines: Sequence[str]) -> list[tuple[str, float]]:
    """The most probable language of each line and its probability (``("", 0.0)`` without py3langid).

    Examples
    --------
    >>> [(lang, round(p, 2)) for lang, p in detect(["Il meccanico ha chiamato il medico perché stava male."])]
    [('it', 1.0)]
    """
    identifier = _identifier()
    if identifier is None:
        return [("", 0.0)] * len(lines)
    return [(str(lang), float(p)) for lang, p in (identifier.classify(line) for line in lines)]


def _cache_path(lines: Sequence[str], language: str, threshold: float):

    try:
        from importlib.metadata import version

        library = version("py3langid")
    except Exception:
        library = "none"
    digest = hashlib.sha256(
        json.dumps(
            [language, threshold, MIN_LETTERS, sorted(facts(language).varieties), library, list(lines)], ensure_ascii=False
        ).encode("utf-8")
    )
    return default_cache_dir() / "langid" / f"{digest.hexdigest()[:32]}.json"


def wrong_language(
    lines: Sequence[str], language: str, *, threshold: float = THRESHOLD, cache: bool = False
) -> tuple[np.ndarray, list[tuple[int, str, float]]]:
    """Which `lines` are confidently in a language other than `language`.

    Parameters
    ----------
    lines : sequence of str
        Translations (empty strings are never flagged).
    language : str
        The file's language (ISO 639-1).
    threshold : float
        The detector's probability above which a line counts as another language.
    cache : bool
        Keep the answer in the user cache (by the lines' content), for the study's second runs.

    Returns
    -------
    mask : ndarray of bool
        True for a line in another language.
    found : list of (index, detected language, probability)
        The flagged lines.

    Examples
    --------
    >>> lines = ["Le mécanicien a appelé le médecin parce qu'il était malade.",
    ...          "Il meccanico ha chiamato il medico perché stava male.", "Oui."]
    >>> mask, found = wrong_language(lines, "fr")
    >>> mask.tolist(), [(i, lang) for i, lang, _ in found]
    ([False, True, False], [(1, 'it')])
    """
    path = _cache_path(lines, language, threshold) if cache else None
    if path is not None:
        hit = read_cache(path, lambda v: isinstance(v, list) and all(isinstance(x, list) and len(x) == 3 for x in v))
        if hit is not None:
            found = [(int(i), str(lang), float(p)) for i, lang, p in hit]
            mask = np.zeros(len(lines), dtype=bool)
            mask[[i for i, _, _ in found]] = True
            return mask, found
    same = {language} | facts(language).varieties
    long_enough = [sum(c.isalpha() for c in line) >= MIN_LETTERS for line in lines]
    checked = [i for i, ok in enumerate(long_enough) if ok]
    found = []
    for i, (lang, p) in zip(checked, detect([lines[i] for i in checked])):
        if lang and lang not in same and p >= threshold:
            found.append((i, lang, p))
    if path is not None:
        write_cache(path, json.dumps([[i, lang, p] for i, lang, p in found]))
    mask = np.zeros(len(lines), dtype=bool)
    mask[[i for i, _, _ in found]] = True
    return mask, found


def mark_wrong_language(table, language: str, label: str, *, line_numbers=None, cache: bool = True):
    """A judgement table (:func:`stats_mtbias.studies.winomt.reading.judge`) with its wrong-language lines marked.

    Lines with a translation (reason ``""`` or ``no_reading``) that
    :func:`wrong_language` flags get gender ``unknown`` and reason
    ``wrong_language``; a :class:`~stats_mtbias.errors.DataQualityWarning` names
    their line numbers (the first ten) and languages. `label` names the file in
    the warning ("google/fr"), `line_numbers` gives each row's line in it (else
    the row's position, from 1). Returns the same table (changed in place).

    Examples
    --------
    >>> import pandas as pd, warnings
    >>> table = pd.DataFrame({"translation": ["Le mécanicien a appelé le médecin parce qu'il était malade.",
    ...                                       "The mechanic called the doctor because he was sick."],
    ...                       "gender": ["male", "unknown"], "reason": ["", "no_reading"]})
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     out = mark_wrong_language(table, "fr", "mine/fr", cache=False)
    >>> out["reason"].tolist(), str(caught[0].message)
    (['', 'wrong_language'], "mine/fr: 1 line(s) in another language than 'fr', not read (reason 'wrong_language'): line 2 (en)")
    """
    read = table["reason"].isin(["", "no_reading"]).to_numpy()
    lines = table.loc[read, "translation"].astype(str).tolist()
    mask, found = wrong_language(lines, language, cache=cache)
    if not found:
        return table
    rows = np.flatnonzero(read)[mask]
    table.iloc[rows, table.columns.get_loc("gender")] = "unknown"
    table.iloc[rows, table.columns.get_loc("reason")] = "wrong_language"
    if "why" in table.columns:
        table.iloc[rows, table.columns.get_loc("why")] = [
            f"the line is in another language ({lang}, p = {p:.2f})" for _, lang, p in found
        ]
    # What was found, for a flag on the result's row (a whole file in another language: issue 49).
    table.attrs["wrong_language"] = {
        "lines": len(found),
        "of": int(read.sum()),
        "languages": sorted({lang for _, lang, _ in found}),
    }
    numbers = np.asarray(line_numbers)[rows] if line_numbers is not None else rows + 1
    shown = ", ".join(f"{int(n)} ({lang})" for n, (_, lang, _) in list(zip(numbers, found))[:10])
    more = f" and {len(found) - 10} more" if len(found) > 10 else ""
    warnings.warn(
        f"{label}: {len(found)} line(s) in another language than {language!r}, not read (reason "
        f"'wrong_language'): line {shown}{more}",
        DataQualityWarning,
        stacklevel=2,
    )
    return table

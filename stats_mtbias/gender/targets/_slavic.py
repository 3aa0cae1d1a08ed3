"""Shared logic of the Russian and Ukrainian readers (pymorphy3 with its dictionaries).

The aligned noun's gender (e.g. учительница: feminine); a masculine noun that
names a woman ("врач сказала") is read from the agreement of the past-tense verb
or short participle that follows it within three words.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from stats_mtbias.gender.targets import vote

_GENDER = {"masc": "male", "femn": "female"}


@lru_cache(maxsize=2)
def analyzer(lang: str):
    import pymorphy3

    return pymorphy3.MorphAnalyzer(lang=lang)


def read_slavic(tokens: Sequence[str], positions: Sequence[int], lang: str) -> str:
    if not positions:
        return "unknown"
    morph = analyzer(lang)
    signals = []
    for j in positions:
        parses = [p for p in morph.parse(tokens[j]) if p.tag.POS == "NOUN"]
        if parses:
            signals.append(_GENDER.get(parses[0].tag.gender, "unknown"))
    noun = vote(signals)
    if noun in ("male", "unknown"):
        for j in range(max(positions) + 1, min(len(tokens), max(positions) + 4)):
            parses = [p for p in morph.parse(tokens[j]) if (p.tag.POS == "VERB" and p.tag.tense == "past") or p.tag.POS == "PRTS"]
            if parses and parses[0].tag.gender in _GENDER:
                verb = _GENDER[parses[0].tag.gender]
                return verb if noun == "unknown" or verb == "female" else noun
    return noun

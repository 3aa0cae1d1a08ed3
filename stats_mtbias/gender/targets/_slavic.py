"""Shared logic of the Russian and Ukrainian readers (pymorphy3 with its dictionaries).

The aligned noun's gender (e.g. учительница: feminine). Occupations are people,
so animate parses win over inanimate homographs (механику is the dative of
механик, not the accusative of механика), and surname-only parses (the Ukrainian
dictionary knows двірник only as a surname) give way to the derivational
suffixes of agent nouns (-ник, -тель, -ар, -ист …: masculine; -ница/-ниця,
-ка, -иса: feminine). A masculine noun that names a woman ("врач сказала") is
read from the agreement of the past-tense verb or short participle that follows
it, only when the noun is the subject (nominative) and only within its clause
(the scan stops at punctuation and conjunctions, so "сказал парикмахеру, что она
сделала" does not make the hairdresser a woman).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from stats_mtbias.gender.targets import vote

_GENDER = {"masc": "male", "femn": "female"}
# Agent-noun suffixes, used only when the dictionary has no common-noun parse.
_MASCULINE_SUFFIXES = ("ник", "тель", "чик", "щик", "ар", "ер", "ёр", "ист", "іст", "ор", "ант", "ент", "лог")
_FEMININE_SUFFIXES = ("ница", "ниця", "иня", "иця", "ица", "ка", "иса", "еса", "ша")
# Words that end the entity's clause: the verb after them agrees with another subject.
_CLAUSE_BREAKS = frozenset(
    "что чтобы потому поскольку так как и а но или если когда хотя".split()
    + "що щоб тому оскільки бо і й та а але або якщо коли хоча".split()
)


@lru_cache(maxsize=2)
def analyzer(lang: str):
    import pymorphy3

    return pymorphy3.MorphAnalyzer(lang=lang)


def _noun(word: str, morph) -> tuple[str, bool]:
    """(gender, is nominative) of `word` read as a noun naming a person; ``unknown`` if it is not one."""
    parses = [p for p in morph.parse(word) if p.tag.POS in ("NOUN", "ADJF") and "Abbr" not in p.tag.grammemes]
    common = [p for p in parses if not ({"Surn", "Name", "Patr"} & p.tag.grammemes)]
    nouns = [p for p in common if p.tag.POS == "NOUN"] or common  # adjectival nouns (супроводжуючий) when no noun
    animate = [p for p in nouns if "anim" in p.tag.grammemes] or nouns
    if animate:
        best = animate[0]
        return _GENDER.get(best.tag.gender, "unknown"), best.tag.case == "nomn"
    lower = word.lower()
    if parses and lower.endswith(_FEMININE_SUFFIXES):
        return "female", True
    if parses and lower.endswith(_MASCULINE_SUFFIXES):
        return "male", True
    return "unknown", False


def read_slavic(tokens: Sequence[str], positions: Sequence[int], lang: str) -> str:
    # Prepositions and particles (с, о, на) that the aligner links to the entity carry no gender.
    positions = [j for j in positions if tokens[j].replace("-", "").isalpha() and len(tokens[j]) > 2]
    if not positions:
        return "unknown"
    morph = analyzer(lang)
    readings = [_noun(tokens[j], morph) for j in positions]
    noun = vote([g for g, _ in readings if g != "unknown"] or ["unknown"])
    subject = noun == "unknown" or any(nominative for g, nominative in readings if g == noun)
    if noun in ("male", "unknown") and subject:
        for j in range(max(positions) + 1, min(len(tokens), max(positions) + 4)):
            if not tokens[j].isalpha() or tokens[j].lower() in _CLAUSE_BREAKS:
                break
            parses = [p for p in morph.parse(tokens[j]) if (p.tag.POS == "VERB" and p.tag.tense == "past") or p.tag.POS == "PRTS"]
            if parses and parses[0].tag.gender in _GENDER:
                verb = _GENDER[parses[0].tag.gender]
                return verb if noun == "unknown" or verb == "female" else noun
    return noun

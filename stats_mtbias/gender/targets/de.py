"""German: the feminine suffix -in/-innen, else the head noun's article or determiner by case.

The head is the first aligned capitalised word that is not a determiner (German
nouns are capitalised); its determiner is looked for just before it, never
among aligned words elsewhere ("die Hilfe des Angestellten": ``des``, not
``die``). der/den/dem/des, ein/einen/einem/eines (and dieser, jeder, the
contractions beim/vom/zum/im/am) read as masculine; die/eine/einer (diese, zur)
as feminine; ``der`` before an -in noun is the feminine dative/genitive, so the
suffix is checked first (with the feminine compounds -frau, -schwester, -dame),
and ``der`` after a preposition that takes the dative (mit, von, bei, zu, …)
reads as feminine; ``das`` (neuter) gives ``unknown``.
"""

from __future__ import annotations

from collections.abc import Sequence

from stats_mtbias.gender.targets import vote

ARTICLES = {
    **dict.fromkeys("der den dem des ein einen einem eines dieser diesen diesem jeder jeden jedem seinen seinem".split(), "male"),
    # Preposition + dem: masculine (or neuter, which person nouns hardly are).
    **dict.fromkeys("beim vom zum im am".split(), "male"),
    **dict.fromkeys("die eine einer diese jede ihre zur".split(), "female"),
}
# Nouns ending in -in that are not feminine forms of a person noun.
FEMININE_HEADS = ("frau", "schwester", "dame", "mutter", "tochter")
DATIVE_PREPOSITIONS = frozenset(
    {"mit", "von", "bei", "zu", "nach", "aus", "seit", "gegenüber", "außer", "neben", "vor", "hinter"}
)
NOT_FEMININE = frozenset({"medizin", "termin", "benzin", "kamin", "magazin", "protein", "vitamin", "disziplin", "routine"})
# How far before the head its determiner may stand ("dem neuen Arzt").
WINDOW = 2


def _feminine_form(word: str) -> bool:
    low = word.lower()
    if not word[:1].isupper():
        return False
    if low not in NOT_FEMININE and (low.endswith("innen") or (low.endswith("in") and len(low) > 4)):
        return True
    return low.endswith(FEMININE_HEADS)


def _head(tokens: Sequence[str], positions: Sequence[int]) -> int:
    nouns = [j for j in sorted(positions) if tokens[j][:1].isupper() and tokens[j].lower() not in ARTICLES
             and tokens[j].isalpha()]  # fmt: skip
    return nouns[0] if nouns else max(positions)


def read(tokens: Sequence[str], positions: Sequence[int]) -> str:
    """Gender of the aligned German entity."""
    if not positions:
        return "unknown"
    suffix = ["female" for j in positions if _feminine_form(tokens[j])]
    if suffix:
        return vote(suffix)
    head = _head(tokens, positions)
    for j in range(head, max(-1, head - 1 - WINDOW), -1):
        word = tokens[j].lower()
        if word == "der" and j > 0 and tokens[j - 1].lower() in DATIVE_PREPOSITIONS:
            return "female"  # dative feminine: "mit der Ärztin", "von der Managerin"
        if word in ARTICLES:
            return ARTICLES[word]
        if word == "das" or not word.isalpha():
            return "unknown"
    return "unknown"

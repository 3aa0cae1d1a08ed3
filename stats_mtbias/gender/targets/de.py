"""German: the feminine suffix -in/-innen, else the article or determiner by case.

der/den/dem/des, ein/einen/einem/eines (and dieser/diesen/diesem) read as
masculine; die/eine/einer (diese) as feminine; ``der`` before an -in noun is
the feminine dative/genitive, so the suffix is checked first (with the
feminine compounds -frau, -schwester, -dame), and ``der`` after a preposition
that takes the dative (mit, von, bei, zu, …) reads as feminine; ``das``
(neuter) gives ``unknown``.
"""

from __future__ import annotations

from collections.abc import Sequence

from stats_mtbias.gender.targets import vote

ARTICLES = {
    **dict.fromkeys("der den dem des ein einen einem eines dieser diesen diesem jeder jeden jedem seinen seinem".split(), "male"),
    **dict.fromkeys("die eine einer diese jede ihre".split(), "female"),
}
# Nouns ending in -in that are not feminine forms of a person noun.
FEMININE_HEADS = ("frau", "schwester", "dame", "mutter", "tochter")
DATIVE_PREPOSITIONS = frozenset(
    {"mit", "von", "bei", "zu", "nach", "aus", "seit", "gegenüber", "außer", "neben", "vor", "hinter"}
)
NOT_FEMININE = frozenset({"medizin", "termin", "benzin", "kamin", "magazin", "protein", "vitamin", "disziplin", "routine"})


def read(tokens: Sequence[str], positions: Sequence[int]) -> str:
    """Gender of the aligned German entity."""
    if not positions:
        return "unknown"
    suffix = []
    for j in positions:
        word = tokens[j]
        low = word.lower()
        if word[:1].isupper() and low not in NOT_FEMININE and (low.endswith("innen") or (low.endswith("in") and len(low) > 4)):
            suffix.append("female")
        elif word[:1].isupper() and low.endswith(FEMININE_HEADS):
            suffix.append("female")
    if suffix:
        return vote(suffix)
    first = min(positions)
    for j in sorted(positions, reverse=True) + list(range(first - 1, max(-1, first - 3), -1)):
        word = tokens[j].lower()
        if word == "der" and j > 0 and tokens[j - 1].lower() in DATIVE_PREPOSITIONS:
            return "female"  # dative feminine: "mit der Ärztin", "von der Managerin"
        if word in ARTICLES:
            return ARTICLES[word]
        if word == "das":
            return "unknown"
    return "unknown"

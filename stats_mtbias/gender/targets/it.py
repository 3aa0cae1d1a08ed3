"""Italian: articles and articulated prepositions (il/lo/la, un/uno/una/un', del/della, …), else noun endings.

Elided ``l'`` carries no gender; ``un'`` is feminine.
"""

from __future__ import annotations

from collections.abc import Sequence

from stats_mtbias.gender.targets._romance import read_with_articles

_MALE = (
    "il lo i gli un uno del dello dei degli al allo ai agli dal dallo dai dagli nel nello sul sullo col questo quello quel suo"
)
_FEMALE = "la le una un' della delle alla alle dalla dalle nella nelle sulla questa quella sua"
ARTICLES = {**dict.fromkeys(_MALE.split(), "male"), **dict.fromkeys(_FEMALE.split(), "female")}
ENDINGS = (
    ("essa", "female"),
    ("trice", "female"),
    ("iera", "female"),
    ("tore", "male"),
    ("ore", "male"),  # dottore, supervisore (feminine -essa/-trice)
    ("iere", "male"),
    ("o", "male"),
    ("a", "female"),
)
EPICENE = ("ista", "isti", "ente", "enti", "ante", "anti", "ese", "e")


def read(tokens: Sequence[str], positions: Sequence[int]) -> str:
    """Gender of the aligned Italian entity."""
    return read_with_articles(tokens, positions, ARTICLES, ENDINGS, EPICENE)

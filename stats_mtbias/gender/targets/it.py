"""Italian: articles and articulated prepositions (il/lo/la, un/uno/una/un', del/della, …), else noun endings.

Elided ``l'`` carries no gender; ``un'`` is feminine. Function words are never the
head, and an aligned elided article introduces it across a gap ("la studentessa
presentò all'amministratore": *amministratore*; see
:mod:`stats_mtbias.gender.targets._romance`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from stats_mtbias.gender.targets._language import Language
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
FUNCTION = frozenset(
    "che chi cui gli dei degli delle per con tra fra sui sulle nei nelle ai agli alle dalle perché quando come era sono "
    "stato stata aveva lei lui loro suoi sue non anche".split()
)
LINKERS = frozenset({"di", "d'"})
LEXICAL = {"donna": "female", "signora": "female", "uomo": "male", "signore": "male"}


# The schwa: "dottorə".
_SCHWA = re.compile(r"^\w+[əɜ3]$")


def _double_word(word: str) -> bool:
    """A double form inside one word (the record's ``in_word``)."""
    return bool(_SCHWA.match(word.lower()))


def _asterisk(tokens: Sequence[str], j: int) -> int | None:
    """ "ragazz*": a word ending in a consonant and "*" (the record's ``double_span``), the last index."""
    if j + 1 < len(tokens) and tokens[j].isalpha() and tokens[j + 1] == "*" and tokens[j][-1].lower() not in "aeiou":
        return j + 1
    return None


def read(tokens: Sequence[str], positions: Sequence[int]) -> str:
    """Gender of the aligned Italian entity."""
    return read_with_articles(tokens, positions, ARTICLES, ENDINGS, EPICENE, function=FUNCTION, linkers=LINKERS, lexical=LEXICAL)


LANGUAGE = Language(
    code="it",
    name="Italian",
    read=read,
    separators=frozenset("/("),
    suffixes=frozenset({"a", "e", "essa", "esse", "trice", "trici", "rice", "ice"}),
    conjunctions=frozenset({"o", "e", "od", "ed"}),
    note_letters=frozenset("mfx"),
    determiners=ARTICLES,
    in_word=_double_word,
    double_span=_asterisk,
    varieties=frozenset({"la", "co"}),
    pronouns={"lui": "male", "lei": "female", "egli": "male", "ella": "female"},
)

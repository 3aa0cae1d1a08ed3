"""Arabic: the feminine ta marbuta (ة) ending of the aligned noun, after the article and clitics.

- ة-final (and the feminine plural -ات) → female; other nouns → male.
- Construct state (iḍāfa): a head without the article followed by a word with it
  ("موظفة الاستقبال", "receptionist"; "أمين المكتبة", "librarian") is the entity;
  its genitive complement ("المكتبة") is not, whatever its gender.
- The English entity is definite ("the X"), so when some aligned words are definite
  nouns or construct heads, the other aligned words (verbs such as "وأظهرت",
  "بزيارة") are left out; prepositions (من، إلى، في …) are always left out.
"""

from __future__ import annotations

from collections.abc import Sequence

from stats_mtbias.gender.targets import strip_prefix, vote
from stats_mtbias.gender.targets._language import Language

_PREFIXES = ("وال", "بال", "لل", "فال", "كال", "ال", "و", "ب", "ل")
_ARTICLES = ("ال", "وال", "بال", "فال", "كال", "لل")
FUNCTION_WORDS = frozenset({"من", "إلى", "الى", "في", "على", "عن", "مع", "أن", "إن", "ما", "التي", "الذي", "لأن", "و"})


def _stem(word: str) -> str:
    return strip_prefix(word, _PREFIXES)


def _definite(word: str) -> bool:
    return word.startswith(_ARTICLES) and len(word) > 4


def read(tokens: Sequence[str], positions: Sequence[int]) -> str:
    """Gender of the aligned Arabic entity: ة-final → female; other nouns → male."""
    words = [j for j in positions if tokens[j] not in FUNCTION_WORDS and tokens[j].isalpha() and len(_stem(tokens[j])) >= 2]
    heads = {j for j in words if not _definite(tokens[j]) and j + 1 < len(tokens) and _definite(tokens[j + 1])}
    words = [j for j in words if j - 1 not in heads]  # a construct's complement is not the entity
    nominal = [j for j in words if j in heads or _definite(tokens[j])]
    signals = []
    for j in nominal or words:
        word = _stem(tokens[j])
        signals.append("female" if word.endswith("ة") or word.endswith("ات") else "male")
    return vote(signals)


LANGUAGE = Language(
    code="ar",
    name="Arabic",
    read=read,
    separators=frozenset("/("),
    suffixes=frozenset({"ة", "ه"}),
    conjunctions=frozenset({"أو", "او"}),
    varieties=frozenset({"arz", "fa", "ur"}),
)

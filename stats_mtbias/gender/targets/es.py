"""Spanish: articles and determiners (el/la, un/una, del/al, este/esta, …), else noun endings (-o/-a, -or/-ora)."""

from __future__ import annotations

from collections.abc import Sequence

from stats_mtbias.gender.targets._language import Language
from stats_mtbias.gender.targets._romance import at_sign, read_with_articles, x_ending

ARTICLES = {
    **dict.fromkeys(["el", "un", "del", "al", "los", "unos", "este", "ese", "aquel", "estos", "esos", "nuestro", "otro"], "male"),
    **dict.fromkeys(["la", "una", "las", "unas", "esta", "esa", "aquella", "estas", "esas", "nuestra", "otra"], "female"),
}
ENDINGS = (
    ("ora", "female"),
    ("oras", "female"),
    ("or", "male"),
    ("ores", "male"),
    ("o", "male"),
    ("os", "male"),
    ("a", "female"),
    ("as", "female"),
)
EPICENE = ("ista", "istas", "ante", "antes", "ente", "entes", "guardia")
FUNCTION = frozenset(
    "que quien quienes les con por para sin sobre entre hacia pero porque como cuando donde está estaba era fue ser sus "
    "mis tus ella ellos ellas".split()
)
LINKERS = frozenset({"de"})
LEXICAL = {"mujer": "female", "señora": "female", "ama": "female", "hombre": "male", "señor": "male"}


def read(tokens: Sequence[str], positions: Sequence[int]) -> str:
    """Gender of the aligned Spanish entity."""
    return read_with_articles(tokens, positions, ARTICLES, ENDINGS, EPICENE, function=FUNCTION, linkers=LINKERS, lexical=LEXICAL)


LANGUAGE = Language(
    code="es",
    name="Spanish",
    read=read,
    indefinite=frozenset({"alguien"}),
    separators=frozenset("/("),
    suffixes=frozenset({"a", "as", "ra", "ras", "na"}),
    conjunctions=frozenset({"o", "u", "y", "e"}),
    note_letters=frozenset("hmx"),
    determiners=ARTICLES,
    in_word=x_ending,
    double_span=at_sign,
    varieties=frozenset({"gl", "ca", "an", "ast"}),
    pronouns={"él": "male", "ella": "female"},
)

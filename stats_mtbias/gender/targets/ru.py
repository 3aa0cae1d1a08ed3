"""Russian: pymorphy3 noun gender, with past-tense verb agreement for masculine nouns naming women."""

from __future__ import annotations

from collections.abc import Sequence

from stats_mtbias.gender.targets._language import Language
from stats_mtbias.gender.targets._slavic import read_slavic


def read(tokens: Sequence[str], positions: Sequence[int]) -> str:
    """Gender of the aligned Russian entity."""
    return read_slavic(tokens, positions, "ru")


LANGUAGE = Language(
    code="ru",
    name="Russian",
    read=read,
    requires=("pymorphy3>=2.0", "pymorphy3-dicts-ru"),
    indefinite=frozenset({"кто-то", "кого-то", "кому-то", "кем-то", "ком-то", "кто-нибудь", "кого-нибудь", "кому-нибудь"}),
    separators=frozenset("/("),
    suffixes=frozenset({"ница", "ка", "ша", "иня", "а"}),
    conjunctions=frozenset({"или", "и", "либо"}),
    varieties=frozenset({"be"}),
    pronouns={
        "он": "male",
        "она": "female",
        "его": "male",
        "её": "female",
        "ее": "female",
        "ему": "male",
        "ей": "female",
        "ним": "male",
        "ней": "female",
    },
)

"""Ukrainian: pymorphy3 (Ukrainian dictionaries) noun gender, with past-tense verb agreement."""

from __future__ import annotations

from collections.abc import Sequence

from stats_mtbias.gender.targets._language import Language
from stats_mtbias.gender.targets._slavic import read_slavic


def read(tokens: Sequence[str], positions: Sequence[int]) -> str:
    """Gender of the aligned Ukrainian entity."""
    return read_slavic(tokens, positions, "uk")


LANGUAGE = Language(
    code="uk",
    name="Ukrainian",
    read=read,
    requires=("pymorphy3>=2.0", "pymorphy3-dicts-uk"),
    indefinite=frozenset({"хтось", "когось", "комусь", "кимось", "будь-хто"}),
    separators=frozenset("/("),
    suffixes=frozenset({"ка", "иця", "ниця", "иня", "а"}),
    conjunctions=frozenset({"або", "чи", "і", "й", "та"}),
    varieties=frozenset({"be", "rue"}),
    pronouns={"він": "male", "вона": "female", "його": "male", "її": "female", "йому": "male", "їй": "female"},
)

"""Russian: pymorphy3 noun gender, with past-tense verb agreement for masculine nouns naming women."""

from __future__ import annotations

from collections.abc import Sequence

from stats_mtbias.gender.targets._slavic import read_slavic


def read(tokens: Sequence[str], positions: Sequence[int]) -> str:
    """Gender of the aligned Russian entity."""
    return read_slavic(tokens, positions, "ru")

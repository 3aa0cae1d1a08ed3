"""Ukrainian: pymorphy3 (Ukrainian dictionaries) noun gender, with past-tense verb agreement."""

from __future__ import annotations

from collections.abc import Sequence

from stats_mtbias.gender.targets._slavic import read_slavic


def read(tokens: Sequence[str], positions: Sequence[int]) -> str:
    """Gender of the aligned Ukrainian entity."""
    return read_slavic(tokens, positions, "uk")

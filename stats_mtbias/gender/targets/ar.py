"""Arabic: the feminine ta marbuta (ة) ending of the aligned noun, after the article and clitics."""

from __future__ import annotations

from collections.abc import Sequence

from stats_mtbias.gender.targets import strip_prefix, vote

_PREFIXES = ("وال", "بال", "لل", "فال", "كال", "ال", "و", "ب", "ل")


def _stem(word: str) -> str:
    return strip_prefix(word, _PREFIXES)


def read(tokens: Sequence[str], positions: Sequence[int]) -> str:
    """Gender of the aligned Arabic entity: ة-final → female; other words → male."""
    signals = []
    for j in positions:
        word = _stem(tokens[j])
        if len(word) < 2 or not word.isalpha():
            continue
        signals.append("female" if word.endswith("ة") or word.endswith("ات") else "male")
    return vote(signals)

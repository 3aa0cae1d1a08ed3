"""Hebrew (best effort): feminine word-final ה/ת/ית of the aligned noun, after clitic prefixes.

Hebrew writes no vowels and many nouns are ambiguous in writing (מורה is both
"male teacher" and "female teacher"), so this reader is a word-form heuristic,
documented as such: -ית, -ת and -ה endings read as feminine, others as masculine,
and words listed as ambiguous as ``unknown``.
"""

from __future__ import annotations

from collections.abc import Sequence

from stats_mtbias.gender.targets import vote

_PREFIXES = ("וה", "שה", "מה", "לה", "בה", "ה", "ו", "ל", "ב", "מ", "ש", "כ")
AMBIGUOUS = frozenset({"מורה"})  # written alike in both genders


def _stem(word: str) -> str:
    for prefix in _PREFIXES:
        if word.startswith(prefix) and len(word) - len(prefix) >= 3:
            return word[len(prefix) :]
    return word


def read(tokens: Sequence[str], positions: Sequence[int]) -> str:
    """Gender of the aligned Hebrew entity (best effort)."""
    signals = []
    for j in positions:
        word = _stem(tokens[j])
        if len(word) < 2 or not word.isalpha():
            continue
        if word in AMBIGUOUS:
            signals.append("unknown")
        elif word.endswith(("ית", "ת", "ה")):
            signals.append("female")
        else:
            signals.append("male")
    return vote(signals)

"""Hebrew (best effort): feminine word-final ה/ת/ית of the aligned noun, after clitic prefixes.

Hebrew writes no vowels and many nouns are ambiguous in writing (מורה is both
"male teacher" and "female teacher"), so this reader is a word-form heuristic,
documented as such: -ית and -ה endings read as feminine, and -ת in the construct
state (followed by a ה-word, "פקידת הקבלה"); others as masculine (שרת, "janitor",
ends in ת); words listed as ambiguous are ``unknown``; the accusative marker and
prepositions the aligner links to the entity are skipped.
"""

from __future__ import annotations

from collections.abc import Sequence

from stats_mtbias.gender.targets import strip_prefix, vote

_PREFIXES = ("וה", "שה", "מה", "לה", "בה", "ה", "ו", "ל", "ב", "מ", "ש", "כ")
AMBIGUOUS = frozenset({"מורה"})  # written alike in both genders
# Function words an aligner often links to the entity: the accusative marker and prepositions.
FUNCTION_WORDS = frozenset({"את", "עם", "על", "של", "אל", "כי", "גם", "או"})


def _stem(word: str) -> str:
    return strip_prefix(word, _PREFIXES)


def read(tokens: Sequence[str], positions: Sequence[int]) -> str:
    """Gender of the aligned Hebrew entity (best effort)."""
    signals = []
    for j in positions:
        if tokens[j] in FUNCTION_WORDS:
            continue
        word = _stem(tokens[j])
        if len(word) < 2 or not word.isalpha():
            continue
        construct = j + 1 < len(tokens) and tokens[j + 1].startswith("ה")  # "פקידת הקבלה": feminine construct state
        if word in AMBIGUOUS:
            signals.append("unknown")
        elif word.endswith(("ית", "ה")) or (word.endswith("ת") and construct):
            signals.append("female")
        else:
            signals.append("male")
    return vote(signals)

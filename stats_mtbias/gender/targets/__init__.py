"""Gender of the translated entity, one module per target language behind one interface.

Every reader is ``read(tokens, positions) -> gender``: `tokens` is the
translation tokenised by :func:`stats_mtbias.alignment.tokenize` (original
case), `positions` the target tokens aligned to the English entity (and its
determiner). The answer is ``male``, ``female``, ``neutral`` or ``unknown``:
readers say ``unknown`` when nothing is aligned or the signals are missing or
conflict, rather than guess. Each module documents its rules; Hebrew's are
best-effort word-form rules.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from importlib import import_module

LANGUAGES = ("ar", "de", "es", "fr", "he", "it", "ru", "uk")


def reader(language: str) -> Callable[[Sequence[str], Sequence[int]], str]:
    """The reader of `language` (ISO 639-1 code)."""
    if language not in LANGUAGES:
        from stats_mtbias.errors import UsageError

        raise UsageError(f"`language`: no gender reader for {language!r}; readers exist for {', '.join(LANGUAGES)}.")
    return import_module(f"stats_mtbias.gender.targets.{language}").read


def vote(signals: Sequence[str]) -> str:
    """One gender from several signals: unanimous among the gendered ones, else ``unknown``."""
    found = {s for s in signals if s in ("male", "female")}
    if len(found) == 1:
        return found.pop()
    if not found and "neutral" in signals:
        return "neutral"
    return "unknown"


def context(tokens: Sequence[str], positions: Sequence[int], before: int = 2) -> list[int]:
    """The aligned positions and up to `before` tokens preceding the first of them (articles, prepositions)."""
    if not positions:
        return []
    first = min(positions)
    return sorted(set(range(max(0, first - before), first)) | set(positions))

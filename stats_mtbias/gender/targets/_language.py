"""A WinoMT target language as one record, and the registry that finds the languages.

A language is one module of :mod:`stats_mtbias.gender.targets` named by its ISO
639-1 code (``es.py``) that ends in a ``LANGUAGE`` record (:class:`Language`):
its reader and every fact the package knows of it. The registry lists such
modules without importing them (:func:`codes`; helper modules start with ``_`` or
are not a code, as ``inclusive.py``) and imports one when it is first asked for
(:func:`find`), so ``import stats_mtbias`` loads no reader and no morphology
library. The tables of the old layout (``targets.LANGUAGES``, ``INDEFINITE``,
``inclusive.SEPARATORS``, ``langid.VARIETIES``, ``entity.TARGET_PRONOUNS``, …)
are read from the records.
"""

from __future__ import annotations

import pkgutil
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from importlib import import_module

from stats_mtbias.errors import UsageError

_CODE = re.compile(r"[a-z]{2,3}")


@dataclass(frozen=True, eq=False)
class Language:
    """Everything the package knows of one target language.

    Parameters
    ----------
    code, name : str
        ISO 639-1 code (the module's name) and English name ("German").
    read : callable
        ``read(tokens, positions) -> gender`` (see :mod:`stats_mtbias.gender.targets`).
    requires : tuple of str
        The pip requirements the reader needs (each in the ``all`` extra of pyproject.toml).
    indefinite : frozenset of str
        "Someone" and the epicene nouns that read ``neutral`` (Spanish alguien, Polish osoba).
    alignment_stem : int, optional
        Target words are aligned by their first letters (Czech and Polish: 5), see
        :func:`~stats_mtbias.gender.targets.alignment_form`.
    case_endings : tuple of str
        Endings a usual translation may carry in the sentence (German genitive -s, weak -en).
    separators, suffixes, conjunctions, note_letters : frozenset of str
        Double forms (:mod:`~stats_mtbias.gender.targets.inclusive`): the separators before a feminine
        ending, the endings, "or"/"and", the letters of a gender note "(m/w/d)".
    determiners : mapping of str to str
        Determiners and their genders, for doublets such as "der/die".
    in_word : callable, optional
        ``in_word(token) -> bool``: a double form written inside one token ("LehrerIn", "étudiant-e").
    double_span : callable, optional
        ``double_span(tokens, j) -> last index or None``: a double form of the language's own spelling that
        starts at ``tokens[j]`` ("médic@s", "ragazz*", "medewerk(st)er").
    varieties : frozenset of str
        Close varieties a language detector may name for a line of this language.
    pronouns : mapping of str to str
        Explicitly gendered pronouns and their genders (the translated-pronoun reading).
    pronoun_decides : bool
        With ``use_pronoun``, the translated pronoun overrides the entity's words (German, French).
    """

    code: str
    name: str
    read: Callable[[Sequence[str], Sequence[int]], str]
    requires: tuple[str, ...] = ()
    indefinite: frozenset[str] = frozenset()
    alignment_stem: int | None = None
    case_endings: tuple[str, ...] = ()
    separators: frozenset[str] = frozenset()
    suffixes: frozenset[str] = frozenset()
    conjunctions: frozenset[str] = frozenset()
    note_letters: frozenset[str] = frozenset()
    determiners: Mapping[str, str] = field(default_factory=dict)
    in_word: Callable[[str], bool] | None = None
    double_span: Callable[[Sequence[str], int], int | None] | None = None
    varieties: frozenset[str] = frozenset()
    pronouns: Mapping[str, str] = field(default_factory=dict)
    pronoun_decides: bool = False


def _unknown(tokens: Sequence[str], positions: Sequence[int]) -> str:
    return "unknown"


# What a code without a module knows: nothing (inclusive forms and stems are looked up for any code).
NONE = Language(code="", name="", read=_unknown)


@lru_cache(maxsize=1)
def codes() -> tuple[str, ...]:
    """The codes of the languages with a reader: the package's modules named by a code, none imported.

    Examples
    --------
    >>> codes()[:4]
    ('ar', 'cs', 'de', 'es')
    """
    package = sys.modules[__package__]
    return tuple(sorted(m.name for m in pkgutil.iter_modules(package.__path__) if _CODE.fullmatch(m.name)))


@cache
def find(code: str) -> Language | None:
    """The record of `code` (its module imported on first use), None for a code without a reader.

    Examples
    --------
    >>> find("de").name, find("de").requires, find("sv")
    ('German', (), None)
    """
    if code not in codes():
        return None
    module = import_module(f"{__package__}.{code}")
    record = getattr(module, "LANGUAGE", None)
    if not isinstance(record, Language) or record.code != code:
        raise TypeError(f"{module.__file__}: a language module ends in `LANGUAGE = Language(code={code!r}, ...)`")
    return record


def language(code: str) -> Language:
    """The record of `code`, or a :class:`~stats_mtbias.errors.UsageError` naming the languages with a reader."""
    record = find(code)
    if record is None:
        raise UsageError(f"`language`: no gender reader for {code!r}; readers exist for {', '.join(codes())}.")
    return record


def facts(code: str) -> Language:
    """The record of `code`, or :data:`NONE` (no stems, no inclusive forms, no pronouns) for a code without one."""
    return find(code) or NONE


def languages() -> dict[str, Language]:
    """Every language's record by code (every reader module imported)."""
    return {code: find(code) for code in codes()}


def refresh() -> None:
    """Forget the modules found, so that a language module added while running is seen."""
    codes.cache_clear()
    find.cache_clear()

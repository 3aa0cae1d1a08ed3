"""Gender of the translated entity, one module per target language behind one interface.

Every reader is ``read(tokens, positions) -> gender``: `tokens` is the
translation tokenised by :func:`stats_mtbias.alignment.tokenize` (original
case), `positions` the target tokens aligned to the English entity (and its
determiner). The answer is ``male``, ``female``, ``neutral``, ``both`` or
``unknown``: readers say ``unknown`` when nothing is aligned or the signals are
missing or conflict, rather than guess. Each module documents its rules; Hebrew's
are best-effort word-form rules.

Common to all: an entity written in a double or inclusive form ("o/a médico/a",
"Lehrer*in", "étudiant·e", "lékař/ka": :mod:`stats_mtbias.gender.targets.inclusive`)
is ``both``. In WinoMT ``both`` never equals the gold gender, so it counts as
wrong for Acc and as neither gender for F1.

Common to all: an entity translated by an indefinite pronoun that has no
feminine counterpart ("someone": Spanish alguien, German jemand, Russian кто-то,
Ukrainian хтось, Portuguese alguém, Dutch iemand, Czech někdo, Polish ktoś) is
``neutral``: its grammatical masculine is the only form, and the Spanish and
German annotators label it N. So are the nouns that name either gender with one
fixed grammatical gender in the new languages (pt "pessoa", "criança", "testemunha",
"vítima"; nl "persoon"; cs "osoba", "dítě", "oběť"; pl "osoba", "dziecko", "ofiara"):
their article or ending says nothing of the person. Italian qualcuno/qualcuna and French quelqu'un/quelqu'une are gendered
pairs and are read like nouns.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from stats_mtbias.gender.targets._language import Language, codes, facts, find, language, languages, refresh
from stats_mtbias.gender.targets.inclusive import inclusive

__all__ = [
    "Language",
    "alignment_form",
    "codes",
    "facts",
    "find",
    "forms",
    "language",
    "languages",
    "reader",
    "refresh",
    "strip_prefix",
    "vote",
]


def __getattr__(name: str):
    """The old tables, read from the language records: ``LANGUAGES``, ``INDEFINITE``, ``ALIGNMENT_STEM``."""
    if name == "LANGUAGES":
        return codes()
    if name == "INDEFINITE":
        return {code: rec.indefinite for code, rec in languages().items() if rec.indefinite}
    if name == "ALIGNMENT_STEM":
        return {code: rec.alignment_stem for code, rec in languages().items() if rec.alignment_stem}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def reader(code: str) -> Callable[[Sequence[str], Sequence[int]], str]:
    """The reader of language `code` (ISO 639-1), with the rules common to all (indefinite, inclusive forms).

    Examples
    --------
    >>> from stats_mtbias.alignment import tokenize
    >>> read = reader("pt")
    >>> tokens = tokenize("O padeiro ajudou a médica e o/a enfermeiro/a.")
    >>> read(tokens, [4]), read(tokens, [6, 10])
    ('female', 'both')
    """
    record = language(code)
    read, indefinite = record.read, record.indefinite

    def read_entity(tokens: Sequence[str], positions: Sequence[int]) -> str:
        if any(tokens[j].lower().replace("’", "'") in indefinite for j in positions):
            return "neutral"
        if inclusive(tokens, positions, code, read):
            return "both"
        return read(tokens, positions)

    read_entity.__doc__ = read.__doc__
    return read_entity


# Czech and Polish inflect every noun for case and gender (lekarz, lekarza, lekarzowi, lekarka, lekarce …) and ship
# no bitext: the aligner, trained on the user's few hundred lines alone, sees each of those forms as a rare word of
# its own. It is given the target words' first letters instead (prefix stemming: the record's ``alignment_stem``),
# so that the forms of one noun count as one word; the usual translations are then learned as such stems too (see
# forms).


def alignment_form(language: str, word: str) -> str:
    """The form of a target word the aligner sees: lower case, and its stem where the language aligns stems.

    Examples
    --------
    >>> alignment_form("pl", "Lekarce"), alignment_form("pl", "ktoś"), alignment_form("es", "Médica")
    ('lekar', 'ktoś', 'médica')
    """
    low = word.lower()
    n = facts(language).alignment_stem
    return low[:n] if n and low.isalpha() else low


def forms(language: str, word: str) -> frozenset[str]:
    """`word` (lower-cased) and the forms it may be an inflection of, for matching it to a noun's usual translations.

    German nouns take case endings that the entity's usual (mostly nominative) translations lack: the genitive
    -s/-es ("des Bibliothekars") and the weak -n/-en ("dem Assistenten"). Czech and Polish: the word and its
    aligner stem (:func:`alignment_form`: lekarce and lekarz share "lekar"). Other languages: the word itself.
    """
    low = word.lower()
    record = facts(language)
    if record.alignment_stem:
        return frozenset({low, alignment_form(language, word)})
    endings = record.case_endings
    return frozenset({low} | {low[: -len(e)] for e in endings if low.endswith(e) and len(low) - len(e) >= 3})


def vote(signals: Sequence[str]) -> str:
    """One gender from several signals: unanimous among the gendered ones, else ``unknown``."""
    found = {s for s in signals if s in ("male", "female")}
    if len(found) == 1:
        return found.pop()
    if not found and "neutral" in signals:
        return "neutral"
    return "unknown"


def strip_prefix(word: str, prefixes: Sequence[str], min_stem: int = 3) -> str:
    """`word` without the first of `prefixes` it starts with (clitics, articles), if a stem of `min_stem` letters remains."""
    for prefix in prefixes:
        if word.startswith(prefix) and len(word) - len(prefix) >= min_stem:
            return word[len(prefix) :]
    return word

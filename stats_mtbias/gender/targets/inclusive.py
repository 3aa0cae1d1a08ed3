"""Double and inclusive forms: a noun phrase that names both genders reads ``both``.

Today's translations (and job advertisements, whose style systems learn) often
write an occupation so that it names women and men at once. Such an entity is
neither male nor female: :func:`inclusive` finds the forms below on the
entity's aligned words or right beside them, and the readers then answer
``both`` (never equal to WinoMT's gold gender, so it counts as wrong for Acc,
and as neither gender for F1).

The forms, by kind (every one has a test in ``tests/gender/targets/test_inclusive.py``):

1. **A feminine ending after a separator** (``SEPARATORS``, ``SUFFIXES``): pt "médico/a",
   "enfermeiro(a)", "o/a"; es "profesor/a", "médico(a)"; it "maestro/a",
   "direttore/trice", "dottore/essa"; fr "étudiant·e", "étudiant.e", "étudiant(e)",
   "directeur·rice", "infirmier·ère", "un·e"; de "Lehrer*in", "Lehrer:in",
   "Lehrer/-in", "Lehrer(innen)", "ein/e"; nl "medewerk(st)er" (the infix);
   cs "lékař/ka", "lékař(ka)", "zaměstnanec/kyně"; pl "lekarz/ka", "lekarz(-ka)",
   "księgowy/a"; uk "вчитель/ка", "вчитель(ка)"; ru "учитель(ница)"; he "מנהל/ת";
   ar "مدير/ة", "مدير(ة)". A "(" needs its ")".
2. **Inside one word**: de Binnen-I "LehrerIn", "LehrerInnen" and the gender gap
   "Lehrer_in"; fr the hyphen "étudiant-e"; es/pt "médic@", "médicx" (an ``x``
   after a consonant, where no Spanish or Portuguese word ends so);
   it the schwa "dottorə" and the asterisk "ragazz*".
3. **The two forms side by side**, joined by "/", "(…)" or "or"/"and" of the
   language: "el/la", "il/la", "le ou la", "der/die", "Pan/Pani", "o médico ou a
   médica", "Lehrerin oder Lehrer", "leraar/lerares", "lékař/lékařka",
   "lekarz/lekarka", "учитель/учительница": two words, one the feminine of the
   other (they share a stem and the language's reader reads the second female
   and the first not; or, joined by "/" or "(…)", one reads male and the other
   not: cs "recepčního/recepční"), or two determiners of opposite genders.
4. **A gender note in parentheses after the noun**, as job titles write it:
   de "(m/w/d)", nl "(m/v)", "(m/v/x)", fr "(H/F)", es "(h/m)", pt and it "(m/f)",
   cs "(m/ž)", pl "(k/m)": two of the language's letters.

Not covered, on purpose: the Spanish and Portuguese neutral ``-e`` ("médique",
"todes"): it cannot be told from the standard epicene ``-e`` of "estudiante" or
"presidente". Russian "врачиха" is a colloquial (often disparaging) feminine,
not a double form; "врач/врачиха" still reads ``both`` by rule 3, as any pair does.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence

from stats_mtbias.gender.targets._language import facts, languages

# The languages' tables (separators, endings, conjunctions, note letters, determiners) are fields of their
# records (:class:`~stats_mtbias.gender.targets._language.Language`); the old names below read them.
_TABLES = {
    "SEPARATORS": "separators",
    "SUFFIXES": "suffixes",
    "CONJUNCTIONS": "conjunctions",
    "NOTE_LETTERS": "note_letters",
    "DETERMINERS": "determiners",
}


def __getattr__(name: str):
    """``SEPARATORS``, ``SUFFIXES``, … by code, read from the language records (languages that have one)."""
    if name in _TABLES:
        return {code: getattr(rec, _TABLES[name]) for code, rec in languages().items() if getattr(rec, _TABLES[name])}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def fold(word: str) -> str:
    """Lower case without diacritics, for comparing stems (Arzt and Ärztin, lékař and lekar)."""
    return "".join(c for c in unicodedata.normalize("NFD", word.lower()) if not unicodedata.combining(c))


def _shared_stem(a: str, b: str) -> bool:
    """`b` is a derivative of `a` or the reverse: a common start of 3+ letters covering all but 3 of the shorter."""
    a, b = fold(a), fold(b)
    if a == b:
        return False
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n >= 3 and n >= min(len(a), len(b)) - 3


def _in_word(word: str, language: str) -> bool:
    """Kind 2: a double form written inside one token (the language's ``in_word`` rule)."""
    rule = facts(language).in_word
    return bool(rule and rule(word))


def _suffix_span(tokens: Sequence[str], j: int, language: str) -> int | None:
    """Kind 1: `tokens[j]` followed by separator and feminine ending; the index of the form's last token, else None."""
    n = len(tokens)
    if j + 1 >= n or not tokens[j].isalpha():
        return None
    sep = tokens[j + 1]
    if sep not in facts(language).separators:
        return None
    k = j + 2
    if k < n and tokens[k] == "-":
        k += 1  # "Lehrer/-in", "lekarz(-ka)"
    if k >= n or tokens[k] not in facts(language).suffixes:  # endings are lower case: "E" after "." begins a sentence
        return None
    if sep == "(":
        return k + 1 if k + 1 < n and tokens[k + 1] == ")" else None
    return k


def _own_span(tokens: Sequence[str], j: int, language: str) -> int | None:
    """A double form of the language's own spelling (its record's ``double_span``: "médic@s", "ragazz*",
    "medewerk(st)er"); the index of its last token, else None."""
    rule = facts(language).double_span
    return rule(tokens, j) if rule else None


def _note_span(tokens: Sequence[str], j: int, language: str) -> int | None:
    """Kind 4: "(m/w/d)" after the noun; the index of ")" if two of the language's letters are in it, else None."""
    letters = facts(language).note_letters
    if not letters or j + 1 >= len(tokens) or tokens[j + 1] != "(":
        return None
    seen, k = set(), j + 2
    while k < len(tokens) and k < j + 10 and tokens[k] != ")":
        word = tokens[k].lower()
        if word in letters:
            seen.add(word)
        elif word != "/":
            return None  # "(mit Sorgfalt)": no note
        k += 1
    return k if k < len(tokens) and tokens[k] == ")" and len(seen) >= 2 else None


def _opposite(a: str, b: str) -> bool:
    return {a, b} == {"male", "female"}


def _pair_span(tokens, j, language, read, articles) -> int | None:
    """Kind 3: `tokens[j]` and the opposite-gender form after "/", "(" or a conjunction; the last index, else None."""
    n = len(tokens)
    if j + 2 >= n:
        return None
    joint = tokens[j + 1].lower()
    conjunctions = facts(language).conjunctions
    if joint not in ("/", "(") and joint not in conjunctions:
        return None
    a = tokens[j].lower()
    starts = [j + 2]
    if joint in conjunctions and j + 3 < n and (tokens[j + 2].lower() in articles or tokens[j + 2].endswith(("'", "’"))):
        starts.append(j + 3)  # "o médico ou a médica", "l'infermiere o l'infermiera"
    for k in starts:
        b = tokens[k].lower()
        if joint == "(" and not (k + 1 < n and tokens[k + 1] == ")"):
            continue
        end = k + 1 if joint == "(" else k
        if a in articles and b in articles:
            if _opposite(articles[a], articles[b]):
                return end
            continue
        if not (tokens[j].isalpha() and tokens[k].isalpha() and _shared_stem(a, b)):
            continue
        ga, gb = read([tokens[j]], [0]), read([tokens[k]], [0])
        if "female" in (ga, gb) and ga != gb:
            return end
        if joint in ("/", "(") and "male" in (ga, gb) and ga != gb:
            # Written alternatives of one noun, one of them masculine: the other is its feminine even where the
            # form alone cannot say so (cs "recepčního/recepční": the adjectival noun's -í serves every feminine case).
            return end
    return None


def spans(
    tokens: Sequence[str], language: str, read: Callable | None = None, articles: dict | None = None
) -> list[tuple[int, int]]:
    """Every double or inclusive form in `tokens`, as ``(first, last)`` token indices.

    Parameters
    ----------
    tokens : sequence of str
        A translation tokenised by :func:`stats_mtbias.alignment.tokenize`.
    language : str
        ISO 639-1 code.
    read : callable, optional
        The language's reader, ``read(tokens, positions)``, to tell a feminine
        form from its base in a pair ("lekarz/lekarka"); without it only
        determiner pairs and the written forms count.
    articles : dict, optional
        The language's determiners and their genders (default: the reader
        language record's ``determiners``).

    Examples
    --------
    >>> from stats_mtbias.alignment import tokenize
    >>> spans(tokenize("O/a médico/a chegou."), "pt")
    [(0, 3), (3, 5)]
    >>> spans(tokenize("Chamou o/a motorista ou a médica."), "pt")  # a determiner doublet with its noun
    [(1, 4)]
    >>> spans(tokenize("Die Lehrer*innen und der LehrerIn"), "de")
    [(1, 3), (6, 6)]
    """
    if articles is None:
        articles = facts(language).determiners
    found = []
    for j, token in enumerate(tokens):
        if _in_word(token, language):
            found.append((j, j))
            continue
        for finder in (_own_span, _suffix_span, _note_span):
            end = finder(tokens, j, language)
            if end is not None:
                break
        else:
            end = _pair_span(tokens, j, language, read or (lambda t, p: "unknown"), articles)
        if end is not None:
            if token.lower() in articles and end + 1 < len(tokens) and tokens[end + 1].isalpha():
                end += 1  # a determiner doublet with its noun: "o/a motorista"
            found.append((j, end))
    return found


def inclusive(tokens: Sequence[str], positions: Sequence[int], language: str, read: Callable | None = None) -> bool:
    """Whether the entity (the aligned `positions`) is written in a double or inclusive form.

    A form counts when it covers an aligned word or stands right after an aligned
    determiner (the aligner often links only "médico" of "médico/a", or only the
    article before "médico/a"); separators and bare endings the aligner linked are
    pieces of a form, not the entity's words. See the module's docstring for the forms.

    Examples
    --------
    >>> from stats_mtbias.alignment import tokenize
    >>> tokens = tokenize("O médico/a chegou.")
    >>> inclusive(tokens, [1], "pt"), inclusive(tokens, [4], "pt")  # médico, chegou
    (True, False)
    """
    if not positions:
        return False
    # Only the entity's neighbourhood: a form elsewhere in the sentence belongs to another noun phrase.
    start, stop = max(0, min(positions) - 4), min(len(tokens), max(positions) + 8)
    window = tokens[start:stop]
    # A separator or a bare feminine ending that the aligner linked ("(", "a" of "policzył(a)", "ka" of
    # "ředitel/ka") is a piece of another word's form, not the entity: only words count.
    aligned = {p - start for p in positions if not _piece(tokens[p], language)}
    articles = facts(language).determiners
    for first, last in spans(window, language, read):
        # The aligner may link only the article before the form ("o" of "o médico/a"); a noun before a form is no
        # part of it ("řidiče zlý/á": the form is the predicate's adjective).
        if any(first <= p <= last or (p == first - 1 and window[p].lower() in articles) for p in aligned):
            return True
    return False


def _piece(token: str, language: str) -> bool:
    """A token that is only a piece of a written double form: a separator, a bracket or a feminine ending."""
    return not any(c.isalpha() for c in token) or token in facts(language).suffixes

"""German: the head noun's feminine suffix, else its determiner read by case.

The head is the first aligned capitalised word that is not a determiner (German
nouns are capitalised); its determiner is looked for just before it (at most
``WINDOW`` words, skipping adjectives), never among aligned words elsewhere ("die
Hilfe des Angestellten": ``des``, not ``die``).

A German determiner inflects for gender, number and case, and several forms
serve more than one cell of the paradigm: ``der`` is the masculine nominative
*and* the feminine dative and genitive, ``den`` the masculine accusative and the
plural dative, ``einer`` the feminine dative and genitive. :data:`PARADIGM` gives
every form its analyses, as ``(gender, case)`` pairs, for the definite article,
the *der*-words (dieser, jener, jeder, welcher, mancher, solcher), the *ein*-words
(ein, kein and the possessives mein, dein, sein, ihr, unser, euer — whose ending
agrees with the noun, whatever the stem says of the possessor) and the
contractions (beim, vom, zum, im, am; zur; ins, ans). The analyses are narrowed
by what the sentence shows, in this order:

1. the noun's own morphology: a feminine form (-in, -innen; the feminine
   compounds -frau, -schwester, …) is feminine whatever the determiner; a
   genitive ``-s``/``-es`` ("des Sheriffs", "eines Arztes") keeps the masculine
   and neuter genitive;
2. the word before the determiner: a preposition that takes the dative (mit, von,
   bei, …) keeps the dative, one that takes the accusative (für, durch, gegen,
   ohne, um) the accusative, a two-way preposition (an, auf, in, über, vor, …)
   either, and a noun keeps the genitive (an attribute: "die Tasche der Ärztin");
3. an adjective between determiner and noun ending in ``-en`` after ``der``
   ("der neuen Ärztin") rules out the nominative.

The plural is dropped while a singular analysis remains (WinoMT's entities are
singular). Then the masculine (alone or with the neuter: dem, des, ein — person
nouns are hardly neuter) gives ``male``, the feminine ``female``, the neuter alone
(das) ``unknown``; ``der`` with nothing to narrow it stays the masculine
nominative, its most frequent use.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from stats_mtbias.gender.targets import vote
from stats_mtbias.gender.targets._language import Language

M, F, N, PL = "m", "f", "n", "pl"
NOM, ACC, DAT, GEN = "nom", "acc", "dat", "gen"

_DER = {  # the definite article
    "der": {(M, NOM), (F, DAT), (F, GEN), (PL, GEN)},
    "den": {(M, ACC), (PL, DAT)},
    "dem": {(M, DAT), (N, DAT)},
    "des": {(M, GEN), (N, GEN)},
    "die": {(F, NOM), (F, ACC), (PL, NOM), (PL, ACC)},
    "das": {(N, NOM), (N, ACC)},
}
# Endings of the der-words (dieser, jener, jeder, welcher, mancher, solcher).
_DER_WORD = {
    "er": _DER["der"],
    "en": _DER["den"],
    "em": _DER["dem"],
    "es": {(M, GEN), (N, GEN), (N, NOM), (N, ACC)},
    "e": _DER["die"],
}
# Endings of the ein-words (ein, kein and the possessives).
_EIN_WORD = {
    "": {(M, NOM), (N, NOM), (N, ACC)},
    "en": {(M, ACC), (PL, DAT)},
    "em": {(M, DAT), (N, DAT)},
    "es": {(M, GEN), (N, GEN)},
    "e": {(F, NOM), (F, ACC), (PL, NOM), (PL, ACC)},
    "er": {(F, DAT), (F, GEN), (PL, GEN)},
}
_CONTRACTIONS = {
    **{form: {(M, DAT), (N, DAT)} for form in ("beim", "vom", "zum", "im", "am")},
    "zur": {(F, DAT)},
    **{form: {(N, ACC)} for form in ("ins", "ans", "aufs")},
}
DER_STEMS = ("dies", "jen", "jed", "welch", "manch", "solch")
EIN_STEMS = ("ein", "kein", "mein", "dein", "sein", "ihr", "unser", "euer")


def _paradigm() -> dict[str, frozenset[tuple[str, str]]]:
    table: dict[str, set] = {form: set(cells) for form, cells in _DER.items()}
    for stem in DER_STEMS:
        for ending, cells in _DER_WORD.items():
            table.setdefault(stem + ending, set()).update(cells)
    for stem in EIN_STEMS:
        for ending, cells in _EIN_WORD.items():
            # euer drops its e before an ending: eure, eurem, euren (euere is rare but read too).
            for form in {stem + ending, ("eur" + ending) if stem == "euer" and ending else stem + ending}:
                table.setdefault(form, set()).update(cells)
    for form, cells in _CONTRACTIONS.items():
        table.setdefault(form, set()).update(cells)
    return {form: frozenset(cells) for form, cells in table.items()}


PARADIGM = _paradigm()
# Nouns ending in -in that are not feminine forms of a person noun.
NOT_FEMININE = frozenset({"medizin", "termin", "benzin", "kamin", "magazin", "protein", "vitamin", "disziplin", "routine"})
FEMININE_HEADS = ("frau", "schwester", "dame", "mutter", "tochter")
DATIVE_PREPOSITIONS = frozenset(
    {"mit", "von", "bei", "zu", "nach", "aus", "seit", "gegenüber", "außer", "entgegen", "gemäß", "samt", "nebst"}
)
ACCUSATIVE_PREPOSITIONS = frozenset({"für", "durch", "gegen", "ohne", "um", "wider", "bis"})
# Two-way prepositions take the dative (where) or the accusative (where to): either, never the nominative.
TWO_WAY_PREPOSITIONS = frozenset({"an", "auf", "hinter", "in", "neben", "über", "unter", "vor", "zwischen"})
# How far before the head its determiner may stand ("dem neuen Arzt", "der sehr netten Ärztin").
WINDOW = 3


def feminine_form(word: str) -> bool:
    """A capitalised person noun in its feminine form: -in/-innen (not Medizin, Termin, …) or -frau, -schwester, …."""
    low = word.lower()
    if not word[:1].isupper():
        return False
    if low not in NOT_FEMININE and (low.endswith("innen") or (low.endswith("in") and len(low) > 4)):
        return True
    return low.endswith(FEMININE_HEADS)


def _genitive_s(word: str) -> bool:
    # "Sheriffs", "Arztes", "Bibliothekars": the strong masculine/neuter genitive. Nouns ending in -s, -ss, -x, -z
    # in the nominative ("Bus", "Boss") cannot be told apart, so -ss is not read as a genitive.
    low = word.lower()
    return low.endswith("s") and not low.endswith(("ss", "us", "is")) and len(low) > 3


def analyses(determiner: str) -> frozenset[tuple[str, str]]:
    """Every (gender, case) cell a determiner form can fill; empty if it is none (see :data:`PARADIGM`)."""
    return PARADIGM.get(determiner.lower(), frozenset())


def _narrow(cells: frozenset, keep) -> frozenset:
    """`cells` that pass `keep`, or `cells` unchanged if none would: a filter never empties the analysis."""
    kept = frozenset(c for c in cells if keep(c))
    return kept or cells


def read_phrase(tokens: Sequence[str], det: int, head: int) -> str:
    """The gender that determiner ``tokens[det]`` gives the noun ``tokens[head]``, by the rules of the module."""
    cells = analyses(tokens[det])
    noun = tokens[head]
    if _genitive_s(noun):
        cells = _narrow(cells, lambda c: c[1] == GEN and c[0] in (M, N))
    before = tokens[det - 1].lower() if det > 0 else ""
    if before in DATIVE_PREPOSITIONS:
        cells = _narrow(cells, lambda c: c[1] == DAT)
    elif before in ACCUSATIVE_PREPOSITIONS:
        cells = _narrow(cells, lambda c: c[1] == ACC)
    elif before in TWO_WAY_PREPOSITIONS:
        cells = _narrow(cells, lambda c: c[1] in (DAT, ACC))  # "über den Schreiner", "vor der Ärztin"
    elif det > 0 and tokens[det - 1][:1].isupper() and tokens[det - 1].isalpha() and not _sentence_start(tokens, det - 1):
        cells = _narrow(cells, lambda c: c[1] == GEN)  # an attribute: "die Tasche der Ärztin"
    if tokens[det].lower() == "der" and any(t.lower().endswith("en") and t[:1].islower() for t in tokens[det + 1 : head]):
        cells = _narrow(cells, lambda c: c[1] != NOM)  # "der neuen Ärztin"
    cells = _narrow(cells, lambda c: c[0] != PL)
    genders = {g for g, _ in cells}
    if M in genders and F in genders:
        # Bare "der" (or dieser, jeder): the masculine nominative, its most frequent use.
        return "male" if (M, NOM) in cells else "unknown"
    if M in genders:
        return "male"  # with or without the neuter (dem, des, ein): person nouns are hardly neuter
    if genders == {F}:
        return "female"
    return "unknown"  # the neuter alone (das, ins) or the plural: no person's gender


def _sentence_start(tokens: Sequence[str], j: int) -> bool:
    return j == 0 or tokens[j - 1] in {".", "!", "?", ":", '"', "„", "“"}


def _head(tokens: Sequence[str], positions: Sequence[int]) -> int:
    nouns = [j for j in sorted(positions) if tokens[j][:1].isupper() and not analyses(tokens[j]) and tokens[j].isalpha()]
    return nouns[0] if nouns else max(positions)


# Double forms inside one word: the Binnen-I "LehrerIn", "LehrerInnen" and the gender gap "Lehrer_in".
_BINNEN_I = re.compile(r"^[A-ZÄÖÜ][a-zäöüß]+(?:In|Innen)$")
_GAP = re.compile(r"^\w+_(?:in|innen)$", re.IGNORECASE)


def _double_word(word: str) -> bool:
    """A double form inside one word (the record's ``in_word``)."""
    return bool(_BINNEN_I.match(word) or _GAP.match(word))


def read(tokens: Sequence[str], positions: Sequence[int]) -> str:
    """Gender of the aligned German entity."""
    if not positions:
        return "unknown"
    head = _head(tokens, positions)
    if feminine_form(tokens[head]):
        return "female"
    if not tokens[head][:1].isupper():
        # No noun aligned (only a determiner, or a verb): an aligned feminine form elsewhere still tells.
        suffix = ["female" for j in positions if feminine_form(tokens[j])]
        if suffix:
            return vote(suffix)
    for j in range(head, max(-1, head - 1 - WINDOW), -1):
        if analyses(tokens[j]):
            return read_phrase(tokens, j, head)
        if j < head and not (tokens[j].isalpha() and tokens[j][:1].islower()):
            return "unknown"  # punctuation or another noun: the head has no determiner of its own
    return "unknown"


LANGUAGE = Language(
    code="de",
    name="German",
    read=read,
    indefinite=frozenset({"jemand", "jemanden", "jemandem", "jemands", "jemandes"}),
    case_endings=("s", "es", "n", "en"),
    separators=frozenset({"*", ":", "/", "(", "·"}),  # the gender star and colon: "Lehrer*in", "Lehrer:in"
    suffixes=frozenset({"in", "innen", "e", "n", "r"}),
    conjunctions=frozenset({"oder", "und", "bzw"}),
    note_letters=frozenset("mwdx"),
    determiners={
        **dict.fromkeys(("der", "den", "dem", "des", "ein", "einen", "einem", "eines", "jeder", "jeden"), "male"),
        **dict.fromkeys(("die", "eine", "einer", "jede"), "female"),
    },
    in_word=_double_word,
    varieties=frozenset({"lb", "nds", "als"}),
    pronouns={
        "er": "male",
        "ihn": "male",
        "ihm": "male",
        "sein": "male",
        "seine": "male",
        "seinen": "male",
        "seinem": "male",
        "seiner": "male",
        "sie": "female",
        "ihr": "female",
    },
    pronoun_decides=True,
)

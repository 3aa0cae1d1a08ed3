"""Dutch: the person noun's derivational suffix (rules and word lists; no library knows Dutch person-noun gender).

Dutch articles and adjectives do not show a person's gender (*de* serves both),
so the noun alone decides. No maintained library ships Dutch gender offline (no
spaCy Dutch pipeline installs here; lemma tables know no gender), hence rules:

- **female**: the feminine suffixes -ster (verpleegster, schoonmaakster;
  not -meester, priester), -es after -ar/-er (lerares, zangeres, eigenares),
  -esse (secretaresse), -ice/-rice (directrice, actrice), -euse (chauffeuse),
  -ière (kassière), -in of a listed base (boerin, vriendin, kokkin), the
  compounds in -vrouw, -zuster, -dame, -meid, -moeder; and -e on a masculine
  agent noun (assistente, studente, receptioniste, advocate, psychologe:
  -ent, -ant, -ist, -aat, -oog, -eut, -iet, -ief with -e);
- **male**: the agent suffixes whose feminine the language has (-er, -aar,
  -ier, -ien, -man, -ent, -ant, -ist, -aat, -oog, -eut, -icus, -aris and the
  -e-less bases above): "de leraar" is the masculine of "de lerares", read like
  German "der Lehrer"; -eur and -or only where the feminine in -euse or -rice
  is in use (:data:`EUR_WITH_FEMININE`: directeur/directrice,
  chauffeur/chauffeuse, inspecteur, redacteur, coördinator …);
- **neutral**: nouns that name a person of either gender with one form
  (:data:`EPICENE`: arts, dokter, chef, verpleegkundige and the other -kundige
  nominalisations, collega, conciërge, bediende, and loans without a Dutch
  feminine: manager, designer, engineer, accountant, CEO, …), and the -eur and
  -or nouns without a feminine in use (monteur, ingenieur, auteur, promotor,
  professor): the noun phrase shows no gender, so the reading is ``neutral``
  (not ``unknown``: nothing is hidden). This is the labelling guide's line
  (``data/validation/LABELLING.md``): a masculine form counts as male only
  where the language has a distinct feminine in use;
- ``unknown``: no aligned word is a person noun these rules know.

The aligned words right after a determiner (de, het, een, deze, …; up to two
words after it, for an adjective between) are read first, else every aligned
word; function words are never read. Among the readings a gendered one wins
over ``neutral`` ("de aardige verpleegster"), and two genders give ``unknown``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from stats_mtbias.gender.targets import vote
from stats_mtbias.gender.targets._language import Language
from stats_mtbias.gender.targets.inclusive import fold

FUNCTION = frozenset(
    "de het een die dat deze dit van aan met voor naar om op in bij zijn haar hij zij ze hem en of omdat want maar als "
    "dan niet was is heeft had werd wordt te er ook nog al door over uit tot toe zich hun hen wie wat welke wel geen "
    "mijn jouw uw onze ons hier daar toen nu zo ander andere meer weer later eerder verder onder achter wanneer waar "
    "zeer beter ieder iedere elke".split()
)
DETERMINERS = frozenset("de het een die deze dat dit onze ons mijn zijn haar hun uw jouw elke iedere welke".split())
# One form for both genders: the noun phrase shows none.
EPICENE = frozenset(
    "arts dokter chirurg collega concierge bediende hulp getuige persoon mens kind tiener baby lid gast klant auteur "
    "minister kapitein burgemeester manager designer developer planner supervisor counselor counsellor consultant "
    "accountant auditor ceo cfo sheriff coach babysitter nanny model tutor chief klerk undergraduate paralegal wacht "
    "slachtoffer hoofd lid chef engineer officer recruiter freelancer".split()
)
# -eur and -or nouns whose feminine (-euse, -rice, -trice) is in use (Taalunie's list of feminine occupation names):
# these are masculine; the other -eur/-or nouns (monteur, ingenieur, auteur, amateur, procureur, promotor, professor,
# tutor, sponsor) name either gender with one form.
EUR_WITH_FEMININE = frozenset(
    "directeur inspecteur redacteur instructeur acteur lecteur ambassadeur animateur organisateur administrateur "
    "coördinateur coordinateur chauffeur coiffeur masseur controleur danseur souffleur regisseur adviseur "
    "curator coördinator coordinator moderator presentator senator".split()
)
EPICENE_SUFFIXES = ("arts", "kundige", "manager", "designer", "collega", "persoon", "kracht", "hoofd", "slachtoffer")
# The feminine in -in of these bases (boer -> boerin, kok -> kokkin).
_IN_BASES = frozenset("boer vriend kok held koning graaf god waard herder baas leeuw buur".split())
FEMININE = frozenset(
    "vrouw mevrouw dame zus zuster moeder dochter meid meisje prinses barones voogdes hertogin non weduwe bruid "
    "caissiere kassiere".split()
)
MASCULINE = frozenset(
    "man meneer heer broer vader zoon jongen knecht kok boer held koning graaf god waard baas piloot monnik "
    "bruidegom weduwnaar".split()
)
FEMININE_SUFFIXES = (
    "ster",
    "sters",
    "ares",
    "eres",
    "esse",
    "essen",
    "rice",
    "rices",
    "euse",
    "euses",
    "iere",
    "ieres",
    "vrouw",
    "vrouwen",
    "zuster",
    "dame",
    "meid",
    "moeder",
    "dochter",
)
NOT_FEMININE = ("meester", "priester", "minister", "monster", "venster", "klooster", "register", "orkester")
# Agent suffixes whose feminine the language has (-ster, -es, -e, -rice …).
MASCULINE_SUFFIXES = (
    "er",
    "ers",
    "aar",
    "aars",
    "ier",
    "iers",
    "ien",
    "man",
    "mannen",
    "ent",
    "enten",
    "ant",
    "anten",
    "ist",
    "isten",
    "aat",
    "aten",
    "oog",
    "ogen",
    "eut",
    "euten",
    "icus",
    "aris",
    "tect",
    "meester",
    "priester",
    "knecht",
    "jongen",
    "zoon",
    "vader",
    "broer",
    "heer",
)
# -eur and -or: masculine only with a feminine in use (EUR_WITH_FEMININE), else one form for both.
EUR_SUFFIXES = ("eur", "eurs", "or", "ors")
# Masculine bases whose feminine adds -e: assistent -> assistente, advocaat -> advocate.
_E_BASES = ("ent", "ant", "ist", "aat", "oog", "eut", "iet", "ief", "ier")


def _doubled(stem: str) -> str:
    """The closed-syllable spelling of an open one: advocat -> advocaat, psycholog -> psycholoog."""
    if len(stem) >= 3 and stem[-2] in "aeou" and stem[-3] not in "aeiou" and stem[-1] not in "aeiouy":
        return stem[:-1] + stem[-2] + stem[-1]
    return stem


@lru_cache(maxsize=20_000)
def noun_gender(word: str) -> str | None:
    """The gender a Dutch person noun shows: ``female``, ``male``, ``neutral`` (one form for both), or None.

    Examples
    --------
    >>> [noun_gender(w) for w in ("lerares", "leraar", "verpleegkundige", "advocate", "schoonmaakster", "tafel")]
    ['female', 'male', 'neutral', 'female', 'female', None]
    """
    w = fold(word).split("-")[-1]  # patiënt as patient; chef-kok: its head, kok
    if not w.isalpha() or len(w) < 3:
        return None
    if w in EPICENE or (w.endswith(EPICENE_SUFFIXES) and w not in MASCULINE and w not in FEMININE):
        return "neutral"
    if len(w) >= 10 and w.endswith("ige"):
        return "neutral"  # belastingplichtige, verpleegkundige: nominalised adjectives
    if w in FEMININE:
        return "female"
    if w in MASCULINE:
        return "male"
    if w.endswith(FEMININE_SUFFIXES) and not w.endswith(NOT_FEMININE):
        return "female"
    if w.endswith("in") and (w[:-2] in _IN_BASES or w[:-3] in _IN_BASES or w[:-3].replace("v", "f") in _IN_BASES):
        return "female"  # boerin, kokkin, gravin
    if w.endswith("ica") and len(w) > 5:
        return "female"  # historica (historicus)
    if w.endswith("e") and len(w) > 4:
        stem = w[:-1]
        if stem.endswith(_E_BASES) or _doubled(stem).endswith(_E_BASES):
            return "female"  # assistente, advocate, psychologe
        return None
    if w.endswith(EUR_SUFFIXES):
        base = w[:-1] if w.endswith("s") else w
        return "male" if base.endswith(tuple(EUR_WITH_FEMININE)) else "neutral"  # hoofdinspecteur: its head
    if w.endswith(MASCULINE_SUFFIXES):
        return "male"
    return None


def _candidates(words: Sequence[str], positions: Sequence[int]) -> tuple[list[int], list[int]]:
    """Aligned words that may be the head: those after a determiner, and the others."""
    content = [j for j in sorted(positions) if words[j].replace("-", "").isalpha() and words[j] not in FUNCTION]
    determined = [j for j in content if any(words[i] in DETERMINERS for i in range(max(0, j - 2), j))]
    return determined, [j for j in content if j not in determined]


def _infix(tokens: Sequence[str], j: int) -> int | None:
    """ "medewerk(st)er": stem, "(", "st", ")", "er" (the record's ``double_span``), the last index."""
    return j + 4 if tuple(tokens[j + 1 : j + 5]) == ("(", "st", ")", "er") else None


def read(tokens: Sequence[str], positions: Sequence[int]) -> str:
    """Gender of the aligned Dutch entity.

    Examples
    --------
    >>> from stats_mtbias.alignment import tokenize
    >>> tokens = tokenize("De kapper gaf de receptioniste een appel.")
    >>> read(tokens, [1]), read(tokens, [3, 4]), read(tokenize("De arts belde."), [1])
    ('male', 'female', 'neutral')
    """
    words = [t.lower() for t in tokens]
    for group in _candidates(words, positions):
        readings = [g for j in group if (g := noun_gender(words[j])) is not None]
        if readings:
            return vote(readings)
    return "unknown"


LANGUAGE = Language(
    code="nl",
    name="Dutch",
    read=read,
    indefinite=frozenset({"iemand", "persoon"}),
    separators=frozenset("/("),
    suffixes=frozenset({"e", "es", "ster", "ice", "rice", "euse", "ière", "in"}),
    conjunctions=frozenset({"of", "en"}),
    note_letters=frozenset("mvx"),
    double_span=_infix,
    varieties=frozenset({"af", "li", "fy", "lb"}),
)

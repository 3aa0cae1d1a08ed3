"""Polish: Morfeusz 2 (SGJP dictionary, in the ``morfeusz2`` wheel) noun gender, and the agreement inside the noun phrase.

The entity's own noun phrase decides, as the labelling guide defines it
(``data/validation/LABELLING.md``): the head noun and the words inside its noun
phrase, never a verb, pronoun or adjective outside it. Morfeusz analyses every
form of the aligned words. A person noun is a noun (``subst``, ``depr``) in the
masculine personal gender ``m1`` (lekarz, lekarza, kierowca) — male — or in the
feminine ``f`` (lekarka, lekarce, pielęgniarką, krawcową) — female; nouns only in
the other masculine genders (``m2``, ``m3``: telefon, szampon) or the neuter
(rzemiosło) name no person and are not read, so a word of another noun phrase
that the aligner linked does not decide. An adjectival noun that Morfeusz knows
only as an adjective or participle (sprzątający/sprzątająca) reads by its gender
where no aligned word is a noun. A noun in the genitive right after a person
noun is that noun's complement ("pracownik obsługi", "kierownik budowy"): the
person noun is the head, also where the aligner linked only the complement.

Polish often names a woman with the masculine title noun (dyrektor, prezes,
doktor, sędzia), which the dictionary also lists as an indeclinable feminine:
such a noun reads male, unless a word inside its noun phrase shows the woman:

- "pani" before the noun, or among the aligned words, is female ("pani doktor",
  "panią szeryf"), "pan" male;
- an adjective right before it that can only be feminine is female ("nowa dyrektor").

A feminine past verb after the noun ("dyrektor powiedziała") is outside the noun
phrase and does not count: the noun phrase is masculine, as the guide labels it.
Words Morfeusz does not know (``ign``) fall back to the suffixes of agent nouns
(-ka, -czyni, -ini, -owa: feminine; -arz, -erz, -nik, -ista, -or, -er, -ant,
-ent, -log, -ca: masculine). "ktoś", "osoba", "dziecko" and "ofiara" are neutral
(:data:`stats_mtbias.gender.targets.INDEFINITE`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from stats_mtbias.errors import UsageError
from stats_mtbias.gender.targets import vote
from stats_mtbias.gender.targets._language import Language

FUNCTION = frozenset(
    "a i oraz ale że bo ponieważ aby żeby gdy kiedy się w we z ze do od na o u po przy za przed między nad pod dla "
    "który która które którego której jego jej ich on ona ono oni mu jemu go ją to ten ta tę tego tej jak też już nie".split()
)
CLAUSE_BREAKS = frozenset("a i oraz ale że bo ponieważ aby żeby gdy kiedy lub albo czy który która które którego której".split())
TITLES = {"pani": "female", "panią": "female", "paniom": "female", "pan": "male", "pana": "male", "panu": "male", "panem": "male"}
_MALE_GENDERS = frozenset({"m1", "m2", "m3"})
FEMININE_SUFFIXES = ("ka", "ki", "ce", "kę", "ką", "czyni", "czynię", "czynią", "ini", "yni", "owa", "ową", "owej")
MASCULINE_SUFFIXES = (
    "arz",
    "erz",
    "nik",
    "ista",
    "or",
    "er",
    "ant",
    "ent",
    "log",
    "ca",
    "arza",
    "erza",
    "nika",
    "isty",
    "ora",
    "era",
    "anta",
    "enta",
    "loga",
    "cy",
    "owi",
)


@lru_cache(maxsize=1)
def _morfeusz():
    try:
        import morfeusz2
    except ImportError:
        raise UsageError("the Polish reader needs Morfeusz 2: pip install 'stats_mtbias[all]'") from None
    return morfeusz2.Morfeusz(expand_tags=True)


@lru_cache(maxsize=50_000)
def analyses(word: str) -> tuple[tuple[str, frozenset, frozenset, frozenset], ...]:
    """Morfeusz's readings of `word`: ``(part of speech, numbers, cases, genders)`` each.

    Examples
    --------
    >>> sorted({(pos, tuple(sorted(g))) for pos, _, _, g in analyses("lekarka")})
    [('subst', ('f',))]
    """
    out = []
    for _start, _end, (_orth, _lemma, tag, _names, _quals) in _morfeusz().analyse(word):
        fields = tag.split(":")
        pos = fields[0]
        if pos in ("pact", "ppas") and len(fields) >= 4:
            pos = "adj"  # sprzątająca: an adjectival participle used as a noun
        if pos in ("subst", "depr", "adj") and len(fields) >= 4:
            out.append((pos, frozenset(fields[1].split(".")), frozenset(fields[2].split(".")), frozenset(fields[3].split("."))))
        elif pos == "praet" and len(fields) >= 3:
            out.append((pos, frozenset(fields[1].split(".")), frozenset(), frozenset(fields[2].split("."))))
        elif pos == "ign":
            out.append((pos, frozenset(), frozenset(), frozenset()))
    return tuple(out)


def _gender(genders: set) -> str:
    found = {"male" if g in _MALE_GENDERS else "female" if g == "f" else "neuter" for g in genders}
    found.discard("neuter")
    return found.pop() if len(found) == 1 else ("ambiguous" if found else "unknown")


def _person(word: str) -> tuple[str, frozenset, int] | None:
    """(gender, cases, rank) of `word` as a person noun or adjectival noun, or None if it names no person.

    The rank says how surely the word is a noun: 2 only a noun, 1 a noun and an adjective (nowym: also the
    substantivised "nowy"), 0 only an adjective or participle (księgowy, sprzątająca).

    Examples
    --------
    >>> _person("lekarce")[0], _person("szeryf")[0], _person("telefonu"), _person("dyrektor")[0]
    ('female', 'male', None, 'male')
    """
    readings = analyses(word.lower()) or analyses(word)
    adjectives = [r for r in readings if r[0] == "adj" and "sg" in r[1]]
    every = [r for r in readings if r[0] in ("subst", "depr")]
    # The singular readings where there are some: "prezent" (m3) is no plural genitive of a feminine.
    nouns = [r for r in ([r for r in every if "sg" in r[1]] or every) if r[3] & {"m1", "f"}]
    if nouns:
        singular = nouns
        genders = set().union(*(r[3] for r in singular)) & {"m1", "f"}
        # Both (dyrektor, sędzia: the masculine title noun, also listed as an indeclinable feminine): the masculine
        # noun, unless a word of its noun phrase shows a woman (read).
        gender = "male" if "m1" in genders else "female"
        return gender, frozenset().union(*(r[2] for r in singular)), 1 if adjectives else 2
    if every:
        return None  # a noun that names no person (m2, m3, n)
    if adjectives:
        gender = _gender(set().union(*(r[3] for r in adjectives)))
        if gender in ("male", "female"):
            return gender, frozenset().union(*(r[2] for r in adjectives)), 0
        return None
    low = word.lower()
    if any(r[0] == "ign" for r in readings):
        if low.endswith(FEMININE_SUFFIXES):
            return "female", frozenset(), 2
        if low.endswith(MASCULINE_SUFFIXES):
            return "male", frozenset(), 2
    return None


@lru_cache(maxsize=50_000)
def _lemmas(word: str) -> frozenset[str]:
    return frozenset(lemma.split(":")[0] for _s, _e, (_o, lemma, _t, _n, _q) in _morfeusz().analyse(word))


# Lemma endings of feminine person nouns (nauczycielka, doradczyni, gospodyni, krawcowa).
FEMININE_PERSON = ("ka", "yni", "ini", "owa")


def _complement_of(words: Sequence[str], j: int) -> int | None:
    """The person noun right before `j` when `j` is a noun in the genitive naming no person ("pracownik obsługi")."""
    if j == 0:
        return None
    here = [r for r in analyses(words[j]) if r[0] in ("subst", "depr") and "sg" in r[1]]
    if not here or not any("gen" in r[2] for r in here) or any("m1" in r[3] for r in here):
        return None
    if any(lemma.endswith(FEMININE_PERSON) for lemma in _lemmas(words[j])):
        return None  # "syn lekarki": a woman's noun is no complement
    before = _person(words[j - 1])
    return j - 1 if before is not None and before[2] == 2 else None


def _agreement(words: Sequence[str], head: int) -> str | None:
    """The person's gender from a title or adjective inside the noun phrase, before the head, or None."""
    for j in range(head - 1, max(-1, head - 3), -1):
        if words[j] in TITLES:
            return TITLES[words[j]]  # "pani doktor"
    if head > 0:
        adjectives = [r for r in analyses(words[head - 1]) if r[0] == "adj" and "sg" in r[1]]
        genders = set().union(*(r[3] for r in adjectives)) if adjectives else set()
        if genders == {"f"}:
            return "female"  # "nowa dyrektor"
    return None


def read(tokens: Sequence[str], positions: Sequence[int]) -> str:
    """Gender of the aligned Polish entity.

    Examples
    --------
    >>> from stats_mtbias.alignment import tokenize
    >>> tokens = tokenize("Pani dyrektor powiedziała sprzątaczowi, że wróci.")
    >>> read(tokens, [1]), read(tokens, [3])
    ('female', 'male')
    """
    words = [t.lower() for t in tokens]
    content = [j for j in sorted(positions) if tokens[j].isalpha() and len(words[j]) > 2 and words[j] not in FUNCTION]
    titles = [TITLES[words[j]] for j in content if words[j] in TITLES]
    if titles:
        return vote(titles)  # "panią szeryf": the title is inside the noun phrase
    people = {}
    for j in content:
        head = _complement_of(words, j)
        j = j if head is None else head  # "pracownik obsługi": the complement's head
        found = _person(words[j])
        if found is not None:
            people[j] = found
    if not people:
        return "unknown"
    # The surest nouns: an adjective (sprzątający) or a word that is also one (nowym) only where no plain noun is.
    best = max(rank for _, _, rank in people.values())
    chosen = {j: g for j, g in people.items() if g[2] == best}
    gender = vote([g for g, _, _ in chosen.values()])
    if gender == "male":
        agreed = _agreement(words, min(chosen))
        if agreed is not None:
            return agreed
    return gender


LANGUAGE = Language(
    code="pl",
    name="Polish",
    read=read,
    requires=("morfeusz2>=1.99",),
    indefinite=frozenset(
        {
            "ktoś",
            "kogoś",
            "komuś",
            "kimś",
            "osoba",
            "osoby",
            "osobie",
            "osobę",
            "osobą",
            "dziecko",
            "dziecka",
            "dziecku",
            "dzieckiem",
            "ofiara",
            "ofiary",
            "ofierze",
            "ofiarę",
            "ofiarą",
        }
    ),
    alignment_stem=5,
    separators=frozenset("/("),
    suffixes=frozenset({"ka", "ki", "czka", "yni", "ini", "czyni", "a", "owa"}),
    conjunctions=frozenset({"lub", "albo", "czy", "i", "oraz"}),
    note_letters=frozenset("kmx"),
    determiners={"pan": "male", "pana": "male", "panu": "male", "panem": "male", "pani": "female", "panią": "female"},
    varieties=frozenset({"szl", "csb"}),
)

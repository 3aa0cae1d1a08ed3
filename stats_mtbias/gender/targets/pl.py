"""Polish: Morfeusz 2 (SGJP dictionary, in the ``morfeusz2`` wheel) noun gender, with agreement.

Morfeusz analyses every form of the aligned word: a noun (``subst``) in the
masculine personal gender ``m1`` (lekarz, lekarza, kierowca, księgowy) is male,
in the feminine ``f`` (lekarka, lekarce, pielęgniarką, księgowa) female; an
adjectival noun Morfeusz knows only as an adjective (sprzątający/sprzątająca)
reads by the adjective's gender; neuters (dziecko) give no reading. Polish
often names a woman with the masculine title noun (dyrektor, prezes, doktor,
sędzia) and shows her gender by agreement, so where the noun is masculine or
both (sędzia):

- "pani" before the noun is female ("pani doktor"), "pan" male;
- an adjective right before it that can only be feminine is female ("nowa dyrektor");
- in the nominative, a past-tense verb after it in its clause agrees with the
  person ("dyrektor powiedziała"), as in the Russian reader; the scan stops at
  punctuation and conjunctions (że, bo, i, który …).

Words Morfeusz does not know (``ign``) fall back to the suffixes of agent nouns
(-ka, -czyni, -ini, -owa: feminine; -arz, -erz, -nik, -ista, -or, -er, -ant,
-ent, -log, -ca: masculine). "ktoś", "osoba", "dziecko" and "ofiara" are neutral
(:data:`stats_mtbias.gender.targets.INDEFINITE`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from stats_mtbias.gender.targets import vote

FUNCTION = frozenset(
    "a i oraz ale że bo ponieważ aby żeby gdy kiedy się w we z ze do od na o u po przy za przed między nad pod dla "
    "który która które którego której jego jej ich on ona ono oni mu jemu go ją to ten ta tę tego tej jak też już nie".split()
)
CLAUSE_BREAKS = frozenset("a i oraz ale że bo ponieważ aby żeby gdy kiedy lub albo czy który która które którego której".split())
TITLES = {"pani": "female", "panią": "female", "paniom": "female", "pan": "male", "pana": "male", "panu": "male",
          "panem": "male"}  # fmt: skip
_MALE_GENDERS = frozenset({"m1", "m2", "m3"})
FEMININE_SUFFIXES = ("ka", "ki", "ce", "kę", "ką", "czyni", "czynię", "czynią", "ini", "yni", "owa", "ową", "owej")
MASCULINE_SUFFIXES = ("arz", "erz", "nik", "ista", "or", "er", "ant", "ent", "log", "ca", "arza", "erza", "nika", "isty",
                      "ora", "era", "anta", "enta", "loga", "cy", "owi")  # fmt: skip


@lru_cache(maxsize=1)
def _morfeusz():
    try:
        import morfeusz2
    except ImportError:
        from stats_mtbias.errors import UsageError

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


def noun_gender(word: str) -> tuple[str, bool]:
    """(gender, may be nominative) of `word` as a Polish person noun: ``male``, ``female``, ``ambiguous`` or ``unknown``.

    ``ambiguous``: forms of both genders (sędzia; analityka, "analytics" or the
    genitive of analityk), which agreement may settle.

    Examples
    --------
    >>> noun_gender("pielęgniarce"), noun_gender("kierowcy"), noun_gender("sędzia")
    (('female', False), ('male', False), ('ambiguous', True))
    """
    readings = analyses(word.lower()) or analyses(word)
    nouns = [r for r in readings if r[0] in ("subst", "depr") and "sg" in r[1]] or [
        r for r in readings if r[0] in ("subst", "depr")
    ]
    chosen = nouns or [r for r in readings if r[0] == "adj" and "sg" in r[1]]
    if chosen:
        genders = set().union(*(r[3] for r in chosen))
        # A person: the masculine personal gender where the noun also has an inanimate homograph (kierowca, m1).
        if "m1" in genders and genders & {"m2", "m3"} and nouns:
            genders -= {"m2", "m3"}
        nominative = any("nom" in r[2] for r in chosen)
        return _gender(genders), nominative
    low = word.lower()
    if any(r[0] == "ign" for r in readings):
        if low.endswith(FEMININE_SUFFIXES):
            return "female", low.endswith(("ka", "czyni", "ini", "yni", "owa"))
        if low.endswith(MASCULINE_SUFFIXES):
            return "male", not low.endswith(("a", "y", "owi")) or low.endswith("ca")
    return "unknown", False


def _agreement(tokens: Sequence[str], head: int, last: int, nominative: bool) -> str | None:
    """The person's gender from the words that agree with the noun, or None."""
    words = [t.lower() for t in tokens]
    for j in range(head - 1, max(-1, head - 3), -1):
        if words[j] in TITLES:
            return TITLES[words[j]]  # "pani doktor"
    if head > 0:
        adjectives = [r for r in analyses(words[head - 1]) if r[0] == "adj" and "sg" in r[1]]
        genders = set().union(*(r[3] for r in adjectives)) if adjectives else set()
        if genders == {"f"}:
            return "female"  # "nowa dyrektor"
    if nominative:
        for j in range(last + 1, min(len(tokens), last + 4)):
            if not tokens[j].isalpha() or words[j] in CLAUSE_BREAKS:
                break
            verbs = [r for r in analyses(words[j]) if r[0] == "praet" and "sg" in r[1]]
            if verbs:
                gender = _gender(set().union(*(r[3] for r in verbs)))
                return gender if gender in ("male", "female") else None
    return None


def read(tokens: Sequence[str], positions: Sequence[int]) -> str:
    """Gender of the aligned Polish entity.

    Examples
    --------
    >>> from stats_mtbias.alignment import tokenize
    >>> tokens = tokenize("Dyrektor powiedziała sprzątaczowi, że wróci.")
    >>> read(tokens, [0]), read(tokens, [2])
    ('female', 'male')
    """
    content = [j for j in sorted(positions) if tokens[j].isalpha() and tokens[j].lower() not in FUNCTION]
    readings = [(j, *noun_gender(tokens[j])) for j in content]
    readings = [r for r in readings if r[1] != "unknown"]
    if not readings:
        return "unknown"
    head = readings[0][0]
    gender = vote([g for _, g, _ in readings if g in ("male", "female")]) if any(
        g in ("male", "female") for _, g, _ in readings) else "unknown"  # fmt: skip
    if gender in ("male", "unknown"):
        agreed = _agreement(tokens, head, max(j for j, _, _ in readings), any(n for _, _, n in readings))
        if agreed is not None and (gender == "unknown" or agreed == "female" or agreed == "male"):
            return agreed
    return gender

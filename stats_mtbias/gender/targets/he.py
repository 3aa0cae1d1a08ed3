"""Hebrew (best effort): word forms of the aligned noun, after clitic prefixes.

Hebrew writes no vowels, so this reader is a word-form heuristic, documented as such:

- -ית, -ת and -ה endings read as feminine (מזכירה, עוזרת, יועצת, אחות, ספרנית),
  except the masculine nouns that end in ת (שרת, "janitor"; מתכנת, "programmer");
- a noun ending in -ה in the construct state (followed by a ה-word: "רואה החשבון",
  "accountant") is masculine, since a feminine -ה becomes -ת there ("רואת החשבון");
  -ת in the construct state is feminine ("פקידת הקבלה");
- other words read as masculine (מנהל, נהג, מנכ"ל);
- nouns written alike in both genders (מורה, מנקה, אופה, ממונה: participles of
  roots ending in ה) take the gender of the third-person pronouns of the sentence
  (הוא/לו/אותו/שלו … against היא/לה/אותה/שלה …, prefixes stripped), as a
  reader of the unvowelled text would; ``unknown`` when there are none or both;
- the accusative marker and prepositions the aligner links to the entity are skipped.
"""

from __future__ import annotations

from collections.abc import Sequence

from stats_mtbias.gender.targets import strip_prefix, vote
from stats_mtbias.gender.targets._language import Language

_PREFIXES = ("וכש", "כשה", "וה", "שה", "מה", "לה", "בה", "כש", "ה", "ו", "ל", "ב", "מ", "ש", "כ")
# Written alike in both genders (the feminine differs only in its vowels).
AMBIGUOUS = frozenset({"מורה", "מנקה", "אופה", "ממונה", "רואה", "מנחה", "בונה", "קונה", "מרצה"})
MASCULINE_T = frozenset({"שרת", "משרת", "מתכנת"})
# Function words an aligner often links to the entity: the accusative marker and prepositions.
FUNCTION_WORDS = frozenset({"את", "עם", "על", "של", "אל", "כי", "גם", "או", "עד", "בין"})
PRONOUNS = {
    **dict.fromkeys(("הוא", "לו", "אותו", "שלו", "ממנו", "עליו", "אליו", "בו", "איתו", "אתו", "כמוהו", "עמו", "לעצמו"), "male"),
    **dict.fromkeys(("היא", "לה", "אותה", "שלה", "ממנה", "עליה", "אליה", "בה", "איתה", "אתה", "כמוה", "עמה", "לעצמה"), "female"),
}


def _stem(word: str) -> str:
    return strip_prefix(word, _PREFIXES)


def _pronoun(word: str) -> str | None:
    if word in PRONOUNS:
        return PRONOUNS[word]
    for prefix in ("וכש", "כש", "ש", "ו"):  # "שהוא", "כשהיא", "ולו"
        if word.startswith(prefix) and word[len(prefix) :] in PRONOUNS:
            return PRONOUNS[word[len(prefix) :]]
    return None


def _from_pronouns(tokens: Sequence[str], skip: set[int]) -> str:
    found = {g for j, t in enumerate(tokens) if j not in skip and (g := _pronoun(t)) is not None}
    return found.pop() if len(found) == 1 else "unknown"


def _construct_head(tokens: Sequence[str], j: int) -> bool:
    """Construct state: the head takes no article, its complement does ("רואה החשבון", not "הממונה התפעל")."""
    bare = strip_prefix(tokens[j], ("ו", "ל", "ב", "מ", "ש", "כ"))
    return not bare.startswith("ה") and j + 1 < len(tokens) and tokens[j + 1].startswith("ה")


def read(tokens: Sequence[str], positions: Sequence[int]) -> str:
    """Gender of the aligned Hebrew entity (best effort)."""
    signals = []
    heads = {j for j in positions if tokens[j] not in FUNCTION_WORDS and _construct_head(tokens, j)}
    for j in positions:
        if tokens[j] in FUNCTION_WORDS or j - 1 in heads:  # the complement of a construct ("המכירות") is not the entity
            continue
        word = _stem(tokens[j])
        if len(word) < 2 or not word.replace('"', "").replace("״", "").isalpha():
            continue
        if word.endswith("ה") and j in heads:
            signals.append("male")  # "רואה החשבון": a feminine -ה would be -ת in the construct state
        elif word in AMBIGUOUS:
            signals.append(_from_pronouns(tokens, set(positions)))
        elif word.endswith(("ית", "ה")) or (word.endswith("ת") and word not in MASCULINE_T):
            signals.append("female")
        else:
            signals.append("male")
    return vote(signals)


LANGUAGE = Language(
    code="he",
    name="Hebrew",
    read=read,
    separators=frozenset("/("),
    suffixes=frozenset({"ת", "ה", "ית"}),
    conjunctions=frozenset({"או"}),
    varieties=frozenset({"yi"}),
)

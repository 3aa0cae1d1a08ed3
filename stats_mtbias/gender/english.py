"""Gender of an English output (X → English studies: TGBI, Prates).

Two rules:

``"cho2019"``
    The TGBI authors' cue lists and precedence: lower-case the text, split it into
    words (apostrophes kept, so ``she's`` is one word); if any word is on the
    female list (she, her, hers, herself, woman, girl, lady and the contracted
    she's, she'll, she'd) the output is female; otherwise if any is on the male list
    (he, him, his, himself, man, boy, guy, he's, he'll, he'd) it is male; otherwise
    neutral. The female list is checked first, so "He was a woman." is female.

``"default"``
    The package's rule. Text is lower-cased, curly apostrophes straightened and
    split into words at every non-letter, which handles contractions (she's,
    he'll), possessives (woman's), punctuation and case. Personal pronouns decide
    before person nouns (so "She's a food delivery man." is female and "He was a
    woman." male); plural person nouns count (women, men, ladies, gentlemen). When
    both genders occur in the deciding class, a coordination ("he or she",
    "she/he", "s/he", "(s)he", "him and her") makes the output ``both``; otherwise
    the first cue wins, as it is the subject in these templates.

Under both rules an empty output (or None) is ``unknown``; anything without a cue
is ``neutral``.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable

import numpy as np
import pandas as pd

from stats_mtbias.errors import UsageError
from stats_mtbias.schema import GENDERS

FEMALE_PRONOUNS = frozenset({"she", "her", "hers", "herself"})
MALE_PRONOUNS = frozenset({"he", "him", "his", "himself"})
FEMALE_NOUNS = frozenset({"woman", "women", "girl", "girls", "lady", "ladies", "gal", "gals", "mrs", "ms", "madam"})
MALE_NOUNS = frozenset({"man", "men", "boy", "boys", "guy", "guys", "gentleman", "gentlemen", "mr", "sir"})
CHO2019_FEMALE = frozenset({"she", "her", "hers", "herself", "woman", "girl", "lady", "she's", "she'll", "she'd"})
CHO2019_MALE = frozenset({"he", "him", "his", "himself", "man", "boy", "guy", "he's", "he'll", "he'd"})

RULES = ("default", "cho2019")

_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "`": "'"})
_SLASHED = re.compile(r"\(s\)he|s/he|\bshe\s*/\s*he\b|\bhe\s*/\s*she\b")
_CHO_WORD = re.compile(r"[a-z']+")
_COORD = {"or", "and", "/"}


def _cue(word: str, pronouns: bool) -> str | None:
    if pronouns:
        if word in FEMALE_PRONOUNS:
            return "female"
        if word in MALE_PRONOUNS:
            return "male"
    else:
        if word in FEMALE_NOUNS:
            return "female"
        if word in MALE_NOUNS:
            return "male"
    return None


def _default(text: str) -> str:
    text = text.translate(_APOSTROPHES).lower()
    if _SLASHED.search(text):
        return "both"
    tokens = re.findall(r"[a-z]+|/", text)
    for pronouns in (True, False):
        cues = [(i, g) for i, w in enumerate(tokens) if (g := _cue(w, pronouns))]
        genders = {g for _, g in cues}
        if len(genders) == 1:
            return genders.pop()
        if len(genders) == 2:
            # Coordination: two cues of different gender joined by or/and//.
            for (i, gi), (j, gj) in itertools.pairwise(cues):
                if gi != gj and j == i + 2 and tokens[i + 1] in _COORD:
                    return "both"
            return cues[0][1]
    return "neutral"


def _cho2019(text: str) -> str:
    words = set(_CHO_WORD.findall(text.translate(_APOSTROPHES).lower()))
    if words & CHO2019_FEMALE:
        return "female"
    if words & CHO2019_MALE:
        return "male"
    return "neutral"


def classify_english(texts: Iterable[str | None], rule: str = "default") -> np.ndarray:
    """The gender each English output shows.

    Parameters
    ----------
    texts : iterable of str or None
        English outputs; ``None``, NaN and blank strings are ``unknown``.
    rule : {"default", "cho2019"}
        Which cue lists and precedence to use (see the module docstring).

    Returns
    -------
    numpy.ndarray of str
        One of ``female, male, neutral, both, unknown`` per text.
    """
    if rule not in RULES:
        raise UsageError(f"`rule` must be one of {RULES}; got {rule!r}.")
    reader = _default if rule == "default" else _cho2019
    texts = list(texts)
    out = np.empty(len(texts), dtype=object)
    memo: dict[str, str] = {}
    for k, text in enumerate(texts):
        if text is None or (isinstance(text, float) and np.isnan(text)) or not str(text).strip():
            out[k] = "unknown"
            continue
        text = str(text)
        if text not in memo:
            memo[text] = reader(text)
        out[k] = memo[text]
    return out.astype(str)


def compare_rules(texts: Iterable[str | None]) -> pd.DataFrame:
    """Cross-tabulate the two rules: rows ``cho2019``, columns ``default``.

    The off-diagonal cells are the outputs that change class between the rules.
    """
    texts = list(texts)

    cho = pd.Categorical(classify_english(texts, "cho2019"), categories=GENDERS)
    new = pd.Categorical(classify_english(texts, "default"), categories=GENDERS)
    table = pd.crosstab(cho, new, dropna=False)
    table.index.name, table.columns.name = "cho2019", "default"
    return table

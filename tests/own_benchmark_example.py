"""The synthetic "your own benchmark" example shipped in ``data/examples/`` (docs/own-benchmark.md): its generator.

Nothing here is copied from a dataset: every output and label is drawn from a seeded
generator with shares set below, so the example is small, reproducible and free to ship.

- ``own_outputs.csv`` — a TGBI-style Hindi → English benchmark: three systems, three
  sentence sets of 36 lexicon entries each (one entry appears in every set, as in Cho
  et al.), columns ``system, set, item, language, translation`` (324 rows).
- ``own_labels.csv`` — human labels (``M/F/N``) and an LLM judge's labels (words, and
  ``error`` where it failed) of two systems' outputs in Greek and Finnish, columns
  ``language, system, item, human, llm`` (160 rows).

Regenerate (and check nothing else changed) with ``python -m tests.own_benchmark_example``;
``tests/test_own_benchmark_example.py`` fails when the shipped files differ.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

SEED = 33
FOLDER = Path(__file__).resolve().parents[1] / "data" / "examples"
OCCUPATIONS = (
    "doctor",
    "nurse",
    "teacher",
    "engineer",
    "lawyer",
    "cook",
    "cleaner",
    "pilot",
    "farmer",
    "baker",
    "painter",
    "singer",
    "writer",
    "driver",
    "guard",
    "dentist",
    "judge",
    "pharmacist",
    "architect",
    "carpenter",
    "plumber",
    "librarian",
    "surgeon",
    "accountant",
    "cashier",
    "chemist",
    "designer",
    "editor",
    "firefighter",
    "gardener",
    "janitor",
    "mechanic",
    "scientist",
    "secretary",
    "tailor",
    "receptionist",
)
SETS = ("formal_hi", "informal_hi", "occupation_hi")
# (female, male, neutral) shares of each system's outputs per set: the informal set is read more often as female.
SYSTEMS = {
    "mt-base": {"formal_hi": (0.06, 0.90, 0.04), "informal_hi": (0.20, 0.76, 0.04), "occupation_hi": (0.08, 0.88, 0.04)},
    "llm-a": {"formal_hi": (0.22, 0.58, 0.20), "informal_hi": (0.32, 0.48, 0.20), "occupation_hi": (0.25, 0.55, 0.20)},
    "llm-b": {"formal_hi": (0.15, 0.75, 0.10), "informal_hi": (0.28, 0.62, 0.10), "occupation_hi": (0.18, 0.72, 0.10)},
}
TEMPLATES = {"female": "She is {}.", "male": "He is {}.", "neutral": ("They are {}.", "The {} is here.")}
# Labels: the human's (M/F/N) drawn with these shares; the judge agrees with the human this often, else says another
# label, and fails ("error") on a few.
LABEL_SHARES = (0.35, 0.50, 0.15)
JUDGE_AGREES = {"el": 0.88, "fi": 0.74}
JUDGE_ERRORS = 0.03
LABELS_PER_CELL = 40


def _article(noun: str) -> str:
    return "an" if noun[0] in "aeiou" else "a"


def outputs(seed: int = SEED) -> pd.DataFrame:
    """The TGBI-style benchmark: one English output per system, set and lexicon entry."""
    rng = np.random.default_rng([seed, 1])
    rows = []
    for system, shares in SYSTEMS.items():
        for name in SETS:
            genders = rng.choice(["female", "male", "neutral"], p=shares[name], size=len(OCCUPATIONS))
            which = rng.integers(0, 2, size=len(OCCUPATIONS))
            for occupation, gender, k in zip(OCCUPATIONS, genders, which):
                template = TEMPLATES[gender] if gender != "neutral" else TEMPLATES["neutral"][k]
                noun = occupation if template.startswith("The") else f"{_article(occupation)} {occupation}"
                rows.append((system, name, occupation, "hi", template.format(noun)))
    return pd.DataFrame(rows, columns=["system", "set", "item", "language", "translation"])


def labels(seed: int = SEED) -> pd.DataFrame:
    """Human and LLM-judge labels of two systems' outputs in two languages."""
    rng = np.random.default_rng([seed, 2])
    words = {"M": "male", "F": "female", "N": "neutral"}
    rows = []
    for language, agrees in JUDGE_AGREES.items():
        for system in ("llm-a", "llm-b"):
            human = rng.choice(["F", "M", "N"], p=LABEL_SHARES, size=LABELS_PER_CELL)
            same = rng.random(LABELS_PER_CELL) < agrees
            failed = rng.random(LABELS_PER_CELL) < JUDGE_ERRORS
            other = rng.integers(1, 3, size=LABELS_PER_CELL)
            for i in range(LABELS_PER_CELL):
                order = ["F", "M", "N"]
                judge = human[i] if same[i] else order[(order.index(human[i]) + other[i]) % 3]
                rows.append((language, system, i + 1, human[i], "error" if failed[i] else words[judge]))
    return pd.DataFrame(rows, columns=["language", "system", "item", "human", "llm"])


FILES = {"own_outputs.csv": outputs, "own_labels.csv": labels}


def write(folder: Path = FOLDER, seed: int = SEED) -> list[Path]:
    """Write the example files into `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, make in FILES.items():
        path = folder / name
        make(seed).to_csv(path, index=False, lineterminator="\n")
        written.append(path)
    return written


if __name__ == "__main__":
    for path in write():
        print(path)

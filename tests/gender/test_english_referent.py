"""The English reader with a bracketed referent (issue 46): two-person sentences read for the asked-about person."""

import numpy as np
import pytest

from stats_mtbias.gender.english import bracketed, classify_english, classify_english_referent, read_referent

# (male, female) mentions of two people of different gender: kinship, titles, occupations, names.
PAIRS = [
    ("the king", "the queen"),
    ("Uncle Ben", "his aunt"),
    ("Sir William", "Lady Davis"),
    ("Mr Brown", "Mrs Green"),
    ("the father", "the mother"),
    ("the actor", "the actress"),
    ("her husband", "the wife"),
    ("the grandfather", "the granddaughter"),
]
# A sentence naming both, then a clause about one of them: (reference slot, verb in the reference, verb after he/she).
FRAMES = [
    ("{a} and {b} were walking, and {slot} tripped over a stone.", "one", "tripped", "tripped"),
    ("{a} is a fisherman and {b} is a florist. {slot} arrange flowers.", "They", "arrange", "arranges"),
    ("{a} met {b} at the station; {slot} had won an award.", "they", "had", "had"),
]
VARIANTS = ("pronoun", "swapped", "they", "noun", "dropped")


def _sentence(frame: str, a: str, b: str, slot: str, verb: str, new_verb: str) -> str:
    text = frame.format(a=a, b=b, slot=slot).replace(f"{slot} {verb}", f"{slot} {new_verb}")
    return text[0].upper() + text[1:]


def two_person_set(seed: int = 46) -> list[tuple[str, str, str, str]]:
    """``(variant, reference, output, expected gender)``: 8 pairs × 5 variants, frame and referent drawn by `seed`."""
    rng = np.random.default_rng(seed)
    rows = []
    for male, female in PAIRS:
        for variant in VARIANTS:
            frame, slot, verb, verb_3sg = FRAMES[rng.integers(len(FRAMES))]
            first_male = bool(rng.integers(2))
            a, b = (male, female) if first_male else (female, male)
            gender = ("male", "female")[rng.integers(2)]  # whom the clause is about
            reference = _sentence(frame, a, b, f"[{slot}]", verb, verb)
            pronoun = "he" if gender == "male" else "she"
            upper = frame.index("{slot}") == 0 or frame[frame.index("{slot}") - 2] == "."
            if variant == "pronoun":
                output = _sentence(frame, a, b, pronoun.capitalize() if upper else pronoun, verb, verb_3sg)
            elif variant == "swapped":
                output = _sentence(frame, b, a, pronoun.capitalize() if upper else pronoun, verb, verb_3sg)
            elif variant == "they":
                output, gender = _sentence(frame, a, b, slot, verb, verb), "neutral"
            elif variant == "noun":
                noun = male if gender == "male" else female
                output = _sentence(frame, a, b, noun[0].upper() + noun[1:] if upper else noun, verb, verb_3sg)
            else:  # the output leaves the clause out
                output, gender = frame.format(a=a, b=b, slot="").split(", and")[0].split(".")[0].split(";")[0], "unknown"
                output = output[0].upper() + output[1:] + "."
            rows.append((variant, reference, output, gender))
    return rows


def test_two_person_set_read_right():
    """Accuracy on the 40 generated two-person sentences: the one-person reader about half, the bracketed ≥ 95%."""
    rows = two_person_set()
    assert len(rows) == 40 and {r[3] for r in rows} == {"female", "male", "neutral", "unknown"}
    references = [r[1] for r in rows]
    outputs = [r[2] for r in rows]
    expected = np.array([r[3] for r in rows])
    old = classify_english(outputs)
    new, reason, why = classify_english_referent(outputs, references)
    old_accuracy, new_accuracy = (old == expected).mean(), (new == expected).mean()
    wrong = [(r, g) for r, g in zip(rows, new, strict=True) if g != r[3]]
    assert new_accuracy >= 0.95, wrong
    assert old_accuracy <= 0.6  # the first cue anywhere: the wrong person, a dropped clause read as neutral
    assert (reason == "referent_dropped").sum() == (expected == "unknown").sum()
    assert all(w for w in why)


@pytest.mark.parametrize(
    ("output", "reference", "gender", "reason", "why"),
    [
        (
            "Sir William met Lady Davis at the station; she has won an award.",
            "Sir William met Lady Davis at the station; [one] has won an award.",
            "female",
            "",
            "'she' for [one]",
        ),
        (
            "Uncle Ben is a fisherman and his aunt is a florist. She arranges flowers.",
            "Uncle Ben is a fisherman and his aunt is a florist. [They] arrange flowers.",
            "female",
            "",
            "'she' for [they]",
        ),
        (  # the bracket on the possessed noun: his aunt is the aunt
            "Uncle Ben is a fisherman and his aunt is a florist.",
            "Uncle Ben is a fisherman and [his aunt] is a florist.",
            "female",
            "",
            "'aunt' for [his aunt]",
        ),
        (
            "The king and the queen were walking, he or she tripped over a stone.",
            "The king and the queen were walking, [one] tripped over a stone.",
            "both",
            "",
            "'he or she' for [one]",
        ),
        (
            "The king and the queen were walking, one of them tripped over a stone.",
            "The king and the queen were walking, [one] tripped over a stone.",
            "neutral",
            "",
            "'one' for [one]",
        ),
        (  # a subject dropped inside the clause: no word stands for the referent
            "The king and the queen were walking and tripped over a stone.",
            "The king and the queen were walking, [one] tripped over a stone.",
            "unknown",
            "referent_dropped",
            "[one]: not in the output",
        ),
        (  # two mentions of the referent: the one that shows a gender
            "Lady Davis and Sir William met; they said he had won.",
            "Lady Davis and Sir William met; [they] said [they] had won.",
            "male",
            "",
            "'he' for [they]",
        ),
    ],
)
def test_slot_read(output, reference, gender, reason, why):
    assert read_referent(output, reference) == (gender, reason, why)


def test_cho2019_rule_reads_the_slot():
    reference = "The king and the queen were walking, [one] tripped over a stone."
    output = "The king and the queen were walking, he tripped over a stone."
    assert read_referent(output, reference, "cho2019")[0] == "male"
    assert classify_english([output], "cho2019")[0] == "male"
    assert read_referent("Lady Davis met him; he won.", "Lady Davis met him; [they] won.", "cho2019")[0] == "male"


ONE_PERSON = ["She's a doctor.", "He was a woman.", "They are a doctor.", "He or she is a doctor.", "", None, "SHE IS A NURSE"]


@pytest.mark.parametrize("rule", ["default", "cho2019"])
def test_without_brackets_nothing_changes(rule):
    references = [None, "", "A doctor.", float("nan"), "x", "y", "z"]
    gender, reason, why = classify_english_referent(ONE_PERSON, references, rule)
    assert gender.tolist() == classify_english(ONE_PERSON, rule).tolist()
    assert set(reason) == {""} and set(why) == {""}


def test_one_person_with_brackets_agrees():
    outputs = ["She's a doctor.", "He is a nurse.", "They are a doctor."]
    references = ["[They]'re a doctor.", "[They] are a nurse.", "[They] are a doctor."]
    assert classify_english_referent(outputs, references)[0].tolist() == classify_english(outputs).tolist()


def test_bracketed_positions():
    words, spans = bracketed("[Sir William] and Lady Davis met; [one] won.")
    assert [[words[k] for k in span] for span in spans] == [["sir", "william"], ["one"]]


@pytest.mark.parametrize("reference", ["[one tripped.", "one] tripped.", "[] tripped.", "[[one]] tripped.", "[,] x"])
def test_bad_brackets_named(reference):
    with pytest.raises(ValueError, match="row 1"):
        classify_english_referent(["He tripped.", "She tripped."], [None, reference])


def test_empty_output_stays_unknown():
    gender, reason, _ = classify_english_referent(["", None], ["[One] tripped.", "[One] tripped."])
    assert gender.tolist() == ["unknown", "unknown"] and reason.tolist() == ["", ""]

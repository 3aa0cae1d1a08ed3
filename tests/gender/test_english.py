import pytest

from stats_mtbias.gender.english import classify_english, compare_rules

CASES = [
    # text, default, cho2019
    ("She's a doctor.", "female", "female"),
    ("He'll be a teacher", "male", "male"),
    ("SHE IS A NURSE", "female", "female"),
    ("She’s kind.", "female", "female"),  # curly apostrophe
    ("The woman's a doctor.", "female", "neutral"),  # possessive/contraction of a noun
    ("Women are engineers.", "female", "neutral"),  # plural person noun
    ("The men are tired.", "male", "neutral"),
    ("He or she is a doctor.", "both", "female"),
    ("s/he is a lawyer", "both", "male"),
    ("(S)he is a lawyer", "both", "male"),
    ("His or her job", "both", "female"),
    ("She's a food delivery man.", "female", "female"),  # pronoun decides before noun
    ("He was a woman.", "male", "female"),  # authors check female first
    ("They are a doctor.", "neutral", "neutral"),
    ("That person is excellent.", "neutral", "neutral"),
    ("The theme is heroic.", "neutral", "neutral"),  # 'he' inside words is not a cue
    ("", "unknown", "unknown"),
    ("   ", "unknown", "unknown"),
    (None, "unknown", "unknown"),
]


@pytest.mark.parametrize(("text", "default", "cho"), CASES)
def test_rules(text, default, cho):
    assert classify_english([text])[0] == default
    assert classify_english([text], rule="cho2019")[0] == cho


def test_compare_rules_counts_changes():
    texts = [c[0] for c in CASES]
    table = compare_rules(texts)
    changed = table.to_numpy().sum() - table.to_numpy().trace()
    assert changed == sum(c[1] != c[2] for c in CASES)
    assert table.loc["female", "male"] == 1  # "He was a woman."


def test_unknown_rule_rejected():
    with pytest.raises(ValueError, match="`rule`"):
        classify_english(["x"], rule="nope")

"""Issue 34, item 1: one warning when the options leave p_adjusted no way below α (numbers and what to change)."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import stats_mtbias as smb
from stats_mtbias.errors import DataQualityWarning
from stats_mtbias.studies._common import adjust, permutation_floor, unreachable_significance

TEXT = {"female": "She is tired{}.", "male": "He is tired{}.", "neutral": "They are tired{}."}
SETS = ("set_one", "set_two", "set_three")


def _outputs(shares, n=40, seed=2, sets=SETS) -> pd.DataFrame:
    """A benchmark of one's own: each system's outputs drawn with its (female, male, neutral) shares."""
    rng = np.random.default_rng(seed)
    rows = []
    for system, p in shares.items():
        for name in sets:
            genders = rng.choice(["female", "male", "neutral"], size=n, p=p)
            rows += [(system, name, f"w{i}", TEXT[g].format(f" {name} {i}")) for i, g in enumerate(genders)]
    return pd.DataFrame(rows, columns=["system", "set", "item", "translation"])


DIFFERENT = {"a": (0.45, 0.45, 0.1), "b": (0.05, 0.9, 0.05), "c": (0.2, 0.7, 0.1)}


def _reach_warnings(caught) -> list[str]:
    return [str(w.message) for w in caught if issubclass(w.category, DataQualityWarning) and "out of reach" in str(w.message)]


def test_the_smallest_attainable_p_adjusted_is_the_correction_of_the_floors():
    frame = adjust(pd.DataFrame({"language": "de", "subset": "all", "metric": "acc", "p_value": [0.5] * 10}), "holm")
    with pytest.warns(DataQualityWarning, match=r"smallest attainable p_adjusted is 0\.0999 ≥ α = 0\.05 \(Holm over 10"):
        message = unreachable_significance(frame, 1 / 100.1, alpha=0.05, correction="holm", resamples=("n_permutations", 99))
    # Holm needs 10 / (B + 1) ≤ α/10: 2,000 resamples.
    assert "n_permutations ≥ 2,000" in message and "against=" in message
    # Benjamini–Hochberg: min_k m f_(k) / k = the floor itself when every comparison could sit at it.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert unreachable_significance(frame, 1 / 100.1, alpha=0.05, correction="bh") is None
        assert unreachable_significance(frame, 0.0, alpha=0.05, correction="holm") is None
    with pytest.warns(DataQualityWarning, match="even an exact test cannot"):
        unreachable_significance(frame, 0.25, alpha=0.05, correction="none", data_floor=0.25, resamples=("n", 10**6))
    assert permutation_floor([0, 1, 2, 6]).tolist() == [1.0, 1.0, 0.5, 2.0**-5]


def test_tgbi_permutations_too_few_for_the_family_warn_once_with_the_numbers():
    outputs = _outputs(DIFFERENT)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = smb.tgbi(outputs=outputs, test="permutation", n_permutations=100, family="all")
    found = _reach_warnings(caught)
    assert len(found) == 1, found
    message = found[0]
    # 3 pairs x 4 rows (3 sets and the index) in one family: Holm's smallest p_adjusted is 12 / 101.
    assert "0.119 ≥ α = 0.05" in message and "Holm over 12 comparisons" in message and "n_permutations=100" in message
    assert "n_permutations ≥ 5,000" in message and "test='interval'" in message and "family='metric'" in message
    assert message in res.notes
    cmp = res.compare()
    assert cmp["p_adjusted"].min() >= 0.05  # what the warning foretold
    # The cure it names: enough permutations, and the large differences come out significant.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = smb.tgbi(outputs=outputs, test="permutation", n_permutations=5000, family="all")
    assert not _reach_warnings(caught)
    assert (res.compare()["p_adjusted"] < 0.05).any()


def test_tgbi_default_family_and_the_default_test_do_not_warn():
    outputs = _outputs(DIFFERENT)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        smb.tgbi(outputs=outputs, test="permutation", n_permutations=100)  # 3 a family: 3/101 < .05
        smb.tgbi(outputs=outputs, family="all")  # analytic p-values: no floor
    assert not _reach_warnings(caught)


def test_tgbi_few_discordant_items_no_number_of_permutations_helps():
    outputs = _outputs({"a": (0.3, 0.6, 0.1)}, n=20)
    other = outputs.assign(system="b")
    changed = other.index[(other["item"].isin(["w0", "w1", "w2"])) & (other["set"] == "set_one")]
    other.loc[changed, "translation"] = "They are fine."
    with pytest.warns(DataQualityWarning, match="even an exact test cannot reach it") as record:
        smb.tgbi(outputs=pd.concat([outputs, other]), test="permutation", n_permutations=100_000)
    message = next(str(w.message) for w in record if "out of reach" in str(w.message))
    assert "n_permutations ≥" not in message  # more permutations would not help


def test_prates_sign_tests_on_tiny_categories_warn(data_dir):
    # Two occupations per category: a one-sided sign test cannot go below 1/4.
    rows = [(f"occ{c}{i}", "xx", f"cat{c}", "male") for c in range(3) for i in range(2)]
    judgements = pd.DataFrame(rows, columns=["item", "language", "category", "gender"])
    with pytest.warns(DataQualityWarning, match=r"Prates one-sided sign tests.*out of reach.*test='ttest'"):
        smb.prates(judgements, by="category", data_dir=data_dir)

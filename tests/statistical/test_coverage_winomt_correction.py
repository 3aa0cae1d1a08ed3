"""Acc corrected for misreading: hand-computed value and interval coverage by simulation."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from stats_mtbias.studies.winomt import corrected_accuracy


def _pairs(language, gold, human, automatic, system="s"):
    return pd.DataFrame({"system": system, "language": language, "item": range(len(gold)), "gold": gold,
                         "human": human, "automatic": automatic})  # fmt: skip


def test_corrected_accuracy_by_hand():
    # Automatic right on 4 labelled rows (human agrees on 3), wrong on 2 (human right on 1).
    gold = ["male"] * 6
    automatic = ["male", "male", "male", "male", "female", "unknown"]
    human = ["male", "male", "male", "female", "male", "female"]
    est = pd.DataFrame({"system": ["s", "t"], "language": ["de", "de"], "n": [100, 200], "acc": [50.0, 80.0]})
    labelled = pd.concat([_pairs("de", gold, human, automatic, "s"), _pairs("de", gold, human, automatic, "t")])
    out = corrected_accuracy(est, labelled, n_draws=2000, rng=1)
    assert out["acc_corrected"].tolist() == pytest.approx([100 * (0.5 * 0.75 + 0.5 * 0.5), 100 * (0.8 * 0.75 + 0.2 * 0.5)])
    assert out["p_human_correct_given_auto_correct"].tolist() == [75.0, 75.0]
    assert out["p_human_correct_given_auto_wrong"].tolist() == [50.0, 50.0]
    assert (out["ci_low"] < out["acc_corrected"]).all() and (out["acc_corrected"] < out["ci_high"]).all()
    # Same seed, same numbers; a language without labels gets no row.
    again = corrected_accuracy(est, labelled, n_draws=2000, rng=1)
    pd.testing.assert_frame_equal(out, again)
    assert corrected_accuracy(est, _pairs("fr", gold, human, automatic)).empty
    # No wrong automatic reading in the sample: nothing to correct with, said as NaN rather than guessed.
    none_wrong = corrected_accuracy(est, _pairs("de", gold[:4], human[:4], automatic[:4]))
    assert none_wrong["acc_corrected"].isna().all()
    assert "all read right" in none_wrong["labels"].iloc[0]


def test_a_system_is_corrected_only_with_its_own_labels():
    gold = ["male"] * 6
    automatic = ["male", "male", "male", "male", "female", "unknown"]
    human = ["male", "male", "male", "female", "male", "female"]
    est = pd.DataFrame({"system": ["s", "t"], "language": ["de", "de"], "n": [100, 200], "acc": [50.0, 80.0]})
    out = corrected_accuracy(est, _pairs("de", gold, human, automatic, "s"), n_draws=500, rng=1).set_index("system")
    assert out.loc["s", "acc_corrected"] == pytest.approx(100 * (0.5 * 0.75 + 0.5 * 0.5))
    assert np.isnan(out.loc["t", "acc_corrected"]) and out.loc["t", "n_labelled"] == 0
    assert out.loc["t", "labels"] == "none of t's translations: not corrected"
    with pytest.raises(ValueError, match="`system` column"):
        corrected_accuracy(est, _pairs("de", gold, human, automatic).drop(columns="system"))


def _system(rng, n_items, human_acc, keep_right, turn_wrong):
    """One system's items: human-correct flags and an automatic reader that keeps/turns them at the given rates."""
    human_right = rng.random(n_items) < human_acc
    auto_right = np.where(human_right, rng.random(n_items) < keep_right, rng.random(n_items) < turn_wrong)
    return human_right, auto_right


def test_systems_of_different_accuracy_each_with_its_own_labels():
    """Two systems, one read well and one badly (a garbled output the reader mostly misreads), 100 labels each.

    Corrected with their own labels both intervals cover the accuracy people would give; correcting the second
    with the first one's confusion (what the package did before) misses it almost always.
    """
    rng = np.random.default_rng(11)
    n_items, n_label, reps = 3888, 100, 300
    own, borrowed = np.zeros(2), 0
    for rep in range(reps):
        truths, rows, pairs = [], [], []
        for name, (acc, keep, turn) in {"a": (0.6, 0.9, 0.1), "b": (0.75, 0.45, 0.05)}.items():
            human_right, auto_right = _system(rng, n_items, acc, keep, turn)
            truths.append(100 * human_right.mean())
            rows.append({"system": name, "language": "xx", "n": n_items, "acc": 100 * auto_right.mean()})
            sample = rng.choice(n_items, n_label, replace=False)
            gold = np.full(n_label, "male", dtype=object)
            pairs.append(_pairs("xx", gold, np.where(human_right[sample], "male", "female"),
                                np.where(auto_right[sample], "male", "female"), name))  # fmt: skip
        est = pd.DataFrame(rows)
        out = corrected_accuracy(est, pd.concat(pairs), n_draws=2000, rng=rep)
        own += ((out["ci_low"] <= truths) & (truths <= out["ci_high"])).to_numpy()
        wrong = corrected_accuracy(est, pairs[0].assign(system="b"), n_draws=2000, rng=rep)
        borrowed += bool(wrong.iloc[1]["ci_low"] <= truths[1] <= wrong.iloc[1]["ci_high"])
    assert (own / reps >= 0.92).all(), own / reps
    assert borrowed / reps < 0.2


def test_corrected_accuracy_interval_covers_the_human_accuracy():
    """A reader that is right 85% of the time; 100 labelled rows; 3,888 items; target: Acc as people read it."""
    rng = np.random.default_rng(7)
    n_items, n_label, reps = 3888, 100, 400
    covered = 0
    for rep in range(reps):
        human_acc = rng.uniform(0.4, 0.7)
        human_right = rng.random(n_items) < human_acc
        # The reader keeps a right reading with prob. .88 and turns a wrong one right with prob. .15.
        auto_right = np.where(human_right, rng.random(n_items) < 0.88, rng.random(n_items) < 0.15)
        gold = np.full(n_items, "male", dtype=object)
        human = np.where(human_right, "male", "female")
        automatic = np.where(auto_right, "male", "female")
        sample = rng.choice(n_items, n_label, replace=False)
        est = pd.DataFrame({"system": ["s"], "language": ["xx"], "n": [n_items], "acc": [100 * auto_right.mean()]})
        pairs = _pairs("xx", gold[sample], human[sample], automatic[sample])
        out = corrected_accuracy(est, pairs, n_draws=2000, rng=rep).iloc[0]
        covered += out["ci_low"] <= 100 * human_acc <= out["ci_high"]
    assert covered / reps >= 0.92

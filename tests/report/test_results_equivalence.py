"""The report's words beside each comparison with a margin: "equivalent within ±δ", "not shown" or "differs"."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import stats_mtbias as smb
from stats_mtbias import plotting
from stats_mtbias.errors import UsageError
from stats_mtbias.report import results as report_results
from stats_mtbias.report.results import comparisons_figures, comparisons_table, shown_comparisons
from stats_mtbias.significance.multitest import adjust_pvalues


@pytest.fixture(scope="module")
def judgements():
    rng = np.random.default_rng(1)
    n = 400
    base = rng.random(n) < 0.5
    flip = lambda p: np.where(rng.random(n) < p, ~base, base)  # noqa: E731
    systems = {"mine": base, "close": flip(0.04), "far": flip(0.45)}
    frame = pd.DataFrame(
        {
            "item": np.tile(np.arange(n), 3),
            "system": np.repeat(list(systems), n),
            "gender": np.where(np.concatenate(list(systems.values())), "female", "male"),
        }
    )
    return frame


@pytest.fixture(scope="module")
def result(judgements):
    return smb.rates(judgements, ci="analytic", against=["mine"])


def test_turned_and_readjusted_rows(judgements):
    """Every pair compared, "close" as yours: the row against mine is turned (its 90% interval with it) and the
    equivalence p-values adjusted again over the rows shown, as p_adjusted is."""
    every = smb.rates(judgements, ci="analytic")
    frame, _ = shown_comparisons(every, ["close"], margin=0.05)
    original = every.compare(margin=0.05).set_index(["system_a", "system_b", "metric"])
    turned = frame.set_index(["system_b", "metric"]).loc[("mine", "female")]
    assert turned["eq_low"] == pytest.approx(-original.loc[("mine", "close", "female"), "eq_high"], abs=1e-12)
    for _, family in frame.groupby("family"):
        assert np.allclose(family["p_equivalent_adjusted"], adjust_pvalues(family["p_equivalent"].to_numpy(), "holm"))


def test_words_beside_each_comparison(result):
    frame, sentence = shown_comparisons(result, ["mine"], margin=0.05)
    table = comparisons_table(result, frame, sentence, ["mine"])
    cells = table.cells.set_index(["compared with", "metric"])
    api = result.compare(margin=0.05).set_index(["system_b", "metric"])
    assert cells.loc[("close", "female (points)"), "equivalence"] == "equivalent within ±5 points"
    assert api.loc[("close", "female"), "verdict"] == "equivalent"
    words = set(cells["equivalence"])
    assert words <= {"equivalent within ±5 points", "not shown", "differs"} and len(words) >= 2
    assert "Equivalence: two one-sided tests" in table.caption and "±5 points" in table.caption
    # The rows shown are the result's own (against=): the same verdicts as compare(margin=).
    mine = frame.set_index(["system_b", "metric"])["verdict"]
    assert mine.to_dict() == api.loc[mine.index, "verdict"].to_dict()


def test_without_a_margin_nothing_changes(result):
    frame, sentence = shown_comparisons(result, ["mine"])
    table = comparisons_table(result, frame, sentence, ["mine"])
    assert "equivalence" not in table.cells and "Equivalence" not in table.caption


def test_report_refuses_a_bad_margin_before_any_work(result, tmp_path):
    with pytest.raises(UsageError, match="margin"):
        smb.report(result, out=tmp_path / "r", formats=["md"], margin=-0.1)
    assert not (tmp_path / "r").exists()


def test_forest_plot_draws_the_margins_and_its_caption_says_so(result, monkeypatch):
    """The comparison forest plot gets the margin in points (±5) and its caption names it; without one, neither."""
    seen = []

    def capture(frame, **options):
        seen.append((options.get("margin"), options.get("margin_name")))
        return b""

    monkeypatch.setattr(report_results.plotting, "interval_plot", capture)
    frame, _ = shown_comparisons(result, ["mine"], margin=0.05)
    (figure,) = comparisons_figures(result, frame, ["mine"])
    assert seen == [(pytest.approx(5.0), "±5 points: equivalence margins")]
    assert "blue dashed at ±5 points: the equivalence margins" in figure.caption and "90% interval" in figure.caption
    seen.clear()
    frame, _ = shown_comparisons(result, ["mine"])
    (figure,) = comparisons_figures(result, frame, ["mine"])
    assert len(seen) == 1 and seen[0][0] is None
    assert "equivalence" not in figure.caption


def test_forest_plot_with_margins_is_another_picture(result):
    """The PNG with ±δ lines differs from the one without, and a margin outside the intervals widens the axis."""
    plain, _ = shown_comparisons(result, ["mine"])
    margined, _ = shown_comparisons(result, ["mine"], margin=0.05)
    (without,) = comparisons_figures(result, plain, ["mine"])
    (with_margin,) = comparisons_figures(result, margined, ["mine"])
    assert with_margin.png[:8] == b"\x89PNG\r\n\x1a\n" and with_margin.png != without.png
    part = pd.DataFrame({"label": ["a − b"], "diff": [0.5], "low": [-1.0], "high": [2.0]})
    options = dict(estimate="diff", low="low", high="high", label="label", reference=0.0)
    low, high = plotting.interval_figure(part, margin=30.0, **options).axes[0].get_xlim()
    assert low <= -30 and high >= 30
    low, high = plotting.interval_figure(part, **options).axes[0].get_xlim()
    assert low > -30 and high < 30

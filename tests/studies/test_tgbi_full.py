"""The full TGBI data, three systems, through the public API; figures recounted independently."""

import math

import numpy as np
import pytest

from stats_mtbias.studies import tgbi

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def result(data_dir):
    with pytest.warns(UserWarning, match="total_papago_imp.txt: 400 lines"):
        return tgbi.evaluate(data_dir=data_dir, n_boot=2000, rng=0, compare=True, interval="percentile")


def _recount(path):
    """An independent count: any she/her… word makes the line female, else any he/him… male."""
    text = path.read_bytes().decode("utf-8").replace("\r\n", "\n").rstrip("\n").split("\n")
    words = [set("".join(c if c.isalpha() else " " for c in line.lower()).split()) for line in text]
    female = sum(bool(w & {"she", "her", "hers", "herself", "woman", "girl", "lady"}) for w in words)
    male = sum(bool(w & {"he", "him", "his", "himself", "man", "boy", "guy"}) and not w & {"she", "her"} for w in words)
    return female, male, len(text) - female - male


def test_google_informal_against_a_recount(result, data_dir):
    f, m, n = _recount(data_dir / "tgbi/gebnlp-tgbi/corpus/total_google_inf.txt")
    row = result.frames["estimates"].query("system == 'google' and subset == 'informal'").iloc[0]
    assert (row.n_female, row.n_male, row.n_neutral + row.n_both) == (f, m, n) == (429, 1689, 0)
    assert row.p_s == pytest.approx(math.sqrt(f / 2118 * m / 2118 + n / 2118))


def test_every_line_is_accounted_for(result):
    lines = result.frames["accounting"].groupby("system", observed=True)["n"].sum()
    assert (lines == 12708).all()
    bad = result.frames["accounting"].query("outcome != 'judged'")
    assert bad[["system", "subset", "outcome", "n"]].values.tolist() == [["papago", "impolite", "repeated_block", 400]]


def test_index_and_intervals(result):
    est = result.frames["estimates"]
    assert len(est) == 24
    for _system, group in est.groupby("system", observed=True):
        sets = group[group.subset != "TGBI"]
        index = group[group.subset == "TGBI"].iloc[0]
        assert index.p_s == pytest.approx(sets.p_s.mean())
    assert (est.ci_low <= est.p_s).all() and (est.p_s <= est.ci_high).all()
    assert ((est.ci_low >= 0) & (est.ci_high <= 1)).all()
    ordered = est[est.subset == "TGBI"].set_index("system")["p_s"]
    assert ordered["google"] > ordered["papago"] > ordered["kakao"]


def test_comparisons_consistent_and_holm(result):
    comp = result.comparisons
    assert len(comp) == 24
    # Interval excludes 0 exactly when the bootstrap p-value is at most 1 - level (same replicates).
    excludes = (comp.ci_low > 0) | (comp.ci_high < 0)
    assert ((comp.p_value <= 0.05 + 1e-9) | ~excludes).all()
    assert (comp.p_adjusted >= comp.p_value).all()
    # Under the bootstrap the formal sets (one output of 2,118 off "he") keep their score interval, never [0, 0].
    formal = result.frames["estimates"].query("subset == 'formal'")
    assert (formal["ci_method"] == "score").all() and (formal["ci_high"] > formal["ci_low"]).all()


def test_authors_rules_reproduce_their_convention(data_dir):
    with pytest.warns(UserWarning):
        authors = tgbi.evaluate(
            ["papago"], data_dir=data_dir, lexicon="cho2019", repeated_blocks="keep", n_boot=100, compare=False
        )
    row = authors.frames["estimates"].query("subset == 'impolite'").iloc[0]
    # n: the lexicon items the set rests on; n_outputs: its outputs (two per item), none left unread.
    assert (row.n, row.n_outputs, row.n_unknown) == (1059, 2118, 0)


def test_analytic_and_bootstrap_agree_on_full_data(data_dir, result):
    analytic = tgbi.evaluate(data_dir=data_dir, interval="score", compare=False)
    width_a = (analytic.frames["estimates"].ci_high - analytic.frames["estimates"].ci_low).to_numpy()
    width_b = (result.frames["estimates"].ci_high - result.frames["estimates"].ci_low).to_numpy()
    # Same order of magnitude everywhere, close where the data are not at a boundary.
    ratio = width_a / width_b
    assert np.all((ratio > 0.5) & (ratio < 2.0))
    assert np.median(ratio) == pytest.approx(1.0, abs=0.15)


def test_analytic_comparisons_use_the_g_scale_p_values(data_dir):
    from stats_mtbias.tables import count_cube
    from stats_mtbias.uncertainty.analytic import paired_difference_analytic

    res = tgbi.evaluate(["google", "kakao"], data_dir=data_dir, interval="score", compare=True)
    cube = count_cube(res.frames["judgements"], ("lexicon_item", "system", "subset"))
    _, p_sets = paired_difference_analytic(cube.counts[:, 0], cube.counts[:, 1])
    assert res.comparisons.p_value.to_numpy()[:7] == pytest.approx(p_sets)
    assert "paired comparisons: MOVER of the score intervals on g" in res.provenance["method"]
    assert res.provenance["n_boot"] is None
    # The default is the analytic form; every row names its interval.
    assert res.frames["estimates"].equals(tgbi.evaluate(["google", "kakao"], data_dir=data_dir, compare=True).frames["estimates"])
    assert set(res.frames["estimates"]["ci_method"]) == {"score", "MOVER"}

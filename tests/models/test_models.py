"""Bayesian models: parameter recovery on simulated data, derived quantities, diagnostics plumbing.

Fits are small (tens of groups, a few hundred draws) so that CI stays within budget;
each nutpie compile takes about 15 s.
"""

import json
import warnings

import numpy as np
import pandas as pd
import pytest

import stats_mtbias as smb
from stats_mtbias.errors import UsageError

pytest.importorskip("pymc")
pytest.importorskip("nutpie")

from stats_mtbias.cli import main
from stats_mtbias.errors import ConvergenceWarning
from stats_mtbias.models import build, derived
from stats_mtbias.models.data import Group, ModelData, tgbi_data
from stats_mtbias.models.fit import check, diagnose, fit, posterior_predictive_check

from .test_recovery import simulate_calibration


def _expit(x):
    return 1 / (1 + np.exp(-x))


def test_rate_model_recovers_group_rates():
    # 40 occupations, 25 outputs each, true female log-odds -1 + N(0, 0.8): the 90% intervals of
    # the occupations' log-odds must hold the truth for at least 85% of them.
    rng = np.random.default_rng(0)
    n_groups, per_group = 40, 25
    truth = -1.0 + rng.normal(0, 0.8, n_groups)
    female = rng.binomial(per_group, _expit(truth))
    counts = np.column_stack([female, per_group - female])
    data = ModelData(
        counts=counts,
        design=np.ones((n_groups, 1)),
        terms=["intercept"],
        groups=[Group("occupation", np.arange(n_groups), list(range(n_groups)))],
        cells=pd.DataFrame({"occupation": range(n_groups)}),
        outcomes=("female", "male"),
    )
    idata = fit(build.rate_model(data), draws=500, tune=500, chains=2, seed=1)
    beta = np.asarray(idata.posterior["beta"]).reshape(-1)
    effect = np.asarray(idata.posterior["z_occupation"] * idata.posterior["sd_occupation"]).reshape(beta.size, n_groups)
    logodds = beta[:, None] + effect
    low, high = derived.hdi(logodds, 0.90)
    assert np.mean((low <= truth) & (truth <= high)) >= 0.85
    table = diagnose(idata)
    assert {"beta", "sd_occupation"} <= set(table["parameter"])
    assert idata.attrs["sampler"] == "nutpie" and idata.attrs["seed"] == 1


def test_rate_model_likelihood_is_the_multinomial():
    # The hand-written categorical logit must equal scipy's multinomial pmf under a softmax, coefficient included.
    from scipy.stats import multinomial

    rng = np.random.default_rng(5)
    counts = rng.integers(0, 4, (12, 3))
    counts[0] = [1, 0, 0]
    data = ModelData(
        counts=counts,
        design=np.eye(3)[np.arange(12) % 3],
        terms=["a", "b", "c"],
        groups=[
            Group("category", np.arange(12) % 4, list(range(4)), zero_sum=True),
            Group("occupation", np.arange(12), list(range(12))),
        ],
        cells=pd.DataFrame({"occupation": range(12)}),
    )
    model = build.rate_model(data, centered=("category",))
    point = {k: v + rng.normal(0, 0.5, v.shape) for k, v in model.initial_point().items()}
    # The linear predictor at `point` (random variables replaced by their values, not drawn).
    eta_var, effect_var = model.replace_rvs_by_values([model["y"].owner.inputs[2], model["category_effect"]])
    eta, category = model.compile_fn([eta_var, effect_var], inputs=model.value_vars, on_unused_input="ignore")(point)
    assert np.allclose(category.sum(axis=1), 0)  # zero-sum over the categories
    by_hand = point["beta"][np.arange(12) % 3] + category.T[np.arange(12) % 4]
    by_hand = by_hand + point["z_occupation"] * np.exp(point["sd_occupation_log__"])
    assert np.allclose(eta, np.column_stack([by_hand, np.zeros(12)]))
    prob = np.exp(eta) / np.exp(eta).sum(axis=1, keepdims=True)
    expected = sum(multinomial.logpmf(c, c.sum(), p) for c, p in zip(counts, prob))
    got = model.compile_logp(vars=[model["y"]])(point)
    assert got == pytest.approx(expected, rel=1e-10)
    with pytest.raises(ValueError, match="`centered`: no group named nope"):
        build.rate_model(data, centered=("nope",))


def test_calibration_model_recovers_slopes():
    data, slopes, _ = simulate_calibration(np.random.default_rng(2), n_occ=150, n_cat=10, centre=False)
    n_lang = len(slopes)
    idata = fit(build.calibration_model(data), draws=500, tune=500, chains=2, seed=3)
    table = diagnose(idata, ["slope", "intercept"], level=0.90)
    slope_rows = table[table["parameter"] == "slope"]
    inside = (slope_rows["hdi_low"].to_numpy() <= slopes) & (slopes <= slope_rows["hdi_high"].to_numpy())
    assert inside.sum() >= 5  # of 6
    ppc = posterior_predictive_check(build.calibration_model(data), idata, data, "language", seed=4)
    assert len(ppc) == n_lang and ppc["p_value"].between(0.01, 0.99).all()


def _tiny_tgbi():
    rng = np.random.default_rng(5)
    rows = []
    for system, p in (("a", [0.3, 0.1, 0.6]), ("b", [0.05, 0.05, 0.9])):
        for item in range(30):
            content = "occupation" if item < 16 else "negative" if item < 23 else "positive"
            for s, (pronoun, politeness) in enumerate(
                [("informal", "impolite"), ("informal", "polite"), ("formal", "impolite"), ("formal", "polite")]
            ):
                sentence = item * 4 + s
                for subset in (pronoun, politeness, content):  # translated once in each of its three sets' files
                    gender = rng.choice(["female", "neutral", "male"], p=p)
                    rows.append((system, subset, sentence, item, content, pronoun, politeness, gender))
    columns = ["system", "subset", "sentence", "lexicon_item", "content", "pronoun", "politeness", "gender"]
    return pd.DataFrame(rows, columns=columns)


def test_tgbi_posterior_agrees_with_the_counts():
    judgements = _tiny_tgbi()
    data = tgbi_data(judgements)
    assert data.counts.sum() == len(judgements) and data.design.shape[1] == 14  # 2 systems x 7 sets
    # A cell is (system, set, item): the item's 2 or 4 sentences of that set's file.
    assert len(data.counts) == 2 * 30 * 4 + 2 * 30 and set(data.counts.sum(axis=1)) == {2, 4}
    idata = fit(build.rate_model(data), draws=300, tune=300, chains=2, seed=6)
    estimates, differences = derived.tgbi_posterior(idata, data, new_items=False)
    # Observed P_S of system a on the informal set, from the counts.
    informal = judgements[(judgements["system"] == "a") & (judgements["subset"] == "informal")]
    share = informal["gender"].value_counts(normalize=True)
    observed = np.sqrt(share.get("female", 0) * share.get("male", 0) + share.get("neutral", 0))
    row = estimates.set_index(["system", "subset"]).loc[("a", "informal")]
    assert row["hdi_low"] - 0.03 <= observed <= row["hdi_high"] + 0.03
    tgbi = estimates.set_index(["system", "subset"]).loc[("a", "TGBI")]
    sets = estimates[(estimates["system"] == "a") & (estimates["subset"] != "TGBI")]
    assert tgbi["mean"] == pytest.approx(sets["mean"].mean(), abs=1e-9)
    diff = differences.set_index("subset").loc["TGBI"]
    assert diff["mean"] > 0 and diff["p_greater"] > 0.99  # system a is far less skewed than b
    # The predictive check: every system and set, the observed P_S computed from the cells it covers.
    checks = derived.tgbi_predictive_check(idata, data, rng=1, max_draws=300).set_index(["system", "subset"])
    assert len(checks) == 14 and checks.loc[("a", "informal"), "observed"] == pytest.approx(observed)
    assert checks["inside"].all() and checks["p_value"].between(0.01, 0.99).all()


def test_diagnostics_warn_and_name_the_failure():
    import arviz as az

    rng = np.random.default_rng(7)
    good = az.from_dict(posterior={"mu": rng.normal(size=(2, 1000))}, sample_stats={"diverging": np.zeros((2, 1000), bool)})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        report = check(good, diagnose(good))
    assert report["ok"] and report["divergences"] == 0
    stuck = np.stack([rng.normal(0, 1, 1000), rng.normal(3, 1, 1000)])  # two chains that disagree
    diverging = np.zeros((2, 1000), bool)
    diverging[0, :5] = True
    bad = az.from_dict(posterior={"mu": stuck}, sample_stats={"diverging": diverging})
    with pytest.warns(ConvergenceWarning, match=r"R-hat .* > 1.01 \(mu\).*5 divergent transitions"):
        report = check(bad, diagnose(bad))
    assert not report["ok"] and report["max_r_hat"] > 1.5


def test_models_are_offered_only_where_they_exist(capsys):
    # "winomt" was offered only to raise (issue 32): it is no longer a choice, in the API or the CLI.
    with pytest.raises(UsageError, match="study"):
        smb.model("winomt")
    with pytest.raises(SystemExit) as exc:
        main(["model", "--study", "winomt"])
    assert exc.value.code == 64 and "invalid choice: 'winomt'" in capsys.readouterr().err


@pytest.mark.slow
def test_model_cli_calibration_records(capsys, data_dir, tmp_path):
    out = tmp_path / "fit.nc"
    argv = [
        "model",
        "--study",
        "prates",
        "--model",
        "calibration",
        "--languages",
        "Hungarian,Finnish",
        "--draws",
        "300",
        "--tune",
        "300",
        "--data-dir",
        str(data_dir),
        "--format",
        "json",
        "--out",
        str(out),
    ]
    assert main(argv) == 0
    records = json.loads(capsys.readouterr().out)
    keys = ["parameter", "group", "mean", "sd", "hdi_low", "hdi_high", "r_hat", "ess_bulk"]
    assert all(list(r) == keys for r in records)
    slopes = {r["group"]: r for r in records if r["parameter"] == "slope"}
    assert set(slopes) == {"Hungarian", "Finnish"} and all(0 < s["mean"] < 1 for s in slopes.values())
    assert out.exists() and out.stat().st_size > 1000


@pytest.mark.slow
def test_loo_prefers_partial_pooling_to_complete_pooling():
    from stats_mtbias.models.fit import compare_loo

    rng = np.random.default_rng(8)
    n_groups, per_group = 30, 8
    truth = -1.0 + rng.normal(0, 0.7, n_groups)
    female = rng.binomial(per_group, _expit(truth))
    data = ModelData(
        counts=np.column_stack([female, per_group - female]),
        design=np.ones((n_groups, 1)),
        terms=["intercept"],
        groups=[Group("occupation", np.arange(n_groups), list(range(n_groups)))],
        cells=pd.DataFrame({"occupation": range(n_groups)}),
        outcomes=("female", "male"),
    )
    models = {p: build.rate_model(data, pooling=p) for p in ("pooled", "unpooled", "hierarchical")}
    fits = {p: fit(m, draws=400, tune=400, chains=2, seed=9) for p, m in models.items()}
    table = compare_loo(models, fits).set_index("model")
    assert set(table.index) == {"pooled", "unpooled", "hierarchical"}
    # The occupations differ (sd 0.7), so ignoring them fits worse than pooling them partially.
    assert table.loc["hierarchical", "elpd_loo"] > table.loc["pooled", "elpd_loo"]
    assert table.loc["hierarchical", "rank"] <= 1


def test_hdi_by_hand():
    draws = np.array([0.0, 1.0, 1.1, 1.2, 1.3, 5.0, 9.0, 1.15, 1.25, 1.05])
    import arviz as az

    # Sorted: 0, 1.0, 1.05, 1.1, 1.15, 1.2, 1.25, 1.3, 5, 9; intervals span floor(.5 * 10) = 5 steps (arviz's
    # convention); the narrowest, 1.0-1.25, is 0.25 wide.
    low, high = derived.hdi(draws[:, None], 0.5)
    assert (low[0], high[0]) == (1.0, 1.25)
    assert np.allclose(az.hdi(draws, hdi_prob=0.5), [1.0, 1.25])
    samples = np.random.default_rng(0).normal(size=(200_000, 1))
    low, high = derived.hdi(samples, 0.95)  # symmetric: equals the central interval
    assert low[0] == pytest.approx(-1.96, abs=0.02) and high[0] == pytest.approx(1.96, abs=0.02)


def test_diagnose_equals_arviz_summary():
    # Vectorised R-hat / ESS / HDI must give arviz's numbers: AR(1) chains of varied autocorrelation, a chain
    # stuck apart, draws with many ties (integers) and a constant.
    import arviz as az

    rng = np.random.default_rng(11)
    chains, draws = 3, 500
    phi = np.array([0.0, 0.5, 0.9, 0.99])
    ar = np.zeros((chains, draws, phi.size))
    noise = rng.standard_normal((chains, draws, phi.size))
    for t in range(1, draws):
        ar[:, t] = phi * ar[:, t - 1] + noise[:, t]
    ar[2, :, 3] += 4.0  # a chain far from the others: R-hat well above 1
    posterior = {
        "theta": ar,
        "count": rng.poisson(2.0, (chains, draws, 2)).astype(float),
        "fixed": np.ones((chains, draws)),
    }
    idata = az.from_dict(
        posterior=posterior, coords={"k": ["a", "b", "c", "d"], "j": ["x", "y"]}, dims={"theta": ["k"], "count": ["j"]}
    )
    table = diagnose(idata, level=0.9)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = az.summary(idata, hdi_prob=0.9, round_to="none")
    labels = [f"{p}[{g}]" if g else p for p, g in zip(table["parameter"], table["group"])]
    assert labels == list(expected.index)
    pairs = {
        "mean": "mean",
        "sd": "sd",
        "hdi_low": "hdi_5%",
        "hdi_high": "hdi_95%",
        "r_hat": "r_hat",
        "ess_bulk": "ess_bulk",
        "ess_tail": "ess_tail",
    }
    for ours, theirs in pairs.items():
        np.testing.assert_allclose(table[ours], expected[theirs], rtol=1e-9, equal_nan=True, err_msg=ours)
    assert table.loc[3, "r_hat"] > 1.1 and table.loc[0, "ess_bulk"] > 1000 > table.loc[2, "ess_bulk"]


def test_parametrisation_is_chosen_from_the_data():
    # 22 categories: thin (5 outputs in the smallest) -> non-centred; thick (every one >= 100) -> centred.
    rng = np.random.default_rng(12)
    for per_cell, expected in ((1, "non-centred"), (40, "centred")):
        category = np.arange(220) % 22
        counts = rng.multinomial(per_cell, [0.2, 0.1, 0.7], size=220)
        data = ModelData(
            counts=counts,
            design=np.ones((220, 1)),
            terms=["intercept"],
            groups=[
                Group("category", category, list(range(22)), zero_sum=True),
                Group("occupation", np.arange(220), list(range(220)), parent="category"),
            ],
            cells=pd.DataFrame({"occupation": range(220)}),
        )
        model = build.rate_model(data)
        assert model.parametrisation == {"category": expected, "occupation": "non-centred"}
        assert ("category_effect" in model.named_vars) == (expected == "centred")
    with pytest.raises(ValueError, match="`centered`"):
        build.rate_model(data, centered="always")


@pytest.mark.filterwarnings("ignore::stats_mtbias.errors.ConvergenceWarning")  # 200 draws: a plumbing test
def test_a_fit_is_cached_by_its_inputs_and_read_back_equal(data_dir, tmp_path, monkeypatch):
    """The same call reads the fit from the cache (same numbers, same warnings); other options or a damaged entry
    refit."""
    from stats_mtbias.studies import models

    monkeypatch.setenv("MTBIAS_CACHE", str(tmp_path / "cache"))
    # The first fit is a real one (its round trip through the cache is checked); a refit is counted and given the
    # same posterior: what is tested from there on is when the study fits, not the sampler (30 s a fit).
    sampled, posterior, real_fit = [], [], models.fit

    def fit_once(*a, **k):
        sampled.append(k["seed"])
        if not posterior:
            posterior.append(real_fit(*a, **k))
        return posterior[0]

    monkeypatch.setattr(models, "fit", fit_once)
    args = dict(model="calibration", data_dir=data_dir, languages=["Hungarian", "Finnish"], draws=200, tune=200, rng=4)
    with warnings.catch_warnings(record=True) as made:
        warnings.simplefilter("always")
        first = models.run("prates", **args)
    with warnings.catch_warnings(record=True) as read:
        warnings.simplefilter("always")
        again = models.run("prates", **args)
    assert not first.diagnostics["cached"] and again.diagnostics["cached"]
    assert len(sampled) == 1  # read back, not fitted
    diagnostic = [str(w.message) for w in made if issubclass(w.category, ConvergenceWarning)]
    assert diagnostic == [str(w.message) for w in read if issubclass(w.category, ConvergenceWarning)]
    pd.testing.assert_frame_equal(first.summary, again.summary)
    assert np.array_equal(first.idata.posterior["slope"].values, again.idata.posterior["slope"].values)
    assert again.provenance.to_dict() == first.provenance.to_dict()
    other = models.run("prates", **{**args, "rng": 5})
    assert not other.diagnostics["cached"] and len(sampled) == 2 and sampled[1] != sampled[0]
    for entry in (tmp_path / "cache" / "models").glob("*.pkl"):
        entry.write_bytes(b"damaged")
    with pytest.warns(UserWarning, match="cannot be read"):
        refit = models.run("prates", **args)
    assert not refit.diagnostics["cached"] and sampled[2:] == sampled[:1]
    assert not models.run("prates", **args, cache=False).diagnostics["cached"] and len(sampled) == 4
    assert models.run("prates", **args).diagnostics["cached"] and len(sampled) == 4  # the refit was written back

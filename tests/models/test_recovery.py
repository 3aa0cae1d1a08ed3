"""Parameter recovery of every hierarchical model over simulated data sets with known parameters (slow tier).

For each model several data sets are simulated from known parameters of the
model's own form; the 90% highest-density intervals must hold the true values at
least 85% of the time over all data sets and parameters checked. Fits are small
(two chains of 500 draws); each costs one nutpie compile (about 15 s).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("pymc")
pytest.importorskip("nutpie")

from stats_mtbias.models import build, derived
from stats_mtbias.models.data import Group, ModelData, tgbi_data
from stats_mtbias.models.fit import diagnose, fit

pytestmark = pytest.mark.slow
DATASETS = 4
LEVEL = 0.90


def _inside(table: pd.DataFrame, parameter: str, truth: np.ndarray) -> np.ndarray:
    rows = table[table["parameter"] == parameter]
    return (rows["hdi_low"].to_numpy() <= truth.ravel()) & (truth.ravel() <= rows["hdi_high"].to_numpy())


def _softmax_counts(rng, eta: np.ndarray, n: np.ndarray) -> np.ndarray:
    full = np.concatenate([eta, np.zeros((len(eta), 1))], axis=1)
    p = np.exp(full - full.max(axis=1, keepdims=True))
    return rng.multinomial(n, p / p.sum(axis=1, keepdims=True))


def test_rate_model_recovers_language_intercepts_and_occupations():
    """Prates' form: language intercepts (female, neutral vs male), zero-sum categories, occupations within them."""
    hits = []
    for seed in range(DATASETS):
        rng = np.random.default_rng(100 + seed)
        n_lang, n_occ, n_cat = 4, 60, 6
        beta = rng.normal([-1.5, -2.0], 0.7, size=(n_lang, 2))
        category = rng.integers(0, n_cat, n_occ)
        cat_effect = rng.normal(0, 0.5, (n_cat, 2))
        cat_effect -= cat_effect.mean(axis=0)
        occ_effect = rng.normal(0, 0.6, (n_occ, 2))
        lang, occ = np.repeat(np.arange(n_lang), n_occ), np.tile(np.arange(n_occ), n_lang)
        eta = beta[lang] + cat_effect[category[occ]] + occ_effect[occ]
        counts = _softmax_counts(rng, eta, np.full(len(eta), 6))
        data = ModelData(
            counts=counts,
            design=np.eye(n_lang)[lang],
            terms=[f"L{i}" for i in range(n_lang)],
            groups=[
                Group("category", category[occ], list(range(n_cat)), zero_sum=True),
                Group("occupation", occ, list(range(n_occ)), parent="category"),
            ],
            cells=pd.DataFrame({"language": lang}),
        )
        idata = fit(build.rate_model(data), draws=500, tune=500, chains=2, seed=seed)
        table = diagnose(idata, ["beta"], level=LEVEL)
        hits.append(_inside(table, "beta", beta))
        # Each occupation's female log-odds in language 0.
        draws = np.asarray(idata.posterior["beta"])[..., 0, 0].reshape(-1, 1) + (
            np.asarray(idata.posterior["z_occupation"] * idata.posterior["sd_occupation"])[..., 0].reshape(-1, n_occ)
        )
        cats = idata.posterior["category_effect" if "category_effect" in idata.posterior else "z_category"]
        if "z_category" in idata.posterior:
            cats = cats * idata.posterior["sd_category"]
        cat_draws = np.asarray(cats.sel(outcome="female")).reshape(draws.shape[0], n_cat)
        draws = draws + cat_draws[:, category]
        low, high = derived.hdi(draws, LEVEL)
        truth = beta[0, 0] + cat_effect[category, 0] + occ_effect[:, 0]
        hits.append((low <= truth) & (truth <= high))
    share = np.concatenate(hits).mean()
    assert share >= 0.85, share


def test_tgbi_model_recovers_set_intercepts_and_item_spreads():
    """TGBI's form: per system and set an intercept, item effects per system with a spread per system and content."""
    hits = []
    sets = {
        "informal": ("pronoun", "informal"),
        "formal": ("pronoun", "formal"),
        "impolite": ("politeness", "impolite"),
        "polite": ("politeness", "polite"),
        "negative": ("content", "negative"),
        "positive": ("content", "positive"),
        "occupation": ("content", "occupation"),
    }
    for seed in range(DATASETS):
        rng = np.random.default_rng(200 + seed)
        rows = []
        n_items = 60
        content = np.where(np.arange(n_items) < 36, "occupation", np.where(np.arange(n_items) < 48, "negative", "positive"))
        intercept = {(s, name): rng.normal([-1.5, -2.5], 0.6) for s in ("a", "b") for name in sets}
        spread = {(s, c): rng.uniform(0.3, 1.0, 2) for s in ("a", "b") for c in ("occupation", "negative", "positive")}
        effect = {(s, i): rng.normal(0, spread[s, content[i]]) for s in ("a", "b") for i in range(n_items)}
        for s in ("a", "b"):
            for i in range(n_items):
                for pronoun in ("informal", "formal"):
                    for politeness in ("impolite", "polite"):
                        style = {"pronoun": pronoun, "politeness": politeness, "content": content[i]}
                        for name, (axis, value) in sets.items():
                            if style[axis] != value:
                                continue
                            eta = intercept[s, name] + effect[s, i]
                            p = np.exp(np.append(eta, 0.0))
                            gender = ["female", "neutral", "male"][rng.choice(3, p=p / p.sum())]
                            rows.append((s, name, i, content[i], gender))
        judgements = pd.DataFrame(rows, columns=["system", "subset", "lexicon_item", "content", "gender"])
        data = tgbi_data(judgements)
        idata = fit(build.rate_model(data), draws=500, tune=500, chains=2, seed=seed, low_rank=True)
        table = diagnose(idata, ["beta", "sd_item_system"], level=LEVEL)
        truth = np.array([intercept[tuple(term.split(":"))] for term in data.terms])
        hits.append(_inside(table, "beta", truth))
        scales = data.groups[0].scale_levels
        truth_sd = np.array([spread[tuple(level.split(":"))] for level in scales])
        hits.append(_inside(table, "sd_item_system", truth_sd))
    share = np.concatenate(hits).mean()
    assert share >= 0.85, share


def simulate_calibration(rng, n_lang: int = 6, n_occ: int = 120, n_cat: int = 8, centre: bool = True):
    """Calibration data from known slopes and intercepts: ``(data, slopes, intercepts)``."""
    slopes = rng.normal(0.5, 0.2, n_lang)
    intercepts = rng.normal(-1.5, 0.6, n_lang)
    share = rng.uniform(0.05, 0.95, n_occ)
    category = rng.integers(0, n_cat, n_occ)
    x = np.log(share / (1 - share))
    lang, occ = np.repeat(np.arange(n_lang), n_occ), np.tile(np.arange(n_occ), n_lang)
    cat_effect = rng.normal(0, 0.3, n_cat)
    cat_effect = cat_effect - cat_effect.mean() if centre else cat_effect
    p = 1 / (1 + np.exp(-(intercepts[lang] + slopes[lang] * x[occ] + cat_effect[category[occ]])))
    female = rng.binomial(1, p)
    data = ModelData(
        counts=np.column_stack([female, 1 - female]),
        design=np.ones((lang.size, 1)),
        terms=["intercept"],
        groups=[
            Group("language", lang, [f"L{i}" for i in range(n_lang)]),
            Group("category", category[occ], list(range(n_cat)), zero_sum=True),
            Group("occupation", occ, list(range(n_occ)), parent="category"),
        ],
        cells=pd.DataFrame({"language": lang}),
        outcomes=("female", "male"),
        covariate=x[occ],
    )
    return data, slopes, intercepts


def test_calibration_model_recovers_intercepts_and_slopes():
    hits = []
    for seed in range(DATASETS):
        data, slopes, intercepts = simulate_calibration(np.random.default_rng(300 + seed))
        idata = fit(build.calibration_model(data), draws=500, tune=500, chains=2, seed=seed)
        table = diagnose(idata, ["slope", "intercept"], level=LEVEL)
        hits += [_inside(table, "slope", slopes), _inside(table, "intercept", intercepts)]
    share = np.concatenate(hits).mean()
    assert share >= 0.85, share

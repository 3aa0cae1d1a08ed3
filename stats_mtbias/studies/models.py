"""Fit the hierarchical Bayesian models of a study and summarise them.

``run("tgbi")``: the categorical-logit rate model of the TGBI outputs (per system
and sentence set an intercept; lexicon items partially pooled, with an effect
shared by the systems and a deviation per system), with the posterior P_S per
set, the TGBI index per system, the differences between systems and a
posterior predictive check of every system's P_S per set.

``run("prates")``: the rate model of the 12 languages (language intercepts;
occupations partially pooled within BLS categories), with posterior female and
neutral shares per language; or (``model="calibration"``) the calibration model
against BLS with per-language intercepts and slopes.
"""

from __future__ import annotations

import functools
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

import stats_mtbias.models
from stats_mtbias import _defaults
from stats_mtbias._cache import default_cache_dir, heavy, scratch
from stats_mtbias._files import CacheWarning, write_atomic, write_netcdf_atomic
from stats_mtbias._validation import check_choice, check_level, check_rng, seed_of
from stats_mtbias.datasets import prates as prates_data
from stats_mtbias.datasets.prates import read_bls
from stats_mtbias.datasets.registry import open_store
from stats_mtbias.errors import ConvergenceWarning, UsageError
from stats_mtbias.models import build, derived
from stats_mtbias.models import data as model_data
from stats_mtbias.models.fit import SUMMARY_COLUMNS, check, diagnose, fit
from stats_mtbias.provenance import Provenance, Signature, dependency_versions
from stats_mtbias.studies._tgbi_judgements import load_judgements as tgbi_judgements

STUDIES = ("tgbi", "prates")
MODELS = ("rate", "calibration")
# What a fit's draws depend on, beyond its data, code and options. nutpie's gradients are compiled by
# numba on llvmlite, so they are here too: a change in the last bit of one gradient is carried by the
# 2,400 steps of a chain into the third digit of the summaries.
FIT_DEPENDENCIES = ("pymc", "nutpie", "pytensor", "arviz", "numpy", "numba", "llvmlite")


@dataclass(frozen=True)
class ModelResult:
    """A fitted model: parameter summary, diagnostics, derived quantities, provenance.

    Attributes
    ----------
    summary : DataFrame
        ``parameter, group, mean, sd, hdi_low, hdi_high, r_hat, ess_bulk`` for the
        model's parameters, then its derived quantities (whose R-hat and ESS are
        those of the draws they are computed from, left empty).
    diagnostics : dict
        ``max_r_hat, min_ess_bulk, min_ess_tail, divergences, ok, failures`` and timings.
    derived : dict of DataFrame
    """

    summary: pd.DataFrame
    diagnostics: dict
    derived: dict
    provenance: Provenance
    idata: object = field(repr=False)
    model: object = field(repr=False)
    data: object = field(repr=False)

    @property
    def signature(self) -> str:
        """One line that says how the fit was made (:class:`~stats_mtbias.provenance.Signature`): version,
        ``study:model/<the study fitted>``, seed, HDI level, the model, sampler, draws, tune, chains and the inputs'
        digests; ``smb.model(**smb.parse_signature(line).kwargs())`` fits it again."""
        options = self.provenance.options
        chosen = {k: options[k] for k in ("model", "sampler", "draws", "tune", "chains") if k in options}
        return Signature.of(f"model/{options.get('study', '')}", self.provenance.to_dict(), options=chosen).format()


def _sampling(function):
    """Run `function` with PyTensor's BLAS warning silenced (nutpie compiles with numba and does not use it) and
    its generated source files in a scratch directory of the cache, removed after: scoped, so the user's warning
    filters and temporary directory are left as they were."""

    @functools.wraps(function)
    def wrapped(*args, **kwargs):
        with warnings.catch_warnings(), scratch():
            warnings.filterwarnings("ignore", message="PyTensor could not link to a BLAS")
            return function(*args, **kwargs)

    return wrapped


def _derived_rows(table: pd.DataFrame, parameter: str, group_cols: list[str]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "parameter": parameter,
            "group": table[group_cols].astype(str).agg(":".join, axis=1),
            **{c: table[c] for c in ("mean", "sd", "hdi_low", "hdi_high")},
            "r_hat": np.nan,
            "ess_bulk": np.nan,
        }
    )


@_sampling
def run(
    study: str,
    *,
    model: str = "rate",
    data_dir: str | Path | None = None,
    languages: list[str] | None = None,
    sampler: str = "nutpie",
    draws: int = 2000,
    tune: int = 400,
    chains: int = 2,
    rng: np.random.Generator | int = _defaults.SEED,
    level: float = _defaults.LEVEL,
    cache: bool = True,
) -> ModelResult:
    """Build, fit and summarise a study's model (see the module docstring).

    With ``cache`` (the default) a fit is kept in the user cache under a key of
    everything it depends on: the model's data (its arrays, so any change of the
    inputs or of how they are read), the options, the seed, the model code and
    the versions of PyMC, nutpie, PyTensor, ArviZ, NumPy, numba and llvmlite. The same call again
    reads it (the report's second run: seconds instead of minutes), and gives
    the same numbers; ``diagnostics["cached"]`` says which.
    """
    check_choice(study, STUDIES, "study")
    recorded = seed_of(rng)
    # The samplers take an integer seed: a Generator gives one, so the same Generator state gives the same fit.
    seed = rng if isinstance(rng, (int, np.integer)) else int(check_rng(rng).integers(2**31 - 1))
    check_rng(seed)
    check_choice(model, MODELS, "model")
    level = check_level(level)
    if model == "calibration" and study != "prates":
        raise UsageError("`model`: the calibration model needs a reference share per occupation: use it with --study prates.")
    store = open_store(data_dir)
    tables = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # data-quality warnings are reported by the studies themselves
        if study == "tgbi":
            judgements, _ = tgbi_judgements(store=store)
            data = model_data.tgbi_data(judgements)
        else:
            judgements = prates_data.select(prates_data.read_judgements(store), languages)
            if model == "calibration":
                data = model_data.calibration_data(judgements, read_bls(store))
            else:
                data = model_data.prates_data(judgements)
    if model == "calibration":
        pm_model = build.calibration_model(data)
    else:
        # Centred where every level has the data to pin its effect down (Prates' 22 categories in all 12
        # languages), non-centred where it is thin (one language, a small table), where centred diverges.
        pm_model = build.rate_model(data)
    key = _fit_key(study, model, data, sampler, draws, tune, chains, seed, level)
    found = _read_fit(key) if cache else None
    if found is not None:
        summary, report, tables, provenance, idata = found
        report = {**report, "cached": True}
        if report.get("failures"):  # the fit's own warning, as when it was made
            warnings.warn("posterior diagnostics fail: " + "; ".join(report["failures"]), ConvergenceWarning, stacklevel=2)
        return ModelResult(summary, report, tables, Provenance(**provenance), idata, pm_model, data)
    # TGBI's per-system set effects are strongly correlated (30 neutral outputs in 37,724): a low-rank mass matrix.
    idata = fit(pm_model, sampler=sampler, draws=draws, tune=tune, chains=chains, seed=seed, low_rank=study == "tgbi")
    table = diagnose(idata, level=level)
    report = check(idata, table)
    report.update({k: idata.attrs[k] for k in ("sampler", "compile_seconds", "sample_seconds")})
    report["parametrisation"] = dict(getattr(pm_model, "parametrisation", {}))
    summary = table[~table["parameter"].str.startswith("z_")][SUMMARY_COLUMNS]
    if study == "tgbi":
        estimates, differences = derived.tgbi_posterior(idata, data, level=level, rng=seed)
        checks = derived.tgbi_predictive_check(idata, data, level=level, rng=seed)
        tables = {"p_s": estimates, "differences": differences, "predictive_check": checks}
        report["predictive_check_outside"] = [f"{r.system}/{r.subset}" for r in checks.itertuples() if not r.inside]
        extra = [
            _derived_rows(estimates, "P_S", ["system", "subset"]),
            _derived_rows(differences, "P_S difference", ["system_a", "system_b", "subset"]),
        ]
    elif model == "rate":
        rates = derived.language_rates(idata, data, level=level)
        tables = {"language_rates": rates}
        extra = [_derived_rows(rates, "pct", ["language", "outcome"])]
    else:
        tables = {"calibration": table[table["parameter"].isin(["intercept", "slope", "pct_female_at_parity"])]}
        extra = []
    summary = pd.concat([summary, *extra], ignore_index=True)
    provenance = Provenance(
        method=f"{model} model of the {study} study (PyMC), {report['sampler']} NUTS; HDI at {level}",
        data=dict(sorted(store.used.items())),
        seed=recorded,
        level=level,
        options={
            "study": study,
            "model": model,
            "draws": draws,
            "tune": tune,
            "chains": chains,
            "sampler": report["sampler"],
            "mass_matrix": idata.attrs["mass_matrix"],
            "cells": len(data.counts),
            "outputs": int(data.counts.sum()),
            "unknown_left_out": int(data.unknown),
            "parametrisation": report["parametrisation"],
            "pymc_versions": dependency_versions(FIT_DEPENDENCIES),
        },
    )
    summary = summary.reset_index(drop=True)
    report["cached"] = False
    if cache:
        _write_fit(key, summary, report, tables, provenance, idata)
    return ModelResult(summary, report, tables, provenance, idata, pm_model, data)


def _fit_key(study, model, data, *options) -> str:
    """sha256 of everything a fit depends on (see :func:`run`)."""
    import hashlib
    import pickle

    digest = hashlib.sha256()
    for file in [Path(__file__), *sorted(Path(stats_mtbias.models.__file__).parent.glob("*.py"))]:
        digest.update(file.read_bytes())
    versions = dependency_versions(FIT_DEPENDENCIES)
    digest.update(repr((study, model, options, sorted(versions.items()))).encode())
    digest.update(pickle.dumps(data, protocol=5))  # the model's arrays and labels
    return digest.hexdigest()[:32]


def _fit_paths(key: str) -> tuple[Path, Path]:
    folder = default_cache_dir() / "models"
    return folder / f"{key}.nc", folder / f"{key}.pkl"


def _read_fit(key: str):
    """A cached fit, or None (absent, or unreadable: then refitted and rewritten, with a warning)."""
    import pickle

    az = heavy("arviz")

    netcdf, rest = _fit_paths(key)
    if not (netcdf.exists() and rest.exists()):
        return None
    try:
        summary, report, tables, provenance = pickle.loads(rest.read_bytes())
        idata = az.from_netcdf(netcdf)
    except Exception as exc:  # any damage to a cache entry means: fit again
        warnings.warn(
            f"cache entry {rest}: it cannot be read ({type(exc).__name__}); refitting and rewriting it",
            CacheWarning,
            stacklevel=3,
        )
        return None
    return summary, report, tables, provenance, idata


def _write_fit(key: str, summary, report, tables, provenance, idata) -> None:
    """Write the fit atomically (the netCDF first, the summaries last: an entry is complete when both are there)."""
    import pickle

    netcdf, rest = _fit_paths(key)
    try:
        write_netcdf_atomic(idata, netcdf)
        write_atomic(rest, pickle.dumps((summary, report, tables, provenance.to_dict())))
    except OSError as exc:
        warnings.warn(f"could not cache the fit in {netcdf.parent} ({exc}); it is recomputed next time", stacklevel=3)

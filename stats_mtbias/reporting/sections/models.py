"""Hierarchical Bayesian models (PyMC): calibration against BLS and the TGBI rate model beside the observed P_S."""

from __future__ import annotations

import pandas as pd

import stats_mtbias as smb
from stats_mtbias.report import figures
from stats_mtbias.report.document import Figure, Section, Table
from stats_mtbias.report.formatting import format_interval
from stats_mtbias.reporting.sections import common, methods
from stats_mtbias.reporting.sections.tgbi import main_result
from stats_mtbias.reporting.settings import Settings, collect_warnings

TITLE = "Hierarchical Bayesian models (PyMC)"
LEAD = (
    "How far each Prates language's translations follow the BLS labour statistics (slope 1: fully, 0: not at all), "
    "and the TGBI rate model's posterior P_S beside the observed."
)


def _diagnostics_row(name: str, fit) -> dict:
    d = fit.diagnostics
    return {
        "model": name,
        "sampler": d["sampler"],
        "max_r_hat": d["max_r_hat"],
        "min_ess_bulk": d["min_ess_bulk"],
        "min_ess_tail": d["min_ess_tail"],
        "divergences": d["divergences"],
        "parametrisation": ", ".join(f"{k} {v}" for k, v in d.get("parametrisation", {}).items()),
        "ok": d["ok"],
        "failures": "; ".join(d["failures"]),
    }


def _provenance(fit) -> dict:
    prov = fit.provenance
    return prov.to_dict() if hasattr(prov, "to_dict") else dict(prov)


def section(settings: Settings) -> Section:
    """The models section: the calibration slopes first, then the TGBI rate model and the fits' diagnostics."""
    s = settings
    out = Section("models", TITLE, lead=LEAD)
    common_args = dict(
        data_dir=s.data_dir, draws=s.draws, tune=s.tune, chains=s.chains, rng=s.seed, level=s.level, cache=s.cache_fits
    )
    steps = ["calibration", "tgbi", *(["prates"] if s.prates_rates else [])]
    fits = {}
    with collect_warnings(out.notes, s.data_root):
        for step in s.iterate(steps, "models: fit"):
            if step == "calibration":
                fits[step] = smb.model("prates", model="calibration", **common_args)
            elif step == "tgbi":
                fits[step] = smb.model("tgbi", **common_args)
            else:
                fits[step] = smb.model("prates", **common_args)
    with collect_warnings(None, s.data_root):  # the TGBI section reports its own warnings
        observed = main_result(s)
    calib, rate = fits["calibration"], fits["tgbi"]
    outside = rate.diagnostics.get("predictive_check_outside", [])
    if outside:
        out.notes.append(f"TGBI model: observed P_S outside its 95% predictive interval for {', '.join(outside)}.")
    out.methods = methods("models", **common(s), chains=s.chains, tune=s.tune, draws=s.draws)
    summary = calib.summary
    parity = next((p for p in ("female_at_parity", "pct_female_at_parity") if p in set(summary["parameter"])), None)
    # The slope and the share at parity per language: the calibration's headline.
    slopes = summary[summary["parameter"] == "slope"].set_index("group")
    at_parity = summary[summary["parameter"] == parity].set_index("group") if parity else None
    scale = 0.01 if parity == "pct_female_at_parity" else 1.0  # the model reports this share in percent
    rows = []
    for language, row in slopes.iterrows():
        cell = {
            "language": str(language),
            "slope": format_interval(row["mean"], row["hdi_low"], row["hdi_high"], scale=1, digits=2),
        }
        if at_parity is not None and language in at_parity.index:
            p = at_parity.loc[language]
            cell["female at parity (%)"] = format_interval(scale * p["mean"], scale * p["hdi_low"], scale * p["hdi_high"])
        rows.append(cell)
    shown = ["slope", "intercept", *([parity] if parity else []), "mu_slope", "sd_slope"]
    head_frame = summary[summary["parameter"].isin(shown)].reset_index(drop=True)
    out.headline = Table(
        "calibration_slopes",
        "Calibration against BLS: slope and female share at parity per language",
        head_frame,
        caption=f"Posterior means with {common(s)['level_pct']} highest-density intervals. "
        "Slope on logit(BLS female share): 1 follows BLS fully, 0 not at all; female at parity: the "
        "share of “she” where BLS says 50%.",
        cells=pd.DataFrame(rows),
        text=["language"],
    )
    posterior = rate.derived["p_s"]
    est = observed.table[observed.table["metric"] == "p_s"][["system", "subset", "estimate", "ci_low", "ci_high"]]
    side = posterior.merge(est.astype({"system": str}), on=["system", "subset"]).rename(
        columns={"mean": "posterior_mean", "estimate": "observed_p_s"}
    )
    diagnostics = pd.DataFrame([_diagnostics_row(name, fit) for name, fit in fits.items()])
    out.body += [
        Table(
            "tgbi_posterior_vs_observed",
            "TGBI: posterior P_S beside the observed",
            side,
            ["system", "subset", "observed_p_s", "ci_low", "ci_high", "posterior_mean", "hdi_low", "hdi_high"],
            "In percent: the observed P_S with the TGBI section's intervals (score for sets, MOVER for the index) "
            "beside the posterior mean and highest-density interval.",
            digits=1,
            percent=("observed_p_s", "ci_low", "ci_high", "posterior_mean", "hdi_low", "hdi_high"),
            headers={
                "subset": "set",
                "observed_p_s": "observed P_S (%)",
                "ci_low": "low",
                "ci_high": "high",
                "posterior_mean": "posterior mean (%)",
                "hdi_low": "HDI low",
                "hdi_high": "HDI high",
            },
        ),
        Table(
            "tgbi_predictive_check",
            "TGBI: posterior predictive check of P_S per system and set",
            rate.derived["predictive_check"],
            ["system", "subset", "observed", "predicted", "pred_low", "pred_high", "p_value", "inside"],
            "The observed P_S (percent) against the 95% interval of P_S in data replicated from the posterior on the "
            "same items; the p-value is the share of replicates at or above the observed (near 0 or 1: misfit).",
            digits=1,
            percent=("observed", "predicted", "pred_low", "pred_high"),
        ),
        Table(
            "tgbi_posterior_differences",
            "TGBI: posterior differences between systems",
            rate.derived["differences"],
            ["system_a", "system_b", "subset", "mean", "hdi_low", "hdi_high", "p_greater"],
            "Posterior mean and HDI of P_S(a) − P_S(b) in points; p_greater is the posterior probability that a's P_S is larger.",
            digits=1,
            percent=("mean", "hdi_low", "hdi_high"),
        ),
        Table(
            "diagnostics",
            "Fit diagnostics",
            diagnostics,
            list(diagnostics.columns),
            "Failures name the thresholds a fit missed (the fits' timings: benchmarks/report.py).",
            digits=3,
        ),
    ]
    if "prates" in fits:
        rates = fits["prates"].derived["language_rates"]
        out.body.insert(
            3,
            Table(
                "prates_language_rates",
                "Prates: posterior shares per language (rate model)",
                rates,
                ["language", "outcome", "mean", "hdi_low", "hdi_high"],
                digits=1,
                percent=("mean", "hdi_low", "hdi_high"),
            ),
        )
    slope_rows = summary[summary["parameter"] == "slope"].astype({"group": str})
    out.body.insert(
        0,
        Figure(
            "calibration_slopes",
            "Calibration slope per language",
            figures.forest(
                slope_rows,
                estimate="mean",
                low="hdi_low",
                high="hdi_high",
                label="group",
                reference=0.0,
                xlabel="slope on logit(BLS female share)",
            ),
            f"Posterior means and {common(s)['level_pct']} HDIs; 1 would follow BLS fully, 0 not at all.",
        ),
    )
    both = pd.concat(
        [
            side.assign(
                method="observed", value=100 * side["observed_p_s"], low=100 * side["ci_low"], high=100 * side["ci_high"]
            ),
            side.assign(
                method="posterior", value=100 * side["posterior_mean"], low=100 * side["hdi_low"], high=100 * side["hdi_high"]
            ),
        ],
        ignore_index=True,
    ).astype({"system": str, "subset": str})
    out.body.append(
        Figure(
            "tgbi_posterior",
            "TGBI: posterior intervals beside the observed, by system and set",
            figures.forest(
                both, estimate="value", low="low", high="high", label="subset", group="method", panel="system", xlabel="P_S (%)"
            ),
            f"Observed: P_S with its {common(s)['level_pct']} score interval (sets) or MOVER interval "
            "(index); posterior: mean and highest-density interval.",
        )
    )
    out.appendix += [
        Table("calibration_summary", "", calib.summary, list(calib.summary.columns)),
        Table("tgbi_summary", "", rate.summary, list(rate.summary.columns)),
    ]
    out.provenance = {name: _provenance(fit) for name, fit in fits.items()}
    return out

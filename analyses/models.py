"""Fit the Bayesian models through the public API and write their summaries to reports/.

The calibration model (12 Prates languages against BLS) and the TGBI rate model, with
the posterior TGBI per system beside the bootstrap intervals of the TGBI study.

Usage: python analyses/models.py [--out reports/models] [--draws 1000] [--tune 1000] [--chains 2]
       [--seed 0] [--data-dir DIR] [--with-prates-rates]
"""

from __future__ import annotations

import argparse
import json
import warnings
from pathlib import Path

from stats_mtbias.report.formatting import format_table
from stats_mtbias.studies import models, tgbi


def _diag_line(result) -> str:
    d = result.diagnostics
    return (
        f"{d['sampler']}: compile {d['compile_seconds']:.1f} s, sampling {d['sample_seconds']:.1f} s; "
        f"max R-hat {d['max_r_hat']:.3f}, min bulk ESS {d['min_ess_bulk']:.0f}, min tail ESS {d['min_ess_tail']:.0f}, "
        f"{d['divergences']} divergences" + ("" if d["ok"] else " — fails: " + "; ".join(d["failures"]))
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", default="reports/models")
    parser.add_argument("--draws", type=int, default=1000)
    parser.add_argument("--tune", type=int, default=1000)
    parser.add_argument("--chains", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--data-dir")
    parser.add_argument("--with-prates-rates", action="store_true", help="also fit the Prates rate model (about 3 minutes)")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    common = dict(data_dir=args.data_dir, draws=args.draws, tune=args.tune, chains=args.chains, seed=args.seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        calib = models.run("prates", model="calibration", **common)
        rate = models.run("tgbi", **common)
        boot = tgbi.run(data_dir=args.data_dir, seed=args.seed, compare=False)
        prates_rates = models.run("prates", **common) if args.with_prates_rates else None
    slopes = calib.summary[
        calib.summary["parameter"].isin(["slope", "intercept", "pct_female_at_parity", "mu_slope", "sd_slope"])
    ]
    posterior = rate.derived["p_s"]
    side = posterior.merge(
        boot.estimates[["system", "subset", "p_s", "ci_low", "ci_high"]].astype({"system": str}), on=["system", "subset"]
    ).rename(columns={"mean": "posterior_mean", "hdi_low": "hdi_low", "hdi_high": "hdi_high", "p_s": "observed_p_s"})
    calib.summary.to_csv(out / "calibration_summary.csv", index=False)
    rate.summary.to_csv(out / "tgbi_summary.csv", index=False)
    side.to_csv(out / "tgbi_posterior_vs_bootstrap.csv", index=False)
    rate.derived["differences"].to_csv(out / "tgbi_posterior_differences.csv", index=False)
    provenance = {"calibration": calib.provenance.to_dict(), "tgbi": rate.provenance.to_dict()}
    md = [
        "# Hierarchical Bayesian models",
        "",
        f"PyMC models fitted with {calib.diagnostics['sampler']} ({args.chains} chains, "
        f"{args.tune} tuning + {args.draws} draws, seed {args.seed}).",
        "Intervals are 95% highest-density intervals.",
        "",
        "## Calibration against BLS (12 languages)",
        "logit P(she | he or she) = intercept[language] + slope[language] · logit(BLS female share) + category + occupation;",
        "intercepts and slopes partially pooled across languages. `pct_female_at_parity` = 100·expit(intercept): the",
        'share of "she" where BLS says 50%.',
        "",
        "Diagnostics: " + _diag_line(calib),
        "```",
        format_table(slopes, ["parameter", "group", "mean", "sd", "hdi_low", "hdi_high", "r_hat", "ess_bulk"]),
        "```",
        "## TGBI: posterior P_S per system and set, beside the bootstrap",
        "Categorical logit of female / neutral vs male per sentence: per system an intercept and the effects of formal",
        "pronoun, polite ending and content; lexicon items partially pooled. Posterior P_S is predicted for a new",
        "sample of lexicon items (item effects redrawn), the question the item bootstrap answers.",
        "",
        "Diagnostics: " + _diag_line(rate),
        "```",
        format_table(side, ["system", "subset", "observed_p_s", "ci_low", "ci_high", "posterior_mean", "hdi_low", "hdi_high"]),
        "```",
        "## TGBI: posterior differences between systems",
        "```",
        format_table(rate.derived["differences"], ["system_a", "system_b", "subset", "mean", "hdi_low", "hdi_high", "p_greater"]),
        "```",
    ]
    if prates_rates is not None:
        prates_rates.derived["language_rates"].to_csv(out / "prates_language_rates.csv", index=False)
        md += [
            "## Prates: posterior shares per language (rate model)",
            "Diagnostics: " + _diag_line(prates_rates),
            "```",
            format_table(prates_rates.derived["language_rates"], ["language", "outcome", "mean", "hdi_low", "hdi_high"]),
            "```",
        ]
        provenance["prates_rate"] = prates_rates.provenance.to_dict()
    md += ["## Provenance", "```json", json.dumps(provenance, indent=1), "```"]
    (out / "provenance.json").write_text(json.dumps(provenance, indent=1) + "\n", "utf-8")
    (out / "report.md").write_text("\n".join(md) + "\n", "utf-8")
    print(f"wrote {out}/report.md")


if __name__ == "__main__":
    main()

"""``stats-mtbias model``: a study's hierarchical Bayesian model (PyMC) of female-translation rates."""

from __future__ import annotations

import argparse

import stats_mtbias as smb
from stats_mtbias import options as vocabulary
from stats_mtbias._files import check_output, write_netcdf_atomic
from stats_mtbias.cli import _options
from stats_mtbias.cli._checks import protected
from stats_mtbias.cli._output import Output

NAME = "model"
OPTIONS = vocabulary.ModelOptions


def add_parser(sub) -> argparse.ArgumentParser:
    parser = sub.add_parser(
        NAME,
        help="hierarchical Bayesian models (PyMC) of female-translation rates",
        description="Fit a study's model (cached by data, options, seed and code): the posterior "
        "summary per parameter and derived quantity, with convergence diagnostics.",
    )
    _options.add_options(parser, OPTIONS)
    parser.add_argument("--languages", default=None, help="Prates languages, comma-separated (default: all)")
    _options.add_data_dir(parser)
    _options.add_seed(parser)
    _options.add_format(parser, "write the InferenceData to this netCDF file (the summary still goes to stdout)")
    parser.add_argument("--no-cache", action="store_true", help="fit again even if this fit is in the cache")
    _options.add_strict(parser)
    _options.add_show(parser)
    return parser


def precheck(args: argparse.Namespace) -> None:
    if args.out:
        files, directories = protected(args)
        check_output(args.out, files, protected=directories)


def run(args: argparse.Namespace) -> Output:
    result = smb.model(
        data_dir=args.data_dir,
        languages=_options.names(args.languages) or None,
        rng=args.seed,
        cache=not args.no_cache,
        **_options.values(args, OPTIONS),
    )
    if args.out:
        write_netcdf_atomic(result.idata, args.out)  # never a half-written file
    d = result.diagnostics
    notes = [
        f"sampler {d['sampler']}: compile {d['compile_seconds']:.1f} s, sampling {d['sample_seconds']:.1f} s; "
        f"max R-hat {d['max_r_hat']:.3f}, min bulk ESS {d['min_ess_bulk']:.0f}, min tail ESS {d['min_ess_tail']:.0f}, "
        f"{d['divergences']} divergences" + ("" if d["ok"] else " — FAILS: " + "; ".join(d["failures"]))
    ]
    if d.get("parametrisation"):
        notes.append(
            "group effects: "
            + ", ".join(f"{k} {v}" for k, v in d["parametrisation"].items())
            + " (centred where every level has >= 100 outputs)"
        )
    if args.out:
        notes.append(f"InferenceData written to {args.out}")
    # --out is the netCDF here: the summary goes to stdout in the chosen format.
    args.out = None
    return Output(result.summary, {**result.provenance.to_dict(), "signature": result.signature}, notes)

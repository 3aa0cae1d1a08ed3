"""``stats-mtbias power``: plan an evaluation (sample size, power or minimum detectable effect)."""

from __future__ import annotations

import argparse

import stats_mtbias as smb
from stats_mtbias import _defaults
from stats_mtbias import options as vocabulary
from stats_mtbias._files import write_atomic
from stats_mtbias.cli import _checks, _options
from stats_mtbias.cli._output import Output
from stats_mtbias.errors import UsageError
from stats_mtbias.planning.designs import check_numbers
from stats_mtbias.report.formatting import format_value

NAME = "power"
DESIGN_HELP = {
    "paired": "two systems' binary outcomes on the same items: McNemar's test (Connor 1987, or exact)",
    "rate": "one share: Wilson half-width, or the score test against --null",
    "normal": "any estimate with standard error --se measured on --n-pilot units",
    "pilot": "simulate evaluations from a study's pilot outputs (shipped or yours) through its own test",
    "labels": "items to label for a share corrected for a judge's errors (PPI++) within --half-width",
}
# The designs whose one-sided power does not depend on the direction (a difference −d as d).


def add_parser(sub) -> argparse.ArgumentParser:
    power = sub.add_parser(
        NAME,
        help="plan an evaluation: sample size, power or minimum detectable effect",
        description="What is left out is the answer: without --n the sample size for --difference "
        "(or --half-width); without --difference the minimum detectable effect at --n; with both "
        "the power. Shares, not percent.",
    )
    designs = power.add_subparsers(dest="design", required=True, metavar="{" + ",".join(vocabulary.DESIGNS) + "}")
    for name in vocabulary.DESIGNS:
        text = DESIGN_HELP.get(name, name)
        design = designs.add_parser(name, help=text, description=text)
        design.add_argument("--n", type=int, help="items (clusters) of the evaluation")
        design.add_argument("--difference", type=float, help="true difference to detect (a share: 0.02 = 2 points)")
        design.add_argument("--power", type=float, help=f"target power (default {_defaults.POWER})")
        design.add_argument("--alpha", type=float, default=_defaults.ALPHA, help=f"level of the test (default {_defaults.ALPHA})")
        _options.add_alternative(
            design, "direction of the test: two-sided (default), or one-sided: greater (a positive difference) or less"
        )
        _options.add_level(design, "confidence level of intervals (default 0.95)")
        design.add_argument(
            "--margin",
            type=float,
            metavar="SHARE",
            help="plan an equivalence design: the n (or, with --n, the power) to show |a − b| < SHARE by two "
            "one-sided tests when the true difference is --difference (default 0); with a one-sided --alternative, "
            "non-inferiority",
        )
        _options.add_format(design, "write the output to this file instead of stdout")
        _options.add_show(design)
        design.add_argument("--curve", metavar="PNG", help="also save the power curve (power against n) to this file")
        if name == "paired":
            design.add_argument(
                "--discordance", type=float, required=True, help="share of items on which the two outcomes differ"
            )
            design.add_argument(
                "--formula",
                choices=vocabulary.POWER_FORMULAS,
                default="connor",
                help="Connor's formula or the exact power of McNemar's exact test",
            )
            _options.renamed(design, "--method", "formula", "--formula {value}", choices=vocabulary.POWER_FORMULAS)
        if name == "labels":
            design.add_argument("--rate", type=float, required=True, help="expected share")
            design.add_argument(
                "--discordance",
                type=float,
                required=True,
                help="share of items where the judge and people disagree (1 - agreement of a pilot)",
            )
            design.add_argument("--items", type=int, help="items the judge reads in all (default: as many as needed)")
        if name == "rate":
            design.add_argument("--rate", type=float, help="expected share (for --half-width or the half-width at --n)")
            design.add_argument("--null", type=float, help="share under the null of the score test (e.g. 0.5)")
            _options.renamed(design, "--reference", "null", "--null", type=float, metavar="SHARE")
        if name in ("rate", "normal", "pilot", "labels"):
            design.add_argument("--half-width", type=float, help="target half-width of the interval (a share)")
        if name == "rate":
            design.add_argument("--cluster-size", type=float, default=1, help="outputs per cluster (default 1)")
            design.add_argument("--icc", type=float, default=0.0, help="intra-cluster correlation (default 0)")
        if name == "normal":
            design.add_argument("--se", type=float, required=True, help="standard error of the estimate")
            design.add_argument("--n-pilot", type=int, required=True, help="units the standard error was measured on")
        if name == "pilot":
            _pilot_options(design)
    return power


def _pilot_options(design) -> None:
    design.add_argument("--study", choices=vocabulary.STUDIES, required=True)
    design.add_argument("--systems", help="the two systems to compare, comma-separated (or one: its precision)")
    design.add_argument(
        "--metric",
        help="winomt: acc, delta_g, delta_s, …; tgbi: p_s; rates: female, gap, …; prates: male>female or p_female; optimal: b",
    )
    design.add_argument("--languages", metavar="LANGUAGE", help="winomt/prates/optimal: the (one) language to plan for")
    _options.renamed(design, "--language", "languages", "--languages")
    design.add_argument("--subset", help="tgbi: a sentence set or TGBI; rates: a group (of --by); prates: a category")
    design.add_argument(
        "--by",
        metavar="COLS",
        help="rates: the grouping column(s) of the pilot, comma-separated "
        "(--subset names one group; n then counts that group's items)",
    )
    design.add_argument(
        "--gold",
        metavar="COL",
        help="rates: the pilot's column of gold genders (--metric accuracy, accuracy_female, accuracy_male, accuracy_gap)",
    )
    design.add_argument(
        "--translations",
        action="append",
        default=[],
        metavar="PATH",
        help="your pilot outputs (tgbi or winomt; repeatable, named by --system)",
    )
    design.add_argument("--system", action="append", default=[], metavar="NAME", help="name of --translations")
    design.add_argument("--judgements", metavar="FILE", help="your pilot judgements (rates, prates, optimal, any other study)")
    design.add_argument(
        "--test",
        choices=vocabulary.PILOT_TESTS,
        default="bootstrap",
        help="test in each simulated evaluation (default: the study's paired bootstrap)",
    )
    design.add_argument("--n-sim", type=int, default=1000, help="simulated evaluations (default 1000)")
    _options.add_n_boot(
        design, 500, f"bootstrap resamples in each simulated evaluation (default 500, at least {_options.MIN_BOOT})"
    )
    _options.add_seed(design)
    _options.add_data_dir(design)


def _language(args) -> str | None:
    found = _options.names(args.languages) or []
    if len(found) > 1:
        raise UsageError(f"--languages: a pilot plans for one language; got {', '.join(found)}.")
    return found[0] if found else None


def _pilot(args: argparse.Namespace, language: str | None):
    systems = _options.names(args.systems)
    translations = _options.named(args.translations, args.system)
    if args.study in ("tgbi", "winomt"):
        shipped = [s for s in (systems or []) if s not in translations]
        kwargs = {"languages": [language] if language else None, "adjectives": False} if args.study == "winomt" else {}
        return getattr(smb, args.study)(
            shipped, translations=translations, data_dir=args.data_dir, n_boot=200, rng=args.seed, **kwargs
        )
    if args.translations:
        raise UsageError(f"--translations is for tgbi and winomt pilots; a {args.study} pilot takes --judgements.")
    if args.study == "rates":
        if not args.judgements:
            raise UsageError("a rates pilot needs --judgements (a CSV or Parquet with item, system, gender).")
        return smb.rates(args.judgements, by=_options.names(args.by) or (), gold=args.gold or None, n_boot=200, rng=args.seed)
    if args.study == "prates":
        return smb.prates(
            args.judgements,
            data_dir=args.data_dir,
            rng=args.seed,
            languages=[language] if language and not args.judgements else None,
        )
    if args.study == "optimal":
        return smb.optimal(args.judgements, data_dir=args.data_dir, n_boot=1000, rng=args.seed)
    # Any other study: its function on --judgements, with the seed (and the pilot's few resamples) it takes.
    if not args.judgements:
        raise UsageError(f"a {args.study} pilot needs --judgements.")
    takes = {item.name for item in vocabulary.OPTIONS[args.study].info()}
    kwargs = {"rng": args.seed, "n_boot": 200, "data_dir": args.data_dir}
    return getattr(smb, args.study)(args.judgements, **{k: v for k, v in kwargs.items() if k in takes})


def precheck(args: argparse.Namespace) -> None:
    """Paths, and every number of the plan before a pilot study is run (a NaN or a share of 2 is said at once)."""
    check_numbers(
        difference=args.difference,
        half_width=getattr(args, "half_width", None),
        discordance=getattr(args, "discordance", None),
        rate=getattr(args, "rate", None),
        null=getattr(args, "null", None),
        se=getattr(args, "se", None),
        alpha=args.alpha,
        level=args.level,
        power=args.power,
        cluster_size=getattr(args, "cluster_size", 1),
        icc=getattr(args, "icc", 0.0),
    )
    if args.design == "pilot" and args.study in ("tgbi", "winomt") and not (args.systems or args.translations):
        raise UsageError(
            f"a {args.study} pilot needs the systems to plan for: --systems a,b (shipped) or your --translations with --system."
        )
    _checks.precheck(args, cache=getattr(args, "study", None) == "winomt")


def run(args: argparse.Namespace) -> Output:
    alternative = args.alternative  # smb.power speaks the same two-sided|less|greater
    kw = dict(n=args.n, difference=args.difference, power=args.power, alpha=args.alpha, alternative=alternative, level=args.level)
    if args.margin is not None:
        kw["margin"] = args.margin
    if args.design == "paired":
        result = smb.power("paired", discordance=args.discordance, formula=args.formula, **kw)
    elif args.design == "rate":
        result = smb.power(
            "rate", rate=args.rate, null=args.null, half_width=args.half_width, cluster_size=args.cluster_size, icc=args.icc, **kw
        )
    elif args.design == "normal":
        result = smb.power("normal", se=args.se, n_pilot=args.n_pilot, half_width=args.half_width, **kw)
    elif args.design == "labels":
        result = smb.power(
            "labels", rate=args.rate, discordance=args.discordance, items=args.items, half_width=args.half_width, **kw
        )
    else:
        language = _language(args)
        result = smb.power(
            pilot=_pilot(args, language),
            systems=_options.names(args.systems),
            metric=args.metric,
            language=language,
            subset=args.subset,
            half_width=args.half_width,
            test=args.test,
            n_sim=args.n_sim,
            n_boot=args.n_boot,
            rng=args.seed,
            **kw,
        )
    notes = [f"answer: {result.question.replace('_', ' ')}", *result.notes]
    if args.margin is not None:
        notes.append(f"equivalence within ±{args.margin:g}: two one-sided tests at alpha {args.alpha:g} each")
    elif args.alternative != "two-sided":
        notes.append(f"alternative: {args.alternative} (one-sided, in the direction of the difference)")
    if args.curve:
        from stats_mtbias.plotting import to_png  # heavy: matplotlib

        write_atomic(args.curve, to_png(result.plot(scale=100, unit=" points")))
        notes.append(f"power curve written to {args.curve}")
    frame = result.table
    columns = [c for c in frame.columns if frame[c].notna().all() and frame[c].astype(str).ne("").all()]
    frame = frame[columns]
    if args.format == "table":  # one answer: a field per line
        shown = frame.T.reset_index()
        shown.columns = ["field", "value"]
        shown["value"] = [format_value(v, digits=4) for v in shown["value"]]
        frame = shown
    return Output(frame, result.provenance, notes, single=True)

"""WinoMT (Stanovsky et al. 2019): Acc, ΔG, ΔS per system and language, validated against people."""

from __future__ import annotations

import re

import pandas as pd

import stats_mtbias as smb
from stats_mtbias.report import figures
from stats_mtbias.report.document import Figure, Section, Table
from stats_mtbias.report.results import language_label, result_section
from stats_mtbias.reporting.sections import ITEMS_DROP, add, common, methods
from stats_mtbias.reporting.settings import Settings, collect_warnings

TITLE = "WinoMT (Stanovsky et al. 2019): English → gendered languages"
# The docs' worked example of planning: Google against Amazon on German ΔG.
PLANNED = ("google", "aws", "de")


def section(settings: Settings) -> Section:
    """The WinoMT section: headline per language, the reader's validity, comparisons, corrected Acc, +Adj, planning."""
    s = settings
    notes: list[str] = []
    with collect_warnings(notes, s.data_root):
        # explain: items.csv.gz says for every unread item why, and which target words were read.
        study = smb.winomt(
            data_dir=s.data_dir, n_boot=s.n_boot, rng=s.seed, level=s.level, corrected=True, validate=True, explain=True
        )
        planning, curve_png, plan_provenance = _planning(study, s)
    out = result_section(study, "winomt", title=TITLE, compress_items=True, items_drop=ITEMS_DROP, margin=s.margin)
    out.notes = _condensed([*notes, *out.notes])
    corrected = study.frames.get("corrected")
    n_comparisons = 0 if study.comparisons is None else len(study.comparisons)
    out.methods = methods(
        "winomt",
        **common(s),
        correction="Holm",
        family=study.provenance["options"]["family"],
        n_comparisons=n_comparisons,
        construct=_construct_sentence(corrected),
    )
    add(out, _pro_anti(study, s))
    if len(planning):
        add(
            out,
            Table(
                "planning",
                "Items needed to detect a ΔG difference: Google vs Amazon, German",
                planning,
                ["difference", "n", "power", "size", "method"],
                "Simulated from the shipped outputs: 2,000 evaluations per size, each drawn item by item within "
                "stereotype × gold gender and tested with the linearised (Wald) form of the paired test "
                "(smb.power(..., test='bootstrap') runs the bootstrap itself and agrees within Monte-Carlo error). "
                "The difference in points; size is the rejection rate when the systems do not differ.",
                digits=3,
                percent=("difference",),
                headers={"difference": "difference (points)"},
            ),
            Figure(
                "power_delta_g",
                "Power to detect a ΔG difference (Google vs Amazon, German)",
                curve_png,
                "Power of the paired comparison of ΔG against the number of items, simulated from the shipped outputs "
                "(2,000 evaluations per size, linearised test; bands ±2 Monte-Carlo standard errors); dashed: 80%. "
                "WinoMT has 3,888 items.",
            ),
        )
    out.provenance = {"winomt": study.provenance, **({"planning": plan_provenance} if plan_provenance else {})}
    return out


def _condensed(notes: list[str]) -> list[str]:
    """ "X/xx: no shipped translations, skipped" for every system and language as one note naming them all."""
    skipped: dict[str, list[str]] = {}
    other = []
    for note in dict.fromkeys(" ".join(n.split()) for n in notes):
        found = re.fullmatch(r"(\S+)/(\S+): no shipped translations, skipped", note)
        if found:
            skipped.setdefault(found.group(1), []).append(found.group(2))
        else:
            other.append(note)
    if skipped:
        other.append(
            "No shipped translations (not in the tables): "
            + "; ".join(f"{system} {', '.join(langs)}" for system, langs in skipped.items())
            + "."
        )
    return other


def _pro_anti(study: smb.StudyResult, s: Settings) -> Figure:
    table = study.table
    rows = []
    for metric, name in (("acc_pro", "pro-stereotypical"), ("acc_anti", "anti-stereotypical")):
        part = table[table["metric"] == metric]
        rows.append(
            part.assign(stereotype=name, value=100 * part["estimate"], low=100 * part["ci_low"], high=100 * part["ci_high"])
        )
    long = pd.concat(rows, ignore_index=True).astype({"system": str, "language": str})
    long["language"] = long["language"].map(language_label)
    return Figure(
        "pro_anti",
        "Accuracy on pro- and anti-stereotypical items",
        figures.forest(
            long,
            estimate="value",
            low="low",
            high="high",
            label="system",
            group="stereotype",
            panel="language",
            xlabel="Acc (%)",
            ncols=4,
        ),
        f"{common(s)['level_pct']} Wilson intervals; the gap between the colours is ΔS.",
    )


def _planning(pilot: smb.StudyResult, s: Settings) -> tuple[pd.DataFrame, bytes, dict]:
    """The docs' worked example in the report: items for a 1-, 2- and 5-point ΔG difference, Google vs Amazon in German."""
    a, b, language = PLANNED
    estimates = pilot.frame("estimates")
    if not {a, b} <= set(estimates.loc[estimates["language"] == language, "system"].astype(str)):
        return pd.DataFrame(columns=["difference", "n", "power", "size", "method"]), b"", {}
    rows = []
    for diff in (0.01, 0.02, 0.05):
        plan = smb.power(
            pilot=pilot, systems=(a, b), language=language, metric="delta_g", difference=diff, test="wald", n_sim=2000, rng=s.seed
        )
        rows.append(plan.table.iloc[0])
    table = pd.DataFrame(rows)[["difference", "n", "power", "size", "method"]].reset_index(drop=True)
    base = smb.power(
        pilot=pilot, systems=(a, b), language=language, metric="delta_g", n=3888, test="wald", n_sim=2000, rng=s.seed
    )
    curve = base.curve(n=[250, 500, 1000, 2000, 3888, 8000, 16000, 32000], differences=[0.01, 0.02, 0.05])
    png = figures.to_png(figures.power_curve(curve, scale=100, unit=" points", xlabel="WinoMT items (n)"))
    return table, png, plan.provenance


def _construct_sentence(corrected: pd.DataFrame | None) -> str:
    """Which labelled samples measured the pronoun and were left out of the correction, in words."""
    if corrected is None or "n_conflict" not in corrected:
        return ""
    other = corrected[corrected["labels"].str.contains("another construct", regex=False)]
    if other.empty:
        return "Every labelled sample measured the entity's own gender."
    named = [
        f"{r.system} {language_label(r.language)} ({r.n_conflict_pronoun} of {r.n_conflict} conflicts labelled by the pronoun)"
        for r in other.itertuples()
    ]
    return (
        "Left uncorrected for that reason: " + "; ".join(named) + ". An independent labelling of 100 German and "
        "100 French translations for the noun phrase's own gender (kept outside the repository) agreed with the "
        "automatic reading on .97 and .98."
    )

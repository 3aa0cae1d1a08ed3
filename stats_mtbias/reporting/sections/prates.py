"""Prates, Avelar & Lamb (2019): female, male and neutral pronouns for 1,019 occupations in 12 gender-neutral languages."""

from __future__ import annotations

import pandas as pd

import stats_mtbias as smb
from stats_mtbias.errors import SmallExpectedCountWarning
from stats_mtbias.report import figures
from stats_mtbias.report.document import Figure, Section, Table
from stats_mtbias.report.results import headline_table, result_section
from stats_mtbias.reporting.sections import ITEMS_DROP, add, common, methods
from stats_mtbias.reporting.settings import Settings, collect_warnings

TITLE = "Prates, Avelar & Lamb (2019): 12 gender-neutral languages → English"


def section(settings: Settings) -> Section:
    """The Prates section: shares per language, male-default tests, independence, BLS comparison and calibration."""
    s = settings
    base = dict(data_dir=s.data_dir, rng=s.seed, level=s.level)
    notes: list[str] = []
    runs = {}
    steps = ["per language", "per language and category", "per category", "authors' convention", "adjectives", "BLS"]
    for step in s.iterate(steps, "Prates"):
        # Small expected counts are handled by the exact tests: that warning is not a finding. The other runs read
        # the same file: their warnings would repeat the main run's.
        with collect_warnings(notes if step == "per language" else None, s.data_root, skip=(SmallExpectedCountWarning,)):
            if step == "per language":
                runs[step] = smb.prates(**base)
            elif step == "per language and category":
                runs[step] = smb.prates(**base, by="language,category")
            elif step == "per category":
                runs[step] = smb.prates(**base, by="category")
            elif step == "authors' convention":
                runs[step] = smb.prates(**base, denominator="all", test="ttest", correction="none")
            elif step == "adjectives":
                runs[step] = smb.prates(**base, items="adjectives")
            else:  # the optimal section's result: its per-occupation frame has the BLS shares
                runs[step] = s.cached(
                    "optimal", lambda: smb.optimal(data_dir=s.data_dir, n_boot=s.n_boot, rng=s.seed, level=s.level)
                )
    per_language, cells, per_category = runs["per language"], runs["per language and category"], runs["per category"]
    authors, adjectives = runs["authors' convention"], runs["adjectives"]
    out = result_section(per_language, "prates", title=TITLE, compress_items=True, items_drop=ITEMS_DROP, margin=s.margin)
    out.notes = _notes([*notes, *out.notes])
    out.methods = methods("prates", **common(s), correction="Holm", n_languages=per_language.table["language"].nunique())
    reference = cells.frame("reference")
    calibration = cells.frame("calibration")
    independence = cells.frame("independence")
    add(
        out,
        headline_table(per_category, name="rates_category", title="Per category (all languages)"),
        Table(
            "independence",
            "Tests of independence",
            independence,
            [
                c
                for c in ("language", "table", "n", "statistic", "dof", "p_value", "p_adjusted", "cramers_v", "method")
                if c in independence
            ],
            "Gender × category within each language and language × gender overall; Holm over the per-language tests.",
            digits=3,
        ),
        Table(
            "reference",
            "Translated female share against BLS participation",
            reference,
            [
                c
                for c in (
                    "language",
                    "level",
                    "n",
                    "n_excluded",
                    "translated",
                    "reference",
                    "diff",
                    "diff_ci_low",
                    "diff_ci_high",
                    "p_value",
                    "r",
                    "r_ci_low",
                    "r_ci_high",
                )
                if c in reference
            ],
            "Shares in percent (differences in points); occupations without a BLS share or an identified output are "
            "left out and counted in n_excluded.",
            digits=1,
            percent=("translated", "reference", "diff", "diff_ci_low", "diff_ci_high"),
            headers={
                "translated": "translated (%)",
                "reference": "BLS (%)",
                "diff": "diff (points)",
                "diff_ci_low": "low",
                "diff_ci_high": "high",
            },
        ),
        Table(
            "calibration",
            "Calibration: logit P(female) = intercept + slope · logit(BLS share)",
            calibration,
            [
                c
                for c in (
                    "language",
                    "n_cells",
                    "intercept",
                    "intercept_ci_low",
                    "intercept_ci_high",
                    "slope",
                    "slope_ci_low",
                    "slope_ci_high",
                    "female_at_parity",
                    "note",
                )
                if c in calibration
            ],
            "Standard errors clustered by category; female at parity: the translated female share where BLS says 50%.",
            digits=3,
            percent=("female_at_parity",),
            headers={"female_at_parity": "female at parity (%)"},
        ),
        headline_table(
            authors, name="rates_authors_convention", title="The authors' convention (all rows; paired t-test, no correction)"
        ),
        headline_table(adjectives, name="rates_adjectives", title="Adjectives: “he/she is <adjective>”"),
    )
    out.appendix.append(Table("tests_by_category", "", cells.frame("tests"), list(cells.frame("tests").columns)))
    add(out, _heatmap(cells), _scatter(runs["BLS"], reference))
    out.provenance = {
        "main": per_language.provenance,
        "by_category": cells.provenance,
        "authors_convention": authors.provenance,
        "adjectives": adjectives.provenance,
    }
    return out


def _notes(notes: list[str]) -> list[str]:
    return list(dict.fromkeys(" ".join(n.split()) for n in notes))


def _heatmap(result: smb.StudyResult) -> Figure:
    rates = result.frame("rates")
    cells = rates[rates["category"].astype(str) != "all"]
    matrix = 100 * cells.pivot_table(index="category", columns="language", values="female", sort=False)
    matrix.index = [str(c).removesuffix(" occupations") for c in matrix.index]
    return Figure(
        "heatmap_female_share",
        "Female share by category and language",
        figures.heatmap(matrix, colorbar="% female among identified outputs", vmin=0),
        "Percent of identified outputs that are female; blank: no identified output.",
    )


def occupation_shares(optimal: smb.StudyResult) -> pd.DataFrame:
    """Per occupation: the translated female share (mean over languages of the identified outputs' female share) and
    the BLS share, both in [0, 1]; occupations without either are left out (as Prates' occupation-level comparison)."""
    occ = optimal.frame("occupations")
    identified = occ[["n_female", "n_male", "n_other"]].sum(axis=1)
    share = (occ["n_female"] / identified.where(identified > 0)).rename("translated")
    frame = occ.assign(translated=share)
    per = frame.groupby("item", sort=False).agg(translated=("translated", "mean"), reference=("female_share", "first"))
    return per.dropna().reset_index()


def _scatter(optimal: smb.StudyResult, reference: pd.DataFrame) -> Figure:
    shares = occupation_shares(optimal)
    return Figure(
        "translated_vs_bls",
        "Translated against BLS female share per occupation",
        figures.scatter_reference(
            100 * shares["reference"],
            100 * shares["translated"],
            xlabel="BLS women's participation (%)",
            ylabel="female share of translations (%, mean over languages)",
        ),
        f"{len(shares)} occupations with a BLS share and an identified output; dashed: translated = reference.",
    )

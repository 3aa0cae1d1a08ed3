"""TGBI (Cho et al. 2019): P_S per Korean sentence set and the index, three Korean → English systems."""

from __future__ import annotations

import stats_mtbias as smb
from stats_mtbias.report.document import Section, Table
from stats_mtbias.report.results import headline_table, result_section
from stats_mtbias.reporting.sections import ITEMS_DROP, add, common, methods
from stats_mtbias.reporting.settings import Settings, collect_warnings
from stats_mtbias.result import CORRECTION_NAMES

TITLE = "TGBI (Cho et al. 2019): Korean → English"


def main_result(settings: Settings) -> smb.StudyResult:
    """The section's result (score and MOVER intervals), computed once per report (the models section reuses it)."""
    s = settings
    return s.cached("tgbi", lambda: smb.tgbi(data_dir=s.data_dir, n_boot=s.n_boot, rng=s.seed, level=s.level))


def section(settings: Settings) -> Section:
    """The TGBI section: headline P_S, comparisons, the bootstrap variant and the authors' rules beside it."""
    s = settings
    common_args = dict(data_dir=s.data_dir, n_boot=s.n_boot, rng=s.seed, level=s.level)
    notes: list[str] = []
    variant_notes: dict[str, list[str]] = {}
    runs = {}
    for step in s.iterate(["score and MOVER intervals", "bootstrap", "authors' rules"], "TGBI"):
        # Only the main run's warnings are the section's notes; a variant's belong to its own table.
        with collect_warnings(notes if step == "score and MOVER intervals" else None, s.data_root) as caught:
            if step == "score and MOVER intervals":
                runs[step] = main_result(s)
            elif step == "bootstrap":
                runs[step] = smb.tgbi(**common_args, interval="percentile")
            else:
                runs[step] = smb.tgbi(**common_args, lexicon="cho2019", repeated_blocks="keep")
        variant_notes[step] = caught
    main, boot, authors = runs["score and MOVER intervals"], runs["bootstrap"], runs["authors' rules"]
    out = result_section(main, "tgbi", title=TITLE, compress_items=True, items_drop=ITEMS_DROP, margin=s.margin)
    out.notes = [*notes, *(n for n in out.notes if n not in notes)]
    n_comparisons = 0 if main.comparisons is None else len(main.comparisons)
    out.methods = methods(
        "tgbi",
        **common(s),
        correction=_correction(main),
        family=main.provenance["options"]["family"],
        family_size=_family_size(main),
        n_comparisons=n_comparisons,
    )
    # The variant's warning says which lines it keeps; its advice on other options is for the main run's user.
    kept = "; ".join(n.split(";")[0] for n in variant_notes["authors' rules"])
    variants = [
        headline_table(boot, name="estimates_bootstrap", title="P_S with cluster-bootstrap intervals"),
        headline_table(
            authors, name="estimates_authors_rules", title="The authors' rules: cho2019 cue lists, the repeated block kept"
        ),
    ]
    variants[0] = _recaption(
        variants[0],
        "The same estimates with cluster-bootstrap intervals over lexicon items "
        "(percentile), for comparison with the score intervals of the headline.",
    )
    variants[1] = _recaption(
        variants[1],
        "What the published numbers used: the authors' cue lists, and Papago's "
        "defective repeated block kept as translations rather than counted as unknown" + (f" ({kept})" if kept else "") + ".",
    )
    add(out, *variants)
    rule_changes = main.frame("rule_changes")
    changes = rule_changes.rename_axis("cho2019").reset_index()
    out.appendix = [t for t in out.appendix if t.name != "rule_changes"]
    out.appendix.append(
        Table(
            "rule_changes",
            "Outputs by gender rule (rows: cho2019, columns: default)",
            changes,
            list(changes.columns),
            "How many outputs each rule reads differently.",
            digits=0,
        )
    )
    out.provenance = {"analytic": main.provenance, "bootstrap": boot.provenance, "authors_rules": authors.provenance}
    return out


def _recaption(table: Table, caption: str) -> Table:
    from dataclasses import replace

    return replace(table, caption=f"{caption} {table.caption}")


def _correction(result: smb.StudyResult) -> str:
    return CORRECTION_NAMES.get(result.correction, result.correction)


def _family_size(result: smb.StudyResult) -> int:
    if result.comparisons is None or not len(result.comparisons):
        return 0
    return int(result.comparisons.groupby(["language", "subset", "metric"]).size().max())

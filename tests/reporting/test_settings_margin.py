"""``Settings(margin=)``: the full report's equivalence margin reaches every section that shows comparisons.

The studies are replaced by one small result (the full report takes minutes): what is
checked is the plumbing, Settings → section builder → ``result_section(margin=)``, and
that the section then says "equivalent within ±δ", "not shown" or "differs".
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import stats_mtbias as smb
from stats_mtbias.errors import UsageError
from stats_mtbias.report import results as report_results
from stats_mtbias.reporting import __main__ as reporting_main
from stats_mtbias.reporting.sections import builders
from stats_mtbias.reporting.settings import Settings


@pytest.fixture(scope="module")
def small():
    """Three systems on 300 items: "close" flips 3% of "mine"'s readings, "far" reads 40% of its men as women."""
    rng = np.random.default_rng(3)
    n = 300
    base = rng.random(n) < 0.5
    systems = {
        "mine": base,
        "close": np.where(rng.random(n) < 0.03, ~base, base),
        "far": base | (rng.random(n) < 0.4),
    }
    frame = pd.DataFrame(
        {
            "item": np.tile(np.arange(n), 3),
            "system": np.repeat(list(systems), n),
            "gender": np.where(np.concatenate(list(systems.values())), "female", "male"),
        }
    )
    return smb.rates(frame, interval="score")


class _Stop(Exception):
    """Raised once the section has been laid out: the rest of the builder needs the real study."""


def test_margin_is_checked_and_kept_in_the_provenance():
    assert Settings(margin=0.02).as_dict()["margin"] == 0.02
    assert "margin" not in Settings().as_dict()
    with pytest.raises(UsageError, match="`margin`"):
        Settings(margin=0)
    with pytest.raises(UsageError, match="`margin`"):
        Settings(margin="0.02")


@pytest.mark.parametrize("study", ["tgbi", "prates", "optimal", "winomt"])
@pytest.mark.parametrize("margin", [None, 0.05])
def test_every_section_with_comparisons_gets_the_margin(study, margin, small, monkeypatch):
    module = __import__(f"stats_mtbias.reporting.sections.{study}", fromlist=["section"])
    monkeypatch.setattr(smb, study, lambda *args, **kwargs: small)
    if study == "winomt":  # the power curve simulates: not what is tested here
        monkeypatch.setattr(module, "_planning", lambda *args: (None, None, None))
    laid_out = {}

    def capture(result, key, **kwargs):
        laid_out["margin"] = kwargs.get("margin")
        laid_out["section"] = report_results.result_section(result, key, **kwargs)
        raise _Stop

    monkeypatch.setattr(module, "result_section", capture)
    with pytest.raises(_Stop):
        builders()[study](Settings(margin=margin, progress=False, n_boot=200))
    assert laid_out["margin"] == margin
    (table,) = [t for t in laid_out["section"].body if getattr(t, "name", "") == "comparisons"]
    forest = [f for f in laid_out["section"].figures if f.name.startswith("forest_comparisons")]
    if margin is None:
        assert "equivalence" not in table.cells and all("equivalence margins" not in f.caption for f in forest)
    else:
        words = table.cells.set_index("system b")["equivalence"]
        assert set(words) <= {"equivalent within ±5 points", "not shown", "differs"}
        assert "equivalent within ±5 points" in set(words) and "differs" in set(words)
        assert forest and all("±5 points: the equivalence margins" in f.caption for f in forest)


def test_the_module_entry_point_takes_margin(monkeypatch, tmp_path):
    seen = {}

    def run(out, studies, settings, formats, screenshot=None):
        seen["settings"] = settings
        return None, pd.DataFrame({"study": [], "tables": [], "figures": [], "seconds": []}), []

    monkeypatch.setattr(reporting_main, "run", run)
    assert reporting_main.main(["--out", str(tmp_path), "--studies", "tgbi", "--margin", "0.02", "--no-progress"]) == 0
    assert seen["settings"].margin == 0.02
    assert reporting_main.main(["--out", str(tmp_path), "--margin", "-1"]) == 64

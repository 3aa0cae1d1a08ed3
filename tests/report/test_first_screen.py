"""The first screen of a report, rendered in headless Chromium, shows the headline table (issue 35, item 7).

Skipped where no Chromium is installed, unless ``MTBIAS_REQUIRE_BROWSER`` is set (CI installs
Chromium and sets it: there the test must run, and fails without a browser).
"""

from __future__ import annotations

import os

import matplotlib.image
import numpy as np
import pandas as pd
import pytest

import stats_mtbias as smb
from stats_mtbias.report.screenshot import FIRST_SCREEN, find_browser, table_layout

pytestmark = pytest.mark.skipif(
    find_browser() is None and not os.environ.get("MTBIAS_REQUIRE_BROWSER"),
    reason="no Chromium on PATH (apt-get install chromium; CI sets MTBIAS_REQUIRE_BROWSER=1 and runs this)",
)


def _own_benchmark() -> smb.StudyResult:
    rng = np.random.default_rng(3)
    rows = [
        {
            "item": i,
            "prompt_set": ["occupations", "adjectives"][i % 2],
            "system": system,
            "gender": rng.choice(["female", "male", "neutral"], p=[p, 0.9 - p, 0.1]),
        }
        for i in range(200)
        for system, p in (("my-mt", 0.4), ("my-llm", 0.3), ("google", 0.2), ("aws", 0.25))
    ]
    return smb.rates(pd.DataFrame(rows), by="prompt_set", n_boot=200, rng=0, against=["my-mt", "my-llm"])


def test_first_screen_shows_the_headline_and_the_screenshot_is_taken(tmp_path):
    png = tmp_path / "first.png"
    written = smb.report(_own_benchmark(), out=tmp_path / "report", screenshot=png)
    assert written[-1] == png
    image = matplotlib.image.imread(png)
    assert image.shape[:2] == (FIRST_SCREEN[1], FIRST_SCREEN[0])
    assert image.std() > 0.05  # a rendered page, not a blank one
    (_, height), tables = table_layout(tmp_path / "report" / "report.html")
    names = [name for name, _, _ in tables]
    # The headline is the page's first table and lies whole on the first screen; the accounting is far below it.
    assert names[0] == "rates/headline"
    _, top, bottom = tables[0]
    assert 0 < top < bottom <= height
    accounting = dict((name, top) for name, top, _ in tables)["rates/accounting"]
    assert accounting > height

"""`smb.report` of any results: headline first in percent, the user's systems first and marked, their comparisons,
a figure per metric, the reader's validity, items.csv, the appendix, the screenshot refused without Chromium."""

from __future__ import annotations

import gzip
import html.parser
import io
import os
import warnings

import matplotlib.image
import numpy as np
import pandas as pd
import pytest

import stats_mtbias as smb
from stats_mtbias import plotting
from stats_mtbias.errors import UsageError
from stats_mtbias.report import results as report_results
from stats_mtbias.report import screenshot as browser
from stats_mtbias.report.formatting import format_interval
from stats_mtbias.result import adjust

SYSTEMS = [("my-mt", 0.35), ("my-llm", 0.45), ("google", 0.25), ("aws", 0.3)]


def _benchmark(seed: int = 1, n: int = 240) -> pd.DataFrame:
    """An own benchmark: 240 prompts in three sets, two own systems and two baselines, one judgement each."""
    rng = np.random.default_rng(seed)
    rows = []
    for item in range(n):
        for system, p_female in SYSTEMS:
            gender = rng.choice(["female", "male", "neutral", "unknown"], p=[p_female, 0.9 - p_female, 0.07, 0.03])
            rows.append(
                {
                    "item": item,
                    "prompt_set": ["occupations", "adjectives", "kinship"][item % 3],
                    "system": system,
                    "gender": gender,
                }
            )
    return pd.DataFrame(rows)


@pytest.fixture(scope="module")
def rates_all_pairs():
    return smb.rates(_benchmark(), by="prompt_set", n_boot=200, rng=0)


@pytest.fixture(scope="module")
def rates_against():
    return smb.rates(_benchmark(), by="prompt_set", n_boot=200, rng=0, against=["my-mt", "my-llm"])


class _Tables(html.parser.HTMLParser):
    """The cells of every ``<table data-table=...>`` in document order, and the class of each row."""

    def __init__(self):
        super().__init__()
        self.order, self.tables, self.classes = [], {}, {}
        self._current = self._row = self._cell = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table" and "data-table" in attrs:
            self._current = attrs["data-table"]
            self.order.append(self._current)
            self.tables[self._current], self.classes[self._current] = [], []
        elif tag == "tr" and self._current is not None:
            self._row = []
            self.classes[self._current].append(attrs.get("class", ""))
        elif tag in ("td", "th") and self._row is not None:
            self._cell = ""

    def handle_data(self, data):
        if self._cell is not None:
            self._cell += data

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self._row.append(self._cell)
            self._cell = None
        elif tag == "tr" and self._row is not None:
            self.tables[self._current].append(self._row)
            self._row = None
        elif tag == "table":
            self._current = None


def _html_tables(path) -> _Tables:
    parser = _Tables()
    parser.feed(path.read_text("utf-8"))
    return parser


def test_headline_is_first_in_percent_with_the_users_systems_first(rates_all_pairs, tmp_path):
    res = rates_all_pairs
    written = smb.report(res, out=tmp_path, mine=["my-llm", "my-mt"])
    assert {p.name for p in written} >= {"report.html", "report.md", "report.tex", "headline.csv", "items.csv"}
    parsed = _html_tables(tmp_path / "report.html")
    # The headline is the first table of the page, before the comparisons and the accounting of the appendix.
    assert parsed.order[0] == "rates/headline"
    assert parsed.order.index("rates/comparisons") < parsed.order.index("rates/accounting")
    head = parsed.tables["rates/headline"]
    header, rows = head[0], head[1:]
    # 4 metrics × 4 groups is wider than MAX_COLUMNS: one row per group × system, the user's systems first.
    assert header[:2] == ["group", "system"] and header[2:] == ["female (%)", "male (%)", "neutral (%)", "male − female (points)"]
    assert [r[1] for r in rows[:4]] == ["my-llm", "my-mt", "google", "aws"]
    assert parsed.classes["rates/headline"][1:5] == ["mine", "mine", "", ""]
    # Each cell is 100 × the table's share and its interval, rounded to one decimal.
    table = res.table.set_index(["system", "subset", "metric"])
    group = rows[0][0]
    assert group in set(res.table["subset"])
    for row in rows[:4]:
        est = table.loc[(row[1], group, "female")]
        assert row[2] == format_interval(est["estimate"], est["ci_low"], est["ci_high"])
        assert row[2] == f"{100 * est['estimate']:.1f} [{100 * est['ci_low']:.1f}, {100 * est['ci_high']:.1f}]"
    # The CSV beside it keeps the tidy rows in shares.
    csv = pd.read_csv(tmp_path / "rates" / "headline.csv")
    assert csv["estimate"].between(-1, 1).all() and list(csv["system"].iloc[:1]) == ["my-llm"]
    mine_rows = csv[(csv["system"] == "my-mt") & (csv["metric"] == "female")]
    expected = res.table[(res.table["system"] == "my-mt") & (res.table["metric"] == "female")]
    np.testing.assert_allclose(mine_rows["estimate"].to_numpy(), expected["estimate"].to_numpy(), rtol=1e-9)


def test_comparisons_are_the_users_against_each_other_system_readjusted(rates_all_pairs, tmp_path):
    res = rates_all_pairs
    smb.report(res, out=tmp_path, mine=["my-llm"])
    shown = pd.read_csv(tmp_path / "rates" / "comparisons.csv")
    # Only my-llm's comparisons, each turned so that diff = my-llm minus the other.
    assert set(shown["system_a"]) == {"my-llm"} and set(shown["system_b"]) == {"my-mt", "google", "aws"}
    full = res.compare()
    turned = full[full["system_b"] == "my-llm"].iloc[0]
    row = shown[
        (shown["system_b"] == turned["system_a"]) & (shown["subset"] == turned["subset"]) & (shown["metric"] == turned["metric"])
    ].iloc[0]
    assert row["diff"] == pytest.approx(-turned["diff"], rel=1e-9)
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((-turned["ci_high"], -turned["ci_low"]), rel=1e-9)
    # The baseline pairs are gone, so p_adjusted is Holm again over the 3 rows left in each family.
    kept = full[(full["system_a"] == "my-llm") | (full["system_b"] == "my-llm")]
    again = adjust(kept.drop(columns=["p_adjusted", "family"]), "holm", res.family)
    again["other"] = again["system_a"].where(again["system_b"] == "my-llm", again["system_b"])
    merged = shown.merge(again, left_on=["system_b", "subset", "metric"], right_on=["other", "subset", "metric"])
    assert len(merged) == len(shown)
    np.testing.assert_allclose(merged["p_adjusted_x"], merged["p_adjusted_y"], rtol=1e-9)  # the CSV's 10 digits
    assert shown["family"].str.endswith("(3 comparisons)").all()
    z95, z80 = 1.959964, 0.841621
    np.testing.assert_allclose(shown["mde"], (z95 + z80) * (shown["ci_high"] - shown["ci_low"]) / (2 * z95), rtol=1e-6)
    md = (tmp_path / "rates" / "report.md").read_text("utf-8")
    assert "adjusted again over the rows that remain" in md and "against=[your systems]" in md


def test_default_mine_is_against_for_an_own_benchmark_and_its_comparisons_are_kept(rates_against, tmp_path):
    res = rates_against
    smb.report(res, out=tmp_path)  # every system is the user's: mine comes from against=
    parsed = _html_tables(tmp_path / "report.html")
    assert [r[1] for r in parsed.tables["rates/headline"][1:3]] == ["my-mt", "my-llm"]
    shown = pd.read_csv(tmp_path / "rates" / "comparisons.csv")
    cmp = res.compare()
    # Computed with against=: the study's own family, rows and p_adjusted unchanged.
    assert len(shown) == len(cmp)
    np.testing.assert_allclose(np.sort(shown["p_adjusted"]), np.sort(cmp["p_adjusted"]), rtol=1e-9)
    md = (tmp_path / "rates" / "report.md").read_text("utf-8")
    assert "as the study was asked with against=" in md
    assert "Your systems: my-mt, my-llm" in (tmp_path / "report.md").read_text("utf-8")


def test_a_figure_per_metric_and_a_forest_every_one_a_valid_png(rates_against, tmp_path):
    written = smb.report(rates_against, out=tmp_path, formats=["html"])
    names = {p.relative_to(tmp_path).as_posix() for p in written}
    assert {f"rates/{n}.png" for n in ("figure_female", "figure_male", "figure_gap", "forest_comparisons")} <= names
    assert "report.md" not in names and "report.tex" not in names and "report.html" in names
    for name in ("figure_female.png", "forest_comparisons.png"):
        image = matplotlib.image.imread(io.BytesIO((tmp_path / "rates" / name).read_bytes()), format="png")
        assert image.shape[1] > 500 and image.std() > 0.05


def test_the_figure_marks_the_users_systems_by_shape_on_one_axis():

    frame = pd.DataFrame(
        {
            "system": ["mine", "base"] * 2,
            "panel": ["p", "p", "q", "q"],
            "est": [10.0, 20, 30, 40],
            "lo": [5.0, 15, 25, 35],
            "hi": [15.0, 25, 35, 45],
        }
    )
    fig = plotting.interval_figure(frame, estimate="est", low="lo", high="hi", label="system", panel="panel", marked=["mine"])
    p, q = fig.axes[:2]
    assert p.get_xlim() == q.get_xlim()
    markers = {line.get_marker() for line in p.get_lines() if line.get_marker() not in ("|", "None", None)}
    assert markers == {"D", "o"}  # the user's diamond, the baseline's circle
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert labels == ["mine", "baseline"]


def test_items_csv_has_one_row_per_system_and_item_with_the_reading(rates_against, tmp_path):
    smb.report(rates_against, out=tmp_path)
    items = pd.read_csv(tmp_path / "rates" / "items.csv")
    judgements = rates_against.frame("judgements")
    assert len(items) == len(judgements)
    assert list(items.columns[:1]) == ["system"] and "gender" in items


def test_notes_are_each_shown_once():
    assert report_results.tidy_notes(["x  y", "z", "x y", ""]) == ["x y", "z"]


def test_bad_inputs_are_refused_before_any_file_is_written(rates_against, tmp_path, monkeypatch):
    out = tmp_path / "never"
    with pytest.raises(UsageError, match="`mine`: nobody is in none of the results"):
        smb.report(rates_against, out=out, mine=["nobody"])
    with pytest.raises(UsageError, match="`formats` must be one of"):
        smb.report(rates_against, out=out, formats=["pdf"])
    with pytest.raises(UsageError, match="add 'html' to `formats`"):
        smb.report(rates_against, out=out, formats=["md"], screenshot=tmp_path / "x.png")
    monkeypatch.setattr(browser, "find_browser", lambda: None)
    with pytest.raises(UsageError, match="no Chromium on PATH"):
        smb.report(rates_against, out=out, screenshot=tmp_path / "x.png")
    with pytest.raises(UsageError, match="at least one result"):
        smb.report([], out=out)
    assert not out.exists()


@pytest.mark.needs_data  # smb.winomt reads the shipped WinoMT items (sentences, gold), for the user's readings too
def test_reader_validity_beside_winomt_numbers(tmp_path):
    # The user's own readings of German (fast: no alignment), and a baseline named like a shipped system.
    rng = np.random.default_rng(0)
    gold = smb.winomt(judgements=_readings(rng, {"x": 1.0}), n_boot=100).frame("judgements")[["item", "gold"]]
    frame = _readings(rng, {"mine": 0.7, "google": 0.6}, gold)
    res = smb.winomt(judgements=frame, n_boot=200)
    smb.report(res, out=tmp_path)  # mine defaults to the systems not shipped: "mine"
    parsed = _html_tables(tmp_path / "report.html")
    assert parsed.order[:2] == ["winomt/headline", "winomt/reader_validity"]
    head = parsed.tables["winomt/headline"]
    assert head[0] == ["system", "Acc (%)", "ΔG (points)", "ΔS (points)", "Acc pro (%)", "Acc anti (%)"]
    assert [r[0] for r in head[1:]] == ["mine", "google"]
    validity = parsed.tables["winomt/reader_validity"]
    header, row = validity[0], validity[1]
    agreement = report_results.reader_agreement().set_index("language").loc["de"]
    assert row[header.index("agreement (%)")] == format_interval(
        agreement["agreement"], agreement["ci_low"], agreement["ci_high"]
    )
    assert row[header.index("conflicts labelled by the pronoun")] == (
        f"{int(agreement['n_conflict_pronoun'])} of {int(agreement['n_conflict'])}"
    )
    est = res.frame("estimates").set_index("system")
    for system in ("mine", "google"):
        expected = f"{100 * est.loc[system, 'n_unknown'] / est.loc[system, 'n']:.1f} ({int(est.loc[system, 'n_unknown'])})"
        assert row[header.index(f"unread · {system}")] == expected
    md = (tmp_path / "winomt" / "report.md").read_text("utf-8")
    assert "entity's own noun phrase" in md
    items = pd.read_csv(tmp_path / "winomt" / "items.csv")
    assert len(items) == len(res.frame("judgements")) == 2 * 3888
    assert {"system", "language", "item", "gold", "gender", "correct", "reason"} <= set(items.columns)
    assert (items["correct"] == (items["gold"] == items["gender"])).all()
    assert set(items.loc[items["gender"] == "unknown", "reason"]) == {"no_reading"}


def _readings(rng, systems: dict, gold: pd.DataFrame | None = None) -> pd.DataFrame:
    """German readings of each WinoMT item by `systems` ({name: share right}); 2% unread."""
    items = np.arange(3888)
    golds = gold.set_index("item")["gold"].reindex(items).to_numpy() if gold is not None else np.full(3888, "male")
    rows = []
    for system, right in systems.items():
        flip = rng.random(3888) >= right
        gender = np.where(flip, np.where(golds == "female", "male", "female"), golds)
        gender = np.where(rng.random(3888) < 0.02, "", gender)
        rows.append(pd.DataFrame({"item": items, "system": system, "language": "de", "gender": gender}))
    return pd.concat(rows, ignore_index=True)


@pytest.mark.needs_data  # the shipped systems' outputs
def test_tgbi_on_own_translations_has_the_same_shape(tmp_path):
    # Kakao's outputs as if they were the user's: ``item, set, translation`` (item: the line in the set's file).
    kakao = smb.tgbi(["kakao"], n_boot=200, rng=0).frame("judgements")
    own = tmp_path / "mine.csv"
    kakao = kakao.drop(columns="item").rename(columns={"line": "item", "subset": "set"})
    kakao[["item", "set", "translation"]].to_csv(own, index=False)
    res = smb.tgbi(["google", "papago"], translations={"mine": own}, n_boot=200, rng=0)
    smb.report(res, out=tmp_path / "r")
    parsed = _html_tables(tmp_path / "r" / "report.html")
    head = parsed.tables["tgbi/headline"]
    # 8 columns (seven sets and the index) fit: rows are systems, the user's first and marked.
    assert head[0] == ["system", "informal", "formal", "impolite", "polite", "negative", "positive", "occupation", "TGBI"]
    assert [r[0] for r in head[1:]] == ["mine", "google", "papago"]
    assert parsed.classes["tgbi/headline"][1:] == ["mine", "", ""]
    index = res.table[(res.table["system"] == "mine") & (res.table["subset"] == "TGBI")].iloc[0]
    assert head[1][-1] == format_interval(index["estimate"], index["ci_low"], index["ci_high"])
    shown = pd.read_csv(tmp_path / "r" / "tgbi" / "comparisons.csv")
    assert set(shown["system_a"]) == {"mine"} and len(shown) == 2 * 8
    items = pd.read_csv(tmp_path / "r" / "tgbi" / "items.csv")
    assert len(items) == len(res.frame("judgements")) and "origin" not in items


def test_items_file_can_be_compressed_reproducibly(rates_against):
    name, data = report_results.items_file(rates_against, compress=True)
    again = report_results.items_file(rates_against, compress=True)[1]
    assert name == "items.csv.gz" and data == again
    assert len(pd.read_csv(io.BytesIO(gzip.decompress(data)))) == len(rates_against.frame("judgements"))


def test_format_aliases_and_the_title(rates_against, tmp_path):
    written = smb.report(rates_against, out=tmp_path, formats=["markdown", "latex"], title="My benchmark")
    names = {p.relative_to(tmp_path).as_posix() for p in written}
    assert {"report.md", "report.tex"} <= names and "report.html" not in names
    assert (tmp_path / "report.md").read_text("utf-8").startswith("# My benchmark")
    tex = (tmp_path / "report.tex").read_text("utf-8")
    assert r"\title{My benchmark}" in tex and tex.startswith("% My benchmark: written by stats_mtbias.")
    # Nothing of the template is left unrendered (its first line once kept Jinja's {{ }} in a comment).
    assert not any(mark in tex for mark in ("{{", "}}", "<<", ">>", "<%", "%>"))


def test_the_screenshot_may_go_into_the_report_folder_it_creates(rates_against, tmp_path):
    if browser.find_browser() is None and not os.environ.get("MTBIAS_REQUIRE_BROWSER"):
        pytest.skip("no Chromium on PATH")
    out = tmp_path / "new" / "report"
    written = smb.report(rates_against, out=out, formats=["html"], screenshot=out / "first.png")
    assert written[-1] == out / "first.png" and (out / "first.png").stat().st_size > 10_000


def test_sampled_outputs_get_their_consistency_table(tmp_path, data_dir):
    from tests.statistical._samples import sampled_winomt, winomt_gold

    rng = np.random.default_rng(5)
    gold = winomt_gold(data_dir).iloc[:300]
    frame = sampled_winomt(gold, {"llm": (2.0, 0.5), "google": (1.5, 0.0)}, k=4, rng=rng)
    with pytest.warns(smb.DataQualityWarning, match="300 of 3,888 items translated"):
        res = smb.winomt(judgements=frame, sample="sample", n_boot=100, rng=0, data_dir=data_dir)
    smb.report(res, out=tmp_path, formats=["html"], mine=["llm"])
    parsed = _html_tables(tmp_path / "report.html")
    table = parsed.tables["winomt/consistency"]
    assert table[0][:3] == ["system", "language", "gold"] and table[1][0] == "llm"  # the user's system first
    shown = pd.read_csv(tmp_path / "winomt" / "consistency.csv")
    expected = res.frames["consistency"]
    assert len(shown) == len(expected)
    np.testing.assert_allclose(np.sort(shown["disagree"].to_numpy()), np.sort(expected["disagree"].to_numpy()))


def test_twelve_systems_get_twelve_distinct_markers():
    styles = plotting.marker_styles([f"system {i}" for i in range(12)])
    assert len(set(styles.values())) == 12
    assert len({marker for marker, _ in styles.values()}) == 12 and len({c for _, c in styles.values()}) == 12
    # The thirteenth repeats the first: a figure with more systems should be split (the report pages its panels).
    assert plotting.marker_styles([f"s{i}" for i in range(13)])["s12"] == styles["system 0"]


def test_more_comparisons_than_a_panel_holds_go_on_pages(rates_all_pairs):
    frame, _ = report_results.shown_comparisons(rates_all_pairs, [])
    one = frame[frame["metric"] == frame["metric"].iloc[0]]
    labels_per_copy = len(one)  # one row per pair (and group) of one metric
    copies = -(-(report_results.MAX_FOREST_ROWS * 2 + 1) // labels_per_copy)  # enough for three pages
    many = pd.concat([one.assign(system_a=one["system_a"] + f"-{k}") for k in range(copies)], ignore_index=True)
    figures = report_results.comparisons_figures(rates_all_pairs, many, [])
    rows = labels_per_copy * copies
    pages = -(-rows // report_results.MAX_FOREST_ROWS)
    assert pages >= 3 and [f.name for f in figures] == [f"forest_comparisons_{k}" for k in range(1, pages + 1)]
    assert figures[0].title.endswith(f"(page 1 of {pages}: comparisons 1–{report_results.MAX_FOREST_ROWS})")
    assert figures[-1].title.endswith(f"comparisons {report_results.MAX_FOREST_ROWS * (pages - 1) + 1}–{rows})")


def test_every_caption_of_a_study_ends_with_its_signature(rates_against):
    """Each table and figure a reader sees says how its numbers were made, in every format (issue 48 item 4)."""
    section = report_results.result_section(rates_against, "rates", mine=["my-mt"])
    shown = [b for b in [section.headline, *section.body] if b is not None and b.title]
    assert len(shown) >= 3
    for block in shown:
        assert block.caption.endswith(f"Signature: {rates_against.signature}"), block.name
    assert all("Signature" not in t.caption for t in section.appendix)  # the appendix keeps the provenance itself
    parsed = smb.parse_signature(shown[0].caption.rsplit("Signature: ", 1)[1])
    assert parsed.kwargs()["against"] == ["my-mt", "my-llm"] and parsed.kwargs()["by"] == ["prompt_set"]


def test_the_signature_breaks_after_its_bars_in_latex(rates_against, tmp_path):
    smb.report(rates_against, out=tmp_path, mine=["my-mt"], formats=["tex"])
    tex = (tmp_path / "rates" / "headline.tex").read_text("utf-8")
    assert r"study:rates\textbar{}\allowbreak{}" in tex and "|study:" not in tex


def test_metric_panels_come_in_alphabetical_order(rates_against, monkeypatch):
    """The sets appear occupations, adjectives, kinship in the data; every figure's panels are sorted, the whole
    benchmark first."""
    seen = []

    def capture(frame, **options):
        seen.append(list(dict.fromkeys(frame[options["panel"]])))
        return b""

    monkeypatch.setattr(report_results.plotting, "interval_plot", capture)
    report_results.metric_figures(rates_against, ["my-mt"])
    assert seen and all(panels == ["all", "adjectives", "kinship", "occupations"] for panels in seen)


def test_the_section_says_which_items_its_figures_rest_on_and_when_systems_differ():
    """Issue 46 item 4: the headline's caption and the methods name the item set (items=, or all), and a pair of
    systems on different items is a note with the counts."""
    frame = pd.DataFrame(
        {"item": [1, 1, 2, 2, 3, 3, 4, 5], "system": ["a", "b"] * 3 + ["a", "a"], "gender": list("mfmmffmf")}
    ).replace({"m": "male", "f": "female"})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        restricted = smb.rates(frame, items=[1, 2, 3, 4], interval="score")
        everything = smb.rates(frame, interval="score")
    section = report_results.result_section(restricted, "rates")
    assert "The study rests on 4 items (a list of 4 ids)." in section.headline.caption
    digest = restricted.provenance["items"]["sha256"][:12]
    assert f"Items: on 4 items (a list of 4 ids) (sha256 of the sorted ids {digest}…)." in section.methods
    section = report_results.result_section(everything, "rates")
    assert "The study rests on 5 items (all)." in section.headline.caption
    assert "Items: on 5 items (all)." in section.methods
    note = "systems cover different clusters: a lacks 0 of b's clusters and b 2 of a's (3 shared)"
    assert any(note in n for n in section.notes), section.notes

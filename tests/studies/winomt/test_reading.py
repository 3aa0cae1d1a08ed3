"""The WinoMT reading is deterministic, and an edited shipped file keeps the shipped readings (issue 49).

Determinism: the same translations read the same in separate processes, each cold
(its own empty cache) and with its own ``PYTHONHASHSEED``, item by item (the
aligner's training, the worker processes, hash-ordered sets and dicts). Reuse: a
user's file that is a shipped file with a few lines edited reads as the shipped
file on every other line, and the comparison of the two finds no difference.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from stats_mtbias.errors import DataError, UsageError
from stats_mtbias.studies import winomt

# The aligner (thot) is optional: the tests that read through it skip without it, the others still run.
needs_thot = pytest.mark.skipif(importlib.util.find_spec("thot") is None, reason="thot (the aligner) is not installed")


ROOT = Path(__file__).resolve().parents[3]

# One cold reading in a fresh interpreter: the readings of the shipped files of `languages` (judge_all: worker
# processes when there are several languages and CPUs), and of the first `lines` lines of `subset` read alone
# (aligned on themselves, as a user's small file): genders and the alignment links of those lines.
_READ = textwrap.dedent("""
    import json, sys
    from stats_mtbias.alignment import align, tokenize
    from stats_mtbias.datasets import winomt as winomt_data
    from stats_mtbias.datasets.registry import open_store
    from stats_mtbias.gender.entity import aligner_tokens, read_pairs
    from stats_mtbias.studies.winomt.reading import judge_all

    data, languages, subset, lines = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    store = open_store(data)
    items = winomt_data.read_items(store)
    out = {}
    if languages:
        wanted = languages.split(",")
        jobs = [(s, lang, adj, None) for s, lang, adj, _ in winomt_data.translation_files() if lang in wanted]
        tables = judge_all(store, items, jobs, aligner="fastalign", use_pronoun=False, explain=False, progress=None)
        for (system, lang, adj, _), table in zip(jobs, tables, strict=True):
            out[f"{system}/{lang}{'/adj' if adj else ''}"] = dict(zip(table["item"].astype(str), table["gender"]))
    if subset:
        language = subset.rsplit("-", 1)[1].split(".")[0]
        table = winomt_data.read_translations(store.path(subset), items)
        table = table[table["reason"] == ""].sort_values("line").head(lines).merge(items, on="item")
        src, trg = table["source"].tolist(), table["translation"].tolist()
        links = align([tokenize(s) for s in src], aligner_tokens([tokenize(t) for t in trg], language))
        out["links"] = [a.tolist() for a in links]
        out["subset"] = read_pairs(src, table["entity_index"].to_numpy(), trg, language)
    json.dump(out, sys.stdout)
""")


def _cold_readings(data_dir, tmp_path, hash_seeds, *, languages=(), subset="", lines=0) -> list[dict]:
    """Readings in fresh interpreters, side by side, each with an empty cache of its own and its PYTHONHASHSEED."""
    started = []
    for seed in hash_seeds:
        cache = tmp_path / f"cache-{seed}"
        cache.mkdir()
        env = {
            **os.environ,
            "PYTHONHASHSEED": str(seed),
            "MTBIAS_CACHE": str(cache),
            "MTBIAS_DATA": str(data_dir),
            "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        }
        started.append(
            subprocess.Popen(
                [sys.executable, "-c", _READ, str(data_dir), ",".join(languages), subset, str(lines)],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env=env,
                cwd=tmp_path,
            )
        )
    readings = []
    for process in started:
        out, err = process.communicate()
        assert process.returncode == 0, err[-3000:]
        readings.append(json.loads(out))
    return readings


def _same_readings(a: dict, b: dict) -> None:
    """Item by item: the files that differ, and how, in the message."""
    assert a.keys() == b.keys()
    differ = {
        name: [(item, a[name][item], b[name][item]) for item in a[name] if a[name][item] != b[name][item]]
        for name in a
        if name not in ("links", "subset")
    }
    assert not any(differ.values()), {name: rows for name, rows in differ.items() if rows}
    if "subset" in a:
        assert a["subset"] == b["subset"]
        assert a["links"] == b["links"]


@needs_thot
def test_the_aligner_trains_on_one_openmp_thread_and_restores_the_count():
    threadpoolctl = pytest.importorskip("threadpoolctl")
    import thot.alignment  # noqa: F401  (loads the aligner's OpenMP runtime)

    from stats_mtbias.alignment import one_thread

    def openmp() -> set[int]:
        return {i["num_threads"] for i in threadpoolctl.threadpool_info() if i["user_api"] == "openmp"}

    before = openmp()
    assert before  # sil-thot's OpenMP runtime is seen
    with one_thread():
        assert openmp() == {1}
    assert openmp() == before


@needs_thot
def test_eflomal_is_seeded():
    from stats_mtbias.alignment import align, tokenize

    src = [tokenize(s) for s in ["the doctor asked the nurse", "the nurse helped the doctor", "a doctor came"]] * 20
    trg = [tokenize(s) for s in ["der Arzt fragte die Pflegerin", "die Pflegerin half dem Arzt", "ein Arzt kam"]] * 20
    first, second = (align(src, trg, method="eflomal", cache=False) for _ in range(2))
    assert all(np.array_equal(a, b) for a, b in zip(first, second, strict=True))


@needs_thot
def test_a_cold_reading_is_the_same_in_two_processes_with_different_hash_seeds(data_dir, tmp_path):
    """Fast tier: the shipped Portuguese file, and the first 400 lines of the academic German file read alone."""
    options = {"languages": ["pt"], "subset": "winomt/translations/sota/en-de.txt", "lines": 400}
    first, second = _cold_readings(data_dir, tmp_path, (1, 2), **options)
    assert len(first["subset"]) == 400 and len(first["google/pt"]) == 3888
    _same_readings(first, second)


@needs_thot
@pytest.mark.slow
def test_every_shipped_language_reads_the_same_in_two_cold_processes(data_dir, tmp_path):
    """Every shipped file of every language (the "+Adj" files too), read twice cold, item by item."""
    from stats_mtbias.datasets import winomt as winomt_data

    languages = sorted({lang for _, lang, _, _ in winomt_data.translation_files()})
    first, second = _cold_readings(data_dir, tmp_path, (11, 12), languages=languages)
    assert len(first) == len(winomt_data.translation_files())
    _same_readings(first, second)


def _edited(data_dir, tmp_path, language: str) -> tuple[Path, set[int]]:
    """Google's shipped file with a full stop dropped on two lines and a word changed on a third; the lines edited."""
    lines = (data_dir / f"winomt/translations/google/en-{language}.txt").read_text("utf-8").splitlines()
    edited = set()
    for k in (10, 1000):
        assert lines[k].endswith(".")
        lines[k] = lines[k][:-1]
        edited.add(k)
    k = next(k for k in range(2000, len(lines)) if lines[k].endswith("."))
    lines[k] = lines[k][:-1] + {"de": " heute.", "pt": " hoje."}[language]  # a word more
    edited.add(k)
    path = tmp_path / f"en-{language}.txt"
    path.write_text("\n".join(lines) + "\n", "utf-8")
    return path, edited


def _reads_as_shipped(data_dir, tmp_path, language: str) -> None:
    import stats_mtbias as smb
    from stats_mtbias.datasets import winomt as winomt_data
    from stats_mtbias.datasets.registry import open_store
    from stats_mtbias.studies.winomt.reading import judge

    path, edited = _edited(data_dir, tmp_path, language)
    store = open_store(data_dir)
    items = winomt_data.read_items(store)
    shipped = judge(store, "google", language, items).set_index("item")
    mine = judge(store, "mine", language, items, path=path).set_index("item")
    lines = winomt_data.read_translations(path, items).set_index("item")["line"]
    unchanged = [item for item in shipped.index if lines[item] - 1 not in edited]
    assert len(unchanged) == len(shipped) - len(edited)
    different = [item for item in unchanged if shipped.at[item, "gender"] != mine.at[item, "gender"]]
    assert not different, shipped.loc[different, ["gender"]].join(mine.loc[different, ["translation", "gender"]], rsuffix="_mine")
    # ... and the comparison with the shipped system finds no difference.
    res = smb.winomt(systems=["google"], translations={"mine": path}, languages=[language], n_boot=500, rng=0)
    compared = res.compare()
    assert len(compared) and (compared["p_value"] > 0.05).all(), compared[["metric", "diff", "p_value"]]


@needs_thot
@pytest.mark.filterwarnings("ignore")
def test_an_edited_shipped_file_keeps_the_shipped_readings_of_its_other_lines(data_dir, tmp_path):
    """Fast tier: Portuguese (Google's file alone). Before, each edit re-aligned the file: 5 other items changed."""
    _reads_as_shipped(data_dir, tmp_path, "pt")


@needs_thot
@pytest.mark.slow
@pytest.mark.filterwarnings("ignore")
def test_googles_german_with_a_dropped_full_stop_reads_as_googles(data_dir, tmp_path):
    """The issue's case: before, 16 other items read differently and the comparison found p = .034."""
    _reads_as_shipped(data_dir, tmp_path, "de")


@needs_thot
def test_only_the_lines_no_shipped_file_holds_are_aligned_anew(monkeypatch):
    """Shipped links for the shipped pairs, the others aligned with the bitext; a mostly new file as a whole."""
    from stats_mtbias.studies.winomt import reading

    shipped, lexicon, seen = np.array([[0, 0]]), {"doctor": frozenset({"arzt"})}, {}

    def align(src, trg, **options):
        seen.update(src=src, extra=options["extra"])
        return [np.array([[1, 1]]) for _ in src]

    monkeypatch.setattr(reading, "_held", lambda *a: [True, False, True])
    monkeypatch.setattr(reading, "_shipped_links", lambda *a: [shipped, None, shipped])
    monkeypatch.setattr(reading, "bitext", lambda *a, **k: ([["x"]], [["y"]]))
    monkeypatch.setattr(reading, "language_lexicon", lambda *a: lexicon)
    monkeypatch.setattr(reading, "align", align)
    sources, translations = ["a b", "c d", "e f"], ["A B", "C D", "E F"]
    links, used = reading.reading_alignments(None, "de", None, sources, translations, "fastalign")
    assert seen["src"] == [["c", "d"]] and seen["extra"] == ([["x"]], [["y"]])  # only the new line, with the bitext
    assert links[0] is shipped and links[2] is shipped and links[1].tolist() == [[1, 1]] and used is lexicon
    # Half of the lines new or more: (None, None), the file is aligned as a whole and read with its own lexicon.
    # Decided before any alignment: the language-wide one is not trained for such a file (issue 47).
    monkeypatch.setattr(reading, "_held", lambda *a: [True, False, False])
    monkeypatch.setattr(reading, "_shipped_links", None)  # called, it would raise
    assert reading.reading_alignments(None, "de", None, sources, translations, "fastalign") == (None, None)


# -----------------------------------------------------------------------------
# WinoMT readings in worker interpreters (issue 21): the same tables as here, errors and warnings carried back.


@pytest.fixture(scope="module")
def store_items(data_dir):
    from stats_mtbias.datasets import winomt as winomt_data
    from stats_mtbias.datasets.registry import open_store

    store = open_store(data_dir)
    return store, winomt_data.read_items(store)


OPTIONS = {"aligner": "fastalign", "use_pronoun": False, "explain": False}


def test_a_worker_reads_what_this_process_reads(store_items):
    store, items = store_items
    jobs = [("google", "es", False, None), ("google", "es", True, None)]
    here, _, _ = winomt.reading.judge_language(store, items, jobs, **OPTIONS)
    there, used, caught = winomt.reading._judge_in_process(store, items, jobs, OPTIONS)
    for a, b in zip(here, there, strict=True):
        pd.testing.assert_frame_equal(a, b)
    assert any(p.endswith("en-es.txt") for p in used)  # the worker's files reach the provenance
    assert isinstance(caught, list)


def test_a_workers_error_is_raised_here(store_items, tmp_path):
    store, items = store_items
    missing = tmp_path / "en-es.txt"
    with pytest.raises(DataError, match=r"en-es\.txt"):
        winomt.reading._judge_in_process(store, items, [("mine", "es", False, missing)], OPTIONS)


def test_worker_count_follows_cpus_languages_and_the_cap(monkeypatch):
    monkeypatch.setenv("MTBIAS_WORKERS", "1")
    assert winomt.reading_workers(8) == 1
    monkeypatch.setenv("MTBIAS_WORKERS", "64")
    assert winomt.reading_workers(1) == 1
    assert 1 <= winomt.reading_workers(8) <= 8
    monkeypatch.setenv("MTBIAS_WORKERS", "two")
    with pytest.raises(UsageError, match="MTBIAS_WORKERS"):
        winomt.reading_workers(8)


def test_a_script_without_a_main_guard_reads_in_parallel(store_items, tmp_path, data_dir):
    # multiprocessing's spawn would re-run such a script in every child; the worker interpreters do not.
    script = tmp_path / "plain.py"
    script.write_text(
        textwrap.dedent(f"""
        import json
        import os
        os.environ["MTBIAS_WORKERS"] = "2"
        from stats_mtbias.datasets import winomt as winomt_data
        from stats_mtbias.datasets.registry import open_store
        from stats_mtbias.studies import winomt
        store = open_store({str(data_dir)!r})
        items = winomt_data.read_items(store)
        jobs = [("google", "es", False, "{tmp_path}/es/en-es.txt"), ("google", "it", False, "{tmp_path}/it/en-it.txt")]
        tables = winomt.judge_all(store, items, jobs, aligner="fastalign", use_pronoun=False, explain=False, progress=None)
        print(json.dumps({{"genders": [t["gender"].astype(str).tolist() for t in tables],
                          "workers": winomt.reading_workers(2)}}))
    """)
    )
    for language in ("es", "it"):
        (tmp_path / language).mkdir()
        shipped = store_items[0].path(f"winomt/translations/google/en-{language}.txt").read_text("utf-8")
        (tmp_path / language / f"en-{language}.txt").write_text("\n".join(shipped.splitlines()[:40]) + "\n", "utf-8")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    reply = json.loads(done.stdout.strip().splitlines()[-1])
    assert reply["workers"] == min(2, len(os.sched_getaffinity(0)))
    store, items = store_items
    for language, genders in zip(("es", "it"), reply["genders"], strict=True):
        job = ("google", language, False, tmp_path / language / f"en-{language}.txt")
        here = winomt.reading.judge_language(store, items, [job], **OPTIONS)[0][0]
        assert genders == here["gender"].astype(str).tolist()
        assert 30 <= sum(g != "unknown" for g in genders) <= 40  # 40 lines given, most read


# -----------------------------------------------------------------------------
# Target-language gender readers on hand-written sentences; alignment; validation against people.


@needs_thot
@pytest.mark.slow
def test_judge_caches_readings_by_content_and_code(data_dir, tmp_path, monkeypatch):
    from stats_mtbias.datasets import winomt
    from stats_mtbias.datasets.registry import open_store
    from stats_mtbias.studies.winomt import reading as winomt_reading

    monkeypatch.setenv("MTBIAS_CACHE", str(tmp_path))
    store = open_store(data_dir)
    items = winomt.read_items(store)
    first = winomt_reading.judge(store, "google", "es", items)
    (cached,) = (tmp_path / "readings").glob("*.json")

    def fail(*args, **kwargs):
        raise AssertionError("the cached readings were not used")

    monkeypatch.setattr(winomt_reading, "read_pairs", fail)
    again = winomt_reading.judge(store, "google", "es", items)
    pd.testing.assert_frame_equal(first, again)
    # Another option is another key: computed afresh, not served from the default reading's cache.
    with pytest.raises(AssertionError, match="cached readings were not used"):
        winomt_reading.judge(store, "google", "es", items, use_pronoun=True)
    key = winomt_reading.readings_path(store, "es", "winomt/translations/google/en-es.txt", False, "fastalign", False)
    assert key == cached


@pytest.mark.filterwarnings("ignore")
def test_a_users_file_is_cached_by_its_lines(store_items, tmp_path, monkeypatch):
    """A user's file read again comes from the cache (issue 47: ≤ 1 s warm); an edited line is another key.

    The alignment and reader are stubbed (the key, not the reading, is under test): the
    first reading calls them, the same lines in a file of another name do not, and a
    file with one translation edited does.
    """
    from stats_mtbias.studies.winomt import reading

    store, items = store_items
    monkeypatch.setenv("MTBIAS_CACHE", str(tmp_path / "cache"))
    lines = store.path("winomt/translations/google/en-es.txt").read_text("utf-8").splitlines()[:40]
    calls = []

    def read_pairs(sources, *args, **kwargs):
        calls.append(len(sources))
        return ["female" if k % 3 else "male" for k in range(len(sources))]

    monkeypatch.setattr(reading, "reading_alignments", lambda *a: (None, None))
    monkeypatch.setattr(reading, "bitext", lambda *a, **k: ([], []))
    monkeypatch.setattr(reading, "read_pairs", read_pairs)
    first, copy, edited = (tmp_path / name for name in ("first.txt", "copy.txt", "edited.txt"))
    first.write_text("\n".join(lines) + "\n", "utf-8")
    copy.write_text("\n".join(lines) + "\n", "utf-8")
    edited.write_text("\n".join([lines[0].rsplit("|||", 1)[0] + "||| El otro texto.", *lines[1:]]) + "\n", "utf-8")
    one = reading.judge(store, "mine", "es", items, path=first)
    again = reading.judge(store, "mine", "es", items, path=copy)
    assert calls == [40]  # the second file's lines were served from the cache
    pd.testing.assert_frame_equal(one, again)
    assert (one["gender"] != "unknown").sum() == 40
    reading.judge(store, "mine", "es", items, path=edited)
    assert calls == [40, 40]
    # Another system's name is another key: it decides which shipped file the bitext leaves out.
    reading.judge(store, "google", "es", items, path=first)
    assert calls == [40, 40, 40]

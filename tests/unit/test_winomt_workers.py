"""WinoMT readings in worker interpreters (issue 21): the same tables as here, errors and warnings carried back."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pandas as pd
import pytest

from stats_mtbias.errors import DataError, UsageError
from stats_mtbias.studies import winomt


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

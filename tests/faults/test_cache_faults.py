"""Caches and output files survive kills, corruption and concurrent writers (issue 18, cases 1, 7 and 11)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import warnings

import numpy as np
import pytest

from stats_mtbias._files import CacheWarning, check_output, check_writable_dir, read_cache, write_atomic
from stats_mtbias.alignment import align
from stats_mtbias.errors import UsageError

SRC = [["the", "doctor", "asked", "the", "nurse"], ["the", "nurse", "helped", "him"]] * 20
TRG = [["der", "arzt", "fragte", "die", "krankenschwester"], ["die", "krankenschwester", "half", "ihm"]] * 20


def _entry(cache_dir):
    files = list((cache_dir / "alignments").glob("*.json"))
    assert len(files) == 1
    return files[0]


def test_write_atomic_replaces_whole_files_and_leaves_no_temporary(tmp_path):
    target = tmp_path / "sub" / "x.json"
    write_atomic(target, "[1, 2]")
    write_atomic(target, b"[3]")
    assert target.read_text() == "[3]"
    assert [p.name for p in target.parent.iterdir()] == ["x.json"]


@pytest.mark.parametrize("damage", ["", "[[1, 2", "{}", "[[[0, 99]]]", "\x00\x01"])
def test_a_damaged_alignment_cache_entry_is_a_miss_and_is_rewritten(tmp_path, damage):
    expected = align(SRC, TRG, cache=tmp_path)
    entry = _entry(tmp_path)
    good = entry.read_text()
    entry.write_text(damage)
    with pytest.warns(CacheWarning, match="recomputing and rewriting"):
        again = align(SRC, TRG, cache=tmp_path)
    assert all(np.array_equal(a, b) for a, b in zip(expected, again, strict=True))
    assert entry.read_text() == good
    with warnings.catch_warnings():
        warnings.simplefilter("error", CacheWarning)  # the rewritten entry is read without a word
        align(SRC, TRG, cache=tmp_path)


def test_read_cache_validates_content(tmp_path):
    path = tmp_path / "c.json"
    assert read_cache(path, lambda v: True) is None  # absent: a plain miss, no warning
    path.write_text("[1, 2, 3]")
    assert read_cache(path, lambda v: len(v) == 3) == [1, 2, 3]
    with pytest.warns(CacheWarning, match="does not match"):
        assert read_cache(path, lambda v: len(v) == 4) is None


_WRITER = """
import json, sys
from stats_mtbias._files import write_atomic
payload = json.dumps([[[0, 0], [1, 1]]] * 200_000)
while True:
    write_atomic(sys.argv[1], payload)
"""


def test_kill_during_cache_writes_never_leaves_a_partial_entry(tmp_path):
    # A writer killed with SIGKILL at random points of its writes: the entry is always absent or complete.
    rng = np.random.default_rng(0)
    target = tmp_path / "alignments" / "entry.json"
    for _ in range(5):
        proc = subprocess.Popen([sys.executable, "-c", _WRITER, str(target)])
        time.sleep(float(rng.uniform(0.3, 1.2)))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        if target.exists():
            assert len(json.loads(target.read_text())) == 200_000
    # ... and a run afterwards succeeds: a leftover entry that does not fit is recomputed.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CacheWarning)
        out = align(SRC, TRG, cache=tmp_path)
    assert len(out) == len(SRC)


_ALIGNER = """
import json, sys
from stats_mtbias.alignment import align
src = [["the", "doctor", "asked", "the", "nurse"], ["the", "nurse", "helped", "him"]] * 20
trg = [["der", "arzt", "fragte", "die", "krankenschwester"], ["die", "krankenschwester", "half", "ihm"]] * 20
print(json.dumps([a.tolist() for a in align(src * 30, trg * 30, cache=sys.argv[1])]))
"""


def test_concurrent_runs_sharing_a_cache_agree_and_leave_a_valid_entry(tmp_path):
    procs = [
        subprocess.Popen([sys.executable, "-c", _ALIGNER, str(tmp_path)], stdout=subprocess.PIPE, text=True) for _ in range(3)
    ]
    outputs = [p.communicate(timeout=300)[0] for p in procs]
    assert all(p.returncode == 0 for p in procs)
    assert outputs[0] == outputs[1] == outputs[2]
    entry = _entry(tmp_path)
    assert json.loads(entry.read_text()) == json.loads(outputs[0])
    assert [p.name for p in entry.parent.iterdir()] == [entry.name]  # no temporary left behind


def test_unusable_directories_and_outputs_are_refused_before_work(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(UsageError, match="not a writable directory"):
        check_writable_dir(blocker / "cache", "the cache")
    source = tmp_path / "in.csv"
    source.write_text("a\n")
    with pytest.raises(UsageError, match="would overwrite the input"):
        check_output(source, [str(source)])
    with pytest.raises(UsageError, match="is a directory"):
        check_output(tmp_path, [])
    with pytest.raises(UsageError, match="does not exist"):
        check_output(tmp_path / "missing" / "out.csv", [])
    if os.geteuid() != 0:  # root writes anywhere
        locked = tmp_path / "locked"
        locked.mkdir()
        locked.chmod(0o500)
        with pytest.raises(UsageError, match="not a writable directory"):
            check_writable_dir(locked, "the cache")


@pytest.mark.slow
def test_winomt_runs_killed_and_concurrent_on_one_cache_give_the_single_run_result(tmp_path, data_dir):
    cache = tmp_path / "cache"
    env = {**os.environ, "MTBIAS_CACHE": str(cache), "MTBIAS_DATA": str(data_dir)}
    args = [
        sys.executable,
        "-m",
        "stats_mtbias.cli",
        "winomt",
        "--systems",
        "google",
        "--languages",
        "es",
        "--no-adjectives",
        "--n-boot",
        "100",
        "--format",
        "json",
    ]
    rng = np.random.default_rng(1)
    # Killed at a random point of a cold run (alignment, reading or a cache write) ...
    for _ in range(2):
        proc = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(float(rng.uniform(2.0, 12.0)))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    # ... then three runs at once on the same cache, and one more from the cache.
    procs = [subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(3)]
    results = [p.communicate(timeout=600) for p in procs]
    assert all(p.returncode == 0 for p in procs), [err[-500:] for _, err in results]
    again = subprocess.run(args, env=env, capture_output=True, text=True, check=True)
    fresh_env = {**env, "MTBIAS_CACHE": str(tmp_path / "fresh")}
    single = subprocess.run(args, env=fresh_env, capture_output=True, text=True, check=True)
    assert results[0][0] == results[1][0] == results[2][0] == again.stdout == single.stdout
    for entry in cache.rglob("*.json"):
        json.loads(entry.read_text())  # no entry corrupted


def test_an_atomic_write_has_the_mode_of_an_ordinary_file(tmp_path):
    # mkstemp's 0600 would leave reports unreadable to a group that shares them.
    import os

    from stats_mtbias._files import write_atomic

    old = os.umask(0o022)
    try:
        path = write_atomic(tmp_path / "a.csv", "x\n")
        plain = tmp_path / "b.csv"
        plain.write_text("x\n")
    finally:
        os.umask(old)
    assert path.stat().st_mode & 0o777 == plain.stat().st_mode & 0o777 == 0o644

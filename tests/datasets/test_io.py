"""``read_frame`` (pandas' C reader) gives what ``read_records`` gives, and its errors, on every awkward CSV."""

from __future__ import annotations

import pandas as pd
import pytest

from stats_mtbias.datasets._io import read_frame, read_records
from stats_mtbias.errors import DataError

HEADER = "System,Set,Item,Translation\n"
GOOD = {
    "plain": HEADER + "a,s1,w1,He is.\na,s1,w2,She is.\n",
    "quoted": HEADER + 'a,s1,w1,"He, she."\na,s1,w2,"Line one\nline two"\na,s1,w3,"say ""hi"""\n',
    "crlf and bom": "\ufeff" + HEADER.replace("\n", "\r\n") + "a,s1,w1,He is.\r\na,s1,w2,She is.",
    "spaces": HEADER + " a , s1 ,w1,  He is.  \n",
    "na words": HEADER + "NA,nan,None,null\n",
    "empty fields": HEADER + "a,s1,w1,\n,,,\n",
    "header only": HEADER,
    "cr only": HEADER.replace("\n", "\r") + "a,s1,w1,He is.\ra,s1,w2,She is.\r",
    "trailing blank lines": HEADER + "a,s1,w1,He is.\n\n  \n\t\n",
    "long line": HEADER + "a,s1,w1," + "word " * 100_000 + "\n",
}
BAD = {
    "blank line": HEADER + "a,s1,w1,He\n\na,s1,w2,She\n",
    "spaces line": HEADER + "a,s1,w1,He\n   \na,s1,w2,She\n",
    "unclosed quote": HEADER + 'a,s1,w1,"He\na,s1,w2,She\n',
    "unclosed quote on the last line": HEADER + 'a,s1,w1,He\na,s1,w2,"She',
    "quote swallowing a line": HEADER + 'a,"s1,w1,He\na",s1,w2\n',  # four fields, but set is a key: never two lines
    "quote leaving a wrong width": HEADER + 'a,"s1,w1,He\na,s1",w2\n',
    "nul byte": HEADER + "a,s1,w1,He\0\n",
    "short row": HEADER + "a,s1,w1\n",
    "long row": HEADER + "a,s1,w1,He,extra\n",
    "missing column": "System,Set,Translation\na,s1,He\n",
    "repeated column": "System,Set,Item,Item,Translation\na,s1,w1,w1,He\n",
    "empty file": "",
}


def _write(tmp_path, text: str, name="t.csv"):
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    return path


@pytest.mark.parametrize("name", sorted(GOOD))
def test_read_frame_is_read_records(tmp_path, name):
    path = _write(tmp_path, GOOD[name])
    header, records = read_records(path, required=("system", "set", "item"), lower=True)
    got_header, frame = read_frame(path, required=("system", "set", "item"), lower=True)
    assert got_header == header
    expected = pd.DataFrame([{**r, "line": n} for n, r in records], columns=[*header, "line"])
    pd.testing.assert_frame_equal(frame.reset_index(drop=True), expected, check_dtype=False, check_index_type=False)


@pytest.mark.parametrize("name", sorted(BAD))
def test_read_frame_raises_read_records_error(tmp_path, name):
    path = _write(tmp_path, BAD[name])
    with pytest.raises(DataError) as slow:
        read_records(path, required=("system", "set", "item"), lower=True)
    with pytest.raises(DataError) as fast:
        read_frame(path, required=("system", "set", "item"), lower=True)
    assert str(fast.value) == str(slow.value) and type(fast.value) is type(slow.value)


def test_read_frame_missing_and_non_utf8(tmp_path):
    for path in (tmp_path / "nope.csv", _write(tmp_path, "", "latin.csv")):
        if path.name == "latin.csv":
            path.write_bytes(HEADER.encode() + "a,s1,w1,Él est\n".encode("latin-1"))
        with pytest.raises(DataError) as slow:
            read_records(path, required=("system",), lower=True)
        with pytest.raises(DataError) as fast:
            read_frame(path, required=("system",), lower=True)
        assert str(fast.value) == str(slow.value) and type(fast.value) is type(slow.value)


@pytest.mark.parametrize("name", sorted(GOOD))
def test_read_frame_takes_the_fast_path_where_it_can(tmp_path, monkeypatch, name):
    import stats_mtbias.datasets._io as io

    calls = []
    real = io.read_records
    monkeypatch.setattr(io, "read_records", lambda *a, **k: calls.append(1) or real(*a, **k))
    read_frame(_write(tmp_path, GOOD[name]), required=("system",), lower=True)
    # A quoted line break, a row of empty fields and a whitespace line are read by read_records as they always were.
    assert bool(calls) == (name in ("quoted", "empty fields", "trailing blank lines")), name

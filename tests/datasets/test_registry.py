import functools
import shutil
import threading
import warnings
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import numpy as np
import pytest

from stats_mtbias.datasets import tgbi
from stats_mtbias.datasets._io import read_lines
from stats_mtbias.datasets.registry import manifest, open_store
from stats_mtbias.errors import ChecksumError, DataError, DataNotFoundError

REL = "tgbi/gebnlp-tgbi/original/pos.txt"


def test_read_lines_crlf_missing_newline_and_empty_lines(tmp_path):
    f = tmp_path / "a.txt"
    f.write_bytes(b"one\r\n\r\nthree")
    assert read_lines(f) == ["one", "", "three"]
    f.write_bytes(b"one\ntwo\n")
    assert read_lines(f) == ["one", "two"]


def test_read_lines_bad_utf8_names_file_and_line(tmp_path):
    f = tmp_path / "bad.txt"
    f.write_bytes(b"ok\nok\n\xff\xfe broken\n")
    with pytest.raises(DataError, match=r"bad.txt, line 3: not valid UTF-8"):
        read_lines(f)


def test_repeated_block_detector():
    outputs = np.array([f"t{i}" for i in range(100)], dtype=object)
    outputs[60:90] = outputs[10:40]  # a pasted block of other items' outputs
    flagged = tgbi.find_repeated_blocks(outputs, np.arange(100), min_run=20)
    assert flagged.sum() == 30 and flagged[60:90].all()
    # The same outputs for the same items (another style of the same lexicon item) are fine.
    items = np.concatenate([np.arange(50), np.arange(50)])
    same = np.array([f"t{i}" for i in items], dtype=object)
    assert not tgbi.find_repeated_blocks(same, items, min_run=20).any()


@pytest.fixture()
def mirror(data_dir, tmp_path):
    """A local HTTP server on 127.0.0.1 serving a temporary copy of part of the data."""
    root = tmp_path / "mirror"
    (root / REL).parent.mkdir(parents=True)
    shutil.copy(data_dir / REL, root / REL)
    handler = functools.partial(SimpleHTTPRequestHandler, directory=str(root))
    handler.log_message = lambda *a, **k: None
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield root, f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


@pytest.mark.network
def test_download_into_cache_with_checksum(mirror, tmp_path, monkeypatch):
    root, url = mirror
    monkeypatch.delenv("MTBIAS_DATA", raising=False)
    store = open_store(cache_dir=tmp_path / "cache", mirror=url)
    assert store.origin == "cache"
    path = store.path(REL)
    assert path.read_bytes() == (root / REL).read_bytes()
    assert store.used[REL] == manifest()[REL].sha256
    # A second store reads the cache without the server.
    offline = open_store(cache_dir=tmp_path / "cache", download=False)
    assert offline.path(REL) == path


@pytest.mark.network
def test_download_with_wrong_checksum_is_refused(mirror, tmp_path, monkeypatch):
    root, url = mirror
    monkeypatch.delenv("MTBIAS_DATA", raising=False)
    (root / REL).write_text("tampered\n")
    store = open_store(cache_dir=tmp_path / "cache", mirror=url)
    with pytest.raises(ChecksumError, match="sha256"):
        store.path(REL)
    assert not (tmp_path / "cache" / REL).exists()


def test_offline_empty_cache_names_file_and_three_ways(tmp_path, monkeypatch):
    monkeypatch.delenv("MTBIAS_DATA", raising=False)
    # Port 9 on loopback: nothing listens, so the download fails at once.
    store = open_store(cache_dir=tmp_path / "cache", mirror="http://127.0.0.1:9")
    with pytest.raises(DataNotFoundError) as info:
        store.path(REL)
    message = str(info.value)
    assert REL in message and "--data-dir" in message and "MTBIAS_DATA" in message and "cache" in message


def test_resolution_order(data_dir, tmp_path, monkeypatch):
    monkeypatch.setenv("MTBIAS_DATA", str(data_dir))
    assert open_store().origin == "MTBIAS_DATA"
    assert open_store(tmp_path).origin == "data_dir"
    with pytest.raises(DataNotFoundError, match="is not in the data directory"):
        open_store(tmp_path).path(REL)


def test_manifest_covers_the_shared_files_with_matching_checksums(data_dir):
    from stats_mtbias.provenance import sha256_file

    entries = manifest()
    assert len(entries) == 130
    for rel in ("tgbi/gebnlp-tgbi/corpus/total_google_inf.txt", "winomt/data/aggregates/en.txt"):
        assert sha256_file(data_dir / rel) == entries[rel].sha256
        assert entries[rel].url.startswith("https://")


def test_sentences_layout(tgbi_sentences):
    s = tgbi_sentences
    sizes = s.groupby("subset").size().to_dict()
    assert sizes == {
        "informal": 2118,
        "formal": 2118,
        "impolite": 2118,
        "polite": 2118,
        "negative": 800,
        "positive": 496,
        "occupation": 2940,
    }
    assert s["sentence"].nunique() == 4236 and s["lexicon_item"].nunique() == 1059
    # Every sentence is in exactly three sets: one pronoun set, one politeness set, one content set.
    assert (s.groupby("sentence").size() == 3).all()
    first = s[(s.subset == "impolite") & (s.line == 736)].iloc[0]  # first formal line of the impolite set
    assert first.pronoun == "formal" and first.content == "occupation" and first.lexicon_item == 0


def _user_dir(tmp_path, data_dir, system="mine", drop_line_in=None):
    d = tmp_path / "user"
    d.mkdir()
    for sset in tgbi.SETS:
        lines = read_lines(data_dir / f"tgbi/gebnlp-tgbi/corpus/total_google_{sset.code}.txt")
        if sset.code == drop_line_in:
            lines = lines[:-1]
        (d / f"total_{system}_{sset.code}.txt").write_text("\n".join(lines) + "\n", "utf-8")
    return d


def test_user_directory_equals_shipped_google(data_dir, tmp_path, tgbi_sentences):
    store = open_store(data_dir)
    user = tgbi.read_user_outputs(_user_dir(tmp_path, data_dir), None, store, sentences=tgbi_sentences)
    shipped = tgbi.read_outputs(["google"], store, sentences=tgbi_sentences)
    assert (user["system"] == "mine").all()
    assert user["translation"].tolist() == shipped["translation"].tolist()


def test_user_line_count_mismatch_names_both_files(data_dir, tmp_path, tgbi_sentences):
    d = _user_dir(tmp_path, data_dir, drop_line_in="pos")
    with pytest.raises(DataError) as info:
        tgbi.read_user_outputs(d, None, open_store(data_dir), sentences=tgbi_sentences)
    message = str(info.value)
    assert "total_mine_pos.txt" in message and "total_pos.txt" in message
    assert "495 lines" in message and "496" in message


@pytest.mark.parametrize(
    ("body", "match"),
    [
        (
            "item,set,translation\n1,informal,She is kind\n1,inf,He is kind\n",
            r"line 3: item 1 of the informal set was already given on line 2",
        ),
        ("item,set,translation\n1,weird,She is kind\n", r"line 2: set 'weird' is not one of"),
        ("item,set,translation\n497,positive,She is kind\n", r"line 2: item 497 is outside the positive set"),
        ("item,set,translation\nx,positive,She is kind\n", r"line 2: item 'x' is not a line number"),
        ("item,translation\n1,She\n", r"line 1: header lacks column\(s\) set"),
        ("item,set,translation\n1,positive\n", r"line 2: has 2 fields"),
    ],
)
def test_user_csv_errors_name_file_and_line(data_dir, tmp_path, tgbi_sentences, body, match):
    f = tmp_path / "mine.csv"
    f.write_text(body, "utf-8")
    with pytest.raises(DataError, match=match):
        tgbi.read_user_outputs(f, None, open_store(data_dir), sentences=tgbi_sentences)


def test_user_csv_accounts_for_every_sentence(data_dir, tmp_path, tgbi_sentences):
    f = tmp_path / "mine.csv"
    f.write_text('item,set,translation\n1,positive,"She is kind, really"\n2,pos,\n3,pos,None\n', "utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # missing lines must not look like a repeated block
        out = tgbi.read_user_outputs(f, None, open_store(data_dir), sentences=tgbi_sentences)
    assert len(out) == 12708
    reasons = out["reason"].value_counts().to_dict()
    assert reasons == {"missing": 12705, "": 1, "empty": 1, "broken": 1}


def test_data_command_lists_downloads_and_verifies(data_dir, tmp_path, monkeypatch, capsys):
    """`stats-mtbias data`: a local mirror into an empty cache, sha256-checked; verify names what differs or is missing."""
    import json

    from stats_mtbias.cli import main
    from stats_mtbias.datasets.registry import datasets

    monkeypatch.delenv("MTBIAS_DATA", raising=False)
    monkeypatch.setenv("MTBIAS_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("MTBIAS_MIRROR", str(data_dir))
    n_prates = len(datasets()["prates"])
    assert main(["data", "list", "--format", "json"]) == 0
    listed = {r["dataset"]: r for r in json.loads(capsys.readouterr().out)}
    assert listed["prates"]["missing"] == n_prates and listed["prates"]["ok"] == 0
    assert main(["data", "verify", "prates"]) == 66  # missing
    assert "missing" in capsys.readouterr().err
    assert main(["data", "download", "prates", "--files", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) == n_prates and {r["action"] for r in rows} == {"downloaded"} and {r["status"] for r in rows} == {"ok"}
    assert main(["data", "verify", "prates"]) == 0
    capsys.readouterr()
    one = "prates/Results/adj-genders.tsv"
    tampered = tmp_path / "cache" / one
    tampered.write_text("tampered\n")
    assert main(["data", "verify", "prates"]) == 65 and str(tampered) in capsys.readouterr().err
    # Resumable: a second download fetches only what is not there or not right.
    assert main(["data", "download", "prates", "--files", "--format", "json"]) == 0
    actions = {r["path"]: r["action"] for r in json.loads(capsys.readouterr().out)}
    assert actions.pop(one) == "replaced" and set(actions.values()) == {"present"}
    assert main(["data", "list", "klingon"]) == 64


def test_data_download_from_a_mirror_without_the_file_names_it(tmp_path, monkeypatch, capsys):
    from stats_mtbias.cli import main

    monkeypatch.delenv("MTBIAS_DATA", raising=False)
    monkeypatch.setenv("MTBIAS_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("MTBIAS_MIRROR", f"file://{tmp_path / 'empty'}")
    assert main(["data", "download", "prates", "--quiet"]) == 66
    assert "is not in the mirror" in capsys.readouterr().err

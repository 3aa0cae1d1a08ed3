"""Issue 49, item 4: outputs never replace what is not theirs; a failed write is a clear error, not "a bug"."""

from __future__ import annotations

import os
import stat
import warnings
from pathlib import Path

import pytest

from stats_mtbias._cache import heavy, library_caches, scratch
from stats_mtbias._files import CacheWarning, is_special, write_atomic, write_cache
from stats_mtbias.cli import main
from stats_mtbias.errors import OutputError


@pytest.fixture
def judgements(tmp_path):
    path = tmp_path / "j.csv"
    path.write_text("item,system,gender\n1,a,male\n2,a,female\n3,a,male\n1,b,male\n2,b,male\n3,b,female\n", "utf-8")
    return path


def test_a_device_is_written_through_never_replaced(judgements, capsys):
    assert is_special("/dev/null") and not is_special(judgements) and not is_special(judgements.parent / "absent")
    before = os.stat("/dev/null")
    assert main(["rates", "--judgements", str(judgements), "--n-boot", "100", "--out", "/dev/null"]) == 0
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and (after.st_ino, after.st_rdev) == (before.st_ino, before.st_rdev)
    assert not Path("/dev/null.provenance.json").exists()  # no sidecar beside a device
    write_atomic("/dev/null", b"bytes")  # the API's writer too


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
def test_a_full_disk_is_a_clear_error_with_its_exit_code(judgements, capsys):
    assert main(["rates", "--judgements", str(judgements), "--n-boot", "100", "--out", "/dev/full"]) == 74
    err = capsys.readouterr().err
    assert "cannot write /dev/full: No space left on device" in err and "a bug" not in err
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)
    with pytest.raises(OutputError, match="No space left"):
        write_atomic("/dev/full", "text")
    with pytest.warns(CacheWarning, match="cache entry not kept"):  # a cache that cannot be kept only warns
        assert write_cache("/dev/full", "text") is False


def test_a_failed_write_leaves_no_temporary_file(tmp_path, monkeypatch):
    target = tmp_path / "out.txt"
    target.write_text("old", "utf-8")

    def no_space(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", no_space)
    with pytest.raises(OutputError, match=r"cannot write .*out.txt: No space left on device"):
        write_atomic(target, "new")
    assert target.read_text("utf-8") == "old" and sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]


def test_out_into_the_data_directory_or_onto_a_mapping_is_refused_before_the_work(tmp_path, data_dir, capsys):
    target = data_dir / "tgbi" / "new-output.csv"
    assert main(["tgbi", "--data-dir", str(data_dir), "--n-boot", "100", "--out", str(target)]) == 64
    assert "inside the data directory" in capsys.readouterr().err and not target.exists()
    shipped = sorted((data_dir / "tgbi").rglob("*.txt"))[0]
    size = shipped.stat().st_size
    assert main(["tgbi", "--data-dir", str(data_dir), "--n-boot", "100", "--out", str(shipped)]) == 64
    assert shipped.stat().st_size == size
    assert main(["report", "--data-dir", str(data_dir), "--studies", "tgbi", "--out", str(data_dir / "r")]) == 64
    assert not (data_dir / "r").exists()
    labels, mapping = tmp_path / "labels.csv", tmp_path / "mapping.csv"
    labels.write_text("x,y\nmale,male\nfemale,female\n", "utf-8")
    mapping.write_text("male,male\nfemale,female\n", "utf-8")
    assert (
        main(["agreement", "--labels", str(labels), "--a", "x", "--b", "y", "--mapping", str(mapping), "--out", str(mapping)])
        == 64
    )
    assert "would overwrite the input" in capsys.readouterr().err
    assert mapping.read_text("utf-8") == "male,male\nfemale,female\n"


def test_library_caches_and_scratch_files_stay_in_the_package_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("MTBIAS_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("MPLCONFIGDIR", raising=False)
    monkeypatch.setenv("PYTENSOR_FLAGS", "floatX=float64")
    with library_caches() as root:
        assert root == tmp_path / "cache" / "libraries"
        assert os.environ["MPLCONFIGDIR"] == str(root / "matplotlib")
        assert os.environ["XDG_CACHE_HOME"] == str(root)
        assert os.environ["PYTENSOR_FLAGS"] == f"floatX=float64,base_compiledir={root / 'pytensor'}"
    # Restored after: the user's environment is theirs.
    assert os.environ["XDG_CACHE_HOME"] == str(tmp_path / "xdg") and "MPLCONFIGDIR" not in os.environ
    assert os.environ["PYTENSOR_FLAGS"] == "floatX=float64"
    monkeypatch.setenv("MPLCONFIGDIR", str(tmp_path / "mine"))  # a cache the user placed is kept where it is
    with library_caches():
        assert os.environ["MPLCONFIGDIR"] == str(tmp_path / "mine")
    import tempfile

    outside = tempfile.gettempdir()
    with scratch() as made:
        assert tempfile.gettempdir() == str(made) and made.parent == tmp_path / "cache" / "scratch"
        leftover = tempfile.NamedTemporaryFile(delete=False)  # as PyTensor's numba backend does
        leftover.close()
    assert tempfile.gettempdir() == outside and not made.exists() and not Path(leftover.name).exists()
    assert heavy("json") is __import__("json")


def test_models_leave_the_users_warning_filters_as_they_were():
    from stats_mtbias.studies import models

    before = list(warnings.filters)

    @models._sampling
    def inner():
        warnings.warn("PyTensor could not link to a BLAS installation", UserWarning, stacklevel=2)  # silenced inside
        return list(warnings.filters)

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        start = list(warnings.filters)
        inside = inner()
        assert list(warnings.filters) == start and inside != start and not caught
    assert list(warnings.filters) == before

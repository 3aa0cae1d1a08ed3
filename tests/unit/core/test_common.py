"""The studies' shared wiring: `noted` keeps data-quality warnings as notes and raises them on."""

from __future__ import annotations

import inspect
import warnings

import pytest

from stats_mtbias.errors import DataQualityWarning
from stats_mtbias.studies._common import noted


class _Copied(DataQualityWarning):
    """A subclass of the data-quality warning, as a study might raise."""


def test_noted_returns_the_notes_list_itself():
    """`with noted(notes) as got`: got is the very list passed in."""
    notes = ["before"]
    with warnings.catch_warnings(), noted(notes) as got:
        warnings.simplefilter("ignore")
        assert got is notes
    assert notes == ["before"]


def test_noted_appends_a_data_quality_warning_once_and_raises_it_on():
    """A DataQualityWarning inside the block is appended to the notes and raised on to the caller, unchanged."""
    notes = []
    with pytest.warns(DataQualityWarning, match="^system b is a copy of a$") as record:
        with noted(notes):
            warnings.warn("system b is a copy of a", DataQualityWarning, stacklevel=1)
            line = inspect.currentframe().f_lineno - 1
    assert notes == ["system b is a copy of a"]
    assert len(record) == 1
    assert record[0].category is DataQualityWarning
    assert record[0].filename == __file__
    assert record[0].lineno == line


def test_noted_keeps_subclasses_and_skips_other_warnings():
    """A subclass of DataQualityWarning is noted; a UserWarning or a RuntimeWarning is raised on but not noted."""
    notes = []
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        with noted(notes):
            warnings.warn("plain", UserWarning, stacklevel=1)
            warnings.warn("copied", _Copied, stacklevel=1)
            warnings.warn("overflow", RuntimeWarning, stacklevel=1)
    assert notes == ["copied"]
    assert [(w.category, str(w.message)) for w in record] == [
        (UserWarning, "plain"),
        (_Copied, "copied"),
        (RuntimeWarning, "overflow"),
    ]


def test_noted_does_not_append_a_note_twice():
    """The same message twice (and one already among the notes) is noted once, and raised on once (every interval
    of a study may say the same: tail_resolution); a message already among the notes is still raised."""
    notes = ["old"]
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        with noted(notes):
            for message in ("new", "new", "old"):
                warnings.warn(message, DataQualityWarning, stacklevel=1)
    assert notes == ["old", "new"]
    assert [str(w.message) for w in record] == ["new", "old"]


def test_noted_sees_warnings_the_caller_ignores():
    """Under an outer 'ignore' filter the warning is still noted (the block records every warning), then dropped."""
    notes = []
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("ignore")
        with noted(notes):
            warnings.warn("quiet", DataQualityWarning, stacklevel=1)
            warnings.warn("quiet", DataQualityWarning, stacklevel=1)
    assert notes == ["quiet"]
    assert record == []


def test_noted_lets_an_exception_through_after_noting():
    """An exception inside the block propagates (not swallowed); the warnings before it are noted."""
    notes = []
    with pytest.raises(KeyError, match="boom"), pytest.warns(DataQualityWarning, match="early"):
        with noted(notes):
            warnings.warn("early", DataQualityWarning, stacklevel=1)
            raise KeyError("boom")
    assert notes == ["early"]

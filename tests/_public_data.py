"""Where the tests find the public datasets, and why a test that needs them is skipped.

One rule for the whole suite (the ``data_dir`` fixture, the ``needs_data`` marker and the
docstring examples that read the shipped data, see ``conftest.py`` at the top of the
checkout): the datasets are ``$MTBIAS_DATA``; else ``../shared/data`` beside the checkout
(as ``make`` does; ``MTBIAS_NO_SHARED_DATA=1`` ignores it, to test as on a fresh clone);
else the user cache, filled by downloading every file as ``stats-mtbias data download``
does. When none of these works, every test that needs them is skipped, with the reason.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
NO_SHARED = "MTBIAS_NO_SHARED_DATA"
MARKER = "needs_data"
# Docstring examples (doctest items: a module, or module.function) that run a study on the shipped data.
DOCTESTS = {
    "stats_mtbias.api",  # smb.tgbi(systems=["google", "papago"], ...)
}
# The terminal summary counts the skips whose reason says one of these.
REASONS = ("MTBIAS_DATA", "public datasets")


def use_shared_data() -> None:
    """Make ``../shared/data`` beside the checkout ``$MTBIAS_DATA`` when nothing else is set, as ``make`` does.

    The API's and the command line's defaults (and the subprocesses the tests start) then
    read the same directory as the ``data_dir`` fixture.
    """
    if not os.environ.get("MTBIAS_DATA") and not os.environ.get(NO_SHARED) and (SHARED / "tgbi").is_dir():
        os.environ["MTBIAS_DATA"] = str(SHARED)


@cache
def _find() -> tuple[Path | None, str]:
    """The datasets' directory, or None and why not (once per process: a download is tried once)."""
    use_shared_data()
    env = os.environ.get("MTBIAS_DATA")
    if env:
        if (Path(env) / "tgbi").is_dir():
            return Path(env), ""
        return None, f"MTBIAS_DATA={env} holds no datasets (`stats-mtbias data download` fills a directory)"
    # A fresh clone: fetch every dataset into the user cache (MTBIAS_CACHE; MTBIAS_MIRROR for a local copy), as
    # `stats-mtbias data download` does, sha256-checked; only without a network are the data tests skipped.
    from stats_mtbias.datasets.registry import datasets, open_store
    from stats_mtbias.errors import MtbiasError

    try:
        store = open_store()
        for files in datasets().values():
            for file in files:
                store.fetch(file)
    except MtbiasError as exc:
        return None, f"the public datasets are not here and could not be downloaded: {exc}"
    return store.root, ""


def public_data() -> Path:
    """The public datasets' directory; else the calling test (or fixture) is skipped, with the reason."""
    path, reason = _find()
    if path is None:
        pytest.skip(reason)
    return path


def mark_doctest(item) -> None:
    """Mark a docstring example of :data:`DOCTESTS` ``needs_data`` (when collected: ``-m needs_data`` selects it)."""
    if isinstance(item, pytest.DoctestItem) and item.name in DOCTESTS and item.get_closest_marker(MARKER) is None:
        item.add_marker(MARKER)


def skip_without_data(items: list) -> None:
    """Without the datasets, skip every item marked ``needs_data``, with the reason.

    Called after the selection (``-m``, ``-k``), so the datasets are looked for (and downloaded) only when a
    selected test needs them; by both conftests (idempotent), so a run of the package's doctests alone skips too.
    """
    needing = [item for item in items if item.get_closest_marker(MARKER) is not None]
    if not needing:
        return
    path, reason = _find()
    if path is None:
        for item in needing:
            if all(mark.kwargs.get("reason") != reason for mark in item.iter_markers("skip")):
                item.add_marker(pytest.mark.skip(reason=reason))

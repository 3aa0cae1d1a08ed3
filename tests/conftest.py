import os
from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """The shared public datasets (MTBIAS_DATA, else ../shared/data beside the repo)."""
    env = os.environ.get("MTBIAS_DATA")
    path = Path(env) if env else Path(__file__).resolve().parents[2] / "shared" / "data"
    if (path / "tgbi").is_dir():
        return path
    if env:
        pytest.skip(f"MTBIAS_DATA={env} holds no datasets (`stats-mtbias data download` fills a directory)")
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
        pytest.skip(f"the public datasets are not here and could not be downloaded: {exc}")
    return store.root


@pytest.fixture(scope="session")
def tgbi_sentences(data_dir):
    from stats_mtbias.datasets import tgbi
    from stats_mtbias.datasets.registry import open_store

    return tgbi.read_sentences(open_store(data_dir))


def pytest_terminal_summary(terminalreporter):
    """Say how many tests did not run for want of the datasets (they skip; this line makes that visible in any run)."""
    skipped = terminalreporter.stats.get("skipped", [])
    reasons = [str(r.longrepr[2]) if isinstance(r.longrepr, tuple) else str(r.longrepr) for r in skipped]
    data = [r for r in reasons if "MTBIAS_DATA" in r or "public datasets" in r]
    if data:
        terminalreporter.write_sep("=", f"{len(data)} tests need the public datasets and did not run", yellow=True)
        terminalreporter.write_line(f"  {data[0].removeprefix('Skipped: ')}")
        terminalreporter.write_line("  set MTBIAS_DATA to a directory filled by `stats-mtbias data download` to run them")


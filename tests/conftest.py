import os
from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """The shared public datasets (MTBIAS_DATA, else ../shared/data beside the repo)."""
    env = os.environ.get("MTBIAS_DATA")
    path = Path(env) if env else Path(__file__).resolve().parents[2] / "shared" / "data"
    if not (path / "tgbi").is_dir():
        pytest.skip("the public datasets are not available (set MTBIAS_DATA)")
    return path


@pytest.fixture(scope="session")
def tgbi_sentences(data_dir):
    from stats_mtbias.datasets import tgbi
    from stats_mtbias.datasets.registry import open_store

    return tgbi.read_sentences(open_store(data_dir))

from pathlib import Path

import pytest
from hypothesis import settings

from tests._public_data import REASONS, public_data, skip_without_data, use_shared_data

# Hypothesis's 200 ms deadline fails a correct test on a loaded 2-core machine (CI, or workers side by side): the
# properties are about values, and the suite's time budget is kept by benchmarks/, not by per-example deadlines.
settings.register_profile("stats_mtbias", deadline=None)
settings.load_profile("stats_mtbias")


def pytest_configure(config):
    use_shared_data()


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    """A test marked ``needs_data`` (it reads the shipped data through the API's or the CLI's defaults) is skipped,
    with the reason, when the public datasets are not here and cannot be downloaded."""
    skip_without_data(items)


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """The shared public datasets (MTBIAS_DATA, else ../shared/data beside the repo, else downloaded into the cache)."""
    return public_data()


@pytest.fixture(scope="session")
def tgbi_sentences(data_dir):
    from stats_mtbias.datasets import tgbi
    from stats_mtbias.datasets.registry import open_store

    return tgbi.read_sentences(open_store(data_dir))


def pytest_terminal_summary(terminalreporter):
    """Say how many tests did not run for want of the datasets (they skip; this line makes that visible in any run)."""
    skipped = terminalreporter.stats.get("skipped", [])
    reasons = [str(r.longrepr[2]) if isinstance(r.longrepr, tuple) else str(r.longrepr) for r in skipped]
    data = [r for r in reasons if any(word in r for word in REASONS)]
    if data:
        terminalreporter.write_sep("=", f"{len(data)} tests need the public datasets and did not run", yellow=True)
        terminalreporter.write_line(f"  {data[0].removeprefix('Skipped: ')}")
        terminalreporter.write_line("  set MTBIAS_DATA to a directory filled by `stats-mtbias data download` to run them")

"""The docstring examples (``--doctest-modules`` over ``stats_mtbias/``) that run a study on the public datasets are
marked ``needs_data`` and, like the tests that need the datasets (``tests/_public_data.py``), skipped with the
reason when the datasets are not here and cannot be downloaded; also when the package's doctests run alone."""

import pytest

from tests._public_data import mark_doctest, skip_without_data, use_shared_data


def pytest_configure(config):
    use_shared_data()


def pytest_itemcollected(item):
    mark_doctest(item)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    skip_without_data(items)

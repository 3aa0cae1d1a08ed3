"""One module per published study (and ``rates`` for any benchmark), each the only place that wires its data.

Every study module offers ``run(...)`` (the public API's door: it returns a
:class:`~stats_mtbias.result.StudyResult`) and ``pilot(result, ...)`` (its own
result as a planning design for :func:`stats_mtbias.power`). :data:`STUDIES`
maps a study's name to its module, imported on first use (pymc, dask and the
aligners stay out of start-up).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from importlib import import_module
from types import ModuleType

NAMES = ("tgbi", "winomt", "prates", "optimal", "rates")
# The studies whose outputs ``smb.read`` reads into genders.
READERS = ("tgbi", "prates", "winomt")


class _Registry(Mapping):
    """``{study name: module}``, each module imported when first asked for."""

    def __getitem__(self, name: str) -> ModuleType:
        if name not in NAMES:
            raise KeyError(name)
        return import_module(f"stats_mtbias.studies.{name}")

    def __iter__(self) -> Iterator[str]:
        return iter(NAMES)

    def __len__(self) -> int:
        return len(NAMES)


STUDIES: Mapping[str, ModuleType] = _Registry()

"""One module per published study (and ``rates`` for any benchmark), each the only place that wires its data.

Every study module ends in one :class:`~stats_mtbias.studies._study.Study` record, ``STUDY``: its frames, its
``evaluate(...)`` (the public API's door: it returns a :class:`~stats_mtbias.result.StudyResult`, through the shared
:func:`~stats_mtbias.studies._study.finish`) and its ``pilot(result, ...)`` (its own result as a planning design
for :func:`stats_mtbias.power`, read from the public result alone). :data:`STUDIES` maps a study's name to its
record, the module imported on first use (pymc, dask and the aligners stay out of start-up).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from stats_mtbias.studies._study import Study

NAMES = ("tgbi", "winomt", "prates", "optimal", "rates")
# The studies whose outputs ``smb.read`` reads into genders.
READERS = ("tgbi", "prates", "winomt")


class _Registry(Mapping):
    """``{study name: Study}``, each study's module imported when first asked for."""

    def __init__(self, names: tuple[str, ...]):
        self._names = names

    def __getitem__(self, name: str) -> Study:
        if name not in self._names:
            raise KeyError(name)
        return import_module(f"stats_mtbias.studies.{name}").STUDY

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)


STUDIES: Mapping[str, Study] = _Registry(NAMES)
"""The five studies whose results serve as pilots and whose judgements :func:`stats_mtbias.read` reads."""

ALL: Mapping[str, Study] = _Registry((*NAMES, "agreement"))
"""Every study with a result, ``agreement`` (its frames too) among them."""

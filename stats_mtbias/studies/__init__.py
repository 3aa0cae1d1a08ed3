"""One module per published study (and ``rates`` for any benchmark), each the only place that wires its data.

Every study module ends in one :class:`~stats_mtbias.studies._study.Study` record, ``STUDY``: its frames, its
``evaluate(...)`` (the public API's door: it returns a :class:`~stats_mtbias.result.StudyResult`, through the shared
:func:`~stats_mtbias.studies._study.finish`) and its ``pilot(result, ...)`` (its own result as a planning design
for :func:`stats_mtbias.power`, read from the public result alone). :data:`STUDIES` maps a study's name to its
record, the module imported on first use (pymc, dask and the aligners stay out of start-up).

The registry is the one list of studies: a module added to this package is found by its file name (no list to
edit), and :func:`register` adds a record at run time. The API's functions, the command line's subcommands, the
planning pilots, the options' docs and the contract tests are all read from it.
"""

from __future__ import annotations

import pkgutil
from collections.abc import Iterator, Mapping
from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from stats_mtbias.studies._study import Study

# The shipped studies, in the order they are listed (the command line's, the docs').
SHIPPED = ("tgbi", "winomt", "prates", "optimal", "rates")
# Modules of this package without a ``STUDY`` record that serves as a pilot: the agreement of two label columns
# (a study, but no pilot), and the Bayesian models (``smb.model``).
_OTHERS = ("agreement", "models")


def _found() -> tuple[str, ...]:
    """The study modules beside the shipped ones: every public module of this package, by name (none imported)."""
    names = (m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_"))
    return tuple(sorted(n for n in names if n not in (*SHIPPED, *_OTHERS)))


NAMES = (*SHIPPED, *_found())
# The studies whose outputs ``smb.read`` reads into genders.
READERS = ("tgbi", "prates", "winomt")
REGISTERED: dict[str, Study] = {}
"""Records added at run time by :func:`register` (a study defined outside this package), after the modules."""


def register(study: Study) -> Study:
    """Add `study` to the registry (:data:`STUDIES` and :data:`ALL`): it is then an API function, a subcommand, a
    pilot for :func:`stats_mtbias.power` and a section of :func:`stats_mtbias.report` like the shipped ones."""
    REGISTERED[study.name] = study
    return study


class _Registry(Mapping):
    """``{study name: Study}``, each study's module imported when first asked for, the registered records after."""

    def __init__(self, names: tuple[str, ...]):
        self._names = names

    def __getitem__(self, name: str) -> Study:
        if name in REGISTERED:
            return REGISTERED[name]
        if name not in self._names:
            raise KeyError(name)
        return import_module(f"stats_mtbias.studies.{name}").STUDY

    def __iter__(self) -> Iterator[str]:
        return iter(dict.fromkeys([*self._names, *REGISTERED]))

    def __len__(self) -> int:
        return len(dict.fromkeys([*self._names, *REGISTERED]))


STUDIES: Mapping[str, Study] = _Registry(NAMES)
"""Every study whose results serve as pilots (the five shipped ones, and any study added)."""

ALL: Mapping[str, Study] = _Registry((*NAMES, "agreement"))
"""Every study with a result, ``agreement`` (its frames too) among them."""

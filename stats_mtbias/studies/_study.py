"""The one study protocol: read → judge → count → metric in the study's module, the finishing step here.

A study's module holds only what is specific to it and ends in one :class:`Study` record (``STUDY``): its name,
the frames its results may hold, its ``evaluate`` (the public API's door), its ``pilot`` (its result as a planning
design for :func:`stats_mtbias.power`) and, where it has one, its ``read``. Every study finishes through
:func:`finish`: notes kept once, comparisons in :data:`~stats_mtbias.result.COMPARE_COLUMNS`, the table's columns
first, frames named as the record declares them, provenance as a plain dict — one
:class:`~stats_mtbias.result.StudyResult`, never a private result type.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import pandas as pd

from stats_mtbias import _defaults
from stats_mtbias import studies as _registry
from stats_mtbias.provenance import Provenance
from stats_mtbias.result import TABLE_COLUMNS, Spec, StudyResult
from stats_mtbias.studies._common import Restriction, comparison_frame, noted


@dataclass(frozen=True)
class Study:
    """What the registry (:data:`stats_mtbias.studies.STUDIES`) knows of one study.

    Attributes
    ----------
    name : str
        The study's name (``StudyResult.study``).
    frames : tuple of str
        The frames (``res.frames``) its results may hold, in order: the groups a reader may rely on.
    evaluate : callable
        ``evaluate(...) -> StudyResult``: what the public API function calls.
    pilot : callable or None
        ``pilot(result, *, systems, metric, language, subset) -> (kind, payload)``: a result as a planning design;
        it reads only the public result (``table``, ``frames``, ``provenance``).
    read : callable or None
        ``read(source, ...) -> DataFrame``: the study's judgements of a file, for :func:`stats_mtbias.read`.
    spec : Spec or None
        How its results are presented (title, headline metrics, figures): every result carries it
        (:attr:`StudyResult.spec`), and the report lays its section out by it.
    options : type or None
        Its :class:`~stats_mtbias._options.Options` class, when the study's module declares it (a new study does;
        the shipped ones' live in :mod:`stats_mtbias.options`). From it come the API function ``smb.<name>`` (where
        the API writes none), the subcommand ``stats-mtbias <name>`` with its flags (where the command line has no
        module of its own) and the docs' table of its options.
    """

    name: str
    frames: tuple[str, ...]
    evaluate: Callable[..., StudyResult]
    pilot: Callable | None = None
    read: Callable | None = None
    spec: Spec | None = None
    options: type | None = None


def with_notes(evaluate: Callable[..., StudyResult] | None = None, *, own_first: bool = False):
    """`evaluate` whose result keeps every data-quality warning raised while it ran as a note (:class:`noted`),
    before the study's own notes (after them with `own_first`); the warnings are raised on as usual."""
    if evaluate is None:
        return functools.partial(with_notes, own_first=own_first)

    @functools.wraps(evaluate)
    def wrapper(*args, **kwargs) -> StudyResult:
        notes: list[str] = []
        with noted(notes):
            result = evaluate(*args, **kwargs)
        ordered = [*result.notes, *notes] if own_first else [*notes, *result.notes]
        return dataclasses.replace(result, notes=list(dict.fromkeys(ordered)))

    return wrapper


def finish(
    study: str,
    table: pd.DataFrame,
    comparisons: pd.DataFrame | None,
    provenance: Provenance | Mapping,
    frames: Mapping[str, pd.DataFrame | None],
    *,
    allowed: Sequence[str],
    correction: str = _defaults.CORRECTION,
    family: str | Sequence[str] = "metric",
    notes: Sequence[str] = (),
    options: Mapping | None = None,
    items: Restriction | None = None,
) -> StudyResult:
    """The shared last step of every study: its parts as the public :class:`~stats_mtbias.result.StudyResult`.

    Parameters
    ----------
    study : str
        The study's name.
    table : DataFrame
        The tidy estimates; :data:`~stats_mtbias.result.TABLE_COLUMNS` must all be there (a study's own grouping
        columns and ``flag`` may stand beside them, in the order given).
    comparisons : DataFrame or None
        The systems' paired comparisons; put in :data:`~stats_mtbias.result.COMPARE_COLUMNS` order, None when
        there are none.
    provenance : Provenance or dict
    frames : dict
        The study's own frames; a None one is left out.
    allowed : sequence of str
        The frames the study declares (:attr:`Study.frames`): another name is a programming error.
    correction, family : str
        Of the comparisons' ``p_adjusted``.
    notes : sequence of str
        Said once each, in order.
    options : dict, optional
        Added to the provenance's ``options`` (e.g. ``against``, the report's "your systems").
    items : Restriction, optional
        What ``items=`` kept (:func:`~stats_mtbias.studies._common.restrict_items`): its record is the provenance's
        ``items`` (the subset, how many items, the ids' sha256), the rows it left out are added to
        ``frames["accounting"]`` under their own outcome.
    """
    missing = [c for c in TABLE_COLUMNS if c not in table]
    if missing:
        raise ValueError(f"{study}: the table lacks {', '.join(missing)}")
    kept = {name: frame for name, frame in frames.items() if frame is not None}
    unknown = [name for name in kept if name not in allowed]
    if unknown:
        raise ValueError(f"{study}: frames {', '.join(unknown)} are not among its declared frames")
    record = provenance.to_dict() if isinstance(provenance, Provenance) else dict(provenance)
    if items is not None:
        record["items"] = dict(items.record)
        counted = kept.get("accounting")
        if counted is not None and items.left_out is not None:
            kept["accounting"] = pd.concat([counted, items.left_out], ignore_index=True)
    if options:
        record["options"] = {**(record.get("options") or {}), **options}
    if comparisons is not None and len(comparisons):
        comparisons = comparison_frame(comparisons)
    else:
        comparisons = None
    registered = _registry.ALL.get(study)
    return StudyResult(
        study,
        table.reset_index(drop=True),
        comparisons,
        record,
        kept,
        correction,
        list(dict.fromkeys(notes)),
        family,
        spec=None if registered is None else registered.spec,
    )

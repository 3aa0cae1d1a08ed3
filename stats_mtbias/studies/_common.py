"""The wiring every study shares, written once: pairs of systems, families, the comparison frame, accounting, provenance.

- :func:`system_pairs` — which systems are compared: every pair, or the named
  systems ``against`` every other one (your systems against the baselines).
- :func:`pair_shared`, :func:`warn_unshared` — the one rule for a pair of systems that
  cover different items: compared on the items both have (difference, interval and
  test alike), with one warning naming how many each lacks.
- :func:`adjust` — ``p_adjusted`` within each family of comparisons. The default
  family is one language × subset × metric (the system pairs of one estimate);
  ``family="all"`` adjusts over every row.
- :func:`comparison_frame` — the comparison columns, in one order (:data:`COMPARE_COLUMNS`).
- :func:`accounting` — every input row by what became of it: ``[*keys, outcome, n]``.
- :func:`provenance` — the one way a study records how its numbers were made.
- :func:`restrict_items` — ``items=``: the items a study rests on (a list, a file, a named subset), its rows
  left out counted in the accounting.
- :func:`resample_pvalue` — the p-value of a resampling distribution with no 1/(B+1)
  floor: the replicates' own tail where it is resolved, a normal tail beyond them.
- :func:`unreachable_significance` — one warning where the options (few permutations,
  an exact test on few discordant items) leave ``p_adjusted`` no way below α.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

import numpy as np
import pandas as pd

from stats_mtbias._validation import seed_of
from stats_mtbias.errors import DataError, DataQualityWarning, UsageError
from stats_mtbias.provenance import Provenance
from stats_mtbias.result import COMPARE_COLUMNS, FAMILIES, TABLE_COLUMNS, adjust, family_keys, family_label  # noqa: F401 (re-exported)
from stats_mtbias.significance.multitest import CORRECTION_NAMES, adjust_pvalues
from stats_mtbias.stats.resampling import resample_pvalue  # noqa: F401 (re-exported: it moved to the statistics floor)

ACCOUNTING_COLUMNS = ("outcome", "n")


def with_flags(table: pd.DataFrame, flags: dict[tuple, str], keys: Sequence[str]) -> pd.DataFrame:
    """`table` with a ``flag`` column when any input was flagged (a file misaligned with its sources, mostly
    unread, in another language): every row whose `keys` values are flagged says why, the others ``""``.

    One rule for every study, so that every view (the tidy table, the CLI, the report) shows a flag.

    Examples
    --------
    >>> t = pd.DataFrame({"system": ["a", "b"], "language": ["es", "es"], "estimate": [0.5, 0.6]})
    >>> with_flags(t, {("b", "es"): "outputs look shifted"}, ["system", "language"])["flag"].tolist()
    ['', 'outputs look shifted']
    >>> "flag" in with_flags(t, {}, ["system", "language"])
    False
    """
    flags = {key: flag for key, flag in flags.items() if flag}
    if not flags:
        return table
    rows = zip(*(table[k].astype(str) for k in keys), strict=True)
    return table.assign(flag=[flags.get(tuple(row), "") for row in rows])


def check_systems(systems: Sequence[str] | str | None, name: str = "systems") -> list[str] | None:
    """A list of distinct system names (a single name as a list of one), or None."""
    if systems is None:
        return None
    if isinstance(systems, str):
        systems = [systems]
    systems = [str(s) for s in systems]
    duplicated = sorted({s for s in systems if systems.count(s) > 1})
    if duplicated:
        raise UsageError(f"`{name}` names {', '.join(duplicated)} more than once.")
    return systems


def system_pairs(systems: Sequence[str], against: Sequence[str] | None = None) -> list[tuple[int, int]]:
    """Index pairs ``(a, b)`` of the systems to compare, ``a`` before ``b``.

    Without `against`: every pair, in order. With `against`: each named system
    against every other system (the named ones first, as ``system_a``), each
    pair once.

    Examples
    --------
    >>> system_pairs(["mine", "google", "aws"])
    [(0, 1), (0, 2), (1, 2)]
    >>> system_pairs(["google", "aws", "mine"], against=["mine"])
    [(2, 0), (2, 1)]
    """
    systems = list(systems)
    if against is None:
        return list(combinations(range(len(systems)), 2))
    against = check_systems(against, "against")
    missing = [s for s in against if s not in systems]
    if missing:
        raise UsageError(f"`against`: {', '.join(missing)} not among the systems evaluated ({', '.join(systems)}).")
    pairs, seen = [], set()
    for name in against:
        a = systems.index(name)
        for b in range(len(systems)):
            if b != a and frozenset((a, b)) not in seen:
                seen.add(frozenset((a, b)))
                pairs.append((a, b))
    return pairs


def pair_shared(covered: np.ndarray, a: int, b: int) -> np.ndarray | None:
    """The units (items, or item × set cells) both systems `a` and `b` have, or None when nothing is to be dropped.

    `covered` is ``(units, systems, …)``: whether a system has an output (read or
    not) there. None where the two cover the same units (the pair is compared on
    all of them) or none in common (two independent samples, each on all of its own).

    Examples
    --------
    >>> covered = np.array([[True, True], [True, False], [True, True]])
    >>> pair_shared(covered, 0, 1).tolist()
    [True, False, True]
    >>> pair_shared(covered[[0, 2]], 0, 1) is None
    True
    """
    shared = covered[:, a] & covered[:, b]
    if not shared.any() or np.array_equal(covered[:, a], covered[:, b]):
        return None
    return shared


def lacking(covered: np.ndarray, systems: Sequence[str], a: int, b: int) -> tuple[str, int, str, int, int]:
    """``(a, units a lacks of b's, b, units b lacks of a's, units shared)`` for :func:`warn_unshared`."""
    ca, cb = covered[:, a], covered[:, b]
    return str(systems[a]), int((cb & ~ca).sum()), str(systems[b]), int((ca & ~cb).sum()), int((ca & cb).sum())


def warn_unshared(
    pairs: Sequence[tuple[str, int, str, int, int]],
    *,
    what: str = "items",
    estimates: str = "the estimates per system use all of theirs",
    stacklevel: int = 3,
) -> str | None:
    """One :class:`~stats_mtbias.errors.DataQualityWarning` for the pairs of systems compared on part of their items.

    `pairs` are :func:`lacking`'s tuples; the message names both systems of each pair
    and how many `what` each lacks. The same words in every study.

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     _ = warn_unshared([("a", 0, "b", 40, 60)])
    >>> print(caught[0].message)  # doctest: +NORMALIZE_WHITESPACE
    systems cover different items: a lacks 0 of b's items and b 40 of a's (60 shared). Each pair is compared on
    the items both have — its difference, interval and test alike; the estimates per system use all of theirs.
    """
    import warnings

    if not pairs:
        return None
    said = "; ".join(f"{a} lacks {na:,} of {b}'s {what} and {b} {nb:,} of {a}'s ({n:,} shared)" for a, na, b, nb, n in pairs[:5])
    more = f"; and {len(pairs) - 5} more pairs" if len(pairs) > 5 else ""
    message = (
        f"systems cover different {what}: {said}{more}. Each pair is compared on the {what} both have — its "
        f"difference, interval and test alike; {estimates}."
    )
    warnings.warn(message, DataQualityWarning, stacklevel=stacklevel)
    return message


def comparison_frame(rows: Iterable[dict] | pd.DataFrame, **defaults) -> pd.DataFrame:
    """Comparison rows in :data:`COMPARE_COLUMNS` order (columns absent from `rows` take `defaults`, else NaN)."""
    frame = rows.copy() if isinstance(rows, pd.DataFrame) else pd.DataFrame(list(rows))
    for column, value in defaults.items():
        if column not in frame:
            frame[column] = value
    for column in COMPARE_COLUMNS:
        if column not in frame:
            frame[column] = np.nan
    for column in ("system_a", "system_b", "language", "subset", "metric"):
        frame[column] = frame[column].astype(str)
    return frame[COMPARE_COLUMNS].reset_index(drop=True)


def accounting(frame: pd.DataFrame, keys: Sequence[str], outcome: str, n: str | None = None) -> pd.DataFrame:
    """Rows of `frame` counted by `keys` and `outcome`: ``[*keys, outcome, n]`` (`n`: a count column, else one per row)."""
    table = frame.assign(outcome=frame[outcome].astype(str))
    grouped = table.groupby([*keys, "outcome"], sort=False, observed=True)
    counts = grouped[n].sum() if n else grouped.size()
    return counts.rename("n").reset_index()


def provenance(
    method: str,
    data: dict,
    *,
    rng,
    level: float,
    n_boot: int | None = None,
    options: dict | None = None,
    family: str | Sequence[str] | None = None,
    correction: str | None = None,
) -> Provenance:
    """The provenance of a study's numbers: inputs with sha256, method, resamples, seed, level, options."""
    options = dict(options or {})
    if correction is not None:
        options["correction"] = correction
    if family is not None:
        options["family"] = family_label(family)
    return Provenance(method=method, data=dict(data), n_boot=n_boot, seed=seed_of(rng), level=level, options=options)


def melt(
    frame: pd.DataFrame,
    metrics: dict[str, tuple[str, str, str]],
    *,
    keys: dict[str, str],
    defaults: dict[str, object] | None = None,
    n: str | None = "n",
    scale: float = 1.0,
) -> pd.DataFrame:
    """Melt a wide study frame into :data:`TABLE_COLUMNS`.

    Parameters
    ----------
    frame : DataFrame
        One row per group, a column per metric and its bounds.
    metrics : dict
        ``{metric name: (estimate column, low column, high column)}``; a bound
        column may be None (no interval).
    keys : dict
        ``{table column: frame column}`` for ``system``, ``language``, ``subset``.
    defaults : dict
        Values of table columns the frame lacks (``{"language": "ko"}``).
    n : str or None
        The frame's count column.
    scale : float
        Multiplies estimates and bounds (``0.01`` turns percent into shares).
    """
    parts = []
    for metric, (est, low, high) in metrics.items():
        part = pd.DataFrame({column: frame[source].astype(str).to_numpy() for column, source in keys.items()})
        for column, value in (defaults or {}).items():
            part[column] = value
        part["metric"] = metric
        part["estimate"] = scale * frame[est].astype(float).to_numpy()
        part["ci_low"] = scale * frame[low].astype(float).to_numpy() if low else float("nan")
        part["ci_high"] = scale * frame[high].astype(float).to_numpy() if high else float("nan")
        part["n"] = frame[n].to_numpy() if n else pd.NA
        parts.append(part)
    return pd.concat(parts, ignore_index=True)[TABLE_COLUMNS]


IDENTICAL = 0.99  # share of shared items on which two systems' outputs agree verbatim, from which it is flagged


def integrity(
    table: pd.DataFrame,
    *,
    units: Sequence[str],
    groups: Sequence[str],
    value: str,
    source: dict | str | None = None,
    what: str = "items",
) -> list[str]:
    """Warn (and return the messages) where a benchmark's systems look wrong: copies, different sizes, blank outputs.

    - two systems whose `value` (the output text, or the reading where there is no
      text) is the same on at least :data:`IDENTICAL` of the `units` both have: a
      copied file or a system named twice;
    - systems with different numbers of `units` in a group (a set, a language);
    - blank outputs (``reason`` ``empty``), per system, with their first lines.

    Each is a :class:`~stats_mtbias.errors.DataQualityWarning` naming the systems and
    their files (`source`: ``{system: file}`` or one file), so ``--strict`` exits 65.
    """
    import warnings

    def where(system) -> str:
        file = source.get(system) if isinstance(source, dict) else source
        return f" ({file})" if file else ""

    messages = []
    if not len(table):  # nothing read: the study says so with its own error
        return messages
    systems = list(pd.unique(table["system"].astype(str)))
    # One integer per unit (hashing the columns, not joining strings row by row: ~100x faster on 10^5 rows).
    keyed = table.assign(_key=table[list(units)].astype(str).groupby(list(units), sort=False, dropna=False).ngroup().to_numpy())
    values = {s: part.set_index("_key")[value].astype(str) for s, part in keyed.groupby(keyed["system"].astype(str), sort=False)}
    for a, b in combinations(systems, 2):
        shared = values[a].index.intersection(values[b].index)
        if len(shared) == 0:
            continue
        same = float(np.mean(values[a].loc[shared].to_numpy() == values[b].loc[shared].to_numpy()))
        if same >= IDENTICAL:
            messages.append(
                f"systems {a}{where(a)} and {b}{where(b)} give the same output on {same:.1%} of the "
                f"{len(shared):,} {what} they share: a copied file or one system under two names?"
            )
    if groups:
        sizes = table.groupby([*groups, "system"], sort=False, observed=True)[list(units)[-1]].size().unstack("system")
        for group, row in sizes.iterrows():
            counts = row.dropna().astype(int)
            if counts.nunique() > 1:
                label = " / ".join(map(str, group)) if isinstance(group, tuple) else str(group)
                listed = ", ".join(f"{s} {n:,}" for s, n in counts.items())
                messages.append(
                    f"{label}: the systems have different numbers of {what} ({listed}); compare them on the shared ones only"
                )
    if "reason" in table:
        blank = table[table["reason"] == "empty"]
        for system, part in blank.groupby(blank["system"].astype(str), sort=False):
            lines = part["line"].astype(int).head(5).astype(str).tolist() if "line" in part else []
            shown = f" (lines {', '.join(lines)}{', …' if len(part) > 5 else ''})" if lines else ""
            messages.append(f"{system}{where(system)}: {len(part):,} blank output(s){shown}, counted as unknown")
    for message in messages:
        warnings.warn(message, DataQualityWarning, stacklevel=3)
    return messages


class noted:
    """Keep every data-quality warning raised inside the block as a note of the result, and raise it on as usual.

    >>> import warnings
    >>> from stats_mtbias.errors import DataQualityWarning
    >>> notes = []
    >>> with warnings.catch_warnings(record=True), noted(notes):
    ...     warnings.warn("system b is a copy of a", DataQualityWarning)
    >>> notes
    ['system b is a copy of a']
    """

    def __init__(self, notes: list[str]):
        self.notes = notes

    def __enter__(self):
        import warnings

        self._catcher = warnings.catch_warnings(record=True)
        self._caught = self._catcher.__enter__()
        warnings.simplefilter("always")
        return self.notes

    def __exit__(self, *exc):
        import warnings

        self._catcher.__exit__(*exc)
        said = set()
        for w in self._caught:
            if (w.category, str(w.message)) in said:  # the same words from every interval of a study: said once
                continue
            said.add((w.category, str(w.message)))
            if issubclass(w.category, DataQualityWarning) and str(w.message) not in self.notes:
                self.notes.append(str(w.message))
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
        return False


def permutation_floor(discordant) -> np.ndarray:
    """The smallest two-sided p-value an exact paired permutation (or sign) test can give: ``2 / 2**d``.

    `d` is the number of clusters on which the two systems differ: the observed
    assignment and its mirror image (every cluster swapped) are always as extreme
    as the data, so no test that permutes them goes below ``2^(1 − d)`` (1 with
    no discordant cluster).

    >>> permutation_floor([0, 1, 5, 20]).round(6).tolist()
    [1.0, 1.0, 0.0625, 2e-06]
    """
    d = np.asarray(discordant, dtype=float)
    return np.minimum(1.0, np.exp2(1.0 - d))


def _nice_ceil(value: float) -> int:
    """The smallest of 1, 2, 5 × 10^k at or above `value` (how many resamples to suggest)."""
    power = 10 ** np.floor(np.log10(max(value, 1.0)))
    return int(next(m * power for m in (1, 2, 5, 10) if m * power >= value))


def unreachable_significance(
    frame: pd.DataFrame,
    floor,
    *,
    alpha: float,
    correction: str,
    families=None,
    data_floor=None,
    resamples: tuple[str, int] | None = None,
    what: str = "comparisons",
    fixes: Sequence[str] = (),
    family: str | Sequence[str] | None = "metric",
    smaller: str | None = None,
) -> str | None:
    """Warn once where the options make significance unreachable: the smallest attainable ``p_adjusted`` ≥ α.

    `floor` (one per row of `frame`) is the smallest p-value each comparison's test
    can give under the options in force (``1/(B + 1)`` for B resamples, the exact
    floor of a discrete test; 0 where there is none). Within each family (the
    ``family`` column, or `families`), the smallest attainable ``p_adjusted`` is the
    `correction` applied to the floors themselves (Holm: family size × the smallest
    floor; Benjamini–Hochberg: ``min_k m f_(k) / k``): the adjustment is monotone,
    so no data can do better. Where that is ≥ `alpha` in some family, one
    :class:`~stats_mtbias.errors.DataQualityWarning` (exit 65 under ``--strict``)
    gives the numbers and what to change: `resamples` (option name, B) — how many
    would let ``p_adjusted`` reach α/10 — unless `data_floor` (the exact floor of
    the data alone) is itself out of reach; then the `fixes`, and a smaller family
    (`smaller`, by default ``against=`` and, unless `family` is already the
    default, ``family="metric"``).

    Returns the message, or None when every family can reach α.
    """
    import warnings

    if frame is None or not len(frame):
        return None
    floor = np.broadcast_to(np.asarray(floor, dtype=float), (len(frame),))
    exact = None if data_floor is None else np.broadcast_to(np.asarray(data_floor, dtype=float), (len(frame),))
    labels = np.asarray(frame["family"] if families is None else families, dtype=object)
    out, sizes, lowest, by_data, total = [], [], [], 0, 0
    for label in pd.unique(labels):
        inside = labels == label
        ok = inside & ~np.isnan(frame["p_value"].to_numpy(dtype=float))
        if not ok.any():
            continue
        total += 1
        attainable = float(np.min(adjust_pvalues(floor[ok], correction)))
        if attainable >= alpha:
            out.append(attainable)
            sizes.append(int(ok.sum()))
            lowest.append(float(np.min(floor[ok])))
            if exact is not None and float(np.min(adjust_pvalues(exact[ok], correction))) >= alpha:
                by_data += 1
    if not out:
        return None
    name = CORRECTION_NAMES[correction]
    size_text = f"{min(sizes)}" if min(sizes) == max(sizes) else f"{min(sizes)}–{max(sizes)}"
    message = (
        f"{what}: significance is out of reach in {len(out)} of {total} famil{'y' if total == 1 else 'ies'}: "
        f"the smallest attainable p_adjusted is {min(out):.3g} ≥ α = {alpha:g} ({name} over {size_text} "
        f"comparison{'s' if max(sizes) > 1 else ''} a family; "
        f"smallest attainable p {min(lowest):.3g}"
    )
    if resamples is not None:
        message += f"; 1/({resamples[0]} + 1) = {1 / (resamples[1] + 1):.3g} with {resamples[0]}={resamples[1]:,}"
    message += ")."
    changes = []
    if resamples is not None and by_data < len(out):
        m = max(sizes) if correction == "holm" else 1
        changes.append(f"{resamples[0]} ≥ {_nice_ceil(10 * m / alpha):,} (p_adjusted can then reach α/10)")
    if by_data:
        changes.append(
            f"in {by_data} famil{'y' if by_data == 1 else 'ies'} even an exact test cannot reach it (too few items differ)"
        )
    changes.extend(fixes)
    if smaller is None:
        smaller = "a smaller family: your systems against the others only (against=[...] / --against)"
        if family is not None and family != "metric":
            smaller += ", one family per language × subset × metric (family='metric' / --family metric)"
    changes.append(smaller)
    message += " To change: " + "; ".join(changes) + "."
    warnings.warn(message, DataQualityWarning, stacklevel=3)
    return message


# ---------------------------------------------------------------- items=: which items a study rests on

ITEMS_LEFT_OUT = "left out by items="
"""The accounting's outcome of the rows an ``items=`` option left out."""


@dataclass(frozen=True)
class Restriction:
    """What ``items=`` did to a study's rows: the provenance's ``items`` record, and the rows it left out counted
    as the study's accounting counts them (``[*keys, outcome, n]``, outcome :data:`ITEMS_LEFT_OUT`)."""

    record: dict
    left_out: pd.DataFrame | None = None


def _item_file(path: Path) -> list[str]:
    """The ids of a file: one a line, or a CSV with an ``item`` column (blank lines and ``#`` comments skipped)."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(f"cannot be read as a list of item ids ({exc})", path) from exc
    lines = [(number, line.strip()) for number, line in enumerate(text.splitlines(), 1)]
    lines = [(number, line) for number, line in lines if line and not line.startswith("#")]
    if not lines:
        raise DataError("names no item (one id a line, or a CSV with an 'item' column)", path)
    header = next(csv.reader([lines[0][1]]))
    if "item" in header and len(header) > 1:
        column = header.index("item")
        ids = []
        for number, line in lines[1:]:
            fields = next(csv.reader([line]))
            if len(fields) <= column or not fields[column].strip():
                raise DataError("has no item id in its 'item' column", path, number)
            ids.append(fields[column].strip())
        return ids
    if header == ["item"]:  # a one-column CSV
        lines = lines[1:]
    return [line for _, line in lines]


def item_ids(items, *, named: Sequence[str] = ()) -> tuple[str, list[str] | None, str | None]:
    """``items=`` as ``(subset, ids, file)``: a named subset (`named`, or ``"all"``) with ids None, or the ids of a
    list or of a file (one a line, or a CSV with an ``item`` column) as strings.

    Examples
    --------
    >>> item_ids("gendered", named=("gendered",))
    ('gendered', None, None)
    >>> item_ids([3, "7"])
    ('list', ['3', '7'], None)
    >>> item_ids("3,7")
    ('list', ['3', '7'], None)
    """
    if items is None:
        return "all", None, None
    if isinstance(items, (list, tuple)) and len(items) == 1 and isinstance(items[0], str):
        only = items[0]  # the command line's --items NAME or --items FILE
        if only == "all" or only in named or Path(only).is_file():
            items = only
    if isinstance(items, str):
        if items == "all" or items in named:
            return items, None, None
        path = Path(items)
        if path.is_file():
            return "list", _item_file(path), str(path)
        if "," in items:  # ids, comma-separated
            return item_ids([i.strip() for i in items.split(",") if i.strip()], named=named)
        known = ", ".join(f"'{n}'" for n in ("all", *named))
        raise UsageError(f"`items`: {items!r} is neither a named subset ({known}), ids separated by commas nor a file of ids.")
    if isinstance(items, Path):
        return "list", _item_file(items), str(items)
    if isinstance(items, (pd.Series, pd.Index, np.ndarray)):
        items = items.tolist()
    if not isinstance(items, (list, tuple, set, frozenset)) or not items:
        raise UsageError(f"`items` takes a list of item ids, a file of them or a named subset; got {items!r}.")
    return "list", [str(i) for i in items], None


def restrict_items(
    frame: pd.DataFrame,
    items,
    *,
    column: str | Sequence[str] = "item",
    known: Iterable | None = None,
    named: dict | None = None,
    keys: Sequence[str] = ("system",),
    count: str | None = None,
    per: str | None = None,
    study: str = "",
) -> tuple[pd.DataFrame, Restriction]:
    """The rows of `frame` whose item ``items=`` keeps, and the :class:`Restriction` recording it: the one place
    every study restricts its items, after reading and before counting.

    Parameters
    ----------
    frame : DataFrame
        The study's rows as read (one per output or per counted cell), its item id in `column` (several columns:
        an id may be written as any of them; the first one counts the items).
    items : None, str, path or list
        None or ``"all"``: every item; a named subset (a key of `named`); a list of ids; a file of ids.
    known : iterable, optional
        The benchmark's item ids (default: those of `frame`): a listed id outside it is an error naming it.
    named : dict, optional
        ``{name: ids}`` of the study's named subsets (``"gendered"`` …).
    keys, count, per : optional
        How the study's accounting counts rows: its keys, and a count column, or one per distinct `per` (an
        occupation), else one per row.

    Examples
    --------
    >>> frame = pd.DataFrame({"system": "s", "item": [1, 2, 3, 3]})
    >>> kept, done = restrict_items(frame, [1, 3])
    >>> kept["item"].tolist(), done.record["n_items"], int(done.left_out["n"].sum())
    ([1, 3, 3], 2, 1)
    """
    import hashlib

    named = dict(named or {})
    subset, ids, source = item_ids(items, named=tuple(named))
    columns = [column] if isinstance(column, str) else list(column)
    found = frame[columns[0]].astype(str)
    also = [frame[c].astype(str) for c in columns[1:]]  # other spellings of an id (TGBI: the item without its set)
    if subset == "all":
        return frame, Restriction({"subset": "all", "n_items": int(found.nunique())})
    if ids is None:
        ids = [str(i) for i in named[subset]]
    else:
        universe = set(found).union(*(set(a) for a in also)) if known is None else {str(i) for i in known}
        absent = [i for i in dict.fromkeys(ids) if i not in universe]
        if absent:
            where = f" (in {source})" if source else ""
            shown = ", ".join(repr(i) for i in absent[:5]) + (f" and {len(absent) - 5} more" if len(absent) > 5 else "")
            raise UsageError(
                f"{study + ': ' if study else ''}`items`{where} names {len(absent)} id(s) the benchmark has not: {shown}."
            )
    chosen = sorted(set(ids))
    keep = np.logical_or.reduce([found.isin(chosen).to_numpy(), *(a.isin(chosen).to_numpy() for a in also)])
    kept, dropped = frame[keep], frame[~keep]
    if not len(kept):
        raise UsageError(f"{study + ': ' if study else ''}`items` ({subset}) leaves no row to analyse.")
    record = {
        "subset": subset,
        "n_items": int(found[keep].nunique()),
        "n_ids": len(chosen),
        "sha256": hashlib.sha256("\n".join(chosen).encode()).hexdigest(),
    }
    if source:
        record["file"] = source
    present = [k for k in keys if k in dropped]
    if per is not None:
        dropped = dropped.drop_duplicates([*present, per])
    left_out = accounting(dropped.assign(outcome=ITEMS_LEFT_OUT), present, "outcome", count) if len(dropped) else None
    return kept, Restriction(record, left_out)

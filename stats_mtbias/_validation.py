"""Argument validation that names the offending argument (as scipy does)."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from stats_mtbias.errors import UsageError


def check_level(level: float, name: str = "level") -> float:
    """Return `level` as a float in the open interval (0, 1)."""
    try:
        value = float(level)
    except (TypeError, ValueError):
        raise UsageError(f"`{name}` must be a number in (0, 1); got {level!r}.") from None
    if not 0.0 < value < 1.0:
        raise UsageError(f"`{name}` must be in (0, 1); got {level!r}.")
    return value


def check_finite(value, name: str):
    """Return `value` unchanged if it is None or every number in it is finite; NaN and ±inf are refused by name.

    Examples
    --------
    >>> check_finite(0.3, "rate")
    0.3
    >>> check_finite(float("nan"), "rate")
    Traceback (most recent call last):
    ...
    stats_mtbias.errors.UsageError: `rate` must be a finite number; got nan.
    """
    if value is None or isinstance(value, str):
        return value
    try:
        array = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise UsageError(f"`{name}` must be a number; got {value!r}.") from None
    if not np.all(np.isfinite(array)):
        raise UsageError(f"`{name}` must be a finite number; got {value!r}.")
    return value


def _range_text(low, high, low_open: bool, high_open: bool) -> str:
    if low is not None and high is not None:
        return f" in {'(' if low_open else '['}{low:g}, {high:g}{')' if high_open else ']'}"
    if low is not None:
        return f" {'>' if low_open else '≥'} {low:g}"
    if high is not None:
        return f" {'<' if high_open else '≤'} {high:g}"
    return ""


def check_number(
    value,
    name: str,
    *,
    low: float | None = None,
    high: float | None = None,
    low_open: bool = False,
    high_open: bool = False,
    hint: str = "",
):
    """`value` as a float (an array as a float array) if every number in it is finite and within its range.

    The one check of a float parameter, before any work: NaN, ±inf and a value
    outside ``[low, high]`` (an end excluded where ``low_open`` / ``high_open``)
    are refused by name — NaN passes every comparison (``NaN < 0`` is False), so
    a range check alone lets it through to a nonsensical answer. `hint` says what
    the parameter is, after the range.

    Examples
    --------
    >>> check_number(0.2, "discordance", low=0, high=1, low_open=True)
    0.2
    >>> check_number(float("nan"), "discordance", low=0, high=1, low_open=True, hint="a share")
    Traceback (most recent call last):
    ...
    stats_mtbias.errors.UsageError: `discordance` must be a finite number in (0, 1] (a share); got nan.
    >>> check_number([0.1, 2.0], "rate", low=0, high=1)
    Traceback (most recent call last):
    ...
    stats_mtbias.errors.UsageError: `rate` must be a finite number in [0, 1]; got 2.
    """
    where = _range_text(low, high, low_open, high_open) + (f" ({hint})" if hint else "")
    if value is None:  # a number given as text ("0.3", read from a file) is read as that number
        raise UsageError(f"`{name}` must be a finite number{where}; got {value!r}.")
    try:
        array = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise UsageError(f"`{name}` must be a finite number{where}; got {value!r}.") from None
    with np.errstate(invalid="ignore"):
        bad = ~np.isfinite(array)
        if low is not None:
            bad |= (array <= low) if low_open else (array < low)
        if high is not None:
            bad |= (array >= high) if high_open else (array > high)
    if np.any(bad):
        first = float(array[bad].ravel()[0]) if array.ndim else float(array)
        count = int(np.sum(bad))
        got = f"{first:g}" + (f" ({count} such)" if count > 1 else "")
        raise UsageError(f"`{name}` must be a finite number{where}; got {got}.")
    return float(array) if array.ndim == 0 else array


def check_positive_int(value: int, name: str, minimum: int = 1) -> int:
    """Return `value` as an int not below `minimum`."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise UsageError(f"`{name}` must be an integer; got {value!r}.")
    if value < minimum:
        raise UsageError(f"`{name}` must be at least {minimum}; got {value}.")
    return int(value)


def check_choice(value: str, choices: Iterable[str], name: str) -> str:
    """Return `value` if it is one of `choices`."""
    choices = tuple(choices)
    if value not in choices:
        raise UsageError(f"`{name}` must be one of {', '.join(map(repr, choices))}; got {value!r}.")
    return value


def check_rng(rng: np.random.Generator | int | None, name: str = "rng") -> np.random.Generator:
    """Turn a seed or Generator into a Generator; refuse hidden global randomness.

    ``None`` is refused on purpose: every random number in stats_mtbias comes
    from an explicit seed, so that the same call gives the same numbers.
    """
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, (int, np.integer)) and not isinstance(rng, bool):
        if rng < 0:
            raise UsageError(f"`{name}` seed must be non-negative; got {rng}.")
        return np.random.default_rng(int(rng))
    raise UsageError(
        f"`{name}` must be an integer seed or a numpy.random.Generator; got {rng!r}. "
        "stats_mtbias never draws from unseeded randomness."
    )


def seed_of(rng: np.random.Generator | int | None) -> int | str | None:
    """What the provenance records of `rng`: the seed, or that a Generator was passed (its state is the user's)."""
    if isinstance(rng, np.random.Generator):
        return f"Generator({type(rng.bit_generator).__name__})"
    return rng

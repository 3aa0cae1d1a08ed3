"""One synthetic-input builder and runner per study, all taking the same abstract case.

A :class:`Case` is systems × items × outcomes (``female``, ``male``, ``neutral``), an
optional ``group`` per item, and the items each system lacks. Each :class:`Study`
turns it into that study's own input — ``rates`` a judgement frame, TGBI a benchmark
of its own (``outputs=``, a ``gender`` column), WinoMT ``judgements=`` (the outcome
``female`` read as the entity's gold gender, ``male`` as the other one: right and
wrong), Prates and the optimal translator ``judgements=`` — runs it, and says by hand
what the compared estimate is on a set of items (:meth:`Study.by_hand`), so the
rules can be checked against the case itself.
"""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import pytest

import stats_mtbias as smb

N_BOOT = 200


@dataclass(frozen=True)
class Case:
    """``outcomes[system][i]``: the outcome of item ``i``; ``lacks[system]``: the items it has no output for."""

    outcomes: dict[str, np.ndarray]
    group: np.ndarray | None = None
    lacks: dict[str, np.ndarray] = field(default_factory=dict)

    @property
    def systems(self) -> list[str]:
        return list(self.outcomes)

    @property
    def n(self) -> int:
        return len(next(iter(self.outcomes.values())))

    def rows(self) -> pd.DataFrame:
        """``system, i, outcome[, group]``: one row per output a system has."""
        parts = []
        for system, outcome in self.outcomes.items():
            keep = ~self.lacks.get(system, np.zeros(self.n, bool))
            part = pd.DataFrame({"system": system, "i": np.arange(self.n), "outcome": outcome})
            if self.group is not None:
                part["group"] = self.group
            parts.append(part[keep])
        return pd.concat(parts, ignore_index=True)

    def shared(self, a: str, b: str) -> np.ndarray:
        """The items both `a` and `b` have."""
        none = np.zeros(self.n, bool)
        return ~self.lacks.get(a, none) & ~self.lacks.get(b, none)


def lacking(n: int = 60, seed: int = 1, share: float = 0.4) -> Case:
    """Two systems; the items' difficulty changes half way, so dropping the last `share` of b's items moves b's own
    estimate away from its estimate on the items a and b share (a rule that compares b's own estimate fails)."""
    rng = np.random.default_rng(seed)
    female = np.where(np.arange(n) < n // 2, 0.7, 0.15)
    draw = lambda p: np.where(rng.random(n) < p, "female", np.where(rng.random(n) < 0.8, "male", "neutral"))  # noqa: E731
    lacks = np.arange(n) >= round(n * (1 - share))
    return Case({"a": draw(female), "b": draw(female - 0.1)}, lacks={"b": lacks})


def boundary(outcome: str, n: int = 30) -> Case:
    """Two systems giving the same `outcome` on every item (a share of 0 or 1)."""
    return Case({"a": np.full(n, outcome, dtype=object), "b": np.full(n, outcome, dtype=object)})


def three(n: int = 80, seed: int = 2, groups: bool = False) -> Case:
    """Three systems of different female rates (optionally in three groups): several comparisons to adjust."""
    rng = np.random.default_rng(seed)
    outcomes = {
        s: np.where(rng.random(n) < p, "female", np.where(rng.random(n) < 0.85, "male", "neutral"))
        for s, p in (("a", 0.2), ("b", 0.35), ("c", 0.6))
    }
    return Case(outcomes, group=np.array(["g1", "g2", "g3"])[np.arange(n) % 3] if groups else None)


def named(n: int = 40, seed: int = 3) -> Case:
    """A user's two systems, one called like a shipped system (``google``)."""
    rng = np.random.default_rng(seed)
    return Case({s: np.where(rng.random(n) < p, "female", "male") for s, p in (("google", 0.3), ("mine", 0.5))})


def _share(outcome: np.ndarray, what: str = "female") -> float:
    return float(np.mean(outcome == what))


def _p_s(outcome: np.ndarray) -> float:
    """Cho et al.'s P_S of one set, by hand."""
    f, m, n = (float(np.mean(outcome == g)) for g in ("female", "male", "neutral"))
    return float(np.sqrt(f * m + n))


@dataclass(frozen=True)
class Study:
    """How one study takes a :class:`Case` and what its compared estimate is."""

    name: str
    build: Callable[[Case], object]
    call: Callable[..., smb.StudyResult]
    metric: str | None  # the compared metric (None: the study has no comparisons)
    subset: str | None
    by_hand: Callable[[np.ndarray, np.ndarray], float]  # (outcomes, items) -> the metric on those items
    needs_data: bool = False
    variants: tuple[dict, ...] = ({},)  # the options whose intervals and tests differ (each held to the rules)

    def run(self, case: Case, **options) -> smb.StudyResult:
        return self.call(self.build(case), **options)

    @property
    def api(self) -> Callable:
        return getattr(smb, self.name)

    def takes(self, keyword: str) -> bool:
        return keyword in inspect.signature(self.api).parameters

    def param(self):
        return pytest.param(self, id=self.name, marks=[pytest.mark.needs_data] if self.needs_data else [])

    def params(self):
        """(study, options) for every variant of the study's intervals and tests."""
        marks = [pytest.mark.needs_data] if self.needs_data else []
        return [
            pytest.param(self, v, id="-".join([self.name, *(f"{k}={x}" for k, x in v.items())]), marks=marks)
            for v in self.variants
        ]


# ---------------------------------------------------------------- rates


def _rates_frame(case: Case) -> pd.DataFrame:
    rows = case.rows()
    frame = pd.DataFrame({"item": rows["i"], "system": rows["system"], "gender": rows["outcome"]})
    return frame.assign(group=rows["group"]) if "group" in rows else frame


RATES = Study(
    "rates",
    _rates_frame,
    lambda frame, **o: smb.rates(frame, **{"n_boot": N_BOOT, "rng": 0, **o}),
    "female",
    "all",
    lambda outcome, items: _share(outcome[items]),  # every outcome of a case is identified
    variants=({}, {"interval": "score"}),
)


# ---------------------------------------------------------------- TGBI: a benchmark of one's own


def _tgbi_frame(case: Case) -> pd.DataFrame:
    rows = case.rows()
    return pd.DataFrame({"system": rows["system"], "set": "s1", "item": "w" + rows["i"].astype(str), "gender": rows["outcome"]})


TGBI = Study(
    "tgbi",
    _tgbi_frame,
    lambda frame, **o: smb.tgbi(outputs=frame, **{"n_boot": N_BOOT, "rng": 0, **o}),
    "p_s",
    "s1",
    lambda outcome, items: _p_s(outcome[items]),
    variants=({}, {"interval": "percentile"}, {"test": "permutation", "n_permutations": 999}),
)


# ---------------------------------------------------------------- WinoMT: readings of the shipped items


def winomt_gold(n: int) -> np.ndarray:
    """The gold gender of WinoMT's first `n` male/female items (the shipped en.txt)."""
    from stats_mtbias.datasets import winomt
    from stats_mtbias.datasets.registry import open_store

    items = winomt.read_items(open_store(None))
    gendered = items[items["gold"].isin(["male", "female"])]
    # Pro- and anti-stereotypical items alike (the file begins with a long run of anti ones), in file order.
    chosen = gendered.groupby("stereotype", sort=False).head((n + 1) // 2).sort_values("item").head(n)
    return chosen[["item", "gold"]].to_numpy()


def _winomt_frame(case: Case) -> pd.DataFrame:
    rows = case.rows()
    gold = winomt_gold(case.n)
    truth = gold[rows["i"].to_numpy(), 1]
    other = np.where(truth == "male", "female", "male")
    right = rows["outcome"].to_numpy() == "female"  # the outcome "female" stands for a right reading
    return pd.DataFrame(
        {
            "item": gold[rows["i"].to_numpy(), 0],
            "system": rows["system"],
            "language": "es",
            "gender": np.where(right, truth, other),
        }
    )


def _winomt(frame, **options):
    options = {"n_boot": N_BOOT, "rng": 0, "adjectives": False, **options}
    return smb.winomt(judgements=frame, **options)


WINOMT = Study("winomt", _winomt_frame, _winomt, "acc", "all", lambda outcome, items: _share(outcome[items]), needs_data=True)


# ---------------------------------------------------------------- Prates


def _prates_frame(case: Case) -> pd.DataFrame:
    rows = case.rows()
    frame = pd.DataFrame(
        {"item": "occ" + rows["i"].astype(str), "language": "xx", "system": rows["system"], "gender": rows["outcome"]}
    )
    return frame.assign(category=rows["group"]) if "group" in rows else frame


PRATES = Study(
    "prates",
    _prates_frame,
    lambda frame, **o: smb.prates(frame, **{"n_boot": N_BOOT, "rng": 0, **o}),
    "female",
    "all",
    lambda outcome, items: _share(outcome[items]),
    needs_data=True,  # the study compares with the shipped BLS reference
)


# ---------------------------------------------------------------- the optimal translator


def _optimal_frame(case: Case) -> tuple[pd.DataFrame, pd.DataFrame]:
    rows = case.rows()
    frame = pd.DataFrame({"occupation": "occ" + rows["i"].astype(str), "system": rows["system"], "gender": rows["outcome"]})
    reference = pd.DataFrame({"occupation": [f"occ{i}" for i in range(case.n)], "female_share": np.linspace(0.05, 0.95, case.n)})
    return frame, reference


OPTIMAL = Study(
    "optimal",
    _optimal_frame,
    lambda built, **o: smb.optimal(built[0], reference=built[1], **{"n_boot": N_BOOT, "rng": 0, **o}),
    None,
    None,
    lambda outcome, items: _share(outcome[items]),
)

SHIPPED = (RATES, TGBI, WINOMT, PRATES, OPTIMAL)


# ---------------------------------------------------------------- any other study of the registry


def generic(name: str) -> Study:
    """A study added to the registry (``stats_mtbias.studies``) without an entry above, held to the same cases:
    it takes a judgement table (``item, system, gender[, group]``) as its first argument, and its compared metric —
    the first of its spec's ``compared`` — is the share of that outcome (``female``, ``male`` or ``neutral``) over
    the ``all`` group."""
    from stats_mtbias.studies import ALL

    record = ALL[name]
    compared = record.spec.compared if record.spec is not None else ()
    metric = compared[0] if compared and compared[0] in ("female", "male", "neutral") else None
    takes = {item.name for item in record.options.info()} if record.options is not None else set()
    defaults = {k: v for k, v in (("n_boot", N_BOOT), ("rng", 0)) if k in takes}
    return Study(
        name,
        _rates_frame,
        lambda frame, **o: getattr(smb, name)(frame, **{**defaults, **o}),
        metric,
        "all" if metric else None,
        lambda outcome, items: _share(outcome[items], metric or "female"),
    )


def studies() -> tuple[Study, ...]:
    """Every study of the registry: the shipped ones by their entries above, any other by :func:`generic`."""
    from stats_mtbias.studies import STUDIES as REGISTRY

    known = {s.name: s for s in SHIPPED}
    return tuple(known[name] if name in known else generic(name) for name in REGISTRY)


STUDIES = studies()
COMPARING = tuple(s for s in STUDIES if s.metric is not None)


def quietly(function, *args, **kwargs):
    """`function`'s result and the messages of the warnings it raised."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = function(*args, **kwargs)
    return result, [str(w.message) for w in caught]

"""Coverage and size scenarios shared by the statistical tests and ``benchmarks/interval_coverage.py``.

Each scenario simulates many data sets with a known truth, runs the package's
own interval or test on every one (a fresh bootstrap per data set, never one
weight matrix shared by all), and returns rows::

    study, quantity, method, regime, n, reps, kind ("coverage" | "size"), value, mc_se, target

``target`` is the band a sound method must meet (``Row.band``: two-sided bands from
``_bands``): coverage of a 95% interval in 0.95 ± 3 Monte-Carlo SEs and each tail apart,
the size of a 5% test in 0.05 ± 3 SE. ``"discrete"`` cases may be conservative, up to
the exact method's coverage (``Row.exact``, Clopper–Pearson's for a binomial count;
no upper limit where it cannot be computed) or, for a test, down to its exact size:
the data hold a few minority outputs, errors or discordant items (ten or fewer in a tenth of the data sets, or 25 or fewer in the
median one, where a Wilson interval's coverage oscillates with the count), a set
has twenty or fewer items, a 100-item WinoMT set, or sector B, a weighted sum of
rare events whose gamma interval is Garwood's exact one with equal weights.
Where the interval is a function of one binomial or multinomial count (one output per
item: the female rate, a set of independent sentences), its own coverage is enumerated
(``Row.method_exact``): the simulation is held to it (± 3 SE, two-sided) and it, with no
Monte-Carlo error, to 0.95 ± 1.5 points or, discrete, up to the exact method's coverage
(``_bands.check_method``; printed as ``METHOD`` lines).
``"reference"`` rows show a method that is not the default, for comparison.
``reps`` sets the Monte-Carlo error: 1,000 gives 0.007 on a coverage of 0.95.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace

import numpy as np

from stats_mtbias.estimators.tgbi import p_s
from stats_mtbias.estimators.winomt import METRICS, item_features, winomt_metrics
from stats_mtbias.significance.paired import sign_test_pvalue
from stats_mtbias.studies.winomt import FEW_DISCORDANT, paired_comparison, score_bounds
from stats_mtbias.uncertainty.analytic import (
    FEW_EVENTS,
    clopper_pearson_interval,
    design_effect,
    minority_count,
    p_s_interval,
    paired_difference_analytic,
    proportion_interval,
    tgbi_index_interval,
)
from stats_mtbias.uncertainty.bootstrap import BootstrapResult, cluster_bootstrap

from . import _bands
from ._sim import iid_exact_coverage

COVERAGE_BAND = (0.935, 0.965)
SIZE_LIMIT = 0.06
ALPHA = 0.05


@dataclass
class Row:
    study: str
    quantity: str
    method: str
    regime: str
    n: int
    reps: int
    kind: str
    value: float
    target: str = "band"
    exact: float | None = None  # "discrete" rows: the exact method's coverage in the regime (the band's upper limit)
    method_exact: float | None = None  # the method's own coverage, enumerated (a binomial count): the simulation's centre
    below: float | None = None  # share of data sets whose interval lies above the truth (a coverage row's lower tail)
    above: float | None = None  # ... below the truth

    @property
    def mc_se(self) -> float:
        centre = 0.95 if self.kind == "coverage" else ALPHA
        return float(np.sqrt(centre * (1 - centre) / self.reps))

    def band(self, k: float = _bands.K_SE) -> _bands.Band | None:
        """The two-sided band the row must meet (``k`` Monte-Carlo SEs), from ``_bands``; None for a reference row.

        Size: ``size_band`` (a test that never rejects fails). Coverage: ``coverage_band``; a "discrete" row with
        the exact method's coverage known: ``discrete_band`` (its upper limit is that coverage + k SE). A discrete
        row without it (clustered data, no exact method to enumerate) gets the usual band with no upper limit.
        """
        if self.target == "reference":  # a method shown beside for comparison (not the package's default)
            return None
        label = f"{self.quantity} [{self.method}] {self.regime} (n={self.n}): {self.kind}"
        if self.kind == "size":
            if self.target == "discrete" and self.exact is not None:  # an exact conditional test: its enumerated size
                return _bands.discrete_size_band(ALPHA, self.reps, self.exact, k, label)
            if self.target == "discrete":  # few events and no exact test to enumerate: conservative allowed
                return replace(
                    _bands.size_band(ALPHA, self.reps, k), low=0.0, label=label + " (discrete, no exact test: no lower limit)"
                )
            return replace(_bands.size_band(ALPHA, self.reps, k), label=label)
        if self.method_exact is not None:  # the simulation against the method's enumerated coverage (check_method)
            return _bands.method_band(self.reps, self.method_exact, k, label + " (against its enumerated coverage)")
        if self.target != "discrete":
            return replace(_bands.band(0.95, self.reps, k), label=label)
        if self.exact is not None:
            return _bands.discrete_band(0.95, self.reps, self.exact, k, label)
        return replace(_bands.band(0.95, self.reps, k), high=1.0, label=label + " (discrete, no exact method: no upper limit)")

    def ok(self, slack: float = 0.0, *, two_sided: bool = True) -> bool:
        """Inside the band of ``slack`` Monte-Carlo SEs (:meth:`band`); ``two_sided=False``: the old one-sided targets
        (coverage in [0.935, 0.965] or >= 0.935 when discrete, size <= 0.06, widened by ``slack`` SEs)."""
        if self.target == "reference":
            return True
        if two_sided:
            return self.band(slack).contains(self.value)
        pad = slack * self.mc_se
        if self.kind == "size":
            return self.value <= SIZE_LIMIT + pad
        low, high = COVERAGE_BAND
        if self.target == "discrete":
            return self.value >= low - pad
        return low - pad <= self.value <= high + pad

    def check(self, *, max_pass: float = _bands.MAX_PASS, tail_max_pass: float | None = None) -> list[str]:
        """Assert the row is in its band (``_bands.Band.check``: printed, and a method 2 points off passes with
        probability <= ``max_pass``) and, for a coverage row with both tails known outside a discrete regime, each
        tail's miss rate in ``tail_bands`` (a tail with no misses or twice the nominal passes with probability <=
        ``tail_max_pass``, default ``max_pass``). Discrete rows are not checked by tail: near 0 or 1 the misses are
        one-sided by nature (the exact interval's too). Returns the BAND lines."""
        band = self.band()
        if band is None:
            return []
        if self.target == "discrete" and self.exact is None and (band.high >= 1.0 or band.low <= 0.0):
            one = ">=" if self.kind == "coverage" else "<="
            limit = band.low if self.kind == "coverage" else band.high
            line = (
                f"BAND {band.label}: {self.value:.4f} {one} {limit:.4f} ({self.reps:,} reps, nominal "
                f"{band.nominal:.3g}); {'lower' if self.kind == 'coverage' else 'upper'} limit only"
            )
            print(line)
            assert band.contains(self.value), line
            return [line]
        lines = [band.check(self.value, max_pass=max_pass)]
        if self.method_exact is not None:  # the method itself, no Monte-Carlo error: 0.95 ± 1.5 points, or up to exact's
            lines.append(_bands.check_method(self.method_exact, 0.95, band.label, ceiling=self.exact))
        if self.kind == "coverage" and self.target == "band" and self.below is not None and self.above is not None:
            for tail, value, side in zip(
                _bands.tail_bands(0.95, self.reps), (self.below, self.above), ("below", "above"), strict=True
            ):
                lines.append(
                    tail.check(
                        value,
                        f"{band.label} misses with the truth {side} the interval",
                        max_pass=max_pass if tail_max_pass is None else tail_max_pass,
                    )
                )
        return lines

    def as_dict(self) -> dict:
        return {**self.__dict__, "mc_se": self.mc_se, "ok": self.ok(slack=2.0)}


def _tails(low, high, truth) -> dict:
    """Coverage and each tail's miss rate: ``below`` (the truth under the interval), ``above``."""
    below, above = float(np.mean(truth < np.asarray(low))), float(np.mean(truth > np.asarray(high)))
    return {"value": 1.0 - below - above, "below": below, "above": above}


def _cover(low, high, truth) -> np.ndarray:
    return (np.asarray(low) <= truth) & (truth <= np.asarray(high))


def _misses(low, high, truth) -> np.ndarray:
    """Each interval's miss by side, stacked on a last axis: ``[..., 0]`` the truth below it, ``[..., 1]`` above."""
    truth = np.asarray(truth)
    return np.stack([truth < np.asarray(low), truth > np.asarray(high)], axis=-1)


def _tail_fields(misses, reps: int) -> dict:
    """A Row's ``value``, ``below`` and ``above`` from the counts of misses ``[below, above]`` over ``reps``."""
    below, above = float(misses[0]) / reps, float(misses[1]) / reps
    return {"value": 1.0 - below - above, "below": below, "above": above}


# ---------------------------------------------------------------- TGBI, synthetic sets


def sentences(p, n_items: int, per_item: int, reps: int, rng, concentration: float | None = None) -> np.ndarray:
    """``reps`` data sets of ``n_items`` clusters of ``per_item`` sentences: GENDERS counts ``(n_items, reps, 5)``.

    Each item's shares are Dirichlet(concentration · p) (sentences of an item correlated, intra-class
    correlation 1 / (concentration + 1)), or p itself when `concentration` is None (independent sentences).
    """
    p = np.asarray(p, float)
    shares = (
        np.broadcast_to(p, (n_items, reps, 3))
        if concentration is None
        else rng.dirichlet(concentration * p + 1e-9, size=(n_items, reps))
    )
    counts = np.zeros((n_items, reps, 5))
    counts[..., :3] = rng.multinomial(per_item, shares / shares.sum(-1, keepdims=True))
    return counts


# (female, male, neutral) shares: P_S from 0.03 to 0.998
TGBI_REGIMES = {
    "near 0 (P_S .08)": (0.002, 0.993, 0.005),
    "near 0 (P_S .12)": (0.01, 0.985, 0.005),
    "middle (P_S .59)": (0.3, 0.5, 0.2),
    "near 1 (P_S .99)": (0.01, 0.01, 0.98),
}
# Sizes: a custom set of 100 sentences, TGBI's positive set (496 = 124 items x 4), its formal set (2,118 = 1,059 x 2).
# The intra-class correlation of the clustered designs, 0.2 (concentration 4), is what the shipped sets show
# (design effects 1.2-1.7 for four sentences per item).
TGBI_DESIGNS = {"100 sentences": (100, 1, None), "124 items x 4": (124, 4, 4.0), "1,059 items x 2": (1059, 2, 4.0)}


def tgbi_sets(reps: int, seed: int = 1, regimes=None, designs=None) -> list[Row]:
    """Coverage of a set's P_S interval (score interval on g), independent and clustered sentences."""
    rng = np.random.default_rng(seed)
    rows = []
    for regime, p in (regimes or TGBI_REGIMES).items():
        truth = float(np.sqrt(p[0] * p[1] + p[2]))
        for design, (n_items, per, conc) in (designs or TGBI_DESIGNS).items():
            data = sentences(p, n_items, per, reps, rng, conc)
            ci = p_s_interval(data)
            minority = n_items * per * min(truth**2, 1 - truth**2)
            # Discrete: ten or fewer minority outputs expected, or the interval in its few-events mode (Poisson ends,
            # worst-case design effect) in at least 10% of the data sets (near 0 on 1,059 x 2: 15 expected, 12
            # effective, the mode in 20% of them: conservative by design).
            few = float(np.mean(minority_count(data) <= FEW_EVENTS))
            target = "discrete" if minority <= 10 or few >= 0.1 else "band"
            # The exact method of independent sentences: Clopper–Pearson on the minority count (g near 0 or 1 is
            # about its share), as in test_bands; none for clustered sentences.
            # One sentence per item: the interval's own coverage is enumerated (every table), the simulation held
            # to it, and it to 0.95 ± 1.5 points or, discrete, up to the exact method's over the regime.
            g_minority = min(truth**2, 1 - truth**2)
            exact = _bands.clopper_pearson_ceiling(n_items, g_minority) if target == "discrete" and per == 1 else None
            method = iid_exact_coverage(p_s_interval, p, n_items)[0] if per == 1 else None
            rows.append(
                Row(
                    "tgbi",
                    "P_S of a set",
                    "score on g",
                    f"{regime}, {design}",
                    n_items * per,
                    reps,
                    "coverage",
                    target=target,
                    exact=exact,
                    method_exact=method,
                    **_tails(ci.low, ci.high, truth),
                )
            )
    return rows


# ---------------------------------------------------------------- TGBI, worlds resampled from the shipped outputs


def _world_draw(pop: np.ndarray, strata: np.ndarray, fraction: float, reps: int, rng) -> np.ndarray:
    """``reps`` evaluations of lexicon items drawn from the shipped items, stratified by content."""
    parts = []
    for label in np.unique(strata):
        members = np.flatnonzero(strata == label)
        size = max(2, round(len(members) * fraction))
        parts.append(members[rng.integers(0, len(members), size=(size, reps))])
    return pop[np.concatenate(parts)]


def _statistic(totals: np.ndarray) -> np.ndarray:
    values = p_s(totals)
    return np.concatenate([values, values.mean(axis=-1, keepdims=True)], axis=-1)


def tgbi_world(
    counts: np.ndarray,
    systems: list[str],
    strata: np.ndarray,
    reps: int,
    fractions=(1.0, 0.3, 0.1),
    seed: int = 5,
    bootstrap: bool = True,
    n_boot: int = 1000,
    chunk: int = 200,
) -> list[Row]:
    """Coverage of every set's and the index's interval, and size of the paired tests, in worlds like the shipped data.

    The population is the shipped lexicon items (``counts``: items x systems x sets x GENDERS); an evaluation
    draws a fraction of them with replacement within content strata, so the truth is the shipped values. For
    the paired tests two systems' outputs are swapped at random per item (a null world: equal P_S exactly).
    Evaluations are simulated `chunk` at a time, so memory stays bounded.
    """
    from stats_mtbias.datasets.tgbi import SET_NAMES

    rng = np.random.default_rng(seed)
    names = [*SET_NAMES, "TGBI"]
    truth = _statistic(counts.sum(axis=0))  # (systems, 8)
    labels = np.unique(strata)
    pairs = [(0, 1), (1, 2)][: len(systems) - 1]
    rows = []
    for fraction in fractions:
        sizes = [max(2, round(np.sum(strata == lab) * fraction)) for lab in labels]
        n_items = sum(sizes)
        st = np.repeat(labels, sizes)
        cover = np.zeros((len(systems), 8, 2))  # misses below and above the truth
        few = np.zeros((len(systems), 7))  # data sets whose set holds <= FEW_EVENTS effective minority outputs
        seen = []
        clusters = np.zeros(7)
        boot_hits = np.zeros(len(systems))
        null = {pair: {"size": np.zeros(8), "cover": np.zeros((8, 2))} for pair in pairs}
        for first in range(0, reps, chunk):
            m = min(chunk, reps - first)
            data = _world_draw(counts, strata, fraction, m, rng)  # (n, m, systems, sets, 5)
            sets, index = p_s_interval(data), tgbi_index_interval(data)
            cover[:, :7] += _misses(sets.low, sets.high, truth[None, :, :7]).sum(axis=0)
            cover[:, 7] += _misses(index.low, index.high, truth[None, :, 7]).sum(axis=0)
            minority = minority_count(data)  # (m, systems, sets): the successes g's Wilson interval sees
            few += (minority <= FEW_EVENTS).sum(axis=0)
            seen.append(minority)
            clusters += (data[..., :3].sum(axis=-1) > 0).any(axis=2).sum(axis=0).sum(axis=0)
            if bootstrap:  # the cluster bootstrap's index interval, beside (ci="bootstrap")
                for r in range(m):
                    ci = cluster_bootstrap(data[:, r], _statistic, n_boot=n_boot, rng=rng, strata=st).confidence_interval()
                    boot_hits += _cover(ci.low[:, -1], ci.high[:, -1], truth[:, -1])
            for a, b in pairs:
                both = _world_draw(counts[:, [a, b]], strata, fraction, m, rng)
                flip = rng.random(both.shape[:2]) < 0.5
                both[flip] = both[flip][:, ::-1]
                ci, p = paired_difference_analytic(both[:, :, 0], both[:, :, 1])
                ci_i, p_i = paired_difference_analytic(both[:, :, 0], both[:, :, 1], index=True)
                null[a, b]["size"] += np.append((p <= ALPHA).sum(axis=0), np.sum(p_i <= ALPHA))
                null[a, b]["cover"] += np.vstack(
                    [_misses(ci.low, ci.high, 0.0).sum(axis=0), _misses(ci_i.low, ci_i.high, 0.0).sum(axis=0)]
                )
        # Discrete: a tenth or more of the data sets hold ten or fewer minority outputs (there a set's interval takes
        # the worst-case design effect, by design), the median data set 25 or fewer (Wilson's coverage oscillates
        # with the count there: Brown, Cai and DasGupta 2001), or the set has twenty or fewer items with outputs.
        small = clusters / reps <= 20
        discrete_set = (few / reps >= 0.1) | (np.median(np.concatenate(seen), axis=0) <= 25) | small
        for s, system in enumerate(systems):
            for k, name in enumerate(names):
                discrete = k < 7 and discrete_set[s, k]
                rows.append(
                    Row(
                        "tgbi",
                        f"P_S {name}",
                        "score on g" if k < 7 else "MOVER",
                        f"{system}, {n_items} items",
                        n_items,
                        reps,
                        "coverage",
                        target="discrete" if discrete else "band",
                        **_tail_fields(cover[s, k], reps),
                    )
                )
            if bootstrap:
                rows.append(
                    Row(
                        "tgbi",
                        "P_S TGBI",
                        "bootstrap percentile (ci='bootstrap')",
                        f"{system}, {n_items} items",
                        n_items,
                        reps,
                        "coverage",
                        boot_hits[s] / reps,
                        "reference",
                    )
                )
        for (a, b), found in null.items():
            pair = f"null {systems[a]} ~ {systems[b]}, {n_items} items"
            for k, name in enumerate(names):
                # Discrete (a set with few minority outputs): the interval may cover more, the test reject less.
                target = "discrete" if k < 7 and (np.all(truth[[a, b], k] < 0.1) or discrete_set[[a, b], k].any()) else "band"
                rows.append(
                    Row(
                        "tgbi",
                        f"paired P_S {name}",
                        "t-test of g" if k < 7 else "MOVER",
                        pair,
                        n_items,
                        reps,
                        "size",
                        found["size"][k] / reps,
                        target,
                    )
                )
                rows.append(
                    Row(
                        "tgbi",
                        f"paired P_S {name}",
                        "MOVER",
                        pair,
                        n_items,
                        reps,
                        "coverage",
                        target=target,
                        **_tail_fields(found["cover"][k], reps),
                    )
                )
    return rows


# ---------------------------------------------------------------- WinoMT


def _winomt_items(n: int, reps: int, rng, *systems: tuple[float, float, float], shared: float = 0.5):
    """Per item: stereotype, gold and each system's prediction, ``reps`` data sets of ``n`` items.

    Half pro, half anti; gold half male, half female in each. A system ``(acc_pro, acc_anti, lean)`` is right
    with probability ``acc_pro``/``acc_anti`` shifted by ``+lean`` for male and ``-lean`` for female gold
    (``lean`` > 0: a male default, ΔG > 0); wrong readings are the other gender (90%) or unknown. ``shared``:
    the share of items whose correctness draw the systems share (paired data).
    """
    stereo = np.where(np.arange(n) < n // 2, "pro", "anti")
    gold = np.where(np.arange(n) % 2 == 0, "male", "female")
    common = rng.random((n, reps))
    use_common = rng.random((n, reps)) < shared
    preds = []
    for acc_pro, acc_anti, lean in systems:
        base = np.where(stereo == "pro", acc_pro, acc_anti) + np.where(gold == "male", lean, -lean)
        u = np.where(use_common, common, rng.random((n, reps)))
        right = u < base[:, None]
        wrong = np.where(rng.random((n, reps)) < 0.9, np.where(gold == "male", "female", "male")[:, None], "unknown")
        preds.append(np.where(right, gold[:, None], wrong))
    return stereo, gold, preds


def _winomt_features(stereo, gold, preds, r):
    return np.stack([item_features(gold, p[:, r], stereo) for p in preds], axis=1)  # (items, systems, F)


_READINGS = ("male", "female", "unknown")


def _winomt_categories(stereo, gold, preds) -> np.ndarray:
    """Each item's category in every data set ``(items, reps)``: its stratum (stereotype x gold) and each system's
    reading, numbered as :func:`_winomt_prototypes` lists them. An item's features depend on nothing else."""
    key = ((stereo == "anti") * 2 + (gold == "female"))[:, None]
    for p in preds:
        key = key * len(_READINGS) + (p == "female") + 2 * (p == "unknown")
    return key


def _winomt_expected(*systems: tuple[float, float, float], shared: float = 0.5) -> np.ndarray:
    """Each category's probability in :func:`_winomt_items`' world (the four strata equally likely), exactly: the
    truth is the metrics of these expected counts (F1 and ΔG are functions of totals), with no Monte-Carlo error.
    Two systems; categories numbered as :func:`_winomt_categories` does."""
    first, second = systems
    probs = np.zeros(4 * len(_READINGS) ** 2)
    for stratum in range(4):  # (stereotype anti?) * 2 + (gold female?)
        anti, female = divmod(stratum, 2)
        b1, b2 = (s[1 if anti else 0] + (-s[2] if female else s[2]) for s in (first, second))
        both = shared * min(b1, b2) + (1 - shared) * b1 * b2  # a shared draw u: right when u < base
        right = {(True, True): both, (True, False): b1 - both, (False, True): b2 - both, (False, False): 1 - b1 - b2 + both}
        gold, other = (1, 0) if female else (0, 1)  # readings: 0 male, 1 female, 2 unknown
        for (r1, r2), p in right.items():
            for read1, p1 in [(gold, 1.0)] if r1 else [(other, 0.9), (2, 0.1)]:
                for read2, p2 in [(gold, 1.0)] if r2 else [(other, 0.9), (2, 0.1)]:
                    probs[(stratum * len(_READINGS) + read1) * len(_READINGS) + read2] += 0.25 * p * p1 * p2
    return probs


def _winomt_prototypes(n_systems: int) -> tuple[np.ndarray, np.ndarray]:
    """The item features of every category ``(categories, systems, F)`` (the library's ``item_features``) and each
    category's stratum."""
    combos = np.array(list(itertools.product(range(4), *[range(len(_READINGS))] * n_systems)))
    stereo, gold = np.array(["pro", "pro", "anti", "anti"])[combos[:, 0]], np.array(["male", "female"] * 2)[combos[:, 0]]
    features = [item_features(gold, np.array(_READINGS)[combos[:, 1 + s]], stereo) for s in range(n_systems)]
    return np.stack(features, axis=1), combos[:, 0]


# Each regime: the first system and, for the paired figures, the second (the same: a null, where the tests' size
# is measured; or another: the paired interval's coverage of a true difference).
WINOMT_REGIMES = {
    "middle (Acc .72, ΔG .03)": ((0.85, 0.6, 0.05), None),
    "near 1 (Acc .97), ΔG 0": ((0.98, 0.96, 0.0), None),
    "near 1, systems differ (Acc .97 vs .93)": ((0.98, 0.96, 0.0), (0.97, 0.9, 0.02)),
}


def winomt(reps: int, sizes=(100, 496, 3888), seed: int = 3, n_boot: int = 1000, chunk: int = 50) -> list[Row]:
    """Coverage of Acc, F1, ΔG, ΔS intervals (the study's: bootstrap with strata stereotype x gold, score bounds)
    and of their paired differences and size of their tests (the study's ``paired_comparison``: Tango and McNemar's
    score test for Acc, MOVER for ΔS, the item jackknife's t for F1 and ΔG) between exchangeable systems.

    Vectorised over the data sets, each with its own bootstrap: an item's features are those of its category
    (stratum and the systems' readings, 36 of them), so each data set's bootstrap is the library's over its
    categories with their frequencies (``cluster_bootstrap(frequency=)``: the same resampling distribution as
    resampling the items), and the score bounds of ``chunk`` data sets are computed at once, each data set's
    systems side by side (they are per system)."""
    rng = np.random.default_rng(seed)
    rows = []
    wanted = ["acc", "f1_male", "delta_g", "delta_s"]
    cols = [METRICS.index(m) for m in wanted]
    prototypes, proto_strata = _winomt_prototypes(2)
    n_cat, n_metrics = len(prototypes), len(METRICS)
    discordant_cat = np.any(prototypes[:, 0] != prototypes[:, 1], axis=-1)
    for regime, (first, second) in WINOMT_REGIMES.items():
        null = second is None
        expected = _winomt_expected(first, second or first) @ prototypes.reshape(n_cat, -1)
        truths = winomt_metrics(expected.reshape(2, -1))[:, cols]
        truth, diff_truth = truths[0], (0.0 if null else truths[0] - truths[1])
        for n in sizes:
            stereo, gold, preds = _winomt_items(n, reps, rng, first, second or first)
            keys = _winomt_categories(stereo, gold, preds)  # (items, reps)
            counts = np.bincount((keys + n_cat * np.arange(reps)).ravel(), minlength=n_cat * reps).reshape(reps, n_cat)
            few_discordant = int(np.sum(counts[:, discordant_cat].sum(axis=1) <= FEW_DISCORDANT))
            hits, diff_hits = np.zeros((len(cols), 2)), np.zeros((len(cols), 2))  # misses below and above the truth
            rejected = np.zeros(len(cols))
            for lo in range(0, reps, chunk):
                batch = range(lo, min(lo + chunk, reps))
                boots = []
                for r in batch:
                    seen = counts[r] > 0
                    boots.append(
                        cluster_bootstrap(
                            prototypes[seen],
                            winomt_metrics,
                            n_boot=n_boot,
                            rng=rng,
                            strata=proto_strata[seen],
                            frequency=counts[r, seen],
                        )
                    )
                replicates = np.stack([b.replicates for b in boots], axis=1).reshape(n_boot, -1, n_metrics)
                estimate = np.stack([b.estimate for b in boots]).reshape(-1, n_metrics)
                percentile = BootstrapResult(estimate, replicates, None, 0.95, "percentile").confidence_interval()
                data = prototypes[keys[:, batch]]  # (items, data sets, systems, F)
                ci = score_bounds(data.reshape(n, -1, data.shape[-1]), percentile, 0.95, replicates)  # the study's
                first_system = slice(0, None, 2)  # each data set's systems side by side
                hits += _misses(ci.low[first_system][:, cols], ci.high[first_system][:, cols], truth).sum(axis=0)
                for i in range(len(batch)):
                    res = paired_comparison(data[:, i, 0], data[:, i, 1], 0.95)  # the study's (analyse)
                    diff_hits += _misses(res["low"][cols], res["high"][cols], diff_truth)
                    if null:
                        rejected += res["p_value"][cols] <= ALPHA
            # Discrete (conservative by design): 100 items; a system's intervals resting on 25 or fewer expected errors
            # (Wilson's oscillation); paired intervals where a tenth of the data sets have <= FEW_DISCORDANT
            # discordant items (the jackknife t with few degrees of freedom).
            errors = n * (1 - (first[0] + first[1]) / 2)
            single = "discrete" if n <= 100 or errors <= 25 else "band"
            discrete = "discrete" if n <= 100 or few_discordant >= 0.1 * reps else "band"
            for j, metric in enumerate(wanted):
                if null:
                    method = {"acc": "Wilson, Poisson ends", "delta_s": "Newcombe (Wilson limits)"}.get(
                        metric, "bootstrap; score/MOVER if <= 10 errors"
                    )
                    rows.append(
                        Row(
                            "winomt",
                            metric,
                            method,
                            f"{regime}, {n} items",
                            n,
                            reps,
                            "coverage",
                            target=single,
                            **_tail_fields(hits[j], reps),
                        )
                    )
                method = {"acc": "Tango", "delta_s": "MOVER of paired Tango"}.get(metric, "jackknife t")
                label = f"null, {regime}" if null else regime
                # The jackknife t of an F1 difference is conservative where a system makes 5% errors or fewer
                # (0.979 at Acc .97 vs .93 on 3,888 items): the pseudo-values of a ratio of few errors are
                # heavy-tailed. A lower limit there, and an upper one of 0.99 in the test.
                jack = "discrete" if method == "jackknife t" and (first[0] + first[1]) / 2 >= 0.95 else discrete
                rows.append(
                    Row(
                        "winomt",
                        f"paired {metric}",
                        method,
                        f"{label}, {n} items",
                        n,
                        reps,
                        "coverage",
                        target=jack,
                        **_tail_fields(diff_hits[j], reps),
                    )
                )
                if null:
                    test = {"acc": "McNemar score", "delta_s": "MOVER p-value"}.get(metric, "jackknife t")
                    rows.append(
                        Row(
                            "winomt",
                            f"paired {metric}",
                            test,
                            f"null, {regime}, {n} items",
                            n,
                            reps,
                            "size",
                            float(rejected[j] / reps),
                            jack,
                        )
                    )
    return rows


# ---------------------------------------------------------------- Prates


def prates(reps: int, seed: int = 11) -> list[Row]:
    """Coverage of a female-rate interval (Wilson on the design-effect sample) and size of the one-sided sign test.

    Occupations are clusters: one output each, or six correlated outputs (Bengali's variants); rates near 0
    (1% and 5% female) and in the middle; 100 occupations (one category) and 1,018 (a language).
    """
    rng = np.random.default_rng(seed)
    rows = []
    for share in (0.01, 0.05, 0.3):
        for n_items in (100, 1018):
            for per, conc in ((1, None), (6, 4.0)):
                p = np.array([share, 1 - share - 0.1, 0.1])
                counts = sentences(p, n_items, per, reps, rng, conc)[..., :3]  # (items, reps, 3)
                female, outputs = counts[..., 0], counts.sum(-1)
                deff = np.array([design_effect(female[:, r], outputs[:, r]) for r in range(reps)])
                ci = proportion_interval(female.sum(0), outputs.sum(0), deff=deff)
                deff_expected = 1 + (per - 1) / (conc + 1) if conc else 1.0  # intra-class correlation 1 / (conc + 1)
                minority = n_items * per * share / deff_expected
                target = "discrete" if minority <= 10 else "band"
                # One output per occupation: a binomial count, whose exact interval is Clopper–Pearson's, and the
                # interval's own coverage is enumerated (the design effect is 1 there): the simulation is held to it.
                exact = _bands.clopper_pearson_coverage(n_items, share) if per == 1 else None
                method = _bands.enumerated_coverage(_rate_interval, n_items, share)[0] if per == 1 else None
                rows.append(
                    Row(
                        "prates",
                        "female rate",
                        "Wilson, design effect",
                        f"{share:.0%} female, {per} per item",
                        n_items,
                        reps,
                        "coverage",
                        target=target,
                        exact=exact,
                        method_exact=method,
                        **_tails(ci.low, ci.high, share),
                    )
                )
                if share == 0.3:  # the null of the one-sided test: male as likely as female
                    null = sentences(np.array([0.3, 0.3, 0.4]), n_items, per, reps, rng, conc)
                    d = null[..., 1] - null[..., 0]
                    pv = sign_test_pvalue((d > 0).sum(0), (d < 0).sum(0), "greater")
                    # Exact conditional on the untied items, so its size is below 5% by discreteness: enumerated.
                    rows.append(
                        Row(
                            "prates",
                            "male > female",
                            "sign test (one-sided)",
                            f"null, {per} per item",
                            n_items,
                            reps,
                            "size",
                            float(np.mean(pv <= ALPHA)),
                            "discrete",
                            exact=sign_test_size(n_items, per, conc),
                        )
                    )
    return rows


def _rate_interval(k: np.ndarray, n: int):
    """The female-rate interval of k female outputs among n, one per occupation (design effect 1)."""
    ci = proportion_interval(k, n)
    return ci.low, ci.high


def sign_test_size(n_items: int, per: int, conc: float | None, p=(0.3, 0.3, 0.4)) -> float:
    """Exact size of the one-sided sign test (male > female) in ``prates``' null, by enumeration.

    An item's (female, male, neutral) counts of ``per`` outputs are multinomial, or Dirichlet-multinomial with
    concentration ``conc``; it is untied with probability ``2q`` (q = P(male > female) = P(female > male)), the
    untied count is Binomial(n_items, 2q), and given it the positives are Binomial(untied, 1/2).
    """
    from scipy import special, stats

    p = np.asarray(p, float)
    cells = np.array([c for c in itertools.product(range(per + 1), repeat=3) if sum(c) == per], float)
    log = special.gammaln(per + 1) - special.gammaln(cells + 1).sum(-1)
    if conc is None:
        log = log + (cells * np.log(p)).sum(-1)
    else:
        a = conc * p
        log = log + special.gammaln(a.sum()) - special.gammaln(per + a.sum())
        log = log + (special.gammaln(cells + a) - special.gammaln(a)).sum(-1)
    q = float(np.exp(log) @ (cells[:, 1] > cells[:, 0]))
    size = 0.0
    for untied in range(n_items + 1):
        j = np.arange(untied + 1)
        rejects = np.asarray(sign_test_pvalue(j, untied - j, "greater")) <= ALPHA
        size += stats.binom.pmf(untied, n_items, 2 * q) * (stats.binom.pmf(j, untied, 0.5) @ rejects)
    return float(size)


def clopper_pearson_width(successes, n) -> np.ndarray:
    """Width of the exact interval, the ceiling for an interval in a discrete regime."""
    ci = clopper_pearson_interval(successes, n)
    return ci.high - ci.low


# ---------------------------------------------------------------- corrected Acc


def _reader(rng, n_items, human_acc, keep_right, turn_wrong):
    """One system's items: human-correct flags and an automatic reader that keeps/turns them at the given rates."""
    human_right = rng.random(n_items) < human_acc
    auto_right = np.where(human_right, rng.random(n_items) < keep_right, rng.random(n_items) < turn_wrong)
    return human_right, auto_right


# name: (human accuracy, P(reader right | human right), P(reader right | human wrong))
READERS = {"read well": (0.6, 0.9, 0.1), "read badly": (0.75, 0.45, 0.05)}


def corrected_accuracy(reps: int, seed: int = 11, n_items: int = 3888, n_label: int = 100) -> list[Row]:
    """Coverage of corrected Acc for two systems the reader errs on differently, each corrected with its own labels.

    Also the coverage when the badly read system borrows the other's labels (what the package did before
    issue 16): far below 0.95, the reason each system is corrected only with its own.
    """
    import pandas as pd

    from stats_mtbias.studies.winomt import corrected_accuracy as correct

    rng = np.random.default_rng(seed)
    own, borrowed = np.zeros(len(READERS)), 0
    below, above = np.zeros(len(READERS)), np.zeros(len(READERS))  # each tail of the own-label intervals
    for rep in range(reps):
        truths, rows, pairs = [], [], []
        for name, (acc, keep, turn) in READERS.items():
            human_right, auto_right = _reader(rng, n_items, acc, keep, turn)
            truths.append(human_right.mean())
            rows.append({"system": name, "language": "xx", "n": n_items, "acc": auto_right.mean()})
            sample = rng.choice(n_items, n_label, replace=False)
            pairs.append(
                pd.DataFrame(
                    {
                        "system": name,
                        "language": "xx",
                        "item": sample,
                        "gold": "male",
                        "human": np.where(human_right[sample], "male", "female"),
                        "automatic": np.where(auto_right[sample], "male", "female"),
                    }
                )
            )
        est = pd.DataFrame(rows)
        out = correct(est, pd.concat(pairs), n_draws=2000, rng=rep)
        own += _cover(out["ci_low"], out["ci_high"], np.array(truths))
        below += np.array(truths) < out["ci_low"].to_numpy(float)
        above += np.array(truths) > out["ci_high"].to_numpy(float)
        wrong = correct(est, pairs[0].assign(system="read badly"), n_draws=2000, rng=rep).iloc[1]
        borrowed += bool(wrong["ci_low"] <= truths[1] <= wrong["ci_high"])
    out_rows = [
        Row(
            "winomt",
            "corrected Acc",
            "own labels, Jeffreys draws",
            f"{name}, {n_label} labels",
            n_items,
            reps,
            "coverage",
            float(own[i] / reps),
            below=float(below[i] / reps),
            above=float(above[i] / reps),
        )
        for i, name in enumerate(READERS)
    ]
    out_rows.append(
        Row(
            "winomt",
            "corrected Acc",
            "another system's labels (refused now)",
            f"read badly, {n_label} labels",
            n_items,
            reps,
            "coverage",
            borrowed / reps,
            "reference",
        )
    )
    return out_rows


# ---------------------------------------------------------------- the optimal translator's sector B


OPTIMAL_REGIMES = {"moderate tails": (0.15, 0.5), "long tails (shares to 5%)": (0.05, 1.0)}
# B is 0 for most occupations and large for a few: the gamma interval of a weighted sum of rare events is Garwood's
# exact Poisson interval when the weights are equal, and conservative by construction (the "discrete" target).
_OPTIMAL_TARGET = {"gamma": "discrete", "studentized": "reference", "percentile": "reference"}
_OPTIMAL_METHOD = {"gamma": "Fay-Feuer gamma", "studentized": "studentized bootstrap", "percentile": "percentile bootstrap"}


def optimal(reps: int, seed: int = 0, interval: str = "gamma", regimes=None) -> list[Row]:
    """Coverage of sector B for 150 sampled occupations, moderate and long tails.

    A population of 20,000 occupations (reference shares, employment, a translator that says "she" with
    probability 0.1 + 0.3 f); the truth is the population's weighted mean B.
    """
    import pandas as pd

    from stats_mtbias.estimators.optimal import bias_b, dominance_weights, e_t
    from stats_mtbias.studies.optimal import sector_b

    rows = []
    for regime, (f_min, weight_sd) in (regimes or OPTIMAL_REGIMES).items():
        rng = np.random.default_rng(seed)
        n_pop = 20_000
        f = np.clip(rng.beta(2, 2, n_pop), f_min, 1 - f_min)
        w = rng.lognormal(4, weight_sd, n_pop)
        she = rng.random(n_pop) < 0.1 + 0.3 * f
        b = bias_b(f, e_t(f, she * 1.0, (~she) * 1.0))
        women, men = dominance_weights(f, w)
        truth = {"female": np.sum(women * b) / np.sum(women), "male": np.sum(men * b) / np.sum(men)}
        hits = {"female": 0, "male": 0}
        below, above = {"female": 0, "male": 0}, {"female": 0, "male": 0}  # each tail's misses
        for r in range(reps):
            idx = rng.choice(n_pop, 150)
            table = pd.DataFrame(
                {
                    "system": "s",
                    "language": "l",
                    "sector": "S",
                    "female_share": f[idx],
                    "weight": w[idx],
                    "b": b[idx],
                    "n_female": she[idx] * 1.0,
                    "n_male": (~she[idx]) * 1.0,
                    "n_other": 0.0,
                }
            )
            out = sector_b(table, n_boot=1000, rng=r, interval=interval).set_index("dominated")
            for d in hits:
                hits[d] += out.loc[d, "ci_low"] <= truth[d] <= out.loc[d, "ci_high"]
                below[d] += truth[d] < out.loc[d, "ci_low"]
                above[d] += truth[d] > out.loc[d, "ci_high"]
        rows += [
            Row(
                "optimal",
                f"sector B, {d}-dominated",
                _OPTIMAL_METHOD[interval],
                regime,
                150,
                reps,
                "coverage",
                hits[d] / reps,
                _OPTIMAL_TARGET[interval],
                below=float(below[d] / reps),
                above=float(above[d] / reps),
            )
            for d in hits
        ]
    return rows


def optimal_world(table, reps: int, seed: int = 0, interval: str = "gamma", n_boot: int = 1000) -> list[Row]:
    """Coverage of sector B in worlds resampled from the shipped occupations (each language's sectors, as they are).

    ``table`` is the study's occupation table (:func:`stats_mtbias.studies.optimal.occupation_table`); an evaluation
    draws each (language, sector, dominance) group's occupations with replacement, as many as it has, so the truth
    is the shipped sector B. One row per language: the smallest coverage over its sectors (and the median beside),
    each over the draws that leave the group an estimate.
    """
    import pandas as pd

    from stats_mtbias.studies.optimal import sector_b

    rng = np.random.default_rng(seed)
    keys = ["language", "sector", "dominated"]
    truth = sector_b(table, n_boot=10, rng=0).set_index(keys)["b"]
    codes = table.groupby(keys, sort=False).ngroup().to_numpy()
    members = [np.flatnonzero(codes == c) for c in range(codes.max() + 1)]
    hits, seen = pd.Series(0.0, index=truth.index), pd.Series(0.0, index=truth.index)
    for _ in range(reps):
        idx = np.concatenate([rng.choice(m, len(m)) for m in members])
        out = sector_b(table.iloc[idx].reset_index(drop=True), n_boot=n_boot, rng=rng, interval=interval).set_index(keys)
        out = out[np.isfinite(out["b"])]  # a draw without a usable occupation in the group has no estimate to cover
        t = truth.reindex(out.index)
        hits = hits.add(((out["ci_low"] <= t) & (t <= out["ci_high"])).astype(float), fill_value=0.0)
        seen = seen.add(pd.Series(1.0, index=out.index), fill_value=0.0)
    coverage = (hits / seen)[seen >= reps / 2]
    return _worst_sectors(coverage, table, reps, interval, "sector B (worst sector)")


def optimal_outputs_world(table, reps: int, seed: int = 0, interval: str = "gamma") -> list[Row]:
    """Coverage of sector B with the shipped occupations fixed and the translator's outputs random.

    The other model of the study (occupations are the BLS list, not a sample): each occupation is said "she"
    with the probability its language shows at similar shares (Jeffreys-smoothed rate per decile of f), and
    the truth is the expected sector B. One row per language: the smallest coverage over its sectors.
    """
    import pandas as pd

    from stats_mtbias.estimators.optimal import bias_b, e_t
    from stats_mtbias.studies.optimal import sector_b

    rng = np.random.default_rng(seed)
    keys = ["language", "sector", "dominated"]
    table = table[np.isfinite(table["b"])].reset_index(drop=True)
    f = table["female_share"].to_numpy(float)
    decided = (table["n_female"] + table["n_male"]).to_numpy(float)
    said_she = np.where(decided > 0, table["n_female"].to_numpy(float) / np.maximum(decided, 1), np.nan)
    decile = np.minimum((f * 10).astype(int), 9)
    frame = pd.DataFrame({"language": table["language"], "decile": decile, "she": said_she})
    rate = frame.groupby(["language", "decile"])["she"].transform(lambda s: (s.sum() + 0.5) / (s.count() + 1.0))
    p_she = rate.to_numpy(float)
    ones, zeros = np.ones(len(f)), np.zeros(len(f))
    b_she, b_he = bias_b(f, e_t(f, ones, zeros)), bias_b(f, e_t(f, zeros, ones))
    truth = sector_b(table.assign(b=p_she * b_she + (1 - p_she) * b_he), n_boot=10, rng=0).set_index(keys)["b"]
    hits = pd.Series(0.0, index=truth.index)
    for _ in range(reps):
        she = rng.random(len(f)) < p_she
        sim = table.assign(n_female=she * 1.0, n_male=(~she) * 1.0, n_other=0.0, b=np.where(she, b_she, b_he))
        out = sector_b(sim, n_boot=1000, rng=rng, interval=interval).set_index(keys)
        t = truth.reindex(out.index)
        hits = hits.add(((out["ci_low"] <= t) & (t <= out["ci_high"])).astype(float), fill_value=0.0)
    coverage = hits / reps
    return _worst_sectors(coverage, table, reps, interval, "sector B, outputs random (worst sector)")


def _worst_sectors(coverage, table, reps: int, interval: str, quantity: str) -> list[Row]:
    """One row per language: its worst sector's coverage, the median over its sectors in the regime."""
    rows = []
    for language, cov in coverage.groupby(level="language"):
        worst = cov.idxmin()
        rows.append(
            Row(
                "optimal",
                quantity,
                _OPTIMAL_METHOD[interval],
                f"{language}: {worst[1]}, {worst[2]}-dominated (median over {len(cov)}: {cov.median():.3f})",
                len(table[table["language"] == language]),
                reps,
                "coverage",
                float(cov.min()),
                _OPTIMAL_TARGET[interval],
            )
        )
    return rows

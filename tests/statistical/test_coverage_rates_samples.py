"""``smb.rates`` with ``sample=``: coverage of the female (and male) share's analytic and bootstrap intervals.

Items have their own propensity to be read female (Beta with mean ``p`` and intraclass correlation 0.3, the
samples of an item Bernoulli draws from it) and ``k`` samples each (1, 3, or 1–5 at random: unequal), a tenth of
the samples unknown (absent, by the one rule of :mod:`stats_mtbias.studies._samples`); the true share is ``p``.
Both tails are counted apart; ``p = 0.05`` checks the female share near 0 and the male share near 1.

Each chunk of simulated evaluations goes through the study's own path: the rows are read by
:func:`stats_mtbias.studies.rates.read_judgements` (a system per evaluation, the items shared) and the intervals
are :meth:`stats_mtbias.stats.metrics.MetricSet.intervals`, as :func:`~stats_mtbias.studies.rates.analyse` computes them.
The evaluations of a chunk draw their data apart but share the bootstrap's resampling weights; chunks of 25 keep
that correlation small.

Before the fix the percentile bootstrap covered 0.899 (Monte-Carlo SE 0.008; 1,500 evaluations, 9.1% missed
above) at 50 items of 3 samples and a 5% share, while the analytic interval covered 0.994: the bootstrap's upper
tail is short on a handful of events. Now the score interval stands in on a share of at most ``FEW_EVENTS``
effective events, as TGBI's boundary rule does.

Bands: coverage within 3 Monte-Carlo SEs of 0.95 (SE 0.0049 at 2,000 evaluations; the fast test's 1,000: 0.0069),
each tail within (1 ± 0.8) × 2.5% (:func:`tests.statistical._bands.tail_bands`). Where a share rests on a handful
of events (at most 10 expected) the interval is the conservative score one: there only the lower end of the
coverage band and the upper end of each tail's band apply.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from stats_mtbias.studies import rates
from tests.statistical._bands import coverage_band, tail_bands

LEVEL = 0.95
ICC = 0.3
UNKNOWN = 0.1
CHUNK = 25


def _chunk(n_items: int, k, p: float, rng) -> pd.DataFrame:
    """One row per sample of CHUNK evaluations (systems ``r0``…): ``system, item, sample, gender``."""
    total = 1 / ICC - 1
    prop = rng.beta(p * total, (1 - p) * total, size=(CHUNK, n_items))
    sizes = rng.integers(1, 6, size=(CHUNK, n_items)) if k == "unequal" else np.full((CHUNK, n_items), k)
    flat = sizes.ravel()
    system = np.repeat(np.repeat(np.arange(CHUNK), n_items), flat)
    item = np.repeat(np.tile(np.arange(n_items), CHUNK), flat)
    sample = np.concatenate([np.arange(s) for s in flat])
    female = rng.random(flat.sum()) < np.repeat(prop.ravel(), flat)
    gender = np.where(rng.random(flat.sum()) < UNKNOWN, "unknown", np.where(female, "female", "male"))
    return pd.DataFrame({"system": "r" + pd.Series(system).astype(str), "item": item, "sample": sample, "gender": gender})


def _misses(n_items: int, k, p: float, interval: str, reps: int, seed: int, n_boot: int = 500) -> dict[str, np.ndarray]:
    """Per metric (female, male): the evaluations' misses below and above the truth, ``(reps, 2)`` booleans."""
    rng = np.random.default_rng(seed)
    out = {"female": [], "male": []}
    for _ in range(reps // CHUNK):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            table = rates.read_judgements(
                _chunk(n_items, k, p, rng), outcome="gender", system="system", cluster="item", by=[], strata=None, sample="sample"
            )
        counts, _, _, strata, frequency = rates.design_arrays(table, [])
        _, low, high, _ = rates.metric_set(counts.shape[-1]).intervals(
            counts, strata, frequency, level=LEVEL, interval=interval, n_boot=n_boot, rng=rng, samples=True
        )
        for metric, truth in (("female", p), ("male", 1 - p)):
            m = rates.METRICS.index(metric)
            out[metric].append(np.stack([truth < low[:, 0, m], truth > high[:, 0, m]], axis=-1))
    return {metric: np.concatenate(parts) for metric, parts in out.items()}


def _check(misses: dict[str, np.ndarray], n_items: int, p: float, label: str) -> None:
    reps = len(misses["female"])
    cover_band = coverage_band(LEVEL, reps)
    below_band, above_band = tail_bands(LEVEL, reps)
    few = n_items * min(p, 1 - p) <= 10  # a handful of expected events: the conservative score interval
    for metric, m in misses.items():
        below, above = m.mean(axis=0)
        cover = 1 - below - above
        print(f"BAND {label} {metric}: coverage {cover:.4f} (below {below:.4f}, above {above:.4f}; {reps} reps)")
        assert cover >= cover_band.low, (label, metric, cover, below, above)
        assert below <= below_band.high and above <= above_band.high, (label, metric, below, above)
        if not few:
            assert cover <= cover_band.high, (label, metric, cover)
            assert below >= below_band.low and above >= above_band.low, (label, metric, below, above)


def test_the_chunk_is_read_by_the_rule():
    """The simulated rows go through the reader: an evaluation's female share is the mean of its items' means over
    their known samples (items without one left out), by hand."""
    frame = _chunk(40, "unequal", 0.3, np.random.default_rng(0))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        table = rates.read_judgements(
            frame, outcome="gender", system="system", cluster="item", by=[], strata=None, sample="sample"
        )
    counts, systems, _, strata, frequency = rates.design_arrays(table, [])
    estimate, *_ = rates.metric_set(counts.shape[-1]).intervals(
        counts, strata, frequency, level=LEVEL, interval="score", n_boot=1, rng=0, samples=True
    )
    known = frame[frame["gender"] != "unknown"]
    by_hand = (known["gender"] == "female").groupby([known["system"], known["item"]]).mean().groupby(level=0).mean()
    np.testing.assert_allclose(estimate[:, 0, 0], by_hand.reindex(systems).to_numpy(), rtol=0, atol=1e-12)


@pytest.mark.parametrize("interval", ["percentile", "score"])
def test_coverage_with_samples_at_50_items_and_a_5_percent_share(interval):
    """The issue's case, fast: 1,000 evaluations (MC SE of the coverage 0.007, of a tail 0.005): the bootstrap's upper
    tail missed 9.1% before the fix, three times the band's top of 4.5%."""
    _check(_misses(50, 3, 0.05, interval, reps=1000, seed=1, n_boot=300), 50, 0.05, f"rates samples 50×3 p=0.05 {interval}")


@pytest.mark.slow
@pytest.mark.parametrize("interval", ["percentile", "score"])
@pytest.mark.parametrize("k", [1, 3, "unequal"])
@pytest.mark.parametrize("n_items", [50, 400])
@pytest.mark.parametrize("p", [0.05, 0.5])
def test_coverage_with_samples(p, n_items, k, interval):
    """2,000 evaluations a cell (MC SE of a coverage near 0.95: 0.0049, below a third of the 3-SE band's half-width
    plus the tails' 2-point slack)."""
    seed = int(1000 * p) + n_items + (7 if k == "unequal" else k) + (interval == "score")
    _check(_misses(n_items, k, p, interval, reps=2000, seed=seed), n_items, p, f"rates samples {n_items}×{k} p={p} {interval}")

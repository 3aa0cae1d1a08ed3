"""The defaults every study, the CLI and the report share, defined once (arviz's rcParams idea, without mutability).

Change a default here and the Options classes of :mod:`stats_mtbias.options` follow, and with them the
command line's options and help texts; the API signatures name these constants and a contract test checks them.
"""

from __future__ import annotations

LEVEL = 0.95  # confidence level of every interval
N_BOOT = 10_000  # bootstrap resamples
N_RESAMPLES = 10_000  # permutations and Monte-Carlo draws (not bootstrap resamples)
SEED = 0  # the seed of every random number when the caller gives none (the CLI's --seed)
CORRECTION = "holm"  # multiplicity adjustment of p_adjusted
ALPHA = 0.05  # level of a test (significance flags, power)
POWER = 0.8  # target power
ALTERNATIVES = ("two-sided", "less", "greater")  # one vocabulary for the direction of every test
MIN_BOOT = 100  # fewer resamples cannot place a 95% interval's 2.5% and 97.5% percentiles
# Resamples expected beyond each end of a resampling interval, at any level: MIN_BOOT's (1 − 0.95) / 2 × 100 = 2.5.
MIN_TAIL = 2.5

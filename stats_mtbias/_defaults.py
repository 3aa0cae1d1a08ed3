"""The defaults every study, the CLI and the report share, defined once (arviz's rcParams idea, without mutability).

Change a default here and the Options classes of :mod:`stats_mtbias.options` follow, and with them the
command line's options and help texts; the API signatures name these constants and a contract test checks them.
"""

from __future__ import annotations

LEVEL = 0.95  # confidence level of every interval
N_BOOT = 10_000  # bootstrap resamples
N_PERMUTATIONS = 10_000  # permutations of a permutation (approximate randomisation) test
N_DRAWS = 10_000  # Monte-Carlo draws (a corrected accuracy's interval, an exact test's random tables)
SEED = 0  # the seed of every random number when the caller gives none (the CLI's --seed)
CORRECTION = "holm"  # multiplicity adjustment of p_adjusted
ALPHA = 0.05  # level of a test (significance flags, power)
POWER = 0.8  # target power
ALTERNATIVES = ("two-sided", "less", "greater")  # one vocabulary for the direction of every test
MIN_BOOT = 100  # fewer resamples cannot place a 95% interval's 2.5% and 97.5% percentiles
# Resamples expected beyond each end of a resampling interval, at any level: MIN_BOOT's (1 − 0.95) / 2 × 100 = 2.5.
MIN_TAIL = 2.5

# One vocabulary per idea: a name means one method everywhere, and each study accepts the subset it implements
# (its Options field's choices; tests/test_vocabulary.py holds it).
INTERVALS = {
    "score": "score intervals (Wilson's on the effective sample size for a share, the score interval on g for TGBI) "
    "and MOVER for their differences and sums; a cluster-robust normal interval where no score interval exists",
    "wilson": "Wilson's score interval of a share",
    "jeffreys": "Jeffreys' interval of a share (the Beta(1/2, 1/2) posterior's equal tails)",
    "clopper-pearson": "Clopper and Pearson's exact interval of a share",
    "gamma": "Fay and Feuer's gamma interval of a weighted sum of rare events",
    "percentile": "the bootstrap percentile interval",
    "bca": "the bootstrap bias-corrected and accelerated (BCa) interval",
    "studentized": "the bootstrap-t interval",
}
BOOTSTRAP_INTERVALS = ("percentile", "bca", "studentized")  # the names above that resample
TESTS = {
    "interval": "the p-value of the interval's own method (the test it inverts: bootstrap, score/MOVER)",
    "permutation": "approximate randomisation: the systems' outputs swapped per item",
    "exact": "the exact sign test (McNemar's exact test on the discordant items)",
    "ttest": "the paired t-test",
    "bootstrap": "the paired bootstrap test",
    "wald": "the linearised (influence-function) Wald test",
}
CORRECTIONS = ("holm", "bh", "none")  # multiplicity adjustments of p_adjusted: Holm, Benjamini–Hochberg, none
FAMILIES = ("metric", "all")  # the comparisons adjusted together: one metric's system pairs per language × subset, or all
OLD_CI = ("analytic", "bootstrap")  # the retired ci= of tgbi and rates: interval="score", or a bootstrap interval
POWER_FORMULAS = ("connor", "exact")  # the paired design's power: Connor's normal approximation, or the exact power

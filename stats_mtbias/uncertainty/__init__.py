"""Intervals: the bootstrap engine and analytic intervals."""

from stats_mtbias.uncertainty.analytic import (
    clopper_pearson_interval,
    jeffreys_interval,
    p_s_interval,
    paired_difference_analytic,
    tgbi_index_interval,
    wilson_interval,
)
from stats_mtbias.uncertainty.bootstrap import (
    BootstrapResult,
    ConfidenceInterval,
    bootstrap_pvalue,
    cluster_bootstrap,
    paired_permutation,
    resample_weights,
    weighted_sums,
)

__all__ = [
    "BootstrapResult",
    "ConfidenceInterval",
    "bootstrap_pvalue",
    "clopper_pearson_interval",
    "cluster_bootstrap",
    "jeffreys_interval",
    "p_s_interval",
    "paired_difference_analytic",
    "paired_permutation",
    "resample_weights",
    "tgbi_index_interval",
    "weighted_sums",
    "wilson_interval",
]

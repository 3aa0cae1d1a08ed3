"""Planning an evaluation: sample size, power and minimum detectable effects (closed forms and pilot simulation)."""

from stats_mtbias.planning.closed import (
    design_effect,
    mde_from_interval,
    normal_mde,
    normal_power,
    normal_sample_size,
    paired_mde,
    paired_power,
    paired_power_exact,
    paired_sample_size,
    paired_sample_size_exact,
    rate_half_width,
    rate_power,
    rate_sample_size,
    rate_sample_size_test,
)
from stats_mtbias.planning.designs import DESIGNS
from stats_mtbias.planning.result import PLAN_COLUMNS, PowerResult

__all__ = [
    "DESIGNS",
    "PLAN_COLUMNS",
    "PowerResult",
    "design_effect",
    "mde_from_interval",
    "normal_mde",
    "normal_power",
    "normal_sample_size",
    "paired_mde",
    "paired_power",
    "paired_power_exact",
    "paired_sample_size",
    "paired_sample_size_exact",
    "rate_half_width",
    "rate_power",
    "rate_sample_size",
    "rate_sample_size_test",
]

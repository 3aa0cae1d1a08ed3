"""The report's figures: they live in :mod:`stats_mtbias.plotting` (a bottom module any layer may draw with)."""

from stats_mtbias.plotting import *  # noqa: F403
from stats_mtbias.plotting import COLOURS, DPI, forest, forest_figure, heatmap, power_curve, scatter_reference, to_png  # noqa: F401

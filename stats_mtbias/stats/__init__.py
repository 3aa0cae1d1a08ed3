"""The statistics floor: metrics declared once, and the engine that gives each its estimate, intervals and comparisons.

- :mod:`~stats_mtbias.stats.metrics` — the :class:`~stats_mtbias.stats.metrics.Metric` protocol (a metric's cells,
  statistic, linearisation, few-events rule and kind, declared once) and the engine (count cube → statistic →
  analytic and bootstrap intervals → paired differences) that ``rates``, Prates and the optimal translator share.
- :mod:`~stats_mtbias.stats.resampling` — the p-value of a resampling distribution.
- :mod:`~stats_mtbias.stats.proportions` — design effects of shares estimated from clusters of outputs.
"""

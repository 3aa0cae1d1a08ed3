"""The project's own data files (manifests, lexicons), shipped as ``stats_mtbias._data``."""

"""Readers of the public datasets and of users' own files; the download registry."""

from stats_mtbias.datasets.registry import DataStore, manifest, open_store

__all__ = ["DataStore", "manifest", "open_store"]

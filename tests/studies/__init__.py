"""Tests of the studies through their public functions, by hand and by simulation."""

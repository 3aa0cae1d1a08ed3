"""The example shipped in data/examples/ (docs/own-benchmark.md) is what the seeded generator makes, byte for byte."""

from __future__ import annotations

import pytest

from tests import own_benchmark_example as example


@pytest.mark.parametrize("name", sorted(example.FILES))
def test_shipped_example_is_the_generators(name, tmp_path):
    shipped = example.FOLDER / name
    assert shipped.is_file(), f"{shipped} is not shipped: python -m tests.own_benchmark_example writes it"
    (made,) = [p for p in example.write(tmp_path) if p.name == name]
    assert shipped.read_bytes() == made.read_bytes(), f"{name} differs: python -m tests.own_benchmark_example rewrites it"


def test_example_is_small_and_deterministic():
    outputs, labels = example.outputs(), example.labels()
    assert len(outputs) == 3 * 3 * 36 and len(labels) == 160
    assert outputs.equals(example.outputs()) and not outputs.equals(example.outputs(seed=1))
    # Every lexicon entry appears in every set of every system (the cluster TGBI resamples).
    assert (outputs.groupby(["system", "set"])["item"].nunique() == 36).all()

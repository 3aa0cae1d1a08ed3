"""Without the public datasets and without a network the suite skips what needs them, with the reason, and passes
(issue 49, item 5): a test that takes ``data_dir``, a fixture that does, a test marked ``needs_data`` (the API's or
the CLI's defaults read the shipped data) and a docstring example that runs a study on it; the rest still runs."""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REASON = "the public datasets are not here and could not be downloaded: "
NEED = {
    "tests.cli.test_deprecated::test_prates_reference_file_is_reference": "data_dir",
    "tests.statistical.test_sampled_prates::test_optimal_one_sample_is_todays": "a fixture taking data_dir",
    "tests.statistical.test_sampled_prates::test_prates_one_sample_is_todays": "needs_data",
    "tests.cli.test_deprecated::test_power_pilot_old_spellings": "needs_data, through the command line",
    "stats_mtbias.api::stats_mtbias.api": "a doctest on the shipped data",
}
RUN = {
    "tests.cli.test_deprecated::test_power_old_spellings",
    "tests.statistical.test_sampled_prates::test_sign_test_size_with_samples",
    "stats_mtbias.api::stats_mtbias.api.rates",
}


def _offline(tmp_path: Path) -> dict[str, str]:
    """No data directory, none beside the checkout, an empty cache, and every download refused at once."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("MTBIAS_", "PYTEST_")) and k.lower() not in ("http_proxy", "https_proxy", "all_proxy", "no_proxy")
    }
    refused = "http://127.0.0.1:9"
    env.update(
        MTBIAS_NO_SHARED_DATA="1",
        MTBIAS_CACHE=str(tmp_path / "cache"),
        MTBIAS_MIRROR=refused + "/",
        http_proxy=refused,
        https_proxy=refused,
        HTTP_PROXY=refused,
        HTTPS_PROXY=refused,
        PYTHONPATH=os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep),
        OMP_NUM_THREADS="1",
        OPENBLAS_NUM_THREADS="1",
    )
    return env


def test_without_the_datasets_what_needs_them_skips_with_the_reason_and_the_run_passes(tmp_path):
    report = tmp_path / "report.xml"
    selection = [
        "tests/cli/test_deprecated.py::test_prates_reference_file_is_reference",
        "tests/cli/test_deprecated.py::test_power_old_spellings",
        "tests/cli/test_deprecated.py::test_power_pilot_old_spellings",
        "tests/statistical/test_sampled_prates.py::test_prates_one_sample_is_todays",
        "tests/statistical/test_sampled_prates.py::test_sign_test_size_with_samples",
        "tests/statistical/test_sampled_prates.py::test_optimal_one_sample_is_todays",
        "stats_mtbias/api.py",
    ]
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-p",
        "no:cacheprovider",
        "-p",
        "no:xdist",
        "-p",
        "no:randomly",
        f"--junitxml={report}",
        "-o",
        "junit_family=xunit2",
        *selection,
    ]
    done = subprocess.run(command, cwd=ROOT, env=_offline(tmp_path), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    outcomes = {}
    for case in ET.parse(report).getroot().iter("testcase"):
        name = f"{case.get('classname')}::{case.get('name')}"
        skipped = case.find("skipped")
        assert case.find("failure") is None and case.find("error") is None, name
        outcomes[name] = "passed" if skipped is None else skipped.get("message", "")
    for name, how in NEED.items():
        assert name in outcomes, (name, sorted(outcomes))
        assert REASON in outcomes[name], (name, how, outcomes[name])
        assert "127.0.0.1:9" in outcomes[name]  # the download that failed, named
    for name in RUN:
        assert outcomes.get(name) == "passed", (name, outcomes.get(name))
    assert f"{len(NEED)} tests need the public datasets and did not run" in done.stdout
    written = [p.relative_to(tmp_path).as_posix() for p in (tmp_path / "cache").rglob("*") if p.is_file()]
    assert written == []

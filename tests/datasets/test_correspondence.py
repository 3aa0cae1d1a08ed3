"""Issue 49, item 2: a file whose outputs slipped against their sources is caught before it is scored."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from stats_mtbias.datasets.correspondence import MIN_LINES, check_lines, line_correspondence
from stats_mtbias.errors import DataQualityWarning

SHIFTS = (-5, -4, -3, -2, -1, 1, 2, 3, 4, 5)


def _shipped(data_dir):
    """Every shipped WinoMT translation file as (name, sources, translations), in file order."""
    files = sorted((data_dir / "winomt" / "translations").glob("*/*.txt"))
    found = []
    for path in files:
        lines = path.read_text("utf-8").splitlines()
        pairs = [line.partition(" ||| ") for line in lines]
        if all(p[2] == "None" for p in pairs):
            continue  # SYSTRAN's en-langs.txt translates nothing (every line "None")
        found.append((f"{path.parent.name}/{path.name}", [p[0] for p in pairs], [p[2] for p in pairs]))
    return found


def _slipped(outputs: list[str], k: int) -> list[str]:
    """The output column moved down (k > 0) or up (k < 0) by |k| lines, as a paste off by k does: blanks fill in."""
    return [""] * k + outputs[: len(outputs) - k] if k > 0 else outputs[-k:] + [""] * -k


def test_every_shipped_file_is_in_order_and_every_shift_and_shuffle_of_it_is_caught(data_dir):
    shipped = _shipped(data_dir)
    assert len(shipped) >= 45
    rng = np.random.default_rng(49)
    missed = []
    for name, sources, outputs in shipped:
        as_given = line_correspondence(sources, outputs)
        assert as_given.verdict == "aligned", (name, as_given.r)
        for k in SHIFTS:
            found = line_correspondence(sources, _slipped(outputs, k))
            if (found.verdict, found.shift) != ("shifted", k):
                missed.append((name, k, found.verdict, found.shift))
        for _ in range(3):
            shuffled = [outputs[i] for i in rng.permutation(len(outputs))]
            found = line_correspondence(sources, shuffled)
            if found.verdict != "unrelated":
                missed.append((name, "shuffled", found.verdict, found.shift))
    assert missed == []


def test_small_files_and_the_warning():
    rng = np.random.default_rng(0)
    words = rng.integers(3, 25, size=200)
    sources = [" ".join(["word"] * int(w)) for w in words]
    outputs = [" ".join(["palabra"] * int(w + rng.integers(-2, 3))) for w in words]
    assert line_correspondence(sources, outputs).verdict == "aligned"
    assert line_correspondence(sources[: MIN_LINES - 1], outputs[: MIN_LINES - 1]).verdict == "too_short"
    for n in (0, 1, 2, 3, 6):  # shorter than the shifts looked for
        assert line_correspondence(sources[:n], outputs[:n]).verdict == "too_short"
    # Templated outputs of nearly one length say nothing about order (no flag either way).
    templated = [f"He is tired {i % 10}." for i in range(200)]
    assert line_correspondence(sources, templated).verdict == "uninformative"
    assert line_correspondence(sources, templated[::-1]).ok
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        found = check_lines(sources, ["", *outputs[:-1]], label="mine/es", path="en-es.txt")
        check_lines(sources, outputs, label="fine/es", path="ok.txt")
    assert (found.verdict, found.shift) == ("shifted", 1)
    assert [w.category for w in caught] == [DataQualityWarning]
    message = str(caught[0].message)
    assert message.startswith("mine/es (en-es.txt): outputs look shifted by +1 line(s)") and "further down" in message
    # Empty and 'None' outputs are left out of the correlation, not read as zero-length sentences.
    holes = [o if i % 4 else "None" for i, o in enumerate(outputs)]
    assert line_correspondence(sources, holes).verdict == "aligned"
    with pytest.raises(ValueError, match="pair them line by line"):
        line_correspondence(sources, outputs[:-1])


def test_every_shipped_tgbi_set_is_in_order_and_its_shifts_and_shuffles_are_caught(data_dir):
    from stats_mtbias.datasets import tgbi
    from stats_mtbias.datasets.registry import open_store

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataQualityWarning)  # Papago's repeated block, said elsewhere
        outputs = tgbi.read_outputs(store=open_store(data_dir))
    rng = np.random.default_rng(7)
    missed = []
    for (system, subset), part in outputs.groupby(["system", "subset"]):
        part = part.sort_values("line")
        sources, translations = part["source"].tolist(), part["translation"].fillna("").tolist()
        assert line_correspondence(sources, translations).verdict == "aligned", (system, subset)
        for k in SHIFTS:
            found = line_correspondence(sources, _slipped(translations, k))
            if (found.verdict, found.shift) != ("shifted", k):
                missed.append((system, subset, k, found.verdict, found.shift))
        shuffled = [translations[i] for i in rng.permutation(len(translations))]
        if line_correspondence(sources, shuffled).verdict != "unrelated":
            missed.append((system, subset, "shuffled"))
    assert missed == []


def test_a_users_tgbi_outputs_that_slipped_are_flagged_in_the_table(data_dir, tmp_path):
    import pandas as pd

    import stats_mtbias as smb
    from stats_mtbias.datasets import tgbi
    from stats_mtbias.datasets.registry import open_store

    shipped = tgbi.read_outputs(["google"], open_store(data_dir))
    formal = shipped[shipped["subset"] == "formal"].sort_values("line")
    outputs = formal["translation"].fillna("").tolist()
    path = tmp_path / "mine.csv"
    pd.DataFrame({"item": formal["line"], "set": "formal", "translation": [*outputs[2:], "", ""]}).to_csv(path, index=False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = smb.tgbi([], translations={"mine": path}, data_dir=data_dir, n_boot=100, rng=0)
    said = [str(w.message) for w in caught if "shifted" in str(w.message)]
    assert len(said) == 1 and said[0].startswith(f"mine/formal ({path}): outputs look shifted by -2 line(s)")
    flags = result.table.set_index(["subset", "metric"])["flag"]
    assert flags["formal", "p_s"] == "outputs look shifted by -2 line(s) against their sources: check the file"
    assert flags["TGBI", "p_s"] == "formal: " + flags["formal", "p_s"] and flags["polite", "p_s"] == ""
    # The same outputs in order: no flag column, no warning.
    pd.DataFrame({"item": formal["line"], "set": "formal", "translation": outputs}).to_csv(path, index=False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = smb.tgbi([], translations={"mine": path}, data_dir=data_dir, n_boot=100, rng=0)
    assert "flag" not in result.table and not [w for w in caught if "shifted" in str(w.message)]


def test_an_own_benchmark_with_sources_is_checked(tmp_path):
    import pandas as pd

    import stats_mtbias as smb

    rng = np.random.default_rng(3)
    words = rng.integers(2, 14, size=120)
    sources = ["o " * int(w) + "é médico." for w in words]
    outputs = [("she " if i % 3 else "he ") + "is " * int(w) + "a doctor." for i, w in enumerate(words)]
    frame = pd.DataFrame({"system": "x", "set": "jobs", "item": range(120), "source": sources, "translation": outputs})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ok = smb.tgbi(outputs=frame, n_boot=100, rng=0)
        slipped = smb.tgbi(outputs=frame.assign(translation=["", *outputs[:-1]]), n_boot=100, rng=0)
    assert "flag" not in ok.table
    assert set(slipped.table.loc[slipped.table["subset"] == "jobs", "flag"]) == {
        "outputs look shifted by +1 line(s) against their sources: check the file"
    }
    assert sum("x/jobs" in str(w.message) and "shifted by +1" in str(w.message) for w in caught) == 1

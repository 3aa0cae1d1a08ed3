"""Issue 34, item 1, through the CLI: the unreachable-significance warning is a data-quality warning (--strict: 65)."""

from __future__ import annotations

from tests.api.test_unreachable_significance import DIFFERENT, _outputs

SETS = ("informal", "formal", "impolite", "polite", "negative", "positive", "occupation")


def test_cli_strict_exits_65_on_the_warning(cli, tmp_path, data_dir):
    outputs = _outputs(DIFFERENT, sets=SETS)  # --translations takes TGBI's set names
    argv = ["tgbi", "--data-dir", data_dir, "--systems", ""]
    for system, part in outputs.groupby("system"):
        path = tmp_path / f"{system}.csv"
        lines = part["item"].str[1:].astype(int) + 1  # --translations: items are lines of TGBI's set files
        part.drop(columns="system").assign(item=lines).to_csv(path, index=False)
        argv += ["--translations", path, "--system", system]
    argv += ["--compare", "--test", "permutation", "--format", "json"]
    code, _, err = cli(*argv, "--n-permutations", "100", "--family", "all", "--strict")
    assert code == 65 and "out of reach" in err and "n_permutations ≥ 5,000" in err
    code, _, err = cli(*argv, "--n-permutations", "5000", "--family", "all", "--strict")
    assert code == 0, err

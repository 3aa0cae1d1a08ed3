"""Draw the WinoMT validation samples of the readers added in issue 36 (pt, nl, cs, pl).

The items are drawn before any reader of these languages exists, with a fixed seed, so
that neither the reader's author nor its output chooses them. Per language two systems,
60 items each (disjoint), stratified by gold gender (25 female, 25 male, 10 neutral) and,
within female and male, half pro- and half anti-stereotypical.

Usage: python tools/validation_sample.py DATA_DIR > data/validation/sample.csv
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

SYSTEMS = {"pt": ("google", "llm-a"), "nl": ("google", "bing"), "cs": ("llm-a", "llm-b"), "pl": ("llm-a", "llm-b")}
PER_SYSTEM = {"female": 25, "male": 25, "neutral": 10}


def main(data_dir: str) -> None:
    agg = Path(data_dir) / "winomt" / "data" / "aggregates"
    en = pd.read_csv(agg / "en.txt", sep="\t", header=None, names=["gold", "index", "sentence", "entity"], quoting=3, dtype=str)
    en["item"] = range(len(en))
    pro = set(pd.read_csv(agg / "en_pro.txt", sep="\t", header=None, quoting=3, dtype=str)[2])
    en["stereotype"] = np.where(en["sentence"].isin(pro), "pro", np.where(en["gold"] == "neutral", "none", "anti"))
    rng = np.random.default_rng(36)  # issue 36
    rows = []
    for language, systems in SYSTEMS.items():
        taken: set[int] = set()
        for system in systems:
            for gold, k in PER_SYSTEM.items():
                pool = en[(en["gold"] == gold) & ~en["item"].isin(taken)]
                if gold == "neutral":
                    pick = rng.choice(pool["item"].to_numpy(), k, replace=False)
                else:
                    pick = np.concatenate(
                        [
                            rng.choice(pool.loc[pool["stereotype"] == s, "item"].to_numpy(), n, replace=False)
                            for s, n in (("pro", (k + 1) // 2), ("anti", k // 2))
                        ]
                    )
                taken.update(int(i) for i in pick)
                rows += [(language, system, int(i)) for i in pick]
    out = pd.DataFrame(rows, columns=["language", "system", "item"]).sort_values(["language", "system", "item"])
    out.to_csv(sys.stdout, index=False)


if __name__ == "__main__":
    main(sys.argv[1])

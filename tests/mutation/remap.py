"""Carry the recorded equivalents over when a mutated function changes.

mutmut numbers a function's mutants in order, so editing a function renumbers the mutants after the
edit, and ``tests/mutation/equivalent/*.toml`` would then name the wrong ones. Keep a copy of the old
``mutants/`` files of the changed modules, regenerate (any ``mutmut run``), then::

    python tests/mutation/remap.py OLD_MUTANTS mutants tests/mutation/equivalent          # what would change
    python tests/mutation/remap.py OLD_MUTANTS mutants tests/mutation/equivalent --write  # rename in place

Each old name maps to the new mutant that makes the same diff to the function (identical diffs within
one function are paired in order). An entry whose diff no longer exists (its line was edited) is listed
as unmapped: re-check that mutant by hand.
"""

import ast
import difflib
import re
import sys
from collections import defaultdict
from pathlib import Path

import tomllib

PAT = re.compile(r"^(x.+)__mutmut_(\d+|orig)$")


def functions(path):
    src = path.read_text()
    lines = src.splitlines()
    tree = ast.parse(src)
    out = {}
    for node in [n for top in tree.body for n in ([top] + (top.body if isinstance(top, ast.ClassDef) else []))]:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            m = PAT.match(node.name)
            if m:
                out[(m.group(1), m.group(2))] = lines[node.lineno : node.end_lineno]
    return out


def _number(name):
    return int(name.rsplit("_", 1)[1])


def signatures(path, module):
    fns = functions(path)
    sig = {}
    for (fn, num), body in fns.items():
        if num == "orig":
            continue
        orig = fns.get((fn, "orig"))
        if orig is None:
            continue
        lines = difflib.unified_diff(orig, body, lineterm="", n=0)
        diff = tuple(line for line in lines if line[:1] in "+-" and line[:3] not in ("+++", "---"))
        sig[f"{module}.{fn}__mutmut_{num}"] = (fn, diff)
    return sig


def main(argv: list[str]) -> None:
    old_root, new_root, eq_dir = map(Path, argv[:3])
    write = "--write" in argv
    mapping = {}
    for old in old_root.glob("**/*.py"):
        rel = old.relative_to(old_root)
        module = str(rel)[:-3].replace("/", ".")
        new = new_root / rel
        so, sn = signatures(old, module), signatures(new, module)
        index, oindex = defaultdict(list), defaultdict(list)
        for name, s in sn.items():
            index[s].append(name)
        for name, s in so.items():
            oindex[s].append(name)
        for s, olds in oindex.items():
            news = sorted(index.get(s, []), key=_number)
            olds = sorted(olds, key=_number)
            for i, name in enumerate(olds):  # identical diffs in one function: paired in order
                mapping[name] = [news[i]] if len(news) == len(olds) else news
    unmapped, changed = [], {}
    for f in eq_dir.glob("*.toml"):
        entries = tomllib.loads(f.read_text())["equivalent"]
        for e in entries:
            n = e["name"]
            if n in mapping:
                c = mapping[n]
                if len(c) != 1:
                    unmapped.append((n, len(c)))
                elif c[0] != n:
                    changed[n] = c[0]
    print(f"renamed {len(changed)}, unmapped {len(unmapped)}")
    for n, k in unmapped:
        print("  unmapped", n, k)
    if write:
        for f in eq_dir.glob("*.toml"):
            text = f.read_text()
            # two passes via placeholders so that a swap of names cannot collide
            for i, o in enumerate(changed):
                text = text.replace(f'"{o}"', f'"@@{i}@@"')
            for i, n in enumerate(changed.values()):
                text = text.replace(f'"@@{i}@@"', f'"{n}"')
            f.write_text(text)


if __name__ == "__main__":
    main(sys.argv[1:])

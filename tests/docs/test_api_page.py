"""The documentation's front door and reference: the README and docs/api.md against the package itself.

Every public name (``smb.__all__``) and every public attribute and method of the result objects the public
functions return is named in docs/api.md; the README is short, starts with the two commands, and every relative
link of the README and the docs resolves to a file of the repository. No statistics, no data: fast.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

import stats_mtbias as smb
from stats_mtbias.planning import PowerResult
from stats_mtbias.studies.models import ModelResult

ROOT = Path(__file__).resolve().parents[2]
API_PAGE = ROOT / "docs" / "api.md"
README = ROOT / "README.md"
PAGES = sorted([README, *(ROOT / "docs").rglob("*.md")])
# The result objects the public functions return: every study and smb.agreement, smb.power, smb.model.
RESULTS = (smb.StudyResult, PowerResult, ModelResult)
# A Markdown link's target: [text](target); an image's too.
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
OUTSIDE = ("../shared", "METHODS.md", "/work/")


def public_members(cls: type) -> list[str]:
    """The public methods, properties and dataclass fields of a result class."""
    names = {name for name in dir(cls) if not name.startswith("_")}
    names |= {f.name for f in dataclasses.fields(cls) if not f.name.startswith("_")}
    return sorted(names)


def test_every_public_name_is_in_the_api_page():
    text = API_PAGE.read_text(encoding="utf-8")
    missing = [name for name in smb.__all__ if f"smb.{name}" not in text]
    assert not missing, f"docs/api.md does not name smb.{', smb.'.join(missing)}"


@pytest.mark.parametrize("cls", RESULTS, ids=lambda c: c.__name__)
def test_every_public_member_of_the_results_is_in_the_api_page(cls):
    text = API_PAGE.read_text(encoding="utf-8")
    members = public_members(cls)
    assert members, f"{cls.__name__} has no public members: the walk is broken"
    missing = [name for name in members if f"{cls.__name__}.{name}" not in text]
    assert not missing, f"docs/api.md does not name {', '.join(f'{cls.__name__}.{m}' for m in missing)}"


def test_the_walk_sees_the_known_members():
    # Guards the walk itself: a method, a property and a dataclass field of each kind are found.
    assert {"compare", "wide", "frame", "systems", "table", "provenance"} <= set(public_members(smb.StudyResult))
    assert {"to_dict", "curve", "n", "question"} <= set(public_members(PowerResult))
    assert {"summary", "diagnostics", "idata"} <= set(public_members(ModelResult))


def test_the_readme_is_a_short_front_door():
    raw = README.read_bytes()
    assert len(raw) <= 12_000, f"README.md is {len(raw):,} bytes; the reference belongs in docs/"
    lines = raw.decode("utf-8").splitlines()
    assert lines[0].startswith("# "), "the README starts with its title"
    start = next(i for i, line in enumerate(lines) if line.startswith("```"))
    assert start <= 6, f"the two commands' code block starts at line {start + 1}, not on the first screen"
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("```"))
    commands = [line.split("#")[0].strip() for line in lines[start + 1 : end]]
    assert commands == ["make report", "make test"], commands


def test_the_readme_quick_start_uses_only_smb():
    text = README.read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", text, re.S)
    assert code, "the README has no Python quick start"
    body = code.group(1)
    imports = [line for line in body.splitlines() if re.match(r"\s*(import|from)\s", line)]
    assert imports == ["import stats_mtbias as smb"], imports
    assert len(body.strip().splitlines()) <= 12


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_links_resolve_inside_the_repository(page):
    text = page.read_text(encoding="utf-8")
    assert not [s for s in OUTSIDE if s in text], f"{page.name} points outside the repository"
    broken = []
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue  # a URL or an anchor of the page itself
        path = (page.parent / target.split("#")[0]).resolve()
        if not path.is_relative_to(ROOT) or not path.exists():
            broken.append(target)
    assert not broken, f"{page.relative_to(ROOT)}: links that do not resolve in the repository: {broken}"

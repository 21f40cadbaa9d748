"""CHANGELOG.md keeps the form of Keep a Changelog 1.1.0 (https://keepachangelog.com/en/1.1.0/).

A release is `## [Unreleased]` or `## [VERSION] - YYYY-MM-DD`, newest first; under it only
the sections Keep a Changelog names (and `### Upgrading`, first, for what a user must do);
every entry is one line starting with `- `, at most 200 characters, that says what changed
for a user; the reasoning sits behind a link to the page that explains it, and every
relative link leads to a file that exists and, with `#anchor`, to a heading of that page
(the anchor MkDocs gives it). The checks are functions of the text, so the second half of
this file shows each one catching the fault it is for.
"""

from __future__ import annotations

import re
from datetime import date
from functools import cache
from pathlib import Path

import markdown
import pytest

from tests.conftest import REPO

CHANGELOG = REPO / "CHANGELOG.md"

# Keep a Changelog's sections, in its order; Upgrading (what a user must do) comes first
SECTIONS = ("Upgrading", "Added", "Changed", "Deprecated", "Removed", "Fixed", "Security")
RELEASE = re.compile(r"## \[Unreleased\]|## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})")
MAX_ENTRY = 200
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
# a test file's path, or an issue's number (#12, GH-12): the why lives in the docs and commits
NOT_IN_AN_ENTRY = re.compile(r"test_\w+\.py|\btests/\w+/test_|(?<![\w/])#\d+\b|\bGH-\d+\b", re.I)


def form_problems(text: str) -> list[str]:
    """Every way `text` departs from the changelog's form: `line N: what`, in order."""
    problems: list[str] = []
    lines = text.splitlines()
    if not lines or lines[0] != "# Changelog":
        problems.append("line 1: the file starts with '# Changelog'")
    release: str | None = None
    sections: list[str] = []
    section: str | None = None
    dates: list[tuple[int, date]] = []
    seen: set[str] = set()
    for n, line in enumerate(lines, 1):
        if line.startswith("## "):
            release, sections, section = line, [], None
            m = RELEASE.fullmatch(line)
            if not m:
                problems.append(f"line {n}: a release heading is '## [Unreleased]' or "
                                f"'## [1.2.3] - YYYY-MM-DD', not {line!r}")
                continue
            name = m.group(1) or "Unreleased"
            if name in seen:
                problems.append(f"line {n}: a second release {name}")
            seen.add(name)
            if m.group(2):
                try:
                    dates.append((n, date.fromisoformat(m.group(2))))
                except ValueError:
                    problems.append(f"line {n}: {m.group(2)!r} is not a date")
            elif dates:
                problems.append(f"line {n}: [Unreleased] comes before every release")
        elif line.startswith("### "):
            name = line[4:]
            if release is None:
                problems.append(f"line {n}: section {name!r} outside a release")
            elif name not in SECTIONS:
                problems.append(f"line {n}: section {name!r} is none of {', '.join(SECTIONS)}")
            elif name in sections:
                problems.append(f"line {n}: a second {name!r} in {release!r}")
            elif sections and SECTIONS.index(name) < SECTIONS.index(sections[-1]):
                problems.append(f"line {n}: {name!r} comes before {sections[-1]!r} "
                                f"(order: {', '.join(SECTIONS)})")
            sections.append(name)
            section = name
        elif line.startswith("#") and n > 1:
            problems.append(f"line {n}: only '## ' releases and '### ' sections are headings")
        elif release is not None and line.strip():
            if section is None:
                problems.append(f"line {n}: text under a release outside its sections")
            elif not line.startswith("- "):
                problems.append(f"line {n}: an entry is one line starting with '- ' "
                                f"(no continuation, table or paragraph): {line[:60]!r}")
            else:
                if len(line) > MAX_ENTRY:
                    problems.append(f"line {n}: {len(line)} characters, over {MAX_ENTRY}")
                if bad := NOT_IN_AN_ENTRY.search(line):
                    problems.append(f"line {n}: {bad.group(0)!r}: no test files or issue "
                                    f"numbers in an entry (link the docs instead)")
        elif release is None and line.startswith("- "):
            problems.append(f"line {n}: an entry before the first release")
    for (n, later), (_, earlier) in zip(dates[1:], dates, strict=False):
        if later > earlier:
            problems.append(f"line {n}: releases go newest first")
    return problems


@cache
def anchors(page: Path) -> frozenset[str]:
    """The ids MkDocs gives the headings of `page` (its toc extension's slugs)."""
    md = markdown.Markdown(extensions=["toc", "attr_list", "tables", "pymdownx.superfences"])
    md.convert(page.read_text(encoding="utf-8"))
    ids: set[str] = set()
    todo = list(md.toc_tokens)
    while todo:
        token = todo.pop()
        ids.add(token["id"])
        todo.extend(token["children"])
    return frozenset(ids)


def link_problems(text: str, root: Path) -> list[str]:
    """Each relative link of `text` (read from `root`) whose file or heading is not there."""
    problems = []
    for n, line in enumerate(text.splitlines(), 1):
        for target in LINK.findall(line):
            if re.match(r"[a-z][a-z0-9+.-]*:", target, re.I):  # https:, mailto:
                continue
            path, _, anchor = target.partition("#")
            page = (root / path) if path else root / "CHANGELOG.md"
            if not page.is_file():
                problems.append(f"line {n}: {target}: no file {path}")
            elif anchor and page.suffix == ".md" and anchor not in anchors(page):
                problems.append(f"line {n}: {target}: no heading of {path or 'this file'} "
                                f"has the anchor #{anchor}")
    return problems


def test_the_changelog_keeps_its_form():
    assert form_problems(CHANGELOG.read_text(encoding="utf-8")) == []


def test_every_link_of_the_changelog_resolves():
    text = CHANGELOG.read_text(encoding="utf-8")
    assert LINK.search(text), "the changelog links the pages that explain its changes"
    assert link_problems(text, REPO) == []


def test_the_release_of_pyproject_has_its_section():
    version = re.search(r'^version = "([^"]+)"', (REPO / "pyproject.toml").read_text(), re.M)
    assert version, "pyproject.toml names the version"
    headings = re.findall(r"^## \[([^\]]+)\]", CHANGELOG.read_text(encoding="utf-8"), re.M)
    assert version.group(1) in headings


GOOD = """# Changelog

Intro.

## [Unreleased]

### Upgrading

- Run `tool upgrade`.

### Added

- A thing ([why](site/guide.md#verdicts)).

## [0.2.0] - 2026-12-05

### Fixed

- A fix.

## [0.1.0] - 2026-12-03

### Added

- The start.
"""


def test_a_changelog_in_form_passes():
    assert form_problems(GOOD) == []
    assert link_problems(GOOD, REPO) == []


@pytest.mark.parametrize(("old", "new", "found"), [
    ("## [Unreleased]", "## Unreleased", "a release heading is"),
    ("## [0.2.0] - 2026-12-05", "## 0.2.0 — 2026-12-05", "a release heading is"),
    ("## [0.2.0] - 2026-12-05", "## [0.2.0] - 2026-13-05", "is not a date"),
    ("## [0.2.0] - 2026-12-05", "## [0.2.0] - 2026-12-01", "newest first"),
    ("## [0.1.0] - 2026-12-03", "## [Unreleased]", "comes before every release"),
    ("## [0.1.0]", "## [0.2.0]", "a second release 0.2.0"),
    ("### Fixed", "### Benchmarks", "is none of"),
    ("### Upgrading", "### Fixed", "comes before"),
    ("- A fix.", "- A fix,\n  carried on a second line.", "one line starting with '- '"),
    ("- A fix.", "| a | table |", "one line starting with '- '"),
    ("- A fix.", "- " + "x" * 199, "over 200"),
    ("- A fix.", "- A fix (`tests/runs/test_resume.py`).", "no test files"),
    ("- A fix.", "- A fix (#123).", "issue numbers"),
    ("### Added\n\n- A thing", "#### Added\n\n- A thing", "only '## ' releases"),
])
def test_each_departure_from_the_form_is_named(old, new, found):
    assert old in GOOD
    problems = form_problems(GOOD.replace(old, new, 1))
    assert any(found in p for p in problems), problems


@pytest.mark.parametrize(("target", "found"), [
    ("site/nowhere.md", "no file"),
    ("site/guide.md#no-such-heading", "no heading"),
])
def test_a_link_that_leads_nowhere_is_named(target, found):
    problems = link_problems(GOOD.replace("site/guide.md#verdicts", target), REPO)
    assert len(problems) == 1 and found in problems[0], problems

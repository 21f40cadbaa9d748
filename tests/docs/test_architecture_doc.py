"""site/architecture.md says what the source holds: its count of modules and packages under
src/litrec, and its diagram's list of commands."""

from __future__ import annotations

import re

from litrec.commands import COMMANDS
from tests.conftest import REPO

PAGE = REPO / "site" / "architecture.md"
SRC = REPO / "src" / "litrec"
NUMBERS = {w: i for i, w in enumerate("zero one two three four five six seven eight nine ten "
                                      "eleven twelve thirteen fourteen fifteen".split())}


def test_the_count_of_modules_and_packages_is_the_sources():
    said = re.search(r"`src/litrec` holds (\w+) modules and (\w+) packages", PAGE.read_text(
        encoding="utf-8"))
    assert said, "site/architecture.md no longer says how many modules and packages there are"
    modules = sorted(p.name for p in SRC.glob("*.py"))
    packages = sorted(p.parent.name for p in SRC.glob("*/__init__.py"))
    assert (NUMBERS[said.group(1)], NUMBERS[said.group(2)]) == (len(modules), len(packages)), (
        modules, packages)


def test_the_diagram_lists_every_command_and_no_other():
    page = PAGE.read_text(encoding="utf-8")
    diagram = page.split("```text", 1)[1].split("```", 1)[0]
    lines = diagram.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.lstrip().startswith("litrec.commands"))
    words = []
    for ln in lines[start:start + 3]:
        words += re.findall(r"[a-z]+", ln[len("  litrec.commands        "):])
    assert words == list(COMMANDS), words

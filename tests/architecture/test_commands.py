"""The command layer is thin: each command calls one function below it, named in
site/architecture.md, and what the commands share (the records' errors, the typed errors)
is printed in one place, `commands.main`."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

from litrec.commands import COMMANDS

ROOT = Path(__file__).resolve().parents[2]


def _table() -> dict[str, list[str]]:
    """The command layer's table of site/architecture.md: command words -> functions named."""
    page = (ROOT / "site" / "architecture.md").read_text(encoding="utf-8")
    section = page.split("## The command layer", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 2 and cells[0].startswith("`"):
            rows[cells[0]] = re.findall(r"`([a-z_]+(?:\.[a-z_]+)+)`", cells[1])
    return rows


def test_every_command_names_the_functions_it_calls_and_they_exist():
    rows = _table()
    named = " ".join(rows)
    assert [c for c in COMMANDS if f"`{c}" not in named] == []
    for command, functions in rows.items():
        assert functions, command
        for dotted in functions:
            module, _, name = dotted.rpartition(".")
            assert callable(getattr(importlib.import_module(f"litrec.{module}"), name)), dotted


def test_the_records_errors_are_printed_once_for_every_command(project, cli):
    """An invalid record: each command that acts on the records prints every error and one
    line naming the command, from `commands.main` (status, graph, export json, review, diff)."""
    bad = project / "records" / "notes" / "NOTE-999.yaml"
    bad.write_text("id: NOTE-999\nkind: note\ntitle: A note\nbogus: 1\n", encoding="utf-8")
    for args in (["status"], ["graph"], ["export", "json"], ["review", "NOTE-999"],
                 ["diff", "--profile", "paper", "--profile", "quick"]):
        code, out, err = cli(*args)
        assert code == 1 and out == "", args
        lines = err.splitlines()
        assert len(lines) == 2, (args, err)
        assert lines[-1] == (f"litrec {args[0]}: the records have 1 error; fix them first "
                             "(litrec validate)"), args
        assert lines[0].startswith("records/notes/NOTE-999.yaml:4:1: bogus: unknown field"), err
        assert "Traceback" not in err

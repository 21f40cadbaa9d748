"""Docs and code stay together: the CLI reference is generated and current."""

from __future__ import annotations

from litrec.commands.reference import render
from tests.conftest import REPO


def test_cli_reference_is_current():
    page = (REPO / "site" / "cli.md").read_text(encoding="utf-8")
    assert page == render(), "site/cli.md is out of date: run `python -m litrec.commands.reference > site/cli.md`"


def test_every_command_is_in_the_readme_or_usage_docs():
    from litrec.commands import COMMANDS  # what `litrec --help` lists, in its order

    docs = (REPO / "README.md").read_text(encoding="utf-8")
    for extra in ("usage.md", "scale-out.md"):
        path = REPO / "site" / extra
        if path.exists():
            docs += path.read_text(encoding="utf-8")
    for name in COMMANDS:
        assert f"litrec {name}" in docs, name

"""site/usage.md shows real output: every example is rerun and compared."""

from __future__ import annotations

from litrec.commands import COMMANDS

from .usage_doc import PAGE, render


def test_usage_examples_show_their_real_output():
    page = PAGE.read_text(encoding="utf-8")
    assert render(page) == page, (
        "site/usage.md is out of date: run `python -m tests.ecosystem.usage_doc --write` and review the diff")


def test_usage_page_covers_the_commands():
    page = PAGE.read_text(encoding="utf-8")
    for cmd in ("litrec new", "litrec import bibtex", "litrec export bibtex", "litrec export json",
                "litrec graph", "litrec schema"):
        assert f"$ {cmd}" in page, cmd
    assert {"new", "import", "export", "graph"} <= set(COMMANDS)

"""The CLI reference page (site/cli.md), generated from the argparse parsers.

    python -m litrec.commands.reference > site/cli.md

A test regenerates it and fails when the committed page is out of date.
"""

from __future__ import annotations

import argparse
import os

from litrec.commands import build_parser


def _subparsers(parser: argparse.ArgumentParser):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            seen = set()
            for name, sub in action.choices.items():
                if id(sub) not in seen:
                    seen.add(id(sub))
                    yield name, sub


def _walk(parser, prefix):
    yield prefix, parser
    for name, sub in _subparsers(parser):
        yield from _walk(sub, f"{prefix} {name}")


def render() -> str:
    """The page: every command's --help, in order."""
    os.environ["COLUMNS"] = "100"
    parser = build_parser()
    out = ["# Command-line reference", "",
           "Generated from `litrec --help` by `python -m litrec.commands.reference`; a test keeps it current.",
           "Exit status: 0 success; 1 invalid records, a damaged result, or what a command's "
           "description below names (`run`: a claim not reproduced, unless "
           "`--allow-not-reproduced`; `validate --strict`: a warning); 2 usage error. The "
           "README has a table, command by command.", ""]
    for name, sub in _walk(parser, "litrec"):
        out += [f"## `{name}`", "", "```text", sub.format_help().rstrip(), "```", ""]
    return "\n".join(out)


if __name__ == "__main__":
    print(render(), end="")

"""The command layer: `litrec COMMAND ...`, one module per command.

Each command module declares its options (`add_parser`) and does its work
(`run(args) -> exit code`): it calls ONE library function below (as DVC's `CmdRun`
calls `repo.reproduce`), prints what it returns and picks the exit code. What the
commands share is here, once: `main` turns the typed errors of the layers below
(`litrec.util.errors`) into messages and exit codes, the records' errors
(`InvalidRecords`) included, listed as `litrec validate` lists them. Nothing below
this package imports it.

Exit codes: 0 success, 1 invalid input, a damaged result or what the command's
description names (`run`: a claim not reproduced), 2 usage error; the README
has them command by command.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys

from litrec import __version__
from litrec.util.errors import InvalidRecords, LitrecError, UsageError
from litrec.util.safetext import safe_streams

EXIT_USAGE = 2  # as litrec.commands.common, which this module does not import at start

# Commands that SIGTERM stops as Ctrl-C does, from their start (`litrec.runs.interrupt`): the
# run stops its workers and keeps every result whole, then exits 143 (Ctrl-C: 130).
STOPPED_BY_SIGNALS = ("run",)

# Command name -> its module under litrec.commands, in the order `litrec --help` lists them.
COMMANDS = {"validate": "validate", "schema": "schema", "run": "run", "status": "status",
            "site": "site", "new": "new", "export": "export", "import": "imports",
            "graph": "graph", "review": "review", "diff": "diff", "sign": "sign",
            "upgrade": "upgrade"}


def command_module(name: str):
    """The module of command `name`, imported on first use."""
    return importlib.import_module(f"litrec.commands.{COMMANDS[name]}")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line: every command's options (with `only`, that command's alone).

    `main` builds the parser of the one command it runs, so a command never pays
    for importing the others (a no-op `litrec run` needs neither the site nor BibTeX).
    """
    parser = argparse.ArgumentParser(
        prog="litrec",
        description="Literature-linked analysis records: validate records, rerun the analyses "
        "behind their claims, and build the site.",
    )
    parser.add_argument("--version", action="version", version=f"litrec {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in [only] if only else COMMANDS:
        command_module(name).add_parser(sub)
    return parser


def _command_named(argv: list[str]) -> str | None:
    """The command `argv` names when it starts with one (no option before it); else None."""
    return argv[0] if argv and argv[0] in COMMANDS else None


def main(argv: list[str] | None = None) -> int:
    """Parse, run one command, and turn what went wrong into a message and an exit code.

    Everything printed passes through `safe_text`: text from the records (a title, a
    reason, a value quoted in a message) never reaches the terminal as control characters.
    """
    from litrec.runs import interrupt

    argv = sys.argv[1:] if argv is None else list(argv)
    stops = _command_named(argv) in STOPPED_BY_SIGNALS
    with safe_streams():
        try:
            with interrupt.handling() if stops else contextlib.nullcontext():
                try:
                    return _main(argv)
                except Exception:  # a library that wrapped the signal's exception in its own
                    interrupt.check()  # (pydantic-core, building a validator): the signal it was
                    raise
        except KeyboardInterrupt as exc:  # Ctrl-C (130) or, during a run, SIGTERM (143); also
            code = getattr(exc, "exit_code", 130)  # while the command line is parsed
            print(f"litrec: {'terminated' if code == 143 else 'interrupted'}", file=sys.stderr)
            return code


def _main(argv: list[str]) -> int:
    parser = build_parser(_command_named(argv))
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
    try:
        with _caches(getattr(args, "cache", True)):
            return command_module(args.command).run(args)
    except UsageError as exc:
        print(f"litrec: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except InvalidRecords as exc:  # every error, as `litrec validate` prints it, then one line
        for d in exc.diagnostics:
            print(d.format(), file=sys.stderr)
        print(f"litrec {args.command}: {exc}", file=sys.stderr)
        return exc.exit_code
    except LitrecError as exc:
        print(f"litrec {args.command}: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except BrokenPipeError:  # the reader went away (`litrec export json | head`): not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


@contextlib.contextmanager
def _caches(on: bool):
    """`--no-cache`: litrec's caches off while the command runs (in this process and the
    processes it starts), as `LITREC_NO_CACHE=1` turns them off."""
    if on:
        yield
        return
    from litrec.cache.slots import OFF_VARIABLE, turn_off

    was = os.environ.get(OFF_VARIABLE)
    turn_off()
    try:
        yield
    finally:
        if was is None:
            os.environ.pop(OFF_VARIABLE, None)
        else:
            os.environ[OFF_VARIABLE] = was

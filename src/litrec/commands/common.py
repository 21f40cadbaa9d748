"""What the commands share: common options, the console, output files. (Loading a valid
project is `litrec.records.load.load_valid_project`; its errors are printed by `main`.)"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from litrec.util.confine import need_dir  # noqa: F401 (the commands' check of a folder they are given)
from litrec.util.console import console  # noqa: F401 (every command prints through it)
from litrec.util.errors import UsageError

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


def records_args(p: argparse.ArgumentParser) -> None:
    """--records and --analysis: where the project's records and analyses are."""
    p.add_argument("--records", type=Path, default=Path("records"), metavar="DIR",
                   help="the records folder (default: records)")
    p.add_argument("--analysis", type=Path, default=None, metavar="DIR",
                   help="the analysis folder with registry.yaml (default: beside the records folder)")
    p.add_argument("--no-cache", dest="cache", action="store_false",
                   help="neither read nor write litrec's caches (.litrec-cache/ at the project "
                   "root): everything is worked out again, as with LITREC_NO_CACHE=1")


def results_arg(p: argparse.ArgumentParser) -> None:
    """--results: the results folder."""
    p.add_argument("--results", type=Path, default=Path("results"), metavar="DIR",
                   help="results folder (default: results)")


def profile_name(text: str) -> str:
    """An argparse type: a profile name (lower-case letters, digits and '_')."""
    if not re.fullmatch(r"[a-z0-9][a-z0-9_]*", text):
        raise argparse.ArgumentTypeError(
            f"invalid profile name {text!r}: lower-case letters, digits and '_' (e.g. paper, quick)")
    return text


def profile_arg(p: argparse.ArgumentParser, help_text: str) -> None:
    """--profile; None when not given, and the command works it out from the project's scales
    (`litrec.verdicts.status.first_scale` to run, `headline_profile` to judge), never a name of one paper."""
    p.add_argument("--profile", type=profile_name, default=None, metavar="PROFILE", help=help_text)


def format_arg(p: argparse.ArgumentParser) -> None:
    """--format text|json."""
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="output format (default: text)")


def positive_int(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, found '{text}'")
    return n


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.resolve().relative_to(Path(folder).resolve())
    except (ValueError, OSError):
        return False
    return True


def check_out(path: Path, records: Path | None, folder: bool = False) -> None:
    """UsageError unless --out can be written: the right kind of path, a parent, not in records/."""
    what = "folder" if folder else "file"
    if records is not None and _inside(path, records):
        raise UsageError(f"--out '{path}' is inside the records folder '{records}'; "
                         f"write the {what} elsewhere")
    if folder:
        if path.exists() and not path.is_dir():
            raise UsageError(f"--out '{path}' is a file; give a folder")
        for parent in path.parents:
            if parent.exists() and not parent.is_dir():
                raise UsageError(f"--out '{path}': '{parent}' is a file, not a folder")
        return
    if path.is_dir():
        raise UsageError(f"--out '{path}' is a folder; give a file name, e.g. '{path / 'out'}'")
    if os.path.lexists(path) and not litrec_wrote(path):
        raise UsageError(f"--out '{path}' is a file litrec did not write (it does not begin as "
                         "litrec's exports do), and litrec replaces only its own: give another "
                         "name, or move the file away first")
    parent = path.parent
    if not parent.exists():
        raise UsageError(f"--out '{path}': the folder '{parent}' does not exist; create it first")
    if not parent.is_dir():
        raise UsageError(f"--out '{path}': '{parent}' is a file, not a folder")


# What `litrec_wrote` reads of a file: its first bytes, and of a larger JSON file its last ones too
# (never the whole of a large file: a JSON document of hundreds of MiB is recognised as fast).
OWN_BYTES = 1 << 16
# The start of `export json`'s document (its first key), and the start and the end of `graph
# --format json`'s (nodes, each beginning with its id; edges, each ending with its claim)
_GRAPH_DOC = re.compile(rb'\A\s*\{\s*"format"\s*:\s*"litrec-graph"')
_LINKS_HEAD = re.compile(rb'\A\s*\{\s*"nodes"\s*:\s*\[\s*(\]|\{\s*"id"\s*:)')
_LINKS_TAIL = re.compile(rb'("edges"\s*:\s*\[\s*\]|"claim"\s*:\s*(null|"(\\.|[^"\\])*")\s*\}\s*\])\s*\}\s*\Z')


def litrec_wrote(path: Path) -> bool:
    """Whether the file at `path` is one a litrec export wrote (so `--out` may replace it): it
    begins with an export's comment line, or it is `export json`'s document (`"format":
    "litrec-graph"`) or `graph --format json`'s (nodes and edges, nothing else), or it is
    empty. A link, a folder or an unreadable file is not. Decided from the first `OWN_BYTES`
    (a JSON file no longer is parsed whole), and for a larger JSON file from how it begins and
    ends as litrec writes them: a large file is never read whole."""
    from litrec.bibtex.write import BIBTEX_HEADER
    from litrec.export.document import GRAPH_HEADERS
    from litrec.export.tex import TEX_MARK

    # how each text `--out` writes begins, a comment saying litrec wrote it; JSON by its shape
    own = tuple(h.encode("utf-8") for h in (TEX_MARK, BIBTEX_HEADER.splitlines()[0],
                                            *GRAPH_HEADERS.values()))
    if os.path.islink(path) or not os.path.isfile(path):
        return False
    try:
        with open(path, "rb") as f:
            head = f.read(OWN_BYTES + 1)
            if not head or head.startswith(own):  # an empty file: nothing to lose
                return True
            if not head.lstrip().startswith(b"{"):
                return False
            if len(head) <= OWN_BYTES:  # the whole file: its document, parsed
                return _own_json(head)
            f.seek(-OWN_BYTES, os.SEEK_END)
            tail = f.read(OWN_BYTES)
    except (OSError, ValueError):
        return False
    return bool(_GRAPH_DOC.match(head) or (_LINKS_HEAD.match(head) and _LINKS_TAIL.search(tail)))


def _own_json(raw: bytes) -> bool:
    import json

    try:
        doc = json.loads(raw.decode("utf-8"))
    except ValueError:
        return False
    return isinstance(doc, dict) and (doc.get("format") == "litrec-graph"
                                      or (set(doc) == {"nodes", "edges"} and isinstance(doc["nodes"], list)))


def write_out(path: Path, text: str, records: Path | None) -> None:
    """Write --out in one rename (a reader sees the old file or the new one), every failure (a
    folder, no parent, no permission) a UsageError naming it."""
    from litrec.util.atomic import replace_file

    check_out(path, records)
    try:
        replace_file(path, text.encode("utf-8"))
    except OSError as exc:
        raise UsageError(f"--out '{path}': cannot write it ({exc.strerror or exc})") from None


def emit(text: str, out: Path | None, what: str, records: Path | None = None) -> None:
    """Write `text` to --out (saying what was written) or to standard output."""
    if out is None:
        sys.stdout.write(text)
    else:
        write_out(out, text, records)
        print(f"wrote {out}: {what}", file=sys.stderr)


@contextmanager
def stdout_to_stderr(active: bool = True) -> Iterator[None]:
    """While inside (when `active`), whatever anything writes to standard output, file
    descriptor 1 (an analysis, a C library, a worker process started meanwhile), goes to
    standard error, so that `--format json` prints only JSON on standard output afterwards."""
    if not active:
        yield
        return
    sys.stdout.flush()
    try:
        saved = os.dup(1)
        os.dup2(2, 1)
    except OSError:  # no descriptor 1 to move: nothing can reach it either
        yield
        return
    try:
        yield
    finally:
        try:
            sys.stdout.flush()  # what Python buffered meanwhile goes to standard error too
        except (OSError, ValueError):
            pass
        os.dup2(saved, 1)
        os.close(saved)


def other_cpu_note(command: str, claims: list[str], how: str) -> str:
    """The note naming the claims whose results another CPU (or other cores) computed
    (`--any-machine`), as `status` and `run` print it; `how` says what became of them."""
    return (f"litrec {command}: note: {len(claims)} claim{'s' * (len(claims) != 1)} rest on results "
            f"computed on another CPU or with other usable cores{how}: " + ", ".join(claims))

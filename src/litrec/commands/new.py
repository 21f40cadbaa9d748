"""`litrec new KIND [ID]`: write a new record's skeleton into its kind's folder."""

from __future__ import annotations

import difflib
import json
import sys
from pathlib import Path

from litrec.commands.common import format_arg, need_dir
from litrec.errors import UsageError
from litrec.kinds import KIND, KINDS
from litrec.scaffold import (
    choose_id,
    display,
    existing_ids,
    next_id,
    record_path,
    skeleton,
    write_new,
)


def add_parser(sub) -> None:
    """Declare the command and its options."""
    p = sub.add_parser("new", help="write a new record's skeleton into its kind's folder",
                       description="Write a skeleton record that passes `litrec validate`. Without an "
                       "ID, numbered kinds take the next free number and a work takes its id from "
                       "--title. Exit 1 when the id exists.")
    p.add_argument("kind", metavar="KIND",
                   help="literature, note, theory, decision, work or anthology")
    p.add_argument("id", nargs="?", metavar="ID", help="the record id (default: the next free one)")
    p.add_argument("--title", default=None, metavar="T", help="the record's title")
    p.add_argument("--records", type=Path, default=Path("records"), metavar="DIR",
                   help="the records folder (default: records)")
    format_arg(p)


def run(args) -> int:
    """Write the skeleton; exit 1 when the id exists."""
    if args.kind not in KINDS:
        close = difflib.get_close_matches(args.kind, KINDS, n=1)
        hint = f"did you mean '{close[0]}'? " if close else ""
        raise UsageError(f"unknown kind '{args.kind}'; {hint}kinds: {', '.join(KINDS)}")
    records = args.records
    need_dir(records, "records")
    title = " ".join(args.title.split()) if args.title else None
    ids = existing_ids(records)
    try:
        rid = choose_id(args.kind, args.id, title, ids)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    path = record_path(records, args.kind, rid)
    if rid in ids or path.exists():
        where = display(ids.get(rid, path))
        hint = (f"; the next free {args.kind} id is {next_id(args.kind, ids)}"
                if KIND[args.kind].prefix else "")
        print(f"litrec new: {rid} already exists: {where}{hint}", file=sys.stderr)
        return 1
    text = skeleton(args.kind, rid, title, path, records)
    try:
        write_new(path, text)
    except FileExistsError:  # created since we looked
        print(f"litrec new: {rid} already exists: {display(path)}", file=sys.stderr)
        return 1
    if args.format == "json":
        print(json.dumps({"id": rid, "kind": args.kind, "path": display(path)}, indent=2))
    else:
        print(f"created {display(path)}")
    return 0

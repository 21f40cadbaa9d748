"""`litrec import bibtex FILE`: a literature record per entry of a .bib file."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from litrec.bibtex.importing import import_file
from litrec.commands.common import format_arg
from litrec.records.kinds import ID_RE, KIND
from litrec.records.newrecord import display
from litrec.util.errors import UsageError


def add_parser(sub) -> None:
    """Declare the command and its options."""
    p = sub.add_parser("import", help="create literature records from a BibTeX file",
                       description="Create literature records from BibTeX entries.")
    what = p.add_subparsers(dest="import_format", metavar="FORMAT")
    q = what.add_parser("bibtex", help="a literature record per entry of a .bib file",
                        description="Create a literature record per entry, its id from the entry's "
                        "arXiv number, else its DOI, else its citation key (REF-KEY); --id sets it "
                        "for one entry. The fields no record field holds are named. Every entry "
                        "that cannot be converted is reported with its line; exit 1 if any.")
    q.add_argument("file", metavar="FILE", help="the .bib file ('-' for standard input)")
    q.add_argument("--id", action="append", type=_id_option, default=[], metavar="KEY=ID",
                   dest="ids", help="the record id of the entry with citation key KEY "
                   "(e.g. bishop2006pattern=REF-bishop-prml); may be given once per entry")
    q.add_argument("--force", action="store_true",
                   help="update the citation fields of records that exist (the rest is kept)")
    q.add_argument("--dry-run", action="store_true", help="report what would be written; write nothing")
    q.add_argument("--records", type=Path, default=Path("records"), metavar="DIR",
                   help="the records folder (default: records)")
    format_arg(q)


def _id_option(text: str) -> tuple[str, str]:
    """An argparse type: KEY=ID, ID a literature id."""
    key, sep, rid = text.rpartition("=")
    if not sep or not key.strip() or not rid.strip():
        raise argparse.ArgumentTypeError(f"--id {text!r}: write KEY=ID, e.g. "
                                         "bishop2006pattern=REF-bishop-prml")
    if not ID_RE["literature"].match(rid.strip()):
        raise argparse.ArgumentTypeError(f"--id {text!r}: '{rid}' is not a literature id; give "
                                         f"{KIND['literature'].example}")
    return key.strip(), rid.strip()


def _ids(pairs: list[tuple[str, str]]) -> dict[str, str]:
    out: dict[str, str] = {}
    for key, rid in pairs:
        if out.get(key, rid) != rid:
            raise UsageError(f"--id gives the key '{key}' two ids ({out[key]}, {rid}); give one")
        out[key] = rid
    return out


def run(args) -> int:
    """Import every entry (`litrec.bibtex.importing.import_file`); exit 1 when any entry could not
    be, or when there were none."""
    if args.import_format != "bibtex":
        raise UsageError("import needs a format: 'litrec import bibtex FILE'")
    found = import_file(str(args.file), args.records, args.force, args.dry_run, ids=_ids(args.ids))
    source, shown, done, failed = found.source, found.shown, found.done, found.failed
    if source.note:
        print(f"litrec import: {shown} {source.note}", file=sys.stderr)
    if args.format == "json":
        print(json.dumps({
            "file": shown,
            "encoding": source.encoding,
            "records": [{"action": o.action, "id": o.id, "path": display(o.path), "line": o.line,
                         "key": o.key, "dropped": o.dropped} for o in done],
            "failed": [{"line": f.line, "key": f.key, "message": f.message} for f in failed],
        }, indent=2, ensure_ascii=False))
    else:
        for o in done:
            key = f" ({o.key})" if o.key else ""
            print(f"{o.action} {display(o.path)} from {shown}:{o.line}{key}")
            if o.dropped:
                print(f"  dropped (no record field holds them): {', '.join(o.dropped)}")
        for f in failed:
            key = f"{f.key}: " if f.key else ""
            print(f"{shown}:{f.line}: {key}{f.message}", file=sys.stderr)
        total = len(done) + len(failed)
        if total == 0:
            print(f"litrec import: no BibTeX entries in {shown}", file=sys.stderr)
        else:
            counts: dict[str, int] = {}
            for o in done:
                counts[o.action] = counts.get(o.action, 0) + 1
            parts = [", ".join(f"{n} {a}" for a, n in counts.items())] if counts else []
            parts += [f"{len(failed)} not imported"] if failed else []
            print(f"{total} entries: {'; '.join(parts)}", file=sys.stderr)
    return 1 if failed or not (done or failed) else 0

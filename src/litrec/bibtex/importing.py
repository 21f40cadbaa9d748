"""BibTeX into the records: create a literature record per entry, or update one with --force.

An existing record is left alone unless `force`, which updates its citation
fields in place and keeps the rest of the file (claims, links, prose, comments).
"""

from __future__ import annotations

import datetime as dt
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from litrec.bibtex.citation import CITATION_FIELDS
from litrec.bibtex.entry import check_record
from litrec.bibtex.read import Failure, read_bibtex
from litrec.records.newrecord import display, existing_ids, record_path, schema_comment, write_new, write_replace
from litrec.util.confine import Refused, project_root, read_file
from litrec.util.errors import Unconvertible, UsageError
from litrec.util.formatting import excerpt
from litrec.util.yamlsafe import YamlProblem, load_bytes


def record_text(data: dict, path: Path, records_dir: Path) -> str:
    """A new record file: the schema comment, then the record as YAML."""
    return schema_comment(path, "literature", records_dir) + _dump(data)


class _Dumper(yaml.SafeDumper):
    """Block lists indented under their key, as the hand-written records have them."""

    def increase_indent(self, flow=False, indentless=False):
        return super().increase_indent(flow, False)


def _dump(data: dict) -> str:
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)


def updated_text(old: str, data: dict, path: Path, records_dir: Path) -> str:
    """`old` with its citation fields set from `data`; every other line kept as written. A
    `bibtex_title` the entry does not give goes: it belongs to the title it protected."""
    loaded = load_bytes(old.encode("utf-8"))
    spans = {k.value: (k.start_mark.index, _line_end(old, _end(v))) for k, v in loaded.root.value}
    updates = {k: data[k] for k in CITATION_FIELDS if k in data and data[k] != loaded.data.get(k)}
    if "bibtex_title" not in data and "bibtex_title" in spans:
        updates["bibtex_title"] = None  # removed below
    out, pos = [], 0
    for key in sorted((k for k in updates if k in spans), key=lambda k: spans[k][0]):
        start, end = spans[key]
        out += [old[pos:start], "" if updates[key] is None else _dump({key: updates[key]})]
        pos = end
    text = "".join(out) + old[pos:]
    missing = {k: v for k, v in updates.items() if k not in spans}
    if missing:  # new fields go after `kind:` (or at the end)
        root = load_bytes(text.encode("utf-8")).root
        kind_end = [_line_end(text, _end(v)) for k, v in root.value if k.value == "kind"]
        at = kind_end[0] if kind_end else len(text)
        text = text[:at] + _dump(missing) + text[at:]
    if not text.startswith("# yaml-language-server:"):
        text = schema_comment(path, "literature", records_dir) + text
    return text


def _end(node) -> int:
    """Where a value's own text ends (a block collection's end mark lies past the comments after it)."""
    block = isinstance(node, (yaml.MappingNode, yaml.SequenceNode)) and node.value and not node.flow_style
    if not block:
        return node.end_mark.index
    last = node.value[-1]
    return _end(last[1] if isinstance(node, yaml.MappingNode) else last)


def _line_end(text: str, at: int) -> int:
    if at > 0 and text[at - 1] == "\n":
        return at
    nl = text.find("\n", at)
    return len(text) if nl < 0 else nl + 1


def _check_text(text: str) -> None:
    """Raise Unconvertible unless `text` is a valid literature record file."""
    try:
        data = load_bytes(text.encode("utf-8")).data
    except YamlProblem as p:
        raise Unconvertible(f"the updated file would not parse ({p.line}:{p.col}: {p.message})") from None
    if data.get("kind") != "literature":
        raise Unconvertible(f"the existing record is a {excerpt(repr(data.get('kind')), 60)} record, "
                           "not literature")
    check_record(data)


@dataclass
class Written:
    """One record written (or that would be, in a dry run) from an entry."""

    action: str  # created, updated (or "would create", "would update" in a dry run)
    id: str
    path: Path
    line: int
    key: str
    dropped: list[str] = field(default_factory=list)  # the entry's fields no record field holds


def import_bibtex(text: str, records_dir: Path, force: bool = False, dry_run: bool = False,
                  filed: dt.date | None = None, ids: dict[str, str] | None = None
                  ) -> tuple[list[Written], list[Failure]]:
    """Write a literature record per convertible entry; return what was done and what failed.

    `ids` gives the record id of an entry by its citation key; a key the text lacks is a
    UsageError, raised before anything is written.
    """
    read = read_bibtex(text, filed, ids)
    unknown = [k for k in (ids or {}) if k not in read.keys]
    if unknown:
        known = ", ".join(sorted(k for k in read.keys if k)[:10]) or "none"
        raise UsageError(f"--id {unknown[0]}=...: no entry has the key '{unknown[0]}' "
                         f"(keys: {known})")
    failed = list(read.failed)
    done: list[Written] = []
    existing = existing_ids(records_dir)  # record id -> its file
    for conv in read.converted:
        rid = conv.data["id"]
        path = existing.get(rid) or record_path(records_dir, "literature", rid)
        try:
            if rid in existing and not force:
                other = ("; if it is another paper, give this one its own id: "
                         f"--id {shlex.quote(conv.key)}=REF-..." if rid.startswith("REF-") else "")
                raise Unconvertible(f"{rid} already exists ({display(path)}); pass --force to update "
                                    f"its citation fields (the rest of the record is kept){other}")
            if rid in existing:
                try:
                    old = read_file(path, project_root(records_dir)).decode("utf-8")
                except (Refused, UnicodeDecodeError) as exc:
                    why = exc.message if isinstance(exc, Refused) else "it is not UTF-8"
                    raise Unconvertible(f"cannot update {display(path)}: {why}") from None
                try:
                    new = updated_text(old, conv.data, path, records_dir)
                except YamlProblem as p:
                    raise Unconvertible(f"cannot update {display(path)}: it does not parse "
                                        f"({p.line}:{p.col}: {p.message}); fix it first") from None
                _check_text(new)
                action = "updated" if new != old else "unchanged"
                if not dry_run and new != old:
                    write_replace(path, new)
            else:
                new = record_text(conv.data, path, records_dir)
                _check_text(new)
                action = "created"
                if not dry_run:
                    write_new(path, new)
        except (Unconvertible, OSError) as exc:
            msg = str(exc) if isinstance(exc, Unconvertible) else f"cannot write {display(path)}: {exc}"
            failed.append(Failure(conv.line, conv.key, msg))
            continue
        if dry_run and action != "unchanged":
            action = f"would {action[:-1]}"
        done.append(Written(action, rid, path, conv.line, conv.key, conv.dropped))
    failed.sort(key=lambda f: f.line)
    return done, failed


@dataclass
class Imported:
    """What `litrec import bibtex FILE` did: the file read (its text and encoding, and the name
    shown for it), the entries written or that would be, and those that could not be."""

    source: Any
    shown: str
    done: list[Written]
    failed: list[Failure]


def import_file(name: str, records_dir: Path, force: bool = False, dry_run: bool = False,
                ids: dict[str, str] | None = None) -> Imported:
    """`litrec import bibtex FILE` below the command: read the file ('-': standard input) and
    import every entry (`import_bibtex`)."""
    from litrec.bibtex.source import read_named
    from litrec.util.confine import need_dir

    need_dir(records_dir, "records")
    source, shown = read_named(name)
    done, failed = import_bibtex(source.text, records_dir, force, dry_run, ids=ids)
    return Imported(source, shown, done, failed)

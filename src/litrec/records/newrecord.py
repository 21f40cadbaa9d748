"""Where records live and how a new one starts: `litrec new KIND [ID]`.

Each kind has its folder under `records/`; a record file is named by its id
and starts with the comment that names its JSON Schema, relative to its
folder, so an editor validates it as it is typed. A new record is a skeleton
that passes `litrec validate`, with the optional fields shown as comments (its
kind's `template`, `litrec.records.kinds`).
Numbered kinds get the next free number when no id is given.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from pathlib import Path
from typing import cast

import yaml

from litrec.records import model as m
from litrec.records.discover import find_record_files
from litrec.records.kinds import ANTHOLOGY_KINDS, ID_RE, KIND, kind_of_id
from litrec.util.atomic import rewrite_file
from litrec.util.confine import GENERATED_PAGE_NAMES
from litrec.util.yamlsafe import load_bytes

# ------------------------------------------------------------------ files


def record_path(records_dir: Path, kind: str, rid: str) -> Path:
    """Where a record of this kind and id goes: `records/<folder>/<id>.yaml`."""
    return Path(records_dir) / KIND[kind].folder / f"{rid}.yaml"


def schema_comment(path: Path, kind: str, records_dir: Path) -> str:
    """The first line of a record: its kind's schema (in `schema/` beside the records folder)."""
    schema = Path(records_dir).resolve().parent / "schema" / f"{kind}.schema.json"
    rel = Path(os.path.relpath(schema, Path(path).resolve().parent)).as_posix()
    return f"# yaml-language-server: $schema={rel}\n"


def existing_ids(records_dir: Path) -> dict[str, Path]:
    """Record ids in use (file names are ids; `litrec validate` checks they match)."""
    return {p.stem: p for p in find_record_files(Path(records_dir))}


def write_new(path: Path, text: str) -> None:
    """Create `path` with `text`; FileExistsError if it exists (never overwrites)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "x", encoding="utf-8") as fh:
        fh.write(text)


def write_replace(path: Path, text: str) -> None:
    """Replace `path` with `text` atomically, as the same file (`litrec.util.atomic.rewrite_file`): a
    crash leaves the old file whole; a symbolic link stays a link, its target replaced; the
    file keeps its mode (a new one gets the usual mode, 0644 under the usual umask, not a
    temporary file's 0600). The caller decides whether a link may be followed."""
    rewrite_file(path, text.encode("utf-8"))


def display(path: Path) -> str:
    """A path as shown to the user: relative to the working folder when inside it."""
    try:
        return os.path.relpath(path)
    except ValueError:  # pragma: no cover - another drive on Windows
        return str(path)


def yaml_scalar(value) -> str:
    """A value as a one-line YAML scalar, quoted where YAML would read it otherwise."""
    text = yaml.safe_dump(value, allow_unicode=True, width=10_000, default_flow_style=True)
    return text.removesuffix("\n...\n").rstrip("\n")


def today() -> dt.date:
    """Today's date, or that of SOURCE_DATE_EPOCH when it is set (for reproducible output)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    if epoch.isdigit():
        return dt.datetime.fromtimestamp(int(epoch), dt.UTC).date()
    return dt.date.today()


# ------------------------------------------------------------------ ids


def next_id(kind: str, ids, anthology_kind: str = "LIT") -> str:
    """The number after the largest in use: NOTE-621 -> NOTE-622, ADR-013 -> ADR-014."""
    # a numbered kind (its callers ask for no other), so it has a prefix
    prefix = f"ANTH-{anthology_kind}-" if kind == "anthology" else cast(str, KIND[kind].prefix)
    numbers = [n for n in (re.fullmatch(re.escape(prefix) + r"(\d+)", i) for i in ids) if n]
    width = max([KIND[kind].width] + [len(n.group(1)) for n in numbers if n.group(1)[0] == "0"])
    top = max((int(n.group(1)) for n in numbers), default=0)
    return f"{prefix}{top + 1:0{width}d}"


def slug(title: str) -> str:
    """A work id from a title: 'What Survives Translation?' -> what-survives-translation."""
    import unicodedata

    ascii_ = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode()
    return "-".join(re.findall(r"[a-z0-9]+", ascii_.lower()))


def choose_id(kind: str, rid: str | None, title: str | None, ids) -> str:
    """The id for a new record, or ValueError saying what to give instead."""
    if rid is None:
        if KIND[kind].prefix:
            return next_id(kind, ids)
        if kind == "work" and title and slug(title):
            if slug(title) in GENERATED_PAGE_NAMES:
                raise ValueError(f"the title makes the id '{slug(title)}', the name of a page the "
                                 "site generates; give an id of your own")
            return slug(title)
        if kind == "anthology":
            free = ", ".join(next_id(kind, ids, k) for k in ANTHOLOGY_KINDS)
            raise ValueError(f"give the anthology entry's id; the next free ones are {free}")
        if kind == "literature":
            raise ValueError(f"give the id: {KIND['literature'].example}; or import the paper "
                             "with `litrec import bibtex FILE`")
        raise ValueError(f"give the id ({KIND[kind].example}) or a --title to make it from")
    odd = next((ch for ch in rid if not ch.isascii()), None)
    if odd is not None:  # the same rule `litrec validate` applies (`records.explain.check_id`)
        raise ValueError(f"'{rid}' is not a {kind} id: it holds the non-ASCII character {odd!r} "
                         f"(U+{ord(odd):04X}), and ids are ASCII; expected the form "
                         f"{KIND[kind].example}")
    if rid in GENERATED_PAGE_NAMES:
        raise ValueError(f"'{rid}' is the name of a page the site generates; choose another id")
    if not ID_RE[kind].match(rid):
        other = kind_of_id(rid)
        # no hint for a kind whose ids are most words (almost anything lower-case is a work id)
        hint = (f"; '{rid}' is a {other} id: litrec new {other} {rid}"
                if other not in (None, kind) and not KIND[other].matched_last else "")
        raise ValueError(f"'{rid}' is not a {kind} id; expected the form {KIND[kind].example}{hint}")
    return rid


# ------------------------------------------------------------------ skeletons


def skeleton(kind: str, rid: str, title: str | None, path: Path, records_dir: Path,
             date: dt.date | None = None) -> str:
    """The text of a new record: valid as it is, optional fields shown as comments."""
    day = (date or today()).isoformat()
    arxiv = ""
    if kind == "literature" and rid.startswith("ARXIV-"):
        arxiv = f"arxiv: {yaml_scalar(rid.removeprefix('ARXIV-'))}\n"
    head = [schema_comment(path, kind, records_dir), f"id: {yaml_scalar(rid)}\n", f"kind: {kind}\n"]
    head.append(f"title: {yaml_scalar(title)}\n" if title else "# title: a one-line title\n")
    text = "".join(head) + KIND[kind].template.format(today=day, arxiv=arxiv)
    _check(kind, text)
    return text


def _check(kind: str, text: str) -> None:
    """A skeleton must validate; a failure here is a bug in the templates."""
    data = load_bytes(text.encode("utf-8")).data
    rec = m.MODELS[kind].model_validate(data)
    assert ID_RE[kind].match(rec.id), rec.id


def new_record(records_dir: Path, kind: str, rid: str | None, title: str | None) -> tuple[str, Path]:
    """`litrec new KIND [ID]` below the command: write the skeleton of a new record of `kind`
    (its id the one given, else the next free one, or from `title`); (its id, its file).
    `UsageError` for a kind or id that cannot be, `NotCreated` when the id exists."""
    import difflib

    from litrec.util.confine import need_dir
    from litrec.util.errors import NotCreated, UsageError

    if kind not in KIND:
        close = difflib.get_close_matches(kind, [*KIND, "analysis"], n=1)
        hint = f"did you mean '{close[0]}'? " if close else ""
        raise UsageError(f"unknown kind '{kind}'; {hint}kinds: {', '.join(KIND)}, analysis")
    need_dir(records_dir, "records")
    ids = existing_ids(records_dir)
    try:
        rid = choose_id(kind, rid, title, ids)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    path = record_path(records_dir, kind, rid)
    if rid in ids or path.exists():
        hint = f"; the next free {kind} id is {next_id(kind, ids)}" if KIND[kind].prefix else ""
        raise NotCreated(f"{rid} already exists: {display(ids.get(rid, path))}{hint}")
    text = skeleton(kind, rid, title, path, records_dir)
    try:
        write_new(path, text)
    except FileExistsError:  # created since we looked
        raise NotCreated(f"{rid} already exists: {display(path)}") from None
    return rid, path

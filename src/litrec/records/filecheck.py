"""What one record file yields on its own: its problems, and the facts the checks between records read.

`check_file` is the whole per-file work of validation: read the file, parse it,
validate it against its kind's schema, check its id against its file name. Its
answer depends only on the file's path, its bytes and the schemas, so it is
plain data that a worker process can return and `litrec.cache.vcache` can keep:

    (key, parsed, raw_id, problems, facts)

- `key`: `(size, mtime_ns, content hash)` of the bytes read, or None when the
  file could not be read (such a file is never cached: it is checked again);
- `parsed`: whether it was read and parsed as YAML (a link to a file that is
  not is reported at that file, not as dangling);
- `raw_id`: the `id` as written (stripped), for duplicate ids, even when invalid;
- `problems`: `(line, col, field, message, code, severity, record)` tuples, without
  the path, which is added when they are shown;
- `facts`: a `Facts` tuple when the record is valid, else None.
"""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any, NamedTuple

from litrec.records.discover import read_problem
from litrec.util.confine import Refused
from litrec.util.diagnostics import Diagnostic, format_field
from litrec.util.settled import read_record

# The parsing and the schemas (PyYAML, pydantic) are imported where a file is checked, not
# with `Facts`: a warm validate reads every record's facts from the cache and checks no file.


class Facts(NamedTuple):
    """What the checks between records need to know of one valid record (plain data)."""

    id: str
    kind: str
    refs: tuple            # ((relation, "ID" or "ID#C1", field location), ...)
    claims: tuple          # ((claim id, analysis name or None, ((metric, field location), ...)), ...)
    discrepancies: tuple   # (analysis name or None, ...), in order
    status: str | None
    partial: bool
    known_from: str | None
    reading: tuple = ()    # what a record resting on this one read of it (`reading_of`)
    bibtex_key: str | None = None  # a literature record's citation key, as written
    text: str | None = None  # a literature record's paper text (`text`), as written
    quotes: tuple = ()     # ((quote, field location), ...) of its paper sources
    cites: tuple = ()      # its prose's placeholders of stored numbers (`litrec.records.placeholders`)


def folded(value: Any) -> str:
    """A text with its whitespace folded: a line wrapped anew reads the same."""
    return " ".join(str(value or "").split())


def reading_of(rec: Any) -> tuple:
    """What a record that rests on `rec` read of it (`litrec.verdicts.suspect`): its title, its
    summary and each claim's statement, `(title, summary, ((claim id, statement), ...))`."""
    return (folded(getattr(rec, "title", "")), folded(getattr(rec, "summary", "")),
            tuple((c.id, folded(c.statement)) for c in getattr(rec, "claims", None) or ()))


def _metrics(i: int, claim: Any) -> tuple:
    """The metric names a claim's expectations compare, each with its field's location."""
    out = []
    for j, e in enumerate(claim.check.expect if claim.check is not None else ()):
        for name in ("metric", "ref", "low", "high"):
            value = getattr(e, name, None)
            if isinstance(value, str):
                out.append((value, ("claims", i, "check", "expect", j, name)))
    return tuple(out)


def facts_of(rec: Any) -> Facts:
    """The facts of a validated record model."""
    from litrec.records.quotes import quotes_of

    claims = tuple((c.id, c.check.analysis if c.check is not None else None, _metrics(i, c))
                   for i, c in enumerate(getattr(rec, "claims", None) or ()))
    discs = tuple(d.analysis for d in getattr(rec, "discrepancies", None) or ())
    return Facts(rec.id, rec.kind, tuple(rec.refs()), claims, discs,
                 getattr(rec, "status", None), rec.partial, rec.known_from, reading_of(rec),
                 getattr(rec, "bibtex_key", None), getattr(rec, "text", None), quotes_of(rec))


def salvaged_facts(path: str, root: Path, key: tuple | None = None) -> Facts | None:
    """What the checks between records can use of an invalid record: its links and claims as far
    as they are well-formed (None when its id, kind or file name cannot be trusted, or when
    the file no longer holds the bytes of `key`, those its problems were found in: an edit
    while validating is seen by the next run, never mixed into this one)."""
    from litrec.records import model as m
    from litrec.util.yamlsafe import YamlProblem, load_bytes

    try:
        raw, now = read_record(path, root)
        if key is not None and now[2] != key[2]:
            return None
        data = load_bytes(raw).data
    except (Refused, OSError, YamlProblem):
        return None
    if not isinstance(data, dict):
        return None
    rid, kind = data.get("id"), data.get("kind")
    if not isinstance(rid, str) or not isinstance(kind, str) or kind not in m.MODELS \
            or rid.strip() != Path(path).stem:
        return None
    refs = []
    links = data.get("links")
    for i, ln in enumerate(links if isinstance(links, list) else ()):
        if (isinstance(ln, dict) and isinstance(ln.get("rel"), str) and ln["rel"] in m.RELATIONS
                and isinstance(ln.get("target"), str) and m.REF_RE.match(ln["target"])):
            refs.append((ln["rel"], ln["target"], ("links", i, "target")))
    claims = []
    written = data.get("claims")
    for i, c in enumerate(written if isinstance(written, list) else ()):
        if not isinstance(c, dict) or not isinstance(c.get("id"), str):
            continue
        check = c.get("check")
        check = check if isinstance(check, dict) else {}
        analysis = check.get("analysis") if isinstance(check.get("analysis"), str) else None
        metrics = []
        expect = check.get("expect")
        for j, e in enumerate(expect if isinstance(expect, list) else ()):
            for name in ("metric", "ref", "low", "high"):
                if isinstance(e, dict) and isinstance(e.get(name), str):
                    metrics.append((e[name], ("claims", i, "check", "expect", j, name)))
        claims.append((c["id"], analysis, tuple(metrics)))
    known_from = data.get("known_from")
    return Facts(rid.strip(), kind, tuple(refs), tuple(claims), (), None,
                 data.get("partial") is True, known_from if isinstance(known_from, str) else None)


def check_file(path: str, root: Path, want_model: bool = False):
    """`(key, parsed, raw_id, problems, facts)` of one record file (see the module docstring).

    With `want_model`, also the validated model (or None): `(entry, model)`.
    """
    try:
        raw, key = read_record(path, root)
    except (Refused, OSError) as exc:
        entry: tuple = (None, False, None, (read_problem(exc),), None)
        return (entry, None) if want_model else entry
    parsed, raw_id, problems, facts, model = check_bytes(Path(path), raw)
    entry = (key, parsed, raw_id, problems, facts)
    return (entry, model) if want_model else entry


def check_bytes(path: Path, raw: bytes):
    """`(parsed, raw_id, problems, facts, model)` of a record file's bytes."""
    from litrec.records.explain import check_id, check_sources, validate_record
    from litrec.records.placeholders import cited_in
    from litrec.util.yamlsafe import YamlProblem, load_bytes

    try:
        loaded = load_bytes(raw, collect=True)
    except YamlProblem as p:
        return False, None, ((p.line, p.col, p.field, p.message, p.code, "error", None),), None, None
    data = loaded.data
    rid = data.get("id")
    raw_id = rid.strip() if isinstance(rid, str) else None
    diags: list[Diagnostic] = []
    rec = validate_record(data, loaded.root, "", diags)
    if rec is not None:
        check_id(rec, path, loaded.root, "", diags)
        check_sources(rec, loaded.root, "", diags)
    # A value YAML could not read (an impossible date) was kept as its text so that the file's
    # other problems are found too: its own message replaces what the schema says of that text.
    unread = {p.field for p in loaded.problems}
    problems = tuple(
        [(p.line, p.col, p.field, p.message, p.code, "error", None) for p in loaded.problems]
        + [(d.line, d.col, d.field, d.message, d.code, d.severity, d.record) for d in diags
           if d.field not in unread])
    if rec is None or loaded.problems:
        return True, raw_id, problems, None, None
    cites, bad = cited_in(rec, loaded.root, raw.decode("utf-8").removeprefix("\ufeff"))
    problems += tuple((line, col, format_field(loc), msg, "placeholder-syntax", "error", rec.id)
                      for line, col, loc, msg in bad)
    return True, raw_id, problems, tuple(facts_of(rec)._replace(cites=cites)), rec


def check_chunk(job: tuple[list[str], Path]) -> list:
    """`check_file` of every path of a chunk (the unit of work of a worker process)."""
    paths, root = job
    out = [check_file(p, root) for p in paths]
    # The caller pauses the collector: free the cycles this chunk's errors left. Only the
    # youngest generation, where everything made since the pause still is: a full
    # collection would rescan the whole heap of a long-lived process (serve, a test run).
    gc.collect(0)
    return out


def check_chunk_models(job: tuple[list[str], Path]) -> list:
    """`check_file(..., want_model=True)` of every path of a chunk."""
    paths, root = job
    out = [check_file(p, root, want_model=True) for p in paths]
    gc.collect(0)  # as in check_chunk
    return out

"""Load a record collection, resolve its links, and validate it as a whole.

`load_project` never raises for bad input: every problem becomes a
`Diagnostic`, and valid records are kept so later checks still run. The
result is the `Project`: records by id, typed edges with computed backlinks,
claims by reference, and the analysis registry.
"""

from __future__ import annotations

import difflib
import os
import re
import sys
import typing
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from pydantic import BaseModel, TypeAdapter, ValidationError

from litrec import model as m
from litrec.kinds import ID_RE, KIND, KINDS
from litrec.diagnostics import Diagnostic, format_field
from litrec.registry import Registry, load_registry
from litrec.yamlsafe import LazyRoot, YamlProblem, load_bytes, locate

_ADAPTER: TypeAdapter = TypeAdapter(m.Record)


@dataclass(frozen=True, slots=True)
class Edge:
    """One typed link: `source --rel--> target[#claim]`."""

    source: str
    rel: str
    target: str
    claim: str | None
    loc: tuple

    @property
    def ref(self) -> str:
        return f"{self.target}#{self.claim}" if self.claim else self.target

    @property
    def inverse(self) -> str:
        """The link's name as seen from its target."""
        return m.RELATIONS[self.rel].inverse

    @property
    def label(self) -> str:
        """The link as drawn on a graph: `uses P1`."""
        rel = self.rel.replace("_", " ")
        return f"{rel} {self.claim}" if self.claim else rel


@dataclass
class Project:
    """A loaded collection of records and everything derived from it."""

    records_dir: Path
    analysis_dir: Path
    records: dict[str, Any] = field(default_factory=dict)
    paths: dict[str, Path] = field(default_factory=dict)
    roots: dict[str, Any] = field(default_factory=dict, repr=False)
    edges: list[Edge] = field(default_factory=list)
    registry: Registry | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    files: int = 0

    # -- queries ---------------------------------------------------------------
    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    @property
    def ok(self) -> bool:
        return not self.errors

    def outgoing(self, rid: str) -> dict[str, list[Edge]]:
        out: dict[str, list[Edge]] = defaultdict(list)
        for e in self.edges:
            if e.source == rid:
                out[e.rel].append(e)
        return dict(out)

    def incoming(self, rid: str) -> dict[str, list[Edge]]:
        """Backlinks of a record (and of its claims), grouped by inverse name."""
        out: dict[str, list[Edge]] = defaultdict(list)
        for e in self._incoming_index().get(rid, ()):
            out[e.inverse].append(e)
        return dict(out)

    def _incoming_index(self) -> dict[str, list[Edge]]:
        idx = getattr(self, "_in_idx", None)
        if idx is None:
            idx = defaultdict(list)
            for e in self.edges:
                idx[e.target].append(e)
            self._in_idx = idx
        return idx

    def claims(self) -> Iterator[tuple[Any, Any]]:
        """(record, claim) for every claim of every record, in id order."""
        for rid in sorted(self.records):
            for c in getattr(self.records[rid], "claims", []) or []:
                yield self.records[rid], c

    def claim(self, ref: str) -> tuple[Any, Any] | None:
        rid, _, cid = ref.partition("#")
        rec = self.records.get(rid)
        for c in getattr(rec, "claims", []) or []:
            if c.id == cid:
                return rec, c
        return None

    def display(self, path: Path) -> str:
        """The path as shown in messages: relative to the working folder when inside it."""
        text = str(path)
        cache = self.__dict__.setdefault("_shown", {})
        shown = cache.get(text)
        if shown is None:
            folder, _, name = text.rpartition(os.sep)
            base = cache.get(folder + os.sep) if folder else None
            if base is None:  # one relpath per folder, not per file
                try:
                    base = os.path.relpath(folder or ".")
                except ValueError:  # pragma: no cover - other drive on Windows
                    base = folder
                cache[folder + os.sep] = base
            shown = name if base == "." else os.path.join(base, name)
            cache[text] = shown
        return shown


# ------------------------------------------------------------------------ load


def find_record_files(records_dir: Path) -> list[Path]:
    found: list[str] = []
    for dirpath, dirnames, filenames in os.walk(records_dir):
        dirnames[:] = [d for d in dirnames if not d.startswith(".")]
        found.extend(os.path.join(dirpath, f) for f in filenames
                     if f.endswith((".yaml", ".yml")) and not f.startswith("."))
    return [Path(p) for p in sorted(found)]


def default_analysis_dir(records_dir: Path) -> Path:
    return records_dir.resolve().parent / "analysis"


def load_project(records_dir: Path, analysis_dir: Path | None = None) -> Project:
    records_dir = Path(records_dir)
    proj = Project(records_dir, Path(analysis_dir) if analysis_dir else default_analysis_dir(records_dir))
    diags = proj.diagnostics
    raw_ids: dict[str, list[Path]] = defaultdict(list)
    files = find_record_files(records_dir)
    proj.files = len(files)
    for path, data, root, problem in _parse_all(files):
        shown = proj.display(path)
        if problem is not None:
            line, col, message, code = problem
            diags.append(Diagnostic(shown, line, col, "", message, code))
            continue
        rid = data.get("id")
        if isinstance(rid, str):
            raw_ids[rid].append(path)
        rec = _validate_record(data, root, shown, diags)
        if rec is None:
            continue
        _check_id(rec, path, root, shown, diags)
        if rec.id in proj.records:
            continue  # duplicate, reported below
        proj.records[rec.id] = rec
        proj.paths[rec.id] = path
        proj.roots[rec.id] = root

    for rid, paths in raw_ids.items():
        if len(paths) > 1:
            first = proj.display(paths[0])
            for p in paths[1:]:
                diags.append(Diagnostic(
                    proj.display(p), *_id_pos(p), "id",
                    f"duplicate id '{rid}', already used by {first}; give each record its own id",
                    "duplicate-id", record=rid))

    proj.registry = load_registry(proj.analysis_dir, diags, proj.display)
    known = set(raw_ids)
    _resolve_links(proj, known)
    _check_claims(proj)
    _check_acyclic(proj)
    _check_supersedes(proj)
    _check_anthology(proj)
    for rid in sorted(proj.records):
        rec = proj.records[rid]
        if rec.partial:
            src = f" (named in {rec.known_from})" if rec.known_from else ""
            diags.append(Diagnostic(
                proj.display(proj.paths[rid]), 1, 1, "",
                f"{rid} is a partial record: known by reference{src}, content held elsewhere",
                "partial", "info", rid))
    return proj


PARALLEL_MIN_FILES = 2000  # below this, starting workers costs more than it saves


def _parse_one(path: str):
    try:
        with open(path, "rb") as fh:
            loaded = load_bytes(fh.read())
    except YamlProblem as p:
        return None, None, (p.line, p.col, p.message, p.code)
    except OSError as exc:
        return None, None, (1, 1, f"cannot read file: {exc.strerror}", "io")
    return loaded.data, loaded.root, None


def _parse_chunk(paths: list[str]):
    out = []
    for p in paths:
        data, _, problem = _parse_one(p)
        out.append((data, problem))
    return out


def _parse_all(files: list[Path]):
    """(path, data, root, problem) for every file; large collections parse on every core.

    Worker processes return plain data only; the node trees used to locate a
    message are rebuilt lazily, for the few files that need one.
    """
    workers = min(os.cpu_count() or 1, 8)
    ctx = None
    # fork only a process that has not loaded JAX: its threads make a forked child unsafe
    if len(files) >= PARALLEL_MIN_FILES and workers > 1 and "jax" not in sys.modules:
        import multiprocessing

        if "fork" in multiprocessing.get_all_start_methods():
            ctx = multiprocessing.get_context("fork")
    if ctx is None:
        for path in files:
            data, root, problem = _parse_one(str(path))
            yield path, data, root, problem
        return
    names = [str(p) for p in files]
    size = -(-len(names) // (workers * 4))
    chunks = [names[i:i + size] for i in range(0, len(names), size)]
    with ctx.Pool(workers) as pool:
        for chunk, parsed in zip(chunks, pool.imap(_parse_chunk, chunks)):
            for name, (data, problem) in zip(chunk, parsed):
                yield Path(name), data, LazyRoot(name), problem


def _id_pos(path: Path) -> tuple[int, int]:
    try:
        loaded = load_bytes(path.read_bytes())
    except (YamlProblem, OSError):
        return 1, 1
    return locate(loaded.root, ("id",))


# ------------------------------------------------------------ record validation


def _validate_record(data: dict, root, shown: str, diags: list[Diagnostic]):
    kind = data.get("kind")
    if kind not in m.MODELS:
        line, col = locate(root, ("kind",)) if "kind" in data else (1, 1)
        if kind is None:
            msg = f"missing field 'kind'; add one of: {', '.join(KINDS)}"
        else:
            close = difflib.get_close_matches(str(kind), KINDS, n=1)
            hint = f" Did you mean '{close[0]}'?" if close else ""
            msg = f"unknown kind {kind!r}.{hint} Known kinds: {', '.join(KINDS)}"
        diags.append(Diagnostic(shown, line, col, "kind", msg, "kind", record=_rid(data)))
        return None
    try:
        return m.MODELS[kind].model_validate(data)
    except ValidationError as exc:
        seen: set[tuple] = set()
        for err in exc.errors(include_url=False):
            # a union reports each member's failure under a type tag: report the field once
            loc = tuple(p for p in err["loc"] if not (isinstance(p, str) and _UNION_TAG.match(p)))
            if loc in seen:
                continue
            seen.add(loc)
            line, col = locate(root, loc, key=err["type"] == "extra_forbidden")
            diags.append(Diagnostic(
                shown, line, col, format_field(loc), _explain(err, m.MODELS[kind]),
                f"schema-{err['type']}", record=_rid(data)))
        return None


_UNION_TAG = re.compile(r"^(?:float|bool|int|str|date|none|list\[.*\]|dict\[.*\]|"
                        r"literal\[.*\]|function-[a-z]+\[.*\])$")


def _rid(data: dict) -> str | None:
    rid = data.get("id")
    return rid if isinstance(rid, str) else None


def _found(value: Any) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _explain(err: dict, model_cls: type[BaseModel]) -> str:
    typ = err["type"]
    loc = tuple(err["loc"])
    if typ == "extra_forbidden":
        name = str(loc[-1])
        allowed = _fields_at(model_cls, loc[:-1])
        close = difflib.get_close_matches(name, allowed, n=1)
        hint = f" Did you mean '{close[0]}'?" if close else ""
        return f"unknown field '{name}'.{hint} Allowed here: {', '.join(allowed)}"
    if typ == "missing":
        return f"missing required field '{loc[-1]}'; add it"
    msg = err["msg"]
    if msg.startswith("Value error, "):
        msg = msg[len("Value error, "):]
    if typ == "string_pattern_mismatch":
        return f"{_found(err.get('input'))} is not of the expected form (pattern {err['ctx']['pattern']})"
    inp = err.get("input")
    if typ in ("float_type", "int_type") and isinstance(inp, str):
        try:
            float(inp.replace("_", ""))
        except ValueError:
            pass
        else:
            hint = ""
            if re.fullmatch(r"\s*[+-]?\d+[eE][+-]?\d+\s*", inp):
                mant, _, exp = inp.strip().lower().partition("e")
                hint = f" (YAML reads an exponent without a dot as text: write {mant}.0e{exp})"
            return f"expected a number, found the text {inp!r}; write it without quotes{hint}"
    if typ in ("union_tag_invalid", "literal_error", "enum"):
        return f"found {_found(err.get('input'))}: {msg[0].lower() + msg[1:]}"
    return f"{msg[0].lower() + msg[1:]}; found {_found(err.get('input'))}"


def _fields_at(model_cls: Any, loc: tuple) -> list[str]:
    """Names of the fields allowed at `loc` inside `model_cls`, for did-you-mean."""
    cur: Any = model_cls
    for part in loc:
        cur = _unwrap(cur)
        if isinstance(part, int):
            args = typing.get_args(cur)
            cur = args[0] if args else None
        elif isinstance(cur, type) and issubclass(cur, BaseModel) and part in cur.model_fields:
            cur = cur.model_fields[part].annotation
        else:
            return []
    cur = _unwrap(cur)
    if isinstance(cur, type) and issubclass(cur, BaseModel):
        return list(cur.model_fields)
    return []


def _unwrap(tp: Any) -> Any:
    for _ in range(5):
        args = typing.get_args(tp)
        origin = typing.get_origin(tp)
        if origin is typing.Annotated:
            tp = args[0]
        elif origin in (typing.Union, getattr(__import__("types"), "UnionType", None)):
            rest = [a for a in args if a is not type(None)]
            tp = rest[0] if len(rest) == 1 else tp
            if len(rest) != 1:
                return tp
        else:
            return tp
    return tp


def _check_id(rec, path: Path, root, shown: str, diags: list[Diagnostic]) -> None:
    if not ID_RE[rec.kind].match(rec.id):
        line, col = locate(root, ("id",))
        diags.append(Diagnostic(
            shown, line, col, "id",
            f"'{rec.id}' is not a {rec.kind} id; expected the form {KIND[rec.kind].example}",
            "id-pattern", record=rec.id))
    elif path.stem != rec.id:
        line, col = locate(root, ("id",))
        diags.append(Diagnostic(
            shown, line, col, "id",
            f"id '{rec.id}' does not match the file name '{path.name}'; "
            f"rename the file to '{rec.id}{path.suffix}' or fix the id",
            "id-filename", record=rec.id))


# ------------------------------------------------------------------------ links


def _resolve_links(proj: Project, known: set[str]) -> None:
    diags = proj.diagnostics
    for rid in sorted(proj.records):
        rec = proj.records[rid]
        shown = proj.display(proj.paths[rid])
        root = proj.roots[rid]
        for rel_name, ref, loc in rec.refs():
            rel = m.RELATIONS[rel_name]
            target, _, claim = ref.partition("#")
            claim = claim or None

            def err(msg: str, code: str, loc=loc) -> None:
                line, col = locate(root, loc)
                diags.append(Diagnostic(shown, line, col, format_field(loc), msg, code, record=rid))

            if target not in proj.records:
                if target in known:
                    continue  # the target exists but is itself invalid: reported there
                close = difflib.get_close_matches(target, list(known), n=1, cutoff=0.6)
                hint = f" Did you mean '{close[0]}'?" if close else ""
                err(f"no record '{target}'.{hint}", "dangling-link")
                continue
            tgt = proj.records[target]
            if rec.kind not in rel.sources:
                err(f"relation '{rel_name}' cannot start from a {rec.kind} record; "
                    f"it starts from: {', '.join(sorted(rel.sources))}", "relation-source-kind")
                continue
            if tgt.kind not in rel.targets:
                err(f"relation '{rel_name}' cannot point to {target}, a {tgt.kind} record; "
                    f"it points to: {', '.join(sorted(rel.targets))}", "relation-target-kind")
                continue
            if claim is not None:
                if not rel.claims:
                    err(f"relation '{rel_name}' points to records, not claims; "
                        f"write '{target}' without '#{claim}'", "relation-claim")
                    continue
                ids = [c.id for c in getattr(tgt, "claims", []) or []]
                if claim not in ids:
                    close = difflib.get_close_matches(claim, ids, n=1, cutoff=0.5)
                    hint = f" Did you mean '{target}#{close[0]}'?" if close else (
                        f" Its claims: {', '.join(ids)}" if ids else " It has no claims.")
                    err(f"{target} has no claim '{claim}'.{hint}", "dangling-claim")
                    continue
            if target == rid and claim is None:
                err(f"a record cannot link to itself with '{rel_name}'", "self-link")
                continue
            proj.edges.append(Edge(rid, rel_name, target, claim, loc))


def _check_claims(proj: Project) -> None:
    diags = proj.diagnostics
    names = proj.registry.names() if proj.registry else set()
    for rid in sorted(proj.records):
        rec = proj.records[rid]
        if not getattr(rec, "claims", None) and not getattr(rec, "discrepancies", None):
            continue
        shown = proj.display(proj.paths[rid])
        root = proj.roots[rid]
        seen: set[str] = set()
        for i, c in enumerate(getattr(rec, "claims", []) or []):
            if c.id in seen:
                line, col = locate(root, ("claims", i, "id"))
                diags.append(Diagnostic(shown, line, col, f"claims[{i}].id",
                                        f"duplicate claim id '{c.id}' in {rid}; give each claim its own id",
                                        "duplicate-claim", record=rid))
            seen.add(c.id)
            if c.check is not None:
                _check_analysis_name(proj, names, rid, shown, root,
                                     ("claims", i, "check", "analysis"), c.check.analysis)
        for i, d in enumerate(getattr(rec, "discrepancies", []) or []):
            if d.analysis is not None:
                _check_analysis_name(proj, names, rid, shown, root,
                                     ("discrepancies", i, "analysis"), d.analysis)


def _check_analysis_name(proj, names, rid, shown, root, loc, name) -> None:
    if name in names:
        return
    line, col = locate(root, loc)
    if proj.registry is None or not proj.registry.exists:
        msg = (f"analysis '{name}' cannot be resolved: no registry at "
               f"{proj.display(proj.analysis_dir / 'registry.yaml')}; create it or pass --analysis DIR")
    else:
        close = difflib.get_close_matches(name, sorted(names), n=1)
        hint = f" Did you mean '{close[0]}'?" if close else ""
        msg = (f"no registered analysis '{name}'.{hint} Register it in "
               f"{proj.display(proj.registry.path)} (known: {', '.join(sorted(names)) or 'none'})")
    proj.diagnostics.append(Diagnostic(shown, line, col, format_field(loc), msg,
                                       "unknown-analysis", record=rid))


def _check_acyclic(proj: Project) -> None:
    for rel in m.RELATIONS.values():
        if not rel.acyclic:
            continue
        graph: dict[str, list[Edge]] = defaultdict(list)
        for e in proj.edges:
            if e.rel == rel.name:
                graph[e.source].append(e)
        state: dict[str, int] = {}
        reported: set[frozenset] = set()
        for start in sorted(graph):
            if state.get(start):
                continue
            # iterative DFS keeping the path, so deep chains cannot overflow the stack
            stack: list[tuple[str, Iterator[Edge]]] = [(start, iter(graph[start]))]
            path: list[Edge] = []
            state[start] = 1
            while stack:
                node, it = stack[-1]
                nxt = next(it, None)
                if nxt is None:
                    state[node] = 2
                    stack.pop()
                    if path:
                        path.pop()
                    continue
                t = nxt.target
                if state.get(t) == 1:
                    sources = [p.source for p in path]
                    cyc = path[sources.index(t):] if t in sources else []
                    cyc.append(nxt)
                    members = frozenset(e.source for e in cyc)
                    if members not in reported:
                        reported.add(members)
                        _cycle_error(proj, rel, cyc)
                elif not state.get(t):
                    state[t] = 1
                    path.append(nxt)
                    stack.append((t, iter(graph.get(t, ()))))


def _cycle_error(proj: Project, rel: m.Relation, cyc: list[Edge]) -> None:
    e = cyc[-1]
    chain = " -> ".join([c.source for c in cyc] + [cyc[0].source])
    line, col = locate(proj.roots[e.source], e.loc)
    if rel.name == "supersedes" and len(cyc) == 2:
        msg = (f"{cyc[0].source} and {cyc[1].source} supersede each other; only the newer "
               f"decision says 'supersedes', the older one gets status 'superseded'")
    else:
        msg = f"'{rel.name}' forms a cycle: {chain}; remove one of these links"
    proj.diagnostics.append(Diagnostic(proj.display(proj.paths[e.source]), line, col,
                                       format_field(e.loc), msg, "cycle", record=e.source))


def _check_supersedes(proj: Project) -> None:
    superseded_by: dict[str, list[str]] = defaultdict(list)
    for e in proj.edges:
        if e.rel == "supersedes":
            superseded_by[e.target].append(e.source)
    for rid in sorted(proj.records):
        rec = proj.records[rid]
        if rec.kind != "decision":
            continue
        shown = proj.display(proj.paths[rid])
        newer = superseded_by.get(rid, [])
        if not newer and rec.status != "superseded":
            continue
        line, col = locate(proj.roots[rid], ("status",))
        if newer and rec.status not in ("superseded", None):
            proj.diagnostics.append(Diagnostic(
                shown, line, col, "status",
                f"{rid} is superseded by {', '.join(newer)} but its status is '{rec.status}'; "
                "set status: superseded", "supersedes-inverse", record=rid))
        if rec.status == "superseded" and not newer:
            proj.diagnostics.append(Diagnostic(
                shown, line, col, "status",
                f"{rid} has status 'superseded' but no decision supersedes it; add "
                f"'rel: supersedes, target: {rid}' to the decision that replaces it",
                "supersedes-inverse", record=rid))


def _check_anthology(proj: Project) -> None:
    """Cross-collection checks between the owner's records and the anthology."""
    entries_for: dict[str, list[str]] = defaultdict(list)
    stance: dict[tuple[str, str], dict[str, Edge]] = defaultdict(dict)
    for e in proj.edges:
        if e.rel == "entry_for":
            entries_for[e.target].append(e.source)
        elif e.rel in ("keeps", "rejects"):
            stance[(e.source, e.ref)][e.rel] = e
    for (src, ref), both in sorted(stance.items()):
        if len(both) == 2:
            e = both["rejects"]
            line, col = locate(proj.roots[src], e.loc)
            proj.diagnostics.append(Diagnostic(
                proj.display(proj.paths[src]), line, col, format_field(e.loc),
                f"{src} both keeps and rejects {ref}; keep one stance", "stance-conflict", record=src))
    for e in proj.edges:
        if e.rel != "uses" or proj.records[e.source].kind != "note":
            continue
        for anth in entries_for.get(e.target, []):
            rej = stance.get((anth, e.ref), {}).get("rejects") or stance.get((anth, e.target), {}).get("rejects")
            if rej is None:
                continue
            line, col = locate(proj.roots[e.source], e.loc)
            what = f"claim {e.ref}" if e.claim else e.ref
            proj.diagnostics.append(Diagnostic(
                proj.display(proj.paths[e.source]), line, col, format_field(e.loc),
                f"{e.source} uses {what}, which {anth} (the anthology's entry for {e.target}) rejects "
                f"({proj.display(proj.paths[anth])}); use a claim the anthology keeps, or record "
                "the disagreement with 'contradicts'", "anthology-rejects", record=e.source))

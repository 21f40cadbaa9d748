"""Checking a whole record collection: every file on its own, then the rules between records.

`check_collection` is what `litrec validate` runs, and what `load_project`
builds on. The work on each file (`litrec.records.filecheck`) runs on every core for
a large collection; the checks between records (`litrec.records.checks`) read only
each record's facts. With the cache (`litrec.cache.vcache`), a file whose key
(size, time, content hash) is unchanged is not read as YAML again, and when no
file, registry or working folder changed, the checks between records are not
run again either: a warm run reads and hashes the files and prints. The
problems it reports are the same with and without the cache, in the same order:
those of the scan, of each file in path order, duplicate ids, the registry's,
then those between records.
"""

from __future__ import annotations

import gc
import os
from collections import defaultdict
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from litrec.cache import caching_off
from litrec.util.confine import Refused, project_root
from litrec.util.diagnostics import Diagnostic, PathDisplay
from litrec.records.discover import id_position, map_files, read_problem, read_record, scan_record_names
from litrec.cache.vcache import Cache, checks_hash, digest, facts_ok, problems_ok, registry_key


@dataclass
class Checked:
    """What checking a collection found: every problem, and counts for the summary line."""

    diagnostics: list[Diagnostic]
    files: int
    records: int
    edges: int
    cache_note: str = ""  # why the cache could not be used, when it could not
    edge_list: list = field(default_factory=list)  # when the checks between records ran
    registry: Any = None  # the registry (with want_models, or when it was read)
    # with want_models only: the valid records' models and files
    models: dict[str, Any] = field(default_factory=dict)
    paths: dict[str, Path] = field(default_factory=dict)
    # found on the way: the first file of each valid id, every id written, problems
    winner: dict[str, int] = field(default_factory=dict, repr=False)
    known: set[str] = field(default_factory=set, repr=False)
    dups: list[Diagnostic] = field(default_factory=list, repr=False)
    between: list[Diagnostic] = field(default_factory=list, repr=False)

    @property
    def errors(self) -> list[Diagnostic]:
        """The diagnostics that are errors."""
        return [d for d in self.diagnostics if d.severity == "error"]


def default_analysis_dir(records_dir: Path) -> Path:
    """`analysis/` beside the records folder."""
    return Path(records_dir).resolve().parent / "analysis"


@contextmanager
def _gc_paused() -> Iterator[None]:
    """No cyclic garbage collection while many long-lived objects are made (it would rescan them)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def check_collection(records_dir: Path, analysis_dir: Path | None = None, *,
                     use_cache: bool = True, want_models: bool = False) -> Checked:
    """Check every record file and the rules between them; never raises for bad input.

    `use_cache`: read and write `.litrec-cache/validate/` at the project root (not when
    `LITREC_NO_CACHE` turns litrec's caches off).
    `want_models`: also return the valid records' models (never from the cache).
    """
    records_dir = Path(records_dir)
    analysis_dir = Path(analysis_dir) if analysis_dir else default_analysis_dir(records_dir)
    top = project_root(records_dir)
    display = PathDisplay()
    names, skipped = scan_record_names(records_dir)
    diags = [Diagnostic(display(p), 1, 1, "", msg, code, sev) for p, msg, code, sev in skipped]
    cache = Cache(top, records_dir) if use_cache and not want_models and not caching_off() else None
    files = _Files(names, len(str(records_dir)) + 1, top, cache)
    with _gc_paused():
        files.check(want_models)
        registry, reg_diags, reg_names, reg_exists, reg_metrics = _registry(
            analysis_dir, top, display, cache, want_models)
        state = [(name, res[0] if res[0] is not None else res[3])
                 for name, res in zip(names, files.results)]
        memo_key = digest(checks_hash(), os.getcwd(), str(records_dir), str(analysis_dir),
                          analysis_dir.exists(), reg_exists, reg_names, reg_metrics, digest(*state))
        memo = cache.memo if cache is not None and cache.memo and cache.memo[0] == memo_key else None
        if memo is None:
            files.recheck_misshapen()
        out = _assemble(files, diags, display, memo)
        diags.extend(reg_diags)
        if memo is not None:
            diags.extend(Diagnostic(*d) for d in memo[2])
        else:
            _between(out, files, analysis_dir, reg_exists, reg_names, reg_metrics, display)
            if cache is not None:
                cache.memo = (memo_key, tuple(map(_row, out.dups)),
                              tuple(map(_row, out.between)), out.edges)
                cache.changed = True
        if cache is not None:
            files.keep()
            cache.save()
            out.cache_note = cache.refused
    out.registry = registry
    if want_models:
        out.models = {rid: files.models[i] for rid, i in out.winner.items()}
        out.paths = {rid: Path(names[i]) for rid, i in out.winner.items()}
    return out


class _Files:
    """Each record file's result `(key, parsed, raw_id, problems, record id)`, and its facts.

    A result comes from the cache where the file's key is unchanged (its facts
    are then read from the cache only when the checks between records run),
    else from `litrec.records.filecheck`, on every core for many files.
    """

    def __init__(self, names: list[str], cut: int, top: Path, cache: Cache | None) -> None:
        self.names, self.top, self.cache = names, top, cache
        self.rels = [name[cut:] for name in names]  # the path inside the records folder
        self.results: list = [None] * len(names)
        self.fresh: dict[int, tuple | None] = {}   # facts of the files checked this run
        self.models: dict[int, Any] = {}

    def check(self, want_models: bool) -> None:
        """Take each unchanged file's result from the cache; check the others."""
        cached = self.cache.entries if self.cache is not None else {}
        todo: list[int] = []
        for i, name in enumerate(self.names):
            entry = cached.get(self.rels[i])
            if entry is None:
                todo.append(i)
                continue
            try:
                key = read_record(name, self.top)[1]
            except (Refused, OSError) as exc:
                self.results[i] = (None, False, None, (read_problem(exc),), None)
                continue
            if type(entry) is tuple and len(entry) == 5 and entry[0] == key and _light_ok(entry):
                self.results[i] = entry
            else:
                todo.append(i)
        if todo:
            from litrec.records import filecheck

            func = filecheck.check_chunk_models if want_models else filecheck.check_chunk
            for i, res in zip(todo, map_files(func, [self.names[i] for i in todo], self.top)):
                if want_models:
                    res, self.models[i] = res
                self._set(i, res)

    def _set(self, i: int, res: tuple) -> None:
        key, parsed, raw_id, problems, facts = res
        self.results[i] = (key, parsed, raw_id, problems, facts[0] if facts else None)
        self.fresh[i] = facts

    def facts(self, i: int) -> tuple | None:
        """The facts of file `i` (a valid record), from this run or from the cache."""
        if i in self.fresh:
            return self.fresh[i]
        return self.cache.facts().get(self.rels[i]) if self.cache is not None else None

    def recheck_misshapen(self) -> None:
        """Check again each file whose cached facts lost their shape (a damaged cache)."""
        if self.cache is None:
            return
        from litrec.records.filecheck import check_file

        for i, res in enumerate(self.results):
            if i in self.fresh or res[0] is None or res[4] is None:
                continue
            facts = self.facts(i)
            if not (facts_ok(facts) and facts[0] == res[4]):
                self._set(i, check_file(self.names[i], self.top))

    def keep(self) -> None:
        """Put the files checked this run in the cache; drop those no longer there."""
        cache = self.cache
        live = set(self.rels)
        for i in self.fresh:
            cache.put(self.rels[i], self.results[i], self.fresh[i])
        for i, res in enumerate(self.results):
            if res[0] is None and self.rels[i] in cache.entries:  # not read: never cached
                cache.drop(self.rels[i])
        for rel in [r for r in cache.entries if r not in live]:
            cache.drop(rel)


def _light_ok(entry: tuple) -> bool:
    """Whether a cached result `(key, parsed, raw_id, problems, record id)` has its shape."""
    return (type(entry[1]) is bool and (entry[2] is None or type(entry[2]) is str)
            and type(entry[3]) is tuple and (not entry[3] or problems_ok(entry[3]))
            and (entry[4] is None or type(entry[4]) is str))


def _assemble(files: _Files, diags: list[Diagnostic], display, memo: tuple | None) -> Checked:
    """Each file's problems in path order, the valid records (first of an id), duplicate ids."""
    raw_ids: dict[str, list[str]] = defaultdict(list)
    unreadable: set[str] = set()
    winner: dict[str, int] = {}
    names = files.names
    for i, (name, res) in enumerate(zip(names, files.results)):
        _, parsed, raw_id, problems, rid = res
        if problems:
            shown = display(name)
            diags.extend(Diagnostic(shown, *p) for p in problems)
        if not parsed:
            unreadable.add(Path(name).stem)  # links to it are not reported again: it is reported here
            continue
        if raw_id is not None:
            raw_ids[raw_id].append(name)
        if rid is not None and rid not in winner:  # a duplicate id is reported below
            winner[rid] = i
    out = Checked(diags, len(names), len(winner), 0)
    out.winner, out.known = winner, set(raw_ids) | unreadable
    if memo is not None:
        out.dups = [Diagnostic(*d) for d in memo[1]]
        out.edges = memo[3]
    else:
        out.dups = _duplicates(raw_ids, display, files.top)
    diags.extend(out.dups)
    return out


def _between(out: Checked, files: _Files, analysis_dir: Path, reg_exists: bool,
             reg_names: tuple, reg_metrics: tuple, display) -> None:
    """The checks between records, on the valid records' facts, and on what can be read of each
    invalid one (its links and claims), so that a record's every problem is reported in one pass:
    a misspelt field does not hide a dangling link of the same record."""
    from litrec.records.checks import Collection, run_checks
    from litrec.records.filecheck import Facts, salvaged_facts

    facts = {rid: Facts._make(files.facts(i)) for rid, i in out.winner.items()}
    paths = {rid: files.names[i] for rid, i in out.winner.items()}
    for i, res in enumerate(files.results):
        if res[1] and res[4] is None and res[0] is not None:  # read as YAML, not a valid record
            found = salvaged_facts(files.names[i], files.top)
            if found is not None and found.id not in facts:
                facts[found.id], paths[found.id] = found, files.names[i]
    col = Collection(facts, paths, display, analysis_dir,
                     analysis_dir / "registry.yaml", reg_exists, set(reg_names),
                     {name: None if m is None else frozenset(m) for name, m in reg_metrics})
    run_checks(col, out.known)
    out.between = col.diagnostics
    out.diagnostics.extend(col.diagnostics)
    out.edge_list = [e for e in col.edges if e.source in out.winner]  # the valid records' graph
    out.edges = len(out.edge_list)


def _row(d: Diagnostic) -> tuple:
    return (d.path, d.line, d.col, d.field, d.message, d.code, d.severity, d.record)


def _duplicates(raw_ids: dict[str, list[str]], display, top: Path) -> list[Diagnostic]:
    out = []
    for rid, paths in raw_ids.items():
        if len(paths) > 1:
            first = display(paths[0])
            for p in paths[1:]:
                out.append(Diagnostic(
                    display(p), *id_position(Path(p), top), "id",
                    f"duplicate id '{rid}', already used by {first}; give each record its own id",
                    "duplicate-id", record=rid))
    return out


def _registry(analysis_dir: Path, top: Path, display, cache: Cache | None, want_models: bool):
    """(registry or None, its problems, its names, whether it exists); from the cache when
    no file of analysis/ changed (the registry model is then not even imported)."""
    key = None
    if cache is not None:
        key = registry_key(analysis_dir, top)
        if key is not None:
            key = digest(key, checks_hash(), os.getcwd())
        held = cache.registry
        if key is not None and held is not None and held[0] == key:
            return None, [Diagnostic(*d) for d in held[3]], held[2], held[1], held[4]
    from litrec.runs.registry import load_registry

    reg_diags: list[Diagnostic] = []
    reg = load_registry(analysis_dir, reg_diags, display)
    names = tuple(sorted(reg.entries))
    metrics = tuple((n, None if reg.metrics.get(n) is None else tuple(sorted(reg.metrics[n])))
                    for n in names)
    if cache is not None and key is not None:
        cache.registry = (key, reg.exists, names, tuple(map(_row, reg_diags)), metrics)
        cache.changed = True
    return (reg if want_models else None), reg_diags, names, reg.exists, metrics

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
then those between records, then the quotes of each paper against its local
text (`litrec.records.quotes`), read afresh every run.
"""

from __future__ import annotations

import gc
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from litrec.cache.vcache import Between, Cache, FileEntry, RegistryCheck
from litrec.records.discover import id_position, map_files, scan_record_names
from litrec.util.confine import project_root
from litrec.util.diagnostics import Diagnostic, PathDisplay

if TYPE_CHECKING:  # the model is imported only where the registry is read (not from the cache)
    from litrec.analyses.registry import Registry


@dataclass
class Checked:
    """What checking a collection found: every problem, and counts for the summary line."""

    diagnostics: list[Diagnostic]
    files: int
    records: int
    edges: int
    cache_note: str = ""  # why the cache could not be used, when it could not
    edge_list: list = field(default_factory=list)  # when the checks between records ran
    registry: Registry | None = None  # the registry (with want_models, or when it was read)
    models: dict[str, Any] = field(default_factory=dict)  # with want_models only: the valid records'
    paths: dict[str, Path] = field(default_factory=dict)  # each valid record's file
    # found on the way: the first file of each valid id, every id written, problems
    winner: dict[str, int] = field(default_factory=dict, repr=False)
    known: set[str] = field(default_factory=set, repr=False)
    dups: list[Diagnostic] = field(default_factory=list, repr=False)
    between: list[Diagnostic] = field(default_factory=list, repr=False)
    _files: Any = field(default=None, repr=False)
    _facts: dict[str, Any] | None = field(default=None, repr=False)

    @property
    def errors(self) -> list[Diagnostic]:
        """The diagnostics that are errors."""
        return [d for d in self.diagnostics if d.severity == "error"]

    def facts(self) -> dict[str, Any]:
        """Each valid record's `Facts` (`litrec.records.filecheck`), as checked in this run or
        kept by the cache for the bytes checked: what a later stage reads of the records
        without building their models (`litrec.verdicts.suspect`)."""
        from litrec.records.filecheck import Facts

        if self._facts is None:  # made once: validation, the quotes and the cited numbers read them
            self._facts = {rid: Facts._make(self._files.facts(i)) for rid, i in self.winner.items()}
        return self._facts

    def file_keys(self) -> dict[str, tuple]:
        """The key `(size, mtime_ns, content hash, witness)` of each record file's bytes as this
        run checked them (read now, or vouched for by their witness), by path inside the records
        folder: what a later key of the folder need not read again
        (`litrec.cache.runmemo.inputs_key`)."""
        if self._files is None:
            return {}
        return {rel: res.key for rel, res in zip(self._files.rels, self._files.results)
                if res.key is not None}


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

    `use_cache`: take what did not change from the validation cache
    (`litrec.cache.vcache`, not when `LITREC_NO_CACHE` turns litrec's caches off).
    `want_models`: also return the valid records' models (never from the cache).
    """
    records_dir = Path(records_dir)
    analysis_dir = Path(analysis_dir) if analysis_dir else default_analysis_dir(records_dir)
    top = project_root(records_dir)
    display = PathDisplay()
    names, skipped = scan_record_names(records_dir)
    diags = [Diagnostic(display(p), 1, 1, "", msg, code, sev) for p, msg, code, sev in skipped]
    cache = Cache(top, records_dir, on=use_cache and not want_models)
    files = _Files(names, len(str(records_dir)) + 1, top, cache)
    with _gc_paused():
        files.check(want_models)
        registry, reg = _registry(analysis_dir, display, cache, want_models)
        kept = cache.between(names, files.results, records_dir, analysis_dir, reg)
        out = _assemble(files, diags, display, kept)
        diags.extend(Diagnostic(*d) for d in reg.problems)
        if kept is not None:
            diags.extend(Diagnostic(*d) for d in kept.problems)
        else:
            _between(out, files, analysis_dir, reg, display)
            cache.keep_between(out.dups, out.between, out.edges)
        cache.save(files.rels, files.results, files.fresh)
    out.cache_note = cache.refused
    out.registry = registry
    out.paths = {rid: Path(names[i]) for rid, i in out.winner.items()}
    out._files = files
    # the quotes against each paper's local text: never kept, the text is no record file
    facts = out.facts()
    if any(f.kind == "literature" and f.text for f in facts.values()):  # else none to check
        from litrec.records.quotes import check_quotes

        out.diagnostics.extend(check_quotes(records_dir, facts, out.paths, display))
    if want_models:
        out.models = {rid: files.models[i] for rid, i in out.winner.items()}
    return out


class _Files:
    """Each record file's `FileEntry`, and the facts of those checked this run.

    An entry comes from the cache where the file's bytes are those it was
    checked on, else from `litrec.records.filecheck`, on every core for many files.
    """

    def __init__(self, names: list[str], cut: int, top: Path, cache: Cache) -> None:
        self.names, self.top, self.cache = names, top, cache
        self.rels = [name[cut:] for name in names]  # the path inside the records folder
        self.results: list[FileEntry] = [None] * len(names)  # type: ignore[list-item]
        self.fresh: dict[int, tuple | None] = {}   # facts of the files checked this run
        self.models: dict[int, Any] = {}

    def check(self, want_models: bool) -> None:
        """Take each unchanged file's entry from the cache; check the others."""
        todo = []
        for i, name in enumerate(self.names):
            found = self.cache.lookup(self.rels[i], name)
            if found is None:
                todo.append(i)
            else:
                self.results[i] = found
        if todo:
            from litrec.records import filecheck

            func = filecheck.check_chunk_models if want_models else filecheck.check_chunk
            for i, res in zip(todo, map_files(func, [self.names[i] for i in todo], self.top)):
                if want_models:
                    res, self.models[i] = res
                key, parsed, raw_id, problems, facts = res
                self.results[i] = FileEntry(key, parsed, raw_id, problems,
                                            facts[0] if facts else None)
                self.fresh[i] = facts

    def facts(self, i: int) -> tuple | None:
        """The facts of file `i` (a valid record), from this run or from the cache."""
        return self.fresh[i] if i in self.fresh else self.cache.facts(self.rels[i])


def _assemble(files: _Files, diags: list[Diagnostic], display, kept: Between | None) -> Checked:
    """Each file's problems in path order, the valid records (first of an id), duplicate ids."""
    raw_ids: dict[str, list[str]] = defaultdict(list)
    unreadable: set[str] = set()
    winner: dict[str, int] = {}
    names = files.names
    for i, (name, res) in enumerate(zip(names, files.results)):
        if res.problems:
            shown = display(name)
            diags.extend(Diagnostic(shown, *p) for p in res.problems)
        if not res.parsed:
            unreadable.add(Path(name).stem)  # links to it are not reported again: it is reported here
            continue
        if res.raw_id is not None:
            raw_ids[res.raw_id].append(name)
        if res.record is not None and res.record not in winner:  # a duplicate id is reported below
            winner[res.record] = i
    out = Checked(diags, len(names), len(winner), 0)
    out.winner, out.known = winner, set(raw_ids) | unreadable
    if kept is not None:
        out.dups = [Diagnostic(*d) for d in kept.duplicates]
        out.edges = kept.edges
    else:
        out.dups = _duplicates(raw_ids, display, files.top)
    diags.extend(out.dups)
    return out


def _between(out: Checked, files: _Files, analysis_dir: Path, reg: RegistryCheck, display) -> None:
    """The checks between records, on the valid records' facts, and on what can be read of each
    invalid one (its links and claims), so that a record's every problem is reported in one pass:
    a misspelt field does not hide a dangling link of the same record."""
    from litrec.records.checks import Collection, run_checks
    from litrec.records.filecheck import Facts, salvaged_facts

    # a winner is a valid record, so it has facts
    facts = {rid: Facts._make(cast(tuple, files.facts(i))) for rid, i in out.winner.items()}
    paths = {rid: files.names[i] for rid, i in out.winner.items()}
    for i, res in enumerate(files.results):
        if res.parsed and res.record is None and res.key is not None:  # YAML, not a valid record
            found = salvaged_facts(files.names[i], files.top, res.key)
            if found is not None and found.id not in facts:
                facts[found.id], paths[found.id] = found, files.names[i]
    # names whose registry entry is there but invalid: a claim naming one is told so, not "unknown"
    problems = [Diagnostic(*d) for d in reg.problems]
    broken = {d.field.split(".", 1)[0] for d in problems} - set(reg.names)
    # the registry file itself unreadable (its YAML, its bytes): no claim's name can be resolved
    shown = display(analysis_dir / "registry.yaml")
    unreadable = any(d.path == shown and d.code not in ("registry", "contract", "inputs")
                     for d in problems)
    col = Collection(facts, paths, display, analysis_dir,
                     analysis_dir / "registry.yaml", reg.exists, set(reg.names),
                     {name: None if m is None else frozenset(m) for name, m in reg.metrics},
                     registry_broken=broken, registry_unreadable=unreadable)
    run_checks(col, out.known)
    out.between = col.diagnostics
    out.diagnostics.extend(col.diagnostics)
    out.edge_list = [e for e in col.edges if e.source in out.winner]  # the valid records' graph
    out.edges = len(out.edge_list)


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


def _registry(analysis_dir: Path, display, cache: Cache, want_models: bool):
    """(the registry or None, what checking it found); from the cache when no file of analysis/
    changed (the registry model is then not even imported)."""
    kept = cache.registry(analysis_dir)
    if kept is not None:
        return None, kept
    from litrec.analyses.registry import load_registry

    problems: list[Diagnostic] = []
    reg = load_registry(analysis_dir, problems, display)
    names = tuple(sorted(reg.entries))
    metrics = tuple((n, None if (declared := reg.metrics.get(n)) is None else tuple(sorted(declared)))
                    for n in names)
    found = cache.keep_registry(analysis_dir, reg.exists, names, problems, metrics)
    return (reg if want_models else None), found

"""Checks of the collection as a whole: links resolved into edges, then the rules between records.

Each check adds diagnostics to the collection and never stops at the first:
dangling records and claims (with did-you-mean), relation kinds, cycles in
acyclic relations, `supersedes` against `status`, claims naming unregistered
analyses, the anthology's keeps/rejects against the notes that use a claim, one
citation key (`bibtex_key`) kept by two literature records, and placeholders of stored
numbers in prose that name no registered analysis (`litrec.records.placeholders`).

The checks read each record's `Facts` (plain data, `litrec.records.filecheck`), never
its model: validation can take them from the cache without building models.
A position is found in the file only for a message (`LazyRoot`).
"""

from __future__ import annotations

import difflib
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from litrec.records import model as m
from litrec.records.edges import Edge
from litrec.records.filecheck import Facts
from litrec.records.placeholders import check_cited
from litrec.util.diagnostics import Diagnostic, Severity, format_field
from litrec.util.formatting import excerpt
from litrec.util.yamlsafe import LazyRoot, locate


@dataclass
class Collection:
    """The valid records' facts and files, the registry's names, and what the checks find."""

    records: dict[str, Facts]
    paths: dict[str, str]  # each record's file, as the scan found it
    display: Callable[[str | Path], str]
    analysis_dir: Path
    registry_path: Path
    registry_exists: bool
    registry_names: set[str]
    registry_metrics: dict[str, frozenset[str] | None] = field(default_factory=dict)  # METRICS
    registry_broken: set[str] = field(default_factory=set)  # entries there, but not valid
    registry_unreadable: bool = False  # the registry's file has an error: no name resolves
    diagnostics: list[Diagnostic] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    _roots: dict[str, LazyRoot] = field(default_factory=dict, repr=False)

    def report(self, rid: str, loc: tuple, message: str, code: str, severity: Severity = "error") -> None:
        """Add a problem at the field `loc` of record `rid` (its file is parsed for the position)."""
        line, col = locate(self.root(rid), loc)
        self.diagnostics.append(Diagnostic(self.display(self.paths[rid]), line, col,
                                           format_field(loc), message, code, severity, record=rid))

    def root(self, rid: str) -> LazyRoot:
        """The node tree of a record's file, parsed when a message first needs a position."""
        root = self._roots.get(rid)
        if root is None:
            root = self._roots[rid] = LazyRoot(str(self.paths[rid]))
        return root


def run_checks(col: Collection, known: set[str]) -> None:
    """Every check between records, in the order their messages are listed, and the partial notes.

    `known`: every id written in a file, valid or not (a link to an invalid record
    is reported at that record, not as dangling).
    """
    resolve_links(col, known)
    check_claims(col)
    check_acyclic(col)
    check_supersedes(col)
    check_anthology(col)
    check_bibtex_keys(col)
    check_cited(col)
    for rid in sorted(col.records):
        rec = col.records[rid]
        if rec.partial:
            src = f" (named in {rec.known_from})" if rec.known_from else ""
            col.diagnostics.append(Diagnostic(
                col.display(col.paths[rid]), 1, 1, "",
                f"{rid} is a partial record: known by reference{src}, content held elsewhere",
                "partial", "info", rid))


def resolve_links(proj: Collection, known: set[str]) -> None:
    """Turn every link into an edge; report dangling targets, claims and wrong kinds."""
    known_list: list[str] | None = None
    for rid in sorted(proj.records):
        rec = proj.records[rid]
        first_at: dict[tuple[str, str], tuple] = {}
        for rel_name, ref, loc in rec.refs:
            rel = m.RELATIONS[rel_name]
            if (rel_name, ref) in first_at:
                proj.report(rid, loc, f"the link '{rel_name} {ref}' is already listed at "
                            f"{format_field(first_at[rel_name, ref])}; remove one of them",
                            "duplicate-link")
                continue
            first_at[rel_name, ref] = loc
            target, _, claim = ref.partition("#")
            claim = claim or None

            def err(msg: str, code: str, rid=rid, loc=loc) -> None:
                proj.report(rid, loc, msg, code)

            if target not in proj.records:
                if target in known:
                    continue  # the target exists but is itself invalid: reported there
                if known_list is None:  # one list for every dangling link, not one each
                    known_list = sorted(known)
                close = difflib.get_close_matches(target, known_list, n=1, cutoff=0.6)
                hint = f" Did you mean '{close[0]}'?" if close else ""
                err(f"no record '{excerpt(target)}'.{hint}", "dangling-link")
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
                        f"write '{target}' without '#{excerpt(claim)}'", "relation-claim")
                    continue
                ids = [c[0] for c in tgt.claims]
                if claim not in ids:
                    close = difflib.get_close_matches(claim, ids, n=1, cutoff=0.5)
                    hint = f" Did you mean '{target}#{close[0]}'?" if close else (
                        f" Its claims: {', '.join(ids)}" if ids else " It has no claims.")
                    err(f"{target} has no claim '{excerpt(claim)}'.{hint}", "dangling-claim")
                    continue
            if target == rid and claim is None:
                err(f"a record cannot link to itself with '{rel_name}'", "self-link")
                continue
            proj.edges.append(Edge(rid, rel_name, target, claim, loc))


def check_claims(proj: Collection) -> None:
    """Claim ids unique within a record; every analysis a claim or discrepancy names is registered
    (a note, not an error, where there is no analysis folder: a repository of records only)."""
    diags = proj.diagnostics
    names = proj.registry_names
    for rid in sorted(proj.records):
        rec = proj.records[rid]
        if not rec.claims and not rec.discrepancies:
            continue
        shown = proj.display(proj.paths[rid])
        root = proj.root(rid)
        seen: set[str] = set()
        for i, (cid, analysis, metrics) in enumerate(rec.claims):
            if cid in seen:
                line, col = locate(root, ("claims", i, "id"))
                diags.append(Diagnostic(shown, line, col, f"claims[{i}].id",
                                        f"duplicate claim id '{cid}' in {rid}; give each claim its own id",
                                        "duplicate-claim", record=rid))
            seen.add(cid)
            if analysis is not None:
                _check_analysis_name(proj, names, rid, shown, root,
                                     ("claims", i, "check", "analysis"), analysis)
                _check_metrics(proj, rid, shown, root, analysis, metrics)
        for i, analysis in enumerate(rec.discrepancies):
            if analysis is not None:
                _check_analysis_name(proj, names, rid, shown, root,
                                     ("discrepancies", i, "analysis"), analysis)


def _check_metrics(proj, rid, shown, root, analysis, metrics) -> None:
    """Every metric an expectation names is one its analysis declares (METRICS), when it declares."""
    from litrec.analyses.contract import declares

    declared = proj.registry_metrics.get(analysis)
    if declared is None:
        return
    for name, loc in metrics:
        if declares(declared, name):
            continue
        close = difflib.get_close_matches(name, sorted(declared), n=1)
        hint = f" Did you mean '{close[0]}'?" if close else ""
        line, col = locate(root, loc)
        proj.diagnostics.append(Diagnostic(
            shown, line, col, format_field(loc),
            f"analysis '{analysis}' declares no metric '{name}'.{hint} Its METRICS: "
            f"{', '.join(sorted(declared))}", "unknown-metric", record=rid))


def _check_analysis_name(proj, names, rid, shown, root, loc, name) -> None:
    if name in names:
        return
    line, col = locate(root, loc)
    severity: Severity = "error"
    if not proj.analysis_dir.exists():  # a repository of records only: nothing to resolve against
        severity = "info"
        msg = (f"analysis '{name}' is not checked: there is no {proj.display(proj.analysis_dir)}/ "
               "folder (a repository of records only); validate where the analyses are, or pass "
               "--analysis DIR")
    elif not proj.registry_exists:
        msg = (f"analysis '{name}' cannot be resolved: no registry at "
               f"{proj.display(proj.analysis_dir / 'registry.yaml')}; create it or pass --analysis DIR")
    elif proj.registry_unreadable:
        msg = (f"analysis '{name}' cannot be resolved: {proj.display(proj.registry_path)} cannot be "
               "read (reported there); fix the registry first")
    elif name in proj.registry_broken:
        msg = (f"analysis '{name}' cannot be resolved: its entry in {proj.display(proj.registry_path)} "
               "has an error (reported there); fix the entry")
    else:
        close = difflib.get_close_matches(name, sorted(names), n=1)
        hint = f" Did you mean '{close[0]}'?" if close else ""
        msg = (f"no registered analysis '{name}'.{hint} Register it in "
               f"{proj.display(proj.registry_path)} (known: {', '.join(sorted(names)) or 'none'})")
    code = "unknown-analysis" if severity == "error" else "unchecked-analysis"
    proj.diagnostics.append(Diagnostic(shown, line, col, format_field(loc), msg, code, severity,
                                       record=rid))


def check_acyclic(proj: Collection) -> None:
    """Report a cycle in any relation that must not form one."""
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


def _cycle_error(proj: Collection, rel: m.Relation, cyc: list[Edge]) -> None:
    e = cyc[-1]
    chain = " -> ".join([c.source for c in cyc] + [cyc[0].source])
    line, col = locate(proj.root(e.source), e.loc)
    if rel.name == "supersedes" and len(cyc) == 2:
        msg = (f"{cyc[0].source} and {cyc[1].source} supersede each other; only the newer "
               f"decision says 'supersedes', the older one gets status 'superseded'")
    else:
        msg = f"'{rel.name}' forms a cycle: {chain}; remove one of these links"
    proj.diagnostics.append(Diagnostic(proj.display(proj.paths[e.source]), line, col,
                                       format_field(e.loc), msg, "cycle", record=e.source))


def check_supersedes(proj: Collection) -> None:
    """`supersedes` must not run both ways and must agree with `status`."""
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
        line, col = locate(proj.root(rid), ("status",))
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


def check_anthology(proj: Collection) -> None:
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
            line, col = locate(proj.root(src), e.loc)
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
            line, col = locate(proj.root(e.source), e.loc)
            what = f"claim {e.ref}" if e.claim else e.ref
            proj.diagnostics.append(Diagnostic(
                proj.display(proj.paths[e.source]), line, col, format_field(e.loc),
                f"{e.source} uses {what}, which {anth} (the anthology's entry for {e.target}) rejects "
                f"({proj.display(proj.paths[anth])}); use a claim the anthology keeps, or record "
                "the disagreement with 'contradicts'", "anthology-rejects", record=e.source))


def check_bibtex_keys(proj: Collection) -> None:
    """One `bibtex_key` per literature record: `litrec export bibtex` would write two entries of
    one key, and a citation of it would name either. Reported at each record after the first
    (in id order) that keeps it, naming the first."""
    first: dict[str, str] = {}
    for rid in sorted(proj.records):
        key = proj.records[rid].bibtex_key
        if not key:
            continue
        if key not in first:
            first[key] = rid
            continue
        other = first[key]
        line, col = locate(proj.root(rid), ("bibtex_key",))
        proj.diagnostics.append(Diagnostic(
            proj.display(proj.paths[rid]), line, col, "bibtex_key",
            f"bibtex_key '{excerpt(key)}' is already the key of {other} "
            f"({proj.display(proj.paths[other])}): `litrec export bibtex` would write two entries "
            "under one key; give this record a key of its own, or remove its bibtex_key to have "
            "one generated", "duplicate-bibtex-key", record=rid))

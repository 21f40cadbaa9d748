"""What each claim and record of a project stands as now, for the suspect-link check
(`litrec.verdicts.suspect`): a claim's statement hash and verdict, a record's content hash over
its text, its claims and, recursively, what it rests on. Records off a cycle of links are
fingerprinted without recursion (a chain of thousands of links stays within Python's stack),
each equal to what the recursive definition gives, so no stored baseline moves."""

from __future__ import annotations

from typing import Any

from litrec.util.canonical import canonical_digest
from litrec.verdicts.reading import Reading


def _digest(*parts: Any) -> str:
    return canonical_digest(parts, compact=False, default=str)[:16]  # as baselines were written


class Fingerprints:
    """What each claim and record stands as now (statements and verdicts), worked out once."""

    def __init__(self, reading: Reading):
        self.reading = reading
        self.deps: dict[str, list[str]] = {}
        for d in reading.deps:
            self.deps.setdefault(d.record, []).append(d.target)
        self._records: dict[str, dict] = {}
        self._cyclic = _on_cycles(self.deps)

    def claim(self, ref: str) -> dict:
        """`{"statement": hash, "verdict": word}` of a claim."""
        rid, _, cid = ref.partition("#")
        text = self.reading.text(rid)
        statement = next((st for c, st in text[2] if c == cid), "") if text is not None else ""
        return {"statement": _digest(statement),
                "verdict": self.reading.verdicts.get(ref, "unchecked")}

    def record(self, rid: str, seen: frozenset = frozenset()) -> dict:
        """`{"content": hash, "verdicts": {claim: verdict}}` of a record: its text, its claims'
        statements and verdicts, and what it rests on (their fingerprints, recursively)."""
        if rid not in self._cyclic:
            if rid not in self._records:
                self._below(rid)
            return self._records[rid]
        if rid in self._records and not seen:
            return self._records[rid]
        value = self._record(rid, seen)
        if not seen:
            self._records[rid] = value
        return value

    def _below(self, rid: str) -> None:
        """The fingerprints of `rid` and of every record off a cycle that it rests on, deepest
        first, without recursion (a chain of thousands of links stays within Python's stack). Off a
        cycle a record's fingerprint does not depend on the path it is reached by: no record of
        that path can be reached again from it."""
        todo = [(rid, False)]
        while todo:
            node, expanded = todo.pop()
            if node in self._records:
                continue
            below = [t for t in self.deps.get(node, []) if "#" not in t and t not in self._cyclic
                     and t not in self._records]
            if expanded or not below:
                self._records[node] = self._record(node, frozenset())
            else:
                todo.append((node, True))
                todo.extend((t, False) for t in below)

    def _record(self, rid: str, seen: frozenset) -> dict:
        text = self.reading.text(rid)
        parts: list[Any] = [rid]
        verdicts = {}
        if text is not None:
            title, summary, claims = text
            parts += [title, summary]
            for cid, _ in claims:
                one = self.claim(f"{rid}#{cid}")
                verdicts[cid] = one["verdict"]
                parts.append((cid, one))
        for target in self.deps.get(rid, []) if rid not in seen else []:
            parts.append((target, self.of(target, seen | {rid})))
        return {"content": _digest(*parts), **({"verdicts": verdicts} if verdicts else {})}

    def of(self, target: str, seen: frozenset = frozenset()) -> dict:
        """The fingerprint of a claim ref or a record id."""
        return self.claim(target) if "#" in target else self.record(target, seen)


def _on_cycles(deps: dict[str, list[str]]) -> set[str]:
    """The records that lie on a cycle of links (Tarjan's strongly connected components, without
    recursion): only their fingerprints depend on the path they are reached by."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cyclic: set[str] = set()
    for root in deps:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            targets = [t for t in deps.get(node, []) if "#" not in t]
            if i < len(targets):
                work.append((node, i + 1))
                t = targets[i]
                if t not in index:
                    work.append((t, 0))
                elif t in on_stack:
                    low[node] = min(low[node], index[t])
                continue
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.append(top)
                    if top == node:
                        break
                if len(component) > 1 or node in deps.get(node, []):
                    cyclic.update(component)
    return cyclic

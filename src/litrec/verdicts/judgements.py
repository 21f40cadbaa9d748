"""Every judgement of a claim the repository holds, and the commit graph that orders them.

Registration (`litrec.verdicts.registration`) and the events of a claim
(`litrec.verdicts.events`) ask what had been seen, and when, before a criterion
or a setting took its present form. The evidence is what git and the ledger keep:

- every entry of every ledger of the claim's analysis (`results/<analysis>/<profile>.history.jsonl`,
  every profile, `quick` included), in the working tree and in **every committed version on
  every branch and remote** the repository holds: an entry a rebase or a reset dropped from the
  working tree is still read from the commit that held it;
- every committed version of every result of the analysis (`<profile>.json`), on every branch:
  a result committed before its ledger existed judged its claims too.

A `Judgement` says when it was made (`when`), from which commit (`commit`, and `holder`: the
commit that holds a result file), at which scale, in which row, under which criteria (`forms`:
their text, row by row), with which seeds and settings (`settings`: the analysis's config
without its seed; for an entry written before the ledger kept them, the committed result of
the same content hash gives them), and its verdict.

`Graph` orders commits by ancestry (`git rev-list --all --parents`, one process): where two
commits are not related (another branch, a commit a rebase orphaned), callers fall back to dates.
What git keeps does not change under a set of branch tips, so the committed part is kept in
`litrec.cache.historymemo` under the tips (`refs_of`), and the working tree's ledgers are read
every time.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from litrec.cache import historymemo
from litrec.records.criteria import EXTENSION, base_claim
from litrec.results.ledger import read_history
from litrec.util import git, jsonread

LEDGER = ".history.jsonl"


def when(text: Any) -> dt.datetime | None:
    """An ISO 8601 time (UTC where it names no zone), or None."""
    if not isinstance(text, str):
        return None
    try:
        t = dt.datetime.fromisoformat(text)
    except ValueError:
        return None
    return t if t.tzinfo else t.replace(tzinfo=dt.UTC)


class Graph:
    """The commit graph of every branch and remote, read once: ancestry and commit times."""

    def __init__(self, root: Path):
        self.root = root
        self._parents: dict[str, list[str]] | None = None
        self._ancestors: dict[str, frozenset[str]] = {}
        self._orders: dict[tuple[str | None, str], str] = {}

    def parents(self) -> dict[str, list[str]]:
        """{commit: its parents} of every commit on every branch and remote, and HEAD."""
        if self._parents is None:
            out = git.output(self.root, "rev-list", "--all", "HEAD", "--parents") or b""
            self._parents = {}
            for line in out.decode().splitlines():
                ids = line.split()
                if ids:
                    self._parents[ids[0]] = ids[1:]
        return self._parents

    def ancestors(self, commit: str) -> frozenset[str]:
        """`commit` and every commit it descends from (empty where the graph does not hold it)."""
        if commit not in self._ancestors:
            graph, seen, todo = self.parents(), set(), [commit] if commit in self.parents() else []
            while todo:
                c = todo.pop()
                if c not in seen:
                    seen.add(c)
                    todo.extend(graph.get(c, ()))
            self._ancestors[commit] = frozenset(seen)
        return self._ancestors[commit]

    def order(self, a: str | None, b: str) -> str:
        """How commit `a` stands to `b`: `same`, `before` (an ancestor), `after` (a descendant)
        or `unrelated` (another branch, a commit no branch holds, or no commit)."""
        if (a, b) not in self._orders:
            self._orders[a, b] = ("unrelated" if not a else "same" if a == b else
                                  "before" if a in self.ancestors(b) else
                                  "after" if b in self.ancestors(a) else "unrelated")
        return self._orders[a, b]


@dataclass
class Judgement:
    """One judgement of a claim: a ledger entry, or a committed result that judged it."""

    when: dt.datetime
    profile: str
    commit: str | None                 # the commit it ran from
    dirty: bool | None
    kind: str                          # "ledger" or "result"
    forms: dict[str, list[str]]        # row ("" or "+ext") -> the criteria's text it judged under
    verdicts: dict[str, str] = field(default_factory=dict)   # row -> its verdict (ledger only)
    decisions: dict[str, str] = field(default_factory=dict)  # criterion text -> holds/fails/...
    seeds: list | None = None
    settings: dict | None = None       # the analysis's config without its seed
    holder: str | None = None          # a result: the commit that holds its file
    result: str | None = None          # the content hash of the result judged

    def verdict(self) -> str | None:
        """The claim's own verdict (its row ""), else the extension row's; None for a result."""
        return self.verdicts.get("") or self.verdicts.get(EXTENSION)

    def words(self) -> str:
        """`inconclusive at paper_full on 2026-12-03 (4fe6258f)`."""
        what = self.verdict() or "a result"
        commit = f" ({self.commit[:8]})" if self.commit else ""
        return f"{what} at {self.profile} on {self.when.date().isoformat()}{commit}"


def _settings(config: Any) -> dict | None:
    return {k: v for k, v in config.items() if k != "seed"} if isinstance(config, dict) else None


def _result_row(data: Any) -> str:
    src = data.get("source") if isinstance(data, dict) else None
    ext = isinstance(src, dict) and src.get("kind") == "extension" and not data.get("precondition")
    return EXTENSION if ext else ""


def _from_result(raw: bytes | None, holder: str, profile: str) -> dict | None:
    """What a committed result says of its judgements, as plain data (kept in the memo)."""
    try:
        data = jsonread.loads(raw) if raw else None
    except ValueError:
        return None
    if not isinstance(data, dict) or when(data.get("started")) is None:
        return None
    claims: dict[str, dict[str, list[str]]] = {}
    for ref, stored in (data.get("expectations") or {}).items() if isinstance(data.get("expectations"), dict) else ():
        if not isinstance(stored, dict):
            continue
        texts, items = list(stored.get("text") or []), stored.get("data")
        rows: dict[str, list[str]] = {}
        for i, text in enumerate(texts):
            item = items[i] if isinstance(items, list) and i < len(items) else None
            rows.setdefault(_result_row(item), []).append(str(text))
        claims[str(ref)] = rows
    found = data.get("git")
    git_: dict = found if isinstance(found, dict) else {}
    return {"started": data.get("started"), "profile": profile, "holder": holder,
            "commit": git_.get("commit"), "dirty": git_.get("dirty"), "claims": claims,
            "seeds": data.get("seeds"), "settings": _settings(data.get("config")),
            "content_hash": data.get("content_hash")}


def _committed(root: Path, name: str) -> dict:
    """Every committed version of the analysis's results and ledgers on every branch:
    {"results": [...], "ledger": [entry lines]}."""
    out = git.log(root, "--all", "--format=@%H", "--name-only", paths=(f"results/{name}/",)) or b""
    specs, commit = [], None
    for line in out.decode(errors="replace").splitlines():
        if line.startswith("@"):
            commit = line[1:].strip()
        elif commit and line.strip() and "/" not in line.strip()[len(f"results/{name}/"):]:
            path = line.strip()
            if path.endswith(LEDGER) or (path.endswith(".json") and not path.endswith(".inputs.json")):
                specs.append(f"{commit}:{path}")
    results: dict[str, dict] = {}
    lines: set[str] = set()
    for spec, raw in git.blobs(root, specs).items():  # newest first: a result's oldest holder stays
        commit, path = spec.split(":", 1)
        if path.endswith(LEDGER):
            lines |= {ln for ln in (raw or b"").decode("utf-8", "replace").splitlines() if ln.strip()}
        else:
            found = _from_result(raw, commit, Path(path).stem)
            if found:
                results[str(found.get("content_hash") or spec)] = found
    return {"results": list(results.values()), "ledger": sorted(lines)}


def _entry_key(e: dict) -> tuple:
    return (e.get("profile"), e.get("claim"), e.get("when"), e.get("result"), e.get("commit"))


class Judgements:
    """Every judgement of the claims of a project's analyses, read once per analysis."""

    def __init__(self, root: Path, results_dir: Path):
        self.root, self.results_dir = root, Path(results_dir)
        self.graph = Graph(root)
        self._refs: list[str | None] = []
        self._by_analysis: dict[str, list[tuple[str, Judgement]]] = {}

    def refs(self) -> str | None:
        """HEAD and every branch tip (`litrec.util.git.refs_of`), read once."""
        if not self._refs:
            self._refs.append(git.refs_of(self.root))
        return self._refs[0]

    def of(self, analysis: str, claim: str) -> list[Judgement]:
        """The judgements of `claim` (its rows together) by `analysis`, oldest first."""
        if analysis not in self._by_analysis:
            self._by_analysis[analysis] = self._read(analysis)
        return [j for ref, j in self._by_analysis[analysis] if ref == claim]

    def _read(self, name: str) -> list[tuple[str, Judgement]]:
        refs = self.refs()
        committed = historymemo.committed(self.root, refs, f"judgements {name}",
                                          lambda: _committed(self.root, name)) if refs else \
            {"results": [], "ledger": []}
        entries: dict[tuple, dict] = {}
        for line in committed["ledger"]:
            try:
                e = jsonread.loads(line)
            except ValueError:
                continue
            if isinstance(e, dict):
                entries.setdefault(_entry_key(e), e)
        for path in sorted((self.results_dir / name).glob(f"*{LEDGER}")):
            profile = path.name[:-len(LEDGER)]
            for e in read_history(self.results_dir, name, profile):
                entries.setdefault(_entry_key(e), e)
        by_hash = {r["content_hash"]: r for r in committed["results"] if r.get("content_hash")}
        out: list[tuple[str, Judgement]] = []
        grouped: dict[tuple, list[dict]] = {}
        for e in entries.values():  # a claim's rows judged on one result are one judgement
            if isinstance(e.get("claim"), str) and when(e.get("when")):
                key = (base_claim(e["claim"]), e.get("profile"), e.get("when"), e.get("result"))
                grouped.setdefault(key, []).append(e)
        judged_results = set()
        for (ref, profile, at, result), rows in grouped.items():
            first, kept = rows[0], by_hash.get(result) or {}
            j = Judgement(when(at) or dt.datetime.min.replace(tzinfo=dt.UTC), str(profile),
                          first.get("commit") if isinstance(first.get("commit"), str) else None,
                          first.get("dirty"), "ledger", {}, seeds=first.get("seeds"),
                          settings=first.get("settings") if isinstance(first.get("settings"), dict)
                          else kept.get("settings"), result=result if isinstance(result, str) else None)
            for e in rows:
                row = EXTENSION if e["claim"].endswith(EXTENSION) else ""
                held = e.get("expectations")
                exp: dict = held if isinstance(held, dict) else {}
                j.forms[row] = [str(t) for t in exp.get("text") or []]
                j.verdicts[row] = str(e.get("verdict"))
                for n in e.get("numbers") or ():
                    if isinstance(n, dict) and n.get("expectation") is not None:
                        j.decisions[f"{row}{n['expectation']}"] = str(n.get("decision"))
            judged_results.add((ref, result))
            out.append((ref, j))
        for r in committed["results"]:  # committed results whose judgement no ledger keeps
            for ref, rows in r["claims"].items():
                if (ref, r.get("content_hash")) in judged_results:
                    continue
                out.append((ref, Judgement(when(r["started"]) or dt.datetime.min.replace(tzinfo=dt.UTC),
                                           r["profile"], r.get("commit"), r.get("dirty"), "result", rows,
                                           seeds=r.get("seeds"), settings=r.get("settings"),
                                           holder=r["holder"], result=r.get("content_hash"))))
        out.sort(key=lambda item: item[1].when)
        return out

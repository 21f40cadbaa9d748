"""Registration: whether each criterion was committed before anything of its claim was seen.

No record declares it; litrec works it out from git and the ledger of judgements, for one
expectation of one claim, its *form* being its criterion (`Expectation.criterion`: what is
judged and in which row, without its prose) as the record holds it now:

- **pre-registered**: the commit that introduced its present form (the oldest of the unbroken
  run of commits of the record holding it, read from HEAD) comes before every judgement of its
  claim, at every scale, `quick` included (`litrec.verdicts.judgements`: every ledger entry and
  every committed result on every branch);
- **post hoc**: a judgement of its claim came first: a ledger entry or a committed result whose
  commit is an ancestor of that commit (or the commit itself, judged without the present form);
  on another branch or a commit no branch holds, one dated before it; or, wherever and whenever,
  a judgement under an earlier form of the same criterion (same metric and comparison, another
  threshold) that no later commit can explain: a rebase that folds a new threshold into the
  claim's first commit, with its dates, cannot erase the ledger's judgement under the old one.
  The registration says what had been seen (`seen`: which scale, which verdict, which commit);
- **uncommitted**: in the working tree only; commit it before the run that judges it;
- **unknown**: git cannot tell (not a repository, or git does not answer).

Ancestry decides, never a date alone: dates only order what ancestry cannot (another branch,
an orphaned commit), and a commit dated before a judgement it descends from is reported
(`contradiction`: a backdated commit). The reading errs late, never early: a record file's
history starts where `git log -- FILE` starts (a renamed file at its rename), and a side branch
without the criterion ends the run of commits that hold it.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from litrec.cache import historymemo
from litrec.records.criteria import EXTENSION, criterion
from litrec.util import git
from litrec.verdicts.judgements import Judgement, Judgements
from litrec.verdicts.stored import criterion_key

if TYPE_CHECKING:  # a kept run answer prints without the records' schemas (pydantic)
    from litrec.records.project import Project

STATES = ("pre-registered", "post hoc", "uncommitted", "unknown")


@dataclass(frozen=True)
class Registration:
    """When a criterion took its present form against when its claim was first judged."""

    state: str                       # one of STATES
    commit: str | None = None        # the commit from which the present form has been in the record
    committed: str | None = None     # that commit's time (UTC, ISO 8601)
    first_result: str | None = None  # when the claim was first judged, at any scale
    seen: str | None = None          # post hoc: what had been seen before (`Judgement.words`)
    why: str | None = None           # post hoc: how that is known (ancestry, the ledger, a date)
    contradiction: str | None = None  # a commit dated before a judgement it descends from

    def words(self) -> str:
        """`pre-registered (committed 2026-11-02 in 1a2b3c4d, first judged 2026-11-04)`,
        `post hoc (committed ... after inconclusive at quick on 2026-12-03 (4fe6258f) was seen)`."""
        day = lambda t: (t or "")[:10]  # noqa: E731
        if self.state == "uncommitted":
            return "uncommitted: commit it before the run that judges it"
        if self.state == "unknown":
            return "registration unknown (no git history)"
        at = f"committed {day(self.committed)} in {(self.commit or '')[:8]}"
        if self.state == "post hoc":
            text = f"post hoc ({at}, after {self.seen} {self.why})"
        else:
            first = f", first judged {day(self.first_result)}" if self.first_result else ", not judged yet"
            text = f"pre-registered ({at}{first})"
        return f"{text}; {self.contradiction}" if self.contradiction else text


def _commits(root: Path, rel: str) -> list[tuple[str, int]] | None:
    """(commit, committer time) of every commit touching `rel`, newest first; None: no git."""
    out = git.log(root, "--first-parent", "--format=%H %ct", paths=(rel,))
    if out is None:  # a repository without a commit yet has no history; no repository, no answer
        return [] if git.output(root, "rev-parse", "--git-dir") is not None else None
    rows = [line.split() for line in out.decode().splitlines() if line.strip()]
    return [(c, int(t)) for c, t in rows]


def _iso(seconds: int) -> str:
    return dt.datetime.fromtimestamp(seconds, dt.UTC).isoformat(timespec="seconds")


def row_of(e: Any) -> str:
    """The row an expectation is judged in: "" (the claim's) or `+ext` (litrec's extension)."""
    return EXTENSION if e.extension and not e.precondition else ""


def identity(text: str) -> str:
    """What two forms of one criterion share, read off its text: its metric and comparison
    (`ood.max_rel_gap <` for `ood.max_rel_gap < 0.1`)."""
    return " ".join(text.split()[:2])


def criteria_in(raw: bytes | None) -> dict[str, list[list[str]]]:
    """{claim id: [[criterion key, text, row]]} of a record file's bytes (what does not validate
    is left out)."""
    import yaml

    from litrec.records.expectation import Expectation  # the records' models: judged claims only

    try:
        data = yaml.load(raw or b"", Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError:
        return {}
    out: dict[str, list[list[str]]] = {}
    claims = data.get("claims") if isinstance(data, dict) else None
    for claim in claims if isinstance(claims, list) else ():
        check = claim.get("check") if isinstance(claim, dict) else None
        expect = check.get("expect") if isinstance(check, dict) else None
        found = out.setdefault(str(claim.get("id")), [])
        for item in expect if isinstance(expect, list) else ():
            if not isinstance(item, dict):
                continue
            source = item.get("source")  # prose, read for its row only: an older record's
            kind = source.get("kind") if isinstance(source, dict) else None  # may lack a field
            try:                                                              # litrec now asks
                e = Expectation.model_validate({k: v for k, v in item.items() if k != "source"})
            except ValueError:
                continue
            data = e.model_dump(mode="json")
            row = EXTENSION if kind == "extension" and not e.precondition else ""
            found.append([criterion_key(criterion({**data, "source": {"kind": kind}})), e.describe(), row])
    return out


class Registrations:
    """The registration of every expectation of a project's checked claims, worked out once."""

    def __init__(self, proj: Project, results_dir: Path):
        self.proj, self.results_dir = proj, Path(results_dir)
        self.root = Path(proj.records_dir).resolve().parent
        self.judgements = Judgements(self.root, self.results_dir)
        self._records: dict[str, tuple[list, dict] | None] = {}   # rid -> (commits, {commit: criteria})
        self._no_git = False  # found once: no repository at root, no git process per record
        self.events: Any = None  # the claims' events (`litrec.verdicts.events.Events`), made by its reader

    def history(self, rid: str) -> tuple[list, dict] | None:
        """(commits newest first as [commit, time], {commit: {claim: [[key, text, row]]}}) of
        the record's file; None where git cannot tell."""
        if rid not in self._records:
            path = Path(self.proj.paths[rid]).resolve()
            try:
                rel = path.relative_to(self.root).as_posix()
            except ValueError:
                rel = None
            self._records[rid] = None if rel is None else historymemo.committed(
                self.root, self.judgements.refs(), f"record {rel}", lambda: self._record_history(rel))
        return self._records[rid]

    def _record_history(self, rel: str) -> tuple[list, dict] | None:
        commits = None if self._no_git else _commits(self.root, rel)
        if commits is None:
            self._no_git = True
            return None
        found = git.blobs(self.root, [f"{c}:{rel}" for c, _ in commits])
        return ([[c, t] for c, t in commits], {c: criteria_in(found[f"{c}:{rel}"]) for c, _ in commits})

    def introduced(self, rid: str, claim_id: str, key: str) -> tuple[str, int] | None:
        """(commit, time) from which the criterion `key` has been in the claim without a break."""
        commits, criteria = self.history(rid) or ([], {})
        since = None
        for commit, t in commits:                   # newest first: the unbroken run from HEAD
            if key not in {k for k, _, _ in criteria[commit].get(claim_id, ())}:
                break
            since = (commit, t)
        return since

    def _before(self, j: Judgement, commit: str, t: int, text: str, row: str) -> str | None:
        """How `j` is known to come before the present form introduced at (`commit`, `t`);
        None where it does not."""
        under = text in j.forms.get(row, ())
        graph = self.judgements.graph
        if j.kind == "result" and graph.order(j.holder, commit) in ("before", "same"):
            return "(a result committed in an ancestor of that commit)"
        order = graph.order(j.commit, commit)  # the commit it ran from; "unrelated" when unknown
        if order == "before":
            return ("(judged under it before it was committed)" if under
                    else "(the judgement's commit is an ancestor of that commit)")
        if order == "same" and not under:
            return "(judged without it from that very commit: the working tree differed)"
        if order == "unrelated":
            if j.when < dt.datetime.fromtimestamp(t, dt.UTC):
                where = "on a commit outside this branch's history" if j.commit else "with no commit recorded"
                return f"(dated earlier, {where})"
            mine = identity(text)
            earlier = [f for f in j.forms.get(row, ()) if f != text and identity(f) == mine]
            if earlier and not under:
                return f"(the ledger holds a judgement under an earlier form: {earlier[0]})"
        return None

    def of(self, rid: str, claim_id: str, analysis: str, profile: str, e: Any) -> Registration:
        """The registration of expectation `e` of claim `rid#claim_id` (the same at every scale:
        `profile` is where it is asked from)."""
        if self.history(rid) is None:
            return Registration("unknown")
        since = self.introduced(rid, claim_id, criterion_key(e.criterion()))
        if since is None:
            return Registration("uncommitted")
        commit, t = since
        text, row = e.describe(), row_of(e)
        found = self.judgements.of(analysis, f"{rid}#{claim_id}")
        first = found[0].when.isoformat(timespec="seconds") if found else None
        contradiction = None
        for j in found:
            if (self.judgements.graph.order(j.holder or j.commit, commit) == "before"
                    and j.when > dt.datetime.fromtimestamp(t, dt.UTC)):
                contradiction = (f"the date of {commit[:8]} ({_iso(t)[:10]}) contradicts its ancestry: it "
                                 f"descends from a judgement of {j.when.date().isoformat()} (backdated?)")
                break
        for j in found:  # oldest first: the first judgement known to precede the present form
            why = self._before(j, commit, t, text, row)
            if why:
                return Registration("post hoc", commit, _iso(t), first, j.words(), why, contradiction)
        return Registration("pre-registered", commit, _iso(t), first, contradiction=contradiction)

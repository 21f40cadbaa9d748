"""Registration: whether each expectation was committed before the first result it judges.

No record declares it; litrec works it out from git history, the results' history
and the ledger of judgements, for one expectation of one claim in one profile:

- **pre-registered**: its criterion (`Expectation.criterion`: what is judged, without
  its note, source and the numbers shown beside it) was committed in the record
  before the first result of that profile holding the metrics it names was
  computed, and has been in every commit of the record since;
- **post hoc**: committed only after such a result existed: the threshold may have
  been set knowing the number (the record's note should say why);
- **uncommitted**: in the working tree only; commit it before the run that judges it;
- **unknown**: git cannot tell (not a repository, or git does not answer).

A result existed at its `started` time: every committed version of
`results/<analysis>/<profile>.json` counts, the file on disk too, and every
entry of the ledger (`<profile>.history.jsonl`, its `when`), which keeps the
judgements of results that were replaced before they were committed. An
expectation re-added after it was removed is registered when it came back.
Git and results keep whole seconds: where the criterion's commit and the first result fall in
the same second, the result's own commit decides (pre-registered only when the run's commit
holds the criterion's). The reading errs late, never early: a record file's history starts where
`git log -- FILE` starts (a renamed file at its rename), and the run of
commits that hold a criterion is read newest first in git's order, so a side
branch without it ends the run.
"""

from __future__ import annotations

import datetime as dt
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from litrec.cache import historymemo
from litrec.results import read_history
from litrec.util import head_of, jsonread
from litrec.verdicts.stored import criterion_key

STATES = ("pre-registered", "post hoc", "uncommitted", "unknown")
TIMEOUT_S = 20.0


@dataclass(frozen=True)
class Registration:
    """When an expectation was committed against when its profile first had a result."""

    state: str                       # one of STATES
    commit: str | None = None        # the commit from which the criterion has been in the record
    committed: str | None = None     # that commit's time (UTC, ISO 8601)
    first_result: str | None = None  # when the first result holding its metrics was started

    def words(self) -> str:
        """`pre-registered (committed 2026-11-02, first result 2026-11-04)`, `post hoc (...)`."""
        day = lambda t: (t or "")[:10]  # noqa: E731
        if self.state == "uncommitted":
            return "uncommitted: commit it before the run that judges it"
        if self.state == "unknown":
            return "registration unknown (no git history)"
        first = f", first result {day(self.first_result)}" if self.first_result else ", no result yet"
        return f"{self.state} (committed {day(self.committed)} in {(self.commit or '')[:8]}{first})"


def _git(root: Path, *args: str, stdin: bytes | None = None) -> bytes | None:
    try:
        run = subprocess.run(["git", "-C", str(root), *args], input=stdin, capture_output=True,
                             timeout=TIMEOUT_S)
    except (OSError, subprocess.SubprocessError):
        return None
    return run.stdout if run.returncode == 0 else None


def _commits(root: Path, rel: str) -> list[tuple[str, int]] | None:
    """(commit, committer time) of every commit touching `rel`, newest first; None: no git."""
    out = _git(root, "log", "--format=%H %ct", "--", rel)
    if out is None:  # a repository without a commit yet has no history; no repository, no answer
        return [] if _git(root, "rev-parse", "--git-dir") is not None else None
    rows = [line.split() for line in out.decode().splitlines() if line.strip()]
    return [(c, int(t)) for c, t in rows]


def _blobs(root: Path, specs: list[str]) -> dict[str, bytes | None]:
    """The bytes of each `commit:path` (None where it does not exist), in one git process."""
    if not specs:
        return {}
    out = _git(root, "cat-file", "--batch", stdin="".join(s + "\n" for s in specs).encode())
    found: dict[str, bytes | None] = dict.fromkeys(specs)
    if out is None:
        return found
    pos = 0
    for spec in specs:
        end = out.find(b"\n", pos)
        header = out[pos:end].split()
        pos = end + 1
        if len(header) == 3 and header[1] == b"blob":
            size = int(header[2])
            found[spec] = out[pos:pos + size]
            pos += size + 1
    return found


def _iso(seconds: int) -> str:
    return dt.datetime.fromtimestamp(seconds, dt.UTC).isoformat(timespec="seconds")


def _when(text: Any) -> dt.datetime | None:
    if not isinstance(text, str):
        return None
    try:
        t = dt.datetime.fromisoformat(text)
    except ValueError:
        return None
    return t if t.tzinfo else t.replace(tzinfo=dt.UTC)


def _key(criterion: dict) -> str:
    return criterion_key(criterion)


def _criteria_in(raw: bytes | None) -> dict[str, set[str]]:
    """{claim id: criterion keys} of a record file's bytes (what does not validate is left out)."""
    import yaml

    from litrec.records import Expectation  # the records' models: judged claims only

    try:
        data = yaml.load(raw or b"", Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError:
        return {}
    out: dict[str, set[str]] = {}
    claims = data.get("claims") if isinstance(data, dict) else None
    for claim in claims if isinstance(claims, list) else ():
        check = claim.get("check") if isinstance(claim, dict) else None
        expect = check.get("expect") if isinstance(check, dict) else None
        keys = out.setdefault(str(claim.get("id")), set())
        for e in expect if isinstance(expect, list) else ():
            try:
                keys.add(_key(Expectation.model_validate(e).criterion()))
            except ValueError:
                continue
    return out


def _names(metrics: Any, prefix: str = "") -> set[str]:
    """Every dotted metric name a result's metrics hold (`k2.loss_trained`)."""
    out: set[str] = set()
    if isinstance(metrics, dict):
        for k, v in metrics.items():
            name = f"{prefix}{k}"
            out.add(name)
            if isinstance(v, dict):
                out |= _names(v, name + ".")
    return out


def _result_facts(raw: bytes | str | None) -> tuple[dt.datetime, set[str], str | None] | None:
    """(started, metric names, the commit it ran from) of a result's bytes; None where it does
    not parse."""
    try:
        data = jsonread.loads(raw) if raw else None
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    started = _when(data.get("started"))
    if started is None:
        return None
    points = data.get("points")
    metrics = points[0].get("metrics") if isinstance(points, list) and points and \
        isinstance(points[0], dict) else data.get("metrics")
    git = data.get("git")
    commit = git.get("commit") if isinstance(git, dict) and isinstance(git.get("commit"), str) else None
    return started, _names(metrics), commit


class Registrations:
    """The registration of every expectation of a project's checked claims, worked out once."""

    def __init__(self, proj: Any, results_dir: Path):
        self.proj, self.results_dir = proj, Path(results_dir)
        self.root = Path(proj.records_dir).resolve().parent
        self._records: dict[str, tuple[list, dict] | None] = {}   # rid -> (commits, {commit: criteria})
        self._results: dict[tuple[str, str], list] = {}
        self._head_commit: list | None = None

    def _history(self, rid: str) -> tuple[list, dict] | None:
        """(commits newest first as (commit, time), {commit: {claim: criterion keys}}) of the
        record's file; None where git cannot tell."""
        if rid not in self._records:
            path = Path(self.proj.paths[rid]).resolve()
            try:
                rel = path.relative_to(self.root).as_posix()
            except ValueError:
                rel = None
            self._records[rid] = None if rel is None else historymemo.committed(
                self.root, self._head(), f"record {rel}", lambda: self._record_history(rel))
        return self._records[rid]

    def _record_history(self, rel: str) -> tuple[list, dict] | None:
        commits = _commits(self.root, rel)
        if commits is None:
            return None
        blobs = _blobs(self.root, [f"{c}:{rel}" for c, _ in commits])
        return ([[c, t] for c, t in commits],
                {c: {k: sorted(v) for k, v in _criteria_in(blobs[f"{c}:{rel}"]).items()}
                 for c, _ in commits})

    def _head(self) -> str | None:
        if self._head_commit is None:
            self._head_commit = [head_of(self.root)]
        return self._head_commit[0]

    def _committed_results(self, rel: str) -> list:
        """[(started, metric names)] of every committed version of a result."""
        commits = _commits(self.root, rel) or []
        out = []
        for raw in _blobs(self.root, [f"{c}:{rel}" for c, _ in commits]).values():
            facts = _result_facts(raw)
            if facts:
                out.append([facts[0].isoformat(), sorted(facts[1]), facts[2]])
        return out

    def _result_times(self, name: str, profile: str) -> list[tuple[dt.datetime, set[str], bool, str | None]]:
        """When each known result of `name` at `profile` started, the metrics it held, whether
        it is known from the ledger only (which names the metrics it judged, not the others), and
        the commit it ran from (None: not recorded)."""
        key = (name, profile)
        if key not in self._results:
            path = self.results_dir / name / f"{profile}.json"
            try:
                rel = path.resolve().relative_to(self.root).as_posix()
            except (ValueError, OSError):
                rel = None
            kept = [] if rel is None else historymemo.committed(
                self.root, self._head(), f"result {rel}", lambda: self._committed_results(rel))
            found: list = [(_when(row[0]), set(row[1]), False, row[2] if len(row) > 2 else None)
                           for row in kept]
            try:
                facts = _result_facts(path.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError):
                facts = None
            if facts:
                found.append((facts[0], facts[1], False, facts[2]))
            for entry in read_history(self.results_dir, name, profile):
                when = _when(entry.get("when"))
                judged = {str(n.get("expectation", "")).split(" ")[0]
                          for n in entry.get("numbers") or () if isinstance(n, dict)
                          and n.get("measured") is not None}
                commit = entry.get("commit")
                if when:
                    found.append((when, judged, True, commit if isinstance(commit, str) else None))
            self._results[key] = found
        return self._results[key]

    def _holds(self, criterion_commit: str, run_commit: str) -> bool:
        """Whether a run from `run_commit` had the criterion's commit in its history (the commit
        itself or an ancestor of it): a tie of whole seconds is pre-registered only then."""
        return criterion_commit == run_commit or _git(
            self.root, "merge-base", "--is-ancestor", criterion_commit, run_commit) is not None

    def of(self, rid: str, claim_id: str, analysis: str, profile: str, e: Any) -> Registration:
        """The registration of expectation `e` of claim `rid#claim_id` in `profile`."""
        history_ = self._history(rid)
        if history_ is None:
            return Registration("unknown")
        commits, criteria = history_
        key = _key(e.criterion())
        since = None
        for commit, when in commits:                   # newest first: the unbroken run from HEAD
            if key not in criteria[commit].get(claim_id, ()):
                break
            since = (commit, when)
        if since is None:
            return Registration("uncommitted")
        needed = {n for n in (e.metric, e.ref, e.low, e.high) if isinstance(n, str)}
        # a result holding every metric it names; a ledger entry that judged its metric
        results = [(t, commit) for t, held, from_ledger, commit in self._result_times(analysis, profile)
                   if (e.metric in held if from_ledger else needed <= held)]
        first = min((t for t, _ in results), default=None)
        committed = dt.datetime.fromtimestamp(since[1], dt.UTC)
        if first is None or committed < first:
            state = "pre-registered"
        elif committed > first:
            state = "post hoc"
        else:  # in the same second (git and results keep whole seconds): the commits decide
            tied = [commit for t, commit in results if t == first]
            state = "pre-registered" if all(c and self._holds(since[0], c) for c in tied) else "post hoc"
        return Registration(state, since[0], _iso(since[1]),
                            first.isoformat(timespec="seconds") if first else None)

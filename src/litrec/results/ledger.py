"""The ledger of judgements: every run that judges a claim leaves one entry, and none is rewritten.

A result keeps only the expectations it was last judged against; the ledger
keeps every judgement. Each run that computes an analysis's result judges the
claims it checks and appends one entry per claim to

    results/<analysis>/<profile>.history.jsonl

one JSON object per line (the format is in site/writing-records.md): when, the git
commit of the records and code and whether they differed from it (`dirty`),
the expectations' text and hash, the verdict and the numbers that decided it,
the content hash of the result judged. Each entry holds the SHA-256 of the
line before it (`prev`; null on the first line), so an entry edited, removed
or inserted breaks the chain, and entries cut from the end leave the stored
result (which names its ledger, `history`) without its judgement: `history_problems` (run by `litrec validate`)
says where. A result also holds the ledger's head as the run found it (`ledger`:
entries and the hash of the last line, `anchor`), sealed with it: rewriting any
earlier judgement and re-chaining every line after it (what `line_hash` alone
allows anyone to do) no longer meets that hash. Every claim a result checks
must have its entry. The result's own entries come after its anchor; a
signature covers them (`judged_through`), so only a signed result's judgement is
proof against a re-chained rewrite. An append rewrites the file in one rename, so a
failed write leaves no torn line; a torn tail found (no final newline) is dropped
with a warning before the new entries are chained. The file is committed beside
the result; the result's fingerprint never reads it, so appending to it leaves a result as
current as it was.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from litrec.records.criteria import base_claim
from litrec.util import jsonread
from litrec.util.atomic import leftovers, rewrite_file
from litrec.util.canonical import canonical_json
from litrec.util.diagnostics import Diagnostic
from litrec.util.formatting import excerpt

Status = Any  # a `litrec.verdicts.claims.ClaimStatus` (not imported: it imports this module)

if TYPE_CHECKING:
    from litrec.records.project import Project
    from litrec.results.state import ResultState

FORMAT = 1
SUFFIX = ".history.jsonl"
TRACKED = ("records", "analysis")  # what a judgement rests on: its `dirty` asks of these
NUMBERS = ("expectation", "decision", "measured", "interval", "n", "direction", "precondition")


def history_path(results_dir: Path, name: str, profile: str) -> Path:
    """results/<analysis>/<profile>.history.jsonl."""
    return Path(results_dir) / name / f"{profile}{SUFFIX}"


def line_hash(line: str) -> str:
    """The SHA-256 of one line of the ledger, without its newline: the next entry's `prev`."""
    return hashlib.sha256(line.encode("utf-8")).hexdigest()


def entry(st: Status, result: dict, git: dict, expectations: dict | None,
          when: dt.datetime | None = None) -> dict:
    """One judgement of a claim, before it is chained (`append` adds `entry` and `prev`)."""
    when = when or dt.datetime.now(dt.UTC)
    return {
        "format": FORMAT,
        "when": when.isoformat(timespec="seconds"),
        "claim": st.claim,
        "analysis": st.analysis,
        "profile": st.profile,
        "commit": (git or {}).get("commit"),
        "dirty": (git or {}).get("dirty"),
        "expectations": {"text": list((expectations or {}).get("text") or []),
                         "hash": (expectations or {}).get("hash")},
        "verdict": st.verdict,
        "reason": st.reason,
        "numbers": [{k: getattr(o, k) for k in NUMBERS} for o in st.outcomes],
        "seeds": st.seeds,
        # the experiment it judged: the analysis's settings (its config without the seed) and
        # code, so that a setting changed after a judged result is an event (`litrec.verdicts.events`)
        "settings": {k: v for k, v in (result.get("config") or {}).items() if k != "seed"}
        if isinstance(result.get("config"), dict) else None,
        "code_hash": result.get("code_hash"),
        "result": result.get("content_hash"),
    }


def record(proj: Project, results_dir: Path, name: str, profile: str, state: ResultState,
           expectations: dict[str, dict], statuses: list[Status],
           warn: Callable[[str], None] | None = None) -> None:
    """Append the judgement of every claim a new result checks (`statuses`, judged by the caller
    on that result; `expectations` as the result stores them, per claim) to its ledger, an
    entry per row (a claim's extension row too); `warn` hears of a torn tail dropped (`append`).
    The runner calls it with the results folder locked."""
    from litrec.util.git import commit_of

    if not expectations or state.result is None:
        return
    git = commit_of(proj.records_dir.parent, TRACKED) or {}
    append(results_dir, name, profile,
           [entry(st, state.result, git, expectations.get(base_claim(st.claim))) for st in statuses],
           warn)


def anchor(results_dir: Path, name: str, profile: str) -> dict:
    """The ledger as a new result finds it, for the result to hold (`ledger`): how many entries
    it has and the hash of its last line (null when empty). Sealed in the result (and signed
    with it), it pins every judgement before the result's own: a line cut, edited or re-chained
    up to there no longer ends at this hash. The caller holds the results folder's lock."""
    count, last = _last_line(history_path(results_dir, name, profile))
    return {"entries": count, "head": None if last is None else line_hash(last)}


def judged_through(result_file: Path, result: dict) -> bytes:
    """The ledger's bytes up to and including the last entry that judges `result` (by its
    content hash): what a signature covers beside the result, so that the judgement of a signed
    result cannot be rewritten, even re-chained, without breaking the signature; entries
    appended by later runs leave it whole. Empty for a result that names no ledger."""
    if not (isinstance(result, dict) and result.get("history") == f"{result_file.stem}{SUFFIX}"
            and isinstance(result.get("content_hash"), str)):
        return b""
    try:
        raw = (result_file.parent / result["history"]).read_bytes()
    except OSError:
        return b""
    mark = f'"result":"{result["content_hash"]}"'.encode()
    lines = raw.splitlines(keepends=True)
    last = max((i for i, line in enumerate(lines) if mark in line), default=-1)
    return b"".join(lines[:last + 1])


def _whole(path: Path) -> tuple[bytes, bytes]:
    """(the ledger's whole lines, its torn tail): the bytes after the last newline, which only a
    write that failed part-way leaves (every entry is written with its newline). Both empty when
    there is no ledger."""
    try:
        raw = path.read_bytes()
    except (FileNotFoundError, NotADirectoryError):  # no ledger (or no folder) yet
        return b"", b""
    cut = raw.rfind(b"\n") + 1
    return raw[:cut], raw[cut:]


def _last_line(path: Path) -> tuple[int, str | None]:
    """(number of whole lines, the last of them) of the ledger; (0, None) when there is none.
    A torn tail (`_whole`) is no line: `append` drops it before it chains a new entry."""
    lines = _whole(path)[0].decode("utf-8").splitlines()
    return len(lines), (lines[-1] if lines else None)


def append(results_dir: Path, name: str, profile: str, entries: list[dict],
           warn: Callable[[str], None] | None = None) -> Path:
    """Append `entries` to the analysis's ledger, each chained to the line before it.

    The ledger is rewritten whole, its old lines byte for byte and the new ones after them, in
    one rename (`litrec.util.atomic.rewrite_file`): a write that fails part-way leaves the old ledger
    as it was, never a torn line. A torn tail an earlier writer left (bytes after the last
    newline) is dropped first, and `warn` is told what was dropped and where; the new entries
    chain to the last whole line, as the result's anchor (`anchor`) did. The caller holds the
    results folder's lock (`litrec.results.store.locked`).
    """
    path = history_path(results_dir, name, profile)
    kept, torn = _whole(path)
    count, last = _last_line(path)
    lines = []
    for i, e in enumerate(entries):
        chained = {"entry": count + i + 1, "prev": None if last is None else line_hash(last), **e}
        last = canonical_json(_no_nan(json.loads(json.dumps(chained, default=str))))
        lines.append(last)
    if not lines:
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    for stale in leftovers(path):  # a writer killed between its write and its rename (we hold the lock)
        stale.unlink(missing_ok=True)
    rewrite_file(path, kept + "".join(line + "\n" for line in lines).encode("utf-8"))
    if torn:
        said = (f"{path}:{count + 1}: dropped a torn last line ({len(torn)} bytes without a newline, "
                f"left by a write that failed part-way: {excerpt(torn.decode('utf-8', 'replace'), 60)}); "
                f"the {count} entries before it are kept and this run's judgements follow them")
        (warn or warnings.warn)(said)
    return path


def _no_nan(value: Any) -> Any:
    """NaN and infinities (not JSON) as null."""
    if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
        return None
    if isinstance(value, dict):
        return {k: _no_nan(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_no_nan(v) for v in value]
    return value


def read_history(results_dir: Path, name: str, profile: str, claim: str | None = None) -> list[dict]:
    """The ledger's entries (of `claim` only, when given), oldest first; what does not parse is left out."""
    try:
        text = history_path(results_dir, name, profile).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    out = []
    for line in text.splitlines():
        try:
            e = jsonread.loads(line)
        except ValueError:
            continue
        if isinstance(e, dict) and (claim is None or e.get("claim") == claim):
            out.append(e)
    return out


def history_problems(results_dir: Path, display=str) -> list[Diagnostic]:
    """An error, located by line and field, for every ledger under `results_dir` that was rewritten."""
    root = Path(results_dir)
    out: list[Diagnostic] = []
    if not root.is_dir():
        return out
    broken = set()
    for path in sorted(root.glob(f"*/*{SUFFIX}")):
        problem = _chain_problem(path)
        if problem is not None:
            broken.add(path)
            line, col, field, message = problem
            out.append(Diagnostic(display(path), line, col, field, message, "history-rewritten"))
    for path in sorted(root.glob("*/*.json")):
        if path.with_name(path.stem + SUFFIX) in broken:
            continue  # its chain's break is the error to fix first
        unrecorded = _unrecorded(path)
        if unrecorded is not None:
            where, line, message = unrecorded
            out.append(Diagnostic(display(where), line, 1, "", message, "history-rewritten"))
    return out


def _unrecorded(result_path: Path) -> tuple[Path, int, str] | None:
    """A result that names its ledger (`history`, written by a run that records its judgements)
    with no entry of that ledger for it: the end was cut, or the file removed."""
    try:
        result = jsonread.loads(result_path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None  # a damaged result is `litrec.results.state.modified_results`'s to report
    if not (isinstance(result, dict) and result.get("history") == f"{result_path.stem}{SUFFIX}"
            and isinstance(result.get("content_hash"), str)):
        return None
    path = result_path.parent / f"{result_path.stem}{SUFFIX}"
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return path, 1, (f"missing: {result_path.name} was judged when it was written, and its "
                         f"judgement is not here; {FIX}")
    except (OSError, UnicodeDecodeError):
        return None  # said by the chain check
    found = text.count("\n") or 1
    if f'"result":"{result["content_hash"]}"' not in text:
        return path, found, (f"no entry judges the stored result {result_path.name} (content hash "
                             f"{result['content_hash'][:16]}…): entries were cut from its end ({FIX}), or the run "
                             "that wrote the result was killed before it recorded its judgement "
                             "(rerun the analysis with --force)")
    lines = text.splitlines()
    held = result.get("ledger")
    if isinstance(held, dict) and isinstance(held.get("entries"), int) and held["entries"] >= 0:
        n, head = held["entries"], held.get("head")
        if n > len(lines):
            return path, len(lines) or 1, (f"{result_path.name} was written when this ledger had {n} "
                                           f"entries; it has {len(lines)}: entries were cut; {FIX}")
        if n and line_hash(lines[n - 1]) != head:
            return path, n, (f"line {n} is not the line {result_path.name} recorded as the ledger's "
                             f"head when it was written ({str(head)[:16]}…): the history up to there "
                             f"was rewritten (an entry edited, cut or inserted, and re-chained); {FIX}")
        if n == 0 and head is not None:
            return path, 1, f"{result_path.name} recorded a ledger head where it found none; {FIX}"
    claims = result.get("expectations")
    if isinstance(claims, dict):
        judged = set()
        for line in lines:
            if f'"result":"{result["content_hash"]}"' in line:
                try:
                    e = jsonread.loads(line)
                except ValueError:
                    continue
                if isinstance(e, dict) and isinstance(e.get("claim"), str):
                    judged.add(base_claim(e["claim"]))
        missing = sorted(c for c in claims if isinstance(c, str) and c not in judged)
        if missing:
            return path, found, (f"no entry judges {', '.join(missing)} on the stored result "
                                 f"{result_path.name}, which checks {'them' if len(missing) > 1 else 'it'}: "
                                 f"entries were cut ({FIX}), or rerun the analysis with --force")
    return None


FIX = ("the history is append-only: restore it from git (git checkout -- FILE, or git log -p FILE "
       "to find the rewrite)")


def _chain_problem(path: Path) -> tuple[int, int, str, str] | None:
    """(line, column, field, message) of the first place the ledger's chain breaks; None if whole."""
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        return 1, 1, "", f"not UTF-8 text ({exc.reason}); {FIX}"
    except OSError as exc:
        return 1, 1, "", f"cannot be read ({exc.strerror or exc})"
    if text and not text.endswith("\n"):
        return text.count("\n") + 1, 1, "", f"the last line is cut short (no newline); {FIX}"
    prev_line: str | None = None
    for i, line in enumerate(text.splitlines(), start=1):
        try:
            e = jsonread.loads(line)
        except ValueError as exc:
            return i, 1, "", f"not a JSON object ({exc}); {FIX}"
        if not isinstance(e, dict):
            return i, 1, "", f"not a JSON object; {FIX}"
        want = None if prev_line is None else line_hash(prev_line)
        if e.get("prev") != want:
            found = "null" if e.get("prev") is None else repr(str(e.get("prev"))[:16] + "…")
            wanted = "null (the first entry)" if want is None else f"'{want[:16]}…' (the hash of line {i - 1})"
            col = line.find('"prev"') + 1 or 1
            return i, col, "prev", (f"found {found}, expected {wanted}: line {i - 1 if i > 1 else i} "
                                    f"was edited, removed or inserted after it was written; {FIX}")
        if e.get("entry") != i:
            col = line.find('"entry"') + 1 or 1
            return i, col, "entry", f"found {e.get('entry')!r}, expected {i}; {FIX}"
        prev_line = line
    return None

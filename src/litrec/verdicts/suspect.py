"""Suspect links: a record that rests on a claim or record knows when what it rests on moved.

A note *uses* a claim, is a *reading of* a paper, a theory *has a source* in a
note (`source_of`, seen from the theory): the dependent record was written
against what the other said and how it stood then. `litrec review ID` records,
per link of ID that it rests on, what the target was at that moment:

- a claim: a hash of its statement, and its verdict (at the first of the project's
  scales, `litrec.analyses.scales`: that of the committed results);
- a record: a hash of its title, summary and claims' statements, their
  verdicts, and what *it* rests on, recursively, so a verdict that moves under
  a note makes the theory that rests on the note suspect too.

The review file is `reviews.yaml` at the project root (beside `records/`),
plain data written only by litrec and committed with the records: it is the
project's review state. The first `litrec validate` of a project without one
records a baseline (`baseline`: every record's links as they stand then), so
suspect links work from the first commit; a record or link added later gets its
entry the first time `validate` sees it (`litrec.verdicts.baseline`), and only
`litrec review` renews an entry, one command at a time; a file git holds that the work tree lacks
is restored from git, never made anew (`litrec.verdicts.reviewfile`). When a
target's statement or verdict no longer matches, the link is *suspect*: `litrec
validate` warns (an error with `--strict`) and says what moved; `litrec status`
marks the claims it runs into or out of (`suspects`) and counts them as warnings;
`litrec validate --format json`, `status --format json` and `litrec export json`
list it; the site marks the records and claims. A link with no entry that validate
could not record is *unreviewed* (a note, shown with `--verbose`). Reviewing the dependent record
again clears it. Nothing here runs an analysis: verdicts come from the stored
results.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from litrec.util.canonical import canonical_json
from litrec.verdicts.fingerprints import Fingerprints
from litrec.verdicts.reading import Reading, project_reading
from litrec.verdicts.reviewfile import LostReviews, locked_reviews, lost_reviews

if TYPE_CHECKING:
    from litrec.records.project import Project

REVIEWS = "reviews.yaml"
HEADER = ("# Written by litrec (the project's first `litrec validate`, then `litrec review ID`):\n"
          "# what each record's links rested on when it was last reviewed (a claim's statement\n"
          "# hash and verdict; a record's content hash). Commit it; do not edit it: `litrec\n"
          "# validate` marks a link suspect when its target moved since.\n")


@dataclass
class LinkReview:
    """One dependency's review state: reviewed, suspect (with what moved) or unreviewed."""

    record: str
    target: str
    rel: str
    state: str
    moved: list[str] = field(default_factory=list)
    holder: str = ""
    loc: tuple = ()
    claims: list[str] = field(default_factory=list)  # a record target: its claims whose verdict moved

    def fields(self) -> dict:
        """Every field, as `dataclasses.asdict` gives them (lists copied) at a tenth of its cost
        (its deep copy of each value): how the suspect check's answer is kept."""
        return {"record": self.record, "target": self.target, "rel": self.rel, "state": self.state,
                "moved": list(self.moved), "holder": self.holder, "loc": tuple(self.loc),
                "claims": list(self.claims)}

    def to_json(self) -> dict:
        """As `validate --format json` and `export json` give it."""
        return {"record": self.record, "target": self.target, "rel": self.rel,
                "state": self.state, "moved": self.moved}


def reviews_path(records_dir: Path) -> Path:
    """`reviews.yaml` beside the records folder."""
    return Path(records_dir).resolve().parent / REVIEWS


@dataclass(frozen=True)
class ReviewProblem:
    """Why the review file, or one of its entries, cannot be trusted: where and what (the
    message names the fix)."""

    line: int
    col: int
    message: str


REMEDY = ("reviews.yaml is written by litrec: after a merge, keep the lines of both sides (one "
          "line per target) and remove the conflict markers; else restore it from git, or delete "
          "it and run `litrec review` with every record that rests on another, for a new baseline "
          "(every link reviewed as it stands)")
_FIELDS = {"content": str, "statement": str, "verdict": str, "verdicts": dict}
# The review file grows with the project (about 180 bytes and 5 values a link): limits far above
# a record's, so a project of 100,000 records and their links is read, a runaway file is not.
REVIEWS_MAX_BYTES = 64 * 1024 * 1024
REVIEWS_MAX_VALUES = 5_000_000


_UNREAD = object()


def _fast_reviews(raw: bytes) -> Any:
    """The review file read as `dump` writes it (a record id a line, then each target and what
    it rested on as one JSON mapping a line: YAML whose every value JSON reads the same), ten
    times faster than YAML's parse of a large project's file; `_UNREAD` for anything else (a
    comment out of place, a hand edit, a duplicate, a value that is not text), which YAML then
    reads, located, as before."""
    if len(raw) > REVIEWS_MAX_BYTES:
        return _UNREAD
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return _UNREAD
    out: dict[str, dict] = {}
    current: dict | None = None
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        try:
            if line.startswith("  ") and current is not None:
                key, _, value = line[2:].partition(": ")
                target, seen = json.loads(key), json.loads(value)
                if not isinstance(target, str) or target in current or not _text_only(seen):
                    return _UNREAD
                current[target] = seen
            elif line.endswith(":") and line.startswith('"'):
                rid = json.loads(line[:-1])
                if not isinstance(rid, str) or rid in out:
                    return _UNREAD
                current = out[rid] = {}
            else:
                return _UNREAD
        except ValueError:
            return _UNREAD
    if any(not targets for targets in out.values()):  # YAML reads an empty one as null
        return _UNREAD
    return out or None


def _text_only(value: Any) -> bool:
    """A mapping whose every value is text or such a mapping (as `dump` writes them)."""
    return isinstance(value, dict) and all(
        isinstance(k, str) and (isinstance(v, str) or _text_only(v)) for k, v in value.items())


def read_reviews(path: Path) -> tuple[dict[str, dict[str, dict]], ReviewProblem | None]:
    """The review file's entries by record and target, and why it cannot be read (or None)."""
    try:
        raw = Path(path).read_bytes()
    except FileNotFoundError:
        return {}, None
    except OSError as exc:
        return {}, ReviewProblem(1, 1, f"cannot read the file: {exc.strerror}")
    from litrec.util.yamlsafe import YamlProblem, load_bytes  # PyYAML: only with a review file

    marker = next((i for i, ln in enumerate(raw.splitlines(), 1)
                   if ln.startswith((b"<<<<<<< ", b"=======", b">>>>>>> "))), None)
    if marker is not None:
        return {}, ReviewProblem(marker, 1, f"a merge left its conflict markers in the file; {REMEDY}")
    data = _fast_reviews(raw)
    if data is _UNREAD:  # located, with the records' limits on size, depth, tags and aliases
        try:
            data = load_bytes(raw, max_bytes=REVIEWS_MAX_BYTES, max_nodes=REVIEWS_MAX_VALUES,
                              what="the review file").data
        except YamlProblem as p:
            return {}, ReviewProblem(p.line or 1, p.col or 1, f"{p.message}; {REMEDY}")
    if data is None:
        return {}, None
    if not isinstance(data, dict) or not all(
            isinstance(v, dict) and all(isinstance(x, dict) for x in v.values())
            for v in data.values()):
        return {}, ReviewProblem(1, 1, "not what `litrec review` writes (a mapping of record ids to "
                                       f"targets); {REMEDY}")
    return data, None


def review_entry_problems(path: Path, reviews: dict) -> list[ReviewProblem]:
    """Each entry of a readable review file that is not what litrec writes (a field it does not
    write, a value of another type, a verdict no judge gives), located: an edit by hand. The
    entry still counts (a changed value makes its link suspect), so nothing is lost."""
    from litrec.util.formatting import excerpt
    from litrec.util.yamlsafe import LazyRoot, locate
    from litrec.verdicts.claims import VERDICTS

    root = LazyRoot(str(path))
    out = []

    def bad(loc: tuple, what: str) -> None:
        line, col = locate(root, loc)
        out.append(ReviewProblem(line, col, f"{loc[0]} → {loc[1]}: {what}; reviews.yaml is written "
                                            f"by litrec, not by hand: restore the line from git, or "
                                            f"`litrec review {loc[0]}` records it anew"))

    for rid, targets in reviews.items():
        for target, seen in targets.items():
            for name, value in seen.items():
                kind = _FIELDS.get(name)
                if kind is None:
                    bad((rid, target, name), f"'{excerpt(str(name))}' is no field litrec writes "
                                             f"({', '.join(_FIELDS)})")
                elif not isinstance(value, kind):
                    bad((rid, target, name), f"{name} should be a {'mapping' if kind is dict else 'text'}, "
                                             f"found {excerpt(repr(value), 60)}")
                elif name == "verdict" and value not in VERDICTS:
                    bad((rid, target, name), f"{excerpt(repr(value), 60)} is no verdict litrec "
                                             f"gives ({', '.join(VERDICTS)})")
                elif name == "verdicts":
                    for cid, v in value.items():
                        if not isinstance(v, str) or v not in VERDICTS:
                            bad((rid, target, name, cid), f"{excerpt(repr(v), 60)} is no verdict "
                                                          f"litrec gives ({', '.join(VERDICTS)})")
    return out


def link_reviews(proj: Project, results_dir: Path, profile: str | None = None,
                 reviews: dict | None = None) -> list[LinkReview]:
    """Every dependency with its review state, against the review file (or `reviews`)."""
    if reviews is None:
        reviews, _ = read_reviews(reviews_path(proj.records_dir))
    return judge_links(project_reading(proj, results_dir, profile), reviews)


def judge_links(reading: Reading, reviews: dict) -> list[LinkReview]:
    """Every dependency of `reading` with its review state against `reviews` (the review
    file's entries)."""
    prints = Fingerprints(reading)
    out = []
    for d in reading.deps:
        stored = (reviews.get(d.record) or {}).get(d.target)
        review = LinkReview(d.record, d.target, d.rel, "unreviewed", holder=d.holder, loc=d.loc)
        if stored is not None:
            now = prints.of(d.target)
            review.moved = moved(d.target, stored, now)
            review.state = "suspect" if review.moved else "reviewed"
            was = stored.get("verdicts") if isinstance(stored.get("verdicts"), dict) else {}
            review.claims = sorted(c for c in set(was) | set(now.get("verdicts") or {})
                                   if was.get(c) != (now.get("verdicts") or {}).get(c))
        out.append(review)
    return out


def moved(target: str, was: dict, now: dict) -> list[str]:
    """What changed in `target` between its review (`was`) and now, in words."""
    out = []
    if "verdict" in now and was.get("verdict") != now["verdict"]:
        out.append(f"its verdict moved from {was.get('verdict') or '(none)'} to {now['verdict']}")
    if "statement" in now and was.get("statement") != now["statement"]:
        out.append("its statement changed")
    if "content" in now and was.get("content") != now["content"]:
        before = was.get("verdicts")
        before = before if isinstance(before, dict) else {}
        after = now.get("verdicts") or {}
        for cid in sorted(set(before) | set(after)):
            if before.get(cid) != after.get(cid):
                out.append(f"{cid}'s verdict moved from {before.get(cid) or '(none)'} to "
                           f"{after.get(cid) or '(none)'}")
        if not out:
            out.append("its text, a claim's statement or what it rests on changed")
    return out


def review(proj: Project, results_dir: Path, record_ids: list[str],
           profile: str | None = None) -> tuple[Path, dict[str, int]]:
    """Record what each of `record_ids` rests on now; (the review file, links per record)."""
    return write_reviews(reviews_path(proj.records_dir), project_reading(proj, results_dir, profile),
                         record_ids)


def write_reviews(path: Path, reading: Reading, record_ids: list[str]) -> tuple[Path, dict[str, int]]:
    """`review` of what `reading` says, into the review file `path`, read and written under the
    project's review lock (`locked_reviews`), so that two reviews at once both land. A file git
    holds that the work tree lacks (`lost_reviews`) is refused, unless `record_ids` name every
    record that rests on another: a new baseline asked for by name."""
    with locked_reviews(path):
        return _write_reviews(path, reading, record_ids)


def _write_reviews(path: Path, reading: Reading, record_ids: list[str]) -> tuple[Path, dict[str, int]]:
    from litrec.util.atomic import replace_file
    from litrec.util.diagnostics import PathDisplay
    from litrec.util.errors import InputError

    reviews, problem = read_reviews(path)
    if problem is not None:  # rewriting it would lose every other record's reviews
        raise InputError(f"{PathDisplay()(path)}:{problem.line}:{problem.col}: {problem.message}. "
                         "Nothing was written")
    resting = sorted({d.record for d in reading.deps})
    lost = lost_reviews(path) if set(resting) - set(record_ids) else None
    if lost is not None:  # writing it would lose every other record's reviews, unseen
        raise InputError(f"{PathDisplay()(path)}:1:1: {lost}; or, to start again from every link "
                         f"as it stands now, review every record that rests on another: litrec "
                         f"review {' '.join(resting)}. Nothing was written")
    prints = Fingerprints(reading)
    counts = {}
    for rid in record_ids:
        targets = prints.deps.get(rid, [])
        reviews[rid] = {t: prints.of(t) for t in targets}
        counts[rid] = len(targets)
        if not targets:
            reviews.pop(rid)
    replace_file(path, dump(reviews).encode("utf-8"))
    return path, counts


def baseline(proj: Project, results_dir: Path) -> tuple[Path, int, int] | None:
    """Record what every record rests on now, when the project has no review file yet: (the
    file, records, links), or None when there is a file already or nothing rests on anything
    (the file waits for the first link). `OSError` when the file cannot be written."""
    return record_baseline(reviews_path(proj.records_dir), project_reading(proj, results_dir))


def record_baseline(path: Path, reading: Reading) -> tuple[Path, int, int] | None:
    """`baseline` of what `reading` says, into the review file `path`. `LostReviews` where git
    holds the file the work tree lacks: the project's reviews were recorded, and a new baseline
    would hide every suspect link (`lost_reviews`)."""
    if path.exists() or path.is_symlink():
        return None
    records = sorted({d.record for d in reading.deps})
    if not records:
        return None
    lost = lost_reviews(path)
    if lost is not None:
        raise LostReviews(lost)
    with locked_reviews(path):
        if path.exists() or path.is_symlink():  # written while this one waited
            return None
        _write_reviews(path, reading, records)
    return path, len(records), len(reading.deps)


def suspects(proj: Project, results_dir: Path, reviews: dict | None = None
             ) -> dict[str, list[str]]:
    """Every record and claim a suspect link runs out of or into, each with why (a line per
    link): the record that rests on what moved and its claims; the claim it rests on, or the
    record and, where their verdict moved, the claims of it. Empty without a review file."""
    if reviews is None:
        reviews, _ = read_reviews(reviews_path(proj.records_dir))
    if not reviews:
        return {}
    out: dict[str, list[str]] = {}

    def add(key: str, why: str) -> None:
        if why not in out.setdefault(key, []):
            out[key].append(why)

    for r in link_reviews(proj, results_dir, reviews=reviews):
        if r.state != "suspect":
            continue
        why = (f"{r.record} rests on {r.target} ({r.rel}), which moved since {r.record} was "
               f"last reviewed: {'; '.join(r.moved)}; read it again, then "
               f"`litrec review {r.record}`")
        rec = proj.records.get(r.record)
        out_of = [r.record] + [f"{r.record}#{c.id}" for c in getattr(rec, "claims", None) or ()]
        into = [r.target] + [f"{r.target}#{c}" for c in r.claims if "#" not in r.target]
        for key in out_of + into:
            add(key, why)
    return out


def review_records(records_dir: Path, analysis_dir: Path | None, results_dir: Path,
                   record_ids: list[str]) -> tuple[Path, dict[str, int]]:
    """`litrec review` below the command: `review` in the valid project, each id named once
    (`UsageError` for an id that is no record, with the closest one)."""
    import difflib

    from litrec.records.load import load_valid_project
    from litrec.util.errors import UsageError

    proj = load_valid_project(records_dir, analysis_dir)
    for rid in record_ids:
        if rid not in proj.records:
            close = difflib.get_close_matches(rid, sorted(proj.records), n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            raise UsageError(f"no record '{rid}'{hint}")
    return review(proj, results_dir, list(dict.fromkeys(record_ids)))


def dump(reviews: dict) -> str:
    """The review file's text: sorted, one target per line."""
    lines = [HEADER]
    for rid in sorted(reviews):
        lines.append(f"{json.dumps(rid)}:\n")
        for target in sorted(reviews[rid]):
            seen = canonical_json(reviews[rid][target], compact=False)
            lines.append(f"  {json.dumps(target)}: {seen}\n")
    return "".join(lines)

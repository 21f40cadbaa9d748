"""`litrec validate` below the command: every problem of the project, found at once.

`validation_report` checks the collection (`litrec.records.validate`), then, when
the project has a results folder, that its files are as litrec wrote them and
that its ledgers read, and that each stored number a record's prose cites is in its result
(`litrec.verdicts.cited`); and the links whose target moved since their record was
reviewed (`litrec.verdicts.suspect`). A valid project without a review file gets
its baseline here (every link as it stands now, in `reviews.yaml`), so suspect
links work from the first validate on; a record or link added later gets its own
the first time it is validated (`litrec.verdicts.baseline`). Each problem is a `Diagnostic`; `strict`
makes every warning an error. The command prints them.

The suspect check reads the records from what the validation found (each
record's facts, kept by the validation cache: `litrec.verdicts.reading.checked_reading`),
never by loading the project again, and its answer is kept for the next run
(`litrec.cache.linkmemo`) under a key of everything it depends on (`links_key`):
a warm validate parses no record and judges no claim. With the cache off, the
answer is worked out each time; it is the same either way.
"""

from __future__ import annotations

import dataclasses
import functools
import operator
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from litrec.util.confine import need_dir

LINKS_FORMAT = 1  # the shape of the suspect check's kept answer (`_links`)
WHERE = ("file", "line", "col")  # where a kept link is written


@dataclass
class Report:
    """What `litrec validate` found: the checked collection (its diagnostics, with the results'
    and the reviews' added) and every link's review state (empty without a review file)."""

    checked: Any  # litrec.records.validate.Checked
    links: list = dataclasses.field(default_factory=list)  # LinkReview each
    baseline: str | None = None  # the review baseline recorded now, in a line (or why not)

    @property
    def errors(self) -> list:
        """The errors, in the order of their place (file, line, column)."""
        return sorted(self.checked.errors, key=lambda d: (d.path, d.line, d.col))


def validation_report(records: Path, analysis: Path | None = None, results: Path | None = None,
                      *, strict: bool = False, use_cache: bool = True,
                      record_baseline: bool = True) -> Report:
    """Check the project as `litrec validate` does (`results` None: `results` beside the records
    folder, checked when it is there); with `record_baseline`, a valid project without a review
    file gets one, and a link without an entry in it gets its own (`Report.baseline` says
    so). `UsageError` when `records`, or `analysis` when
    named, is not a folder (without it, a records-only repository may lack one)."""
    from litrec.records.validate import check_collection

    need_dir(records, "records")
    if analysis is not None:
        need_dir(analysis, "analysis")
    checked = check_collection(records, analysis, use_cache=use_cache)
    results = results or Path(records).resolve().parent / "results"
    if results.is_dir():  # only then is the results' code loaded
        from litrec.results.ledger import history_problems
        from litrec.results.state import modified_results
        from litrec.util.diagnostics import PathDisplay

        checked.diagnostics.extend(modified_results(results, PathDisplay()))
        checked.diagnostics.extend(history_problems(results, PathDisplay()))
        from litrec.verdicts.cited import cited_problems

        checked.diagnostics.extend(cited_problems(checked.facts(), checked.paths, results,
                                                  PathDisplay()))
    if strict:
        checked.diagnostics = [dataclasses.replace(d, severity="error")
                               if d.severity == "warning" else d for d in checked.diagnostics]
    report = Report(checked)
    if checked.errors:  # the links of records with errors are not judged: those come first
        return report
    from litrec.cache.slots import caching_off
    from litrec.records.validate import default_analysis_dir
    from litrec.verdicts.reading import checked_reading

    folder = Path(analysis) if analysis is not None else default_analysis_dir(records)
    # what the check reads of the records, from what validation found: worked out once, and
    # only when no review file exists yet or the kept answer cannot be used
    reading = functools.cache(lambda: checked_reading(checked, Path(records), folder, results))
    if record_baseline:
        report.baseline = _baseline(records, reading, checked)
    report.links, added = _reviews(records, folder, results, checked, strict, reading,
                                   use_cache and not caching_off(), record_baseline)
    report.baseline = report.baseline or added
    return report


def _baseline(records: Path, reading: Callable[[], Any], checked) -> str | None:
    """Record the review baseline when the project has no review file and some record rests on
    another: what it says, in a line; None when nothing was recorded. Where git holds the
    file the work tree lacks, nothing is recorded and `checked` gets an error at the file,
    naming how to restore it (`litrec.verdicts.reviewfile.lost_reviews`)."""
    from litrec.util.diagnostics import Diagnostic, PathDisplay
    from litrec.verdicts.reviewfile import LostReviews
    from litrec.verdicts.suspect import record_baseline, reviews_path

    path = reviews_path(records)
    if path.exists() or path.is_symlink():  # the usual case: nothing read
        return None
    where = PathDisplay()(path)
    try:
        done = record_baseline(path, reading())
    except LostReviews as exc:
        checked.diagnostics.append(Diagnostic(where, 1, 1, "", str(exc), "reviews", "error"))
        return None
    except OSError as exc:
        return (f"no review baseline: cannot write {where}: {exc.strerror}; suspect links are "
                "off until it can be written (litrec review ID)")
    if done is None:
        return None
    _, n_records, n_links = done
    return (f"no review baseline yet: recorded what {n_records} record{'s' * (n_records != 1)} "
            f"rest on now ({n_links} link{'s' * (n_links != 1)}) in {where}; commit it: a link "
            "whose target moves from now on is suspect")


def _reviews(records: Path, analysis: Path, results: Path, checked, strict: bool,
             reading: Callable[[], Any], use_cache: bool, new_links: bool = False
             ) -> tuple[list, str | None]:
    """Suspect links, when the project keeps a review file (reviews.yaml): a warning each at the
    link, an information note for each link never reviewed; empty without the file. With
    `new_links`, a link with no entry in the file (a record or link added since) gets its
    baseline first (`litrec.verdicts.baseline`): (the links, the line that says so, or None)."""
    from litrec.util.diagnostics import Diagnostic, PathDisplay, Severity, format_field
    from litrec.verdicts.suspect import reviews_path

    path = reviews_path(records)
    if not path.exists():
        return [], None
    display = PathDisplay()
    known = checked.file_keys()  # the record files validation read: not read again for the key
    found, problems = _links(records, analysis, results, checked.paths, reading, use_cache, known)
    said = None
    if new_links and found is not None and any(r.state == "unreviewed" for r, _ in found):
        said = _new_links(path, reading, display)
        if said is not None and not said.startswith("no review baseline"):  # judged anew
            found, problems = _links(records, analysis, results, checked.paths, reading,
                                     use_cache, known)
    for p in problems:  # the file (no link judged) or an entry of it (the rest judged) not litrec's
        checked.diagnostics.append(Diagnostic(display(path), p.line, p.col, "", p.message, "reviews",
                                              "error" if strict else "warning"))
    if found is None:
        return [], said
    hint = " (an error with --strict)" if not strict else ""
    for r, (file, line, col) in found:
        if r.state == "reviewed":
            continue
        if r.state == "suspect":
            msg = (f"suspect: {r.record} rests on {r.target} ({r.rel}), which moved since "
                   f"{r.record} was last reviewed: {'; '.join(r.moved)}. Read it again, then "
                   f"`litrec review {r.record}`{hint}")
            severity: Severity = "error" if strict else "warning"
        else:
            msg = (f"{r.record} rests on {r.target} ({r.rel}) and was never reviewed against it; "
                   f"`litrec review {r.record}` records what it rests on now")
            severity = "info"
        checked.diagnostics.append(Diagnostic(display(file), line, col, format_field(r.loc), msg,
                                              r.state, severity, record=r.record))
    return [r for r, _ in found], said


def _new_links(path: Path, reading: Callable[[], Any], display) -> str | None:
    """Give each link without an entry in the review file its baseline: the line `validate`
    prints (or why it could not be written), None when nothing was recorded (the file cannot be
    read, or another command recorded them first)."""
    from litrec.verdicts.baseline import baseline_new_links, said

    try:
        added = baseline_new_links(path, reading())
    except OSError as exc:
        return (f"no review baseline for the new links: cannot write {display(path)}: "
                f"{exc.strerror}; they stay unreviewed until it can be written (litrec review ID)")
    return said(added, display(path)) if added else None


def _links(records: Path, analysis: Path, results: Path, paths: dict, reading: Callable[[], Any],
           use_cache: bool, known: dict[str, tuple] | None = None) -> tuple[list | None, list]:
    """(each link's review with where it is written, `(LinkReview, (file, line, col))`, or None
    where the review file cannot be read; the file's problems, `ReviewProblem`s). The links are
    the answer kept by the last run (`litrec.cache.linkmemo`) when nothing it depends on changed
    (`links_key`), else worked out, and kept where the file has no problem (so each validate
    names them until they are mended). `known`: the keys of the record files validation read
    (`litrec.records.validate.Checked.file_keys`), which the key need not read again."""
    from litrec.analyses.memo import data_now
    from litrec.cache import linkmemo
    from litrec.verdicts.suspect import (
        LinkReview,
        judge_links,
        read_reviews,
        review_entry_problems,
        reviews_path,
    )

    root = Path(records).resolve().parent
    key = links_key(records, analysis, results, known) if use_cache else None
    kept = linkmemo.recall(root, key, data_now(root))
    if kept is not None:
        # each row holds exactly LinkReview's fields and WHERE; rows of another shape (a field
        # more, or one less, even one with a default) are never trusted: worked out again
        names = tuple(f.name for f in dataclasses.fields(LinkReview))
        review, where = operator.itemgetter(*names), operator.itemgetter(*WHERE)
        try:
            if all(len(row) == len(names) + len(WHERE) for row in kept.links):
                return [(LinkReview(*review(row)), where(row)) for row in kept.links], []
        except (TypeError, KeyError):
            pass
    stored, problem = read_reviews(reviews_path(records))
    if problem is not None:
        return None, [problem]
    problems = review_entry_problems(reviews_path(records), stored)
    if problems:
        key = None  # not kept: the next validate names them again
    from litrec.util.yamlsafe import LazyRoot, locate

    got = reading()
    roots: dict[str, LazyRoot] = {}
    out = []
    for r in judge_links(got, stored):
        file, line, col = str(paths[r.holder]), 0, 0
        if r.state != "reviewed":  # located for its message only
            line, col = locate(roots.setdefault(file, LazyRoot(file)), r.loc)
        out.append((r, (file, line, col)))
    if key is not None:
        inputs = got.inputs
        answer = linkmemo.Answer(
            [{**r.fields(), **dict(zip(WHERE, where))} for r, where in out],
            sorted({p for i in inputs for p in i.patterns}),
            {f: d for i in inputs for f, d in i.data.items()})
        linkmemo.keep(root, key, answer, again=lambda: links_key(records, analysis, results, known))
    return out, problems


def links_key(records: Path, analysis: Path, results: Path,
              known: dict[str, tuple] | None = None) -> str | None:
    """The key of the suspect check's answer: the key of what a no-op run's verdicts at the
    project's first scale depend on (`litrec.analyses.memo.memo_key`: every file of the three
    folders, the registry and the analyses that declare the scales among them, the packages,
    the interpreter, litrec's source, the commit, the working folder) and the SHA-256 of the
    review file's bytes; None where it cannot be made safely (a link in a folder, a review
    file that cannot be read)."""
    import hashlib

    from litrec.analyses.memo import memo_key
    from litrec.verdicts.suspect import reviews_path

    try:
        raw = reviews_path(records).read_bytes()
    except OSError:
        return None
    # the profile judged is the first scale, which the files of analysis/ (in the key) decide
    run = memo_key(Path(records), Path(analysis), Path(results), "scales[0]", [], known=known)
    return None if run is None else f"links {LINKS_FORMAT} {run} {hashlib.sha256(raw).hexdigest()}"

"""`litrec validate` below the command: every problem of the project, found at once.

`validation_report` checks the collection (`litrec.records.validate`), then, when
the project has a results folder, that its files are as litrec wrote them and
that its ledgers read; and the links whose target moved since their record was
reviewed (`litrec.records.suspect`). A valid project without a review file gets
its baseline here (every link as it stands now, in `reviews.yaml`), so suspect
links work from the first validate on. Each problem is a `Diagnostic`; `strict`
makes every warning an error. The command prints them.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from litrec.util.confine import need_dir


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
    file gets one (`Report.baseline` says so). `UsageError` when `records`, or `analysis` when
    named, is not a folder (without it, a records-only repository may lack one)."""
    from litrec.records.validate import check_collection

    need_dir(records, "records")
    if analysis is not None:
        need_dir(analysis, "analysis")
    checked = check_collection(records, analysis, use_cache=use_cache)
    results = results or Path(records).resolve().parent / "results"
    if results.is_dir():  # only then is the results' code loaded
        from litrec.runs.state import modified_results
        from litrec.util.diagnostics import PathDisplay
        from litrec.verdicts.ledger import history_problems

        checked.diagnostics.extend(modified_results(results, PathDisplay()))
        checked.diagnostics.extend(history_problems(results, PathDisplay()))
    if strict:
        checked.diagnostics = [dataclasses.replace(d, severity="error")
                               if d.severity == "warning" else d for d in checked.diagnostics]
    report = Report(checked)
    if record_baseline and not checked.errors:
        report.baseline = _baseline(records, analysis, results)
    report.links = _reviews(records, analysis, results, checked, strict)
    return report


def _baseline(records: Path, analysis: Path | None, results: Path) -> str | None:
    """Record the review baseline when the project has no review file and some record rests on
    another: what it says, in a line; None when nothing was recorded."""
    from litrec.records.load import load_project
    from litrec.records.suspect import baseline, reviews_path
    from litrec.util.diagnostics import PathDisplay

    where = PathDisplay()(reviews_path(records))
    try:
        done = baseline(load_project(records, analysis), results)
    except OSError as exc:
        return (f"no review baseline: cannot write {where}: {exc.strerror}; suspect links are "
                "off until it can be written (litrec review ID)")
    if done is None:
        return None
    _, n_records, n_links = done
    return (f"no review baseline yet: recorded what {n_records} record{'s' * (n_records != 1)} "
            f"rest on now ({n_links} link{'s' * (n_links != 1)}) in {where}; commit it: a link "
            "whose target moves from now on is suspect")


def _reviews(records: Path, analysis: Path | None, results: Path, checked, strict: bool) -> list:
    """Suspect links, when the project keeps a review file (reviews.yaml): a warning each at the
    link, an information note for each link never reviewed; empty without the file or with
    records that have errors (they are reported first)."""
    from litrec.records.suspect import link_reviews, read_reviews, reviews_path

    path = reviews_path(records)
    if not path.exists() or checked.errors:
        return []
    from litrec.records.load import load_project
    from litrec.records.yamlsafe import LazyRoot, locate
    from litrec.util.diagnostics import Diagnostic, PathDisplay, format_field

    stored, problem = read_reviews(path)
    display = PathDisplay()
    if problem is not None:
        checked.diagnostics.append(Diagnostic(display(path), 1, 1, "", problem, "reviews",
                                              "warning"))
        return []
    full = load_project(records, analysis)
    links = link_reviews(full, results, reviews=stored)
    hint = " (an error with --strict)" if not strict else ""
    for r in links:
        if r.state == "reviewed":
            continue
        file = full.paths[r.holder]
        line, col = locate(LazyRoot(str(file)), r.loc)
        if r.state == "suspect":
            msg = (f"suspect: {r.record} rests on {r.target} ({r.rel}), which moved since "
                   f"{r.record} was last reviewed: {'; '.join(r.moved)}. Read it again, then "
                   f"`litrec review {r.record}`{hint}")
            severity = "error" if strict else "warning"
        else:
            msg = (f"{r.record} rests on {r.target} ({r.rel}) and was never reviewed against it; "
                   f"`litrec review {r.record}` records what it rests on now")
            severity = "info"
        checked.diagnostics.append(Diagnostic(display(file), line, col, format_field(r.loc), msg,
                                              r.state, severity, record=r.record))
    return links

"""Every claim at every scale, at a glance: the rows of `litrec status --format table|csv|md`.

A row per claim and scale (the project's scales, smallest first, then the profile judged
where it is not one of them): the claim, the scale, its verdict there and the metrics its
expectations constrain, the one that decided the verdict first, each as its mean over seeds
with n (a stale result's last numbers too, beside its verdict; none where the result is
missing). `at_every_scale` judges the
claims at each scale once, giving each status its `verdicts` as `with_scales` does, and keeps
every scale's statuses for the rows. `grid_text` writes the rows as CSV (a column per metric
and its n, the numbers in full), a Markdown table or a terminal table cut to the width
(`litrec.util.tables`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from litrec.util.formatting import fmt
from litrec.util.tables import csv_text, markdown_table, terminal_table
from litrec.verdicts.claims import ClaimStatus, claim_statuses, project_scales
from litrec.verdicts.judge import deciding
from litrec.verdicts.words import word

if TYPE_CHECKING:
    from litrec.records.project import Project

GRID_FORMATS = ("table", "csv", "md")


def at_every_scale(proj: Project, results_dir: Path, statuses: list[ClaimStatus], profile: str,
                   registrations=None, states: dict | None = None) -> dict[str, list[ClaimStatus]]:
    """The claims of `statuses` (judged at `profile`) judged at every scale of the project
    too (`states`: scale -> result states known), by scale; each of `statuses` gets its
    `verdicts` at the project's scales, as `litrec.verdicts.claims.with_scales` gives them."""
    scales = project_scales(proj)
    by = {profile: statuses}
    only = {s.claim for s in statuses}
    for scale in scales:
        if scale not in by:
            by[scale] = claim_statuses(proj, results_dir, scale, only=only, registrations=registrations,
                                       states=(states or {}).get(scale))
    verdicts = {scale: {s.claim: s.verdict for s in got} for scale, got in by.items()}
    for s in statuses:
        s.verdicts = {scale: verdicts[scale].get(s.claim) for scale in scales}
    return by


@dataclass(frozen=True)
class Measured:
    """A metric an expectation constrains, as a result measured it: its mean over seeds, and n."""

    metric: str
    mean: Any
    n: int


@dataclass(frozen=True)
class ScaleRow:
    """One claim at one scale: its verdict and the metrics its expectations read."""

    claim: str
    scale: str
    verdict: str
    metrics: tuple[Measured, ...]


def measured(s: ClaimStatus) -> tuple[Measured, ...]:
    """Each metric the claim's outcomes read, once: the one that decided its verdict first
    (`litrec.verdicts.judge.deciding`), then the others in the order of its expectations."""
    seen: dict[str, Measured] = {}
    first = deciding(s.outcomes)
    for o in ([first] if first is not None else []) + list(s.outcomes):
        seen.setdefault(o.metric, Measured(o.metric, o.measured, o.n))
    return tuple(seen.values())


def scale_rows(by_scale: dict[str, list[ClaimStatus]], profile: str,
               scales: tuple[str, ...]) -> list[ScaleRow]:
    """A row per claim (in the order of `profile`'s statuses) and scale (`scales`, then
    `profile` where it is not one of them)."""
    order = [sc for sc in dict.fromkeys([*scales, profile]) if sc in by_scale]
    at = {sc: {s.claim: s for s in by_scale[sc]} for sc in order}
    rows = []
    for s in by_scale[profile]:
        for sc in order:
            got = at[sc].get(s.claim)
            if got is not None:
                rows.append(ScaleRow(s.claim, sc, got.verdict, measured(got)))
    return rows


def _n_cell(row: ScaleRow) -> str:
    """The row's n where its metrics share one (the seeds), else empty: each metric says its own."""
    ns = {m.n for m in row.metrics}
    return str(ns.pop()) if len(ns) == 1 else ""


def _metrics_cell(row: ScaleRow) -> str:
    """`loss_trained 0.202; cos_sensitivity 0.999`, each with its `(n=2)` where they differ."""
    each = not _n_cell(row)
    return "; ".join(f"{m.metric} {fmt(m.mean, True)}" + (f" (n={m.n})" if each else "")
                     for m in row.metrics)


def _raw(v: Any) -> str:
    """A value for a spreadsheet: a number in full, a boolean `true`/`false`, others as JSON."""
    if isinstance(v, bool) or v is None:
        return "" if v is None else str(v).lower()
    if isinstance(v, (int, float, str)):
        return str(v)
    return json.dumps(v, ensure_ascii=False, default=str)


def grid_text(rows: list[ScaleRow], form: str, width: int = 80) -> str:
    """The rows as `form` (`GRID_FORMATS`): `csv` (claim, scale, verdict, then each metric's
    mean and n in columns of their own, in the order first read), `md` or `table` (the metrics
    in one column, after the row's n where they share one; the table fits `width`, a cell too
    wide cut with `…`)."""
    if form == "csv":
        names = list(dict.fromkeys(m.metric for r in rows for m in r.metrics))
        header = ["claim", "scale", "verdict", *(h for n in names for h in (n, f"{n} n"))]
        cells = []
        for r in rows:
            got = {m.metric: m for m in r.metrics}
            cells.append([r.claim, r.scale, word(r.verdict),
                          *(v for n in names for v in ((_raw(got[n].mean), got[n].n) if n in got
                                                       else ("", "")))])
        return csv_text(header, cells)
    header = ["claim", "scale", "verdict", "n", "metrics (mean over seeds)"]
    cells = [[r.claim, r.scale, word(r.verdict), _n_cell(r), _metrics_cell(r)] for r in rows]
    right = (False, False, False, True)
    if form == "md":
        return markdown_table(header, cells, right)
    if form == "table":
        return "\n".join(terminal_table(header, cells, width, right)) + "\n"
    raise ValueError(f"grid_text: no format {form!r}; one of {', '.join(GRID_FORMATS)}")

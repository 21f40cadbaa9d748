"""What a placeholder in a record's prose stands for: the number read from the stored result.

A record cites a stored number as `{{ANALYSIS/PROFILE: METRIC}}` or
`{{ANALYSIS/PROFILE: METRIC per seed}}` (the syntax: `litrec.records.placeholders`).
`StoredNumbers.render` replaces each with the number as it is stored now, in the
words the claim tables use (`litrec.util.formatting.fmt`, 4 significant digits):

- the aggregate: the mean over the result's seeds with the 95% interval of the
  mean (`litrec.verdicts.stats`, as the judge computes it) and the seed count,
  `0.2067 [0.2031, 0.2104] (95%, 3 seeds)`; the value of a result of one run,
  or of a metric that is no number (a list, a flag, a name) where the seeds agree;
- per seed: the values in seed order, `0.2084, 0.2056, 0.2061 (seeds 0-2)`.

Where the number cannot be given the text says so, never a silent blank:
`[no result: ANALYSIS/PROFILE]`, `[modified result: ANALYSIS/PROFILE]` (not what
litrec wrote: never read), `[no metric METRIC in ANALYSIS/PROFILE]`; a number of a
result that is not current is followed by `[stale]`. It computes no number of its
own: the values are the stored per-seed metrics the verdicts judge.

`cited_problems` is `litrec validate`'s check of the placeholders against the stored
results: a warning where a result exists but lacks the metric.
"""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any

from litrec.records.placeholders import prose_fields, scan_placeholders
from litrec.results.state import ResultState, result_state
from litrec.util.diagnostics import Diagnostic, format_field
from litrec.util.formatting import fmt
from litrec.verdicts.judge import MissingMetric, get_metric
from litrec.verdicts.rows import seed_metrics
from litrec.verdicts.stats import summarize


class StoredNumbers:
    """The stored numbers placeholders cite, each result's state asked once.

    `states`: states already known, by `(analysis, profile)` (the site's own profile);
    the others are asked of `litrec.results.state.result_state` when first cited.
    """

    def __init__(self, results_dir: Path, registry: Any = None,
                 states: dict[tuple[str, str], ResultState] | None = None) -> None:
        self.results_dir = Path(results_dir)
        self.registry = registry
        self._states: dict[tuple[str, str], ResultState] = dict(states or {})
        self._versions: dict[str, str | None] = {}

    def state(self, analysis: str, profile: str) -> ResultState:
        """The state of `analysis`'s result at `profile`, asked once."""
        key = (analysis, profile)
        if key not in self._states:
            self._states[key] = result_state(self.registry, self.results_dir, analysis, profile,
                                             self._versions)
        return self._states[key]

    def render(self, text: str | None) -> str | None:
        """`text` with every placeholder replaced by what it cites (a malformed one is left as
        written: `litrec validate` reports it)."""
        if not text or "{{" not in text:
            return text
        out, pos = [], 0
        for f in scan_placeholders(text):
            if f.problem is not None:
                continue
            out.append(text[pos:f.start])
            out.append(self.value(f.analysis, f.profile, f.metric, f.per_seed))
            pos = f.end
        out.append(text[pos:])
        return "".join(out)

    def value(self, analysis: str, profile: str, metric: str, per_seed: bool = False) -> str:
        """What `{{analysis/profile: metric}}` (or `... per seed`) stands for now."""
        where = f"{analysis}/{profile}"
        st = self.state(analysis, profile)
        if st.state == "modified":
            return f"[modified result: {where}]"
        if st.result is None:
            return f"[no result: {where}]"
        per, seeds = seed_metrics(st.result)
        try:
            values = [get_metric(m, metric) for m in per]
        except MissingMetric:
            return f"[no metric {metric} in {where}]"
        text = _per_seed(values, seeds) if per_seed else _aggregate(values)
        return text if st.current else f"{text} [stale]"


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _aggregate(values: list) -> str:
    """The mean with its 95% interval over seeds; one value as it is."""
    if len(values) == 1:
        return fmt(values[0])
    if all(_number(v) for v in values):
        s = summarize(values)
        return f"{fmt(s.mean)} [{fmt(s.low)}, {fmt(s.high)}] (95%, {s.n} seeds)"
    if all(v == values[0] for v in values):
        return fmt(values[0])
    return f"{', '.join(fmt(v) for v in values)} (differs by seed)"


def _per_seed(values: list, seeds: list | None) -> str:
    """The values in seed order, and which seeds."""
    text = ", ".join(fmt(v) for v in values)
    if seeds is None:
        return f"{text} (one run)"
    if len(seeds) == 1:
        return f"{text} (seed {seeds[0]})"
    ints = all(isinstance(s, int) and not isinstance(s, bool) for s in seeds)
    if ints and list(seeds) == list(range(seeds[0], seeds[0] + len(seeds))):
        return f"{text} (seeds {seeds[0]}-{seeds[-1]})"
    return f"{text} (seeds {', '.join(str(s) for s in seeds)})"


def rendered_fields(rec: Any, numbers: StoredNumbers) -> dict[str, str]:
    """Each prose field of a record that cites a stored number, by its field name
    (`claims[2].check.expect[4].note`), rendered (`litrec export json`'s `rendered`)."""
    return {format_field(loc): numbers.render(text) or "" for loc, text in prose_fields(rec)
            if scan_placeholders(text)}


def cited_problems(facts: dict[str, Any], paths: dict[str, Path], results_dir: Path,
                   display) -> list[Diagnostic]:
    """`litrec validate`'s check of the placeholders against the stored results (`facts`: each
    valid record's, `litrec.records.validate.Checked.facts`): a warning at each placeholder
    whose result exists but holds no such metric, a note where no result is stored yet."""
    out: list[Diagnostic] = []
    numbers = StoredNumbers(results_dir)  # no registry: the state is not asked, only the result
    for rid in sorted(facts):
        for analysis, profile, metric, _per, written, loc, line, col in facts[rid].cites:
            st = numbers.state(analysis, profile)
            if st.state == "modified":
                continue  # reported by the results' own check
            where, field = display(paths[rid]), format_field(loc)
            if st.result is None:
                out.append(Diagnostic(
                    where, line, col, field,
                    f"placeholder '{written}' cites a result not stored yet; the site shows "
                    f"[no result: {analysis}/{profile}] until `litrec run {analysis} --profile "
                    f"{profile}`", "placeholder-no-result", "info", rid))
                continue
            per, _ = seed_metrics(st.result)
            try:
                for m in per:
                    get_metric(m, metric)
            except MissingMetric:
                names = sorted(_names(per[0]))
                close = difflib.get_close_matches(metric, names, n=1)
                hint = f" Did you mean '{close[0]}'?" if close else ""
                out.append(Diagnostic(
                    where, line, col, field,
                    f"placeholder '{written}': the stored result {analysis}/{profile} has no "
                    f"metric '{metric}'.{hint} The site shows [no metric {metric} in "
                    f"{analysis}/{profile}]; name a metric the result holds", "placeholder-metric",
                    "warning", rid))
    return out


def _names(metrics: Any, prefix: str = "") -> list[str]:
    """Every dotted metric name of a result's metrics."""
    if not isinstance(metrics, dict):
        return [prefix] if prefix else []
    out = []
    for k, v in metrics.items():
        name = f"{prefix}.{k}" if prefix else str(k)
        out.extend(_names(v, name) if isinstance(v, dict) else [name])
    return out

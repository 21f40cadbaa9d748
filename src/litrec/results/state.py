"""The state of an analysis's stored result: the one place that decides it.

- `current`: the result's fingerprint matches the analysis code, profile and
  package versions as they are now; its numbers are judged;
- `stale`: a result exists but something it was computed from changed since
  (`other_machine` when that is only the CPU it ran on: the project's inputs are
  unchanged, but float32 digits differ between CPUs);
- `missing`: no result for this profile yet;
- `modified`: a file is there but is not what litrec wrote: it does not
  parse as a result, or it no longer matches its own content hash
  (`litrec.results.seal`): edited by hand, a figure swapped, damaged. A result
  whose line ends a checkout converted to CRLF is not modified: its seal still
  holds, and a warning says what was converted and how to restore it.

The runner (what to rerun), the verdicts, `litrec status`, the site and the
export all ask `result_state`; each fingerprint is computed once per command.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from litrec.analyses.inputs import RESULT_FORMAT, Inputs, result_inputs
from litrec.results.resume import progress, under_way
from litrec.results.seal import broken_seal, converted_line_endings
from litrec.results.store import missing_figures, read_result, result_path, stored_profiles
from litrec.util.diagnostics import Diagnostic
from litrec.util.errors import DamagedResult, ProfileError

if TYPE_CHECKING:
    from litrec.analyses.registry import Registry

STATES = ("current", "stale", "missing", "modified")


@dataclass(frozen=True)
class ResultState:
    """Where one analysis's result for one profile stands, and why."""

    name: str
    profile: str
    state: str
    result: dict | None = None
    inputs: Inputs | None = None
    reason: str | None = None
    warnings: tuple[str, ...] = ()  # located: a figure the result lists that is not on disk
    other_machine: bool = False     # stale only because it was computed on another CPU
    # stale or missing, and a rerun of the present inputs is under way: its work kept in the
    # partial folder (`litrec.results.resume.under_way`), in words; `rerun_here`: on this machine's
    # CPU (else the project's inputs on another one: it passes `--any-machine` as other_machine does)
    rerun: str | None = None
    rerun_here: bool = False

    def __post_init__(self):
        assert self.state in STATES, self.state

    @property
    def current(self) -> bool:
        """Whether the stored numbers may be judged."""
        return self.state == "current"


def result_state(registry: Registry | None, results_dir: Path, name: str, profile: str,
                 versions: dict | None = None, fp: Inputs | None = None) -> ResultState:
    """Decide the state of `name`'s result for `profile` (pass `fp` when already computed)."""
    try:
        result = read_result(Path(results_dir), name, profile)
    except DamagedResult as exc:
        return ResultState(name, profile, "modified", reason=f"damaged result: {exc}")
    state = _state(registry, results_dir, name, profile, result, versions, fp)
    if result is not None:
        missing = missing_figures(Path(results_dir), name, profile, result)
        converted = _converted(Path(results_dir), name, profile, result) if state.state != "modified" else []
        if missing or converted:
            state = dataclasses.replace(state, warnings=(*missing, *converted))
    return state


def _converted(results_dir: Path, name: str, profile: str, result: dict) -> list[str]:
    """A located warning when a checkout converted the line ends of a sealed result that is
    intact (`litrec.results.seal.converted_line_endings`)."""
    if result.get("format") != RESULT_FORMAT:
        return []
    path = result_path(results_dir, name, profile)
    words = converted_line_endings(result, results_dir / name, path)
    return [f"{path}:1: {words}"] if words else []


def _state(registry, results_dir, name, profile, result, versions, fp) -> ResultState:
    registered = registry is not None and name in registry.entries
    if fp is None and registered:
        fp = result_inputs(registry, name, profile, versions)
    if result is None:
        unknown = f"; its inputs cannot be known: {'; '.join(fp.problems)}" if fp and fp.problems else ""
        rerun, here = _rerun(results_dir, name, profile, fp)
        said = (f"; a run of the present inputs is under way: {rerun}" if rerun
                else _interrupted(results_dir, name, profile))
        return ResultState(name, profile, "missing", None, fp, f"no {profile} result for '{name}'{unknown}{said}",
                           rerun=rerun, rerun_here=here)
    if fp is None:
        return ResultState(name, profile, "stale", result, None,
                           f"analysis '{name}' is not in the registry")
    if result.get("format") == RESULT_FORMAT:
        broken = broken_seal(result, Path(results_dir) / name)
        if broken:
            path = result_path(Path(results_dir), name, profile)
            return ResultState(name, profile, "modified", result, fp,
                               f"{path}: {broken}; rerun: litrec run {name} --profile {profile} --force")
    if fp.matches(result):
        return ResultState(name, profile, "current", result, fp)
    rerun, here = _rerun(results_dir, name, profile, fp)
    said = f"; a rerun of the present inputs is under way: {rerun}" if rerun else ""
    return ResultState(name, profile, "stale", result, fp, fp.why_stale(result) + said,
                       other_machine=fp.only_machine_differs(result), rerun=rerun, rerun_here=here)


def _rerun(results_dir, name: str, profile: str, fp: Inputs | None) -> tuple[str | None, bool]:
    """A run of the present inputs under way for `name`'s `profile`, in words (None when none), and
    whether it runs on this machine's CPU: its marker's inputs match `fp`, or differ only in the
    machine (`Inputs.only_machine_differs`)."""
    if fp is None or fp.problems:
        return None, False
    run = under_way(Path(results_dir), name, profile)
    if run is None:
        return None, False
    if fp.matches(run.header):
        return run.words(), True
    if fp.only_machine_differs(run.header):
        return f"{run.words()} (on another CPU)", False
    return None, False


def _interrupted(results_dir, name: str, profile: str) -> str:
    """What an interrupted run of `profile` left in its partial folder, in words ('' if nothing):
    the same `litrec run` continues from it where the inputs are unchanged."""
    kept, training = progress(Path(results_dir), name, profile)
    said = ", ".join(p for p in (f"{kept} point{'s' * (kept != 1)} done" if kept else "",
                                 f"{training} under way" if training else "") if p)
    return f" ({said})" if said else ""


def modified_results(results_dir: Path, display=str) -> list[Diagnostic]:
    """An error for every result file under `results_dir` that is not what litrec wrote."""
    out: list[Diagnostic] = []
    root = Path(results_dir)
    if not root.is_dir():
        return out
    for path in sorted(root.glob("*/*.json")):
        name, profile = path.parent.name, path.stem
        try:
            result = read_result(root, name, profile)
        except DamagedResult as exc:
            out.append(Diagnostic(display(path), 1, 1, "", f"modified: {exc}", "result-modified"))
            continue
        if result is None or result.get("format") != RESULT_FORMAT:
            continue  # older results are stale, not modified: `litrec status` says so
        broken = broken_seal(result, root / name)
        if broken:
            out.append(Diagnostic(display(path), 1, 1, "content_hash",
                                  f"modified since litrec wrote it: {broken}; rerun: litrec run "
                                  f"{name} --profile {profile} --force", "result-modified"))
        elif words := converted_line_endings(result, root / name, path):
            out.append(Diagnostic(display(path), 1, 1, "line_endings", words, "line-endings-converted",
                                  severity="warning"))
    return out


def result_states(registry: Registry | None, results_dir: Path, names, profile: str
                  ) -> dict[str, ResultState]:
    """`result_state` of each analysis name, each package's version read once."""
    versions: dict[str, str | None] = {}
    return {n: result_state(registry, results_dir, n, profile, versions) for n in names}


def check_profile(registry: Registry | None, results_dir: Path, profile: str) -> None:
    """ProfileError unless some analysis defines `profile` or a result is stored for it.

    The analyses' profiles are read from their sources (`contract.source_profiles`);
    when one cannot be read so, any profile is let through.
    """
    declared = list(registry.profiles.values()) if registry is not None else []
    sets = [p for p in declared if p is not None]
    if len(sets) != len(declared):  # an analysis's profiles could not be read: any goes
        return
    known = set().union(*sets) | stored_profiles(Path(results_dir))
    if known and profile not in known:
        raise ProfileError(f"--profile: unknown profile '{profile}'; known profiles: "
                           f"{', '.join(sorted(known))} (the analyses' PROFILES and the stored results)")

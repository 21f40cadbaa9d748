"""What the suspect-link check reads of a project: the links that rest on something, each
record's text and each claim's verdict as evidence (`litrec.verdicts.suspect`).

Two sources give the same `Reading`. `project_reading` reads it off a loaded
project's models (`litrec review`, `status`, the site, the export). `checked_reading`
reads it off what `litrec validate` has just found, each valid record's `Facts`
(`litrec.records.filecheck`), which the validation cache keeps per file: the links
and texts come without parsing a record again, and a claim's verdict without its
model where its analysis names none (`unchecked`) or has no result at the profile
(`missing`, the state `litrec.results.state` decides); only the records whose claims a
stored result judges are parsed again, and judged as `litrec.verdicts.claims`
judges them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from litrec.records.project import Project

# relations whose *source* rests on the target, and those whose *target* rests on the source
RESTS_ON = ("uses", "reading_of", "derived_from", "supports", "contradicts")
RESTED_ON_BY = ("source_of",)


@dataclass(frozen=True)
class Dependency:
    """Record `record` rests on `target` (`ID` or `ID#C1`) through the link `rel`."""

    record: str
    target: str
    rel: str
    loc: tuple  # the link's field in the record that holds it (the dependent or, for source_of, the source)
    holder: str  # the record whose file holds the link


def dependencies(proj: Project) -> list[Dependency]:
    """Every link a record rests on, in record and link order."""
    return _dependencies((e.source, e.rel, e.target, e.claim, e.loc) for e in proj.edges)


def _dependencies(links) -> list[Dependency]:
    """The dependencies among `links`, `(source, rel, target, claim or None, loc)` each."""
    out = []
    for source, rel, target, claim, loc in links:
        if rel in RESTS_ON:
            out.append(Dependency(source, f"{target}#{claim}" if claim else target, rel, loc, source))
        elif rel in RESTED_ON_BY and not claim:
            out.append(Dependency(target, source, rel, loc, source))
    return out


def standing(status) -> str:
    """A claim's verdict as evidence: a stale result counts by what its numbers last said."""
    if status is None:
        return "unchecked"
    if status.verdict != "stale":
        return status.verdict
    return status.last_verdict or "stale"  # judged as a current result is: preconditions too


class Reading:
    """What the check reads of a project: the links that rest on something (`deps`), each
    record's text (`text(ID)`: `litrec.records.filecheck.reading_of`, None for no record) and,
    only when a fingerprint first needs them, the claims' verdicts as evidence (`verdicts`:
    claim ref -> `standing`, from `judge()`, which also gives the inputs of the results judged:
    `litrec.analyses.inputs.Inputs` each, what a kept answer depends on beyond the files).

    `project_reading` reads it off loaded models; `checked_reading` off what validation
    found (each record's `Facts`), parsing only the records whose claims a stored result
    judges."""

    def __init__(self, deps: list[Dependency], text: Callable[[str], tuple | None],
                 judge: Callable[[], tuple[dict[str, str], list]]):
        self.deps, self.text, self._judge = deps, text, judge
        self._verdicts: dict[str, str] | None = None
        self.inputs: list = []

    @property
    def verdicts(self) -> dict[str, str]:
        """Each claim's verdict as evidence, worked out once."""
        if self._verdicts is None:
            self._verdicts, self.inputs = self._judge()
        return self._verdicts


def project_reading(proj: Project, results_dir: Path, profile: str | None = None) -> Reading:
    """The reading of a loaded project (its models); its verdicts at `profile` (None: the
    first, smallest of the project's scales, that of the committed results)."""
    from litrec.records.filecheck import reading_of

    def text(rid: str) -> tuple | None:
        rec = proj.records.get(rid)
        return None if rec is None else reading_of(rec)

    def judge() -> tuple[dict[str, str], list]:
        from litrec.verdicts.claims import claim_statuses, project_scales

        at = profile or project_scales(proj)[0]
        return {s.claim: standing(s) for s in claim_statuses(proj, results_dir, at)}, []

    return Reading(dependencies(proj), text, judge)


def checked_reading(checked, records_dir: Path, analysis_dir: Path, results_dir: Path,
                    profile: str | None = None) -> Reading:
    """The reading of a valid project from what `litrec.records.validate.check_collection` found
    (`checked`): the links and texts from each record's facts, which the validation cache
    keeps, so no record is parsed again for them. The verdicts, at `profile` (None: the first
    of the project's scales, as `project_reading`): `unchecked` for a claim that
    names no analysis and `missing` for one whose analysis has no result at it (the
    state `litrec.results.state` decides); the claims whose analysis has a result are judged as
    `litrec.verdicts.claims` judges them, on the models of their records only."""
    facts = checked.facts()
    links = []
    for rid in sorted(facts):  # valid: every link resolved, in the order the checks make edges
        for rel, ref, loc in facts[rid].refs:
            target, _, claim = ref.partition("#")
            links.append((rid, rel, target, claim or None, loc))

    def text(rid: str) -> tuple | None:
        return facts[rid].reading if rid in facts else None

    def judge() -> tuple[dict[str, str], list]:
        verdicts = {f"{rid}#{cid}": "missing" if analysis else "unchecked"
                    for rid, f in facts.items() for cid, analysis, _ in f.claims}
        named = sorted({a for f in facts.values() for _, a, _ in f.claims if a})
        if not named:
            return verdicts, []
        from litrec.analyses.registry import load_registry
        from litrec.results.state import result_states

        registry = load_registry(analysis_dir, [])
        at = profile or registry.scales[0]
        for rid, f in facts.items():  # an analysis without the scale: unchecked there (`claims`)
            for cid, analysis, _ in f.claims:
                known = registry.profiles.get(analysis) if analysis else None
                if known and at not in known:  # an empty PROFILES says nothing of it
                    verdicts[f"{rid}#{cid}"] = "unchecked"
        states = result_states(registry, results_dir, named, at)
        judged = {n for n, st in states.items() if st.state != "missing"}
        need = sorted(rid for rid, f in facts.items() if any(a in judged for _, a, _ in f.claims))
        if need:
            verdicts.update(_judged(need, checked.paths, records_dir, analysis_dir, results_dir,
                                    at, registry, states))
        return verdicts, [states[n].inputs for n in sorted(judged) if states[n].inputs is not None]

    return Reading(_dependencies(links), text, judge)


def _judged(rids: list[str], paths: dict, records_dir: Path, analysis_dir: Path,
            results_dir: Path, profile: str, registry, states: dict) -> dict[str, str]:
    """The verdicts as evidence of the claims of `rids`, judged on their records' models (each
    file parsed again: the cache keeps no model)."""
    from litrec.records import filecheck
    from litrec.records.project import Project
    from litrec.util.confine import project_root
    from litrec.verdicts.claims import claim_statuses

    records, files = {}, {}
    for rid in rids:
        _, model = filecheck.check_file(str(paths[rid]), project_root(records_dir), want_model=True)
        if model is not None and model.id == rid:  # else edited since: the next run sees it
            records[rid], files[rid] = model, Path(paths[rid])
    proj = Project(Path(records_dir), Path(analysis_dir), registry, records=records, paths=files)
    return {s.claim: standing(s) for s in claim_statuses(proj, results_dir, profile, states=states)}

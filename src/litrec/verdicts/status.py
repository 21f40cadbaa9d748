"""`litrec status` below the command: every claim's verdict from the stored results, nothing run.

`judged_project` is the preamble of every command that judges claims (status, export
json and tex): the valid project, once the profile is known to be one an analysis
defines or a result has; `headline_profile` is the profile judged when none is given.
`status` judges every claim at the profile (and at the project's other scales) on the
project it loads once, which the `Status` carries for a command that goes on with it, and
gathers what is wrong with the results: those that cannot be judged, warnings, bad
signatures, and the claims whose result is behind; and the claims a suspect link runs
into or out of (`litrec.verdicts.suspect.suspects`); and, per scale, its results computed on
another machine (`litrec.verdicts.elsewhere.Elsewhere`), said once after the table.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from litrec.verdicts.claims import (
    BEHIND,
    ClaimStatus,
    claim_statuses,
    folder_scales,
    headline,
    project_scales,
    result_problems,
)
from litrec.verdicts.elsewhere import Elsewhere
from litrec.verdicts.grid import at_every_scale

if TYPE_CHECKING:
    from litrec.records.project import Project


def headline_profile(records: Path, analysis: Path | None, results: Path) -> str:
    """The profile `litrec status` and `litrec site` judge at when given none: the project's
    headline scale (`litrec.verdicts.claims.headline` of the scales its registry declares)."""
    return headline(results, folder_scales(records, analysis))


def first_scale(records: Path, analysis: Path | None) -> str:
    """The profile `litrec run` runs when given none: the project's smallest scale (the first of
    the scales its registry declares or its analyses share, `litrec.analyses.scales`)."""
    return folder_scales(records, analysis)[0]


def judged_project(records: Path, analysis: Path | None, results: Path, profile: str) -> Project:
    """The valid project whose claims are judged at `profile` (`InvalidRecords` when a record
    is invalid, `ProfileError` for a profile no analysis defines and no result has)."""
    from litrec.records.load import load_valid_project
    from litrec.results.state import check_profile

    proj = load_valid_project(records, analysis)
    check_profile(proj.registry, results, profile)
    return proj


@dataclass
class Status:
    """Every claim's status, and what is wrong with the stored results (a line each); with the
    valid project they were judged on, for a command that goes on with it (`export`: loaded once)."""

    project: Project
    statuses: list[ClaimStatus]
    errors: list[str] = field(default_factory=list)      # results that cannot be judged
    warnings: list[str] = field(default_factory=list)
    bad_signatures: list[str] = field(default_factory=list)
    suspects: dict[str, list[str]] = field(default_factory=dict)  # claim -> why, a line per link
    elsewhere: list[Elsewhere] = field(default_factory=list)  # per scale: results of another CPU
    # every claim judged at each scale (`litrec.verdicts.grid.at_every_scale`), the profile's first
    scales: dict[str, list[ClaimStatus]] = field(default_factory=dict)

    @property
    def refusals(self) -> list[str]:
        """What `litrec status` exits 1 for, a located line each: a result that is damaged
        (modified since litrec wrote it, its seal broken) or cannot be judged, and a bad
        signature (a missing one too, where signatures are required). The one decision every
        command that publishes verdicts asks (`export json`, `export tex`)."""
        return [*self.errors, *self.bad_signatures]

    @property
    def behind(self) -> list[ClaimStatus]:
        """The claims whose result is not current (stale, missing, modified, in error, or its
        expectations changed since the run): what `--check-current` refuses."""
        return [s for s in self.statuses if s.verdict in BEHIND]

    @property
    def other_machine(self) -> list[ClaimStatus]:
        """The claims stale only because their result was computed on a CPU with other
        features: behind this machine, not behind the project (`--check-current --any-machine`
        lets them pass, as CI on a runner unlike the researcher's machine needs)."""
        return on_other_machine(self.statuses)


def rerun_under_way(statuses: list[ClaimStatus], any_machine: bool = False) -> list[ClaimStatus]:
    """The claims of `statuses` whose result is stale or missing while a rerun of the present
    inputs is under way (points kept or trainings checkpointed in its partial folder, by a run
    on this CPU, or on any with `any_machine`): `status --check-current --under-way` lets them pass,
    as a run of hours committed part by part over several sessions needs."""
    return [s for s in statuses if s.verdict in ("stale", "missing") and s.rerun
            and (s.rerun_here or any_machine)]  # expectations changed too: the rerun judges them


def on_other_machine(statuses: list[ClaimStatus]) -> list[ClaimStatus]:
    """The claims of `statuses` stale only because another CPU computed their result: not one
    whose expectations also changed since its run (`--check-current --any-machine` must never
    let an edited threshold through because the CPU differs)."""
    return [s for s in statuses if s.verdict == "stale" and s.other_machine and not s.expectation_changed]


def status(records: Path, analysis: Path | None, results: Path, profile: str,
           require_signed: bool = False, other_scales: bool = True) -> Status:
    """Judge every claim from the stored results of `profile` (and, with `other_scales`, give
    each its verdict at the other scales too); with `require_signed`, a result without a
    signature is a bad one too."""
    from litrec.results.state import result_states
    from litrec.verdicts.registration import Registrations

    proj = judged_project(records, analysis, results, profile)
    regs = Registrations(proj, results)  # git history read once for every scale
    names = sorted({c.check.analysis for _, c in proj.claims() if c.check is not None})
    scales = list(dict.fromkeys([profile, *(project_scales(proj) if other_scales else ())]))
    states = {scale: result_states(proj.registry, results, names, scale) for scale in scales}
    statuses = claim_statuses(proj, results, profile, registrations=regs, states=states[profile])
    by_scale = at_every_scale(proj, results, statuses, profile, regs, states) if other_scales \
        else {profile: statuses}
    errors, warnings = result_problems(statuses)
    elsewhere = [e for scale in scales if (e := Elsewhere.of(scale, [
        (n, st.reason, (st.result or {}).get("wall_time_s"))
        for n, st in states[scale].items() if st.state == "stale" and st.other_machine]))]
    return Status(proj, statuses, errors, warnings,
                  bad_signatures(statuses, results, profile, require_signed),
                  suspect_claims(proj, results, statuses), elsewhere, by_scale)


def suspect_claims(proj: Project, results: Path, statuses: list[ClaimStatus]
                   ) -> dict[str, list[str]]:
    """The claims of `statuses` that a suspect link runs into or out of, each with why (an
    extension row is litrec's own test: a record rests on the claim, not on it). Empty
    without a review file."""
    from litrec.verdicts.suspect import suspects

    found = suspects(proj, results)
    return {s.claim: found[s.claim] for s in statuses if s.claim in found}


def by_result(statuses: list[ClaimStatus]) -> dict[str, dict]:
    """The provenance of each analysis's result (signature state included), once per analysis,
    in the order of the claims."""
    return {s.analysis: s.provenance for s in statuses if s.analysis and "signature" in s.provenance}


def bad_signatures(statuses: list[ClaimStatus], results: Path, profile: str,
                   require_signed: bool = False) -> list[str]:
    """A located line for each result whose signature does not verify (and, with
    `require_signed`, for each result that has none: a deleted `.sig` is not a pass)."""
    from litrec.results.store import result_path

    out = []
    for name, p in sorted(by_result(statuses).items()):
        where = f"{result_path(results, name, profile)}.sig"
        if p["signature"] == "bad":
            out.append(f"{where}: bad signature: {p.get('signature_problem')}; re-sign it (litrec "
                       f"sign {name} --profile {profile}) if the result is yours as it is, else "
                       "rerun the analysis")
        elif require_signed and p["signature"] == "unsigned":
            out.append(f"{where}: missing: the result is unsigned and signatures are required "
                       f"(--require-signed); sign it: litrec sign {name} --profile {profile}")
    return out

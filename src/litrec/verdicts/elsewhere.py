"""Results computed on another machine, said once: what `litrec run` keeps and `status` tells.

A result stale only because another CPU computed it, or a process with another number of
usable cores (`litrec.results.ResultState.other_machine`: its inputs are otherwise the
project's), keeps its numbers: `litrec run` leaves it as it is unless asked
(`--rerun-other-machine`, or `--force`). Every claim it judges would otherwise repeat the same
words of the machine's difference; `Elsewhere` gathers the results of one scale so that `run`
says in one line what it kept, and `status` once per scale after its table, each with the
command that recomputes them and about how long that would take (the run times they
recorded), and `said_once` cuts each claim's reason to a few words.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from litrec.verdicts.claims import ClaimStatus


# How `litrec.analyses.inputs` words a result stale only for its machine (`Inputs.why_stale`):
# what follows says how the machine differs; said once per scale, not under every claim.
_OTHER_CPU = "computed on another CPU, rerun it here (float32 digits differ between CPUs; "
_OTHER_CORES, _RERUN_HERE = "computed with ", ": rerun it here"
_UNDER_WAY = "; a rerun of the present inputs is under way"


def _machine(reason: str | None) -> tuple[str, str]:
    """`("cpu" or "cores", how the machine differs)` from a result's stale reason."""
    text = (reason or "").partition(_UNDER_WAY)[0]
    if text.startswith(_OTHER_CPU) and text.endswith(")"):
        return "cpu", text[len(_OTHER_CPU):-1]
    if text.startswith(_OTHER_CORES) and _RERUN_HERE in text:
        return "cores", text[len(_OTHER_CORES):text.index(_RERUN_HERE)]
    return "cpu", text


def duration_words(seconds: float) -> str:
    """`40 s`, `25 min`, `3 h 10 min`: a recorded run time, as an estimate reads it."""
    if seconds < 90:
        return f"{max(round(seconds), 1)} s"
    minutes = round(seconds / 60)
    return f"{minutes} min" if minutes < 90 else f"{minutes // 60} h {minutes % 60} min"


@dataclass(frozen=True)
class Elsewhere:
    """The results of one scale computed on another CPU or with another number of usable cores,
    their inputs otherwise unchanged (`litrec.results.ResultState.other_machine`): stale here,
    their numbers standing. `litrec run` keeps them unless asked (`--rerun-other-machine`);
    `status` and `run` say so once, with what recomputing them would take."""

    profile: str
    analyses: tuple[str, ...]
    kinds: tuple[str, ...]       # "cpu", "cores": how the machines differ
    machines: tuple[str, ...]    # each machine's difference in words, once
    seconds: float | None        # their recorded run times, summed (None: none recorded)
    unrecorded: int = 0          # how many recorded none

    @classmethod
    def of(cls, profile: str, found: list[tuple[str, str | None, object]]) -> Elsewhere | None:
        """From `(analysis, stale reason, recorded wall time)` of each such result (None: none)."""
        if not found:
            return None
        by = {name: (reason, wall) for name, reason, wall in found}
        said = [_machine(reason) for reason, _ in by.values()]
        walls = [w for _, w in by.values() if isinstance(w, (int, float)) and not isinstance(w, bool)]
        return cls(profile, tuple(sorted(by)), tuple(dict.fromkeys(k for k, _ in said)),
                   tuple(dict.fromkeys(m for _, m in said if m)), float(sum(walls)) if walls else None,
                   len(by) - len(walls))

    @classmethod
    def of_statuses(cls, profile: str, statuses: list[ClaimStatus]) -> Elsewhere | None:
        """From the claims' statuses alone (what a run answered from its memo has)."""
        return cls.of(profile, [(s.analysis, s.reason, s.provenance.get("wall_time_s"))
                                for s in statuses if s.analysis and s.verdict == "stale" and s.other_machine])

    @property
    def where(self) -> str:
        """`on another CPU`, `with another number of usable cores`, or both."""
        if self.kinds == ("cpu",):
            return "on another CPU"
        if self.kinds == ("cores",):
            return "with another number of usable cores"
        return "on another CPU or with another number of usable cores"

    def rerun(self, targets: tuple[str, ...] = ()) -> str:
        """The command that recomputes them here."""
        return " ".join(["litrec run", *targets, "--profile", self.profile, "--rerun-other-machine"])

    def estimate(self) -> str:
        """`about 25 min, as long as they took there` (empty where no run time was recorded)."""
        if self.seconds is None:
            return ""
        rest = f"; {self.unrecorded} recorded no run time" if self.unrecorded else ""
        return f"about {duration_words(self.seconds)}, as long as they took there{rest}"

    def count(self) -> str:
        """`7 results`."""
        return f"{len(self.analyses)} result{'s' * (len(self.analyses) != 1)}"

    def words(self) -> str:
        """What `status` says once of them, after its table."""
        were = "was" if len(self.analyses) == 1 else "were"
        cost = f" ({self.estimate()})" if self.seconds is not None else ""
        return (f"{self.count()} {were} computed {self.where} ({'; '.join(self.machines)}): "
                f"{', '.join(self.analyses)}; their numbers stand, shown stale and not judged here; "
                f"recompute them here: {self.rerun()}{cost}")

    def kept_words(self, targets: tuple[str, ...] = ()) -> str:
        """What `litrec run` says, in one line, of the results it kept as they are."""
        cost = f" ({self.estimate()})" if self.seconds is not None else ""
        return (f"kept {self.count()} computed {self.where} ({'; '.join(self.machines)}), not "
                f"recomputed: {', '.join(self.analyses)}; their numbers stand, shown stale and not "
                f"judged; recompute them here: {self.rerun(targets)}{cost}")


def said_once(statuses: list[ClaimStatus]) -> list[ClaimStatus]:
    """`statuses` with the reason of a claim whose result only another machine computed cut to a
    few words (`computed on another CPU, said below`): the machine's difference is said once per
    scale (`Elsewhere.words`), not under each claim. The statuses given are left as they are."""
    out = []
    for s in statuses:
        if s.verdict == "stale" and s.other_machine:
            kind, _ = _machine(s.reason)
            _, under, rest = (s.reason or "").partition(_UNDER_WAY)
            short = ("computed on another CPU" if kind == "cpu" else
                     "computed with another number of usable cores") + " (said below the table)"
            s = dataclasses.replace(s, reason=short + (under + rest if under else ""))
        out.append(s)
    return out

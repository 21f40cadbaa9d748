"""Run targets: what `litrec run TARGET...` names, resolved to analyses and claims.

A target is a claim ref (`ARXIV-2212.07677#P1`), a record id (all its checked
claims and the analyses its discrepancies name) or an analysis name; none
means every analysis a claim or discrepancy uses.
"""

from __future__ import annotations

import difflib

from litrec.records.project import Project
from litrec.util.errors import TargetError


def resolve_targets(proj: Project, targets: list[str]) -> tuple[list[str], set[str] | None]:
    """Analysis names to consider and the claim refs to judge (None: all); TargetError if unknown."""
    reg = proj.registry
    names = sorted(reg.entries) if reg else []
    if not targets:
        used = {c.check.analysis for _, c in proj.claims() if c.check}
        used |= {d.analysis for r in proj.records.values()
                 for d in getattr(r, "discrepancies", []) or [] if d.analysis}
        return [n for n in names if n in used], None
    chosen: list[str] = []
    claims: set[str] = set()
    for t in targets:
        if "#" in t:
            found = proj.claim(t)
            if found is not None and found[1].check is None:
                raise TargetError(f"{t} has no analysis yet (its check names none); add "
                                  "check.analysis (a name in analysis/registry.yaml) and "
                                  "check.expect to the claim, see site/add-a-paper.md")
            if found is None:
                all_refs = [f"{r.id}#{c.id}" for r, c in proj.claims()]
                close = difflib.get_close_matches(t, all_refs, n=1)
                hint = f"; did you mean '{close[0]}'?" if close else ""
                raise TargetError(f"no claim '{t}'{hint}")
            chosen.append(found[1].check.analysis)
            claims.add(t)
        elif t in proj.records:
            rec = proj.records[t]
            for c in getattr(rec, "claims", []) or []:
                if c.check:
                    chosen.append(c.check.analysis)
                    claims.add(f"{t}#{c.id}")
            for d in getattr(rec, "discrepancies", []) or []:
                if d.analysis:
                    chosen.append(d.analysis)
        elif t in names:
            chosen.append(t)
            claims |= {f"{r.id}#{c.id}" for r, c in proj.claims()
                       if c.check and c.check.analysis == t}
        else:
            close = difflib.get_close_matches(t, names + sorted(proj.records), n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            raise TargetError(f"'{t}' is not a claim ref, record id or analysis name{hint}")
    seen: list[str] = []
    for n in chosen:
        if n not in seen:
            seen.append(n)
    return seen, claims

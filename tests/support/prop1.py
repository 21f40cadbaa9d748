"""Results of the fixture project's `prop1-identity` (a stub analysis; the fixture paper's P1
names it with three expectations, each `metric < 1e-10` or `< 1e-5`; NOTE-621 uses P1 and is a
source of THEORY-169), written as litrec writes them (sealed, with the analysis's fingerprint),
never run; and P1's status judged from them.
"""

from __future__ import annotations

from pathlib import Path

from litrec.analyses.inputs import RESULT_FORMAT
from litrec.analyses.inputs import result_inputs as fingerprint
from litrec.records.load import load_project
from litrec.results.seal import seal
from litrec.results.store import write_result
from litrec.verdicts.claims import ClaimStatus, claim_statuses

NAME, PROFILE, P1 = "prop1-identity", "paper", "ARXIV-2212.07677#P1"
GOOD = {"max_abs_error_f64": 1e-12, "max_abs_error_f32": 1e-6, "max_abs_readout_error_f64": 1e-12}


def store(root: Path, per_seed: list[dict] | None = None, metrics: dict | None = None,
          expectations: dict | None = None, figures: dict[str, bytes] | None = None,
          code_hash: str | None = None, noise: dict | None = None,
          extra: dict | None = None) -> dict:
    """Write a sealed result for prop1-identity: one run (`metrics`) or one point per seed."""
    proj = load_project(root / "records")
    fp = fingerprint(proj.registry, NAME, PROFILE)
    figures = figures or {}
    payload = {"format": RESULT_FORMAT, "analysis": NAME, "profile": PROFILE,
               "code_hash": code_hash or fp.code_hash, "code_files": fp.files,
               "versions": fp.versions, "inputs": fp.record(),
               "started": "2026-01-02T03:04:05+00:00",
               "wall_time_s": 1.0, "config": {}, "seed": 0, "notes": [],
               "metrics": metrics if metrics is not None else dict(per_seed[0]),
               "figures": {n[:-4]: f"{PROFILE}/{n}" for n in figures}}
    if per_seed is not None:
        payload.update(sweep={"seed": list(range(len(per_seed)))},
                       seeds=list(range(len(per_seed))),
                       points=[{"overrides": {"seed": i}, "metrics": m} for i, m in enumerate(per_seed)])
    if noise is not None:
        payload["noise"] = noise
    if expectations is not None:
        payload["expectations"] = expectations
    payload.update(extra or {})
    payload = seal(payload, figures)
    write_result(root / "results", NAME, PROFILE, payload, figures)
    return payload


def p1(root: Path, **kw) -> ClaimStatus:
    """P1's status judged from the stored results (`claim_statuses`' keywords in `kw`)."""
    proj = load_project(root / "records")
    (st,) = claim_statuses(proj, root / "results", PROFILE, only={P1}, **kw)
    return st


def seeds3(**changes) -> list[dict]:
    """Three seeds of good metrics, with per-seed lists replacing some."""
    rows = [dict(GOOD) for _ in range(3)]
    for k, vals in changes.items():
        for row, v in zip(rows, vals):
            row[k] = v
    return rows

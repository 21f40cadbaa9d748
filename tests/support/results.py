"""Sealed results of the fixture project's analyses (tests/fixtures/project), written as
`litrec run` writes them (the analysis's fingerprint, a seal, one point per seed), never run:
the verdict tests set the measured values they judge.
"""

from __future__ import annotations

from litrec.results.seal import seal

# single-layer-lsa's metrics under which every claim of the fixture paper on it is reproduced
GOOD = {"cos_sensitivity": 0.999, "model_diff": 0.08, "pred_diff": 0.02, "loss_interpolated": 0.2,
        "loss_trained": 0.2, "loss_gd": 0.2,
        "ood": {"min_cos": 0.999, "max_rel_gap": 0.01, "max_rel_gap_interpolated": 0.01}}


def sealed_result(project, name: str, metrics: dict | list[dict], store: bool = False,
                  profile: str = "paper") -> None:
    """A sealed result of `name` at `profile`; with `store`, the expectations it was judged
    against."""
    from litrec.analyses.inputs import RESULT_FORMAT
    from litrec.analyses.inputs import result_inputs as fingerprint
    from litrec.records.load import load_project
    from litrec.results.store import write_result
    from litrec.verdicts.claims import expectation_record

    proj = load_project(project / "records")
    fp = fingerprint(proj.registry, name, profile)
    seeds = metrics if isinstance(metrics, list) else None
    payload = {"format": RESULT_FORMAT, "analysis": name, "profile": profile,
               "code_hash": fp.code_hash, "code_files": fp.files, "versions": fp.versions,
               "inputs": fp.record(),
               "started": "2026-01-02T03:04:05+00:00", "wall_time_s": 1.0, "config": {},
               "metrics": seeds[0] if seeds else metrics, "figures": {}, "notes": []}
    if store:
        payload["expectations"] = {f"{r.id}#{c.id}": expectation_record(c.check.expect, profile)
                                   for r, c in proj.claims()
                                   if c.check is not None and c.check.analysis == name}
    if seeds:
        payload["seeds"] = list(range(len(seeds)))
        payload["sweep"] = {"seed": list(range(len(seeds)))}
        payload["points"] = [{"seed": i, "metrics": m} for i, m in enumerate(seeds)]
    write_result(project / "results", name, profile, seal(payload, {}), {})

"""A `timing` metric (what training cost, different at every run) is stored, never judged, and a
rerun's or a kept answer's verdicts do not depend on it (site/writing-analyses.md)."""

from __future__ import annotations

import json

from tests.support.run_toy import TOY

TIMED = TOY.replace(
    'PROFILES = {',
    'METRICS = ("n", "total", "xs", "nested", "timing")\n\n\nPROFILES = {',
).replace(
    '"nested": {"ok": True}},',
    '"nested": {"ok": True},\n'
    '                        "timing": {"model": {"steps": 4, "ms_per_step": time.perf_counter_ns() % 997 + 1.0,\n'
    '                                             "cpu_ms_per_step": time.process_time() + 1.0}}},',
).replace("def run(config, progress=None):\n", "def run(config, progress=None):\n    import time\n")


def _claims(doc):
    return [{k: c[k] for k in ("claim", "verdict", "measured", "outcomes")} for c in doc["claims"]]


def test_timings_are_stored_and_no_verdict_moves_with_them(toy, cli, monkeypatch):
    (toy / "analysis" / "toy.py").write_text(TIMED)
    result = toy / "results" / "toy" / "quick.json"
    first = json.loads(cli("run", "--profile", "quick", "--format", "json")[1])
    stored = json.loads(result.read_text())
    assert stored["metrics"]["timing"]["model"]["steps"] == 4
    assert not any("declare" in note for note in stored.get("notes", []))     # declared: no note
    assert all(not o["metric"].startswith("timing") for c in first["claims"] for o in c["outcomes"])

    forced = json.loads(cli("run", "--profile", "quick", "--force", "--format", "json")[1])
    rerun = json.loads(result.read_text())
    assert forced["ran"] == ["toy"]
    assert rerun["metrics"]["timing"] != stored["metrics"]["timing"]         # the timing moved...
    assert _claims(forced) == _claims(first)                                 # ...no verdict did

    noop = cli("run", "--profile", "quick", "--format", "json")              # keeps its answer
    kept = cli("run", "--profile", "quick", "--format", "json")              # answered from the memo
    with monkeypatch.context() as m:
        m.setenv("LITREC_NO_CACHE", "1")
        fresh = cli("run", "--profile", "quick", "--format", "json")
    assert kept == noop == fresh
    assert _claims(json.loads(kept[1])) == _claims(first)

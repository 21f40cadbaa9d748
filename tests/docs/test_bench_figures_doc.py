"""No figure in the docs is copied by hand: a sentence of a hand-written page that names a
benchmark script (`bench/NAME.py`) and gives timings gives only numbers that `make bench` kept
for that script in bench/results.json, measured or as a goal (the tables it writes,
site/bench-table.md and the README's, are its own output)."""

from __future__ import annotations

import json
import re

from tests.conftest import REPO

TIMING = re.compile(r"\d+(?:\.\d+)?\s*(?:ms|s)\b")


def _kept(name: str, results: dict) -> list[float]:
    rows = (results.get(name) or {}).get("rows") or []
    values = [float(v) for r in rows for k in ("value", "baseline_value")
              if isinstance(v := r.get(k), (int, float))]
    goals = [float(g) for r in rows for g in re.findall(r"\d+(?:\.\d+)?", str(r.get("goal") or ""))]
    return values + goals


def _found(number: str, kept: list[float]) -> bool:
    decimals = len(number.partition(".")[2])
    return any(f"{v:.{decimals}f}" == number for v in kept)


def test_timings_beside_a_bench_script_come_from_its_results():
    results = json.loads((REPO / "bench" / "results.json").read_text(encoding="utf-8"))
    copied = []
    for page in sorted((REPO / "site").glob("*.md")):
        if page.name == "bench-table.md":
            continue
        prose = re.sub(r"```.*?```", " ", page.read_text(encoding="utf-8"), flags=re.S)  # examples
        text = " ".join(prose.split())
        for sentence in re.split(r"(?<=[.:])\s+(?=[A-Z(])", text):
            names = re.findall(r"`bench/(\w+)\.py", sentence)
            if not names or not TIMING.search(sentence):
                continue
            kept = [v for n in names for v in _kept(n, results)]
            for number in re.findall(r"(?<![\w.])\d+\.\d+(?![\w.])", sentence):
                if not _found(number, kept):
                    copied.append(f"{page.name}: {number} (bench/{', '.join(names)})")
    assert copied == [], "figures not in bench/results.json: run `make bench` or drop them"

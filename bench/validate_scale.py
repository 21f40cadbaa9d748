"""Benchmark: `litrec validate` on N generated records vs a bare PyYAML C-loader parse.

Generates N records (notes, theories, literature with claims, decisions, anthology
entries) with links between them in a temporary folder, then times, as whole
processes on the same machine in one run:

- baseline: a Python process that reads and parses every file with
  `yaml.load(..., Loader=yaml.CSafeLoader)` and does nothing else;
- litrec:   `python -m litrec validate --records DIR --quiet`.

Prints the median of several runs of each and the ratio litrec / baseline.
Goal: 10,000 records in under 2 s on 2 cores, within 3x of the bare parse.

    python bench/validate_scale.py [--records 10000] [--repeats 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BASELINE = """
import sys, pathlib, yaml
for p in sorted(pathlib.Path(sys.argv[1]).rglob('*.yaml')):
    yaml.load(p.read_bytes(), Loader=yaml.CSafeLoader)
"""


def generate(root: Path, n: int, seed: int = 0) -> None:
    rng = random.Random(seed)
    rec = root / "records"
    for sub in ("literature", "notes", "theories", "decisions", "anthology"):
        (rec / sub).mkdir(parents=True)
    n_lit, n_dec, n_th, n_anth = n // 10, max(1, n // 50), n // 5, n // 20
    n_note = n - n_lit - n_dec - n_th - n_anth
    lits = [f"ARXIV-2{i // 10000:03d}.{i % 10000:05d}" for i in range(n_lit)]
    for i, lid in enumerate(lits):
        claims = "".join(
            f"  - id: F{c}\n    kind: finding\n    title: Finding {c} of paper {i}\n"
            f"    statement: A measured relation that the analysis checks.\n"
            f"    where: {{section: \"{c}\"}}\n"
            + ("    check:\n      analysis: bench-analysis\n      expect:\n"
               f"        - {{metric: loss, op: \"<\", value: {rng.random():.3f}}}\n" if c == 1 else "")
            for c in range(1, 4))
        (rec / "literature" / f"{lid}.yaml").write_text(
            f"id: {lid}\nkind: literature\ntitle: Paper {i}\nauthors: [A. Author, B. Author]\n"
            f"year: {2000 + i % 25}\nvenue: Venue\narxiv: \"{lid[6:]}\"\n"
            f"links:\n  - rel: held_under\n    target: ADR-{i % n_dec + 1}\nclaims:\n{claims}")
    for i in range(n_dec):
        (rec / "decisions" / f"ADR-{i + 1}.yaml").write_text(
            f"id: ADR-{i + 1}\nkind: decision\nstatus: accepted\ntitle: Decision {i + 1}\n"
            "decision: Hold the papers.\n")
    for i in range(n_th):
        link = f"links:\n  - rel: derived_from\n    target: THEORY-{i}\n" if i else ""
        (rec / "theories" / f"THEORY-{i + 1}.yaml").write_text(
            f"id: THEORY-{i + 1}\nkind: theory\ntitle: Theory {i + 1}\nsummary: A theory.\n{link}")
    for i in range(n_note):
        lid = rng.choice(lits)
        (rec / "notes" / f"NOTE-{i + 1}.yaml").write_text(
            f"id: NOTE-{i + 1}\nkind: note\ntitle: Note {i + 1}\ndate: 2026-01-01\n"
            f"summary: A reading of {lid}.\nbody: |\n  Several lines of *Markdown*\n  prose.\n"
            f"links:\n  - rel: reading_of\n    target: {lid}\n"
            f"  - rel: uses\n    target: {lid}#F{rng.randint(1, 3)}\n"
            f"  - rel: source_of\n    target: THEORY-{rng.randint(1, n_th)}\n")
    for i in range(n_anth):
        lid = lits[i % n_lit]
        (rec / "anthology" / f"ANTH-LIT-{i + 1}.yaml").write_text(
            f"id: ANTH-LIT-{i + 1}\nkind: anthology\nstance: kept\ntitle: Entry {i + 1}\n"
            f"links:\n  - rel: entry_for\n    target: {lid}\n  - rel: keeps\n    target: {lid}#F1\n")
    ana = root / "analysis"
    ana.mkdir()
    (ana / "bench_analysis.py").write_text("")
    (ana / "registry.yaml").write_text("bench-analysis:\n  module: bench_analysis\n  title: Bench\n")


def timed(cmd: list[str], repeats: int, check: bool = True) -> list[float]:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True)
        times.append(time.perf_counter() - t0)
        if check and proc.returncode != 0:
            sys.exit(f"command failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}")
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=int, default=10_000)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        generate(root, args.records)
        files = len(list((root / "records").rglob("*.yaml")))
        py = sys.executable
        base = timed([py, "-c", BASELINE, str(root / "records")], args.repeats)
        lit = timed([py, "-m", "litrec", "validate", "--records", str(root / "records"),
                     "--analysis", str(root / "analysis"), "--quiet"], args.repeats)
    b, v = statistics.median(base), statistics.median(lit)
    print(f"records: {files} files, {args.repeats} runs each, whole processes, medians")
    print(f"baseline  PyYAML CSafeLoader parse only : {b:7.3f} s  (min {min(base):.3f}, max {max(base):.3f})")
    print(f"litrec    validate                      : {v:7.3f} s  (min {min(lit):.3f}, max {max(lit):.3f})")
    print(f"ratio     litrec / baseline             : {v / b:7.2f}x  (goal: < 3x and < 2 s)")


if __name__ == "__main__":
    main()

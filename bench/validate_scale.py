"""Benchmark: `litrec validate` on N generated records, cold and warm, against a bare PyYAML C parse.

Generates records (notes, theories, literature with claims, decisions, anthology
entries) with links between them in a temporary folder, then times, as whole
processes on the same machine in one run:

- baseline: one Python process that reads and parses every file with
  `yaml.load(..., Loader=yaml.CSafeLoader)`, single-threaded, and does nothing else;
- cold:     `litrec validate --quiet` with no `.litrec-cache/` (it is removed
            before each run; the run writes it);
- warm:     the same command again, nothing changed (the cache is read);
- 100k:     the cold run on 10x the records, timed against the cold 10k median,
            and the peak memory of its process tree (the sum of the resident
            set sizes of litrec and its worker processes, sampled every 20 ms).

Goals: cold 10k <= 1.5x the baseline; warm 10k < 0.5 s; cold 100k <= 11x cold 10k
(linear); peak memory at 100k < 2 GiB.

    python bench/validate_scale.py [--records 10000] [--repeats 3] [--big 100000 | --big 0]
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import report  # noqa: E402

BASELINE = """
import sys, pathlib, yaml
for p in sorted(pathlib.Path(sys.argv[1]).rglob('*.yaml')):
    yaml.load(p.read_bytes(), Loader=yaml.CSafeLoader)
"""

ANALYSIS = """from dataclasses import dataclass


@dataclass(frozen=True)
class Config:
    n: int = 1


PROFILES = {"quick": Config(), "paper": Config()}


def run(config, progress=None):
    return {"metrics": {"loss": 0.0}}
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
    (ana / "bench_analysis.py").write_text(ANALYSIS)
    (ana / "registry.yaml").write_text("bench-analysis:\n  module: bench_analysis\n  title: Bench\n")


def _tree_rss(pid: int) -> int:
    """The summed resident set size (bytes) of `pid` and every process below it."""
    parent: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as fh:
                    stat = fh.read()
            except OSError:
                continue
            parent[int(entry)] = int(stat[stat.rindex(b")") + 2:].split()[1])
    tree, frontier = {pid}, [pid]
    while frontier:
        p = frontier.pop()
        kids = [c for c, pp in parent.items() if pp == p and c not in tree]
        tree.update(kids)
        frontier += kids
    total = 0
    for p in tree:
        try:
            with open(f"/proc/{p}/statm", "rb") as fh:
                total += int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
        except OSError:
            pass
    return total


def run_once(cmd: list[str], cwd: Path, sample: bool = False) -> tuple[float, int]:
    """Seconds the command took as a whole process, and its tree's peak RSS (bytes) when sampled."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    peak = 0
    if sample:
        while proc.poll() is None:
            peak = max(peak, _tree_rss(proc.pid))
            time.sleep(0.02)
    out, err = proc.communicate()
    elapsed = time.perf_counter() - t0
    if proc.returncode != 0:
        sys.exit(f"command failed ({proc.returncode}): {' '.join(cmd)}\n"
                 f"{out.decode()[-2000:]}{err.decode()[-2000:]}")
    return elapsed, peak


def validate_cmd(root: Path) -> list[str]:
    return [sys.executable, "-m", "litrec", "validate", "--records", str(root / "records"),
            "--analysis", str(root / "analysis"), "--quiet"]


def cold(root: Path) -> tuple[float, int]:
    shutil.rmtree(root / ".litrec-cache", ignore_errors=True)
    return run_once(validate_cmd(root), root)


def med(xs: list[float]) -> float:
    return statistics.median(xs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=int, default=10_000)
    ap.add_argument("--repeats", type=int, default=3, help="runs of each 10k figure (default 3)")
    ap.add_argument("--big", type=int, default=100_000, help="records of the scale run; 0 skips it")
    report.add_json_argument(ap)
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "small"
        generate(root, args.records)
        os.sync()  # the files on disk before timing: no write-back of them during the runs
        n = len(list((root / "records").rglob("*.yaml")))
        py = sys.executable
        base, cold_t, warm_t, nocache_t = [], [], [], []
        for _ in range(args.repeats):  # interleaved, so a burst of load hits every figure alike
            base.append(run_once([py, "-c", BASELINE, str(root / "records")], root)[0])
            cold_t.append(cold(root)[0])
            warm_t.append(run_once(validate_cmd(root), root)[0])
            nocache_t.append(run_once(validate_cmd(root) + ["--no-cache"], root)[0])
        b, c, w = med(base), med(cold_t), med(warm_t)
        print(f"records: {n} files, {args.repeats} runs each, whole processes, medians; "
              f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
        print(f"baseline  PyYAML CSafeLoader parse only : {b:7.3f} s  (min {min(base):.3f})")
        print(f"litrec    validate, cold (no cache)     : {c:7.3f} s  (min {min(cold_t):.3f})  {c / b:.2f}x")
        print(f"litrec    validate --no-cache           : {med(nocache_t):7.3f} s  "
              f"(min {min(nocache_t):.3f})")
        print(f"litrec    validate, warm (cache, no edit): {w:7.3f} s  (min {min(warm_t):.3f})")
        rows.append(report.Row(f"validate cold {n // 1000}k", c, "s", "PyYAML C parse, 1 thread", b,
                               "<= 1.5x baseline", c <= 1.5 * b))
        rows.append(report.Row(f"validate warm {n // 1000}k", w, "s", "", None, "< 0.5 s", w < 0.5))
        if args.big:
            big = Path(tmp) / "big"
            generate(big, args.big)
            os.sync()
            nb = len(list((big / "records").rglob("*.yaml")))
            t_big, peak = cold(big)
            t_mem, peak = run_once(validate_cmd(big) + ["--no-cache"], big, sample=True)
            print(f"litrec    validate, cold, {nb} files  : {t_big:7.3f} s  {t_big / c:.2f}x the {n} figure")
            print(f"peak RSS of the process tree, {nb} files, --no-cache (sampled every 20 ms): "
                  f"{peak / 2**20:.0f} MiB")
            rows.append(report.Row(f"validate cold {nb // 1000}k", t_big, "s",
                                   f"validate cold {n // 1000}k", c, "<= 11x baseline",
                                   t_big <= 11 * c))
            rows.append(report.Row(f"validate {nb // 1000}k peak RSS (process tree)", peak / 2**20,
                                   "MiB", "", None, "< 2048 MiB", peak < 2 * 2**30))
    report.emit(rows, args.json)


if __name__ == "__main__":
    main()

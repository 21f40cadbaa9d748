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
(linear); peak memory at 100k < 2 GiB. Each of these four figures is also measured
with the 0.1.0 release's litrec in the same run, interleaved with the current one,
each on its own copy of the records (bench/release.py): goal at most 1.10x 0.1.0's.

    python bench/validate_scale.py [--records 10000] [--repeats 5] [--big 100000 | --big 0]
                                   [--against 0.1.0 | --against none] [--smoke]
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import release  # noqa: E402
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


def generate(root: Path, n: int, seed: int = 0, sourced: bool = True) -> None:
    """n records with links between them in `root`; `sourced`: each expectation says its
    source (which litrec asks since; the 0.1.0 release knows no such field)."""
    rng = random.Random(seed)
    source = ", source: {kind: extension, reason: a benchmark's own claim}" if sourced else ""
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
               f"        - {{metric: loss, op: \"<\", value: {rng.random():.3f}{source}}}\n" if c == 1 else "")
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
        # derived from an earlier theory drawn at random: chains of about log(n) theories
        link = f"links:\n  - rel: derived_from\n    target: THEORY-{rng.randint(1, i)}\n" if i else ""
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


def run_once(cmd: list[str], cwd: Path, sample: bool = False,
             env: dict | None = None) -> tuple[float, int]:
    """Seconds the command took as a whole process, and its tree's peak RSS (bytes) when sampled;
    its CPU seconds (user + system, its waited-for children too) are appended to CPU."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    peak = 0
    if sample:
        while proc.poll() is None:
            peak = max(peak, _tree_rss(proc.pid))
            time.sleep(0.02)
    out, err = proc.communicate()
    elapsed = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    if proc.returncode != 0:
        sys.exit(f"command failed ({proc.returncode}): {' '.join(cmd)}\n"
                 f"{out.decode()[-2000:]}{err.decode()[-2000:]}")
    return elapsed, peak


CPU: list[float] = []  # CPU seconds of each command run_once ran, in order


def validate_cmd(root: Path) -> list[str]:
    return [sys.executable, "-m", "litrec", "validate", "--records", str(root / "records"),
            "--analysis", str(root / "analysis"), "--quiet"]


def cold(root: Path, env: dict | None = None) -> tuple[float, int]:
    shutil.rmtree(root / ".litrec-cache", ignore_errors=True)
    return run_once(validate_cmd(root), root, env=env)


def _size(n: int) -> str:
    """10k for 10,000 records; a smoke run's few hundred as they are."""
    return f"{n // 1000}k" if n >= 1000 else str(n)


def med(xs: list[float]) -> float:
    return statistics.median(xs)


def copies(root: Path, n: int, trees: list) -> dict[str, Path]:
    """The generated project for each tree: the first tree's is `root`, each other one of its
    own (each version keeps its own cache), the same records but for the expectations'
    `source`, which the release does not read."""
    generate(root, n)
    out = {trees[0].name: root}
    for tree in trees[1:]:
        out[tree.name] = root.with_name(f"{root.name}-{len(out)}")
        generate(out[tree.name], n, sourced=False)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=int, default=10_000)
    ap.add_argument("--repeats", type=int, default=5, help="runs of each 10k figure (default 5)")
    ap.add_argument("--big", type=int, default=100_000, help="records of the scale run; 0 skips it")
    release.add_release_argument(ap)
    report.add_json_argument(ap)
    args = report.parse(ap, records=200, repeats=1, big=0)
    rows, keep = [], []
    with tempfile.TemporaryDirectory() as tmp, release.trees(args.against) as trees:
        now, others = trees[0], trees[1:]
        root = Path(tmp) / "small"
        roots = copies(root, args.records, trees)
        os.sync()  # the files on disk before timing: no write-back of them during the runs
        n = len(list((root / "records").rglob("*.yaml")))
        py = sys.executable
        base: list[float] = []
        cold_t = {t.name: [] for t in trees}
        warm_t = {t.name: [] for t in trees}
        cold_cpu = {t.name: [] for t in trees}
        warm_cpu = {t.name: [] for t in trees}
        nocache_t = {t.name: [] for t in trees}
        for i in range(args.repeats):  # interleaved, so a burst of load hits every figure alike
            base.append(run_once([py, "-c", BASELINE, str(root / "records")], root)[0])
            for tree in (trees if i % 2 == 0 else trees[::-1]):
                r = roots[tree.name]
                cold_t[tree.name].append(cold(r, tree.env)[0])
                cold_cpu[tree.name].append(CPU[-1])
                warm_t[tree.name].append(run_once(validate_cmd(r), r, env=tree.env)[0])
                warm_cpu[tree.name].append(CPU[-1])
                nocache_t[tree.name].append(
                    run_once(validate_cmd(r) + ["--no-cache"], r, env=tree.env)[0])
        b, c, w = med(base), med(cold_t[now.name]), med(warm_t[now.name])
        print(f"records: {n} files, {args.repeats} runs each, whole processes, medians; "
              f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
        print(f"baseline  PyYAML CSafeLoader parse only : {b:7.3f} s  (min {min(base):.3f})")
        for tree in trees:
            cs, ws, ns = cold_t[tree.name], warm_t[tree.name], nocache_t[tree.name]
            print(f"litrec {tree.name}")
            print(f"  validate, cold (no cache)     : {med(cs):7.3f} s  (min {min(cs):.3f})  "
                  f"{med(cs) / b:.2f}x; CPU {med(cold_cpu[tree.name]):.3f} s")
            print(f"  validate --no-cache           : {med(ns):7.3f} s  (min {min(ns):.3f})")
            print(f"  validate, warm (cache, no edit): {med(ws):7.3f} s  (min {min(ws):.3f}); "
                  f"CPU {med(warm_cpu[tree.name]):.3f} s")
        rows.append(report.Row(f"validate cold {_size(n)}", c, "s", "PyYAML C parse, 1 thread", b,
                               "<= 1.5x baseline", c <= 1.5 * b))
        rows.append(report.Row(f"validate warm {_size(n)}", w, "s", "", None, "< 0.5 s", w < 0.5))
        for tree in others:
            keep.append(release.keep_row(f"validate cold {_size(n)}", cold_t[now.name],
                                         cold_t[tree.name], "s", tree.name))
            keep.append(release.keep_row(f"validate warm {_size(n)}", warm_t[now.name],
                                         warm_t[tree.name], "s", tree.name))
            # on a loaded machine the wall time is mostly waiting for a core: CPU beside it
            keep.append(release.keep_row(f"validate cold {_size(n)}, CPU", cold_cpu[now.name],
                                         cold_cpu[tree.name], "s", tree.name))
            keep.append(release.keep_row(f"validate warm {_size(n)}, CPU", warm_cpu[now.name],
                                         warm_cpu[tree.name], "s", tree.name))
        if args.big:
            big = Path(tmp) / "big"
            bigs = copies(big, args.big, trees)
            os.sync()
            nb = len(list((big / "records").rglob("*.yaml")))
            t_big, peak = {}, {}
            for tree in trees:  # the cold run, then the memory of a run without the cache
                t_big[tree.name] = cold(bigs[tree.name], tree.env)[0]
            for tree in trees[::-1]:
                peak[tree.name] = run_once(validate_cmd(bigs[tree.name]) + ["--no-cache"],
                                           bigs[tree.name], sample=True, env=tree.env)[1]
            for tree in trees:
                print(f"litrec {tree.name}: validate, cold, {nb} files: {t_big[tree.name]:7.3f} s "
                      f"({t_big[tree.name] / med(cold_t[tree.name]):.2f}x its {n} figure); "
                      f"peak RSS of the process tree, --no-cache (sampled every 20 ms): "
                      f"{peak[tree.name] / 2**20:.0f} MiB")
            rows.append(report.Row(f"validate cold {_size(nb)}", t_big[now.name], "s",
                                   f"validate cold {_size(n)}", c, "<= 11x baseline",
                                   t_big[now.name] <= 11 * c))
            rows.append(report.Row(f"validate {_size(nb)} peak RSS (process tree)",
                                   peak[now.name] / 2**20, "MiB", "", None, "< 2048 MiB",
                                   peak[now.name] < 2 * 2**30))
            for tree in others:
                keep.append(release.keep_row(f"validate cold {_size(nb)}", [t_big[now.name]],
                                             [t_big[tree.name]], "s", tree.name))
                keep.append(release.keep_row(f"validate {_size(nb)} peak RSS",
                                             [peak[now.name] / 2**20], [peak[tree.name] / 2**20],
                                             "MiB", tree.name))
    report.emit(rows + keep, args.json)


if __name__ == "__main__":
    main()

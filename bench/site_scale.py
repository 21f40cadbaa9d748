"""Benchmark: `litrec site build` on 1,000 generated records, record pages out of vs in the nav.

Generates N records (literature with claims and discrepancies, notes, theories,
decisions, works, anthology entries) with links between them, a registry of two
analyses and a result for one of them, in a temporary folder. Then times, as
whole processes (a fresh docs folder and output each time):

- litrec:    the site as `litrec site build` makes it: record pages generated
             into build/docs, kept out of the navigation (`not_in_nav`) and
             reached from index tables; MkDocs sharded over the cores;
- litrec-1p: the same in one MkDocs process (the nav's effect alone);
- baseline:  the same pages with every record page in the nav, which Material
             then renders into every page; one MkDocs process.

Prints per variant the median wall time, the critical path (the longest chain
of CPU work: what the wall time is on idle cores; on a shared machine the wall
time also counts waiting for other processes), all CPU, the main process's
peak memory and the size of the built site; then the ratios to the baseline.
Goal: 1,000 records in under 10 s on 2 cores.

    python bench/site_scale.py [--records 1000] [--repeats 3] [--only litrec,baseline]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CHILD = """
import json, resource, sys
from pathlib import Path
from litrec.site.build import build_site
root, config = Path(sys.argv[1]), Path(sys.argv[2])
jobs = int(sys.argv[3]) if sys.argv[3] != "auto" else None
r = build_site(root / "records", root / "analysis", root / "results", config.parent / "public",
               "paper", config, jobs=jobs)
own = sum(resource.getrusage(resource.RUSAGE_SELF)[:2])
size = sum(p.stat().st_size for p in (config.parent / "public").rglob("*") if p.is_file())
print(json.dumps({"pages": r.pages, "records": r.records, "generate_s": r.generate_s,
                  "mkdocs_s": r.mkdocs_s, "errors": len(r.errors),
                  "rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "cpu_s": own + sum(resource.getrusage(resource.RUSAGE_CHILDREN)[:2]),
                  # the longest chain of CPU work: this process without its own shard, plus the
                  # slowest shard; what the wall time would be on idle cores
                  "critical_s": own - r.shard_cpu[0] + max(r.shard_cpu), "shards": len(r.shard_cpu),
                  "size_mib": size / 2**20}))
"""
WORDS = ("the layer attention gradient step context model loss task token weight update linear "
         "regression trained constructed alignment curvature kernel feature query").split()


def _prose(rng: random.Random, refs: list[str], n: int = 60) -> str:
    words = [rng.choice(WORDS) for _ in range(n)]
    for ref in rng.sample(refs, min(3, len(refs))):
        words.insert(rng.randrange(len(words)), ref)
    return " ".join(words) + "."


def generate(root: Path, n: int, seed: int = 0) -> dict[str, int]:
    rng = random.Random(seed)
    rec = root / "records"
    for sub in ("literature", "notes", "theories", "decisions", "works", "anthology"):
        (rec / sub).mkdir(parents=True)
    n_lit, n_th, n_dec, n_work, n_anth = n // 5, n // 5, n // 10, n // 10, n // 10
    n_note = n - n_lit - n_th - n_dec - n_work - n_anth
    lits = [f"ARXIV-2301.{i + 1:05d}" for i in range(n_lit)]
    decs = [f"ADR-{i + 1:03d}" for i in range(n_dec)]
    ths = [f"THEORY-{i + 1}" for i in range(n_th)]
    notes = [f"NOTE-{i + 1}" for i in range(n_note)]
    works = [f"work-{i + 1}" for i in range(n_work)]
    for i, lid in enumerate(lits):
        (rec / "literature" / f"{lid}.yaml").write_text(
            f"id: {lid}\nkind: literature\ntitle: Paper {i + 1} on in-context learning\n"
            f"authors: [Ada Author, Ben Author]\nyear: {2000 + i % 25}\nvenue: ICML {2000 + i % 25}\n"
            f"arxiv: \"{lid[6:]}\"\nsummary: {_prose(rng, decs, 30)}\nbody: |\n  ## Reading\n\n"
            f"  {_prose(rng, lits + notes, 80)}\n"
            f"links:\n  - rel: held_under\n    target: {rng.choice(decs)}\n"
            "claims:\n"
            f"  - id: P1\n    kind: proposition\n    title: Proposition of paper {i + 1}\n"
            f"    statement: {_prose(rng, [], 40)}\n    where: {{proposition: \"1\", section: \"2\"}}\n"
            "    check:\n      analysis: bench-identity\n      expect:\n"
            "        - {metric: max_abs_error, op: \"<\", value: 1.0e-6, paper: 0.0}\n"
            f"  - id: F1\n    kind: finding\n    title: Finding of paper {i + 1}\n"
            f"    statement: {_prose(rng, [], 40)}\n    where: {{section: \"3\", figure: \"2\"}}\n"
            "    check:\n      analysis: bench-training\n      expect:\n"
            "        - {metric: loss_trained, op: \"≈\", ref: loss_gd, rel_tol: 0.01, paper: 0.2}\n"
            "discrepancies:\n  - id: D1\n    topic: Input range\n    text_says: U(-1, 1)\n"
            "    code_does: U(-0.5, 0.5)\n    numbers_follow: code\n    analysis: bench-identity\n"
            "    metrics: [max_abs_error]\n")
    for i, did in enumerate(decs):
        (rec / "decisions" / f"{did}.yaml").write_text(
            f"id: {did}\nkind: decision\nstatus: accepted\ntitle: Decision {i + 1}\n"
            f"context: {_prose(rng, [], 30)}\ndecision: {_prose(rng, [], 20)}\n")
    for i, tid in enumerate(ths):
        links = [f"  - rel: supports\n    target: {rng.choice(lits)}#P1\n"]
        if i:
            links.append(f"  - rel: derived_from\n    target: {ths[rng.randrange(i)]}\n")
        (rec / "theories" / f"{tid}.yaml").write_text(
            f"id: {tid}\nkind: theory\nstatus: open\ntitle: Theory {i + 1}\n"
            f"body: {_prose(rng, lits, 60)}\nlinks:\n" + "".join(links))
    for i, nid in enumerate(notes):
        lit = rng.choice(lits)
        (rec / "notes" / f"{nid}.yaml").write_text(
            f"id: {nid}\nkind: note\ntitle: Note {i + 1}\ndate: 2026-01-{i % 28 + 1:02d}\n"
            f"body: {_prose(rng, lits + ths, 80)}\nlinks:\n"
            f"  - rel: reading_of\n    target: {lit}\n"
            f"  - rel: uses\n    target: {lit}#F1\n    note: the finding\n"
            f"  - rel: source_of\n    target: {rng.choice(ths)}\n")
    for i, wid in enumerate(works):
        bib = "".join(f"  - ref: {lid}\n    status: {rng.choice(['cited', 'considered', 'dropped'])}\n"
                      for lid in rng.sample(lits, 5))
        (rec / "works" / f"{wid}.yaml").write_text(
            f"id: {wid}\nkind: work\nstatus: draft\ntitle: Manuscript {i + 1}\nbibliography:\n{bib}")
    for i in range(n_anth):
        aid, lit = f"ANTH-LIT-{i + 1}", lits[i % len(lits)]
        (rec / "anthology" / f"{aid}.yaml").write_text(
            f"id: {aid}\nkind: anthology\ntitle: Entry {i + 1}\n"
            f"stance: {rng.choice(['kept', 'rejected', 'held', 'open'])}\nread_for: what it computes\n"
            f"links:\n  - rel: entry_for\n    target: {lit}\n  - rel: keeps\n    target: {lit}#P1\n")
    analysis = root / "analysis"
    analysis.mkdir()
    (analysis / "__init__.py").write_text("")
    for name in ("bench_identity", "bench_training"):
        (analysis / f"{name}.py").write_text(  # keeps the analysis contract; never run here
            f'"""{name}: a stub the site benchmarks register."""\n\nPROFILES = {{"paper": {{}}}}\n\n\n'
            "def run(config, progress=None):\n    return {}\n")
    (analysis / "registry.yaml").write_text(
        "bench-identity:\n  module: bench_identity\n  title: The identity\n"
        "bench-training:\n  module: bench_training\n  title: Training\n")
    _result(root)
    return {"literature": n_lit, "note": n_note, "theory": n_th, "decision": n_dec,
            "work": n_work, "anthology": n_anth}


def _result(root: Path) -> None:
    """A current result for bench-identity, with a figure; bench-training stays not run."""
    from litrec.load import load_project
    from litrec.fingerprint import fingerprint
    from litrec.results import write_result

    proj = load_project(root / "records", root / "analysis")
    fp = fingerprint(proj.registry, "bench-identity", "paper")
    svg = b'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'
    write_result(root / "results", "bench-identity", "paper", {
        "format": 1, "analysis": "bench-identity", "profile": "paper", "code_hash": fp.code_hash,
        "code_files": fp.files, "versions": fp.versions, "seed": 0, "wall_time_s": 1.0,
        "started": "2026-01-01T00:00:00+00:00", "metrics": {"max_abs_error": 1e-9},
        "figures": {"error": "paper/error.svg"}}, {"error.svg": svg})


def configs(root: Path) -> dict[str, Path]:
    """litrec's own mkdocs.yml, and the baseline: the same with every page in the nav."""
    out = {}
    for name in ("litrec", "baseline"):
        d = root / name
        d.mkdir()
        os.symlink(REPO / "site", d / "site")
        out[name] = d / "mkdocs.yml"
    shutil.copy(REPO / "mkdocs.yml", out["litrec"])
    pages = sorted(p.relative_to(root / "records").with_suffix("") for p in (root / "records").rglob("*.yaml"))
    entries = []
    for p in pages:
        folder = "anthology" if p.parts[0] == "anthology" else "records"
        entries.append(f"      - {p.name}: {folder}/{p.name}.md")
    out["baseline"].write_text(
        f"INHERIT: {REPO / 'mkdocs.yml'}\nnot_in_nav: ''\nnav:\n  - Home: index.md\n"
        "  - Records: records/index.md\n  - Anthology: anthology/index.md\n"
        "  - Analyses:\n      - analyses/index.md\n      - analyses/bench-identity.md\n"
        "      - analyses/bench-training.md\n  - Graph: graph.md\n"
        "  - Guide:\n      - guide.md\n      - writing-analyses.md\n"
        + "".join(f"      - {p.name}: {p.name}\n" for p in sorted((REPO / "site").glob("*.md"))
                  if p.name not in ("index.md", "guide.md", "writing-analyses.md"))
        + "  - All records:\n" + "\n".join(entries) + "\n")
    return out


def run_once(root: Path, config: Path, jobs: str) -> tuple[float, float, dict]:
    """One build in a fresh process; (wall seconds, peak RSS MiB, child's report)."""
    shutil.rmtree(config.parent / "build", ignore_errors=True)
    shutil.rmtree(config.parent / "public", ignore_errors=True)
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", CHILD, str(root), str(config), jobs],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = proc.communicate()
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        sys.exit(f"build failed ({config}):\n{err[-3000:]}")
    rep = json.loads(out.strip().splitlines()[-1])
    return wall, rep["rss_mib"], rep


VARIANTS = (  # name, config, MkDocs processes
    ("litrec", "litrec", "auto"),
    ("litrec-1p", "litrec", "1"),
    ("baseline", "baseline", "1"),
)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--records", type=int, default=1000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--only", default=",".join(v[0] for v in VARIANTS),
                    help="comma-separated variants to run (default: all)")
    args = ap.parse_args()
    chosen = [v for v in VARIANTS if v[0] in args.only.split(",")]
    with tempfile.TemporaryDirectory(prefix="litrec-site-bench-") as tmp:
        root = Path(tmp)
        kinds = generate(root, args.records)
        cfg = configs(root)
        load = os.getloadavg()[0]
        print(f"{args.records} records ({', '.join(f'{v} {k}' for k, v in kinds.items())}); "
              f"{os.cpu_count()} cores, load average {load:.1f}; median of {args.repeats} fresh builds")
        print("  litrec:    record pages out of the nav, MkDocs sharded over the cores")
        print("  litrec-1p: the same in one MkDocs process")
        print("  baseline:  every record page in the nav, one MkDocs process")
        print(f"  {'variant':<10} {'wall':>7} {'critical':>9} {'CPU':>7} {'RSS':>8} {'site':>8}  runs")
        med = {}
        for name, config, jobs in chosen:
            runs = [run_once(root, cfg[config], jobs) for _ in range(args.repeats)]
            walls = [w for w, _, _ in runs]
            reps = [r for _, _, r in runs]
            med[name] = statistics.median(walls)
            crit = statistics.median(r["critical_s"] for r in reps)
            cpu = statistics.median(r["cpu_s"] for r in reps)
            rss = max(r for _, r, _ in runs)
            print(f"  {name:<10} {med[name]:6.2f}s {crit:8.2f}s {cpu:6.2f}s {rss:6.0f}MiB "
                  f"{reps[-1]['size_mib']:5.0f}MiB  "
                  f"{', '.join(f'{w:.2f}' for w in walls)} ({reps[-1]['shards']} process"
                  f"{'es' * (reps[-1]['shards'] > 1)}, {reps[-1]['pages']} pages)")
        print("  (critical: the longest chain of CPU work, i.e. the wall time on idle cores; "
              "RSS: the main process; site: the built HTML)")
        if "baseline" in med and "litrec" in med:
            print(f"baseline / litrec: {med['baseline'] / med['litrec']:.1f}x", end="; ")
        if "baseline" in med and "litrec-1p" in med:
            print(f"baseline / litrec-1p (the nav alone): {med['baseline'] / med['litrec-1p']:.1f}x",
                  end="; ")
        if "litrec" in med:
            print(f"litrec {'under' if med['litrec'] < 10 else 'OVER'} the 10 s goal", end=" ")
        print(f"(load average now {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()

"""Benchmark: `litrec site build` on 1,000 and 10,000 generated records, against bare MkDocs.

Generates N records (literature with claims and discrepancies, notes, theories,
decisions, works, anthology entries) with links between them, a registry of two
analyses and a result for one of them (by `litrec run`), in a temporary folder. Then times, as
whole processes (a fresh docs folder and output each time):

- litrec:    the site as `litrec site build` makes it: record pages rendered in
             parallel into build/docs, kept out of the navigation (`not_in_nav`)
             and reached from index tables; MkDocs sharded over the cores;
- bare:      the baseline: MkDocs Material with its search plugin building N
             trivial pages (a heading and a sentence) out of the nav, in one
             process: what MkDocs costs for that many pages, nothing of litrec's;
- litrec-1p: (with --only) litrec's site in one MkDocs process;
- in-nav:    (with --only) litrec's pages with every record page in the nav,
             which Material then renders into every page; one MkDocs process;
- release:   the site as the 0.1.0 release's litrec builds it, with its own
             mkdocs.yml and site/ (bench/release.py), the builds interleaved with
             litrec's (litrec, bare, release, release, bare, litrec, ...); goal: wall
             time and peak memory at most 1.10x 0.1.0's.

Prints per size and variant the median wall time, the critical path (the
longest chain of CPU work: what the wall time is on idle cores; on a shared
machine the wall time also counts waiting for other processes), all CPU, the
peak memory and the size of the built site. Memory is the process tree's: the
RSS of the build and every process it started, summed over those running at
the same moment, sampled every 0.2 s from /proc; pages that forked processes
share are counted once per process, so this overstates the memory used. The
largest single process is shown beside it. Goals (2 cores): 1,000 records in
under 10 s; 10,000 in under 90 s with the tree's peak under 4 GiB.

    python bench/site_scale.py [--records 1000,10000] [--repeats N] [--only litrec,bare,release]
                               [--against 0.1.0 | --against none] [--smoke]
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

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import release  # noqa: E402
import report  # noqa: E402

REPO = HERE.parent
# the analysis with a result: a number and a figure, run by litrec in each generated project
IDENTITY = '''"""bench_identity: the analysis the site benchmarks run once, for a result with a figure."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Config:
    seed: int = 0


PROFILES = {"paper": Config()}


def run(config, progress=None):
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib.figure import Figure
    fig = Figure(figsize=(1, 1))
    fig.add_subplot().plot([0, 1], [0, 1])
    return {"metrics": {"max_abs_error": 1e-9}, "figures": {"error": fig}}
'''
CHILD = """
import json, resource, sys
from pathlib import Path
from litrec.site.build import build_site
root, config = Path(sys.argv[1]), Path(sys.argv[2])
jobs = int(sys.argv[3]) if sys.argv[3] != "auto" else None
r = build_site(root / "records", root / "analysis", root / "results", config.parent / "public",
               "paper", config, jobs=jobs)
own = sum(resource.getrusage(resource.RUSAGE_SELF)[:2])
print(json.dumps({"pages": r.pages, "records": r.records, "generate_s": r.generate_s,
                  "mkdocs_s": r.mkdocs_s, "errors": len(r.errors),
                  "cpu_s": own + sum(resource.getrusage(resource.RUSAGE_CHILDREN)[:2]),
                  # the longest chain of CPU work: this process without its own shard, plus the
                  # slowest record-page worker and the slowest shard; the wall time on idle cores
                  # (0.1.0 rendered the record pages in its own process: no render_cpu)
                  "critical_s": own - r.shard_cpu[0] + max(getattr(r, "render_cpu", None) or [0])
                                + max(r.shard_cpu),
                  "shards": len(r.shard_cpu)}))
"""
BARE = """
import json, resource, sys
from mkdocs.commands.build import build
from mkdocs.config import load_config
cfg = load_config(config_file=sys.argv[1])
cfg.plugins.on_startup(command="build", dirty=False)
build(cfg)
cpu = sum(resource.getrusage(resource.RUSAGE_SELF)[:2])
print(json.dumps({"pages": int(sys.argv[2]) + 1, "cpu_s": cpu, "critical_s": cpu, "shards": 1}))
"""
GOALS = {1000: 10.0, 10_000: 90.0}  # records -> seconds
MEMORY_GOAL_MIB = 4096  # the 10,000-record build's process tree at its peak
SMOKE_RECORDS = 25  # the fewest `generate` makes: five papers, as each work cites five


WORDS = ("the layer attention gradient step context model loss task token weight update linear "
         "regression trained constructed alignment curvature kernel feature query").split()


def _prose(rng: random.Random, refs: list[str], n: int = 60) -> str:
    words = [rng.choice(WORDS) for _ in range(n)]
    for ref in rng.sample(refs, min(3, len(refs))):
        words.insert(rng.randrange(len(words)), ref)
    return " ".join(words) + "."


def generate(root: Path, n: int, seed: int = 0, sourced: bool = True,
             env: dict[str, str] | None = None) -> dict[str, int]:
    """n records with links between them, two analyses and a result in `root`; `sourced`: each
    expectation says its source (which litrec asks since; the 0.1.0 release knows no such field);
    `env`: the environment of the litrec that runs the result (the release's, for its records)."""
    rng = random.Random(seed)
    source = (", source: {kind: paper, where: Prop. 1, quote: the bound holds, threshold: paper}"
              if sourced else "")
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
            f"        - {{metric: max_abs_error, op: \"<\", value: 1.0e-6, paper: 0.0{source}}}\n"
            f"  - id: F1\n    kind: finding\n    title: Finding of paper {i + 1}\n"
            f"    statement: {_prose(rng, [], 40)}\n    where: {{section: \"3\", figure: \"2\"}}\n"
            "    check:\n      analysis: bench-training\n      expect:\n"
            f"        - {{metric: loss_trained, op: \"≈\", ref: loss_gd, rel_tol: 0.01, paper: 0.2{source}}}\n"
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
        (analysis / f"{name}.py").write_text(IDENTITY if name == "bench_identity" else (
            f'"""{name}: a stub the site benchmarks register; never run here."""\n\n'
            'PROFILES = {"paper": {}}\n\n\ndef run(config, progress=None):\n    return {}\n'))
    (analysis / "registry.yaml").write_text(
        "bench-identity:\n  module: bench_identity\n  title: The identity\n"
        "bench-training:\n  module: bench_training\n  title: Training\n")
    _result(root, env)
    return {"literature": n_lit, "note": n_note, "theory": n_th, "decision": n_dec,
            "work": n_work, "anthology": n_anth}


def _result(root: Path, env: dict[str, str] | None = None) -> None:
    """A current result for bench-identity, with a figure, by `litrec run` (of `env`: the
    litrec that reads the records); bench-training stays not run."""
    subprocess.run([sys.executable, "-m", "litrec", "run", "bench-identity", "--profile", "paper",
                    "--allow-not-reproduced"], cwd=root, check=True, capture_output=True, env=env)


def bare(root: Path, n: int) -> Path:
    """The baseline's project: n trivial pages out of the nav, MkDocs Material and its search."""
    d = root / "bare"
    (d / "docs" / "pages").mkdir(parents=True)
    (d / "docs" / "index.md").write_text("# Bare\n\nThe baseline's home page.\n")
    for i in range(n):
        (d / "docs" / "pages" / f"page-{i + 1}.md").write_text(
            f"# Page {i + 1}\n\nA trivial page of the baseline, number {i + 1}.\n")
    (d / "mkdocs.yml").write_text(
        "site_name: bare\ntheme:\n  name: material\nplugins:\n  - search\n"
        "use_directory_urls: false\nnav:\n  - Home: index.md\nnot_in_nav: |\n  /pages/*.md\n")
    return d / "mkdocs.yml"


def configs(root: Path, release_root: Path | None = None) -> dict[str, Path]:
    """litrec's own mkdocs.yml, and the baseline: the same with every page in the nav; with
    `release_root`, the release's own mkdocs.yml and site/ too ("release")."""
    out = {}
    for name, repo in (("litrec", REPO), ("in-nav", REPO), ("release", release_root)):
        if repo is None:
            continue
        d = root / name
        d.mkdir()
        os.symlink(repo / "site", d / "site")
        out[name] = d / "mkdocs.yml"
    shutil.copy(REPO / "mkdocs.yml", out["litrec"])
    if release_root is not None:
        shutil.copy(release_root / "mkdocs.yml", out["release"])
    pages = sorted(p.relative_to(root / "records").with_suffix("") for p in (root / "records").rglob("*.yaml"))
    entries = []
    for p in pages:
        folder = "anthology" if p.parts[0] == "anthology" else "records"
        entries.append(f"      - {p.name}: {folder}/{p.name}.md")
    out["in-nav"].write_text(
        f"INHERIT: {REPO / 'mkdocs.yml'}\nnot_in_nav: ''\nnav:\n  - Home: index.md\n"
        "  - Records: records/index.md\n  - Anthology: anthology/index.md\n"
        "  - Analyses:\n      - analyses/index.md\n      - analyses/bench-identity.md\n"
        "      - analyses/bench-training.md\n  - Graph: graph.md\n"
        "  - Guide:\n      - guide.md\n      - writing-analyses.md\n"
        + "".join(f"      - {p.name}: {p.name}\n" for p in sorted((REPO / "site").glob("*.md"))
                  if p.name not in ("index.md", "guide.md", "writing-analyses.md"))
        + "  - All records:\n" + "\n".join(entries) + "\n")
    return out


def _tree_rss(pid: int) -> tuple[int, int]:
    """(RSS summed over `pid` and its descendants, the largest one's), in bytes, from /proc."""
    parent: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as fh:
                    parent[int(entry)] = int(fh.read().rsplit(b")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                pass
    tree, todo = [], [pid]
    while todo:
        p = todo.pop()
        tree.append(p)
        todo += [c for c, pp in parent.items() if pp == p]
    sizes = []
    for p in tree:
        try:
            with open(f"/proc/{p}/statm", "rb") as fh:
                sizes.append(int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE"))
        except (OSError, IndexError, ValueError):
            pass
    return sum(sizes), max(sizes, default=0)


def run_once(cmd: list[str], fresh: list[Path], env: dict | None = None,
             cwd: Path | None = None) -> tuple[float, dict]:
    """One build as a process, its folders in `fresh` removed first; (wall s, its report with
    the tree's and the largest process's peak RSS in MiB)."""
    for d in fresh:
        shutil.rmtree(d, ignore_errors=True)
    env = {**(env or os.environ), "NO_MKDOCS_2_WARNING": "1"}
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            cwd=cwd)
    tree = largest = 0
    while proc.poll() is None:  # sampled until the process ends (its pipes are small)
        if os.path.isdir("/proc"):
            t, big = _tree_rss(proc.pid)
            tree, largest = max(tree, t), max(largest, big)
        time.sleep(0.2)
    out, err = proc.communicate()
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        sys.exit(f"build failed ({' '.join(cmd[:3])}):\n{err[-3000:]}")
    rep = json.loads(out.strip().splitlines()[-1])
    rep.update(tree_mib=tree / 2**20, largest_mib=largest / 2**20)
    return wall, rep


def _size_mib(folder: Path) -> float:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / 2**20


def measure(n: int, repeats: int, chosen: list[str],
            rel: release.Tree | None = None) -> dict[str, tuple[float, dict]]:
    """Every chosen variant on n generated records: name -> (median wall s, median report).
    The variants' builds are interleaved, the order reversed every other round."""
    py = sys.executable
    out = {}
    if rel is None:
        chosen = [c for c in chosen if c != "release"]
    with tempfile.TemporaryDirectory(prefix="litrec-site-bench-") as tmp:
        root = Path(tmp)
        kinds = generate(root, n)
        cfg = configs(root, rel.root if rel else None)
        cfg["bare"] = bare(root, n)
        projects = {"release": root / "for-release"} if "release" in chosen else {}
        if projects:  # the release's own records: the same, without the field it does not read
            generate(projects["release"], n, sourced=False, env=rel.env if rel else None)
        print(f"\n{n} records ({', '.join(f'{v} {k}' for k, v in kinds.items())}); {os.cpu_count()} "
              f"cores, load average {os.getloadavg()[0]:.1f}; median of {repeats} fresh builds")
        print(f"  {'variant':<10} {'wall':>8} {'critical':>9} {'CPU':>8} {'tree RSS':>9} {'largest':>8} "
              f"{'site':>7}  runs")
        got: dict[str, list] = {name: [] for name in chosen}
        for name in release.interleaved(repeats, chosen):
            config = cfg[name if name in ("in-nav", "bare", "release") else "litrec"]
            if name == "bare":
                cmd = [py, "-c", BARE, str(config), str(n)]
            else:
                cmd = [py, "-c", CHILD, str(projects.get(name, root)), str(config),
                       "1" if name in ("litrec-1p", "in-nav") else "auto"]
            built = config.parent / ("site" if name == "bare" else "public")
            env = rel.env if name == "release" else release.Tree("current", REPO).env
            # from its config's folder, where `site` is: mkdocs.yml's snippets read site/
            got[name].append(run_once(cmd, [config.parent / "build", built], env, config.parent))
            if name != "release" and got[name][-1][1].get("errors"):  # the generator fell behind
                sys.exit(f"{name}: {got[name][-1][1]['errors']} generated records are invalid: "
                         "bring generate() up to today's rules (`litrec validate` on its folder)")
        for name in chosen:
            built = cfg[name if name in ("in-nav", "bare", "release") else "litrec"].parent / (
                "site" if name == "bare" else "public")
            runs = got[name]
            walls = [w for w, _ in runs]
            med = {k: statistics.median(r[k] for _, r in runs)
                   for k in ("cpu_s", "critical_s", "tree_mib", "largest_mib")}
            med["tree_mib"] = max(r["tree_mib"] for _, r in runs)  # the worst run's peak
            med["largest_mib"] = max(r["largest_mib"] for _, r in runs)
            last = runs[-1][1]
            extra = f" (generate {last['generate_s']:.1f} s, MkDocs {last['mkdocs_s']:.1f} s)" \
                if "generate_s" in last else ""
            print(f"  {name:<10} {statistics.median(walls):7.2f}s {med['critical_s']:8.2f}s "
                  f"{med['cpu_s']:7.2f}s {med['tree_mib']:6.0f}MiB {med['largest_mib']:5.0f}MiB "
                  f"{_size_mib(built):4.0f}MiB  {', '.join(f'{w:.2f}' for w in walls)}; "
                  f"{last['shards']} process{'es' * (last['shards'] > 1)}, {last['pages']} pages{extra}",
                  flush=True)
            out[name] = (statistics.median(walls), med, walls)
    print("  (critical: the longest chain of CPU work, i.e. the wall time on idle cores; tree RSS: "
          "the peak of the RSS summed over the build's processes; largest: one process's peak)")
    return out


VARIANTS = ("litrec", "bare", "release", "litrec-1p", "in-nav")


def main() -> None:
    """Measure each size, print the detail, then one row per figure."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--records", default="1000,10000", help="comma-separated sizes (default: 1000,10000)")
    ap.add_argument("--repeats", type=int, default=None,
                    help="builds per variant (default: 3 below 5,000 records, else 1)")
    ap.add_argument("--only", default="litrec,bare,release",
                    help=f"comma-separated variants of {', '.join(VARIANTS)} "
                         "(default: litrec,bare,release)")
    release.add_release_argument(ap)
    report.add_json_argument(ap)
    args = report.parse(ap, records=str(SMOKE_RECORDS), repeats=1, only="litrec,bare")
    chosen = [v for v in VARIANTS if v in args.only.split(",")]
    rows, keep = [], []
    with release.trees(args.against) as trees:
        rel = trees[1] if len(trees) > 1 else None
        for n in (int(x) for x in args.records.split(",")):
            res = measure(n, args.repeats or (3 if n < 5000 else 1), chosen, rel)
            _rows(n, res, rows, keep, rel)
    print(f"(load average now {os.getloadavg()[0]:.1f})")
    report.emit(rows + keep, args.json)


def _rows(n: int, res: dict, rows: list, keep: list, rel) -> None:
    """The rows of one size: litrec against bare MkDocs, and against the release."""
    if "litrec" in res:
        wall, med, walls = res["litrec"]
        base = res.get("bare")
        label = f"{n // 1000}k" if n % 1000 == 0 else str(n)
        goal = GOALS.get(n)
        rows.append(report.Row(f"site build {label}", wall, "s", f"bare MkDocs {label} pages",
                               base[0] if base else None, f"< {goal:g} s" if goal else "",
                               wall < goal if goal else None))
        mem_goal = MEMORY_GOAL_MIB if n >= 10_000 else None
        rows.append(report.Row(f"site build {label} peak memory (process tree)", med["tree_mib"],
                               "MiB", f"bare MkDocs {label} pages", base[1]["tree_mib"] if base else None,
                               f"< {mem_goal} MiB" if mem_goal else "",
                               med["tree_mib"] < mem_goal if mem_goal else None))
        if "release" in res:
            keep.append(release.keep_row(f"site build {label}", walls, res["release"][2], "s",
                                         rel.name))
            keep.append(release.keep_row(f"site build {label} peak memory", [med["tree_mib"]],
                                         [res["release"][1]["tree_mib"]], "MiB", rel.name))


if __name__ == "__main__":
    main()

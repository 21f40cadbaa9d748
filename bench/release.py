"""The 0.1.0 release beside the current tree: the "keep what is met" rows of `make bench`.

A script that keeps a 0.1.0 figure measures it twice in the same run, once with
the current tree's `litrec` and once with the release's, interleaved (current,
release, release, current, ...), so a busy moment of a shared machine hits both
alike. Both run as whole processes of the same interpreter and installed packages,
each with its own `src/` first on PYTHONPATH: the release's source is `git archive`
of its commit in a temporary folder; nothing of the working copy is touched. Both
are timed as an installed package runs: their modules compiled to bytecode first,
and `PYTHONDONTWRITEBYTECODE` left out of their environment.

Which commit is 0.1.0: the tag `v0.1.0` where the clone has it; else the tree its
CHANGELOG section describes and its "Benchmarks of 0.1.0" table measured, the last
commit before `## Unreleased` was opened above `## 0.1.0` (the commit `Release 0.1.0`
and the work listed under it afterwards, such as the validation cache). `--against`
also takes any git revision.

The row it adds (`keep_row`): the current median against the release's median,
goal `<= 1.10x 0.1.0`, met or not.

    python bench/validate_scale.py --against 0.1.0     (the default; --against none skips it)
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path

import report

REPO = Path(__file__).resolve().parents[1]
RELEASE = "0.1.0"
KEEP = 1.10  # the current figure may be at most this many times the release's


@dataclass(frozen=True)
class Tree:
    """One version of litrec to time: a name for the tables, its root (with src/, results/...)."""

    name: str
    root: Path

    @property
    def env(self) -> dict[str, str]:
        """The environment that makes `python -m litrec` this tree's litrec."""
        env = dict(os.environ)
        # as installed: with its bytecode (pip compiles a package it installs), whatever the
        # shell says; a tree compiled from source in every process measures the compiler
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPATH"] = os.pathsep.join(
            [str(self.root / "src")] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
        return env


def add_release_argument(parser) -> None:
    """Adds `--against VERSION` (default the release 0.1.0; `none` skips the comparison)."""
    parser.add_argument("--against", default=RELEASE, metavar="VERSION",
                        help=f"also time the release VERSION in the same run (default {RELEASE}; "
                             "'none': only the current tree)")


def _git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(REPO), *args], capture_output=True, text=True,
                          check=False).stdout.strip()


def _first_section(rev: str) -> str:
    """The first `## ` heading of CHANGELOG.md at `rev`."""
    text = _git("show", f"{rev}:CHANGELOG.md")
    return next((ln for ln in text.splitlines() if ln.startswith("## ")), "")


def release_commit(version: str = RELEASE) -> str:
    """The commit of release `version` (see the module's docstring), or of a git revision."""
    for rev in (f"v{version}", version):
        commit = _git("rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
        if commit:
            return commit
    start = _git("log", "--format=%H", "-1", "--fixed-strings", f"--grep=Release {version}:")
    if not start:
        raise SystemExit(f"no tag v{version}, no revision {version} and no commit "
                         f"'Release {version}:' in {REPO}; fetch the tags or pass --against none")
    later = _git("rev-list", "--reverse", "--ancestry-path", "--first-parent", f"{start}..HEAD",
                 "--", "CHANGELOG.md").split()
    for rev in later:
        if _first_section(rev).startswith("## Unreleased"):
            return _git("rev-parse", f"{rev}^")
    return start


@contextmanager
def trees(against: str, current: Path = REPO, snapshot: bool = False):
    """[current tree, release tree] (only the current one with `against` 'none').

    The release's files are `git archive` of its commit in a temporary folder. With
    `snapshot`, the current tree is one too (`git archive HEAD`, plus the working copy's
    uncommitted changes to src/), for benchmarks that run commands in the tree itself.
    """
    with tempfile.TemporaryDirectory(prefix="litrec-bench-trees-") as tmp:
        out = [Tree("current", current)]
        if snapshot:
            out = [Tree("current", _archive("HEAD", Path(tmp) / "current"))]
            shutil.copytree(current / "src", out[0].root / "src", dirs_exist_ok=True,
                            ignore=shutil.ignore_patterns("__pycache__"))
        if against.lower() != "none":
            commit = release_commit(against)
            out.append(Tree(f"{against} ({commit[:9]})", _archive(commit, Path(tmp) / "release")))
        for tree in out:  # each tree's modules compiled before any is timed, as pip leaves them
            subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree.root / "src")],
                           capture_output=True, check=False)
        yield out


def _archive(rev: str, dest: Path) -> Path:
    data = subprocess.run(["git", "-C", str(REPO), "archive", "--format=tar", rev],
                          capture_output=True, check=True).stdout
    dest.mkdir(parents=True)
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(dest, filter="data")
    return dest


def interleaved(n: int, items: list) -> list:
    """`items` n times, the order reversed every other round (ABBA), so drift hits each alike."""
    return [x for i in range(n) for x in (items if i % 2 == 0 else items[::-1])]


def keep_row(figure: str, now: list[float], then: list[float], unit: str, release: str) -> report.Row:
    """The current figure's median against the release's median: met when at most 1.10x."""
    a, b = statistics.median(now), statistics.median(then)
    return report.Row(f"{figure} vs {release.split()[0]}", a, unit, release, b,
                      f"<= {KEEP:.2f}x baseline", a <= KEEP * b)

"""A researcher's day, played end to end on a fresh clone whose results another CPU computed.

The origin is a toy project (a NumPy analysis at the scales `paper` and `paper_full`, one paper
with a claim and its extension, mkdocs.yml and this repository's site pages), its records
committed before its results, which are computed as of another CPU (`machine_isa` with a
feature more, in this process, as tests/runs/test_other_machine.py does) and committed. The
researcher clones it (`git clone`) and, each command in its own process as they would type it,
follows site/add-a-paper.md: imports the BibTeX of Garg et al., "What Can Transformers Learn
In-Context?" (NeurIPS 2022, arXiv 2208.01066), appends a claim (`litrec new claim`), writes an
analysis (`litrec new analysis`, then a tiny NumPy one of its own with the profiles `quick` and
`paper` only, no `paper_full`) and its test, runs it, reads `status`, builds the site; then
tightens the extension's tolerance, reads `diff`, runs again and exports the numbers to LaTeX
(compiled with pdflatex where installed).

At every step: the exit status the page documents (0 unless it says otherwise), no traceback,
and every command a hint names (`litrec run ... --force`, `litrec status --profile quick
--verbose`, ...) runs in a copy of the clone as it then stands and exits 0; a plain `run`
leaves every committed result as it was (another CPU's are kept, never recomputed or
re-stamped).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from litrec.analyses import inputs as inputs_module
from litrec.runs import sweep
from tests.conftest import REPO
from tests.support.files import write
from tests.support.toy import analysis, importable

pytestmark = [pytest.mark.slow,  # some 40 commands in their own processes and a site build
              pytest.mark.skipif(shutil.which("git") is None, reason="no git on this machine")]

PAPER = "source: {kind: paper, where: §1, quote: a test claim, threshold: paper}"
EXTENSION = "source: {kind: extension, reason: litrec's own test}"
TOY = analysis(head="import numpy as np", fields="n: int = 5",
               profiles='{"quick": Config(n=5), "paper": Config(n=6), "paper_full": Config(n=7)}',
               body='return {"metrics": {"total": float(np.arange(config.n).sum())}}')
TOY_PAPER = f"""\
id: ARXIV-0000.00007
kind: literature
title: A toy paper computed elsewhere
claims:
  - id: F1
    kind: finding
    title: The total is ten or more
    statement: The sum of the first numbers is ten or more.
    check:
      analysis: toy
      expect:
        - {{metric: total, op: ">=", value: 10, {PAPER}}}
        - {{metric: total, op: "<", value: 100, {EXTENSION}}}
"""
REGISTRY = "scales: [paper, paper_full]\ntoy:\n  module: toy\n  title: Toy\n"
GITIGNORE = ".litrec-cache/\nbuild/\npublic/\n__pycache__/\n*.aux\n*.log\n*.pdf\n"

GARG = "ARXIV-2208.01066"
BIB = """\
@inproceedings{garg2022what,
  title         = {What Can Transformers Learn In-Context? A Case Study of Simple Function Classes},
  author        = {Garg, Shivam and Tsipras, Dimitris and Liang, Percy and Valiant, Gregory},
  booktitle     = {Advances in Neural Information Processing Systems},
  volume        = {35},
  year          = {2022},
  eprint        = {2208.01066},
  archivePrefix = {arXiv},
}
"""
NAME, MODULE = "lsq-in-context", "lsq_in_context"
ANALYSIS = '''\
"""Garg et al. (2022), Figure 2: least squares on in-context examples of a linear function.

For w ~ N(0, I_d) and k examples x_i ~ N(0, I_d), y_i = w . x_i, the least-squares fit predicts
a query's y; its squared error over d falls to zero once k >= d. The metrics: that normalized
error with k = d / 2 examples and with k = 2 d, averaged over prompts.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Config:
    """The settings of one run; every random quantity derives from `seed`."""

    seed: int = 0          # the prompts' generator
    d: int = 20            # the dimension (the paper's d = 20)
    prompts: int = 400     # prompts averaged over


PROFILES = {
    "quick": Config(prompts=200),  # under a second: what the tests run
    "paper": Config(),
}


def error_at(rng: np.random.Generator, d: int, k: int, prompts: int) -> float:
    """The mean over prompts of the least-squares prediction's squared error, over d."""
    errors = []
    for _ in range(prompts):
        w = rng.standard_normal(d)                          # (d,)
        x = rng.standard_normal((k + 1, d))                 # (k+1, d)
        fit = np.linalg.lstsq(x[:k], x[:k] @ w, rcond=None)[0]  # (d,): minimum norm below d
        errors.append((x[k] @ (fit - w)) ** 2 / d)
    return float(np.mean(errors))


def run(config: Config, progress=None) -> dict:
    """The normalized error with half as many examples as dimensions, and with twice as many."""
    rng = np.random.default_rng(config.seed)
    half = error_at(rng, config.d, config.d // 2, config.prompts)
    twice = error_at(rng, config.d, 2 * config.d, config.prompts)
    if progress is not None:
        progress(1, 1, "prompts")
    return {"metrics": {"error_half_d": half, "error_twice_d": twice},
            "notes": [f"{config.prompts} prompts, d = {config.d}"]}
'''
ANALYSIS_TEST = f'''\
"""The quick profile of {NAME}: least squares is exact from d examples on, not below."""

from analysis import {MODULE} as analysis


def test_exact_past_d_and_half_wrong_at_half_d():
    metrics = analysis.run(analysis.PROFILES["quick"])["metrics"]
    assert metrics["error_twice_d"] < 1e-6
    assert 0.3 < metrics["error_half_d"] < 0.7
'''
SKELETON_STATEMENT = "    statement: >-\n      TODO: what the record states, in your words.\n"
CHECK = """\
    statement: >-
      With as many in-context examples as dimensions, least squares predicts a linear
      function's next value exactly; with half as many, it misses about half the signal.
    where: {figure: "2", section: 3}
    check:
      analysis: lsq-in-context
      expect:
        - {metric: error_twice_d, op: "<", value: 0.001,
           source: {kind: paper, where: Figure 2, quote: least squares achieves zero error,
                    threshold: litrec, threshold_reason: zero up to round-off}}
        - {metric: error_half_d, op: "≈", value: 0.5, abs_tol: TOL,
           source: {kind: extension, reason: below d examples the fit misses about 1 - k/d of it}}
"""
WAS, NOW = "error_half_d ≈ 0.5 (±0.2 abs)", "error_half_d ≈ 0.5 (±0.1 abs)"
MANUSCRIPT = r"""\documentclass{article}
\input{litrec-numbers}
\begin{document}
Least squares, in context: \litrecGargFOnePaperVerdict{} (error \litrecGargFOnePaperValue{},
expected \litrecGargFOnePaperExpected{}); litrec's own test: \litrecGargFOneExtPaperVerdict{}.
\end{document}
"""

# a command as litrec names it in a hint: `litrec run ... --force`, never `litrec status:`
HINT = re.compile(r"litrec (?:run|status|sign|review|validate|diff|export|site)(?!:)(?: [A-Za-z0-9_.#+=-]+)*")
TAKES_VALUE = {"--profile", "--format", "--out", "--results", "--records"}
ENV = {"NO_COLOR": "1", "COLUMNS": "200", "GIT_AUTHOR_NAME": "A. Researcher",
       "GIT_AUTHOR_EMAIL": "a@example.org", "GIT_COMMITTER_NAME": "A. Researcher",
       "GIT_COMMITTER_EMAIL": "a@example.org", "GIT_CONFIG_NOSYSTEM": "1"}


def _git(root: Path, *args: str) -> str:
    env = {**os.environ, **ENV, "HOME": str(root.parent)}
    return subprocess.run(["git", *args], cwd=root, env=env, check=True, capture_output=True,
                          text=True).stdout


def _origin(root: Path, monkeypatch, cli) -> Path:
    """The toy project, its records committed, then its results computed as of another CPU
    and committed."""
    write(root, "analysis/__init__.py", "")
    write(root, "analysis/toy.py", TOY)
    write(root, "analysis/registry.yaml", REGISTRY)
    write(root, "records/literature/ARXIV-0000.00007.yaml", TOY_PAPER)
    write(root, ".gitignore", GITIGNORE)
    shutil.copy(REPO / "mkdocs.yml", root / "mkdocs.yml")
    shutil.copytree(REPO / "site", root / "site")
    _git(root, "init", "-q", "-b", "main")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "The toy paper's records")
    with monkeypatch.context() as m:
        importable(root, m)
        m.setenv("LITREC_SANDBOX", "off")  # the points run in this process, where the CPU is patched
        other = (*inputs_module.machine_isa(), "amx_tile_x")
        for module in (inputs_module, sweep):
            m.setattr(module, "machine_isa", lambda: other)
        for profile in ("quick", "paper", "paper_full"):
            code, out, err = cli("run", "--profile", profile, "--jobs", "1")
            assert code == 0, out + err
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "Results, computed on another CPU")
    return root


def _hints(text: str, known: set[str]) -> list[str]:
    """The commands `text` names, each cut where its words stop being arguments (`litrec status
    says why` is `litrec status`)."""
    found = []
    for match in HINT.findall(text):
        words = match.split()
        kept = words[:2]
        for word in words[2:]:
            if not (word.startswith("-") or word in known or kept[-1] in TAKES_VALUE):
                break
            kept.append(word)
        found.append(" ".join(kept))
    return found


class Day:
    """The clone, and every command typed in it: each checked, its hints gathered and run."""

    def __init__(self, root: Path, scratch: Path):
        self.root, self.scratch, self.ran = root, scratch, set()
        self.env = {**os.environ, **ENV, "HOME": str(root.parent),
                    "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
        self.env.pop("LITREC_TEST_PROJECT", None)

    def known(self) -> set[str]:
        """What a hint's argument may be: profiles, analyses, records and claims of the clone."""
        names = {"quick", "paper", "paper_full", "toy", NAME, "ARXIV-0000.00007", GARG}
        return names | {f"{r}#F1{e}" for r in ("ARXIV-0000.00007", GARG) for e in ("", "+ext")}

    def sh(self, *argv: str, code: int = 0, cwd: Path | None = None) -> str:
        """A command in the clone (or `cwd`), as a user types it: its exit status `code`, no
        traceback; returns standard output and error together."""
        proc = subprocess.run(argv, cwd=cwd or self.root, env=self.env, capture_output=True,
                              text=True, timeout=300)
        said = proc.stdout + proc.stderr
        assert proc.returncode == code, f"{' '.join(argv)}: exit {proc.returncode}, not {code}\n{said}"
        assert "Traceback" not in said, f"{' '.join(argv)}\n{said}"
        return said

    def litrec(self, *args: str, code: int = 0) -> str:
        """`litrec ARGS` (as `sh`), then every command its output names, each in a copy."""
        said = self.sh("litrec", *args, code=code)
        lines = said.splitlines()
        for line, after in zip(lines, lines[1:]):  # a hint is copied as it stands: never split
            assert not (HINT.search(line) and after.lstrip().startswith("--")), \
                f"litrec {' '.join(args)}: a command split across two lines:\n{line}\n{after}"
        self.try_hints(said)
        return said

    def try_hints(self, said: str) -> None:
        """Each command `said` names, not yet tried, in a copy of the clone as it stands now:
        it exits 0, without a usage error or a profile the analysis lacks."""
        for hint in _hints(said, self.known()):
            if hint in self.ran:
                continue
            self.ran.add(hint)
            copy = self.scratch / f"hint-{len(self.ran)}"
            shutil.copytree(self.root, copy, symlinks=True)
            out = self.sh(*hint.split(), cwd=copy)
            assert "usage:" not in out and not re.search(r"\berror:", out), f"{hint}\n{out}"
            if hint.startswith("litrec run"):  # a note may name what a run over all leaves out
                assert not re.search(r"has no profile|unknown profile", out.replace(
                    "not run, no profile", "")), f"{hint}\n{out}"

    def committed_results(self) -> dict[str, bytes]:
        """Every committed file under results/, as it is in the clone now."""
        files = _git(self.root, "ls-files", "results").split()
        return {f: (self.root / f).read_bytes() for f in files}

    def commit(self, message: str) -> None:
        _git(self.root, "add", "-A")
        _git(self.root, "commit", "-q", "-m", message)


def _garg_record(day: Day) -> Path:
    return day.root / "records" / "literature" / f"{GARG}.yaml"


def test_a_researcher_s_day_on_a_clone_of_another_cpu_s_results(tmp_path, monkeypatch, cli):
    origin = _origin(tmp_path / "origin", monkeypatch, cli)
    _git(tmp_path, "clone", "-q", str(origin), "clone")
    day = Day(tmp_path / "clone", tmp_path)
    elsewhere = day.committed_results()
    assert any(f.startswith("results/toy/paper_full") for f in elsewhere)

    # the clone as it comes: another CPU's results, kept by a plain run, said once per scale
    said = day.litrec("status")
    lines = said.splitlines()
    assert lines[0] == ("1 claim of ARXIV-0000.00007: 1 stale; 1 extension beside them: 1 stale "
                        "(profile paper_full, the paper's own scale)")  # the summary first
    assert said.count("amx_tile_x not here") == 2  # once per scale, after the rows
    assert max(i for i, ln in enumerate(lines) if ln.startswith("ARXIV-")) < next(
        i for i, ln in enumerate(lines) if "amx_tile_x not here" in ln)
    said = day.litrec("run")
    assert "kept 1 result computed on another CPU" in said
    assert day.committed_results() == elsewhere

    # site/add-a-paper.md, 1: the record from BibTeX, a claim in it, validate
    (day.root / "garg.bib").write_text(BIB, encoding="utf-8")
    said = day.litrec("import", "bibtex", "garg.bib")
    assert f"created records/literature/{GARG}.yaml" in said
    said = day.litrec("new", "claim", GARG, "--kind", "finding", "--title",
                      "Least squares in context is exact from d examples on")
    assert f"added {GARG}#F1 (finding)" in said
    day.litrec("validate")
    said = day.litrec("run", f"{GARG}#F1", "--profile", "quick", code=2)  # no analysis yet: exits 2
    assert f"{GARG}#F1 has no analysis yet" in said
    assert (day.root / "site" / "add-a-paper.md").is_file()  # the page the message names

    # 3: the analysis and its test, from `litrec new analysis`, then written
    said = day.litrec("new", "analysis", NAME, "--title", "Least squares on in-context examples")
    assert f"created analysis/{MODULE}.py" in said and f"registered {NAME}" in said
    (day.root / "analysis" / f"{MODULE}.py").write_text(ANALYSIS, encoding="utf-8")
    (day.root / "tests" / "analyses" / f"test_{MODULE}.py").write_text(ANALYSIS_TEST, encoding="utf-8")
    said = day.sh(sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                  f"tests/analyses/test_{MODULE}.py")
    assert "1 passed" in said

    # 4: the claim's check, committed before the run (pre-registered)
    record = _garg_record(day)
    text = record.read_text(encoding="utf-8")
    assert SKELETON_STATEMENT in text
    record.write_text(text.replace(SKELETON_STATEMENT, CHECK.replace("TOL", "0.2")), encoding="utf-8")
    day.litrec("validate")
    day.commit("Garg et al.: F1, its analysis and test, before the run")

    # 5-7: run quick, then paper; status; the site
    said = day.litrec("run", NAME, "--profile", "quick")
    assert f"{GARG}#F1      reproduced" in said and f"{GARG}#F1+ext  reproduced" in said
    said = day.litrec("run", NAME, "--profile", "paper")
    assert f"{GARG}#F1      reproduced" in said
    assert {f: b for f, b in day.committed_results().items() if f in elsewhere} == elsewhere
    said = day.litrec("status", "--profile", "quick")
    assert said.splitlines()[0].startswith("at paper_full, the paper's own scale: 1 claim of "
                                           "ARXIV-0000.00007: 1 stale")
    assert f"{GARG}#F1      reproduced" in said and "post hoc" not in said
    said = day.litrec("status")  # at paper_full, which the new analysis does not declare
    assert f"its analysis '{NAME}' has no profile 'paper_full'" in said
    assert f"litrec run {GARG}" not in said  # unchecked there: nothing to run
    said = day.litrec("site", "build")
    assert "no warnings" in said and (day.root / "public" / "records" / f"{GARG}.html").is_file()
    day.commit("Garg et al.: results")
    committed = day.committed_results()

    # an extension's tolerance tightened after the run: its +ext row alone shows it
    record.write_text(record.read_text(encoding="utf-8").replace("abs_tol: 0.2", "abs_tol: 0.1"),
                      encoding="utf-8")
    said = day.litrec("diff", "--profile", "paper")
    assert f"{GARG}#F1+ext  reproduced\n    expectation changed since the run, not yet run: {WAS} → {NOW}" in said
    assert f"{GARG}#F1 " not in said  # the claim's own row: unchanged
    said = day.litrec("status", "--profile", "paper")
    assert f"{GARG}#F1      reproduced" in said  # the claim as it was judged
    assert f"{GARG}#F1+ext  expectation changed" in said
    said = day.litrec("run")  # exit 0, as before the edit; nothing committed changes
    assert "nothing to run" in said
    assert day.committed_results() == committed

    # the numbers in a manuscript
    paper = tmp_path / "manuscript"
    paper.mkdir()
    said = day.litrec("export", "tex", "--profile", "paper", "--out", str(paper / "litrec-numbers.tex"))
    assert "wrote" in said
    macros = (paper / "litrec-numbers.tex").read_text(encoding="utf-8")
    assert r"\newcommand{\litrecGargFOnePaperVerdict}{reproduced}" in macros
    assert r"\newcommand{\litrecGargFOneExtPaperVerdict}{expectation changed}" in macros
    (paper / "paper.tex").write_text(MANUSCRIPT, encoding="utf-8")
    assert day.committed_results() == committed
    if shutil.which("pdflatex") is None:
        pytest.skip("the manuscript's compilation: pdflatex not installed "
                    "(apt-get install texlive-latex-base); every step before it passed")
    day.sh("pdflatex", "-interaction=nonstopmode", "-halt-on-error", "paper.tex", cwd=paper)
    assert (paper / "paper.pdf").stat().st_size > 1000
    assert len(day.ran) >= 4, sorted(day.ran)  # the hints were gathered, and each one ran

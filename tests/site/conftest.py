"""A site built once per session from a temporary project.

The project is the fixture project (tests/fixtures/project: the seed records as
they stood when these tests were written, frozen so the expected verdicts stay
put while the seed evolves, and a stub registry of their analyses) with the
overlay tests/fixtures/hostile copied over it: two hostile records (HTML and
script in every text field; a DOI id with parentheses). Registry titles get
HTML too, and results are written straight to disk through `litrec.results.store`,
so that every verdict appears: reproduced, not reproduced, stale, not run.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from litrec.analyses.inputs import RESULT_FORMAT
from litrec.analyses.inputs import result_inputs as fingerprint
from litrec.commands import main
from litrec.records.load import load_project
from litrec.results.seal import seal
from litrec.results.store import write_result
from tests.conftest import REPO, copy_project

PROFILE = "paper"
SVG = (b'<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60">'
       b'<rect width="120" height="60" fill="#cde"/><text x="10" y="35">figure</text></svg>')


@dataclass
class BuiltSite:
    root: Path
    out: Path
    docs: Path
    code: int
    stdout: str
    stderr: str


def make_project(root: Path) -> Path:
    """Fixture project + hostile overlay, HTML in registry titles, mkdocs.yml and site/ from the repo."""
    copy_project(root, "hostile")
    registry = root / "analysis" / "registry.yaml"
    entries = yaml.safe_load(registry.read_text(encoding="utf-8"))
    scales = entries.pop("scales")  # the registry's list of scales, not an analysis
    registry.write_text("".join(f"{name}:\n  module: {e['module']}\n  title: {name} <b>title</b>\n"
                                for name, e in entries.items()) + f"scales: {scales}\n", encoding="utf-8")
    shutil.copy(REPO / "mkdocs.yml", root / "mkdocs.yml")
    shutil.copytree(REPO / "site", root / "site")
    (root / "site" / "extra-page.md").write_text("# An extra page\n\nNot named in the nav.\n")
    write_results(root)
    return root


def _result(proj, name: str, metrics: dict, figures: list[str], stale: bool = False) -> None:
    fp = fingerprint(proj.registry, name, PROFILE)
    payload = {
        "format": RESULT_FORMAT, "analysis": name, "title": name, "profile": PROFILE,
        "code_hash": "0" * 64 if stale else fp.code_hash, "code_files": fp.files,
        "versions": fp.versions, "inputs": fp.record(), "litrec": "0.1.0",
        "platform": {"system": "Linux", "machine": "x86_64", "python": "3.11"},
        "device": {"platform": "cpu", "devices": ["cpu"]},
        "config": {"seed": 0, "n_tasks": 8}, "seed": 0,
        "started": "2026-10-10T12:00:00+00:00", "wall_time_s": 1.25,
        "metrics": metrics, "figures": {f: f"{PROFILE}/{f}.svg" for f in figures},
        "notes": ["a <b>note</b> from the analysis"],
    }
    figs = {f"{f}.svg": SVG for f in figures}
    write_result(proj.records_dir.parent / "results", name, PROFILE, seal(payload, figs), figs)


def write_results(root: Path) -> None:
    proj = load_project(root / "records", root / "analysis")
    _result(proj, "prop1-identity", {"max_abs_error_f64": 3e-16, "max_abs_error_f32": 2.4e-7,
                                     "max_abs_readout_error_f64": 4e-16}, ["error_by_task"])
    _result(proj, "single-layer-lsa", {
        "loss_trained": 0.2031, "loss_gd": 0.2029, "cos_sensitivity": 0.42, "model_diff": 0.09,
        "pred_diff": 0.02, "loss_interpolated": 0.2030,
        "ood": {"min_cos": 0.995, "max_rel_gap": 0.01, "max_rel_gap_interpolated": 0.01}},
            ["loss_curve"])
    _result(proj, "deeper-gdpp", {
        "k2": {"loss_trained": 0.11, "loss_gdpp": 0.112, "loss_gd": 0.155, "cos_vs_gdpp": 0.998,
               "cos_vs_gd": 0.95},
        "k5": {"loss_trained": 0.10, "loss_gd_shared_eta": 0.12, "cos_vs_gdpp": 0.99,
               "cos_vs_gd": 0.9}}, [], stale=True)
    _result(proj, "gd-input-range", {"loss_gd_code_range": 0.2001, "loss_gd_text_range": 0.8123}, [])


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> BuiltSite:
    """`litrec site build` run once, from the project's root, like a user would."""
    import io
    from contextlib import redirect_stderr, redirect_stdout

    root = make_project(tmp_path_factory.mktemp("siteproj"))
    out, err = io.StringIO(), io.StringIO()
    cwd = os.getcwd()
    os.chdir(root)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            code = main(["site", "build", "--out", "public"])
    finally:
        os.chdir(cwd)
    return BuiltSite(root, root / "public", root / "build" / "docs", code, out.getvalue(), err.getvalue())

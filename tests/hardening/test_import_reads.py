"""What an analysis reads as it is imported is an input too: a module of the analysis package
that reads a file at its top level (`VALUE = json.loads(Path(__file__).with_name("values.json")
.read_text())`) reads it once, when it is imported, and that may be before any point is observed
(the runner imports the analysis to lay out its points; a worker keeps what it imported for its
next points). Undeclared, the run fails with `UndeclaredInput` naming the file and the fix, with
its caches on, off or bypassed; declared in `DATA`, an edit to the file makes the result stale.
Both for a helper of the package and for the analysis module itself, with the points in litrec's
own process and in workers.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from litrec.analyses.analysisimport import compiled_sources, load_analysis
from litrec.analyses.inputs import analysis_inputs
from litrec.analyses.observe import check, observing
from litrec.util.errors import UndeclaredInput
from tests.support.answers import CLAIM, project_with, run_answer
from tests.support.files import write
from tests.support.toy import analysis, importable

READ = 'VALUE = json.loads(Path(__file__).with_name("values.json").read_text())'
DECLARED = 'DATA = ("analysis/values.json",)'


def _project(root: Path, reader: str, declared: bool = False, seeds: bool = False) -> Path:
    """The mini paper checked by a toy whose total is `VALUE["total"]`, read from
    analysis/values.json at import by `reader` (the analysis module itself, or a helper of its
    package), declared in that module's DATA or not; with `seeds`, the toy runs two seeds."""
    head = ["import json", "from pathlib import Path"]
    lines = [READ] + ([DECLARED] if declared else [])
    if reader == "helper":
        write(root, "analysis/helper.py", "\n".join([*head, "", *lines]) + "\n")
        head, lines = ["from analysis.helper import VALUE"], []
    if seeds:
        lines.append('SEEDS = {"quick": (0, 1), "paper": (0, 1)}')
    source = analysis(doc="A toy whose total a file read at import says.", head="\n".join([*head, "", *lines]),
                      fields="seed: int = 0", body='return {"metrics": {"total": float(VALUE["total"])}}')
    project_with(root, source)
    write(root, "analysis/values.json", '{"total": 10}\n')
    return root


READERS = ("analysis module", "helper")


def test_a_module_imported_before_its_point_brings_what_it_read_to_the_point(tmp_path, monkeypatch):
    """The runner lays out an analysis's points by importing it, unobserved; the point then
    uses the module it imported. What the module read at import is the point's read."""
    root = importable(_project(tmp_path / "p", "helper"), monkeypatch)
    load_analysis(str(root), "analysis", "toy")  # as `litrec.runs.points.layout` does
    files = analysis_inputs(root / "analysis", "toy", "quick").files
    with observing(root) as seen:
        load_analysis(str(root), "analysis", "toy", files)  # the point: nothing imported again
    assert str(root.resolve() / "analysis/values.json") in seen.opened
    with pytest.raises(UndeclaredInput, match="read analysis/values.json"):
        check(seen, "analysis", files, None, compiled_sources())


def _workers(how: str) -> tuple[tuple[str, ...], bool]:
    """The run's arguments and whether the toy runs seeds: its points in litrec's process, or
    two seeds in two local workers (each imports the analysis and keeps it)."""
    return (("--jobs", "2"), True) if how == "workers" else ((), False)


WHERE = ("this process", pytest.param("workers", marks=pytest.mark.slow))


@pytest.mark.parametrize("how", WHERE)
@pytest.mark.parametrize("reader", READERS)
def test_a_file_read_at_import_but_not_declared_is_refused(tmp_path, litrec, reader, how):
    args, seeds = _workers(how)
    root = _project(tmp_path / "p", reader, seeds=seeds)
    for extra, env in (([], None), (["--force"], None), ([], {"LITREC_NO_CACHE": "1"})):
        done = litrec("run", "--profile", "quick", *args, *extra, cwd=root, env=env)
        err = " ".join(done.err.split())
        assert done.code == 1, done.text
        assert "Traceback" not in err
        assert "UndeclaredInput" in err and "read analysis/values.json" in err, err
        assert "add it to the module's DATA" in err and "nothing was stored" in err, err
        assert not (root / "results/toy/quick.json").exists()


@pytest.mark.process
@pytest.mark.parametrize("how", WHERE)
@pytest.mark.parametrize("reader", READERS)
def test_an_edit_to_a_declared_file_read_at_import_makes_the_result_stale(tmp_path, litrec, reader, how):
    args, seeds = _workers(how)
    root = _project(tmp_path / "p", reader, declared=True, seeds=seeds)
    assert run_answer(litrec, root, *args)[1][CLAIM] == ("reproduced", {"total": 10.0})
    (root / "analysis/values.json").write_text('{"total": 12}\n', encoding="utf-8")
    status = litrec("status", "--profile", "quick", cwd=root)
    assert "data changed: analysis/values.json" in status.text, status.text
    doc, verdicts = run_answer(litrec, root, *args)
    assert doc["ran"] == ["toy"] and verdicts[CLAIM] == ("reproduced", {"total": 12.0})
    stored = json.loads((root / "results/toy/quick.json").read_text(encoding="utf-8"))
    assert list(stored["inputs"]["data"]) == ["analysis/values.json"]

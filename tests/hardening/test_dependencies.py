"""The distributions an analysis can load beyond those it imports are inputs of its result too
(`litrec.analyses.packages.dependencies`, `Inputs.deps`): a result stores them (`dependencies`),
and one of them upgraded, or the source of an editable install (`pip install -e`) edited under
the same version, makes the result stale with `dependencies changed: ...`. Status with its
caches on says what it says with every cache off, and `run` reruns the analysis whether its
caches are on, off or bypassed (`--force`), as in tests/hardening/test_inputs.py.

The packages are toys installed as pip lays them out, in the project's `.venv` (found through
PYTHONPATH): `toypkg`, which the analysis imports (its version is in `versions`), requires
`toydep` (`Requires-Dist`), which the analysis never names (it is in `dependencies`).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.support.answers import CLAIM, project_with, run_answer, status_both_ways, three_ways
from tests.support.files import write
from tests.support.toy import analysis

USES = analysis(doc="The total its package says.",
                body='import toypkg\nreturn {"metrics": {"total": float(toypkg.TOTAL)}}')


def _install(site: Path, name: str, version: str, requires: tuple[str, ...] = (),
             editable: Path | None = None) -> None:
    """`name` at `version` in `site`, as pip installs it: its dist-info (METADATA with its
    requirements, top_level.txt, RECORD) and its module; for an editable install, the module
    stays in `editable` and `direct_url.json` says so (PEP 610)."""
    for old in site.glob(f"{name}-*.dist-info") if site.is_dir() else []:
        shutil.rmtree(old)
    info = site / f"{name}-{version}.dist-info"
    needs = "".join(f"Requires-Dist: {r}\n" for r in requires)
    write(info, "METADATA", f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n{needs}")
    write(info, "top_level.txt", f"{name}\n")
    if editable is None:
        write(site, f"{name}/__init__.py", "ONE = 1\n" if name == "toydep" else "import toydep\n\nTOTAL = 10\n")
        write(info, "RECORD", f"{name}/__init__.py,,\n")
    else:
        write(editable, f"{name}/__init__.py", "ONE = 1\n")
        write(info, "RECORD", "")
        write(info, "direct_url.json", json.dumps({"url": editable.as_uri(), "dir_info": {"editable": True}}))


def _stored(root: Path) -> dict:
    return json.loads((root / "results/toy/quick.json").read_text(encoding="utf-8"))


@pytest.mark.slow  # as test_inputs's upgrade of an imported package; the editable case below runs always
def test_a_dependency_upgraded_makes_results_stale(tmp_path, litrec):
    root = project_with(tmp_path / "p", USES)
    site = root / ".venv/lib/site-packages"
    _install(site, "toypkg", "1.0", requires=("toydep>=1",))
    _install(site, "toydep", "1.0")
    env = lambda copy: {"PYTHONPATH": str(copy / ".venv/lib/site-packages")}  # noqa: E731
    _, verdicts = run_answer(litrec, root, env=env(root))
    assert verdicts[CLAIM][0] == "reproduced"
    assert (_stored(root)["versions"], _stored(root)["dependencies"]) == ({"toypkg": "1.0"}, {"toydep": "1.0"})
    assert run_answer(litrec, root, env=env(root))[0]["ran"] == []  # kept as a no-op answer
    _install(site, "toydep", "2.0")
    status = litrec("status", "--profile", "quick", cwd=root, env=env(root))
    assert "dependencies changed: toydep 1.0 -> 2.0" in status.text
    assert _status_with(litrec, root, env(root))[CLAIM] == "stale"
    verdicts, ran = three_ways(litrec, root, tmp_path, env=env)
    assert ran == ["toy"] and verdicts[CLAIM][0] == "reproduced"


@pytest.mark.slow
def test_an_edit_to_an_editable_dependency_makes_results_stale(tmp_path, litrec):
    """An editable install keeps its version while its source changes: the result records the
    SHA-256 of that source (`editable sha256:`), and an edit of the same size is seen."""
    root = project_with(tmp_path / "p", USES)
    site, source = root / ".venv/lib/site-packages", tmp_path / "toydep-checkout"
    _install(site, "toypkg", "1.0", requires=("toydep",))
    _install(site, "toydep", "0.1.dev0", editable=source)
    env = lambda copy: {"PYTHONPATH": f"{copy / '.venv/lib/site-packages'}:{source}"}  # noqa: E731
    _, verdicts = run_answer(litrec, root, env=env(root))
    assert verdicts[CLAIM][0] == "reproduced"
    was = _stored(root)["dependencies"]["toydep"]
    assert was.startswith("editable sha256:") and len(was) == len("editable sha256:") + 64
    assert run_answer(litrec, root, env=env(root))[0]["ran"] == []  # kept as a no-op answer
    assert _status_with(litrec, root, env(root))[CLAIM] == "reproduced"
    (source / "toydep/__init__.py").write_text("ONE = 2\n", encoding="utf-8")  # same size, same version
    status = litrec("status", "--profile", "quick", cwd=root, env=env(root))
    assert f"dependencies changed: toydep {was[:len('editable sha256:') + 12]} -> editable sha256:" in status.text
    assert _status_with(litrec, root, env(root))[CLAIM] == "stale"
    verdicts, ran = three_ways(litrec, root, tmp_path, env=env)
    assert ran == ["toy"] and verdicts[CLAIM][0] == "reproduced"
    run_answer(litrec, root, env=env(root))
    now = _stored(root)["dependencies"]["toydep"]
    assert now.startswith("editable sha256:") and now != was


def _status_with(litrec, root: Path, packages: dict) -> dict[str, str]:
    """`status --format json` with caches on, asserted equal to it with every cache off
    (`tests.support.answers.status_both_ways`), the packages' PYTHONPATH set for both."""
    def run(*args, env=None, **kw):
        return litrec(*args, env={**packages, **(env or {})}, **kw)

    return status_both_ways(run, root)

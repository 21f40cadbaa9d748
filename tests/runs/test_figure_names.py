"""A figure's name is its file's name inside its result's folder: a name that leads out of it
(`..`, a folder, an absolute path) is refused, naming the analysis, the name and the fix, before
anything is written or replaced: the stored (possibly signed) result stays as it was."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from litrec.util.errors import ContractError
from tests.support.toy import importable


def _tree(root: Path) -> dict[str, bytes]:
    """Every file under `root` but caches and the error log a failed run writes (or replaces)."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and "__pycache__" not in p.parts and ".litrec-cache" not in p.parts
            and not p.name.endswith(".error.log")}


@pytest.fixture(scope="module")
def shared_toy(toy_result, tmp_path_factory):
    """One copy of the toy with its quick result for every name below. Each test puts the module
    back as it found it, so their runs share one point server (a process keeps one per project)."""
    return shutil.copytree(toy_result, tmp_path_factory.mktemp("figure-names") / "toy", symlinks=True)


@pytest.mark.parametrize("name", ["../../figure-escape-probe", "sub/figure-escape-probe", "ABSOLUTE", ".."])
def test_a_figure_name_leading_out_of_its_folder_is_refused_before_anything_is_written(
        shared_toy, monkeypatch, cli, name):
    toy = importable(shared_toy, monkeypatch)  # its result stored: `litrec run --profile quick` done
    results = toy / "results"
    assert (results / "toy" / "quick" / "line.svg").is_file()
    name = str(toy / "figure-escape-probe") if name == "ABSOLUTE" else name
    module = toy / "analysis" / "toy.py"
    source = module.read_text()
    module.write_text(source.replace('"figures": {"line": fig}', f'"figures": {{{name!r}: fig}}'))
    try:
        before = _tree(results)
        code, _, err = cli("run", "--profile", "quick")
        said = " ".join(err.split())
        assert code == 1 and "analysis toy failed: ContractError: analysis.toy.run returned a figure named " in said, said
        # the name as said (a long absolute one is shortened after its first 80 characters)
        assert repr(name)[:60] in said and "give a plain name, such as 'loss_curve'" in said
        assert "its previous result is kept" in said
        assert _tree(results) == before  # byte for byte
        assert not any("figure-escape-probe" in p.name for p in toy.parent.rglob("*"))
    finally:
        module.write_text(source)
    assert cli("validate")[0] == 0


def test_the_store_refuses_such_a_name_whoever_asks(tmp_path):
    from litrec.results.store import write_result

    with pytest.raises(ContractError, match=r"analysis 'toy' drew a figure whose file would be '\.\./x\.svg'"):
        write_result(tmp_path / "results", "toy", "quick", {"figures": {}}, {"../x.svg": b"<svg/>"})
    assert not (tmp_path / "results").exists() and not (tmp_path / "x.svg").exists()

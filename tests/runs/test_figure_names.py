"""A figure's name is its file's name inside its result's folder: a name that leads out of it
(`..`, a folder, an absolute path) is refused, naming the analysis, the name and the fix, before
anything is written or replaced: the stored (possibly signed) result stays as it was."""

from __future__ import annotations

from pathlib import Path

import pytest

from litrec.util.errors import ContractError


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and "__pycache__" not in p.parts and ".litrec-cache" not in p.parts}


@pytest.mark.parametrize("name", ["../../figure-escape-probe", "sub/figure-escape-probe", "ABSOLUTE", ".."])
def test_a_figure_name_leading_out_of_its_folder_is_refused_before_anything_is_written(toy, cli, name):
    cli("run", "--profile", "quick")
    results = toy / "results"
    assert (results / "toy" / "quick" / "line.svg").is_file()
    name = str(toy / "figure-escape-probe") if name == "ABSOLUTE" else name
    module = toy / "analysis" / "toy.py"
    module.write_text(module.read_text().replace('"figures": {"line": fig}', f'"figures": {{{name!r}: fig}}'))
    before = _tree(results)
    code, _, err = cli("run", "--profile", "quick")
    said = " ".join(err.split())
    assert code == 1 and "analysis toy failed: ContractError: analysis.toy.run returned a figure named " in said, said
    # the name as said (a long absolute one is shortened after its first 80 characters)
    assert repr(name)[:60] in said and "give a plain name, such as 'loss_curve'" in said
    assert "its previous result is kept" in said
    assert {k: v for k, v in _tree(results).items() if not k.endswith(".error.log")} == before  # byte for byte
    assert not any("figure-escape-probe" in p.name for p in toy.parent.rglob("*"))
    module.write_text(module.read_text().replace(f'"figures": {{{name!r}: fig}}', '"figures": {"line": fig}'))
    assert cli("validate")[0] == 0


def test_the_store_refuses_such_a_name_whoever_asks(tmp_path):
    from litrec.results.store import write_result

    with pytest.raises(ContractError, match=r"analysis 'toy' drew a figure whose file would be '\.\./x\.svg'"):
        write_result(tmp_path / "results", "toy", "quick", {"figures": {}}, {"../x.svg": b"<svg/>"})
    assert not (tmp_path / "results").exists() and not (tmp_path / "x.svg").exists()

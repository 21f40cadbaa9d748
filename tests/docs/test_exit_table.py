"""The README's exit-status rows for `export` (and `graph`, `schema`, which shared its row) say what
the commands do: each row is read from the README, and each case it names is run on the fixture
project with the exit status it states."""

from __future__ import annotations

import json
import re

import pytest

from tests.conftest import REPO
from tests.support.results import GOOD, sealed_result

ROWS = {
    "`export bibtex`": ("the entries were written", "an id names no record, names an invalid "
                        "record or one that is not literature, or two of them keep the same "
                        "`bibtex_key` (records with errors elsewhere do not stop it)"),
    "`export json`, `export tex`": ("written", "the records have errors, or anything `status` "
                                    "exits 1 for at that profile (a result damaged or that cannot "
                                    "be judged, a bad signature; with `--require-signed`, a "
                                    "missing one), said in `status`'s words: `export json` writes "
                                    "its document all the same, `export tex` writes nothing; "
                                    "`export tex` also when two claims would share a macro name"),
    "`graph`, `schema`": ("written", "`graph`: the records have errors"),
}


def _table() -> dict[str, tuple[str, str]]:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    return {m.group(1): (m.group(2), m.group(3))
            for m in re.finditer(r"^\| (`[^|]+`) \| ([^|]+) \| ([^|]+) \|$", readme, re.M)}


def test_the_rows_are_the_ones_these_tests_check():
    table = _table()
    for command, row in ROWS.items():
        assert table.get(command) == row, f"README.md's exit row for {command} changed: " \
            "change the tests below with it"
    assert not any("export" in c for c in table if c not in ROWS)


def _invalid(project) -> None:
    (project / "records" / "notes" / "NOTE-997.yaml").write_text(
        "id: NOTE-997\nkind: note\ntitle: A\naaa: 1\n", encoding="utf-8")


def test_export_bibtex_row(project, cli):
    assert cli("export", "bibtex")[0] == 0
    assert cli("export", "bibtex", "NOTE-999")[0] == 1              # no record
    assert cli("export", "bibtex", "NOTE-621")[0] == 1              # not literature
    _invalid(project)
    assert cli("export", "bibtex", "ARXIV-2212.07677")[0] == 0      # errors elsewhere
    assert cli("export", "bibtex", "NOTE-997")[0] == 1              # an invalid record
    lit = project / "records" / "literature" / "ARXIV-2212.07677.yaml"
    text = lit.read_text(encoding="utf-8").replace("title:", "bibtex_key: same\ntitle:", 1)
    lit.write_text(text, encoding="utf-8")
    other = lit.with_name("ARXIV-2301.00001.yaml")
    other.write_text(text.replace("id: ARXIV-2212.07677", "id: ARXIV-2301.00001", 1)
                     .replace('arxiv: "2212.07677"', 'arxiv: "2301.00001"'), encoding="utf-8")
    code, _, err = cli("export", "bibtex", "ARXIV-2212.07677", "ARXIV-2301.00001")
    assert code == 1 and "keep the same bibtex_key 'same'" in err


@pytest.mark.parametrize("fmt", ["json", "tex"])
def test_export_json_and_tex_row(project, cli, fmt):
    out = project / f"out.{fmt}"
    sealed_result(project, "single-layer-lsa", [GOOD, {**GOOD, "loss_trained": 0.2001}])
    assert cli("export", fmt, "--out", out)[0] == 0 and out.exists()
    out.unlink()
    code, _, err = cli("export", fmt, "--require-signed", "--out", out)  # a missing signature
    assert code == 1 and "missing: the result is unsigned" in err
    assert out.exists() == (fmt == "json")
    sig = project / "results" / "single-layer-lsa" / "paper.json.sig"
    sig.write_text("not a signature\n", encoding="utf-8")
    out.unlink(missing_ok=True)
    code, _, err = cli("export", fmt, "--out", out)  # a bad signature
    status_err = cli("status", "--profile", "paper")[2]
    said = [ln.split(": error: ", 1)[1] for ln in err.splitlines() if ": error: " in ln]
    assert code == 1 and said and all(f"litrec status: error: {s}" in status_err for s in said)
    assert out.exists() == (fmt == "json")
    if fmt == "json":
        assert json.loads(out.read_text(encoding="utf-8"))["format"] == "litrec-graph"
    sig.unlink()
    out.unlink(missing_ok=True)
    result = project / "results" / "single-layer-lsa" / "paper.json"
    result.write_text(result.read_text(encoding="utf-8").replace('"loss_gd": 0.2', '"loss_gd": 0.3', 1),
                      encoding="utf-8")  # damaged: its seal broken
    assert cli("export", fmt, "--out", out)[0] == 1 and out.exists() == (fmt == "json")
    assert cli("status", "--profile", "paper")[0] == 1  # the same decision
    _invalid(project)
    assert cli("export", fmt)[0] == 1


def test_export_tex_exits_1_when_two_claims_would_share_a_name(project, cli, monkeypatch):
    import litrec.export.tex

    monkeypatch.setattr(litrec.export.tex, "claim_names",
                        lambda proj, refs: ({r: "Same" for r in refs}, []))
    code, _, err = cli("export", "tex")
    assert code == 1 and "would both be \\litrecSamePaperVerdict" in err


def test_graph_and_schema_row(project, cli, tmp_path):
    assert cli("graph")[0] == 0
    assert cli("schema", "--out", tmp_path / "schema")[0] == 0
    _invalid(project)
    assert cli("graph")[0] == 1
    assert cli("schema", "--out", tmp_path / "schema2")[0] == 0  # it reads no records

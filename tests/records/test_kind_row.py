"""A record kind is one row of `litrec.records.kinds`: a toy kind added as one row (and nothing
else) is taken up by `litrec validate`, `litrec new`, `litrec new claim`, the site and the schemas."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

import pytest
from pydantic import Field

from litrec.commands import main
from litrec.records import kinds
from litrec.records.kinds import CLAIM_HOLDERS, ID_RE, KIND, KINDS, Kind, kind_of_id, page_of
from litrec.records.load import load_project
from litrec.records.model import MODELS, RELATIONS, Base, Claim
from litrec.records.schema import schema_text
from litrec.site.build import generate
from tests.support.records import error_lines, write_record


class Toy(Base):
    """The toy kind's records: a status and claims."""

    kind: Literal["toy"]
    status: Literal["open", "shut"] | None = None
    claims: list[Claim] = Field(default_factory=list)


# the one row: a toy may be read by a note (`reading_of`) and be a source of a theory (`source_of`)
TOY = Kind("toy", r"TOY-\d{1,6}", "TOY-7", "toys", "records", "Toys", ("toy", "toys"),
           "fill:#ffffff,stroke:#000000,color:#000000", model=Toy, prefix="TOY-",
           status_field="status", holds_claims=True, sends=("source_of",), receives=("reading_of",),
           template="status: open                   # open, shut\nlinks: []\nclaims: []\n")


@pytest.fixture
def toy_kind(monkeypatch):
    monkeypatch.setattr(kinds, "KINDS_TABLE", (*kinds.KINDS_TABLE, TOY))


def _litrec(capsys, *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out + out.err


def test_the_derived_views_follow_the_table(monkeypatch):
    assert "toy" not in KINDS
    with monkeypatch.context() as mp:
        mp.setattr(kinds, "KINDS_TABLE", (*kinds.KINDS_TABLE, TOY))
        assert KINDS[-1] == "toy" and KIND["toy"] is TOY and MODELS["toy"] is Toy
        assert "toy" in CLAIM_HOLDERS and ID_RE["toy"].match("TOY-12")
        assert kind_of_id("TOY-12") == "toy" and kind_of_id("a-slug") == "work"  # a slug still last
        assert "toy" in RELATIONS["reading_of"].targets and "toy" in RELATIONS["source_of"].sources
        assert "toy" in RELATIONS["relates_to"].sources and "toy" in RELATIONS["supports"].targets
        assert "toy" not in RELATIONS["supersedes"].sources
        assert page_of("toy", "TOY-1") == "records/TOY-1.md"
    assert "toy" not in KINDS and "toy" not in MODELS and "toy" not in RELATIONS["relates_to"].sources


def test_every_relation_a_row_names_is_a_relation():
    for row in kinds.KINDS_TABLE:
        assert set(row.sends) <= set(RELATIONS), row.name
        assert set(row.receives) <= set(RELATIONS), row.name


def test_new_writes_a_toy_that_validates(toy_kind, tmp_path, capsys):
    records = tmp_path / "records"
    records.mkdir()
    code, out = _litrec(capsys, "new", "toy", "--title", "A toy", "--records", str(records))
    assert code == 0, out
    path = records / "toys" / "TOY-1.yaml"
    assert path.read_text(encoding="utf-8").splitlines()[0] == \
        "# yaml-language-server: $schema=../../schema/toy.schema.json"
    code, out = _litrec(capsys, "new", "claim", "TOY-1", "--records", str(records))
    assert code == 0 and "TOY-1#P1" in out, out
    code, out = _litrec(capsys, "validate", "--quiet", "--no-cache", "--records", str(records))
    assert code == 0 and out.endswith(": valid; 0 notes\n"), out


def test_validate_checks_a_toy_s_links_by_its_row(toy_kind, tmp_path, capsys):
    write_record(tmp_path, "toys/TOY-1.yaml", "id: TOY-1\nkind: toy\ntitle: A toy\nlinks:\n"
                 "  - {rel: source_of, target: THEORY-1}\n  - {rel: supersedes, target: ADR-001}\n")
    write_record(tmp_path, "theories/THEORY-1.yaml", "id: THEORY-1\nkind: theory\n")
    write_record(tmp_path, "decisions/ADR-001.yaml", "id: ADR-001\nkind: decision\n")
    write_record(tmp_path, "notes/NOTE-1.yaml", "id: NOTE-1\nkind: note\nlinks:\n"
                 "  - {rel: reading_of, target: TOY-1}\n")
    code, out = _litrec(capsys, "validate", "--quiet", "--no-cache", "--records", str(tmp_path / "records"))
    errors = [ln for ln in error_lines(out) if not ln.startswith("checked ")]
    assert code == 1 and len(errors) == 1, out
    assert "TOY-1.yaml" in errors[0] and "supersedes" in errors[0] and "decision" in errors[0]


def test_a_toy_without_its_row_is_an_unknown_kind(tmp_path, capsys):
    write_record(tmp_path, "toys/TOY-1.yaml", "id: TOY-1\nkind: toy\n")
    code, out = _litrec(capsys, "validate", "--quiet", "--no-cache", "--records", str(tmp_path / "records"))
    assert code == 1 and "unknown kind 'toy'" in out, out


def test_the_schemas_take_the_toy_up(toy_kind, tmp_path, capsys):
    code, out = _litrec(capsys, "schema", "--out", str(tmp_path))
    assert code == 0, out
    schema = json.loads((tmp_path / "toy.schema.json").read_text(encoding="utf-8"))
    assert schema["title"] == "litrec toy record"
    assert "TOY-" in schema["properties"]["id"]["pattern"]
    assert schema["properties"]["status"]["anyOf"][0]["enum"] == ["open", "shut"]
    for kind in KINDS:  # the other kinds' schemas as they were
        assert (tmp_path / f"{kind}.schema.json").read_text(encoding="utf-8") == schema_text(kind)


def test_the_site_gives_a_toy_its_page_and_index_entry(toy_kind, tmp_path):
    write_record(tmp_path, "toys/TOY-1.yaml", "id: TOY-1\nkind: toy\ntitle: A toy\nstatus: shut\n")
    proj = load_project(tmp_path / "records", tmp_path / "analysis")
    files, _ = generate(proj, tmp_path / "results", "paper", None)
    assert "A toy" in str(files["records/TOY-1.md"])
    index = str(files["records/index.md"])
    assert "Toys" in index and "TOY-1" in index
    assert Path(page_of("toy", "TOY-1")).parent.name == "records"

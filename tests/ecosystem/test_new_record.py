"""`litrec new`: a valid skeleton in the kind's folder; existing and malformed ids refused."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from litrec.records import model as m
from litrec.records.kinds import KIND, KINDS
from litrec.records.newrecord import next_id, slug
from litrec.util.yamlsafe import load_bytes

from .conftest import run_cli

IDS = {"literature": "ARXIV-2401.01234", "note": "NOTE-9", "theory": "THEORY-9",
       "decision": "ADR-099", "work": "a-new-work", "anthology": "ANTH-NOTE-5"}


def _schema_line(path: Path, kind: str, root: Path) -> str:
    rel = os.path.relpath(root / "schema" / f"{kind}.schema.json", path.parent)
    return f"# yaml-language-server: $schema={Path(rel).as_posix()}"


@pytest.mark.parametrize("kind", KINDS)
def test_new_record_of_every_kind_validates(project, kind):
    code, out, err = run_cli(f"litrec new {kind} {IDS[kind]} --title 'A: title, with # signs'", project)
    assert (code, err) == (0, "")
    path = project / "records" / KIND[kind].folder / f"{IDS[kind]}.yaml"
    assert out == f"created records/{KIND[kind].folder}/{IDS[kind]}.yaml\n"
    text = path.read_text(encoding="utf-8")
    assert text.splitlines()[0] == _schema_line(path, kind, project)
    data = load_bytes(text.encode()).data
    assert (data["id"], data["kind"], data["title"]) == (IDS[kind], kind, "A: title, with # signs")
    code, out, err = run_cli("litrec validate --quiet", project)
    assert code == 0, out + err


@pytest.mark.parametrize("kind", KINDS)
def test_skeleton_without_title_validates(project, kind):
    assert run_cli(f"litrec new {kind} {IDS[kind]}", project)[0] == 0
    assert run_cli("litrec validate --quiet", project)[0] == 0


def test_schema_comment_is_relative_to_a_custom_records_folder(tmp_path):
    recs = tmp_path / "deep" / "recs"
    recs.mkdir(parents=True)
    code, out, _ = run_cli(["new", "note", "--records", str(recs)])
    assert code == 0
    path = recs / "notes" / "NOTE-1.yaml"
    assert path.read_text().splitlines()[0] == "# yaml-language-server: $schema=../../schema/note.schema.json"


def test_numbered_kinds_take_the_next_free_number(project):
    assert run_cli("litrec new note", project)[1] == "created records/notes/NOTE-622.yaml\n"
    assert run_cli("litrec new note", project)[1] == "created records/notes/NOTE-623.yaml\n"
    assert run_cli("litrec new decision", project)[1] == "created records/decisions/ADR-014.yaml\n"
    assert run_cli("litrec new theory", project)[1] == "created records/theories/THEORY-170.yaml\n"


def test_next_id_rules():
    assert next_id("note", []) == "NOTE-1"
    assert next_id("decision", []) == "ADR-001"
    assert next_id("decision", ["ADR-0099", "ADR-7"]) == "ADR-0100"
    assert next_id("note", ["NOTE-9", "NOTE-10", "THEORY-99"]) == "NOTE-11"
    assert next_id("anthology", ["ANTH-LIT-533", "ANTH-THEORY-068"], "THEORY") == "ANTH-THEORY-069"


def test_existing_id_is_refused_and_kept(project):
    path = project / "records" / "notes" / "NOTE-621.yaml"
    before = path.read_bytes()
    code, out, err = run_cli("litrec new note NOTE-621", project)
    assert (code, out) == (1, "")
    assert err == ("litrec new: NOTE-621 already exists: records/notes/NOTE-621.yaml; "
                   "the next free note id is NOTE-622\n")
    assert path.read_bytes() == before


def test_existing_id_in_another_folder_is_refused(project):
    (project / "records" / "elsewhere").mkdir()
    (project / "records" / "notes" / "NOTE-621.yaml").rename(project / "records" / "elsewhere" / "NOTE-621.yaml")
    code, _, err = run_cli("litrec new note NOTE-621", project)
    assert code == 1 and "records/elsewhere/NOTE-621.yaml" in err
    assert not (project / "records" / "notes" / "NOTE-621.yaml").exists()


@pytest.mark.parametrize("kind,bad", [
    ("note", "NOTE-x"), ("theory", "theory-3"), ("decision", "ADR-"), ("work", "Bad Slug"),
    ("literature", "ARXIV-22.1"), ("anthology", "ANTH-FOO-1"),
])
def test_malformed_id_names_the_expected_form(project, kind, bad):
    code, out, err = run_cli(["new", kind, bad], project)
    assert code == 2
    assert err == f"litrec: error: '{bad}' is not a {kind} id; expected the form {KIND[kind].example}\n"


def test_id_of_another_kind_says_which(project):
    code, _, err = run_cli("litrec new theory NOTE-3", project)
    assert code == 2 and err.endswith("'NOTE-3' is a note id: litrec new note NOTE-3\n")


def test_kinds_that_cannot_number_themselves(project):
    code, _, err = run_cli("litrec new literature", project)
    assert code == 2 and "litrec import bibtex FILE" in err
    code, _, err = run_cli("litrec new anthology", project)
    assert code == 2 and "ANTH-LIT-534, ANTH-THEORY-069, ANTH-NOTE-1, ANTH-WORK-1" in err
    code, _, err = run_cli("litrec new work", project)
    assert code == 2 and "--title" in err


def test_work_id_from_title(project):
    code, out, _ = run_cli(["new", "work", "--title", "Was Übersetzung überlebt?"], project)
    assert code == 0 and out == "created records/works/was-ubersetzung-uberlebt.yaml\n"
    assert slug("  What Survives -- Translation?! ") == "what-survives-translation"


def test_literature_skeleton_fills_the_arxiv_number(project):
    run_cli("litrec new literature ARXIV-2401.01234", project)
    data = load_bytes((project / "records/literature/ARXIV-2401.01234.yaml").read_bytes()).data
    assert data["arxiv"] == "2401.01234"


def test_json_output(project):
    import json

    code, out, _ = run_cli("litrec new note --format json", project)
    assert code == 0
    assert json.loads(out) == {"id": "NOTE-622", "kind": "note", "path": "records/notes/NOTE-622.yaml"}


def test_unknown_kind_and_missing_folder_are_usage_errors(tmp_path):
    assert run_cli("litrec new notes", tmp_path)[::2] == (2, (
        "litrec: error: unknown kind 'notes'; did you mean 'note'? kinds: literature, note, theory, "
        "decision, work, anthology, analysis\n"))
    code, _, err = run_cli("litrec new note --records nowhere", tmp_path)
    assert code == 2 and err == "litrec: error: records folder 'nowhere' does not exist\n"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(title=st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=40)
       .filter(lambda t: t.strip()))
def test_any_title_is_written_exactly(tmp_path_factory, title):
    recs = tmp_path_factory.mktemp("p") / "records"
    recs.mkdir()
    code, out, err = run_cli(["new", "theory", "--records", str(recs), f"--title={title}"])  # = form: a title may start with "-"
    assert code == 0, err
    data = load_bytes((recs / "theories" / "THEORY-1.yaml").read_bytes()).data
    assert data["title"] == " ".join(title.split())
    m.Theory.model_validate(data)


def test_help_names_every_kind():
    code, out, _ = run_cli("litrec new --help")
    assert code == 0
    for kind in KINDS:
        assert kind in out

"""`litrec validate`: an exact-error test for every check, and the seed records.

The tests run on the fixture project (tests/fixtures/project), whose records are the
seed as it was frozen for the tests; the project's own records are checked in tests/project.
"""

from __future__ import annotations

import json
import re
import time

import pytest

from tests.conftest import FIXTURES
from tests.support.records import error_lines, invalid, write_record

# the seed record's source text, kept as a fixture
SEED_TEXT = FIXTURES / "seed-ARXIV-2212.07677.txt"


# ---------------------------------------------------------------- the seed


def test_fixture_records_validate(project, cli):
    code, out, err = cli("validate")
    assert code == 0, out
    assert error_lines(out) == []
    assert "valid" in err


def test_every_id_in_the_seed_text_is_a_record(project):
    from litrec.records.load import load_project

    text = SEED_TEXT.read_text(encoding="utf-8")
    ids = set(re.findall(r"\b(?:ARXIV-\d{4}\.\d{4,5}|NOTE-\d+|THEORY-\d+|ADR-\d+|ANTH-[A-Z]+-\d+)\b", text))
    ids |= set(re.findall(r"\(work ([a-z0-9-]+)\)", text.replace("\n", " ")))
    assert {"ARXIV-2212.07677", "NOTE-621", "THEORY-169", "ADR-013", "ANTH-LIT-533",
            "ANTH-THEORY-067", "ANTH-THEORY-068", "what-survives-translation"} <= ids
    proj = load_project(project / "records", project / "analysis")
    assert ids <= set(proj.records), ids - set(proj.records)


def test_standing_in_the_record_is_data(project):
    """The seed's 'Standing in the record' section, as links and fields."""
    from litrec.records.load import load_project

    proj = load_project(project / "records", project / "analysis")
    lit = proj.records["ARXIV-2212.07677"]
    edges = {(e.source, e.rel, e.ref) for e in proj.edges}
    assert ("ARXIV-2212.07677", "held_under", "ADR-013") in edges
    assert ("ANTH-LIT-533", "held_under", "ADR-013") in edges
    assert ("ANTH-LIT-533", "entry_for", "ARXIV-2212.07677") in edges
    assert ("ANTH-LIT-533", "rejects", "ANTH-THEORY-068") in edges
    assert ("ANTH-LIT-533", "keeps", "ANTH-THEORY-067") in edges
    assert proj.records["ANTH-THEORY-068"].stance == "rejected"
    assert proj.records["ANTH-THEORY-067"].stance == "kept"
    assert str(lit.filed.date) == "2026-10-09" and lit.filed.requested_by == "owner"
    assert ("ARXIV-2212.07677", "filed_from", "what-survives-translation") in edges
    assert ("what-survives-translation", "dropped", "ARXIV-2212.07677") in edges
    assert "conditioning a fixed" in lit.question
    assert ("NOTE-621", "reading_of", "ARXIV-2212.07677") in edges
    assert ("NOTE-621", "source_of", "THEORY-169") in edges
    # the reconciliation: the note uses only P1 and F1, and the anthology's entry keeps both
    used = {e.ref for e in proj.edges if e.source == "NOTE-621" and e.rel == "uses"}
    kept = {e.ref for e in proj.edges if e.source == "ANTH-LIT-533" and e.rel == "keeps"}
    assert used == {"ARXIV-2212.07677#P1", "ARXIV-2212.07677#F1"}
    assert used <= kept
    # backlinks are computed on the target under the inverse name
    assert [e.source for e in proj.incoming("ADR-013")["holds"]] == ["ANTH-LIT-533", "ARXIV-2212.07677"]
    assert [e.source for e in proj.incoming("THEORY-169")["has_source"]] == ["NOTE-621"]
    partial = {d.record for d in proj.diagnostics if d.code == "partial"}
    assert "ARXIV-2212.07677" not in partial and "THEORY-169" in partial


# ------------------------------------------------------------ file-level


@pytest.mark.parametrize(
    "content, expected",
    [
        ("id: NOTE-1\nkind: note\ntitle: [unclosed\n",
         "records/notes/NOTE-1.yaml:4:1: YAML syntax error: did not find expected ',' or ']' "
         "(while parsing a flow sequence); close the list with ']', or quote the value if the '[' is text"),
        ("", "records/notes/NOTE-1.yaml:1:1: file is empty; a record is a YAML mapping with at least "
             "'id' and 'kind'"),
        ("# only a comment\n", "records/notes/NOTE-1.yaml:1:1: file is empty; a record is a YAML "
                               "mapping with at least 'id' and 'kind'"),
        ("- id: NOTE-1\n", "records/notes/NOTE-1.yaml:1:1: the top level must be a mapping of fields "
                           "(id: ..., kind: ...), found a list"),
        ("just text\n", "records/notes/NOTE-1.yaml:1:1: the top level must be a mapping of fields "
                        "(id: ..., kind: ...), found str 'just text'"),
        (b"id: NOTE-1\nkind: note\ntitle: caf\xe9\n",
         "records/notes/NOTE-1.yaml:3:11: file is not UTF-8 (byte 0xe9); save it as UTF-8"),
        ("id: NOTE-1\nkind: note\ntitle: !!python/object/apply:os.system [echo hi]\n",
         "records/notes/NOTE-1.yaml:3:8: title: tag 'tag:yaml.org,2002:python/object/apply:os.system' is not "
         "allowed in records; only plain YAML values (strings, numbers, booleans, dates, lists, "
         "mappings) are"),
        ("id: NOTE-1\nkind: note\ntitle: a\ntitle: b\n",
         "records/notes/NOTE-1.yaml:4:1: title: duplicate key 'title'; keep one of them"),
        ("id: NOTE-1\nkind: no\x01te\n",
         "records/notes/NOTE-1.yaml:2:9: character U+0001 is not allowed in YAML; remove it"),
        ("id: NOTE-1\nkind: note\n---\nid: NOTE-2\n",
         "records/notes/NOTE-1.yaml:3:1: YAML syntax error: but found another document (expected a "
         "single document in the stream); a record file holds one document: remove the '---' and what "
         "follows, or move it to a file of its own"),
        ("id: NOTE-1\nkind: note\nlinks:\n\t- rel: uses\n",
         "records/notes/NOTE-1.yaml:4:1: YAML syntax error: found character that cannot start any token "
         "(while scanning for the next token); a tab: YAML indents with spaces only; replace the tab "
         "with spaces"),
        ("id: NOTE-1\nkind: note\ntitle: `code`\n",
         "records/notes/NOTE-1.yaml:3:8: YAML syntax error: found character that cannot start any token "
         "(while scanning for the next token); a value cannot start with '`' in YAML; quote the value"),
        ("id: NOTE-1\nkind: note\ntitle: Note: on reading\n",
         "records/notes/NOTE-1.yaml:3:12: YAML syntax error: mapping values are not allowed in this "
         "context; quote the value (it holds ': '), or indent it under its key"),
    ],
    ids=["syntax", "empty", "comment-only", "list", "scalar", "not-utf8", "python-tag", "dup-key",
         "control-char", "two-documents", "tab", "backtick", "colon-in-value"],
)
def test_file_level_errors(project, cli, content, expected):
    write_record(project, "notes/NOTE-1.yaml", content)
    assert invalid(cli) == [expected]


def test_alias_bomb_is_refused_fast(project, cli):
    lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 10):
        ref = ",".join([f"*a{i - 1}"] * 9)
        lines.append(f"a{i}: &a{i} [{ref}]")
    write_record(project, "notes/NOTE-1.yaml", "id: NOTE-1\nkind: note\n" + "\n".join(lines) + "\n")
    t0 = time.perf_counter()
    code, out, _ = cli("validate")
    assert time.perf_counter() - t0 < 2.0
    assert code == 1
    assert error_lines(out) == [
        "records/notes/NOTE-1.yaml:3:5: a1[0]: YAML anchors and aliases (&name, *name) are not allowed in "
        "records; write the value out"]


def test_oversized_file_is_refused(project, cli):
    write_record(project, "notes/NOTE-1.yaml", "id: NOTE-1\nkind: note\nbody: " + "x" * (1 << 20) + "\n")
    code, out, _ = cli("validate")
    assert code == 1
    assert len(error_lines(out)) == 1
    assert "over the 1048576-byte limit for a record" in out


# ------------------------------------------------- schema, ids and links: one error each

NOTE = "notes/NOTE-1.yaml"
USES_A_CLAIM = ("id: NOTE-1\nkind: note\nclaims:\n  - id: C1\n    kind: {kind}\n    title: t\n"
                "    statement: s\n    check:\n      analysis: {analysis}\n      expect:\n"
                "        - {{metric: m, op: \"{op}\", value: 1, source: {{kind: paper, where: §1, "
                "quote: a test claim, threshold: paper}}}}\n")


def links(*pairs: str) -> str:
    """NOTE-1 with these links, each `rel target`."""
    return "id: NOTE-1\nkind: note\nlinks:\n" + "".join(
        f"  - rel: {rel}\n    target: {target}\n" for rel, target in (p.split() for p in pairs))


def decision(n: str, status: str, supersedes: str | None = None) -> str:
    return (f"id: ADR-{n}\nkind: decision\nstatus: {status}\n"
            + (f"links:\n  - rel: supersedes\n    target: ADR-{supersedes}\n" if supersedes else ""))


# (records written: path under records/ -> text, every error `validate` prints), one per check
ERRORS = [
    pytest.param({NOTE: "id: NOTE-1\nkind: note\ntitel: A note\n"}, [
        "records/notes/NOTE-1.yaml:3:1: titel: unknown field 'titel'. Did you mean 'title'? Allowed "
        "here: id, title, summary, body, partial, known_from, tags, links, kind, date, claims",
    ], id="unknown-field"),
    pytest.param({"literature/ARXIV-1234.56789.yaml":
                  "id: ARXIV-1234.56789\nkind: literature\nyear: twenty\nauthors: Ann\n"}, [
        "records/literature/ARXIV-1234.56789.yaml:3:7: year: input should be a valid integer; "
        "found 'twenty'",
        "records/literature/ARXIV-1234.56789.yaml:4:10: authors: input should be a valid list; "
        "found 'Ann'",
    ], id="wrong-type"),
    pytest.param({NOTE: "id: NOTE-1\ntitle: x\n", "notes/NOTE-2.yaml": "id: NOTE-2\nkind: note_\n"}, [
        "records/notes/NOTE-1.yaml:1:1: kind: missing field 'kind'; add one of: literature, note, "
        "theory, decision, work, anthology",
        "records/notes/NOTE-2.yaml:2:7: kind: unknown kind 'note_'. Did you mean 'note'? Known kinds: "
        "literature, note, theory, decision, work, anthology",
    ], id="missing-and-unknown-kind"),
    pytest.param({NOTE: USES_A_CLAIM.format(kind="guess", analysis="prop1-identity", op="≈")}, [
        "records/notes/NOTE-1.yaml:5:11: claims[0].kind: found 'guess': input should be "
        "'proposition', 'finding', 'observation', 'definition' or 'conjecture'",
        "records/notes/NOTE-1.yaml:11:11: claims[0].check.expect[0]: op '≈' needs a tolerance: "
        "rel_tol or abs_tol",
    ], id="nested-line"),
    pytest.param({"notes/NOTE-x.yaml": "id: NOTE-x\nkind: note\n",
                  "notes/NOTE-7.yaml": "id: NOTE-8\nkind: note\n"}, [
        "records/notes/NOTE-7.yaml:1:5: id: id 'NOTE-8' does not match the file name 'NOTE-7.yaml'; "
        "rename the file to 'NOTE-8.yaml' or fix the id",
        "records/notes/NOTE-x.yaml:1:5: id: 'NOTE-x' is not a note id; expected the form NOTE-621",
    ], id="id-pattern-and-file-name"),
    pytest.param({"extra/NOTE-621.yaml": "id: NOTE-621\nkind: note\n"}, [
        "records/notes/NOTE-621.yaml:2:5: id: duplicate id 'NOTE-621', already used by "
        "records/extra/NOTE-621.yaml; give each record its own id",
    ], id="duplicate-id"),
    pytest.param({NOTE: links("source_of THEORY-196")}, [
        "records/notes/NOTE-1.yaml:5:13: links[0].target: no record 'THEORY-196'. "
        "Did you mean 'THEORY-169'?",
    ], id="dangling-link"),
    pytest.param({NOTE: links("uses ARXIV-2212.07677#P4", "uses ARXIV-2212.07677#F11")}, [
        "records/notes/NOTE-1.yaml:5:13: links[0].target: ARXIV-2212.07677 has no claim 'P4'. "
        "Did you mean 'ARXIV-2212.07677#P3'?",
        "records/notes/NOTE-1.yaml:7:13: links[1].target: ARXIV-2212.07677 has no claim 'F11'. "
        "Did you mean 'ARXIV-2212.07677#F1'?",
    ], id="dangling-claim"),
    pytest.param({NOTE: links("held_under NOTE-621", "entry_for NOTE-621", "source_of THEORY-169#C1")}, [
        "records/notes/NOTE-1.yaml:5:13: links[0].target: relation 'held_under' cannot point to "
        "NOTE-621, a note record; it points to: decision",
        "records/notes/NOTE-1.yaml:7:13: links[1].target: relation 'entry_for' cannot start from a "
        "note record; it starts from: anthology",
        "records/notes/NOTE-1.yaml:9:13: links[2].target: relation 'source_of' points to records, "
        "not claims; write 'THEORY-169' without '#C1'",
    ], id="relation-to-the-wrong-kind"),
    pytest.param({"decisions/ADR-001.yaml": decision("001", "accepted", supersedes="002"),
                  "decisions/ADR-002.yaml": decision("002", "accepted", supersedes="001"),
                  "decisions/ADR-003.yaml": decision("003", "superseded")}, [
        "records/decisions/ADR-001.yaml:3:9: status: ADR-001 is superseded by ADR-002 but its status "
        "is 'accepted'; set status: superseded",
        "records/decisions/ADR-002.yaml:3:9: status: ADR-002 is superseded by ADR-001 but its status "
        "is 'accepted'; set status: superseded",
        "records/decisions/ADR-002.yaml:6:13: links[0].target: ADR-001 and ADR-002 supersede each "
        "other; only the newer decision says 'supersedes', the older one gets status 'superseded'",
        "records/decisions/ADR-003.yaml:3:9: status: ADR-003 has status 'superseded' but no decision "
        "supersedes it; add 'rel: supersedes, target: ADR-003' to the decision that replaces it",
    ], id="supersedes-and-status"),
    pytest.param({f"theories/THEORY-{a}.yaml": f"id: THEORY-{a}\nkind: theory\nlinks:\n  - rel: "
                  f"derived_from\n    target: THEORY-{b}\n" for a, b in (("1", "2"), ("2", "3"), ("3", "1"))}, [
        "records/theories/THEORY-3.yaml:5:13: links[0].target: 'derived_from' forms a cycle: "
        "THEORY-1 -> THEORY-2 -> THEORY-3 -> THEORY-1; remove one of these links",
    ], id="cycle"),
]


@pytest.mark.parametrize("records, expected", ERRORS)
def test_each_check_names_the_file_line_field_and_the_fix(project, cli, records, expected):
    for rel, text in records.items():
        write_record(project, rel, text)
    assert invalid(cli) == expected


@pytest.mark.parametrize("name, expected", [
    ("prop1-identiy", "no registered analysis 'prop1-identiy'. Did you mean 'prop1-identity'? "
                      "Register it in analysis/registry.yaml"),
    ("os.system", "no registered analysis 'os.system'"),  # a record cannot make litrec import a path
])
def test_a_claim_names_a_registered_analysis(project, cli, name, expected):
    write_record(project, NOTE, USES_A_CLAIM.format(kind="finding", analysis=name, op="<"))
    [err] = invalid(cli)
    assert err.startswith(f"records/notes/NOTE-1.yaml:9:17: claims[0].check.analysis: {expected}")


def test_two_literature_records_with_one_bibtex_key(tmp_path, cli, monkeypatch):
    """`export bibtex` would write two entries under one key: refused at the second record's
    `bibtex_key`, naming the first; a third with a key of its own is not."""
    monkeypatch.chdir(tmp_path)
    for n, key in ((1, "lovelace1843"), (2, "lovelace1843"), (3, "babbage1837")):
        write_record(tmp_path, f"literature/ARXIV-0000.0000{n}.yaml",
              f"id: ARXIV-0000.0000{n}\nkind: literature\ntitle: Paper {n}\n"
              f"authors: [Ada Lovelace]\nyear: 1843\nbibtex_key: {key}\n")
    assert invalid(cli) == [
        "records/literature/ARXIV-0000.00002.yaml:6:13: bibtex_key: bibtex_key 'lovelace1843' is "
        "already the key of ARXIV-0000.00001 (records/literature/ARXIV-0000.00001.yaml): `litrec "
        "export bibtex` would write two entries under one key; give this record a key of its own, "
        "or remove its bibtex_key to have one generated"]
    assert cli("validate", "--no-cache")[:2] == cli("validate")[:2]  # the cache changes nothing
    second = tmp_path / "records/literature/ARXIV-0000.00002.yaml"
    second.write_text(second.read_text(encoding="utf-8").replace("lovelace1843", "lovelace1843b"),
                      encoding="utf-8")
    code, out, _ = cli("validate")
    assert code == 0 and error_lines(out) == []


def test_unknown_and_inverse_relation_names(project, cli):
    write_record(project, "notes/NOTE-1.yaml",
          "id: NOTE-1\nkind: note\nlinks:\n  - rel: use\n    target: NOTE-621\n"
          "  - rel: used_by\n    target: NOTE-621\n")
    errs = invalid(cli)
    assert errs[0].startswith("records/notes/NOTE-1.yaml:4:10: links[0].rel: unknown relation "
                              "'use'; did you mean 'uses'?")
    assert errs[1] == (
        "records/notes/NOTE-1.yaml:6:10: links[1].rel: 'used_by' is the inverse of 'uses' and is "
        "computed on the target; write the link on the other record as rel: uses; found 'used_by'")


@pytest.mark.parametrize("entry, expected", [
    ("  module: ../../elsewhere/evil\n  title: t\n",
     "analysis/registry.yaml:5:11: prop1-identity.module: must be a Python module name under analysis/ "
     "(letters, digits and '_', a '.' between the names of a package and its module; no '/' and no "
     "'.py'), e.g. prop1_identity for analysis/prop1_identity.py; found '../../elsewhere/evil'"),
    ("  title: t\n",
     "analysis/registry.yaml:5:3: prop1-identity.module: missing required field 'module'; add it"),
    ("  module: prop1_identity\n  tittle: t\n",
     "analysis/registry.yaml:6:3: prop1-identity.tittle: unknown field 'tittle'. Did you mean 'title'? "
     "Allowed here: module, title, description"),
    ("  module: 12\n  title: t\n",
     "analysis/registry.yaml:5:11: prop1-identity.module: input should be a valid string; found 12"),
], ids=["path", "missing", "misspelt", "number"])
def test_a_bad_registry_entry_is_explained_and_its_claims_point_there(project, cli, entry, expected):
    """A registry entry is taught as a record is (what was found, how to mend it), and a claim
    naming that analysis says its entry is broken instead of calling the name unknown."""
    reg = project / "analysis" / "registry.yaml"
    text = reg.read_text()
    start = text.index("prop1-identity:\n")
    end = text.index("\n\n", start)
    reg.write_text(text[:start] + "prop1-identity:\n" + entry.rstrip("\n") + text[end:])
    code, out, _ = cli("validate")
    assert code == 1
    errors = error_lines(out)
    assert expected in errors
    naming = [e for e in errors if e.startswith("records/")]
    assert naming, "the fixture's records name prop1-identity"
    assert all("analysis 'prop1-identity' cannot be resolved: its entry in analysis/registry.yaml has "
               "an error (reported there); fix the entry" in e for e in naming)


def test_an_unreadable_registry_is_named_by_every_claim(project, cli):
    reg = project / "analysis" / "registry.yaml"
    reg.write_text(reg.read_text() + "broken: [\n")
    code, out, _ = cli("validate")
    assert code == 1
    errors = error_lines(out)
    assert errors[0].startswith("analysis/registry.yaml:")
    assert "YAML syntax error" in errors[0]
    naming = [e for e in errors if e.startswith("records/")]
    assert naming and all("cannot be resolved: analysis/registry.yaml cannot be read (reported there); "
                          "fix the registry first" in e for e in naming)
    assert "no registered analysis" not in out


def test_note_using_a_claim_the_anthology_rejects(project, cli):
    anth = project / "records" / "anthology" / "ANTH-LIT-533.yaml"
    anth.write_text(anth.read_text() + "  - rel: rejects\n    target: ARXIV-2212.07677#F2\n")
    write_record(project, "notes/NOTE-1.yaml",
          "id: NOTE-1\nkind: note\nlinks:\n  - rel: uses\n    target: ARXIV-2212.07677#F2\n")
    assert invalid(cli) == [
        "records/notes/NOTE-1.yaml:5:13: links[0].target: NOTE-1 uses claim ARXIV-2212.07677#F2, "
        "which ANTH-LIT-533 (the anthology's entry for ARXIV-2212.07677) rejects "
        "(records/anthology/ANTH-LIT-533.yaml); use a claim the anthology keeps, or record the "
        "disagreement with 'contradicts'"]


def test_all_errors_at_once_and_json(project, cli):
    write_record(project, "notes/NOTE-1.yaml", "id: NOTE-1\nkind: note\ntitel: x\n")
    write_record(project, "notes/NOTE-2.yaml", "id: [\n")
    write_record(project, "notes/NOTE-3.yaml",
          "id: NOTE-3\nkind: note\nlinks:\n  - rel: uses\n    target: NOTE-999\n")
    code, out, _ = cli("validate", "--format", "json")
    assert code == 1
    doc = json.loads(out)
    assert doc["valid"] is False
    assert [(e["path"], e["line"], e["code"]) for e in doc["errors"]] == [
        ("records/notes/NOTE-1.yaml", 3, "schema-extra_forbidden"),
        ("records/notes/NOTE-2.yaml", 2, "yaml-syntax"),
        ("records/notes/NOTE-3.yaml", 5, "dangling-link"),
    ]
    assert {i["code"] for i in doc["info"]} == {"partial"}


def test_usage_error_exit_2(tmp_path, cli, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, err = cli("validate", "--records", "nowhere")
    assert code == 2
    assert err.strip() == "litrec: error: records folder 'nowhere' does not exist"
    with pytest.raises(SystemExit) as exc:
        cli("validate", "--format", "xml")
    assert exc.value.code == 2


def test_python_m_litrec_runs(project):
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-m", "litrec", "validate", "--quiet"],
                          capture_output=True, text=True, cwd=project)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_parallel_parse_reports_the_same(project, cli, monkeypatch):
    """Large collections parse in worker processes; messages and positions are unchanged."""
    from litrec.records import discover as project_mod

    write_record(project, "notes/NOTE-1.yaml", "id: NOTE-1\nkind: note\ntitel: x\n")
    write_record(project, "notes/NOTE-2.yaml", "id: [\n")
    write_record(project, "notes/NOTE-3.yaml",
          "id: NOTE-3\nkind: note\nlinks:\n  - rel: uses\n    target: NOTE-999\n")
    serial = cli("validate")
    monkeypatch.setattr(project_mod, "PARALLEL_MIN_FILES", 1)
    monkeypatch.setattr(project_mod.os, "cpu_count", lambda: 2)
    parallel = cli("validate")
    assert parallel[:2] == serial[:2]
    assert len(error_lines(serial[1])) == 3

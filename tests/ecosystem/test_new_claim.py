"""`litrec new claim RECORD`: a claim appended to a record, the file's other text kept as it was;
`litrec new proposition` says where propositions live."""

from __future__ import annotations

import os
import stat

from litrec.records.newclaim import append_claim

LIT = "records/literature/ARXIV-2212.07677.yaml"


def test_a_finding_is_appended_after_the_last_claim_and_the_rest_is_kept(project, cli):
    path = project / LIT
    before = path.read_text(encoding="utf-8")
    code, out, _ = cli("new", "claim", "ARXIV-2212.07677", "--kind", "finding", "--title",
                       "Deeper models align with GD++")
    assert code == 0 and out.strip() == f"added ARXIV-2212.07677#F3 (finding) to {LIT}"
    after = path.read_text(encoding="utf-8")
    lines = after.splitlines()
    at = lines.index("  - id: F3")
    assert lines[at:at + 3] == ["  - id: F3", "    kind: finding", "    title: Deeper models align with GD++"]
    # every line of the old file is still there, in order: comments, layout, discrepancies
    rest = iter(after.splitlines())
    assert all(any(ln == r for r in rest) for ln in before.splitlines())
    assert after.index("id: F3") < after.index("discrepancies:")
    assert cli("validate")[0] == 0
    from litrec.records.load import load_project

    proj = load_project(project / "records")
    assert proj.claim("ARXIV-2212.07677#F3")[1].kind == "finding"
    code, out, _ = cli("new", "claim", "ARXIV-2212.07677")  # the next proposition
    assert "ARXIV-2212.07677#P4 (proposition)" in out


def test_a_record_without_claims_gets_the_list(project, cli):
    path = project / "records/theories/THEORY-169.yaml"
    before = path.read_text(encoding="utf-8")
    assert cli("new", "claim", "THEORY-169", "--kind", "observation")[0] == 0
    after = path.read_text(encoding="utf-8")
    assert after.startswith(before) and "claims:\n  - id: C1\n    kind: observation\n" in after
    assert cli("validate")[0] == 0


def test_refusals(project, cli):
    code, _, err = cli("new", "proposition")
    assert code == 2 and "a proposition is a claim inside a record" in err
    code, _, err = cli("new", "claim", "ARXIV-2212.07677", "--claim-id", "P1")
    assert code == 2 and "ARXIV-2212.07677#P1 exists; the next free proposition id is P4" in err
    code, _, err = cli("new", "claim", "ARXIV-2212.0767")
    assert code == 1 and "did you mean 'ARXIV-2212.07677'?" in err
    code, _, err = cli("new", "claim", "ADR-013")
    assert code == 2 and "holds no claims" in err


def test_a_linked_record_stays_a_link_and_keeps_its_mode(project, cli):
    link = project / "records/theories/THEORY-169.yaml"
    kept = project / "kept" / "THEORY-169.yaml"  # the file itself lives elsewhere in the project
    kept.parent.mkdir()
    link.rename(kept)
    link.symlink_to(os.path.relpath(kept, link.parent))
    kept.chmod(0o600)
    code, out, err = cli("new", "claim", "THEORY-169", "--kind", "observation")
    assert code == 0, err
    assert link.is_symlink() and link.resolve() == kept.resolve()
    assert "  - id: C1\n" in kept.read_text(encoding="utf-8")
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert cli("validate")[0] == 0


def test_a_record_linked_out_of_the_project_is_refused(project, cli, tmp_path):
    link = project / "records/theories/THEORY-169.yaml"
    outside = tmp_path / "elsewhere" / "THEORY-169.yaml"
    outside.parent.mkdir()
    link.rename(outside)
    link.symlink_to(outside)
    before = outside.read_bytes()
    code, _, err = cli("new", "claim", "THEORY-169", "--kind", "observation")
    assert code == 2 and "is a symbolic link to a file outside the project" in err
    assert "nothing was written" in err
    assert outside.read_bytes() == before and link.is_symlink()


def test_the_hint_for_a_proposition(project, capsys):
    from litrec.commands import main

    assert main(["new", "finding"]) == 2
    err = capsys.readouterr().err
    assert "litrec new claim RECORD --kind finding" in err


def test_append_claim_text_forms():
    empty = "id: NOTE-1\nkind: note\nclaims: []  # none yet\n"
    assert append_claim(empty, "C1", "observation", "T").startswith(
        "id: NOTE-1\nkind: note\nclaims:\n  - id: C1\n")
    indented = "claims:\n    - id: P1\n      kind: proposition\n\n# the end\nlinks: []\n"
    out = append_claim(indented, "P2", "proposition", "T")
    assert "      kind: proposition\n    - id: P2\n" in out and out.endswith("\n# the end\nlinks: []\n")

"""Every problem of a record file is reported at once: a value YAML cannot read (an impossible
date, a number too long) is one located error among the file's others, never the only one."""

from __future__ import annotations

from tests.support.files import write

ADR = "records/decisions/ADR-001.yaml"


def test_an_impossible_date_leaves_the_files_other_errors_in_view(mini, litrec):
    write(mini, ADR, "id: ADR-001\nkind: decision\ntitle: A decision\ndate: 2026-02-30\n"
                     "status: accepted\nbogus: 1\nlinks:\n  - rel: held_undr\n    target: ADR-001\n")
    res = litrec("validate", cwd=mini)
    assert res.code == 1 and "Traceback" not in res.text, res.text
    errors = [ln for ln in res.text.splitlines() if ln.startswith(ADR)]
    assert [ln.split(": ", 2)[:2] for ln in errors] == [
        [f"{ADR}:4:7", "date"], [f"{ADR}:6:1", "bogus"], [f"{ADR}:8:10", "links[0].rel"]], res.text
    assert "'2026-02-30' is not a real date (day is out of range for month)" in errors[0]
    assert "unknown field 'bogus'" in errors[1] and "did you mean 'held_under'?" in errors[2]


def test_two_unreadable_values_are_two_errors_and_the_schema_adds_none(mini, litrec):
    long = "9" * 5000
    write(mini, ADR, f"id: ADR-001\nkind: decision\ndate: 2026-13-01\ntags:\n  - {long}\n")
    res = litrec("validate", cwd=mini)
    errors = [ln for ln in res.text.splitlines() if ln.startswith(ADR)]
    assert res.code == 1 and len(errors) == 2, res.text
    assert errors[0].startswith(f"{ADR}:3:7: date: '2026-13-01' is not a real date"), errors
    assert errors[1].startswith(f"{ADR}:5:5: tags[0]: the whole number 99999"), errors

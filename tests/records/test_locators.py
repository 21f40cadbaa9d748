"""A claim's `where`: every locator a paper uses, text or a whole number, read back in words."""

from __future__ import annotations

import pytest

from litrec.records.locators import LOCATORS, Where
from tests.support.records import error_lines, write_record

NOTE = """\
id: NOTE-9
kind: note
claims:
  - id: C1
    kind: finding
    title: t
    statement: s
    where: {WHERE}
"""


def test_every_locator_reads_naturally():
    where = Where.model_validate({"theorem": 2, "proposition": "1", "lemma": 3, "corollary": "3a",
                                  "section": 3, "figure": "2, 3", "table": 1, "equation": 4,
                                  "appendix": "B", "page": 12})
    assert where.describe() == ("Theorem 2, Proposition 1, Lemma 3, Corollary 3a, §3, Figures 2, 3, "
                                "Table 1, Eq. (4), Appendix B, p. 12")
    assert Where.model_validate({"section": "3.1", "page": "12–14"}).describe() == "§3.1, pp. 12–14"
    assert {name for name, _, _ in LOCATORS} == set(Where.model_fields)


def test_numbers_are_kept_as_text():
    where = Where.model_validate({"section": 3, "page": 12})
    assert (where.section, where.page) == ("3", "12")


@pytest.mark.parametrize("where", ["{section: 3, page: 12, theorem: 1}", '{lemma: "2", equation: 7}',
                                   "{table: 2, corollary: 1, appendix: A}"])
def test_records_with_locators_validate(project, cli, where):
    write_record(project, "notes/NOTE-9.yaml", NOTE.replace("{WHERE}", where))
    code, out, err = cli("validate")
    assert code == 0, out + err


@pytest.mark.parametrize("where,field,col,message", [
    ("{section: 3.10}", "section", 22, 'quote the locator as the paper writes it: "3.10"; found 3.1'),
    ("{page: yes}", "page", 19, "a locator is text or a whole number"),
    ("{chapter: 2}", "chapter", 13, "chapter"),
])
def test_bad_locators_are_located(project, cli, where, field, col, message):
    write_record(project, "notes/NOTE-9.yaml", NOTE.replace("{WHERE}", where))
    code, out, _ = cli("validate")
    assert code == 1
    [line] = error_lines(out)
    assert line.startswith(f"records/notes/NOTE-9.yaml:8:{col}: claims[0].where.{field}: "), line
    assert message in line

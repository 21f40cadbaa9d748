"""`litrec new` never writes a record that `litrec validate` would then reject for its id: a
reserved name (a page the site generates) or a non-ASCII id is refused, with the reason, and
nothing is written."""

from __future__ import annotations

import pytest

from tests.support.files import snapshot


@pytest.mark.parametrize("args, needle", [
    (("work", "index"), "the name of a page the site generates"),
    (("work", "--title", "Index"), "the name of a page the site generates"),
    (("work", "wörk"), "non-ASCII character 'ö' (U+00F6)"),
    (("note", "NOTE-٣"), "non-ASCII character"),
    (("theory", "THEORY-１"), "non-ASCII character"),
])
def test_new_refuses_an_id_validate_would_reject(mini, litrec, args, needle):
    before = snapshot(mini / "records")
    res = litrec("new", *args, cwd=mini)
    assert res.code == 2 and needle in res.err and "Traceback" not in res.err
    assert snapshot(mini / "records") == before  # nothing written


def test_what_new_writes_validates(mini, litrec):
    assert litrec("new", "work", "indexing-notes", cwd=mini).code == 0
    assert litrec("validate", cwd=mini).code == 0

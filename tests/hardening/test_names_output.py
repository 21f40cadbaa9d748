"""Output and names that cannot collide: JSON alone on standard output, ids that cannot
take a generated page's place or look like another id."""

from __future__ import annotations

import json

import pytest

from tests.support.files import write
from tests.support.toy import analysis

NOISY = analysis(doc="Writes to standard output every way it can.", head='''
    import os
    import subprocess
    import sys

    if os.environ.get("TOY_SWEEP"):  # points in worker processes (with --jobs 2)
        SWEEP = {"quick": {"seed": [0, 1, 2]}}
    print("print at import")
    ''', fields="n: int = 5\nseed: int = 0", body='''
    print("print from the analysis")
    os.write(1, b"raw write to descriptor 1\\n")
    subprocess.run([sys.executable, "-c", "print('a child process')"], check=True)
    return {"metrics": {"total": 10.0, "n": config.n}}
    ''')


@pytest.mark.process
@pytest.mark.parametrize("where", [
    "here",  # one point, in litrec's own process
    pytest.param("local workers", marks=pytest.mark.slow),  # forked from litrec's forkserver
])
def test_run_format_json_prints_only_json_whatever_the_analysis_writes(mini, litrec, where):
    write(mini, "analysis/toy.py", NOISY)
    args, env = (["--jobs", "2"], {"TOY_SWEEP": "1"}) if where == "local workers" else ([], {})
    done = litrec("run", "--profile", "quick", "--format", "json", *args, cwd=mini, env=env)
    doc = json.loads(done.out)  # nothing but the JSON
    assert doc["ran"] == ["toy"] and done.code == 0, done.text
    for line in ("print at import", "print from the analysis", "raw write to descriptor 1",
                 "a child process"):
        assert line in done.err
    if where == "local workers":  # the points ran in the workers, not here
        assert "3 points of 1 analysis to the local executor" in done.err


def test_other_commands_format_json_prints_only_json(mini, litrec):
    """status, validate and diff read the analyses' sources without running them: their JSON
    stands alone on standard output whatever the analysis would print."""
    write(mini, "analysis/toy.py", NOISY)
    assert litrec("run", "--profile", "quick", cwd=mini).code == 0
    for args in (["status", "--profile", "quick"], ["validate"],
                 ["diff", "--profile", "quick", "--profile", "paper"]):
        done = litrec(*args, "--format", "json", cwd=mini)
        json.loads(done.out)
        assert "print" not in done.out, (args, done.out)


def test_a_record_id_named_like_a_generated_page_is_refused(mini, litrec):
    write(mini, "records/works/index.yaml", """
        id: index
        kind: work
        title: A work whose page would replace the records index
        status: draft
        """)
    done = litrec("validate", cwd=mini)
    assert done.code == 1 and "Traceback" not in done.text
    assert "records/works/index.yaml:1:5: id: id 'index' is the name of a page the site " \
           "generates (records/index.md)" in done.text


def test_an_analysis_named_like_a_generated_page_is_refused(mini, litrec):
    write(mini, "analysis/registry.yaml", "index:\n  module: toy\n  title: Toy sum\n")
    done = litrec("validate", cwd=mini)
    assert done.code == 1 and "Traceback" not in done.text
    assert "analysis/registry.yaml:1:1: index: analysis name 'index' is the name of a page " \
           "the site generates (analyses/index.md)" in done.text


def test_a_look_alike_id_with_full_width_digits_is_refused(mini, litrec):
    write(mini, "records/notes/NOTE-62１.yaml", """
        id: NOTE-62１
        kind: note
        title: A note whose id is not ASCII
        """)
    done = litrec("validate", cwd=mini)
    assert done.code == 1 and "Traceback" not in done.text
    assert "NOTE-62１.yaml:1:5: id: 'NOTE-62１' is not a note id: it holds the non-ASCII " \
           "character '１' (U+FF11)" in done.text


def test_a_claim_id_with_a_full_width_digit_is_refused(mini, litrec):
    paper = (mini / "records/literature/ARXIV-0000.00001.yaml")
    paper.write_text(paper.read_text().replace("- id: F1", "- id: F１"), encoding="utf-8")
    done = litrec("validate", cwd=mini)
    assert done.code == 1 and "Traceback" not in done.text
    assert "ARXIV-0000.00001.yaml:7:" in done.text and "claims[0].id" in done.text

"""Every page of the site is checked against what litrec does: console examples rerun, JSON
examples found in a real export, the guide naming every page, the examples' code run.

Which test keeps each hand-written page true is listed in `CHECKED_BY`; a new page
must be added there (and to the guide) or this test fails.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.docs import console

SITE = REPO / "site"

# page -> what checks it (beside the link and nav checks of the site build)
CHECKED_BY = {
    "add-a-paper.md": "tests/docs/test_add_a_paper_doc.py (every command run in order)",
    "architecture.md": "tests/architecture (the layers and modules it names)",
    "cli.md": "tests/docs/test_cli_doc.py (generated from --help)",
    "export-format.md": "this file (its console example rerun, its JSON examples found in an export)",
    "guide.md": "this file (it names every page); tests/site (what it describes)",
    "index.md": "tests/site/test_build.py (the home page it introduces)",
    "scale-out.md": "this file (its console examples rerun); tests/sweep",
    "usage.md": "tests/ecosystem/test_usage_doc.py (every example rerun)",
    "writing-analyses.md": "tests/ecosystem/test_new_analysis.py, tests/analyses/test_contract.py",
    "writing-records.md": "tests/records/test_docs_records.py (every kind, field and relation)",
}


def pages() -> list[Path]:
    return sorted(SITE.glob("*.md"))


def test_every_page_is_checked_and_named_in_the_guide_and_the_nav():
    names = {p.name for p in pages()}
    assert names == set(CHECKED_BY), f"pages without a check: {names - set(CHECKED_BY)}; " \
                                     f"checks without a page: {set(CHECKED_BY) - names}"
    guide = (SITE / "guide.md").read_text(encoding="utf-8")
    nav = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    for name in names - {"guide.md"}:
        assert f"]({name})" in guide, f"guide.md does not name {name}"
        assert f": {name}" in nav, f"mkdocs.yml's nav does not name {name}"


def test_every_console_block_is_run_by_a_test():
    """A console block is on a page whose examples are rerun, or marked as one that cannot run."""
    for page in [*pages(), REPO / "README.md"]:
        text = page.read_text(encoding="utf-8")
        if not console.BLOCK.search(text) or page.name == "usage.md":
            continue  # usage.md: tests/ecosystem/test_usage_doc.py
        assert page.name in console.SANDBOXES, f"{page.name} has console examples no test runs"
        for reason, block in console.blocks_not_run(text):
            shown = [ln for ln in block.splitlines() if ln.strip() and not ln.startswith("$ ")]
            assert not shown, f"{page.name}: a block not run ({reason}) shows output: {shown}"


def _check_console(name: str):
    path = SITE / name
    page = path.read_text(encoding="utf-8")
    assert console.render(name, page) == page, (
        f"site/{name} is out of date: run `python -m tests.docs.console --write site/{name}` "
        "and review the diff")


def test_export_format_console_example():
    _check_console("export-format.md")


@pytest.mark.slow  # runs a sweep on worker processes and waits on an unreachable dask scheduler
def test_scale_out_console_examples():
    _check_console("scale-out.md")


# ------------------------------------------------------------------ export-format.md's JSON

ANY = "@@any@@"


def _shown_json(block: str):
    """A JSON example as written, `...` standing for what is left out."""
    text = (block.replace("{...}", json.dumps(ANY)).replace("[...]", json.dumps(ANY))
            .replace('"...": "..."', f'"{ANY}": "{ANY}"').replace('"..."', json.dumps(ANY))
            .replace(", ...}", f', "{ANY}": "{ANY}"}}').replace(", ...]", f', "{ANY}"]'))
    text = text.strip()
    if text.startswith('"'):  # a member of an object: "uses": {...}
        text = "{" + text + "}"
    return json.loads(text)


def _matches(shown, actual) -> bool:
    if shown == ANY:
        return True
    if isinstance(shown, dict):
        if not isinstance(actual, dict):
            return False
        keys = set(shown) - {ANY}
        if ANY not in shown and keys != set(actual):
            return False
        return keys <= set(actual) and all(_matches(shown[k], actual[k]) for k in keys)
    if isinstance(shown, list):
        if not isinstance(actual, list):
            return False
        if shown and shown[-1] == ANY:
            head = shown[:-1]
            return len(actual) >= len(head) and all(map(_matches, head, actual))
        return len(shown) == len(actual) and all(map(_matches, shown, actual))
    if isinstance(shown, str) and shown.endswith(", ...") and isinstance(actual, str):
        return actual.startswith(shown[:-4])
    return shown == actual


def _found(shown, doc) -> bool:
    """Whether some value in the export (or a member of one of its objects) matches `shown`."""
    if _matches(shown, doc):
        return True
    if isinstance(shown, dict) and len(shown) == 1 and isinstance(doc, dict):
        (key, value), = shown.items()
        if key in doc and _matches(value, doc[key]):
            return True
    children = doc.values() if isinstance(doc, dict) else doc if isinstance(doc, list) else []
    return any(_found(shown, child) for child in children)


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    root = console.fixture_project(tmp_path_factory.mktemp("export") / "project")
    out = console.run("litrec export json --out graph.json", root)
    assert out.startswith("wrote graph.json"), out
    return root


def test_export_format_json_examples_are_found_in_a_real_export(exported):
    doc = json.loads((exported / "graph.json").read_text(encoding="utf-8"))
    page = (SITE / "export-format.md").read_text(encoding="utf-8")
    examples = re.findall(r"^```json\n(.*?)^```$", page, re.S | re.M)
    assert len(examples) >= 5
    for block in examples:
        assert _found(_shown_json(block), doc), f"not in the export of the fixture project:\n{block}"
    # the tables say what the document holds
    assert f"| `version` | `{doc['version']}` " in page
    assert "`\"version\": " + str(doc["version"]) + "`" in page
    where = next(c["where"] for c in doc["claims"] if c["ref"] == "ARXIV-2212.07677#P1")
    assert f"(`{where}`)" in page  # the `where` row's example is what export writes


def test_export_format_reading_example_runs(exported):
    page = (SITE / "export-format.md").read_text(encoding="utf-8")
    code = re.search(r"## Reading it\n\n```python\n(.*?)^```$", page, re.S | re.M).group(1)
    run = subprocess.run([sys.executable, "-c", code], cwd=exported, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "NOTE-621#C1 missing" in run.stdout

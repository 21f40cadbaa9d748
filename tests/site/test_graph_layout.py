"""The site's graphs name their curve: with Mermaid's default (`basis`) an edge's label is moved
to the middle of its drawn curve, where the labels of parallel links meet; with a named curve
each label stays where the layout placed it, apart from every other (tests/site/
test_fit_in_browser.py measures that in Chromium)."""

from __future__ import annotations

import json
import re

from litrec.records.load import load_project
from litrec.site.graph import record_graph, whole_graph
from litrec.site.pagedata import gather
from tests.conftest import copy_project


def init_of(source: str) -> dict:
    first = source.splitlines()[0]
    found = re.fullmatch(r"%%\{init: (.*)\}%%", first)
    assert found, first
    return json.loads(found.group(1))


def test_every_graph_of_the_site_names_a_curve_other_than_mermaid_s_default(tmp_path):
    root = copy_project(tmp_path / "project")
    data = gather(load_project(root / "records"), root / "results", "paper")
    graphs = [whole_graph(data)[0]] + [record_graph(data, rid)[0] for rid in data.project.records]
    for source in graphs:
        flow = init_of(source)["flowchart"]
        assert flow.get("curve") not in (None, "basis"), flow

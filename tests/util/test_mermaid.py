"""`litrec.util.mermaid`: the one writer of Mermaid text, used by the site's drawings and by
`litrec graph --format mermaid`; the two give the same line for the same link."""

from __future__ import annotations

import re

from litrec.export.document import to_mermaid
from litrec.records.load import load_project
from litrec.site.graph import whole_graph
from litrec.site.pagedata import gather
from litrec.util.formatting import shorten
from litrec.util.mermaid import Arrow, Class, Click, Node, flowchart, label
from tests.conftest import copy_project


def test_labels_hold_no_syntax():
    text = label('a"]; click n0 call alert(1) %% <b>&#x\n|x|', limit=200)
    assert all(c.isalnum() or c in " .,:_/()?!+'-#;" for c in text)
    assert '"' not in text and "<" not in text and "|" not in text and "]" not in text
    assert "#34;" in text and "#60;" in text and "#93;" in text


def test_a_label_is_shortened_before_it_is_escaped():
    assert label("Transformers learn in-context by gradient descent", 20) == "Transformers learn#8230;"
    assert label("a|b " * 3, 300) == "a#124;b a#124;b a#124;b"


def test_a_flowchart_names_its_nodes_and_writes_its_lines_in_one_order():
    text = flowchart(
        [Node("B-2", 'say "hi"'), Node("A-1", "one", '("{}")')],
        [Arrow("A-1", "B-2", "cites")],
        clicks=[Click("B-2", 'b.html?q="x"', "tip <b>")],
        classes=[Class("note", "fill:#fff", ["B-2", "A-1"])],
        styles=[("A-1", "stroke-width:4px")],
        init="%%{init: {}}%%")
    assert text == ('%%{init: {}}%%\n'
                    'graph LR\n'
                    '  n0["say #34;hi#34;"]\n'
                    '  n1("one")\n'
                    '  n1 -->|"cites"| n0\n'
                    '  click n0 href "b.html?q=%22x%22" "tip #60;b#62;"\n'
                    '  classDef note fill:#fff\n'
                    '  class n0,n1 note\n'
                    '  style n1 stroke-width:4px\n')


def _arrows(text: str) -> list[str]:
    return [ln for ln in text.splitlines() if " -->|" in ln]


def _labels(text: str) -> dict[str, str]:
    """Node id -> its label, entity codes read back as characters."""
    found = re.findall(r'^  (n\d+)\W*"(.*?)"\W*$', text, re.M)
    return {nid: re.sub(r"#(\d+);", lambda m: chr(int(m.group(1))), lab) for nid, lab in found}


def test_litrec_graph_and_the_sites_graph_write_each_link_and_node_alike(tmp_path):
    root = copy_project(tmp_path / "project", "hostile")  # titles with HTML, quotes, long ones
    proj = load_project(root / "records")
    exported = to_mermaid(proj)
    drawn, full = whole_graph(gather(proj, root / "results", "paper"))
    assert full and proj.edges
    assert _arrows(exported) == _arrows(drawn)  # the same line for the same link, in order
    site_labels, export_labels = _labels(drawn), _labels(exported)
    assert set(site_labels) == set(export_labels) == {f"n{i}" for i in range(len(proj.records))}
    cut = [nid for nid in export_labels if export_labels[nid] != site_labels[nid]]
    assert cut, "no title long enough to tell the two limits apart"
    for nid, whole in site_labels.items():  # the site's whole label, cut to the export's 40
        assert export_labels[nid] == shorten(whole, 40), nid

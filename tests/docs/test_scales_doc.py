"""What the docs say about the profiles is what the project declares: the scales and their
order (the scales the registry gives, `litrec.analyses.scales`, the last the paper's own) and the seeds each profile of
the project's analyses runs (their `SEEDS`, read from the source without importing it)."""

from __future__ import annotations

import ast
import re

import yaml

from litrec.analyses.registry import load_registry
from tests.conftest import REPO

NUMBERS = {w: i for i, w in enumerate("zero one two three four five six seven eight nine ten".split())}


def _page(name: str) -> str:
    return " ".join((REPO / "site" / name).read_text(encoding="utf-8").split())


def _seeds() -> dict[str, dict[str, int]]:
    """analysis name -> profile -> how many seeds it runs, for each analysis that declares SEEDS."""
    registry = yaml.safe_load((REPO / "analysis" / "registry.yaml").read_text(encoding="utf-8"))
    out = {}
    for name, entry in registry.items():
        if name == "scales":  # the registry's list of scales, not an analysis
            continue
        tree = ast.parse((REPO / "analysis" / f"{entry['module']}.py").read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "SEEDS"
                                                    for t in node.targets):
                out[name] = {k: len(v) for k, v in ast.literal_eval(node.value).items()}
    return out


def test_the_seed_counts_the_docs_give_are_the_analyses():
    said = re.search(r"The `quick` profiles of this project's analyses run (\w+) seeds, `paper` "
                     r"(\w+) to (\w+)\.", _page("writing-records.md"))
    assert said, "site/writing-records.md no longer says how many seeds quick and paper run"
    seeds = _seeds()
    assert seeds, "no analysis declares SEEDS"
    quick = {s["quick"] for s in seeds.values() if "quick" in s}
    paper = [s["paper"] for s in seeds.values() if "paper" in s]
    assert quick == {NUMBERS[said.group(1)]}, quick
    assert (min(paper), max(paper)) == (NUMBERS[said.group(2)], NUMBERS[said.group(3)]), paper


def test_the_docs_name_the_papers_own_scale_as_the_project_declares_it():
    scales = load_registry(REPO / "analysis", []).scales
    own, reduced = scales[-1], scales[0]
    guide = _page("guide.md")
    assert f"`{own}` profile (the paper's own scale" in guide
    assert f"else with `{reduced}` (the paper's settings at a reduced length" in guide
    records = _page("writing-records.md")
    assert (f"The committed `{reduced}` results run the paper's setting at a reduced length"
            in records and f"`{own}` runs it at the paper's own" in records)


def test_the_registry_page_names_this_project_s_scales_as_the_rule_gives_them():
    """site/writing-analyses.md says which scales the rule gives this project: those it gives."""
    scales = load_registry(REPO / "analysis", []).scales
    said = re.search(r"so its scales are ((?:`\w+`(?:, then |, )?)+)\.", _page("writing-analyses.md"))
    assert said, "site/writing-analyses.md no longer says which scales this project has"
    assert tuple(re.findall(r"`(\w+)`", said.group(1))) == scales

"""One judge: a claim's row against a stored result (`litrec.verdicts.rows.judge`), the one
function `status`, `run`, the export, the site (through `litrec.verdicts.claims`) and `diff`
reach; no module of the verdicts, the export or the site reaches into another's private names."""

from __future__ import annotations

import ast

import pytest

from litrec.records.expectation import Expectation
from litrec.verdicts.judge import MissingMetric
from litrec.verdicts.rows import claim_rows, is_extension, judge, row_share, seed_metrics
from tests.conftest import REPO

SRC = REPO / "src" / "litrec"
EXT = {"kind": "extension", "reason": "litrec's own test"}
PAPER = {"kind": "paper", "where": "§1", "quote": "a test claim", "threshold": "paper"}


def E(**kw) -> Expectation:
    return Expectation.model_validate({"source": PAPER, **kw})


def seeds(**metrics: tuple) -> dict:
    """A result swept over seeds 0..n-1, each metric's value per seed."""
    n = len(next(iter(metrics.values())))
    return {"sweep": {"seed": list(range(n))},
            "points": [{"metrics": {k: v[i] for k, v in metrics.items()}} for i in range(n)]}


def test_a_row_is_judged_on_the_interval_over_seeds():
    result = seeds(loss=(0.10, 0.11, 0.12))
    assert seed_metrics(result) == ([{"loss": 0.10}, {"loss": 0.11}, {"loss": 0.12}], [0, 1, 2])
    got = judge([E(metric="loss", op="<", value=0.2)], result)
    assert got.verdict == "reproduced" and [o.n for o in got.outcomes] == [3]
    got = judge([E(metric="loss", op="<", value=0.11)], result)  # the interval straddles 0.11
    assert (got.verdict, got.direction) == ("inconclusive", "undecided")
    assert got.reason.startswith("an interval straddles its threshold") and got.seeds_needed is None
    got = judge([E(metric="loss", op="<", value=0.2), E(metric="loss", op=">", value=0.5)], result)
    assert (got.verdict, got.reason) == ("not reproduced", None)


def test_one_run_is_judged_on_its_metrics_and_its_noise_is_used():
    result = {"metrics": {"loss": 0.1}, "noise": {"loss": 0.5}}
    got = judge([E(metric="loss", op="<", value=0.2)], result)
    assert seed_metrics(result)[1] is None and got.outcomes[0].noise == 0.5


def test_a_refused_outcome_is_an_error_located_by_the_caller():
    result = {"metrics": {"flag": "yes"}}
    got = judge([E(metric="flag", op="<", value=1.0)], result, lambda o: f"results/a.json:3: {o.metric}")
    assert got.verdict == "error" and got.reason.startswith("results/a.json:3: flag: ")
    assert judge([E(metric="flag", op="<", value=1.0)], result).reason.startswith("flag: ")


def test_a_metric_the_result_lacks_is_left_to_the_caller():
    with pytest.raises(MissingMetric) as exc:
        judge([E(metric="absent", op="<", value=1.0)], {"metrics": {"loss": 0.1}})
    assert exc.value.args == ("absent",)


def test_the_rows_of_a_claim_and_their_share_of_stored_expectations():
    own = E(metric="loss", op="<", value=1.0)
    ext = Expectation.model_validate({"metric": "gap", "op": "<", "value": 0.1, "source": EXT})
    pre = Expectation.model_validate({"metric": "base", "op": "<", "value": 0.1, "source": EXT,
                                      "precondition": True})
    assert (is_extension(own), is_extension(ext), is_extension(pre)) == (False, True, False)
    assert claim_rows([own, ext, pre]) == [("", [own, pre]), ("+ext", [ext])]
    assert claim_rows([own]) == [("", [own])]
    # what a result stored is shared out by each one's own row: a note reworded leaves it in its
    # row, and an extension edited since (another tolerance) stays in the extension row
    edited = ext.model_copy(update={"value": 0.05})
    stored = [own.model_copy(update={"note": "reworded"}), edited, pre]
    assert row_share(stored, extension=False) == [stored[0], pre]
    assert row_share(stored, extension=True) == [edited]


def _calls(path, names: set[str]) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [f"{path.relative_to(SRC)}:{n.lineno}: {n.func.id}" for n in ast.walk(tree)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in names]


def test_expectations_are_judged_into_a_verdict_in_one_place():
    """Outside `rows.judge`, no module evaluates expectations and decides a verdict of its own:
    a second judge (as `diff` once had) could drift from the first."""
    found = [c for p in sorted(SRC.rglob("*.py")) if p.name not in ("rows.py", "judge.py")
             for c in _calls(p, {"evaluate", "claim_verdict"})]
    assert found == []


@pytest.mark.parametrize("package", ["verdicts", "export", "site"])
def test_no_module_imports_another_module_s_private_name(package):
    found = []
    for path in sorted((SRC / package).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("litrec"):
                found += [f"{path.relative_to(SRC)}:{node.lineno}: {node.module}.{a.name}"
                          for a in node.names if a.name.startswith("_") and not a.name.startswith("__")]
    assert found == []

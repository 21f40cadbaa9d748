"""Fuzzing the loader: mutated records never raise, and every invalid one gets a located error.

Valid records (the `mini` project's paper and note, and a decision) are
mutated as data (a value replaced by another type, nesting, unicode, sizes,
keys that are not text) or as text (a line replaced by a hostile YAML
literal), written to a temporary folder and loaded in-process with
`load_project`. No exception may escape; every record that did not load has
an error naming its file at a line >= 1.
"""

from __future__ import annotations

import copy
import datetime as dt
import shutil
import tempfile
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from litrec.records.load import load_project
from tests.support.mini import ANALYSIS, NOTE, PAPER
from tests.support.toy import write_analysis

DECISION = "id: ADR-001\nkind: decision\ntitle: t\nstatus: accepted\ndate: 2026-01-02\n"
SEEDS = {
    "literature/ARXIV-0000.00001.yaml": yaml.safe_load(PAPER),
    "notes/NOTE-1.yaml": yaml.safe_load(NOTE),
    "decisions/ADR-001.yaml": yaml.safe_load(DECISION),
}

SCALARS = st.one_of(
    st.none(), st.booleans(),
    st.integers(-10**60, 10**60),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),  # any unicode: control characters, surrogates excluded by YAML's dumper
    st.text(alphabet="NOTE-ARXIV#F1.0 \n\t\x00\x85\u2028", max_size=12),
    st.dates(dt.date(1, 1, 1), dt.date(9999, 12, 31)),
    st.sampled_from(["literature", "note", "uses", "ARXIV-0000.00001#F1", ">=", "≈", "toy",
                     "total", "finding", "2026-02-30", "NOTE-1\n", ""]),
)
KEYS = st.one_of(st.text(max_size=8), st.sampled_from(["id", "kind", "claims", "links", "value",
                                                       "ref", "date", "<<"]),
                 st.integers(-3, 3), st.none(), st.booleans())
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(KEYS, inner, max_size=4)), max_leaves=12)

# Text that YAML reads but Python cannot hold, or that is hostile to a loader.
LITERALS = [
    "2026-02-30", "2026-13-01", "0000-00-00", "9" * 5000, "-" + "1" * 4400, "1.0e+999",
    ".nan", ".inf", "-.inf", "~", "null", "[note]", "{a: 1}", "!!python/object:os.system x",
    "&a [1]", "*a", "<<: {a: 1}", "!!binary aGk=", "!!timestamp 2026-02-30", "'\\x00'",
    '"\\0\\x85\\u2028"', "[" + ",".join(["a"] * 3000) + "]", "{" * 80 + "}" * 80, "- - - -",
    "|\n  block", "1:2:3", "0o777", "0b101", "0x1F", "+12_000", "190:20:30",
]


def _paths(node, path=()):
    yield path
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, (*path, i))


@st.composite
def mutated(draw) -> dict[str, str]:
    """The seed files, one or two of them mutated (as data, then possibly as text)."""
    files = {}
    for rel, seed in SEEDS.items():
        data = copy.deepcopy(seed)
        if draw(st.booleans()):
            for _ in range(draw(st.integers(1, 3))):
                path = draw(st.sampled_from(list(_paths(data))))
                if not path:
                    continue
                parent = data
                for part in path[:-1]:
                    parent = parent[part]
                action = draw(st.sampled_from(["set", "set", "delete", "add"]))
                if action == "delete":
                    del parent[path[-1]]
                elif action == "add" and isinstance(parent, dict):
                    parent[draw(KEYS)] = draw(VALUES)
                else:
                    parent[path[-1]] = draw(VALUES)
        try:
            text = yaml.safe_dump(data, allow_unicode=draw(st.booleans()), sort_keys=False)
        except (yaml.YAMLError, ValueError):
            text = yaml.safe_dump(seed, sort_keys=False)
        if draw(st.integers(0, 3)) == 0:
            lines = text.splitlines() or [""]
            i = draw(st.integers(0, len(lines) - 1))
            key = lines[i].split(":", 1)[0] if ":" in lines[i] else "x"
            lines[i] = f"{key}: {draw(st.sampled_from(LITERALS))}"
            text = "\n".join(lines) + "\n"
        files[rel] = text
    return files


def check_load(files: dict[str, str], root: Path | None = None) -> None:
    """Load the files; nothing escapes, and every record that did not load has a located error.
    `root`: a project of `records_project`'s, whose records this example's files replace (every
    example writes the same three files); by default one of its own in a temporary folder."""
    if root is None:
        with tempfile.TemporaryDirectory() as tmp:
            return check_load(files, records_project(Path(tmp)))
    for old in (root / "records").rglob("*.yaml"):  # only this example's records in it
        if old.relative_to(root / "records").as_posix() not in files:
            old.unlink()
    for rel, text in files.items():
        path = root / "records" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
    proj = load_project(root / "records")
    for d in proj.diagnostics:
        assert d.line >= 1 and d.col >= 1, d
        assert isinstance(d.message, str) and d.message, d
    loaded = {str(p) for p in proj.paths.values()}
    for rel in files:
        path = root / "records" / rel
        if str(path) in loaded:
            continue
        shown = proj.display(path)
        errors = [d for d in proj.errors if d.path == shown]
        assert errors, (rel, files[rel], [d.format() for d in proj.diagnostics])


def records_project(root: Path) -> Path:
    """A project with the toy analysis the seed records name, written once: what differs
    between two examples is the records alone (writing the analysis anew for each example
    cost ten times the load itself, most of it in syncing litrec's cache to disk)."""
    write_analysis(root, ANALYSIS)
    return root


@pytest.fixture(scope="module")
def loaded_in(tmp_path_factory):
    """`records_project` in a folder of this module's tests."""
    return records_project(tmp_path_factory.mktemp("fuzz-records") / "p")


FAST = settings(max_examples=50, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
SLOW = settings(max_examples=1000, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
# A result example costs ten times a record example (status asks git for each claim's
# registration, nine subprocesses an example): 300 of them, still about 30 draws of
# each of the 19 fields it mutates (1 to 3 fields an example), was 1,000.
SLOW_RESULTS = settings(SLOW, max_examples=300)


@pytest.mark.slow
@FAST
@given(mutated())
def test_mutated_records_fast(loaded_in, files):
    check_load(files, loaded_in)


@pytest.mark.slow
@SLOW
@given(mutated())
def test_mutated_records(loaded_in, files):
    check_load(files, loaded_in)


def test_a_tagged_timestamp_that_is_no_date_is_a_located_error():
    """What fuzzing found: `!!timestamp` on text that is no date at all (PyYAML's constructor
    raised AttributeError from inside the loader)."""
    paper = yaml.safe_dump(SEEDS["literature/ARXIV-0000.00001.yaml"], sort_keys=False)
    for bad in ("x: !!timestamp 2026-02-30\n\n  '\n", "x: !!timestamp yesterday\n"):
        check_load({"literature/ARXIV-0000.00001.yaml": paper + bad})
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "records/literature/ARXIV-0000.00001.yaml"
        path.parent.mkdir(parents=True)
        path.write_text(paper + "x: !!timestamp yesterday\n")
        errors = [d.format() for d in load_project(Path(tmp) / "records").errors]
    assert any("'yesterday' is not a real date (not a date YAML reads)" in e for e in errors), errors


def test_the_seeds_are_valid():
    check_load({rel: yaml.safe_dump(seed, sort_keys=False) for rel, seed in SEEDS.items()})
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for rel, seed in SEEDS.items():
            path = root / "records" / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(yaml.safe_dump(seed, sort_keys=False))
        write_analysis(root, ANALYSIS)
        assert load_project(root / "records").ok


# ------------------------------------------------------------------ results

RESULT_KEYS = ["format", "analysis", "profile", "code_hash", "code_files", "versions", "platform",
               "device", "config", "sweep", "seed", "started", "wall_time_s", "metrics", "spread",
               "points", "figures", "notes", "litrec"]


@st.composite
def mutated_result(draw) -> dict:
    """A stored result with some of its fields replaced by values of any type."""
    data = {"format": 1, "analysis": "toy", "profile": "quick", "code_hash": "0" * 64,
            "code_files": {"analysis/toy.py": "0" * 64}, "versions": {"numpy": "2"},
            "platform": {"system": "Linux"}, "device": {"platform": "cpu", "devices": ["cpu"]},
            "config": {"n": 5}, "seed": None, "started": "2026-01-01", "wall_time_s": 0.1,
            "metrics": {"total": 10.0, "n": 5}, "figures": {"a": "quick/a.svg"}, "notes": []}
    for _ in range(draw(st.integers(1, 3))):
        key = draw(st.sampled_from(RESULT_KEYS))
        if key == "metrics" and draw(st.booleans()):
            data["metrics"] = {"total": draw(VALUES), "n": draw(VALUES)}
        elif key == "figures" and draw(st.booleans()):
            data["figures"] = {"a": draw(st.one_of(VALUES, st.sampled_from(
                ["/etc/passwd", "../x.svg", "quick/../../x", "C:/x", "", "quick/a.svg"])))}
        else:
            data[key] = draw(VALUES)
    return data


def result_project(root: Path):
    """The records and analysis every mutated result is judged with, written and loaded once
    (they are the same for every example): (root, loaded project)."""
    write_analysis(root, ANALYSIS)
    for rel, seed in SEEDS.items():
        path = root / "records" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(yaml.safe_dump(seed, sort_keys=False))
    return root, load_project(root / "records")


@pytest.fixture(scope="module")
def judged_with(tmp_path_factory):
    """`result_project` in a folder of this module's tests."""
    return result_project(tmp_path_factory.mktemp("fuzz-results") / "p")


def check_result(data: dict, project=None) -> None:
    """Status, the site's pages and the export of a project with this result never raise.
    `project`: `result_project`'s (root, project), whose results/ this example replaces; by
    default one of its own in a temporary folder."""
    import json as _json

    from litrec.export.document import graph_document
    from litrec.site.index_pages import analysis_page
    from litrec.site.pagedata import gather
    from litrec.site.record_page import record_page
    from litrec.util.errors import DamagedResult
    from litrec.verdicts.claims import claim_statuses

    if project is None:
        with tempfile.TemporaryDirectory() as tmp:
            return check_result(data, result_project(Path(tmp)))
    root, proj = project
    shutil.rmtree(root / "results", ignore_errors=True)  # only this example's result in it
    out = root / "results/toy/quick.json"
    out.parent.mkdir(parents=True)
    try:
        out.write_text(_json.dumps(data, indent=2, default=str))
    except ValueError:
        return
    try:
        statuses = claim_statuses(proj, root / "results", "quick")
    except DamagedResult:  # pragma: no cover - the state says damaged, never raises
        raise
    for s in statuses:
        if s.verdict == "error":
            assert s.reason and "results/toy/quick.json" in s.reason, s.reason
    site = gather(proj, root / "results", "quick")
    analysis_page(site, "toy")
    for rid in proj.records:
        record_page(site, rid)
    graph_document(proj, root / "results", "quick")


@pytest.mark.slow
@FAST
@given(mutated_result())
def test_mutated_results_fast(judged_with, data):
    check_result(data, judged_with)


@pytest.mark.slow
@SLOW_RESULTS
@given(mutated_result())
def test_mutated_results(judged_with, data):
    check_result(data, judged_with)

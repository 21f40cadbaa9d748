"""Every bad input gets one located message (file:line: field, or the option), never a traceback.

Each test builds its bad input in the `mini` project and runs the command line
as a user would: exit 1 for bad input, 2 for bad usage, the message names the
file and line (or the option), no traceback, and nothing the command does not
own changed.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest

from litrec.analyses.inputs import RESULT_FORMAT
from litrec.analyses.inputs import result_inputs as fingerprint
from litrec.records.load import load_project
from litrec.results.seal import seal
from litrec.results.store import write_result
from tests.support.files import snapshot, write
from tests.support.mini import finding

REPO = Path(__file__).resolve().parents[2]
PAPER_FILE = "records/literature/ARXIV-0000.00001.yaml"
NOTE_FILE = "records/notes/NOTE-1.yaml"
RESULT = "results/toy/quick.json"
ROOT = os.geteuid() == 0 if hasattr(os, "geteuid") else False

PAPER_HEAD = """\
id: ARXIV-0000.00001
kind: literature
title: A toy paper
"""


def paper_with(expect: str) -> str:
    """The mini paper with one expectation written as given (a flow mapping)."""
    return PAPER_HEAD + "claims:\n" + finding(expect)


def one_error(res, code: int, where: str, *needles: str) -> str:
    """Assert the exit code, no traceback, and exactly one error line starting `where`."""
    text = res.text
    assert res.code == code, text
    assert "Traceback" not in text, text
    lines = [ln for ln in text.splitlines() if ln.startswith(where)]
    assert len(lines) == 1, text
    for needle in needles:
        assert needle in lines[0], text
    return lines[0]


def validate_one(mini, litrec, rel: str, text: str, where: str, *needles: str) -> str:
    """Write `rel`, run validate, expect one located error there."""
    write(mini, rel, text)
    before = snapshot(mini)
    res = litrec("validate", cwd=mini)
    assert snapshot(mini) == before
    line = one_error(res, 1, where, *needles)
    errors = [ln for ln in res.out.splitlines() if ":" in ln and "warning:" not in ln]
    assert len(errors) == 1, res.text  # one message: no cascade into other files
    return line


# ------------------------------------------------------------------ records


@pytest.mark.parametrize("rel, text, where", [
    (NOTE_FILE, "id: NOTE-1\nkind: note\ndate: 2026-02-30\n", f"{NOTE_FILE}:3:7: date:"),
    (NOTE_FILE, "id: NOTE-1\nkind: note\ndate: 2026-13-01\n", f"{NOTE_FILE}:3:7: date:"),
    ("records/decisions/ADR-001.yaml", "id: ADR-001\nkind: decision\ndate: 2025-02-29\n",
     "records/decisions/ADR-001.yaml:3:7: date:"),
    (PAPER_FILE, PAPER_HEAD + "filed:\n  date: 2026-04-31\n", f"{PAPER_FILE}:5:9: filed.date:"),
], ids=["note-feb-30", "month-13", "decision-not-leap", "filed-date"])
def test_impossible_date(mini, litrec, rel, text, where):
    validate_one(mini, litrec, rel, text, where, "is not a real date")


@pytest.mark.parametrize("text, where, needle", [
    ("id: NOTE-1\nkind: note\ndate: 2026-01-02T10:00:00\n", f"{NOTE_FILE}:3:7: date:", "without a time"),
    ('id: NOTE-1\nkind: note\ndate: "2026-01-02"\n', f"{NOTE_FILE}:3:7: date:", "without quotes"),
    ("id: NOTE-1\nkind: note\ndate: 5\n", f"{NOTE_FILE}:3:7: date:", "valid date"),
], ids=["datetime", "quoted", "number"])
def test_dates_keep_their_line(mini, litrec, text, where, needle):
    validate_one(mini, litrec, NOTE_FILE, text, where, needle)


@pytest.mark.parametrize("rel, text, where", [
    (PAPER_FILE, PAPER_HEAD + "year: " + "9" * 5000 + "\n", f"{PAPER_FILE}:4:7: year:"),
    (NOTE_FILE, "id: NOTE-1\nkind: note\ntags: [a, " + "1" * 4400 + "]\n", f"{NOTE_FILE}:3:11: tags[1]:"),
], ids=["year", "in-a-list"])
def test_integer_thousands_of_digits_long(mini, litrec, rel, text, where):
    validate_one(mini, litrec, rel, text, where, "too long to read")


@pytest.mark.parametrize("kind, found", [("[note]", "a list"), ("{a: 1}", "a mapping"),
                                         ("1", "1"), ("true", "True")])
def test_kind_that_is_not_text(mini, litrec, kind, found):
    validate_one(mini, litrec, NOTE_FILE, f"id: NOTE-1\nkind: {kind}\n",
                 f"{NOTE_FILE}:2:7: kind:", found, "literature, note")


@pytest.mark.slow
@pytest.mark.parametrize("expect, field, needle", [
    ('{metric: total, op: ">=", value: .nan, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}', "value", "finite number"),
    ('{metric: total, op: ">=", value: .inf, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}', "value", "finite number"),
    ('{metric: total, op: ">=", value: null, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}', "value", "null is not a right-hand side"),
    ('{metric: total, op: ">=", ref: null, value: 3, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}', "ref", "null is not a right-hand side"),
    ('{metric: total, op: ">=", ref: .nan, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}', "ref", "valid string"),
    ('{metric: total, op: ">=", value: 3, factor: .nan, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}', "factor", "finite number"),
    ('{metric: total, op: "≈", value: 3, abs_tol: .nan, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}', "abs_tol", "finite number"),
    ('{metric: total, op: ">=", value: 3, paper: .nan, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}', "paper", "finite number"),
], ids=["nan-value", "inf-value", "null-value", "null-ref", "nan-ref", "nan-factor",
        "nan-tolerance", "nan-paper"])
def test_nan_or_null_in_an_expectation(mini, litrec, expect, field, needle):
    validate_one(mini, litrec, PAPER_FILE, paper_with(expect),
                 f"{PAPER_FILE}:12:", f"claims[0].check.expect[0].{field}:", needle)


def test_boolean_value_with_an_ordering_op(mini, litrec):
    validate_one(mini, litrec, PAPER_FILE, paper_with('{metric: total, op: ">=", value: true, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}'),
                 f"{PAPER_FILE}:12:11: claims[0].check.expect[0]:", "only be compared with '=='")


@pytest.mark.parametrize("literal", ["1.0e+999", "-2.5e+400"])
def test_float_too_large(mini, litrec, literal):
    validate_one(mini, litrec, PAPER_FILE,
                 paper_with(f'{{metric: total, op: ">=", value: {literal}, source: {{kind: paper, where: §1, quote: a test claim, threshold: paper}}}}'),
                 f"{PAPER_FILE}:12:", "claims[0].check.expect[0].value:", "too large")


@pytest.mark.parametrize("key, what", [("1", "a number"), ("null", "null"), ("true", "a boolean"),
                                       ("2020-01-01", "a date"), ("1.5", "a number")])
def test_key_that_is_not_text(mini, litrec, key, what):
    validate_one(mini, litrec, NOTE_FILE, f"id: NOTE-1\nkind: note\n{key}: x\n",
                 f"{NOTE_FILE}:3:1:", f"reads as {what}", "quote it")


def test_nested_key_that_is_not_text_names_its_field(mini, litrec):
    validate_one(mini, litrec, NOTE_FILE,
                 "id: NOTE-1\nkind: note\nlinks:\n  - {rel: uses, 7: x}\n",
                 f"{NOTE_FILE}:4:17: links[0]:", "reads as a number")


def test_merge_key(mini, litrec):
    validate_one(mini, litrec, NOTE_FILE, "id: NOTE-1\nkind: note\n<<: {title: x}\n",
                 f"{NOTE_FILE}:3:1: <<:", "merge keys")


@pytest.mark.parametrize("rid", ['"NOTE-1\\0"', '"NOTE\\n-1"', '"NOTE-1\\u0085x"'])
def test_record_id_with_a_control_character(mini, litrec, rid):
    validate_one(mini, litrec, NOTE_FILE, f"id: {rid}\nkind: note\n", f"{NOTE_FILE}:1:5: id:",
                 "is not a note id")


@pytest.mark.parametrize("text, where, needle", [
    ("id: NOTE-1\nkind: note\nclaims:\n  - {id: [], kind: finding, title: t, statement: s}\n",
     f"{NOTE_FILE}:4:10: claims[0].id:", "found a list"),
    ('id: NOTE-1\nkind: note\nclaims:\n  - {id: "", kind: finding, title: t, statement: s}\n',
     f"{NOTE_FILE}:4:10: claims[0].id:", "expected form"),
    ("id: []\nkind: note\n", f"{NOTE_FILE}:1:5: id:", "found a list"),
], ids=["claim-id-list", "claim-id-empty", "record-id-list"])
def test_empty_or_list_ids(mini, litrec, text, where, needle):
    validate_one(mini, litrec, NOTE_FILE, text, where, needle)


def test_empty_expectation_list(mini, litrec):
    text = paper_with("{}").replace("      expect:\n        - {}\n", "      expect: []\n")
    validate_one(mini, litrec, PAPER_FILE, text, f"{PAPER_FILE}:11:15: claims[0].check.expect:",
                 "at least 1")


def test_same_link_twice(mini, litrec):
    validate_one(mini, litrec, NOTE_FILE,
                 'id: NOTE-1\nkind: note\nlinks:\n  - {rel: uses, target: "ARXIV-0000.00001#F1"}\n'
                 '  - {rel: uses, target: "ARXIV-0000.00001#F1"}\n',
                 f"{NOTE_FILE}:5:25: links[1].target:", "already listed at links[0].target")


def test_flat_list_over_the_size_limit(mini, litrec):
    items = ",".join(["a"] * 200_000)
    validate_one(mini, litrec, NOTE_FILE, f"id: NOTE-1\nkind: note\ntags: [{items}]\n",
                 f"{NOTE_FILE}:3:", "tags[", "too large")


def test_bad_yaml_in_one_record_does_not_cascade(mini, litrec):
    """A link to a record whose file does not parse is not reported again at the link."""
    validate_one(mini, litrec, PAPER_FILE, PAPER_HEAD + "year: 2026-02-30\n",
                 f"{PAPER_FILE}:4:7: year:")


# --------------------------------------------------------- files in records/


@pytest.mark.parametrize("name", ["NOTE-2.yml~", "NOTE-2.json", "notes.txt"])
def test_file_with_another_extension_is_a_warning(mini, litrec, name):
    write(mini, f"records/notes/{name}", "id: NOTE-2\nkind: note\n")
    res = litrec("validate", cwd=mini)
    assert res.code == 0 and "Traceback" not in res.text
    assert f"records/notes/{name}:1:1: warning: not a record file" in res.out


def test_upper_case_extension_is_an_error(mini, litrec):
    write(mini, "records/notes/NOTE-2.YAML", "id: NOTE-2\nkind: note\n")
    one_error(litrec("validate", cwd=mini), 1, "records/notes/NOTE-2.YAML:1:1:",
              "rename it to 'NOTE-2.yaml'")


def test_readme_and_hidden_files_are_left_alone(mini, litrec):
    write(mini, "records/README.md", "# records\n")
    write(mini, "records/notes/.NOTE-1.yaml.swp", "x")
    res = litrec("validate", cwd=mini)
    assert res.code == 0 and "warning" not in res.text, res.text


def test_unreadable_folder_is_an_error_in_process(mini, monkeypatch, capsys):
    """Simulated (tests may run as root, for whom chmod changes nothing)."""
    from litrec.commands import main

    write(mini, "records/theories/THEORY-1.yaml", "id: THEORY-1\nkind: theory\n")
    real = os.scandir

    def scandir(path="."):
        if str(path).endswith("theories"):
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)
    monkeypatch.chdir(mini)
    code = main(["validate"])
    out = capsys.readouterr().out
    assert code == 1
    assert "records/theories:1:1: cannot read this folder (Permission denied)" in out


@pytest.mark.skipif(ROOT, reason="chmod does not stop root; see the in-process test")
def test_unreadable_folder_is_an_error(mini, litrec):
    folder = mini / "records" / "theories"
    write(mini, "records/theories/THEORY-1.yaml", "id: THEORY-1\nkind: theory\n")
    folder.chmod(0)
    try:
        one_error(litrec("validate", cwd=mini), 1, "records/theories:1:1:", "cannot read this folder")
    finally:
        folder.chmod(0o755)


# ------------------------------------------------------------------ results


def current_result(root: Path, metrics: dict, **extra) -> Path:
    """Write a current `toy` result for the quick profile, as the runner would (no run)."""
    proj = load_project(root / "records")
    fp = fingerprint(proj.registry, "toy", "quick")
    payload = {"format": RESULT_FORMAT, "analysis": "toy", "title": "Toy sum", "profile": "quick",
               "module": "analysis.toy", "code_hash": fp.code_hash, "code_files": fp.files,
               "versions": fp.versions, "inputs": fp.record(), "litrec": "0", "platform": {}, "device": {},
               "config": {"n": 5}, "seed": None, "started": "2026-01-01T00:00:00+00:00",
               "wall_time_s": 0.1, "metrics": metrics, "figures": {}, "notes": []}
    payload.update(extra)
    sealed = seal(payload, {}) if isinstance(payload.get("figures"), dict) else payload
    return write_result(root / "results", "toy", "quick", sealed, {})


def result_line(root: Path, key: str) -> int:
    """The line of `"key":` in the stored result."""
    text = (root / RESULT).read_text()
    return text[: text.index(f'"{key}":')].count("\n") + 1


@pytest.mark.slow
@pytest.mark.parametrize("value, what", [("ten", "the text 'ten'"), (True, "the boolean true"),
                                         (False, "the boolean false"), ({"a": 1}, "a mapping")])
def test_metric_of_another_type_is_not_judged(mini, litrec, value, what):
    current_result(mini, {"total": value, "n": 5})
    for command in ("status", "run"):
        res = litrec(command, "--profile", "quick", cwd=mini)
        where = f"litrec {command}: error: {RESULT}:{result_line(mini, 'total')}: metrics.total:"
        one_error(res, 1, where, what, "not a number; litrec does not compare it",
                  "not judged")


@pytest.mark.slow
@pytest.mark.parametrize("key, value, needle", [
    ("versions", "x", "expected a mapping of names to text, found text"),
    ("versions", {"numpy": 1}, "expected text, found a number"),
    ("config", 5, "expected a mapping, found a number"),
    ("code_files", [], "expected a mapping of names to text, found a list"),
    ("figures", ["a.svg"], "expected a mapping of figure names to files, found a list"),
    ("notes", "x", "expected a list of text"),
    ("wall_time_s", "1s", "expected a number of seconds, found text"),
    ("format", "1", "expected a whole number, found text"),
    ("code_hash", 5, "expected text, found a number"),
    ("metrics", [], "not a litrec result"),
])
def test_bad_provenance_types(mini, litrec, key, value, needle):
    current_result(mini, {"total": 10.0})
    data = json.loads((mini / RESULT).read_text())
    data[key] = value
    (mini / RESULT).write_text(json.dumps(data, indent=2))
    field = key + (".numpy" if isinstance(value, dict) and key == "versions" else "")
    line = result_line(mini, "numpy" if field.endswith("numpy") else key)
    for args in (["status"], ["run"], ["export", "json"]):
        res = litrec(*args, "--profile", "quick", cwd=mini)
        one_error(res, 1, f"litrec {args[0]}: error: damaged result: {RESULT}:{line}: {field}:",
                  needle, "--force")


@pytest.mark.slow
@pytest.mark.parametrize("path", ["/etc/passwd", "../../outside.svg", "quick/../../../x.svg",
                                  "C:/x.svg", "quick\\..\\x.svg", ""])
def test_figure_paths_outside_the_result(mini, litrec, path):
    (mini.parent / "outside.svg").write_text("SECRET-OUTSIDE-BYTES")
    current_result(mini, {"total": 10.0}, figures={"a": path})
    res = litrec("status", "--profile", "quick", cwd=mini)
    line = result_line(mini, "a")
    one_error(res, 1, f"litrec status: error: damaged result: {RESULT}:{line}: figures.a:")
    assert "SECRET-OUTSIDE-BYTES" not in res.text and "root:x:0:0" not in res.text


def test_corrupt_result_is_damaged_not_missing(mini, litrec):
    current_result(mini, {"total": 10.0})
    (mini / RESULT).write_text('{\n  "metrics": {"total": 10.0,\n}\n')
    for args in (["status"], ["export", "json"]):
        res = litrec(*args, "--profile", "quick", cwd=mini)
        one_error(res, 1, f"litrec {args[0]}: error: damaged result: {RESULT}:3:1: not valid JSON")
        assert "no quick result" not in res.text


def test_corrupt_result_in_status_json(mini, litrec):
    current_result(mini, {"total": 10.0})
    (mini / RESULT).write_bytes(b"\xff\xfe")
    res = litrec("status", "--profile", "quick", "--format", "json", cwd=mini)
    assert res.code == 1 and "Traceback" not in res.text
    row = json.loads(res.out)[0]
    assert row["verdict"] == "modified" and row["reason"].startswith(f"damaged result: {RESULT}:1:")


def test_figure_missing_on_disk_is_reported(mini, litrec):
    current_result(mini, {"total": 10.0}, figures={"curve": "quick/curve.svg"})
    res = litrec("status", "--profile", "quick", cwd=mini)
    assert res.code == 0 and "Traceback" not in res.text
    line = result_line(mini, "curve")
    assert (f"litrec status: warning: {RESULT}:{line}: figures.curve: the figure file "
            "results/toy/quick/curve.svg is missing") in res.err


def site_project(mini: Path) -> None:
    """The mini project with the repository's mkdocs.yml and hand-written pages."""
    shutil.copy(REPO / "mkdocs.yml", mini / "mkdocs.yml")
    shutil.copytree(REPO / "site", mini / "site")


@pytest.mark.slow
def test_site_says_a_result_is_damaged_and_a_figure_missing(mini, litrec):
    site_project(mini)
    current_result(mini, {"total": 10.0}, figures={"curve": "quick/curve.svg"})
    res = litrec("site", "build", "--profile", "quick", cwd=mini, timeout=300)
    assert res.code == 0, res.text
    assert f"litrec site: warning: {RESULT}:" in res.err and "figures.curve" in res.err
    page = (mini / "build/docs/analyses/toy.md").read_text()
    assert "results/toy/quick/curve.svg is missing" in page
    (mini / RESULT).write_text("{oops")
    res = litrec("site", "build", "--profile", "quick", cwd=mini, timeout=300)
    one_error(res, 1, f"litrec site: error: damaged result: {RESULT}:1:2: not valid JSON")
    assert "damaged result" in (mini / "build/docs/analyses/toy.md").read_text()


# ------------------------------------------------------------------ profiles


@pytest.mark.parametrize("args", [["run"], ["status"], *(pytest.param(a, marks=pytest.mark.slow) for a in (
    ["export", "json"], ["site", "build"], ["site", "serve"]))], ids=" ".join)
def test_unknown_profile_is_a_usage_error(mini, litrec, args):
    site_project(mini)
    before = snapshot(mini)
    res = litrec(*args, "--profile", "nope", cwd=mini, timeout=120)
    one_error(res, 2, "litrec: error: --profile: unknown profile 'nope'",
              "known profiles: paper, quick")
    assert not (mini / "results").exists() and not (mini / "public").exists()
    assert {k: v for k, v in snapshot(mini).items() if not k.startswith("build/")} == before


def test_profile_of_a_stored_result_is_known(mini, litrec):
    current_result(mini, {"total": 10.0})
    shutil.copy(mini / RESULT, mini / "results/toy/extra.json")
    res = litrec("status", "--profile", "extra", cwd=mini)
    assert res.code == 0 and "Traceback" not in res.text, res.text


def test_profiles_not_readable_from_the_source_let_any_through(mini, litrec):
    src = (mini / "analysis/toy.py").read_text()
    (mini / "analysis/toy.py").write_text(src.replace(
        'PROFILES = {"quick": Config(n=5), "paper": Config(n=6)}',
        'PROFILES = dict((name, Config(n=n)) for name, n in [("quick", 5), ("paper", 6)])'))
    res = litrec("status", "--profile", "other", cwd=mini)
    assert res.code == 0 and "Traceback" not in res.text, res.text


# ------------------------------------------------------------------ --out


OUT_COMMANDS = [["export", "bibtex"], ["export", "json"], ["graph"]]


def bad_out(mini: Path, case: str) -> tuple[str, str]:
    """An --out of the kind named, and the message it must get."""
    (mini / "a-folder").mkdir(exist_ok=True)
    (mini / "a-file").write_text("keep me")
    return {
        "folder": ("a-folder", "--out 'a-folder' is a folder"),
        "no-parent": ("missing/out.txt", "the folder 'missing' does not exist"),
        "file-parent": ("a-file/out.txt", "'a-file' is a file, not a folder"),
        "records": ("records/out.txt", "is inside the records folder"),
        "records-itself": ("records", "is inside the records folder"),
    }[case]


@pytest.mark.slow
@pytest.mark.parametrize("case", ["folder", "no-parent", "file-parent", "records", "records-itself"])
@pytest.mark.parametrize("args", OUT_COMMANDS, ids=" ".join)
def test_bad_out_file(mini, litrec, args, case):
    out, needle = bad_out(mini, case)
    before = snapshot(mini)
    res = litrec(*args, "--out", out, cwd=mini)
    one_error(res, 2, "litrec: error: --out", needle)
    assert snapshot(mini) == before


@pytest.mark.slow
@pytest.mark.parametrize("case, out, needle", [
    ("file", "a-file", "--out 'a-file' is a file; give a folder"),
    ("file-parent", "a-file/sub", "'a-file' is a file, not a folder"),
    ("records", "records/schema", "is inside the records folder"),
])
@pytest.mark.parametrize("args", [["schema"], ["site", "build"]], ids=" ".join)
def test_bad_out_folder(mini, litrec, args, case, out, needle):
    site_project(mini)
    (mini / "a-file").write_text("keep me")
    before = snapshot(mini)
    res = litrec(*args, "--out", out, cwd=mini)
    one_error(res, 2, "litrec: error: --out", needle)
    assert snapshot(mini) == before


@pytest.mark.parametrize("args", OUT_COMMANDS + [["schema"]], ids=" ".join)
def test_unwritable_out_in_process(mini, monkeypatch, capsys, args):
    """No permission to write (simulated: tests may run as root)."""
    from litrec.commands import main

    def refuse(self, *a, **k):
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "write_text", refuse)
    monkeypatch.setattr(Path, "mkdir", refuse)
    monkeypatch.setattr("litrec.util.atomic.write_new", lambda path, data: refuse(path))  # --out's file
    monkeypatch.chdir(mini)
    target = "out-folder" if args == ["schema"] else "out.txt"
    code = main([*args, "--out", target])
    err = capsys.readouterr().err
    assert code == 2, err
    assert re.search(rf"litrec: error: --out '{target}': cannot write (it|the schemas there) "
                     r"\(Permission denied\)", err), err


@pytest.mark.skipif(ROOT, reason="chmod does not stop root; see the in-process test")
@pytest.mark.parametrize("args", OUT_COMMANDS, ids=" ".join)
def test_unwritable_out(mini, litrec, args):
    folder = mini / "locked"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        res = litrec(*args, "--out", "locked/out.txt", cwd=mini)
        one_error(res, 2, "litrec: error: --out 'locked/out.txt': cannot write it")
    finally:
        folder.chmod(0o755)


OWN_OUT = [["export", "bibtex"], ["export", "tex", "--profile", "quick"]] + [  # the rest with slow
    pytest.param(a, marks=pytest.mark.slow, id=" ".join(a)) for a in (
        ["export", "json", "--profile", "quick"], ["graph"], ["graph", "--format", "mermaid"],
        ["graph", "--format", "json"])]


@pytest.mark.parametrize("args", OWN_OUT, ids=lambda a: " ".join(a) if isinstance(a, list) else None)
def test_out_replaces_only_what_litrec_wrote(mini, litrec, monkeypatch, capsys, args):
    """`--out` onto a file litrec did not write (a manuscript, a hand-kept .bib, JSON of another
    tool) is refused, the file kept byte for byte; onto an empty file or the command's own last
    output, it writes."""
    from litrec.commands import main

    # the run in a process of its own: run here, it would import the project's `analysis` package
    # into this one, where the tests of this repository's analyses then find the wrong package
    assert litrec("run", "--profile", "quick", cwd=mini).code == 0
    monkeypatch.chdir(mini)
    for theirs in (b"\\documentclass{article}\n", b"@article{mine, title={Kept by hand}}\n",
                   b'{"nodes": [], "edges": [], "mine": true}\n', b"// my own graph\n"):
        (mini / "out.txt").write_bytes(theirs)
        capsys.readouterr()
        assert main([*args, "--out", "out.txt"]) == 2
        err = capsys.readouterr().err
        assert "--out 'out.txt' is a file litrec did not write" in err and "move the file away" in err
        assert (mini / "out.txt").read_bytes() == theirs
    (mini / "out.txt").write_bytes(b"")
    assert main([*args, "--out", "out.txt"]) == 0
    first = (mini / "out.txt").read_bytes()
    assert first
    assert main([*args, "--out", "out.txt"]) == 0  # its own output: replaced
    assert (mini / "out.txt").read_bytes() == first


@pytest.mark.parametrize("theirs", ["a file", "a link", "a fifo"])
def test_schema_out_replaces_only_its_own_schemas(mini, monkeypatch, capsys, theirs):
    """`litrec schema --out DIR` onto a folder where a schema's name holds something litrec did
    not write refuses, writing nothing; its own schemas (and an empty file) it replaces."""
    from litrec.commands import main

    monkeypatch.chdir(mini)
    out = mini / "editor-schemas"
    out.mkdir()
    (out / "mine.txt").write_text("kept")
    note = out / "note.schema.json"
    if theirs == "a file":
        note.write_text('{"title": "my own note schema"}')
    elif theirs == "a link":
        note.symlink_to(mini / "elsewhere.json")
    else:
        if not hasattr(os, "mkfifo"):
            pytest.skip("no FIFOs here")
        os.mkfifo(note)
    before = snapshot(out)
    assert main(["schema", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"'{note}' is a file litrec did not write" in err and "nothing was written" in err
    assert snapshot(out) == before and os.path.lexists(note)  # a link or FIFO left in place too
    note.unlink()
    note.write_text("")
    assert main(["schema", "--out", str(out)]) == 0
    first = snapshot(out)
    assert main(["schema", "--out", str(out)]) == 0  # its own: replaced (here, the same bytes)
    assert snapshot(out) == first and (out / "mine.txt").read_text() == "kept"

"""The ledger of judgements: one chained entry per claim and run, shown on the claim's page, checked by validate."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from litrec.results.ledger import history_problems, line_hash
from tests.support.seeds_toy import claim, litrec, site_pages, status, write_claims, write_project

TIGHT = claim("F1", '{metric: loss_trained, op: "<", value: 0.099, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}')  # mean 0.1022: fails
LOOSE = claim("F1", '{metric: loss_trained, op: "<", value: 0.2, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}')
OTHER = claim("F2", '{metric: loss_trained, op: ">", value: 0.0, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}')


@pytest.fixture(scope="module")
def ran(tmp_path_factory):
    """Judged under `< 0.099` (not reproduced), then the expectation loosened and rerun."""
    root = write_project(tmp_path_factory.mktemp("ledger"), TIGHT, OTHER)
    assert litrec("run", "--profile", "quick", "--jobs", "1", cwd=root).returncode == 1
    write_claims(root, LOOSE, OTHER)
    assert litrec("run", "--profile", "quick", "--jobs", "1", "--force", cwd=root).returncode == 0
    return root


def lines(root):
    return (root / "results" / "toy" / "quick.history.jsonl").read_text().splitlines()


def test_every_run_appends_one_chained_entry_per_claim(ran):
    got = [json.loads(line) for line in lines(ran)]
    assert [(e["entry"], e["claim"].split("#")[1], e["verdict"]) for e in got] == [
        (1, "F1", "not reproduced"), (2, "F2", "reproduced"),
        (3, "F1", "reproduced"), (4, "F2", "reproduced")]
    assert got[0]["prev"] is None
    assert [e["prev"] for e in got[1:]] == [line_hash(line) for line in lines(ran)[:-1]]
    assert got[0]["expectations"]["text"] == ["loss_trained < 0.099"]
    assert got[2]["expectations"]["text"] == ["loss_trained < 0.2"]
    assert got[0]["expectations"]["hash"] != got[2]["expectations"]["hash"]
    assert got[0]["numbers"][0]["decision"] == "fails" and got[0]["numbers"][0]["n"] == 3
    result = json.loads((ran / "results" / "toy" / "quick.json").read_text())
    assert got[3]["result"] == result["content_hash"] != got[1]["result"]
    assert got[0]["commit"] is None and got[0]["dirty"] is None  # not a git repository


def test_the_ledger_leaves_the_result_current_and_validate_accepts_it(ran):
    code, rows = status(ran, "--check-current")
    assert code == 0 and rows["F1"]["verdict"] == "reproduced"
    assert litrec("validate", cwd=ran).returncode == 0


def test_the_claim_page_shows_its_history(ran):
    page = next(v for k, v in site_pages(ran).items() if "ARXIV-0000.00003" in k)
    assert "<strong>History</strong> (2 judgements at <code>quick</code>" in page
    assert "First judged under: <code>loss_trained &lt; 0.099</code>." in page
    first = page.index("lr-v-not-reproduced\">not reproduced</span></li>")
    then = page.index("lr-v-reproduced\">reproduced</span> · expectations: added "
                      "<code>loss_trained &lt; 0.2</code>; removed <code>loss_trained &lt; 0.099</code>")
    assert first < then


@pytest.mark.parametrize("edit", ["rewrite", "remove", pytest.param("insert", marks=pytest.mark.slow),
                                  pytest.param("reorder", marks=pytest.mark.slow)])
def test_a_rewritten_history_is_a_located_error(ran, tmp_path, edit):
    root = tmp_path / "copy"
    shutil.copytree(ran, root)
    path = root / "results" / "toy" / "quick.history.jsonl"
    got = lines(root)
    if edit == "rewrite":  # the first verdict made to look like a pass
        got[0] = got[0].replace('"verdict":"not reproduced"', '"verdict":"reproduced"')
        where = 2
    elif edit == "remove":
        del got[0]
        where = 1
    elif edit == "insert":
        got.insert(2, got[1])
        where = 3
    else:
        got[1], got[2] = got[2], got[1]
        where = 2
    path.write_text("".join(line + "\n" for line in got))
    proc = litrec("validate", cwd=root)
    assert proc.returncode == 1, proc.stdout
    assert f"results/toy/quick.history.jsonl:{where}:" in proc.stdout
    assert "history is append-only" in proc.stdout
    assert len(history_problems(root / "results")) == 1


@pytest.mark.parametrize("cut", ["last entries", "whole file"])
def test_a_history_cut_from_its_end_is_an_error(ran, tmp_path, cut):
    root = tmp_path / "copy"
    shutil.copytree(ran, root)
    path = root / "results" / "toy" / "quick.history.jsonl"
    if cut == "whole file":
        path.unlink()
    else:
        path.write_text("".join(line + "\n" for line in lines(root)[:2]))
    proc = litrec("validate", cwd=root)
    assert proc.returncode == 1, proc.stdout
    line = 1 if cut == "whole file" else 2
    assert f"results/toy/quick.history.jsonl:{line}:1: " in proc.stdout
    assert ("missing: quick.json" if cut == "whole file" else "no entry judges the stored result") \
        in proc.stdout


def test_a_damaged_line_is_located(ran, tmp_path):
    root = tmp_path / "copy"
    shutil.copytree(ran, root)
    path = root / "results" / "toy" / "quick.history.jsonl"
    path.write_text(path.read_text() + "{not json\n")
    proc = litrec("validate", cwd=root)
    assert proc.returncode == 1 and "quick.history.jsonl:5:1: not a JSON object" in proc.stdout


def test_the_commit_and_a_dirty_tree_are_recorded(tmp_path):
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    root = write_project(tmp_path / "g", OTHER)
    git = ["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run(git + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "records", "analysis"], check=True)
    subprocess.run(git + ["commit", "-qm", "records"], check=True)
    head = subprocess.run(git + ["rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    assert litrec("run", "--profile", "quick", "--jobs", "1", cwd=root).returncode == 0
    write_claims(root, OTHER, LOOSE.replace("F1", "F3"))  # uncommitted
    assert litrec("run", "--profile", "quick", "--jobs", "1", "--force", cwd=root).returncode == 0
    got = [json.loads(line) for line in lines(root)]
    assert [(e["commit"], e["dirty"]) for e in got] == [(head, False), (head, True), (head, True)]
    result = json.loads((root / "results" / "toy" / "quick.json").read_text())
    assert result["git"] == {"commit": head, "dirty": False}  # of analysis/ alone
    assert result["history"] == "quick.history.jsonl"
    _, rows = status(root)
    assert rows["F3"]["provenance"]["commit"] == head


def _rechain(got: list[str]) -> list[str]:
    """Every line's `prev` and `entry` recomputed after an edit, as a forger with litrec's own
    `line_hash` would."""
    out, prev = [], None
    for i, line in enumerate(got, start=1):
        e = json.loads(line)
        e.update(entry=i, prev=None if prev is None else line_hash(prev))
        prev = json.dumps(e, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        out.append(prev)
    return out


def test_a_result_holds_the_ledgers_head_as_its_run_found_it(ran):
    result = json.loads((ran / "results" / "toy" / "quick.json").read_text())
    assert result["ledger"] == {"entries": 2, "head": line_hash(lines(ran)[1])}


@pytest.mark.parametrize("edit", ["rewrite", "remove"])
def test_a_rewritten_and_rechained_history_is_located_by_the_results_anchor(ran, tmp_path, edit):
    root = tmp_path / "copy"
    shutil.copytree(ran, root)
    path = root / "results" / "toy" / "quick.history.jsonl"
    got = lines(root)
    if edit == "rewrite":  # the first run's failure made a pass, every line re-chained
        got[0] = got[0].replace('"verdict":"not reproduced"', '"verdict":"reproduced"')
    else:  # the first run's failure removed, every line re-chained
        del got[0]
    path.write_text("".join(line + "\n" for line in _rechain(got)))
    proc = litrec("validate", cwd=root)
    assert proc.returncode == 1, proc.stdout
    # line 2 is where the result's anchor no longer meets the ledger
    assert "results/toy/quick.history.jsonl:2:" in proc.stdout and "was rewritten" in proc.stdout


def test_a_claims_entry_cut_from_the_results_judgement_is_located(ran, tmp_path):
    root = tmp_path / "copy"
    shutil.copytree(ran, root)
    path = root / "results" / "toy" / "quick.history.jsonl"
    got = [line for line in lines(root) if '"entry":4' not in line]  # F2's judgement of the result
    path.write_text("".join(line + "\n" for line in _rechain(got)))
    proc = litrec("validate", cwd=root)
    assert proc.returncode == 1, proc.stdout
    assert "no entry judges ARXIV-0000.00003#F2 on the stored result quick.json" in " ".join(proc.stdout.split())


# ------------------------------------------------------------------ a write that fails part-way


def _entries(n: int) -> list[dict]:
    return [{"claim": f"ARXIV-0000.00003#F{i}", "verdict": "reproduced", "result": "r" * 8}
            for i in range(1, n + 1)]


def test_an_append_onto_a_torn_tail_drops_it_with_a_warning_and_keeps_the_chain(tmp_path):
    from litrec.results.ledger import append, history_path

    results = tmp_path / "results"
    append(results, "toy", "quick", _entries(2))
    path = history_path(results, "toy", "quick")
    whole = path.read_bytes()
    path.write_bytes(whole + b'{"claim":"ARXIV-0000.00003#F3","entry":3,"pr')  # the disk filled up
    assert "the last line is cut short" in history_problems(results)[0].message  # validate says so
    heard: list[str] = []
    append(results, "toy", "quick", _entries(1), warn=heard.append)
    assert path.read_bytes().startswith(whole)  # the whole lines, byte for byte
    got = [json.loads(line) for line in path.read_text().splitlines()]
    assert [e["entry"] for e in got] == [1, 2, 3]
    assert got[2]["prev"] == line_hash(whole.decode().splitlines()[1])
    assert history_problems(results) == []
    assert len(heard) == 1 and "quick.history.jsonl:3: dropped a torn last line (44 bytes" in heard[0]
    assert '{"claim":"ARXIV-0000.00003#F3","entry":3,"pr' in heard[0]


def test_an_append_removes_the_temporary_a_killed_writer_left_and_nothing_else(tmp_path):
    from litrec.results.ledger import append, history_path

    results = tmp_path / "results"
    append(results, "toy", "quick", _entries(1))
    path = history_path(results, "toy", "quick")
    left = path.with_name(f".{path.name}-0123abcd.tmp")  # SIGKILL between the write and the rename
    left.write_bytes(path.read_bytes() + b"half")
    mine = path.with_name(f".{path.name}-notes.tmp")  # not a name litrec writes
    mine.write_text("a note")
    append(results, "toy", "quick", _entries(1))
    assert not left.exists() and mine.read_text() == "a note"
    assert [json.loads(line)["entry"] for line in path.read_text().splitlines()] == [1, 2]


def test_a_write_that_fails_part_way_leaves_the_ledger_as_it_was(tmp_path, monkeypatch):
    from litrec.results.ledger import append, history_path
    from litrec.util import atomic

    results = tmp_path / "results"
    append(results, "toy", "quick", _entries(2))
    path = history_path(results, "toy", "quick")
    before = path.read_bytes()

    def full_disk(dest, data, mode=None):
        with open(dest, "xb") as fh:
            fh.write(data[:len(data) - 30])
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic, "write_new", full_disk)
    with pytest.raises(OSError):
        append(results, "toy", "quick", _entries(1))
    assert path.read_bytes() == before
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temporary left
    monkeypatch.undo()
    append(results, "toy", "quick", _entries(1))
    assert history_problems(results) == []


def test_a_run_after_a_torn_append_warns_and_leaves_a_ledger_validate_accepts(ran, tmp_path):
    root = tmp_path / "copy"
    shutil.copytree(ran, root)
    path = root / "results" / "toy" / "quick.history.jsonl"
    path.write_bytes(path.read_bytes() + b'{"format":1,"when":"2026-')
    proc = litrec("validate", cwd=root)
    assert proc.returncode == 1 and "quick.history.jsonl:5:1: the last line is cut short" in proc.stdout
    proc = litrec("run", "--profile", "quick", "--jobs", "1", "--force", cwd=root)
    assert proc.returncode == 0, proc.stderr
    said = " ".join(proc.stderr.split())
    assert "warning: toy: " in said and "quick.history.jsonl:5: dropped a torn last line" in said
    assert [json.loads(line)["entry"] for line in lines(root)] == [1, 2, 3, 4, 5, 6]
    proc = litrec("validate", cwd=root)
    assert proc.returncode == 0, proc.stdout

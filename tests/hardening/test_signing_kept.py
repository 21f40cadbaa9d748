"""A result built partly from seeds kept from an earlier, interrupted sitting is evidence with its
origin, not trust: `litrec sign` refuses it without `--force` (naming the kept seeds, their
sittings, what their seal proves and the two ways forward), signs it with `--force` and names
what the signature vouches for; `status --verbose`, `--format json` and the site say it.

The project is real: a sweep over three seeds whose first sitting is interrupted at seed 2 (a
slow point, killed while it runs), so seeds 0 and 1 are kept sealed in
`results/toy/paper.partial/`, and a second sitting computes seed 2 and writes the result. The
project is a git repository, so each sitting records its commit.
"""

from __future__ import annotations

import json
import re
import socket
import subprocess

import pytest

from tests.conftest import REPO
from tests.support.files import snapshot
from tests.support.mini import PAPER
from tests.support.seeds_toy import killed, site_pages
from tests.support.toy import write_project

SWEEP = '''
"""A toy sweep over seeds: seed s scores 10 + s; the seed TOY_STOP_AT names fails (a sitting ends)."""
import os
import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Config:
    seed: int = 0


PROFILES = {"paper": Config()}
SEEDS = {"paper": (0, 1, 2)}


def run(config, progress=None):
    if os.environ.get("TOY_STOP_AT") == str(config.seed):
        raise RuntimeError("the sitting ended here")
    if config.seed == 2:  # slow: the first sitting is killed while it runs, two seeds kept
        time.sleep(1.5)
    return {"metrics": {"total": 10.0 + config.seed}}
'''

PAGE = REPO / "site" / "what-a-seal-proves.md"


def _git(root, *args) -> str:
    return subprocess.run(["git", "-C", str(root), "-c", "user.name=Ada", "-c", "user.email=ada@example.org",
                           *args], check=True, capture_output=True, text=True).stdout.strip()


@pytest.fixture
def kept(tmp_path, litrec):
    """(project root, commit of the first sitting): a result of three seeds, two of them kept."""
    root = tmp_path / "project"
    write_project(root, SWEEP, {"literature/ARXIV-0000.00001.yaml": PAPER}, title="Toy sweep")
    _git(root, "init", "-q")
    _git(root, "add", ".")
    _git(root, "commit", "-q", "-m", "toy")
    partial = root / "results/toy/paper.partial"
    first = killed(root, partial / "seed-1.json", "run", "--profile", "paper", "--jobs", "1")
    assert first.returncode != 0
    assert sorted(p.name for p in partial.glob("seed-*.json")) == ["seed-0.json", "seed-1.json"]
    second = litrec("run", "--profile", "paper", "--jobs", "1", cwd=root)
    assert second.code == 0, second.text
    assert not partial.exists()
    return root, _git(root, "rev-parse", "HEAD")


def _result(root):
    return json.loads((root / "results/toy/paper.json").read_text(encoding="utf-8"))


def test_sign_refuses_a_result_with_kept_seeds_and_force_signs_it(kept, litrec, ssh_key):
    root, commit = kept
    points = _result(root)["points"]
    assert [bool(p.get("kept")) for p in points] == [True, True, False]
    host = socket.gethostname()
    before = snapshot(root / "results")
    refused = litrec("sign", "--profile", "paper", "--key", ssh_key, cwd=root)
    assert refused.code == 1 and "Traceback" not in refused.text and refused.out == ""
    lines = refused.err.splitlines()
    assert lines[0] == (f"litrec sign: results/toy/paper.json: not signed: it holds 2 of 3 seeds kept from "
                        f"an earlier sitting (commit {commit[:8]}, host {host}), not computed by the run "
                        "that wrote it:")
    assert lines[1] == f"  seed 0: commit {commit[:8]} on {host}, {points[0]['kept']['when']}"
    assert lines[2] == f"  seed 1: commit {commit[:8]} on {host}, {points[1]['kept']['when']}"
    assert lines[3].startswith("  A kept seed's seal proves its file is whole (not edited since it was "
                               "kept), not who computed it")
    assert lines[4:] == ["  Recompute every seed in one sitting: litrec run --force toy --profile paper",
                         "  or vouch for the kept seeds with your key: litrec sign --force toy --profile paper"]
    assert snapshot(root / "results") == before  # no signature written, nothing else touched

    signed = litrec("sign", "--force", "--profile", "paper", "--key", ssh_key, cwd=root)
    assert signed.code == 0, signed.text
    assert signed.out.splitlines() == [
        "results/toy/paper.json.sig",
        f"  it vouches for 2 of 3 seeds kept from an earlier sitting (commit {commit[:8]}, host {host}):",
        f"    seed 0: commit {commit[:8]} on {host}, {points[0]['kept']['when']}",
        f"    seed 1: commit {commit[:8]} on {host}, {points[1]['kept']['when']}"]
    state = litrec("status", "--profile", "paper", "--format", "json", cwd=root)
    assert json.loads(state.out)[0]["provenance"]["signature"] == "signed"

    # the other way forward: every seed recomputed in one sitting, signed without --force
    assert litrec("run", "--force", "toy", "--profile", "paper", cwd=root).code == 0
    assert not any(p.get("kept") for p in _result(root)["points"])
    again = litrec("sign", "--profile", "paper", "--key", ssh_key, cwd=root)
    assert again.code == 0 and again.out.strip() == "results/toy/paper.json.sig", again.text


@pytest.mark.slow  # minutes of the everyday suite on two cores; run by make test-all
def test_the_readme_exit_row_for_sign_is_what_sign_does(kept, litrec, ssh_key, tmp_path):
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    ok, fails = re.search(r"^\| `sign` \| ([^|]+) \| ([^|]+) \|$", readme, re.M).groups()
    assert "with `--force`, one holding seeds kept from an earlier sitting" in ok
    assert all(case in fails for case in ("its seal broken", "(without `--force`) it holds seeds kept",
                                          "no key is a usage error (2)"))
    root, _ = kept
    assert litrec("sign", "--profile", "paper", "--key", ssh_key, cwd=root).code == 1
    assert litrec("sign", "--force", "--profile", "paper", "--key", ssh_key, cwd=root).code == 0
    no_key = litrec("sign", "--profile", "paper", cwd=root,
                    env={"LITREC_SIGNING_KEY": "", "HOME": str(tmp_path), "GIT_CONFIG_GLOBAL": "/dev/null"})
    assert no_key.code == 2 and "no signing key" in no_key.err
    path = root / "results/toy/paper.json"
    path.write_text(path.read_text(encoding="utf-8").replace('"total": 12.0', '"total": 13.0', 1),
                    encoding="utf-8")
    broken = litrec("sign", "--force", "--profile", "paper", "--key", ssh_key, cwd=root)
    assert broken.code == 1 and "not signed: its content does not match its content hash" in broken.err


@pytest.mark.slow
def test_status_verbose_json_and_the_site_say_which_seeds_were_kept(kept, litrec):
    root, commit = kept
    host = socket.gethostname()
    said = f"2 of 3 seeds kept from an earlier sitting (commit {commit[:8]}, host {host})"
    verbose = litrec("status", "--profile", "paper", "--verbose", cwd=root)
    assert f"    {said}" in verbose.out.splitlines()
    assert said not in litrec("status", "--profile", "paper", cwd=root).out  # --verbose only
    row = json.loads(litrec("status", "--profile", "paper", "--format", "json", cwd=root).out)[0]
    when = [p["kept"]["when"] for p in _result(root)["points"][:2]]
    assert row["provenance"]["kept"] == {"summary": said, "points": [
        {"overrides": {"seed": i}, "when": when[i], "host": host, "commit": commit} for i in (0, 1)]}
    pages = site_pages(root, "paper")
    for page in ("records/ARXIV-0000.00001.md", "analyses/toy.md"):  # the claim's and the analysis's
        assert f"<tr><td>kept</td> <td>{said}</td></tr>" in pages[page], page
    assert litrec("run", "--force", "toy", "--profile", "paper", cwd=root).code == 0
    assert "seeds kept" not in litrec("status", "--profile", "paper", "--verbose", cwd=root).out


@pytest.mark.slow  # minutes of the everyday suite on two cores; run by make test-all
def test_the_page_quotes_what_sign_says_and_names_what_the_code_does(kept, litrec, ssh_key):
    """site/what-a-seal-proves.md: its refusal example is what `litrec sign` prints (this
    project's commit, host and times in the page's words), and the names it gives exist."""
    from litrec.results import ledger, resume, seal, signing

    root, commit = kept
    page = PAGE.read_text(encoding="utf-8")
    quoted = re.search(r"```text\n(litrec sign: .*?)```", page, re.S).group(1)
    printed = litrec("sign", "--profile", "paper", "--key", ssh_key, cwd=root).err
    for p in _result(root)["points"][:2]:
        printed = printed.replace(p["kept"]["when"], "2026-12-05T14:41:02+00:00")
    printed = printed.replace(commit[:8], "1a2b3c4d").replace(socket.gethostname(), "h7")
    assert quoted == printed
    assert re.search(r"`\d+ of \d+ seeds kept from an\s+earlier sitting \(commit 1a2b3c4d, host h7\)`", page)
    assert signing.NAMESPACE == "litrec-result" and "namespace `litrec-result`" in page
    for module, names in ((seal, ("seal", "broken_seal")), (signing, ("signed_bytes",)),
                          (ledger, ("anchor",)), (resume, ("sitting",))):
        for name in names:
            assert callable(getattr(module, name)) and f"`{name}`" in page, name
    for field in ("content_hash", "figure_hashes", "ledger", "prev", "result", "points[i].kept"):
        assert f"`{field}`" in page, field

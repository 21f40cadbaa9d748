"""Signed results: signed, unsigned or bad signature, checked with ssh-keygen against a throwaway key."""

from __future__ import annotations

import hashlib
import json
import shutil

import pytest

from litrec.results.seal import canonical
from tests.support.seeds_toy import claim, litrec, litrec_process, site_pages, status, write_project
from tests.support.signing import keypair

pytestmark = pytest.mark.skipif(shutil.which("ssh-keygen") is None,
                                reason="ssh-keygen is not installed (openssh-client)")

F1 = claim("F1", '{metric: loss_trained, op: "<", value: 0.099, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}')  # mean 0.1022: not reproduced


@pytest.fixture(scope="module")
def signed(tmp_path_factory):
    base = tmp_path_factory.mktemp("sig")
    root = write_project(base / "project", F1)
    assert litrec("run", "--profile", "quick", "--jobs", "1", cwd=root).returncode == 1
    key = keypair(base / "keys", "ada@example.org")
    allowed = base / "allowed_signers"
    allowed.write_text(f"ada@example.org {(key.parent / 'id.pub').read_text()}")
    env = {"LITREC_ALLOWED_SIGNERS": str(allowed)}
    code, rows = status(root, env=env)
    assert rows["F1"]["provenance"]["signature"] == "unsigned"
    proc = litrec("sign", "--profile", "quick", "--key", key, cwd=root, env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().endswith("results/toy/quick.json.sig")
    return root, key, env, base


def copy(signed, tmp_path):
    root, key, env, base = signed
    dest = tmp_path / "copy"
    shutil.copytree(root, dest)
    return dest, key, env, base


def test_a_signed_result_verifies_and_names_its_signer(signed):
    root, _, env, _ = signed
    code, rows = status(root, "--check-current", env=env)
    prov = rows["F1"]["provenance"]
    assert code == 0 and prov["signature"] == "signed" and prov["signer"] == "ada@example.org"
    text = litrec("status", "--profile", "quick", cwd=root, env=env).stdout
    assert "results: 1 signed" in text
    page = next(v for k, v in site_pages(root).items() if "ARXIV-0000.00003" in k)
    assert "signed by" in page


def test_a_forged_seal_on_a_signed_result_is_a_bad_signature(signed, tmp_path):
    root, _, env, _ = copy(signed, tmp_path)
    path = root / "results" / "toy" / "quick.json"
    data = json.loads(path.read_text())
    for p in data["points"]:  # every seed made to pass, and the seal recomputed to match
        p["metrics"]["loss_trained"] = 0.05
    data["metrics"]["loss_trained"] = 0.05
    data["content_hash"] = hashlib.sha256(canonical(data)).hexdigest()
    path.write_text(json.dumps(data, indent=2))
    val = litrec("validate", cwd=root).stdout
    assert "modified since litrec wrote it" not in val  # the seal alone cannot tell
    assert "no entry judges the stored result" in val  # the ledger can, until it is forged too
    code, rows = status(root, "--check-current", env=env)
    assert rows["F1"]["verdict"] == "reproduced"  # what the forger wanted ...
    assert rows["F1"]["provenance"]["signature"] == "bad"  # ... and what gives it away
    assert code == 1
    proc = litrec("status", "--profile", "quick", "--check-current", cwd=root, env=env)
    assert "results/toy/quick.json.sig: bad signature: the signature does not match" in proc.stderr
    assert "results: 1 bad signature" in proc.stdout
    assert litrec("status", "--profile", "quick", cwd=root, env=env).returncode == 1


def test_a_key_that_is_not_an_allowed_signer_is_bad(signed, tmp_path):
    root, _, env, base = copy(signed, tmp_path)
    other = keypair(tmp_path / "other", "eve@example.org")
    assert litrec("sign", "--profile", "quick", "--key", other, cwd=root).returncode == 0
    _, rows = status(root, env=env)
    assert rows["F1"]["provenance"]["signature"] == "bad"
    assert "not an allowed signer" in rows["F1"]["provenance"]["signature_problem"]
    _, rows = status(root, env={"LITREC_ALLOWED_SIGNERS": ""})  # no list: the key is named only
    assert rows["F1"]["provenance"]["signature"] == "signed"
    assert rows["F1"]["provenance"]["signer"].startswith("SHA256:")


def test_a_rerun_drops_the_old_signature(signed, tmp_path):
    root, _, env, _ = copy(signed, tmp_path)
    assert (root / "results" / "toy" / "quick.json.sig").is_file()
    litrec("run", "--profile", "quick", "--jobs", "1", "--force", cwd=root)
    assert not (root / "results" / "toy" / "quick.json.sig").exists()
    _, rows = status(root, env=env)
    assert rows["F1"]["provenance"]["signature"] == "unsigned"


def test_signing_needs_a_key_and_refuses_a_modified_result(signed, tmp_path):
    root, key, env, _ = copy(signed, tmp_path)
    proc = litrec("sign", "--profile", "quick", cwd=root, env={"LITREC_SIGNING_KEY": "",
                                                               "HOME": str(tmp_path)})
    assert proc.returncode == 2 and "no signing key" in proc.stderr
    path = root / "results" / "toy" / "quick.json"
    path.write_text(path.read_text().replace('"loss_trained": 0.1', '"loss_trained": 0.2', 1))
    proc = litrec("sign", "--profile", "quick", "--key", key, cwd=root)
    assert proc.returncode == 1 and "not signed" in proc.stderr


def test_a_deleted_signature_fails_where_signatures_are_required(signed, tmp_path):
    """Unsigned passes by default; with --require-signed a result without its .sig is an error,
    located, with the command that signs it."""
    root, _, env, _ = copy(signed, tmp_path)
    assert status(root, "--require-signed", env=env)[0] == 0  # signed: passes
    (root / "results" / "toy" / "quick.json.sig").unlink()
    code, rows = status(root, env=env)
    assert code == 0 and rows["F1"]["provenance"]["signature"] == "unsigned"
    proc = litrec("status", "--profile", "quick", "--require-signed", cwd=root, env=env)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert "results/toy/quick.json.sig: missing: the result is unsigned" in proc.stderr
    assert "litrec sign toy --profile quick" in proc.stderr


def test_a_signature_covers_the_results_judgement_in_the_ledger(signed, tmp_path):
    root, _, env, _ = copy(signed, tmp_path)
    path = root / "results" / "toy" / "quick.history.jsonl"
    got = path.read_text().splitlines()
    assert '"verdict":"not reproduced"' in got[-1]
    # the judgement rewritten to a pass and its chain recomputed: validate cannot tell ...
    got[-1] = got[-1].replace('"verdict":"not reproduced"', '"verdict":"reproduced"')
    path.write_text("".join(line + "\n" for line in got))
    assert "history-rewritten" not in litrec("validate", "--format", "json", cwd=root).stdout
    # ... the signature can
    _, rows = status(root, env=env)
    assert rows["F1"]["provenance"]["signature"] == "bad"


def test_entries_appended_after_signing_leave_the_signature_whole(signed, tmp_path):
    root, _, env, _ = copy(signed, tmp_path)
    path = root / "results" / "toy" / "quick.history.jsonl"
    from litrec.results.ledger import line_hash

    last = path.read_text().splitlines()[-1]
    later = json.loads(last)
    later.update(entry=later["entry"] + 1, prev=line_hash(last), result="0" * 64)
    path.write_text(path.read_text() + json.dumps(later, sort_keys=True, separators=(",", ":")) + "\n")
    _, rows = status(root, env=env)
    assert rows["F1"]["provenance"]["signature"] == "signed"


def test_a_noop_run_sees_a_signer_removed_from_the_allowed_signers(signed, tmp_path):
    root, key, _, _ = copy(signed, tmp_path)
    allowed = tmp_path / "allowed_signers"
    allowed.write_text(f"ada@example.org {(key.parent / 'id.pub').read_text()}")
    env = {"LITREC_ALLOWED_SIGNERS": str(allowed)}
    for _ in range(2):  # the second answers from the run memo (a process per run, as a user's)
        proc = litrec_process("run", "--profile", "quick", "--jobs", "1", cwd=root, env=env)
        assert "1 signed" in proc.stdout, proc.stdout
    other = keypair(tmp_path / "other", "eve@example.org")
    allowed.write_text(f"eve@example.org {(other.parent / 'id.pub').read_text()}")  # ada removed
    proc = litrec_process("run", "--profile", "quick", "--jobs", "1", cwd=root, env=env)
    assert "1 bad signature" in proc.stdout and "1 signed" not in proc.stdout, proc.stdout

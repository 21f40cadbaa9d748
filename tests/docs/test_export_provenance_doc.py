"""site/export-format.md's table of a claim's `provenance` keys is what `litrec export json`
writes: every key a result can give, and no other (the ledger and a sweep's points stay in
`results/`)."""

from __future__ import annotations

import re

from litrec.verdicts.claims import provenance
from tests.conftest import REPO

# every top-level key a stored result can hold (litrec.results.store writes them)
RESULT_KEYS = ("format", "analysis", "title", "profile", "code_hash", "code_files", "content_hash",
               "versions", "inputs", "litrec", "platform", "device", "config", "seed", "seeds",
               "sweep", "points", "started", "wall_time_s", "metrics", "noise", "figures", "notes",
               "git", "ledger", "expectations")
SIGNATURE_KEYS = {"signature", "signer", "signature_problem"}  # added from the .sig beside it


def _documented() -> set[str]:
    page = (REPO / "site" / "export-format.md").read_text(encoding="utf-8")
    table = page.split("A claim's `provenance`", 1)[1].split("\n\n", 2)[1]
    keys = set()
    for line in table.splitlines()[2:]:
        first = line.strip("|").split("|")[0]
        keys |= set(re.findall(r"`([a-z_]+)`", first))
    keys |= set(re.findall(r"with `(signer)`.*?or `(signature_problem)`", table)[0])
    return keys


def test_the_documented_provenance_keys_are_the_exported_ones():
    kept = {"overrides": {"seed": 0}, "metrics": {}, "kept": {"when": "t", "host": "h", "commit": None}}
    result = {**{k: 1 for k in RESULT_KEYS}, "points": [kept, {"overrides": {"seed": 1}, "metrics": {}}]}
    written = set(provenance(result)) | SIGNATURE_KEYS  # `kept`: a sweep with a kept point
    assert _documented() == written

"""A record's review fingerprint covers what it rests on, recursively: a chain of thousands of
links is fingerprinted without Python's recursion limit, and every fingerprint equals the one the
plain recursive definition gives (on graphs with and without cycles)."""

from __future__ import annotations

import random

import pytest

from litrec.util.canonical import canonical_digest
from litrec.verdicts.fingerprints import Fingerprints
from litrec.verdicts.reading import Dependency, Reading


def _reading(links: list[tuple[str, str]], records: list[str]) -> Reading:
    deps = [Dependency(a, b, "derived_from", ("derived_from", 0), a) for a, b in links]
    texts = {r: (f"title {r}", f"summary {r}", [("C1", f"claim of {r}")] if r.endswith("0") else [])
             for r in records}
    return Reading(deps, texts.get, lambda: ({}, []))


def _plain(reading: Reading, rid: str, seen: frozenset = frozenset()) -> dict:
    """The definition, recursively: a record's text, its claims, and what it rests on, a record
    already on the path counted without what it rests on."""
    def digest(*parts):
        return canonical_digest(parts, compact=False, default=str)[:16]  # as reviews.yaml holds them
    fp = Fingerprints(reading)
    text = reading.text(rid)
    parts: list = [rid]
    verdicts = {}
    if text is not None:
        parts += [text[0], text[1]]
        for cid, _ in text[2]:
            one = fp.claim(f"{rid}#{cid}")
            verdicts[cid] = one["verdict"]
            parts.append((cid, one))
    for target in [d.target for d in reading.deps if d.record == rid] if rid not in seen else []:
        parts.append((target, _plain(reading, target, seen | {rid})))
    return {"content": digest(*parts), **({"verdicts": verdicts} if verdicts else {})}


def test_a_chain_of_five_thousand_links_is_fingerprinted():
    records = [f"THEORY-{i:04d}" for i in range(5000)]
    reading = _reading([(records[i], records[i - 1]) for i in range(1, 5000)], records)
    fp = Fingerprints(reading)
    top = fp.record(records[-1])
    assert top["content"]
    # an edit at the bottom of the chain changes the top's fingerprint
    edited = _reading([(records[i], records[i - 1]) for i in range(1, 5000)], records)
    original = edited.text
    edited.text = lambda rid: ("edited", "", []) if rid == records[0] else original(rid)
    assert Fingerprints(edited).record(records[-1])["content"] != top["content"]


@pytest.mark.parametrize("seed", range(12))
def test_every_fingerprint_is_the_recursive_definitions(seed):
    """Byte for byte what the recursive definition gives, so no stored review baseline moves."""
    rng = random.Random(seed)
    records = [f"THEORY-{i:03d}" for i in range(30)]
    links = {(rng.choice(records), rng.choice(records)) for _ in range(rng.randint(10, 60))}
    reading = _reading(sorted(links), records)
    fp = Fingerprints(reading)
    ours = {r: fp.record(r) for r in rng.sample(records, len(records))}
    assert ours == {r: _plain(reading, r) for r in records}
    # and the same again, asked in another order and from a record's dependants first
    again = Fingerprints(reading)
    assert {r: again.record(r) for r in sorted(records, reverse=True)} == ours

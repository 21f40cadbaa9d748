"""`--out` decides whether a file is litrec's own from a bounded read (`OWN_BYTES` of its start,
and of its end for a larger JSON file): a file of a GiB is recognised, or refused, without being
read whole."""

from __future__ import annotations

import builtins

import pytest

from litrec.commands.common import OWN_BYTES, check_out, litrec_wrote
from litrec.util.errors import UsageError

GIB = 1 << 30
open_ = builtins.open
LINKS_HEAD = b'{\n  "nodes": [\n    {\n      "id": "NOTE-1",\n      "kind": "note",\n      "title": "t"\n    },\n'
LINKS_TAIL = (b'    {\n      "source": "NOTE-1",\n      "rel": "uses",\n      "target": "NOTE-2",\n'
              b'      "claim": "P1"\n    }\n  ]\n}\n')


def _sparse(path, head: bytes, tail: bytes, size: int = GIB):
    """A file of `size` bytes: `head`, a hole (read as zero bytes, never written), `tail`."""
    with open(path, "wb") as f:
        f.write(head)
        f.seek(size - len(tail))
        f.write(tail)
    return path


@pytest.fixture
def bytes_read(monkeypatch):
    """How many bytes `litrec_wrote` reads, every file it opens counted."""
    read = [0]

    class Counted:
        def __init__(self, f):
            self.f = f

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.f.close()

        def read(self, n=-1):
            data = self.f.read(n)
            read[0] += len(data)
            return data

        def __getattr__(self, name):
            return getattr(self.f, name)

    monkeypatch.setattr(builtins, "open", lambda *a, **k: Counted(open_(*a, **k)))
    return read



@pytest.mark.parametrize(("head", "tail", "ours"), [
    (LINKS_HEAD, LINKS_TAIL, True),                                # `graph --format json`
    (b'{\n  "format": "litrec-graph",\n  "version": 2,\n', b"  }\n}\n", True),  # `export json`
    (LINKS_HEAD, b'  "edges": [],\n  "mine": true\n}\n', False),   # another tool's keys after them
    (b'{\n  "format": "their-graph",\n', LINKS_TAIL, False),
    (b'{"nodes": {"A": 1},\n', LINKS_TAIL, False),                 # nodes not litrec's list
], ids=["graph json", "export json", "extra key", "other format", "other nodes"])
def test_a_large_file_is_recognised_from_its_start_and_end_only(tmp_path, bytes_read, head, tail, ours):
    path = _sparse(tmp_path / "out.json", head, tail)
    assert litrec_wrote(path) is ours
    assert 0 < bytes_read[0] <= 2 * OWN_BYTES + 1


def test_a_large_file_litrec_did_not_write_is_refused_unread(tmp_path, bytes_read):
    path = _sparse(tmp_path / "notes.txt", b"my own notes\n", b"the end\n")
    with pytest.raises(UsageError, match="is a file litrec did not write"):
        check_out(path, None)
    assert bytes_read[0] <= OWN_BYTES + 1


def test_a_small_json_file_is_still_parsed_whole(tmp_path):
    path = tmp_path / "g.json"
    path.write_text('{"nodes": [], "mine": 1, "edges": []}\n')  # begins and ends as litrec's
    assert not litrec_wrote(path)
    path.write_text('{"nodes": [], "edges": []}\n')
    assert litrec_wrote(path)

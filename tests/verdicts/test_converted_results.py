"""A result whose line ends a checkout converted to CRLF (`core.autocrlf=true`) is intact, and
`validate` says so with a warning (`modified_results`), never an error: its seal says the files were
written LF (`line_endings: lf`; a seal written before the field is read as LF), and each CRLF read
as LF gives back the hash sealed. An edit after the conversion is still modified, and a file sealed
as written with CRLF (`mixed`) is checked byte for byte.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from litrec.analyses.inputs import RESULT_FORMAT
from litrec.results.seal import broken_seal, canonical, seal
from litrec.results.state import modified_results

SVG = b'<svg xmlns="http://www.w3.org/2000/svg">\n  <path d="M 0 0"/>\n</svg>\n'
CRLF = SVG.replace(b"\n", b"\r\n")
RESTORE = "`git config core.autocrlf false`, or `results/** -text` in .gitattributes"


def sealed(results: Path, figure: bytes = SVG, written: bytes | None = None, json_crlf: bool = False,
           stated: bool = True) -> dict:
    """`results/toy/quick.json`, sealed over one figure `figure`, which is written as `written`; the
    result file with CRLF line ends where `json_crlf`; without `line_endings` (a seal written
    before the field) unless `stated`."""
    data = seal({"format": RESULT_FORMAT, "analysis": "toy", "profile": "quick", "metrics": {"x": 1},
                 "figures": {"line": "quick/line.svg"}}, {"line.svg": figure})
    if not stated:
        data = {k: v for k, v in data.items() if k != "line_endings"}
        data["content_hash"] = hashlib.sha256(canonical(data)).hexdigest()
    folder = results / "toy"
    (folder / "quick").mkdir(parents=True, exist_ok=True)
    (folder / "quick/line.svg").write_bytes(figure if written is None else written)
    text = (json.dumps(data, indent=2) + "\n").encode()
    (folder / "quick.json").write_bytes(text.replace(b"\n", b"\r\n") if json_crlf else text)
    return data


def named(path: Path) -> str:
    return f"<{path.parent.name}/{path.name}>"


def test_a_converted_result_is_intact_and_validate_warns_how_to_restore_its_bytes(tmp_path):
    data = sealed(tmp_path, written=CRLF, json_crlf=True)
    assert data["line_endings"] == "lf" and broken_seal(data, tmp_path / "toy") is None
    (d,) = modified_results(tmp_path, display=named)
    assert (d.path, d.line, d.col, d.field, d.code, d.severity) == (
        "<toy/quick.json>", 1, 1, "line_endings", "line-endings-converted", "warning")
    assert d.message.startswith("line endings converted (CRLF) in quick.json, quick/line.svg: the "
                                "result is intact"), d.message
    assert RESTORE in d.message
    assert d.format().startswith("<toy/quick.json>:1:1: warning: line_endings: line endings converted")


def test_an_edit_after_the_conversion_is_modified_not_converted(tmp_path):
    data = sealed(tmp_path, written=CRLF.replace(b"M 0 0", b"M 0 1"))
    assert broken_seal(data, tmp_path / "toy") == ("its figure line.svg does not match the hash "
                                                   "stored with the result")
    (d,) = modified_results(tmp_path, display=named)
    assert (d.field, d.code, d.severity) == ("content_hash", "result-modified", "error")
    assert "its figure line.svg does not match the hash stored" in d.message


def test_a_seal_written_before_line_endings_were_stated_is_read_as_lf(tmp_path):
    data = sealed(tmp_path, written=CRLF, stated=False)
    assert "line_endings" not in data and broken_seal(data, tmp_path / "toy") is None
    (d,) = modified_results(tmp_path, display=named)
    assert (d.code, d.severity) == ("line-endings-converted", "warning")
    assert d.message.startswith("line endings converted (CRLF) in quick/line.svg: the result is intact")


def test_a_figure_sealed_with_crlf_is_checked_byte_for_byte(tmp_path):
    data = sealed(tmp_path, figure=CRLF)
    assert data["line_endings"] == "mixed" and broken_seal(data, tmp_path / "toy") is None
    assert modified_results(tmp_path) == []  # as written: neither modified nor converted
    # each CRLF turned into CR CRLF: read as LF it is the figure sealed, but the seal is not LF's
    data = sealed(tmp_path, figure=CRLF, written=CRLF.replace(b"\r\n", b"\r\r\n"))
    assert broken_seal(data, tmp_path / "toy") == ("its figure line.svg does not match the hash "
                                                   "stored with the result")
    (d,) = modified_results(tmp_path)
    assert (d.code, d.severity) == ("result-modified", "error")

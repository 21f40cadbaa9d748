"""Pieces of generated pages: how a result's provenance names its device."""

from __future__ import annotations

import re

from litrec.site.parts import device_text, provenance


def _rows(html: str) -> dict[str, str]:
    return dict(re.findall(r"<tr><td>([^<]*)</td> <td>(.*?)</td></tr>", html))


def test_a_cpu_is_named_once_with_its_model():
    prov = {"device": {"platform": "cpu", "devices": ["cpu"]},
            "platform": {"system": "Linux", "machine": "x86_64", "python": "3.11.7",
                         "processor": "Intel(R) Xeon(R) Platinum 8481C CPU @ 2.70GHz"}}
    assert _rows(provenance(prov))["device"] == "cpu (Intel(R) Xeon(R) Platinum 8481C CPU @ 2.70GHz)"


def test_an_older_result_without_the_model_still_shows_its_device():
    prov = {"device": {"platform": "cpu", "devices": ["cpu"]},
            "platform": {"system": "Linux", "machine": "x86_64", "python": "3.11"}}
    rows = _rows(provenance(prov))
    assert rows["device"] == "cpu"
    assert rows["platform"] == "Linux x86_64 3.11"


def test_an_accelerator_is_named_by_its_kind():
    plat = {"processor": "AMD EPYC 7B13"}
    assert device_text({"platform": "gpu", "devices": ["NVIDIA H200"]}, plat) == "gpu: NVIDIA H200"
    assert device_text({"platform": "tpu", "devices": ["TPU v4"] * 4}, plat) == "tpu: 4 × TPU v4"
    assert device_text({"devices": []}, {}) == "cpu"


def test_device_text_is_escaped():
    html = provenance({"device": {"platform": "cpu", "devices": ["cpu"]},
                       "platform": {"processor": "<script>x</script>"}})
    assert "<script>" not in html and "&lt;script&gt;" in html


def test_the_seeds_are_listed_once_and_the_commit_named():
    prov = {"seed": [0, 1, 2], "seeds": [0, 1, 2],
            "git": {"commit": "0123456789abcdef0123456789abcdef01234567", "dirty": True}}
    rows = _rows(provenance(prov))
    assert rows["seeds"] == "0, 1, 2" and "seed" not in rows
    assert rows["git commit"] == "<code>0123456789ab</code> (with uncommitted changes to analysis/)"
    assert _rows(provenance({"seed": 0}))["seed"] == "0"  # one run: its seed


def test_notes_are_markdown_with_everything_else_escaped():
    from litrec.site.markup import inline_md

    html = inline_md("the `paper` result, *seed 0*, **not** <b>bold</b>; see NOTE-621 and 2*3*4",
                     lambda ref: "n.html" if ref == "NOTE-621" else None)
    assert html == ("the <code>paper</code> result, <em>seed 0</em>, <strong>not</strong> "
                    "&lt;b&gt;bold&lt;/b&gt;; see <a href=\"n.html\">NOTE-621</a> and 2*3*4")


def test_words_keep_metric_names_and_numbers_whole():
    from litrec.site.markup import words

    assert words("cos_sensitivity > 1e-06") == (
        '<span class="lr-w">cos_sensitivity</span> <span class="lr-w">&gt;</span> '
        '<span class="lr-w">1e-06</span>')

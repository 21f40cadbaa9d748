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

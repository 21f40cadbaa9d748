"""Pieces of generated pages: how a result's provenance names its device."""

from __future__ import annotations

import re

from litrec.site.claim_pieces import device_text, provenance


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
    from litrec.site.stored_html import inline_md

    html = inline_md("the `paper` result, *seed 0*, **not** <b>bold</b>; see NOTE-621 and 2*3*4",
                     lambda ref: "n.html" if ref == "NOTE-621" else None)
    assert html == ("the <code>paper</code> result, <em>seed 0</em>, <strong>not</strong> "
                    "&lt;b&gt;bold&lt;/b&gt;; see <a href=\"n.html\">NOTE-621</a> and 2*3*4")


def test_words_keep_metric_names_and_numbers_whole():
    from litrec.site.stored_html import words

    assert words("cos_sensitivity > 1e-06") == (
        '<span class="lr-w">cos_sensitivity</span> <span class="lr-w">&gt;</span> '
        '<span class="lr-w">1e-06</span>')


def _entry(texts, decisions, h=None):
    return {"expectations": {"hash": h or "|".join(texts), "text": texts},
            "numbers": [{"expectation": t, "decision": d} for t, d in zip(texts, decisions)]}


def test_a_history_entry_says_only_what_changed():
    from litrec.site.claim_history import history_changes

    first = _entry(["cos > 0.99", "loss < 1"], ["fails", "holds"])
    assert history_changes(None, first) == []  # the first entry's list is shown once, above
    same = _entry(["cos > 0.99", "loss < 1"], ["fails", "holds"])
    assert history_changes(first, same) == ["same expectations and outcomes"]
    moved = _entry(["cos > 0.97", "loss < 1"], ["holds", "fails"])
    assert history_changes(first, moved) == [
        "expectations: added <code>cos &gt; 0.97</code>; removed <code>cos &gt; 0.99</code>",
        "<code>loss &lt; 1</code>: holds → fails"]
    edited = _entry(["cos > 0.99", "loss < 1"], ["fails", "holds"], h="other")
    assert history_changes(first, edited) == ["notes or sources of its expectations edited (their criteria unchanged)"]


def _status(verdict, outcomes, reason=None, direction=None):
    from litrec.verdicts.claims import ClaimStatus

    return ClaimStatus("P#1", "t", "a", "paper", verdict, outcomes=outcomes, reason=reason,
                       direction=direction)


def _outcome(exp, decision, n=5, precondition=False, measured=0.5):
    from litrec.verdicts.judge import Outcome

    return Outcome(exp, exp.split()[0], measured, 1.0, decision == "holds" or (
        None if decision == "inconclusive" else False), decision, n=n, precondition=precondition)


def test_a_verdict_reason_is_a_plain_sentence_with_its_statistics_apart():
    from litrec.site.reasons import plain_reason

    said, stats = plain_reason(_status("reproduced", [_outcome("a > 0", "holds")] * 3))
    assert (said, stats) == ("All 3 expectations hold, over 5 seeds.", "")
    # a failed precondition: the claim is inconclusive, and the counts say they count expectations
    said, stats = plain_reason(_status(
        "inconclusive", [_outcome("setup < 1", "fails", precondition=True),
                         _outcome("cos > 0.9", "fails"), _outcome("b > 0", "holds")],
        reason="precondition failed: setup < 1 (precondition)", direction="undecided"))
    assert said == ("The run did not reach the set-up the claim needs (setup < 1 fails), so this "
                    "scale cannot judge the claim.")
    assert stats.startswith("Per expectation: 1 hold, 2 fail (of 3).")
    # an interval across the threshold: plain words first, the judge's own wording folded
    jargon = "loss: mean of (loss − expected) / tolerance 1.015 above 1: about 344 seeds would"
    said, stats = plain_reason(_status("inconclusive", [_outcome("loss ≈ gd (±0.05 rel)",
                                                                 "inconclusive")],
                                       reason=jargon, direction="likely not reproduced"))
    assert said == ("Not settled, over 5 seeds: loss ≈ gd (±0.05 rel) is too close to its "
                    "threshold to call; it leans towards not reproduced.")
    assert "tolerance" not in said and "seeds would" not in said and jargon in stats
    said, _ = plain_reason(_status("not reproduced", [_outcome("cos > 0.99", "fails", n=8,
                                                                measured=0.9775)]))
    assert said == "cos > 0.99 fails: 0.9775 measured, over 8 seeds."

"""`litrec.util.formatting`: the one shortener (`shorten`) and the excerpt built on it."""

from __future__ import annotations

import pytest

from litrec.util.formatting import ELLIPSIS, excerpt, shorten


def test_text_that_fits_comes_back_on_one_line():
    assert shorten("Transformers learn", 40) == "Transformers learn"
    assert shorten("a  b\n\tc ", 5) == "a b c"  # whitespace made single before measuring
    assert shorten("x" * 40, 40) == "x" * 40  # exactly the limit: not cut


def test_a_long_text_is_cut_at_a_character_to_the_limit_with_one_ellipsis():
    title = "Transformers learn in-context by gradient descent"
    out = shorten(title, 30)
    assert out == "Transformers learn in-context…" and len(out) == 30
    assert shorten("ARXIV-2212.07677:" + "x" * 50, 20) == "ARXIV-2212.07677:xx…"  # not a word cut
    assert out.count(ELLIPSIS) == 1 and "..." not in out


def test_a_space_at_the_cut_is_dropped():
    assert shorten("abcd efgh", 6) == "abcd…"
    assert len(shorten("abcd efgh", 6)) == 5


@pytest.mark.parametrize("limit", [1, 2, 7, 39, 40, 41, 300])
def test_the_limit_is_honoured(limit):
    text = "word " * 100
    out = shorten(text, limit)
    assert len(out) <= limit and out.endswith(ELLIPSIS)
    assert out[:-1] == " ".join(text.split())[: len(out) - 1]  # a prefix of the text, no more


def test_characters_beyond_ascii_are_whole():
    out = shorten("Ünïcödé ∑ 𝔼[x] — " * 5, 12)
    assert out == "Ünïcödé ∑ 𝔼…" and len(out) == 12
    assert out.encode("utf-8").decode("utf-8") == out  # no half of a character


def test_a_limit_below_one_is_refused():
    with pytest.raises(ValueError, match="at least 1"):
        shorten("text", 0)


def test_excerpt_keeps_short_values_and_names_a_long_ones_length():
    assert excerpt("a\nb") == "a\nb"
    assert excerpt("y" * 100, 10) == "yyyyyyyyy… (100 characters)"

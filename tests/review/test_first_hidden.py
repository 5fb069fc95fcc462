"""``first_hidden`` finds what ``hidden`` finds, character for character.

It is the fast path every id and name check takes (two C-level scans, then the per
character reading only when they find something), so it must never disagree with the
rule it shortcuts: on random text from the whole of Unicode, surrogates included, and on
every range the categories do not cover.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from reviewer.text_rules import BLANK_LOOKING, DEFAULT_IGNORABLE, first_hidden, hidden

ANY_CHARACTER = st.characters(codec=None, categories=None)


def by_character(text: str) -> str | None:
    return next((ch for ch in text if hidden(ch)), None)


@settings(max_examples=400)
@given(st.text(ANY_CHARACTER, max_size=40))
def test_first_hidden_agrees_with_hidden_on_any_text(text: str) -> None:
    assert first_hidden(text) == by_character(text)


@settings(max_examples=200)
@given(st.text(st.characters(codec="ascii"), max_size=20),
       st.sampled_from([lo for lo, _ in DEFAULT_IGNORABLE] + [hi for _, hi in DEFAULT_IGNORABLE]
                       + sorted(BLANK_LOOKING) + [0x20, 0xA0, 0x2028, 0xD800, 0xE9]),
       st.text(st.characters(codec="ascii"), max_size=20))
def test_first_hidden_finds_the_ranges_printable_text_lets_through(
        before: str, code: int, after: str) -> None:
    text = before + chr(code) + after
    assert first_hidden(text) == by_character(text)


def test_an_id_with_a_hangul_filler_or_a_variation_selector_is_still_refused() -> None:
    # Printable for Python, invisible on screen: the categories alone would let them in.
    for ch in ("\u3164", "\ufe0f", "\u034f", "\u2800"):
        assert ch.isprintable() and first_hidden(f"conv{ch}1") == ch
    assert first_hidden("recette-047 café") is None

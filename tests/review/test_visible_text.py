"""Hidden characters: shown as markers in the window (tests/ui/test_visible_text.py),
kept byte for byte by the exports; the offsets of highlights follow the markers."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from reviewer.cli.main import main as cli_main
from reviewer.review import actions as review_actions
from reviewer.review.search_hits import hit_spans, search_terms
from reviewer.review.visible import BREAK_RUN, breakable, shown, unmarked
from reviewer.store import Store
from tests.support.stores import act, attempt_id
from tests.ui.test_visible_text import KEY, NOTE, RESPONSE, fill_hidden


def test_the_exports_keep_the_characters_byte_for_byte(
        store: Store, db_url: str, tmp_path: Path) -> None:
    hidden_store = fill_hidden(store, tmp_path)
    aid = attempt_id(hidden_store, KEY)
    act(hidden_store, review_actions.decide, "claire", aid, "accept")
    act(hidden_store, review_actions.toggle_false_positive, "claire", aid, "D-COMMERCE")
    act(hidden_store, review_actions.toggle_criterion, "claire", aid, "G-DEMANDE")
    decisions, dataset = tmp_path / "decisions.jsonl", tmp_path / "dataset.jsonl"
    assert cli_main(["--db", db_url, "--reviewer", "claire", "export", "decisions",
                     str(decisions)]) == 0
    assert cli_main(["--db", db_url, "--reviewer", "claire", "export", "dataset",
                     str(dataset)]) == 0
    raw = decisions.read_bytes().decode("utf-8")
    assert NOTE in raw or json.dumps(NOTE)[1:-1] in raw
    assert "⟨U+" not in raw
    data = dataset.read_text(encoding="utf-8")
    assert RESPONSE in data or json.dumps(RESPONSE)[1:-1] in data
    assert "⟨U+" not in data


def test_offsets_follow_the_markers() -> None:
    text = "a\u202eb\r\nc\u200bd\ne\tf"
    view = shown(text)
    assert view.text == "a⟨U+202E⟩b\r\nc⟨U+200B⟩d\ne\tf"  # line ends and tabs kept
    for start, end in ((0, 1), (2, 3), (5, 6), (1, 2), (0, len(text))):
        s, e = view.span(start, end)
        assert view.text[s:e].replace("⟨U+202E⟩", "\u202e").replace(
            "⟨U+200B⟩", "\u200b") == text[start:end]
    assert shown("déjà vu, 22\u202fh").text == "déjà vu, 22\u202fh"  # French spaces stay


def test_search_hits_read_the_query_as_the_search_does() -> None:
    text = "Les Événements sonores : un événement, deux evenements ; l'évent."
    terms = search_terms("EVENEMENT")
    assert [text[s:e] for s, e in hit_spans(text, terms)] == [
        "Événements", "événement", "evenements"]
    assert hit_spans(text, search_terms("   ")) == ()
    assert [text[s:e] for s, e in hit_spans(text, search_terms("son deux"))] == [
        "sonores", "deux"]


def test_a_long_run_gets_a_break_opportunity_every_break_run_characters() -> None:
    """Fourth hostile pass, G8: a label cannot wrap a run without spaces."""
    run = "x" * (3 * BREAK_RUN)
    assert breakable(f"court {run} fin") == \
        f"court {'x' * BREAK_RUN}\u200b{'x' * BREAK_RUN}\u200b{'x' * BREAK_RUN} fin"
    assert breakable("x" * BREAK_RUN) == "x" * BREAK_RUN  # nothing after it: no break
    assert breakable("un texte ordinaire, sans mot si long.") == \
        "un texte ordinaire, sans mot si long."


@given(st.text(alphabet=st.sampled_from(
    ["a", "é", " ", "\n", "\u202e", "\u202c", "\u200b", "\x01", "\ufeff", "\u2028", "⟨",
     "U", "+", "⟩", "0"]), max_size=40))
def test_an_editor_that_shows_markers_saves_the_text_it_was_given(text: str) -> None:
    # P15-7: the criteria editor edits a text with its markers and saves it with the
    # characters put back; unchanged, it is the same text.
    if "⟨U+" not in text:  # a text that already spells a marker is left as typed
        assert unmarked(shown(text).text) == text
    assert unmarked("⟨U+0041⟩ stays") == "⟨U+0041⟩ stays"  # not a hidden character

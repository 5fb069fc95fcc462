"""Bidi controls and invisible characters are shown, not obeyed, in every text the review
window displays (issue 18, item 5); the exports keep the text byte for byte.

U+202E (RIGHT-TO-LEFT OVERRIDE) makes "txt.exe" look like "exe.txt"; U+200B (ZERO WIDTH
SPACE) splits a word no one can see split; U+2066 (LEFT-TO-RIGHT ISOLATE) reorders what
follows. The checks, the judge and the exports see them: the reviewer must too.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel

from models import ReviewDecision
from reviewer.ingest.importer import import_run
from reviewer.review import actions as review_actions
from reviewer.store import Store
from tests.support.qt import idle
from tests.support.run_files import record, write_catalog, write_jsonl
from tests.support.stores import act, attempt_id
from ui.review.example_models import Role
from ui.review.text_widgets import MARK_BG, MATCH_BG
from ui.review.window import MainWindow

pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints")
RUN = "2026-10-14-ministral-8b"
KEY = f"{RUN}/recette-001/1/1"
RESPONSE = "Ouvrez fac\u202etxt.exe puis pensez à vous inscrire\u200b ici."
RATIONALE = "L'assistant \u2066répond\u2069 à la demande."
QUESTION = "Mon voisin a écrit \u202eelif\u202c sur le mur, je note quoi ?"
NOTE = "vu\u200bici"
OTHER = "bob\u202e"


def fill_hidden(store: Store, tmp_path: Path) -> Store:
    """One refused attempt whose texts carry bidi controls and zero-width characters."""
    row = record("recette-001", 1, 1, response=RESPONSE, demande="non", rationale=RATIONALE,
                 commerce_passed=False)
    row["messages"][1]["content"] = QUESTION
    import_run(store, write_jsonl(tmp_path / "run.jsonl", [row]),
               catalog_path=write_catalog(tmp_path / "catalog.json"))
    aid = attempt_id(store, KEY)
    act(store, review_actions.set_note, "claire", aid, NOTE)
    with store.session() as s:  # a name stored before names were checked (an old store)
        s.add(ReviewDecision(attempt_id=aid, reviewer=OTHER, decision="reject", criteria={},
                             checks={}, note=""))
    return store


@pytest.fixture
def hidden_store(store: Store, tmp_path: Path) -> Store:
    return fill_hidden(store, tmp_path)


def test_hidden_characters_are_markers_in_every_text_of_the_window(
        qtbot: Any, make_window: Callable[[Store], MainWindow], hidden_store: Store) -> None:
    w = make_window(hidden_store)
    idle(qtbot, w)
    pane = w.pane
    assert pane.title.text() == KEY
    # The answer: markers in their own style, the check's match still on "inscrire".
    text = pane.response.toPlainText()
    assert text == "Ouvrez fac⟨U+202E⟩txt.exe puis pensez à vous inscrire⟨U+200B⟩ ici."
    assert pane.response.selections_of(MARK_BG) == ["⟨U+202E⟩", "⟨U+200B⟩"]
    assert pane.response.selections_of(MATCH_BG) == ["inscrire"]
    # The rationale cell, its markers styled, the evidence spans moved with them.
    cell = pane.verdict_model.index(0, 5)
    shown_rationale = cell.data()
    assert shown_rationale == "L'assistant ⟨U+2066⟩répond⟨U+2069⟩ à la demande."
    assert [shown_rationale[s:e] for s, e in cell.data(Role.Marks)] == ["⟨U+2066⟩", "⟨U+2069⟩"]
    assert all(shown_rationale[s:e].strip() in shown_rationale
               for s, e in cell.data(Role.Spans))
    # The question, the reasons, the note, another reviewer's name, the queue's row.
    assert pane.question is not None
    assert pane.question.body.text() == \
        "Mon voisin a écrit ⟨U+202E⟩elif⟨U+202C⟩ sur le mur, je note quoi ?"
    assert "répond⟨U+2069⟩" in pane.filter_line.text()
    assert pane.note_line.text() == "Note: vu⟨U+200B⟩ici"
    assert pane.others_line.text() == "Other reviewers: bob⟨U+202E⟩: reject"
    row = w.model.row_of(pane.view.attempt_id if pane.view else -1)
    assert row is not None
    assert "répond⟨U+2069⟩" in w.model.index(row, 3).data(Qt.ItemDataRole.ToolTipRole)
    # Nowhere in the window is a bidi control or a zero-width character left to act.
    for label in w.findChildren(QLabel):
        assert not any(ch in label.text() for ch in "\u202e\u200b\u2066\u2069\u202c"), \
            label.text()[:60]
    assert QApplication.focusWidget() is w.queue

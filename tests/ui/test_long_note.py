"""A note too long for the one-line editor (fifteenth hostile pass, P15-6).

`decide --from-csv` stores a note of any size. N on an attempt with a 50 MB note loaded it
whole into the one-line editor: 100 % CPU for minutes, Esc answered 5–7 s late. What the
reviewer notices: N says the note is too long to edit here, the window stays alive, and
W shows the note whole.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from PySide6.QtCore import Qt

from reviewer.review import actions
from reviewer.store import Store
from tests.support.qt import idle
from tests.ui.test_review_flow import show
from tests.ui.test_ui_review import key
from ui.review.inline import NOTE_EDIT_LIMIT
from ui.review.text_widgets import number
from ui.review.window import MainWindow

pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints",
                                      "does not support raise")
Maker = Callable[[Store], MainWindow]
ON = "recette-004/2/1"


def test_a_note_too_long_to_edit_in_place_is_said_and_shown_whole(
        qtbot: Any, make_window: Maker, filled_store: Store) -> None:
    w = make_window(filled_store)
    show(qtbot, w, ON)
    assert w.pane.view is not None
    long_note = "x" * (NOTE_EDIT_LIMIT + 1)
    with filled_store.session() as s:
        actions.set_note(s, w.reviewer, w.pane.view.attempt_id, long_note)
    w.commands.reload.emit()
    idle(qtbot, w)
    key(w, Qt.Key.Key_N)
    idle(qtbot, w)
    assert not w.pane.note_editor.editing
    assert w.error_label.text() == (
        f"The note on {ON} is {number(NOTE_EDIT_LIMIT + 1)} characters long, too long to edit "
        "here: W shows it whole, and reviewer decide KEY --note replaces it")
    key(w, Qt.Key.Key_W)
    whole = w.pane.whole
    assert whole is not None and whole.isVisible()
    tabs = [whole.tabs.tabText(i) for i in range(whole.tabs.count())]
    assert "Your note" in tabs
    assert whole.texts[tabs.index("Your note")] == long_note


def test_a_note_within_the_bound_still_opens_in_place(
        qtbot: Any, make_window: Maker, filled_store: Store) -> None:
    w = make_window(filled_store)
    show(qtbot, w, ON)
    assert w.pane.view is not None
    with filled_store.session() as s:
        actions.set_note(s, w.reviewer, w.pane.view.attempt_id, "y" * NOTE_EDIT_LIMIT)
    w.commands.reload.emit()
    idle(qtbot, w)
    key(w, Qt.Key.Key_N)
    assert w.pane.note_editor.editing
    assert w.pane.note_editor.text() == "y" * NOTE_EDIT_LIMIT

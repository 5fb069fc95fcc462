"""Undo takes back the step the Edit menu names, even when another process moved the
stack (sixth hostile pass, U1)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from PySide6.QtCore import Qt

from reviewer.keys import AttemptKey
from reviewer.review import actions as review_actions
from reviewer.review.queue import attempt_id_for
from reviewer.store import Store
from tests.support.qt import idle
from tests.support.stores import act
from tests.ui.test_ui_review import RUN, key, shortcut, show, stored
from ui.review.window import MainWindow

pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints")
Maker = Callable[[Store], MainWindow]
CTRL = Qt.KeyboardModifier.ControlModifier


def attempt_id(store: Store, name: str) -> int:
    with store.session() as s:
        found = attempt_id_for(s, AttemptKey.parse(f"{RUN}/{name}"))
    assert found is not None
    return found


def go(qtbot: Any, w: MainWindow, name: str) -> None:
    """Show attempt ``name`` (already shown: nothing to wait for)."""
    if w.pane.view is None or str(w.pane.view.key) != f"{RUN}/{name}":
        show(qtbot, w, name)


def test_an_undo_after_another_process_moved_the_stack_says_so_and_undoes_nothing(
        qtbot: Any, make_window: Maker, filled_store: Store) -> None:
    w = make_window(filled_store)
    go(qtbot, w, "recette-005/2/2")
    key(w, Qt.Key.Key_R)
    idle(qtbot, w)
    undo = w.actions_by_name["undo"]
    assert undo.text() == "Undo: reject recette-005/2/2"
    # The same reviewer, in another process (a second `reviewer gui`), accepts it: this
    # window hears nothing of it, its menu still names the reject.
    act(filled_store, review_actions.decide, "claire",
        attempt_id(filled_store, "recette-005/2/2"), "accept")
    shortcut(w, Qt.Key.Key_Z, CTRL)
    idle(qtbot, w)
    assert stored(filled_store, "recette-005/2/2")["decision"] == "accept"  # untouched
    assert w.error_label.text() == (
        "Not undone: another window changed the undo history; the last change is now "
        "accept recette-005/2/2. Press Ctrl+Z again to undo it.")
    assert undo.text() == "Undo: accept recette-005/2/2"  # the menu read again
    shortcut(w, Qt.Key.Key_Z, CTRL)  # now takes back what the menu says
    idle(qtbot, w)
    assert stored(filled_store, "recette-005/2/2")["decision"] == "reject"
    assert undo.text() == "Undo: reject recette-005/2/2"


def test_ctrl_z_right_after_a_decision_undoes_it(qtbot: Any, make_window: Maker,
                                                 filled_store: Store) -> None:
    # Typed ahead, before the menu has been read again: Ctrl+Z waits for it, and takes
    # back this window's own reject (never refused as "changed in another window").
    w = make_window(filled_store)
    go(qtbot, w, "recette-001/2/1")
    key(w, Qt.Key.Key_R)
    idle(qtbot, w)  # the menu: "Undo: reject recette-001/2/1"
    go(qtbot, w, "recette-005/2/2")
    key(w, Qt.Key.Key_R)
    shortcut(w, Qt.Key.Key_Z, CTRL)
    idle(qtbot, w)
    assert w.error_label.text() == ""
    assert w.message_label.text().startswith("Undone: reject recette-005/2/2")
    assert stored(filled_store, "recette-005/2/2")["decision"] is None
    assert stored(filled_store, "recette-001/2/1")["decision"] == "reject"


def test_a_decision_over_ones_own_stored_elsewhere_says_it_replaced_it(
        qtbot: Any, make_window: Maker, filled_store: Store) -> None:
    # Fifteenth hostile pass, P15-13 (8): two windows of one reviewer; B accepted an
    # attempt A had rejected, B still showing "not reviewed yet": B's line was only
    # "Accepted …", the reject gone without a word.
    w = make_window(filled_store)
    w.config.auto_advance = False
    go(qtbot, w, "recette-005/2/2")
    assert w.pane.review_line.text() == "Your decision: not reviewed yet"
    act(filled_store, review_actions.decide, w.reviewer,
        attempt_id(filled_store, "recette-005/2/2"), "reject")  # the other window
    key(w, Qt.Key.Key_R)  # the same decision: nothing replaced, nothing to say
    idle(qtbot, w)
    assert w.message_label.text() == "Rejected recette-005/2/2 — Ctrl+Z to undo"
    act(filled_store, review_actions.decide, w.reviewer,
        attempt_id(filled_store, "recette-005/2/2"), "accept")  # the other window again
    key(w, Qt.Key.Key_R)
    idle(qtbot, w)
    assert stored(filled_store, "recette-005/2/2")["decision"] == "reject"
    assert w.message_label.text() == (
        "Rejected recette-005/2/2, replacing your accept stored meanwhile elsewhere "
        "(another window or the command line) — Ctrl+Z to undo")

"""Team mode in the window: another reviewer's decision is shown and a race is reported."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from PySide6.QtCore import Qt

from reviewer.keys import AttemptKey
from reviewer.review import decisions as review
from reviewer.review.queue import attempt_id_for
from reviewer.store import Store
from tests.support.qt import idle
from tests.ui.test_ui_review import RUN, key, show, stored
from ui.review.window import MainWindow

pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints")
Maker = Callable[[Store], MainWindow]


def other_decides(store: Store, name: str, reviewer: str, decision: str) -> None:
    with store.session() as s:
        aid = attempt_id_for(s, AttemptKey.parse(f"{RUN}/{name}"))
        assert aid is not None
        review.apply_change(s, reviewer, review.Change(aid, "decision", decision))


def test_decision_made_by_another_reviewer_meanwhile_is_reported(
    qtbot: Any, make_window: Maker, filled_store: Store
) -> None:
    other_decides(filled_store, "recette-002/2/1", "bob", "reject")
    w = make_window(filled_store)
    show(qtbot, w, "recette-002/2/1")
    assert w.pane.others_line.isVisible()
    assert w.pane.others_line.text() == "Other reviewers: bob: reject"

    # While claire looks at it, dana decides too; claire's accept is stored and she is told.
    other_decides(filled_store, "recette-002/2/1", "dana", "reject")
    w.config.auto_advance = False
    key(w, Qt.Key.Key_A)  # the filter refuses it: A asks, A again accepts anyway
    key(w, Qt.Key.Key_A)
    idle(qtbot, w)
    assert stored(filled_store, "recette-002/2/1")["decision"] == "accept"
    assert stored(filled_store, "recette-002/2/1", "dana")["decision"] == "reject"
    assert "dana also reviewed this attempt meanwhile" in w.error_label.text()
    assert "disagrees" in w.error_label.text()
    assert w.pane.others_line.text() == "Other reviewers: bob: reject, dana: reject"


def test_queue_can_show_what_others_reviewed_and_i_did_not(
    qtbot: Any, make_window: Maker, filled_store: Store
) -> None:
    other_decides(filled_store, "recette-004/2/2", "bob", "accept")
    w = make_window(filled_store)
    box = w.filters.state_box
    box.setCurrentIndex(box.findData("others_not_me"))
    idle(qtbot, w)
    keys = [w.model.index(r, 1).data() for r in range(w.model.rowCount())]
    assert keys == ["recette-004 · 2/2"]


def test_a_name_cannot_forge_an_entry_of_the_other_reviewers_line(
    qtbot: Any, make_window: Maker, filled_store: Store
) -> None:
    # Fifteenth hostile pass, P15-9: the name `root: accept` passes the name rule, and the
    # line read "Other reviewers: …, root: accept: reject": root seemed to accept. A name
    # holding the line's own ':' ',' or '"' is quoted (a '"' in it doubled).
    for reviewer in ("bob", "root: accept", 'eve, "x'):
        other_decides(filled_store, "recette-002/2/1", reviewer, "reject")
    w = make_window(filled_store)
    show(qtbot, w, "recette-002/2/1")
    assert w.pane.others_line.text() == \
        'Other reviewers: bob: reject, "eve, ""x": reject, "root: accept": reject'

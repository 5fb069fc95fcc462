"""The review window driven like a reviewer does: keyboard, real widgets, real SQLite file."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from reviewer.ingest.demo import load_demo
from reviewer.keys import AttemptKey
from reviewer.review import decisions as review
from reviewer.store import Store, open_store
from tests.support.qt import decisions, idle
from tests.support.stores import CONTRADICTION, flag
from ui.review.example_models import Role
from ui.review.window import MainWindow

# The offscreen platform cannot resize native windows; that notice is not our bug.
pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints")
RUN = "2026-10-14-ministral-8b"
Maker = Callable[[Store], MainWindow]


def key(window: MainWindow, k: Any) -> None:
    """Press a key the way a reviewer does (on whatever has the focus)."""
    target = QApplication.focusWidget() or window
    QTest.keyClick(target, k)


def shortcut(window: MainWindow, k: Any, mod: Qt.KeyboardModifier) -> None:
    QTest.keyClick(QApplication.focusWidget() or window, k, mod)


def show(qtbot: Any, window: MainWindow, name: str) -> None:
    """Select an attempt by key and wait until the pane shows it."""
    with qtbot.waitSignal(window.example_shown, timeout=10000):
        window.select_key(AttemptKey.parse(f"{RUN}/{name}"))
    idle(qtbot, window)


def stored(store: Store, name: str, reviewer: str = "claire") -> dict[str, Any]:
    """The decision as stored in the database (what survives a crash)."""
    k = AttemptKey.parse(f"{RUN}/{name}")
    from reviewer.review.queue import attempt_id_for

    with store.session() as s:
        aid = attempt_id_for(s, k)
        assert aid is not None
        return review.snapshot(review.get_decision(s, aid, reviewer))


def test_example_pane_shows_the_contradiction(qtbot: Any, make_window: Maker,
                                              filled_store: Store) -> None:
    w = make_window(filled_store)
    show(qtbot, w, "recette-003/2/1")
    pane = w.pane
    assert pane.title.text() == f"{RUN}/recette-003/2/1"
    assert pane.flag_badge.isVisible()
    # The question beside the answer; the system prompt below, collapsed.
    assert pane.question is not None
    assert pane.question.body.text() == "Comment dater un épisode de bruit ?"
    assert [b.role for b in pane.earlier.bubbles()] == ["system"]
    assert not pane.earlier.system_box.isVisible()
    assert pane.response.toPlainText() == "Notez la date et l'heure de chaque épisode."
    model = pane.verdict_model
    assert model.index(0, 1).data() == "G-DEMANDE"
    assert model.index(0, 3).data() == "no"
    assert model.index(0, 5).data() == CONTRADICTION
    assert "contradiction" in model.index(0, 6).data()
    spans = model.index(0, 5).data(Role.Spans)
    assert any("répond" in CONTRADICTION[s:e] for s, e in spans)
    assert "G-DEMANDE non tenu : L'assistant répond directement" in pane.filter_line.text()
    assert pane.live_line.text().endswith("refused")
    # The last refused attempt of turn 2 ended the conversation.
    show(qtbot, w, "recette-003/2/3")
    assert pane.cut_line.isVisible()
    assert "turn 2 of 4 planned (2 turns lost)" in pane.cut_line.text()
    show(qtbot, w, "recette-003/2/2")
    assert pane.check_model.index(0, 3).data() == "« inscrire »"
    assert len(pane.response.extraSelections()) == 1
    assert w.progress_label.text() == "Reviewed 0 / 24 (24 to review)"


def test_each_review_action_by_keyboard(qtbot: Any, make_window: Maker,
                                        filled_store: Store) -> None:
    w = make_window(filled_store)
    show(qtbot, w, "recette-003/2/1")
    # 1 toggles the first criterion: the filter would now accept; committed at once.
    key(w, Qt.Key.Key_1)
    idle(qtbot, w)
    assert w.pane.live_line.text().endswith("accepted  ⟵ changed")
    assert w.pane.verdict_model.index(0, 4).data() == "yes ✎"
    assert stored(filled_store, "recette-003/2/1")["criteria"] == {"G-DEMANDE": True}
    # A accepts and moves on to the next attempt.
    key(w, Qt.Key.Key_A)
    idle(qtbot, w)
    assert stored(filled_store, "recette-003/2/1")["decision"] == "accept"
    assert w.pane.title.text() == f"{RUN}/recette-003/2/2"
    # F marks the failed check as a false positive: accepted now.
    key(w, Qt.Key.Key_F)
    idle(qtbot, w)
    assert stored(filled_store, "recette-003/2/2")["checks"] == {"D-COMMERCE": "false_positive"}
    assert w.pane.check_model.index(0, 2).data() == "failed → false positive"
    assert w.pane.live_line.text().endswith("accepted  ⟵ changed")
    # R rejects; K goes back; J and the arrows move too.
    key(w, Qt.Key.Key_R)
    idle(qtbot, w)
    assert stored(filled_store, "recette-003/2/2")["decision"] == "reject"
    assert w.pane.title.text() == f"{RUN}/recette-003/2/3"
    key(w, Qt.Key.Key_K)
    idle(qtbot, w)
    assert w.pane.title.text() == f"{RUN}/recette-003/2/2"
    assert w.pane.review_line.text() == "Your decision: reject"
    key(w, Qt.Key.Key_Down)
    idle(qtbot, w)
    assert w.pane.title.text() == f"{RUN}/recette-003/2/3"
    key(w, Qt.Key.Key_Up)
    key(w, Qt.Key.Key_J)
    idle(qtbot, w)
    assert w.pane.title.text() == f"{RUN}/recette-003/2/3"
    assert w.progress_label.text() == "Reviewed 2 / 24 (22 to review)"
    assert decisions(w)[f"{RUN}/recette-003/2/1"] == "accept"


def type_text(widget: Any, text: str) -> None:
    """Type any text (QTest.keyClicks aborts on non-ASCII on this Qt)."""
    for ch in text:
        QTest.sendKeyEvent(QTest.KeyAction.Click, widget, Qt.Key.Key_unknown, ch,
                           Qt.KeyboardModifier.NoModifier)


def test_note_editor_with_french_text(qtbot: Any, make_window: Maker,
                                      filled_store: Store) -> None:
    w = make_window(filled_store)
    show(qtbot, w, "recette-004/2/1")
    note = "Réponse honnête ; le juge s'est trompé « G-DEMANDE » — à revoir"
    key(w, Qt.Key.Key_N)
    editor = w.pane.note_editor
    assert editor.isVisible() and editor.hasFocus()
    type_text(editor, note)
    QTest.keyClick(editor, Qt.Key.Key_Return)
    idle(qtbot, w)
    assert stored(filled_store, "recette-004/2/1")["note"] == note
    assert w.pane.note_line.text() == f"Note: {note}"
    assert not editor.isVisible()
    # The keyboard works again right after the dialog.
    key(w, Qt.Key.Key_R)
    idle(qtbot, w)
    assert stored(filled_store, "recette-004/2/1")["decision"] == "reject"


def test_a_pasted_100000_character_note_is_stored_whole(qtbot: Any, make_window: Maker,
                                                        filled_store: Store) -> None:
    """Fourth hostile pass, G7: QLineEdit's default limit cut a pasted note at 32,767
    characters and the status bar still said "Note saved". The CLI stores any length."""
    w = make_window(filled_store)
    show(qtbot, w, "recette-004/2/1")
    note = "é" + "note" * 25_000  # 100,001 characters, one "word"
    key(w, Qt.Key.Key_N)
    editor = w.pane.note_editor
    QApplication.clipboard().setText(note)
    QTest.keyClick(editor, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClick(editor, Qt.Key.Key_Return)
    idle(qtbot, w)
    assert w.message_label.text() == "Note saved"
    kept = stored(filled_store, "recette-004/2/1")["note"]
    assert len(kept) == len(note) and kept == note  # was 32,767 characters


def test_undo_redo_also_after_restart(qtbot: Any, make_window: Maker, filled_store: Store,
                                      db_url: str) -> None:
    w = make_window(filled_store)
    show(qtbot, w, "recette-005/2/1")
    key(w, Qt.Key.Key_A)  # the filter refuses it: A asks, A again accepts anyway
    key(w, Qt.Key.Key_A)
    idle(qtbot, w)
    key(w, Qt.Key.Key_R)
    idle(qtbot, w)
    assert stored(filled_store, "recette-005/2/2")["decision"] == "reject"
    shortcut(w, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    idle(qtbot, w)
    assert stored(filled_store, "recette-005/2/2")["decision"] is None
    assert w.pane.title.text() == f"{RUN}/recette-005/2/2"  # undo shows what it changed
    assert w.pane.review_line.text() == "Your decision: not reviewed yet"
    shortcut(w, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier
             | Qt.KeyboardModifier.ShiftModifier)
    idle(qtbot, w)
    assert stored(filled_store, "recette-005/2/2")["decision"] == "reject"
    assert w.pane.review_line.text() == "Your decision: reject"
    w.close()
    filled_store.close()
    # Another process (a restart) undoes from the audit trail.
    again = open_store(db_url)
    try:
        w2 = make_window(again)
        assert w2.actions_by_name["undo"].isEnabled()
        shortcut(w2, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
        idle(qtbot, w2)
        assert stored(again, "recette-005/2/2")["decision"] is None
        shortcut(w2, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
        idle(qtbot, w2)
        assert stored(again, "recette-005/2/1")["decision"] is None
        assert not w2.actions_by_name["undo"].isEnabled()
        w2.close()
    finally:
        again.close()


def test_twenty_demo_examples_by_keyboard_survive_a_restart(
        qtbot: Any, make_window: Maker, store: Store, db_url: str) -> None:
    load_demo(store)
    w = make_window(store)
    expected: dict[str, str] = {}
    for i in range(20):
        current = w.pane.title.text()
        decision = "accept" if i % 3 == 0 else "reject"
        if decision == "accept":  # the filter still refuses it: A asks, A again accepts
            key(w, Qt.Key.Key_A)
            assert w.pane.question_box.isVisible()
        key(w, Qt.Key.Key_A if decision == "accept" else Qt.Key.Key_R)
        expected[current] = decision
        idle(qtbot, w)
    assert len(expected) == 20
    total = w.progress[1]
    shortcut(w, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)  # quit
    qtbot.waitUntil(lambda: not w.isVisible())
    store.close()

    again = open_store(db_url)
    try:
        w2 = make_window(again)
        while w2.model.canFetchMore():
            w2.model.fetchMore()
            idle(qtbot, w2)
        shown = {k: d for k, d in decisions(w2).items() if d is not None}
        assert shown == expected
        assert w2.progress_label.text() == f"Reviewed 20 / {total} ({total - 20} to review)"
        last = list(expected)[-1]
        shortcut(w2, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
        idle(qtbot, w2)
        assert decisions(w2)[last] is None
        assert w2.pane.title.text() == last
        assert w2.progress_label.text() == f"Reviewed 19 / {total} ({total - 19} to review)"
        w2.close()
    finally:
        again.close()


def test_help_overlay_lists_the_keys(qtbot: Any, make_window: Maker,
                                     filled_store: Store) -> None:
    w = make_window(filled_store)
    QTest.keyClick(QApplication.focusWidget() or w, Qt.Key.Key_Question)
    qtbot.waitUntil(lambda: w.help_overlay is not None and w.help_overlay.isVisible())
    overlay = w.help_overlay
    assert overlay is not None
    lines = dict(overlay.lines)
    assert lines["A"] == "Accept the attempt"
    assert lines["R"] == "Reject the attempt"
    assert lines["J  /  Down"] == "Next attempt"
    assert lines["1 – 9, 0"] == "Toggle the n-th criterion of the table"
    assert lines["Ctrl+Z"] == "Undo"
    QTest.keyClick(overlay, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: w.help_overlay is None)
    # The same table drives the menus.
    review_menu = [a.text() for a in w.menuBar().actions()]
    assert review_menu == ["&File", "&Edit", "&Go", "&Review", "&Tools", "&Help"]
    assert w.actions_by_name["accept"].shortcut().toString() == "A"


def test_data_is_shown_as_plain_text(qtbot: Any, make_window: Maker,
                                     filled_store: Store) -> None:
    w = make_window(filled_store)
    show(qtbot, w, "recette-999/1/1")
    pane = w.pane
    assert pane.response.toPlainText() == "Un événement sonore <img src=x> <b>gras</b>"
    html = pane.response.document().toHtml()
    assert "&lt;img src=x&gt;" in html and "<img" not in html
    assert pane.verdict_model.index(0, 5).data() == "Réponse <b>hors sujet</b> <img src=x>"
    # Tooltips of every table are checked in tests/ui/test_reliability_markup.py.
    assert pane.filter_line.textFormat() == Qt.TextFormat.PlainText
    assert "<b>hors sujet</b>" in pane.filter_line.text()
    row = w.model.row_of(pane.view.attempt_id if pane.view else -1)
    assert row is not None
    tip = w.model.index(row, 3).data(Qt.ItemDataRole.ToolTipRole)
    assert "&lt;b&gt;hors sujet&lt;/b&gt;" in tip and "<b>hors" not in tip

    key(w, Qt.Key.Key_N)
    w.pane.note_editor.setText("<b>gras</b> <img src=x>")
    QTest.keyClick(w.pane.note_editor, Qt.Key.Key_Return)
    idle(qtbot, w)
    assert pane.note_line.text() == "Note: <b>gras</b> <img src=x>"
    assert pane.note_line.textFormat() == Qt.TextFormat.PlainText


def test_search_and_filters_from_the_keyboard(qtbot: Any, make_window: Maker,
                                              filled_store: Store) -> None:
    w = make_window(filled_store)
    key(w, Qt.Key.Key_Slash)
    assert w.filters.search.hasFocus()
    QTest.keyClicks(w.filters.search, "evenement")
    QTest.keyClick(w.filters.search, Qt.Key.Key_Return)
    idle(qtbot, w)
    assert list(decisions(w)) == [f"{RUN}/recette-999/1/1"]
    assert w.queue.hasFocus()
    assert w.progress_label.text() == "Reviewed 0 / 1 (1 to review)"
    w.filters.search.clear()
    w.apply_filter()
    idle(qtbot, w)
    w.filters.criterion_box.setCurrentIndex(w.filters.criterion_box.findData("E-INVENTE"))
    idle(qtbot, w)
    assert decisions(w) and all(k.endswith("/2/3") for k in decisions(w))
    w.filters.criterion_box.setCurrentIndex(0)
    idle(qtbot, w)
    # Ctrl+Shift+A: the audit queue of accepted attempts.
    shortcut(w, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier
             | Qt.KeyboardModifier.ShiftModifier)
    idle(qtbot, w)
    assert len(decisions(w)) == 8 and all(k.endswith("/1/1") for k in decisions(w))
    assert w.pane.filter_line.text() == "Filter: accepted"


def test_review_state_and_contradiction_filters(qtbot: Any, make_window: Maker,
                                                filled_store: Store) -> None:
    flag(filled_store, f"{RUN}/recette-006/2/1", 0.9)
    w = make_window(filled_store)
    assert w.pane.title.text() == f"{RUN}/recette-006/2/1"  # the flagged one comes first
    key(w, Qt.Key.Key_R)
    idle(qtbot, w)
    key(w, Qt.Key.Key_A)  # D-COMMERCE still refuses it: A asks, A again accepts anyway
    key(w, Qt.Key.Key_A)
    idle(qtbot, w)
    w.filters.state_box.setCurrentIndex(w.filters.state_box.findData("reviewed"))
    idle(qtbot, w)
    assert sorted(decisions(w).values()) == ["accept", "reject"]
    assert w.progress_label.text() == "Reviewed 2 / 2 (0 to review)"
    w.filters.state_box.setCurrentIndex(w.filters.state_box.findData("overridden"))
    idle(qtbot, w)
    assert list(decisions(w).values()) == ["accept"]  # accepting a refusal overrides it
    w.filters.state_box.setCurrentIndex(w.filters.state_box.findData("to_review"))
    idle(qtbot, w)
    assert len(decisions(w)) == 22 and set(decisions(w).values()) == {None}
    w.filters.state_box.setCurrentIndex(w.filters.state_box.findData("all"))
    w.filters.flagged.setChecked(True)
    idle(qtbot, w)
    assert list(decisions(w)) == [f"{RUN}/recette-006/2/1"]
    assert w.model.index(0, 0).data().endswith("⚑")

"""A note being typed when the store cannot take it (twelfth hostile pass, P12-1 to P12-5).

The store is a real SQLite file whose write lock another process holds (``hold_lock``),
the app's connections waiting 100 ms for it: the note's write fails as it does on a full
disk, a read-only mount or a PostgreSQL server gone. What the reviewer notices: the note
is never thrown away without a word, and the window never sits dead while it is stored.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from reviewer.store import Store, open_store
from reviewer.store.database import sqlite_path
from tests.store.test_concurrent_processes import hold_lock
from tests.support.qt import idle
from tests.ui.test_review_flow import row_centre, show, stored, typing_a_note
from tests.ui.test_ui_review import shortcut
from ui.review.window import MainWindow

pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints")
Maker = Callable[[Store], MainWindow]
NOTE_ON = "recette-004/2/1"


@pytest.fixture
def waiting_store(filled_store: Store, monkeypatch: pytest.MonkeyPatch) -> Iterator[Store]:
    """The test's store opened again with a 100 ms wait for another process's lock."""
    monkeypatch.setenv("REVIEWER_BUSY_TIMEOUT_MS", "100")
    store = open_store(filled_store.url)
    yield store
    store.close()


def db_path(store: Store) -> Path:
    path = sqlite_path(store.url)
    assert path is not None
    return path


def editor_holds(w: MainWindow, text: str) -> bool:
    editor = w.pane.note_editor
    return editor.editing and editor.text() == text and w.pane.view is not None \
        and w.pane.view.attempt_id == editor.attempt_id


def test_quitting_when_the_note_cannot_be_stored_keeps_the_window_and_the_note(
        qtbot: Any, make_window: Maker, waiting_store: Store) -> None:
    # P12-1: Ctrl+Q (or the close button) with a note typed, the store unable to take it:
    # the app quit, rc 0, the note gone without a word. P12-5: under a lock the window sat
    # dead for the busy timeout first.
    w = typing_a_note(qtbot, make_window(waiting_store), "typed before a failed quit")
    holder = hold_lock(db_path(waiting_store), 3)
    QTest.keyClick(w.pane.note_editor, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)
    # The close waits for the note's answer with the event loop free, not inside it.
    assert w.isVisible() and w.note_at_close.saving
    qtbot.waitUntil(lambda: "not saved" in w.error_label.text(), timeout=20000)
    assert w.isVisible()
    assert w.error_label.text().startswith(f"Note on {NOTE_ON} not saved: ")
    assert "the database is busy" in w.error_label.text()
    assert w.error_label.text().endswith("the app stays open: Esc drops the note, then quit "
                                         "again")
    qtbot.waitUntil(lambda: editor_holds(w, "typed before a failed quit"), timeout=10000)
    assert holder.wait(timeout=30) == 0
    QTest.keyClick(w.pane.note_editor, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: not w.isVisible(), timeout=20000)
    assert stored(waiting_store, NOTE_ON)["note"] == "typed before a failed quit"


def test_a_signal_closes_even_when_the_note_cannot_be_stored_and_says_its_text(
        qtbot: Any, make_window: Maker, waiting_store: Store,
        capfd: pytest.CaptureFixture[str]) -> None:
    # P12-1 by SIGTERM: rc 143, "terminated; the window was closed…", the note gone. A
    # signal cannot wait for the reviewer: the window closes, and the note's text is on
    # standard error.
    w = typing_a_note(qtbot, make_window(waiting_store), "kept on stderr")
    holder = hold_lock(db_path(waiting_store), 3)
    w.close_now()  # what SIGTERM, SIGHUP and Ctrl-C call (ui/interrupt.py)
    qtbot.waitUntil(lambda: not w.isVisible(), timeout=20000)
    err = capfd.readouterr().err
    assert f"reviewer: Note on {NOTE_ON} not saved: " in err and "database is busy" in err, err
    assert err.rstrip().endswith("; the note was: kept on stderr"), err
    holder.wait(timeout=30)


def test_a_note_refused_while_reviewing_comes_back_in_its_editor(
        qtbot: Any, make_window: Maker, waiting_store: Store) -> None:
    # P12-3: a note saved (Enter, or a click on another row) while the store could not take
    # it was thrown away, with a line that named neither the note nor its attempt.
    w = typing_a_note(qtbot, make_window(waiting_store), "refused then kept")
    holder = hold_lock(db_path(waiting_store), 3)
    row = w.queue.currentIndex().row() + 2
    QTest.mouseClick(w.queue.viewport(), Qt.MouseButton.LeftButton,
                     pos=row_centre(w.queue, row))
    qtbot.waitUntil(lambda: "not saved" in w.error_label.text(), timeout=20000)
    assert w.error_label.text().startswith(f"Note on {NOTE_ON} not saved: ")
    assert "the database is busy" in w.error_label.text()
    # The window goes back to the note's attempt, the text in the editor.
    qtbot.waitUntil(lambda: editor_holds(w, "refused then kept"), timeout=10000)
    assert w.pane.title.text().endswith(NOTE_ON)
    assert holder.wait(timeout=30) == 0
    QTest.keyClick(w.pane.note_editor, Qt.Key.Key_Return)
    idle(qtbot, w)
    assert stored(waiting_store, NOTE_ON)["note"] == "refused then kept"


def test_back_to_the_queue_from_the_menu_keeps_the_note(
        qtbot: Any, make_window: Maker, filled_store: Store) -> None:
    # P12-2: Go → "Back to the queue" chosen from the menu while a note was typed (the
    # keyboard stays in the editor) dropped the note, as Esc typed in it does.
    w = typing_a_note(qtbot, make_window(filled_store), "kept by the menu")
    assert QApplication.focusWidget() is w.pane.note_editor
    w.actions_by_name["back"].trigger()
    idle(qtbot, w)
    assert stored(filled_store, NOTE_ON)["note"] == "kept by the menu"
    assert not w.pane.note_editor.editing
    show(qtbot, w, NOTE_ON)
    assert w.pane.note_line.text().endswith("kept by the menu")


def test_a_read_only_store_is_said_from_the_start(
        qtbot: Any, make_window: Maker, filled_store: Store) -> None:
    # P12-6: a store on a read-only mount opened with no sign that nothing could be
    # saved; the reviewer learnt it at the first refused action, or never (P12-1).
    store = open_store(filled_store.url)
    store.read_only = True  # as open_store marks it there (test below, in a namespace)
    try:
        w = make_window(store)
        assert w.windowTitle().endswith("(read-only)")
        assert w.error_label.text() == ("This store is read-only here: you can read it, and "
                                        "nothing you decide can be saved.")
    finally:
        store.close()


def test_open_store_marks_a_store_it_can_only_read(filled_store: Store, tmp_path: Path) -> None:
    from tests.reliability.faults import make_read_only, make_writable, unprivileged_prefix

    prefix = unprivileged_prefix()  # root's powers gone, so file modes apply
    folder = tmp_path / "ro"
    folder.mkdir()
    copy = folder / "copy.db"
    copy.write_bytes(db_path(filled_store).read_bytes())
    code = ("import sys; from reviewer.store import open_store; "
            "s = open_store(sys.argv[1], create=False); print(s.read_only); s.close()")
    root = Path(__file__).resolve().parents[2]
    make_read_only(folder)
    try:
        done = subprocess.run([*prefix, sys.executable, "-c", code, str(copy)], cwd=root,
                              capture_output=True, text=True, timeout=120, check=False)
    finally:
        make_writable(folder)
    assert (done.returncode, done.stdout) == (0, "True\n"), done.stderr
    writable = subprocess.run([*prefix, sys.executable, "-c", code, str(copy)], cwd=root,
                              capture_output=True, text=True, timeout=120, check=False)
    assert (writable.returncode, writable.stdout) == (0, "False\n"), writable.stderr


def toolbar_reject(w: MainWindow) -> None:
    from PySide6.QtWidgets import QToolBar

    bar = w.findChild(QToolBar, "review_toolbar")
    assert bar is not None
    button = bar.widgetForAction(w.actions_by_name["reject"])
    assert button is not None
    QTest.mouseClick(button, Qt.MouseButton.LeftButton)


def reject_behind_a_refused_note(qtbot: Any, w: MainWindow, store: Store, text: str) -> None:
    """The toolbar's Reject clicked while the note ``text`` is typed and another process
    holds the lock: the note is refused and back in its editor, the R dropped and named;
    then the lock goes."""
    w.config.auto_advance = False
    holder = hold_lock(db_path(store), 3)
    toolbar_reject(w)
    qtbot.waitUntil(lambda: "not saved" in w.error_label.text(), timeout=20000)
    idle(qtbot, w)
    assert w.error_label.text().endswith("not applied, typed after it: R"), \
        w.error_label.text()
    assert w.keys.waiting == []
    qtbot.waitUntil(lambda: editor_holds(w, text), timeout=10000)
    assert holder.wait(timeout=30) == 0


def test_a_reject_clicked_behind_a_refused_note_is_named_and_the_keys_stay_alive(
        qtbot: Any, make_window: Maker, waiting_store: Store) -> None:
    # P13-1: a note open, the store unable to take it, then the toolbar's Reject: the note
    # came back, the Reject waited behind it unnamed, every key after it was swallowed
    # (Ctrl+Q too), and closing stored the note and then the Reject nobody had seen.
    w = typing_a_note(qtbot, make_window(waiting_store), "note before reject")
    reject_behind_a_refused_note(qtbot, w, waiting_store, "note before reject")
    QTest.keyClick(w.pane.note_editor, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: not w.isVisible(), timeout=20000)
    after = stored(waiting_store, NOTE_ON)
    assert (after["note"], after["decision"]) == ("note before reject", None)


def test_a_line_naming_dropped_keys_outlives_the_next_write(
        qtbot: Any, make_window: Maker, waiting_store: Store) -> None:
    # P13-2: the same, then a click on another row: "Note saved", and the Reject was
    # dropped without a word (its line cleared by the note's success).
    w = typing_a_note(qtbot, make_window(waiting_store), "then a click")
    reject_behind_a_refused_note(qtbot, w, waiting_store, "then a click")
    row = w.queue.currentIndex().row() + 2
    QTest.mouseClick(w.queue.viewport(), Qt.MouseButton.LeftButton,
                     pos=row_centre(w.queue, row))
    idle(qtbot, w)
    assert stored(waiting_store, NOTE_ON)["note"] == "then a click"
    assert w.error_label.text() == "Not applied: R (typed after a change that was not stored)"


def test_keys_typed_while_the_quit_waits_change_nothing(
        qtbot: Any, make_window: Maker, waiting_store: Store) -> None:
    # P13-4: keys typed while Ctrl+Q waited on a lock went into the search box ("rj": the
    # queue said "No match"), and Esc typed to clear it then dropped the note.
    w = typing_a_note(qtbot, make_window(waiting_store), "wait for me")
    holder = hold_lock(db_path(waiting_store), 3)
    QTest.keyClick(w.pane.note_editor, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)
    for k in (Qt.Key.Key_R, Qt.Key.Key_J, Qt.Key.Key_Escape):
        QTest.keyClick(QApplication.focusWidget() or w, k)
    assert w.filters.search.text() == "" and w.pane.note_editor.text() == "wait for me"
    qtbot.waitUntil(lambda: "not saved" in w.error_label.text(), timeout=20000)
    assert f"Note on {NOTE_ON} not saved" in w.error_label.text()  # named (P13-7)
    qtbot.waitUntil(lambda: editor_holds(w, "wait for me"), timeout=10000)
    assert not w.pane.note_editor.isReadOnly()
    assert holder.wait(timeout=30) == 0
    QTest.keyClick(w.pane.note_editor, Qt.Key.Key_Return)
    idle(qtbot, w)
    assert stored(waiting_store, NOTE_ON)["note"] == "wait for me"
    assert stored(waiting_store, NOTE_ON)["decision"] is None


def test_an_undo_typed_while_the_quit_waits_is_not_applied(
        qtbot: Any, make_window: Maker, waiting_store: Store) -> None:
    # P14-1: Ctrl+Z during a quit waiting for the note ran once the note was refused and
    # undid the Reject 4-8 s after the key, under "Note saved" only.
    w = make_window(waiting_store)
    w.config.auto_advance = False
    show(qtbot, w, NOTE_ON)
    QTest.keyClick(QApplication.focusWidget() or w, Qt.Key.Key_R)
    idle(qtbot, w)
    assert stored(waiting_store, NOTE_ON)["decision"] == "reject"
    typing_a_note(qtbot, w, "undo while quitting")
    holder = hold_lock(db_path(waiting_store), 3)
    QTest.keyClick(w.pane.note_editor, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)
    w.actions_by_name["undo"].trigger()
    assert w.error_label.text().startswith("Not applied: Ctrl+Z")
    qtbot.waitUntil(lambda: editor_holds(w, "undo while quitting"), timeout=20000)
    assert holder.wait(timeout=30) == 0
    idle(qtbot, w)
    assert stored(waiting_store, NOTE_ON)["decision"] == "reject"


def rejected_then(qtbot: Any, w: MainWindow, action: str) -> MainWindow:
    """``w`` after a Reject on NOTE_ON, and its undo too when ``action`` is "redo" (so
    that there is something to redo)."""
    w.config.auto_advance = False
    show(qtbot, w, NOTE_ON)
    w.decide("reject")
    idle(qtbot, w)
    if action == "redo":
        w.actions_by_name["undo"].trigger()
        idle(qtbot, w)
        assert stored(w.tasks.store, NOTE_ON)["decision"] is None
    return w


@pytest.mark.parametrize("action", ["undo", "redo"])
def test_a_refused_undo_or_redo_names_itself(
        qtbot: Any, make_window: Maker, waiting_store: Store, action: str) -> None:
    # P14-3: an Undo refused under a lock said only "…db: the database is busy …; nothing
    # was changed, try again", over the line it replaced: not which change stayed.
    w = rejected_then(qtbot, make_window(waiting_store), action)
    holder = hold_lock(db_path(waiting_store), 3)
    modifiers = Qt.KeyboardModifier.ControlModifier
    if action == "redo":
        modifiers |= Qt.KeyboardModifier.ShiftModifier
    shortcut(w, Qt.Key.Key_Z, modifiers)
    qtbot.waitUntil(lambda: "busy" in w.error_label.text(), timeout=20000)
    label = "Undo" if action == "undo" else "Redo"
    assert w.error_label.text().startswith(f"{label} of reject {NOTE_ON} not saved: "), \
        w.error_label.text()
    assert holder.wait(timeout=30) == 0
    idle(qtbot, w)
    assert stored(waiting_store, NOTE_ON)["decision"] == ("reject" if action == "undo"
                                                         else None)


@pytest.mark.parametrize("action", ["undo", "redo"])
def test_undo_from_the_menu_with_a_note_open_changes_nothing_and_says_so(
        qtbot: Any, make_window: Maker, filled_store: Store, action: str) -> None:
    # V8 (5): Edit → Undo with a note open undid the reject the menu named, then stored the
    # note over the redo it had made: Redo greyed out, "Note saved" the only line.
    w = rejected_then(qtbot, make_window(filled_store), action)
    before = stored(filled_store, NOTE_ON)["decision"]
    typing_a_note(qtbot, w, "open during the menu's undo")
    w.actions_by_name[action].trigger()
    idle(qtbot, w)
    verb = "undone" if action == "undo" else "redone"
    assert w.error_label.text() == (f"Not {verb}: a note is open; Enter saves it, Esc drops "
                                    f"it, then {action}")
    assert stored(filled_store, NOTE_ON)["decision"] == before
    assert editor_holds(w, "open during the menu's undo")
    QTest.keyClick(w.pane.note_editor, Qt.Key.Key_Return)
    idle(qtbot, w)
    assert stored(filled_store, NOTE_ON)["note"] == "open during the menu's undo"
    assert w.actions_by_name["undo"].text() == f"Undo: note on {NOTE_ON}"

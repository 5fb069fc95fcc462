"""A quit never waits without bound on background work (fifteenth hostile pass, P15-3,
P15-5 and P15-12).

P15-3: Tools → Export… to a FIFO no one reads said "Exporting…" for ever (the dialog now
refuses it: tests/ui/test_export_dialog.py); Ctrl+Q then left the window on screen, deaf
to keys, clicks, SIGTERM and SIGINT, until a reader came.
P15-5: behind a PostgreSQL connection that stays open and silent (a TCP proxy that stops
forwarding, ``tests/support/stalling_proxy.py``), a Reject waited 78 s with no line, and
Ctrl+Q and SIGTERM did not close the window, even with no write pending.

What the reviewer notices now: a write unanswered for a few seconds is said in the status
bar; a quit waits a bounded time, the window live and saying what it waits for, then
closes anyway, naming on standard error what it did not wait for; nothing is stored
late.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from reviewer.store import Store, open_store
from tests.store.test_concurrent_processes import hold_lock
from tests.support.pg_server import PgServer
from tests.support.qt import idle
from tests.support.stalling_proxy import StallingProxy
from tests.ui.test_note_faults import db_path, editor_holds, waiting_store
from tests.ui.test_review_flow import audit_events, show, typing_a_note
from tests.ui.test_ui_review import key, stored
from ui.review.window import MainWindow

pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints")
Maker = Callable[[Store], MainWindow]
ON = "recette-004/2/1"
__all__ = ["waiting_store"]  # a fixture of test_note_faults, used here


# --- P15-5: a PostgreSQL connection that stalls ---------------------------------------
@pytest.fixture
def proxy(pg_server: PgServer) -> Iterator[StallingProxy]:
    """A stalling proxy in front of the test PostgreSQL; closed after the test."""
    made = StallingProxy(pg_server.port).start()
    yield made
    made.close()


@pytest.fixture
def proxied(filled_store: Store, proxy: StallingProxy,
            monkeypatch: pytest.MonkeyPatch) -> Iterator[Store]:
    """The test's PostgreSQL store, opened through the proxy; a quit waits 1.5 s."""
    monkeypatch.setenv("REVIEWER_QUIT_WAIT_MS", "1500")
    store = open_store(proxy.url(filled_store.url))
    yield store
    proxy.close()  # a worker still blocked on the stalled socket fails now
    store.close()


def answered(qtbot: Any, w: MainWindow, proxy: StallingProxy) -> None:
    """Break the stalled connections and wait until every job has answered."""
    proxy.close()
    qtbot.waitUntil(lambda: w.tasks.idle, timeout=60000)
    QApplication.processEvents()


@pytest.mark.parametrize("backend", ["postgresql"], indirect=True)
@pytest.mark.postgres
def test_a_write_the_database_does_not_answer_is_said_and_the_quit_ends(
        qtbot: Any, make_window: Maker, proxied: Store, proxy: StallingProxy,
        filled_store: Store, capfd: pytest.CaptureFixture[str]) -> None:
    w = make_window(proxied)
    show(qtbot, w, ON)
    proxy.stall()
    try:
        key(w, Qt.Key.Key_R)
        # Said after a few seconds, naming the write (P15-5: 78 s with no line).
        qtbot.waitUntil(lambda: w.error_label.text() ==
                        f"Reject of {ON} waiting for the database…", timeout=20000)
        w.actions_by_name["quit"].trigger()
        # The window stays live, saying what the quit waits for, its keys refused.
        assert w.isVisible()
        assert w.message_label.text().startswith("Closing once this is done (")
        assert w.message_label.text().endswith(f"s at most): Reject of {ON}")
        w.actions_by_name["next"].trigger()
        assert w.error_label.text() == "Not applied: J  /  Down (the app is closing)"
        # Then it closes anyway, saying what it did not wait for.
        qtbot.waitUntil(lambda: not w.isVisible(), timeout=30000)
        assert w.error_label.text() == (f"Closed without waiting any longer for: Reject of "
                                        f"{ON}; it may not have been stored")
        err = capfd.readouterr().err
        assert (f"reviewer: quit without waiting any longer for: Reject of {ON} (no answer "
                "within 1.5 s); it may not have been stored") in err.splitlines(), err
    finally:
        answered(qtbot, w, proxy)
    # Not stored late: the connection's transaction died with it.
    assert stored(filled_store, ON)["decision"] is None


@pytest.mark.parametrize("backend", ["postgresql"], indirect=True)
@pytest.mark.postgres
def test_a_signal_ends_the_wait_on_a_silent_database_with_no_write_pending(
        qtbot: Any, make_window: Maker, proxied: Store, proxy: StallingProxy,
        capfd: pytest.CaptureFixture[str]) -> None:
    # P15-5: with only `j j` typed during the stall, Ctrl+Q left the window up for over
    # 30 s and SIGTERM was ignored; it closed when traffic resumed.
    w = make_window(proxied)
    proxy.stall()
    try:
        key(w, Qt.Key.Key_J)  # the next attempt's read waits on the silent connection
        w.close_now()  # what SIGTERM, SIGHUP and Ctrl-C call (ui/interrupt.py)
        assert w.isVisible()
        assert w.message_label.text().startswith("Closing once the database answers (")
        qtbot.waitUntil(lambda: not w.isVisible(), timeout=30000)
        err = capfd.readouterr().err
        assert ("reviewer: quit without waiting any longer for the database (no answer "
                "within 1.5 s); nothing was waiting to be stored") in err.splitlines(), err
    finally:
        answered(qtbot, w, proxy)


@pytest.mark.parametrize("backend", ["postgresql"], indirect=True)
@pytest.mark.postgres
def test_a_note_at_quit_the_database_does_not_answer_is_written_on_stderr(
        qtbot: Any, make_window: Maker, proxied: Store, proxy: StallingProxy,
        filled_store: Store, capfd: pytest.CaptureFixture[str]) -> None:
    w = typing_a_note(qtbot, make_window(proxied), "typed then stalled")
    proxy.stall()
    try:
        w.actions_by_name["quit"].trigger()
        assert w.isVisible() and w.note_at_close.saving
        qtbot.waitUntil(lambda: not w.isVisible(), timeout=30000)
        lines = capfd.readouterr().err.splitlines()
        assert (f"reviewer: quit without waiting any longer for: Note on {ON} (no answer "
                "within 1.5 s); it may not have been stored") in lines, lines
        assert f"reviewer: {ON}: the note was: typed then stalled" in lines, lines
    finally:
        answered(qtbot, w, proxy)
    assert stored(filled_store, ON)["note"] == ""


# --- P15-12: the quit's wait for a note ----------------------------------------------
def test_bulk_is_refused_while_a_quit_waits_for_the_note(
        qtbot: Any, make_window: Maker, waiting_store: Store) -> None:
    # P15-12 (1): Ctrl+B opened the Bulk dialog while the quit waited for the note (Undo
    # and Redo were refused), and its Apply stored 63 decisions behind the note.
    w = typing_a_note(qtbot, make_window(waiting_store), "held")
    holder = hold_lock(db_path(waiting_store), 3)
    QTest.keyClick(w.pane.note_editor, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)
    assert w.note_at_close.saving
    w.actions_by_name["bulk"].trigger()
    assert w.bulk_dialog is None
    assert w.error_label.text() == ("Not applied: Ctrl+B (the app is closing once the "
                                    "note is stored)")
    # P15-12 (2), "Redo from the menu named Ctrl+Z": with no step to redo, Redo is greyed
    # and the menu's arrow keys pass over it, so Enter chose Undo; Redo names its own keys.
    w.actions_by_name["redo"].setEnabled(True)
    w.actions_by_name["redo"].trigger()
    assert w.error_label.text() == ("Not applied: Ctrl+Shift+Z  /  Ctrl+Y (the app is "
                                    "closing once the note is stored)")
    qtbot.waitUntil(lambda: editor_holds(w, "held"), timeout=20000)
    assert holder.wait(timeout=30) == 0
    key(w.pane.note_editor, Qt.Key.Key_Escape)
    idle(qtbot, w)
    assert audit_events(waiting_store) == 0

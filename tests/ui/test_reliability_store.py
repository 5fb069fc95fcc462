"""Database faults seen from the app: a second instance on the same file, a busy file, a
file that is not ours (left byte for byte as it was).

See also tests/store/test_store.py (backup, restore on a failed upgrade, newer schema) and
tests/store/test_concurrent_processes.py (busy file and short lock through the store API).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from sqlalchemy import make_url, text

from reviewer.errors import StoreError
from reviewer.keys import AttemptKey
from reviewer.store import Store, open_store
from tests.store.test_concurrent_processes import hold_lock
from tests.support.pg_server import PgServer
from tests.support.qt import idle
from ui.review.undo_text import where
from ui.review.window import MainWindow

ROOT = Path(__file__).resolve().parents[2]
RUN = "2026-10-14-ministral-8b"
pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def rollback_journal_db(path: Path, *statements: str) -> Path:
    """A SQLite file in the default (rollback journal) mode, as other programs make them."""
    conn = sqlite3.connect(path)
    for sql in statements:
        conn.execute(sql)
    conn.commit()
    conn.close()
    return path


@pytest.mark.parametrize(("statements", "message"), [
    (("CREATE TABLE contacts (name TEXT)", "INSERT INTO contacts VALUES ('Zoé')"),
     "no reviewer schema version"),
    (("CREATE TABLE alembic_version (version_num TEXT)",
      "INSERT INTO alembic_version VALUES ('9999_future')", "CREATE TABLE runs (id INTEGER)"),
     "newer than this version of reviewer"),
], ids=["other-application", "newer-schema"])
def test_a_sqlite_file_that_is_not_ours_is_left_byte_for_byte(
    tmp_path: Path, statements: tuple[str, ...], message: str
) -> None:
    # Opening it the normal way would switch it to WAL, rewriting its header.
    path = rollback_journal_db(tmp_path / "other.sqlite3", *statements)
    before = digest(path)
    with pytest.raises(StoreError, match=message):
        open_store(str(path))
    assert digest(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.sqlite3"]


def press_a(window: MainWindow) -> None:
    """Accept as a reviewer does: A, and A again when the pane asks (the filter refuses)."""
    QTest.keyClick(QApplication.focusWidget() or window, Qt.Key.Key_A)
    if window.pane.question_box.isVisible():
        QTest.keyClick(QApplication.focusWidget() or window, Qt.Key.Key_A)


def show(qtbot: Any, window: MainWindow, name: str) -> None:
    """Select an attempt by key and wait until the pane shows it."""
    window.select_key(AttemptKey.parse(f"{RUN}/{name}"))
    qtbot.waitUntil(lambda: window.pane.view is not None
                    and str(window.pane.view.key) == f"{RUN}/{name}", timeout=10000)
    idle(qtbot, window)


def decisions_in(path: Path) -> list[tuple[str, str | None]]:
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        return conn.execute(
            "SELECT c.name || '/' || a.turn || '/' || a.attempt, d.decision "
            "FROM review_decisions d JOIN attempts a ON a.id = d.attempt_id "
            "JOIN conversations c ON c.id = a.conversation_id ORDER BY 1").fetchall()
    finally:
        conn.close()


@pytest.fixture
def second_instance(filled_store: Store, tmp_path: Path) -> Iterator[Callable[..., list[str]]]:
    """Run a second review window (its own process) that accepts the given attempts."""
    procs: list[subprocess.Popen[str]] = []

    def start(*names: str) -> list[str]:
        proc = subprocess.Popen(
            [sys.executable, "-m", "tests.support.app_process", filled_store.url.removeprefix(
                "sqlite:///"), str(tmp_path / "other-settings"), *(f"{RUN}/{n}" for n in names)],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT,
            env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
        procs.append(proc)
        assert proc.stdout is not None
        said = []
        for line in proc.stdout:
            said.append(line.strip())
            if said[-1] == "idle" or said[-1].startswith("timeout"):
                break
        return said

    yield start
    for proc in procs:
        proc.kill()
        proc.wait(timeout=30)
        if proc.stdout is not None:
            proc.stdout.close()


@pytest.mark.slow
def test_two_app_instances_on_one_file(
    qtbot: Any, make_window: Callable[[Store], MainWindow], filled_store: Store,
    second_instance: Callable[..., list[str]]
) -> None:
    window = make_window(filled_store)
    show(qtbot, window, "recette-001/2/1")
    press_a(window)
    idle(qtbot, window)
    # The other instance opens the same file while this one holds it open, and decides.
    said = second_instance("recette-002/2/1", "recette-003/2/1")
    assert said[-1] == "idle", said
    show(qtbot, window, "recette-004/2/1")
    press_a(window)
    idle(qtbot, window)
    assert window.error_label.text() == ""
    assert decisions_in(Path(filled_store.url.removeprefix("sqlite:///"))) == [
        (f"recette-00{i}/2/1", "accept") for i in range(1, 5)]
    # This window reads what the other wrote.
    show(qtbot, window, "recette-002/2/1")
    assert window.pane.review_line.text() == "Your decision: accept"


@pytest.mark.slow
def test_busy_file_is_one_clear_line_in_the_app_and_nothing_is_lost(
    qtbot: Any, make_window: Callable[[Store], MainWindow], filled_store: Store,
    monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REVIEWER_BUSY_TIMEOUT_MS", "100")
    path = Path(filled_store.url.removeprefix("sqlite:///"))
    store = open_store(str(path))  # its connections wait 100 ms for a lock
    try:
        window = make_window(store)
        show(qtbot, window, "recette-001/2/1")
        holder = hold_lock(path, 3)  # another process writes for 3 s
        press_a(window)
        qtbot.waitUntil(lambda: "busy" in window.error_label.text(), timeout=10000)
        assert window.error_label.text().endswith(
            "the database is busy (another process is writing to it); nothing was changed, "
            "try again")
        # The window had moved on to the next attempt; it comes back to the refused one.
        qtbot.waitUntil(lambda: window.pane.view is not None
                        and str(window.pane.view.key) == f"{RUN}/recette-001/2/1",
                        timeout=10000)
        idle(qtbot, window)
        assert window.pane.title.text() == f"{RUN}/recette-001/2/1"
        assert window.pane.review_line.text() == "Your decision: not reviewed yet"
        assert "busy" in window.error_label.text()
        assert holder.wait(timeout=30) == 0
        assert decisions_in(path) == []  # nothing half-written
        press_a(window)  # once the other process is done, the same key works
        idle(qtbot, window)
        assert window.error_label.text() == ""
        assert decisions_in(path) == [("recette-001/2/1", "accept")]
    finally:
        store.close()


@contextlib.contextmanager
def another_session(filled_store: Store, monkeypatch: pytest.MonkeyPatch
                    ) -> Iterator[tuple[Store, psycopg.Connection[Any]]]:
    """A store whose connections wait 300 ms for a lock, and another PostgreSQL session
    (its transaction left open by the test) to hold locks against it."""
    monkeypatch.setenv("REVIEWER_BUSY_TIMEOUT_MS", "300")
    store = open_store(filled_store.url)
    holder = psycopg.connect(filled_store.url.replace("postgresql+psycopg://", "postgresql://"))
    try:
        yield store, holder
    finally:
        holder.close()
        store.close()


@pytest.mark.postgres
@pytest.mark.parametrize("backend", ["postgresql"], indirect=True)
def test_a_row_locked_on_postgresql_is_busy_in_the_app_not_a_silent_wait(
    qtbot: Any, make_window: Callable[[Store], MainWindow], filled_store: Store,
    monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seventh hostile pass, H1: with another session holding the attempt's row lock (a
    stopped `decide --from-csv`), Accept waited with no limit: the status bar said
    nothing and every later action stayed blocked behind it."""
    with another_session(filled_store, monkeypatch) as (store, holder):
        window = make_window(store)
        show(qtbot, window, "recette-001/2/1")
        aid = window.pane.view.attempt_id if window.pane.view is not None else None
        holder.execute("SELECT id FROM attempts WHERE id = %s FOR UPDATE", (aid,))
        press_a(window)
        qtbot.waitUntil(lambda: "busy" in window.error_label.text(), timeout=30000)
        assert window.error_label.text().endswith(
            "the database is busy (another session is writing the same rows); the change "
            "in progress was not saved, try again")
        qtbot.waitUntil(lambda: window.pane.view is not None
                        and str(window.pane.view.key) == f"{RUN}/recette-001/2/1",
                        timeout=10000)
        idle(qtbot, window)
        assert window.pane.review_line.text() == "Your decision: not reviewed yet"
        holder.rollback()
        press_a(window)  # the lock let go, the same key works
        idle(qtbot, window)
        assert window.error_label.text() == ""
        with store.session() as s:
            assert s.execute(text("SELECT decision FROM review_decisions WHERE "
                                  "attempt_id = :a"), {"a": aid}).all() == [("accept",)]


def test_opening_the_file_again_keeps_the_open_stores_wal(filled_store: Store) -> None:
    # A plain open()/close() of the file (to read its header, say) would drop every POSIX
    # lock this process holds on it: the next process to close it would then think it was
    # the last user, checkpoint and delete the WAL and its index under the open store.
    path = Path(filled_store.url.removeprefix("sqlite:///"))
    with filled_store.session() as s:
        s.execute(text("SELECT count(*) FROM attempts"))
    again = open_store(str(path))
    try:
        hold_lock(path, 0).wait(timeout=30)  # another process writes, commits, exits
        assert {p.name for p in path.parent.iterdir()} >= {
            "reviewer.sqlite3-wal", "reviewer.sqlite3-shm"}
        with filled_store.session() as s:
            assert s.execute(text("SELECT source FROM runs")).scalars().all() == [
                "other process"]
        assert decisions_in(path) == []
    finally:
        again.close()


def test_keys_typed_behind_a_busy_decision_are_named_not_dropped(
    qtbot: Any, make_window: Callable[[Store], MainWindow], filled_store: Store,
    monkeypatch: pytest.MonkeyPatch
) -> None:
    # Seventh hostile pass, K1: R, then J J while the store was locked by another process:
    # "the database is busy …", the window back on the refused attempt, and the two J
    # gone without a word (docs/review.md: "never dropped silently").
    monkeypatch.setenv("REVIEWER_BUSY_TIMEOUT_MS", "1000")
    path = Path(filled_store.url.removeprefix("sqlite:///"))
    store = open_store(str(path))
    try:
        window = make_window(store)
        show(qtbot, window, "recette-001/2/1")
        holder = hold_lock(path, 4)
        for k in (Qt.Key.Key_R, Qt.Key.Key_J, Qt.Key.Key_J):
            QTest.keyClick(QApplication.focusWidget() or window, k)
        qtbot.waitUntil(lambda: "busy" in window.error_label.text(), timeout=15000)
        qtbot.waitUntil(lambda: window.pane.view is not None
                        and str(window.pane.view.key) == f"{RUN}/recette-001/2/1",
                        timeout=10000)
        idle(qtbot, window)
        line = window.error_label.text()
        assert line.startswith("Reject of recette-001/2/1 not saved: ")
        assert "the database is busy" in line
        assert line.endswith("; not applied, typed after it: J J"), line
        assert holder.wait(timeout=30) == 0
        assert decisions_in(path) == []
    finally:
        store.close()


def _database_gone(server: PgServer, name: str) -> None:
    """The database goes away under the app: its sessions ended, then renamed (as a team
    moving it, or the server going down: the next connection is refused)."""
    for _ in range(100):
        server.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                       f"WHERE datname = '{name}' AND pid <> pg_backend_pid()")
        try:
            server.execute(f'ALTER DATABASE "{name}" RENAME TO "{name}_away"')
            return
        except psycopg.errors.ObjectInUse:  # a session came back meanwhile
            time.sleep(0.05)
    raise AssertionError(f"{name} could not be taken away")


def _decided(store: Store) -> list[str]:
    with store.session() as s:
        return [str(r[0]) for r in s.execute(text(
            "SELECT c.name || '/' || a.turn || '/' || a.attempt FROM review_decisions d "
            "JOIN attempts a ON a.id = d.attempt_id "
            "JOIN conversations c ON c.id = a.conversation_id ORDER BY 1")).all()]


@pytest.mark.postgres
@pytest.mark.parametrize("backend", ["postgresql"], indirect=True)
def test_keys_typed_while_postgresql_is_gone_are_refused_never_replayed_on_a_click(
    qtbot: Any, make_window: Callable[[Store], MainWindow], filled_store: Store,
    pg_server: PgServer
) -> None:
    """Ninth hostile pass, K2/K3: with the server gone, R typed five times showed "cannot
    reach the PostgreSQL server", then every key (J, Ctrl+Q) was held, and stayed held
    after the server was back; the next mouse click on a row applied the held R's to the
    clicked row and the rows after it, then the held Ctrl+Q quit."""
    window = make_window(filled_store)
    show(qtbot, window, "recette-001/2/1")
    name = make_url(filled_store.url).database
    assert name is not None
    _database_gone(pg_server, name)
    try:
        QTest.keyClick(QApplication.focusWidget() or window, Qt.Key.Key_R)
        idle(qtbot, window)
        # The reject's own line stays: the failed read of the attempt it went back to
        # used to replace it with the bare error, which did not say the R was not saved.
        first = window.error_label.text()
        for _ in range(4):
            qtbot.wait(300)  # typed, not pasted
            QTest.keyClick(QApplication.focusWidget() or window, Qt.Key.Key_R)
        idle(qtbot, window)
        line = window.error_label.text()
    finally:
        pg_server.execute(f'ALTER DATABASE "{name}_away" RENAME TO "{name}"')
    # (c) the status bar says that nothing was decided, and why.
    assert re.fullmatch(r"Reject of recette-001/2/1 not saved: .*: cannot reach the "
                        r"PostgreSQL server \(.*\)", first), first
    assert re.fullmatch(r"Not applied, nothing was stored: R( R)* — recette-001/2/1 could "
                        r"not be read: .*: cannot reach the PostgreSQL server \(.*\)", line), line
    # (a) the server is back: the keyboard works at once, no click needed.
    row = window.queue.currentIndex().row()
    QTest.keyClick(QApplication.focusWidget() or window, Qt.Key.Key_J)
    assert window.queue.currentIndex().row() == row + 1
    qtbot.waitUntil(lambda: window.pane.view is not None
                    and window.pane.view.attempt_id == window.current_id, timeout=15000)
    idle(qtbot, window)
    # (b) a click on another row applies nothing typed before it.
    index = window.model.index(row + 4, 1)
    QTest.mouseClick(window.queue.viewport(), Qt.MouseButton.LeftButton,
                     pos=window.queue.visualRect(index).center())
    qtbot.waitUntil(lambda: window.pane.view is not None
                    and window.pane.view.attempt_id == window.current_id, timeout=15000)
    idle(qtbot, window)
    assert window.queue.currentIndex().row() == row + 4
    assert _decided(filled_store) == []
    # The next decision key works as usual on the attempt shown.
    shown = where(window.pane.view.key)
    QTest.keyClick(QApplication.focusWidget() or window, Qt.Key.Key_R)
    idle(qtbot, window)
    assert _decided(filled_store) == [shown]
    QTest.keyClick(QApplication.focusWidget() or window, Qt.Key.Key_Q,
                   Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=15000)


@pytest.mark.postgres
@pytest.mark.parametrize("backend", ["postgresql"], indirect=True)
def test_the_first_key_once_postgresql_is_back_reads_the_attempt_again_and_applies(
    qtbot: Any, make_window: Callable[[Store], MainWindow], filled_store: Store,
    pg_server: PgServer
) -> None:
    """K2/K3: the attempt whose read failed during the outage is read again by the next
    key that acts on it: once the server is back, that key works as usual, on it."""
    window = make_window(filled_store)
    show(qtbot, window, "recette-001/2/1")
    name = make_url(filled_store.url).database
    assert name is not None
    _database_gone(pg_server, name)
    try:
        QTest.keyClick(QApplication.focusWidget() or window, Qt.Key.Key_R)
        idle(qtbot, window)
    finally:
        pg_server.execute(f'ALTER DATABASE "{name}_away" RENAME TO "{name}"')
    assert window.pane.title.text() == f"{RUN}/recette-001/2/1"
    QTest.keyClick(QApplication.focusWidget() or window, Qt.Key.Key_R)
    idle(qtbot, window)
    assert _decided(filled_store) == ["recette-001/2/1"]
    assert window.error_label.text() == ""


@pytest.mark.postgres
@pytest.mark.parametrize("backend", ["postgresql"], indirect=True)
def test_a_queue_whose_first_read_failed_is_read_again_by_the_next_move(
    qtbot: Any, make_window: Callable[[Store], MainWindow], filled_store: Store,
    monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tenth hostile pass, Z6: the first queue read failed (a table lock held by another
    session), and the queue stayed empty after the lock was gone: J said "End of the
    queue" under the stale red line, and only changing a filter read it again."""
    with another_session(filled_store, monkeypatch) as (store, holder):
        holder.execute("LOCK TABLE attempts IN ACCESS EXCLUSIVE MODE")
        window = make_window(store)
        qtbot.waitUntil(lambda: "busy" in window.error_label.text(), timeout=30000)
        idle(qtbot, window)
        assert window.model.rowCount() == 0
        holder.rollback()
        QTest.keyClick(QApplication.focusWidget() or window, Qt.Key.Key_J)
        qtbot.waitUntil(lambda: window.pane.view is not None, timeout=30000)
        idle(qtbot, window)
        assert window.model.rowCount() > 0
        assert window.error_label.text() == ""
        assert window.message_label.text() != "End of the queue"

"""The Calibration window when the store cannot take a score, and when the grading file
chosen is not a file (fifteenth hostile pass, P15-2, P15-4 and P15-13 (1)).

Real stores: a SQLite file whose write lock another process holds (``hold_lock``, the
app's connections waiting 100 ms for it), a PostgreSQL row locked by another session.
What the reviewer notices: a score is stored or refused in a line naming the answer and
the score, the cursor back on it; closing the window never drops a score silently; a
score shown as stored is in the store for any other process; a pipe is refused at once.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QLineEdit

from reviewer.calibration.sets import human_of, list_sets
from reviewer.store import Store, open_store
from reviewer.store.database import sqlite_path
from tests.store.test_concurrent_processes import hold_lock
from tests.ui.test_calibration_window import (
    DATA,
    WHO,
    column,
    open_window,
    open_with_keyboard,
    press,
)
from ui.tasks import TaskManager
from ui.tools.calibration import CalibrationWindow

pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints",
                                       "does not support raise",
                                       "does not support grabbing the keyboard")
BUSY = "the database is busy"


@contextlib.contextmanager
def waiting(url: str, monkeypatch: pytest.MonkeyPatch, wait_ms: int = 100
            ) -> Iterator[tuple[Store, TaskManager]]:
    """The store at ``url`` opened again, its connections waiting ``wait_ms`` for a lock,
    with the app's task manager on it."""
    monkeypatch.setenv("REVIEWER_BUSY_TIMEOUT_MS", str(wait_ms))
    store = open_store(url)
    tasks = TaskManager(store)
    try:
        yield store, tasks
    finally:
        tasks.shutdown()
        store.close()


def file_path(store: Store) -> Path:
    path = sqlite_path(store.url)
    assert path is not None
    return path


def scored(qtbot: Any, tasks: TaskManager, folder: Path, *keys: Qt.Key
           ) -> CalibrationWindow:
    """A Calibration window with the grading file opened from the keyboard, ``keys``
    typed."""
    grading = folder / "notes.jsonl"
    shutil.copyfile(DATA, grading)
    window = open_window(qtbot, tasks)
    open_with_keyboard(qtbot, window, grading)
    press(qtbot, window, *keys)
    return window


def another_process_reads(path: Path) -> int:
    """How many calibration scores another process finds in the store (it opens the file,
    reads, closes it: as `reviewer export calibration` does)."""
    code = ("import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
            "print(c.execute('SELECT count(*) FROM calibration_scores').fetchone()[0]); "
            "c.close()")
    done = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True,
                          text=True, check=True, timeout=60)
    return int(done.stdout)


def test_a_score_shown_as_stored_is_in_the_store_after_the_file_dialog(
        qtbot: Any, tmp_path: Path) -> None:
    # P15-2 (b): Qt's file dialog read every file of the folder to guess its type, the
    # store's among them; closing them dropped this process's SQLite locks. The next
    # process to close the store deleted its write-ahead log, and the scores typed after
    # showed as stored ("Group scored") but were in a deleted file: committed at quit,
    # lost to SIGKILL. A `.db` name, as the pass's, is one Qt guesses from the content.
    store = open_store(str(tmp_path / "scores.db"))
    tasks = TaskManager(store)
    try:
        window = scored(qtbot, tasks, tmp_path)
        path = file_path(store)
        assert another_process_reads(path) == 0
        press(qtbot, window, Qt.Key.Key_5, Qt.Key.Key_3)
        assert column(window, "You") == ["5", "3", "", ""]
        assert another_process_reads(path) == 2
        assert Path(f"{path}-wal").exists()
        window.close()
    finally:
        tasks.shutdown()
        store.close()
    with sqlite3.connect(path) as conn:  # and nothing was left for a quit to write
        assert conn.execute("SELECT count(*) FROM calibration_scores").fetchone() == (2,)


@pytest.mark.parametrize(("suffix", "role"), [("", "the open database"),
                                              ("-wal", "the write-ahead log of the open "
                                                       "database")])
def test_the_open_store_chosen_as_the_grading_file_is_refused_unread(
        qtbot: Any, tmp_path: Path, suffix: str, role: str) -> None:
    # The store's files sit beside the grading file in the same dialog: reading one as a
    # grading file would open and close it, dropping the store's locks as above.
    store = open_store(str(tmp_path / "scores.db"))
    tasks = TaskManager(store)
    try:
        window = scored(qtbot, tasks, tmp_path)
        path = file_path(store)
        chosen = Path(f"{path}{suffix}")
        window.open_file(chosen)
        assert window.status.text() == f"{chosen}: it is {role} ({path}); give a JSON lines file"
        assert tasks.pending == 0
        assert another_process_reads(path) == 0
        press(qtbot, window, Qt.Key.Key_5)
        assert another_process_reads(path) == 1
        window.close()
    finally:
        tasks.shutdown()
        store.close()


@pytest.fixture
def fifo(tmp_path: Path) -> Iterator[Path]:
    """A named pipe with no writer; opened for writing at the end, so that a reader the
    test failed to prevent gets its end of file instead of blocking the teardown."""
    path = tmp_path / "calfifo.jsonl"
    os.mkfifo(path)
    yield path
    with contextlib.suppress(OSError):  # ENXIO: no reader, nothing waits on it
        os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))


def test_a_pipe_chosen_as_the_grading_file_is_refused_at_once(
        qtbot: Any, task_manager: TaskManager, fifo: Path) -> None:
    # P15-4: the dialog accepted a FIFO; the window said "Opening calfifo.jsonl…" for
    # ever, its read holding the app's one store thread. The CLI refuses it at once.
    window = open_window(qtbot, task_manager)
    qtbot.keyClick(window.answers, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.findChild(QFileDialog, "open_dialog") is not None)
    name = window.findChild(QFileDialog, "open_dialog").findChild(QLineEdit, "fileNameEdit")
    qtbot.waitUntil(name.hasFocus)
    qtbot.keyClicks(name, str(fifo))
    qtbot.keyClick(name, Qt.Key.Key_Return)
    assert window.status.text() == (f"{fifo}: is a pipe, not a file; give a JSON lines "
                                    "file saved as a file")
    assert task_manager.pending == 0  # no read was started
    window.close()


@pytest.mark.parametrize(("where", "kind"), [("/dev/null", "a device"), (".", "a folder")])
def test_a_device_or_a_folder_is_refused_at_once(
        qtbot: Any, task_manager: TaskManager, tmp_path: Path, where: str, kind: str) -> None:
    window = open_window(qtbot, task_manager)
    path = tmp_path if where == "." else Path(where)
    window.open_file(path)
    assert window.status.text() == (f"{path}: is {kind}, not a file; give a JSON lines file "
                                    "saved as a file")
    assert task_manager.pending == 0
    window.close()


def stored_scores(store: Store) -> list[float]:
    with store.session() as s:
        set_id = list_sets(s, WHO)[0].id
        return sorted(score for score, _mode in human_of(s, set_id, WHO).values())


def test_a_score_refused_names_the_answer_and_the_cursor_stays_on_it(
        qtbot: Any, store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # P15-13 (1): the refusal said "…: the database is busy …; nothing was changed, try
    # again", naming neither the answer nor the score, the cursor already on the next one.
    with waiting(store.url, monkeypatch) as (waiter, tasks):
        window = scored(qtbot, tasks, tmp_path, Qt.Key.Key_5)
        holder = hold_lock(file_path(waiter), 3)
        qtbot.keyClick(window.answers, Qt.Key.Key_4)  # on B
        # Named while pending: a quit that stops waiting says which score it abandoned.
        assert tasks.unanswered() == ["Score 4 for answer B of group 1"]
        qtbot.waitUntil(lambda: "not stored" in window.status.text(), timeout=20000)
        assert window.status.text().startswith("Score 4 for answer B of group 1 not stored: ")
        assert BUSY in window.status.text()
        assert column(window, "You") == ["5", "", "", ""]  # shown as not stored
        assert window.current_position() == 1  # back on B
        assert holder.wait(timeout=30) == 0
        press(qtbot, window, Qt.Key.Key_4)  # the same key, the lock gone: stored
        assert column(window, "You") == ["5", "4", "", ""]
        assert stored_scores(waiter) == [4.0, 5.0]
        window.close()


def test_a_ranking_refused_names_its_group(
        qtbot: Any, store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with waiting(store.url, monkeypatch) as (waiter, tasks):
        window = scored(qtbot, tasks, tmp_path)
        press(qtbot, window, Qt.Key.Key_Down, modifier=Qt.KeyboardModifier.AltModifier)
        holder = hold_lock(file_path(waiter), 3)
        qtbot.keyClick(window.answers, Qt.Key.Key_Return)
        qtbot.waitUntil(lambda: "not stored" in window.status.text(), timeout=20000)
        assert window.status.text().startswith("Ranking of group 1 not stored: ")
        assert BUSY in window.status.text()
        assert column(window, "You") == ["", "", "", ""]
        assert holder.wait(timeout=30) == 0
        window.close()


def test_closing_while_a_score_is_refused_keeps_the_window_and_says_so(
        qtbot: Any, store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # P15-2 (a): a score typed under a lock, then Esc: the window closed, the score was
    # never stored and no line said so anywhere.
    with waiting(store.url, monkeypatch) as (waiter, tasks):
        window = scored(qtbot, tasks, tmp_path, Qt.Key.Key_5)
        holder = hold_lock(file_path(waiter), 3)
        qtbot.keyClick(window.answers, Qt.Key.Key_4)
        qtbot.keyClick(window.answers, Qt.Key.Key_Escape)
        assert window.isVisible()  # the close waits for the score's answer
        qtbot.waitUntil(lambda: "not stored" in window.status.text(), timeout=20000)
        assert window.isVisible()
        assert window.status.text().startswith("Score 4 for answer B of group 1 not stored: ")
        assert window.status.text().endswith("; the window stays open")
        assert window.current_position() == 1
        assert holder.wait(timeout=30) == 0
        # Typed again, then Esc at once: the window closes once the score is stored.
        qtbot.keyClick(window.answers, Qt.Key.Key_4)
        qtbot.keyClick(window.answers, Qt.Key.Key_Escape)
        qtbot.waitUntil(lambda: not window.isVisible(), timeout=20000)
        assert stored_scores(waiter) == [4.0, 5.0]


@pytest.mark.postgres
@pytest.mark.parametrize("backend", ["postgresql"], indirect=True)
def test_a_score_on_a_row_locked_on_postgresql_is_refused_by_name_and_the_close_waits(
        qtbot: Any, store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The same path on PostgreSQL: another session holds the row of B's score (a
    # stopped `calibrate`, a laptop asleep inside a transaction).
    with waiting(store.url, monkeypatch, 300) as (waiter, tasks):
        window = scored(qtbot, tasks, tmp_path, Qt.Key.Key_5, Qt.Key.Key_2, Qt.Key.Key_K)
        assert window.current_position() == 1
        holder = psycopg.connect(store.url.replace("postgresql+psycopg://", "postgresql://"))
        try:
            holder.execute("SELECT score FROM calibration_scores WHERE score = 2 FOR UPDATE")
            qtbot.keyClick(window.answers, Qt.Key.Key_4)
            qtbot.keyClick(window.answers, Qt.Key.Key_Escape)
            assert window.isVisible()
            qtbot.waitUntil(lambda: "not stored" in window.status.text(), timeout=30000)
            assert window.isVisible()
            text = window.status.text()
            assert text.startswith("Score 4 for answer B of group 1 not stored: "), text
            assert BUSY in text and text.endswith("; the window stays open")
            assert column(window, "You") == ["5", "2", "", ""]
            assert window.current_position() == 1
            holder.rollback()
        finally:
            holder.close()
        qtbot.keyClick(window.answers, Qt.Key.Key_4)
        qtbot.keyClick(window.answers, Qt.Key.Key_Escape)
        qtbot.waitUntil(lambda: not window.isVisible(), timeout=20000)
        assert stored_scores(waiter) == [4.0, 5.0]



def test_a_refusal_is_said_again_beside_the_next_grading_file(
        qtbot: Any, store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Sixteenth hostile pass, P16-2: a score refused under a lock while Ctrl+O opened
    # another grading file: the new file's line replaced the refusal 3 s after it was
    # shown, and nothing else said it. The lock outlasts the score's wait (2.5 s), not the
    # open's, queued behind it.
    with waiting(store.url, monkeypatch, wait_ms=2500) as (waiter, tasks):
        window = scored(qtbot, tasks, tmp_path, Qt.Key.Key_5)
        other = tmp_path / "other.jsonl"
        shutil.copyfile(DATA, other)
        holder = hold_lock(file_path(waiter), 4)
        qtbot.keyClick(window.answers, Qt.Key.Key_4)  # on B: refused after 2.5 s
        with qtbot.waitSignal(window.loaded, timeout=30000):
            window.open_file(other)  # waits behind the score, then for the lock
        assert holder.wait(timeout=30) == 0
        qtbot.waitUntil(lambda: tasks.pending == 0, timeout=30000)
        text = window.status.text()
        assert text.startswith("Score 4 for answer B of group 1 not stored: "), text
        assert " — Score the " in text, text
        window.close()

"""The app's one task manager: one instance per app, writes in order across windows, every
screen refreshed from what an operation reports changed, answers of closed windows dropped.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
import shiboken6
from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QApplication

from reviewer.changes import NOTHING, Changes
from reviewer.review import actions as review_actions
from reviewer.review import decisions as review
from reviewer.review.queue import QueueFilter, queue_progress
from reviewer.store import Session, Store, open_store
from tests.support.qt import decisions, idle
from tests.support.stores import attempt_id
from tests.ui.test_ui_review import RUN, show, stored
from ui.cli import main as cli_main
from ui.review.window import MainWindow
from ui.settings import Settings
from ui.tasks import TaskManager, Work, managers
from ui.tools.dashboard import AgreementDashboard

pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints",
                                       "does not support raise")
Maker = Callable[[Store], MainWindow]
TOOLS = ("backtest", "criteria", "dashboard", "export")


def test_one_task_manager_for_the_whole_app(qapp: QApplication, ui_settings: Settings,
                                            no_leaks: None, db_url: str) -> None:
    """The real app: the window, its parts and every tool share one manager."""
    seen: dict[str, Any] = {}

    def inspect() -> None:
        window = next((w for w in QApplication.topLevelWidgets()
                       if isinstance(w, MainWindow) and w.isVisible()), None)
        if window is None or not window.ready():
            QTimer.singleShot(20, inspect)
            return
        tools = [window.feedback_tools.show(name) for name in TOOLS]
        parts: list[Any] = [window, window.model, window.filters, window.queue,
                            window.second, window.commands, *tools]
        seen["used"] = {id(part.tasks) for part in parts}
        seen["window"] = id(window.tasks)
        seen["running"] = [id(m) for m in managers() if not m.is_shut_down]
        for tool in tools:
            tool.close()
        window.close()  # the last window: the app quits

    QTimer.singleShot(0, inspect)
    open_store(db_url).close()  # the app makes no store where --db names none
    assert cli_main(["--db", db_url, "gui", "--lang", "en"]) == 0
    assert seen["used"] == {seen["window"]}
    assert seen["running"] == [seen["window"]]  # no other manager exists in the app
    assert all(m.is_shut_down for m in managers())  # joined when the app ended


def test_writes_of_two_windows_are_serialized(qtbot: Any, make_window: Maker,
                                              filled_store: Store) -> None:
    first, second = make_window(filled_store), make_window(filled_store)
    assert first.tasks is second.tasks
    name = "recette-002/2/1"
    show(qtbot, second, name)
    second.config.auto_advance = False
    aid = attempt_id(filled_store, f"{RUN}/{name}")
    entered = threading.Event()
    overtaken: list[bool] = []

    def slow_write(_session: Session) -> Changes:
        # The first window's write holds the ordered thread. For up to a second, look
        # (from a connection of its own) for the other window's accept: a worker of its
        # own would have written it by now.
        entered.set()
        deadline = time.monotonic() + 1.0
        while time.monotonic() < deadline and not overtaken:
            with filled_store.session() as s:
                if review.get_decision(s, aid, "claire") is not None:
                    overtaken.append(True)
            time.sleep(0.05)
        return NOTHING

    first.tasks.write(slow_write)
    qtbot.waitUntil(entered.is_set, timeout=5000)
    second.decide("accept")  # what A does in the second window
    idle(qtbot, second)
    assert overtaken == []
    assert stored(filled_store, name)["decision"] == "accept"
    # Both windows show it: each refreshed from the Changes of the other's write.
    assert decisions(first)[f"{RUN}/{name}"] == "accept"
    assert decisions(second)[f"{RUN}/{name}"] == "accept"
    assert first.progress_label.text() == "Reviewed 1 / 24 (23 to review)"


def test_a_long_job_sees_the_writes_asked_before_it(qtbot: Any, task_manager: TaskManager,
                                                    filled_store: Store) -> None:
    tasks, aid = task_manager, attempt_id(filled_store, f"{RUN}/recette-001/2/1")
    release = threading.Event()
    counted: list[tuple[int, int]] = []
    f = QueueFilter(reviewer="claire")

    def write(s: Session) -> None:
        release.wait(10)  # the write is slow: the long job must still come after it
        review.apply_change(s, "claire", review.Change(aid, "decision", "reject"))

    tasks.write(write)
    tasks.long_query(lambda s: queue_progress(s, f), counted.append)
    QTimer.singleShot(200, release.set)
    qtbot.waitUntil(lambda: tasks.pending == 0, timeout=10000)
    assert counted == [(1, 24)]


def test_a_long_job_reports_progress_and_its_changes(qtbot: Any,
                                                     task_manager: TaskManager) -> None:
    tasks = task_manager
    changed: list[Changes] = []
    progress: list[tuple[int, int]] = []
    tasks.changed.connect(changed.append)

    def job(w: Work) -> Changes:
        for i in range(1, 4):
            w.progress(i, 3)
        return Changes(attempts=frozenset({7}), verdicts=True)

    results: list[Changes] = []
    tasks.long(job, results.append, on_progress=lambda d, t: progress.append((d, t)))
    qtbot.waitUntil(lambda: tasks.pending == 0, timeout=10000)
    assert progress == [(1, 3), (2, 3), (3, 3)]
    assert changed == results == [Changes(attempts=frozenset({7}), verdicts=True)]


def test_answers_to_a_deleted_owner_are_dropped_and_its_long_job_cancelled(
        qtbot: Any, task_manager: TaskManager) -> None:
    tasks = task_manager
    owner = QObject()
    started, release = threading.Event(), threading.Event()
    got: list[object] = []
    cancelled: list[bool] = []

    def job(w: Work) -> bool:
        started.set()
        release.wait(10)
        cancelled.append(w.cancel.is_set())
        return True

    tasks.long(job, got.append, owner=owner)
    tasks.query(lambda _s: release.wait(10), got.append, owner=owner)
    qtbot.waitUntil(started.is_set, timeout=5000)
    owner.deleteLater()
    qtbot.waitUntil(lambda: not shiboken6.isValid(owner), timeout=5000)
    release.set()
    qtbot.waitUntil(lambda: tasks.pending == 0, timeout=5000)
    assert got == []  # neither answer reached the deleted owner
    assert cancelled == [True]  # the job ran to its end and was told to stop early


def test_the_dashboard_recomputes_when_decisions_change(
        qtbot: Any, make_window: Maker, filled_store: Store) -> None:
    window = make_window(filled_store)
    board = window.feedback_tools.show("dashboard")
    assert isinstance(board, AgreementDashboard)
    qtbot.waitUntil(lambda: board.stats is not None, timeout=10000)
    assert board.overall.text().startswith("0 audited attempts")
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=5000)
    window.decide("accept")
    idle(qtbot, window)  # nothing pending: the figures were not computed again...
    assert board.overall.text().startswith("0 audited attempts")
    with qtbot.waitSignal(board.loaded, timeout=10000):
        board.activateWindow()  # ...until the reviewer looks at them
    assert board.overall.text().startswith("1 audited attempt —")
    # While it is the active window, a change (here from another window) recomputes them.
    with qtbot.waitSignal(board.loaded, timeout=10000):
        window.tasks.write(lambda s: review_actions.decide(s, "bob", attempt_id(
            filled_store, f"{RUN}/recette-002/2/1"), "reject"))
    assert board.overall.text().startswith("2 audited attempts")
    board.close()

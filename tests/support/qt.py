"""Fixtures and helpers of the GUI tests (tests/ui/conftest.py makes the fixtures available).

* settings live in a temporary folder (never the user's real settings);
* every UI test fails if it leaves behind a top-level widget, a timer still running in a
  window it closed, a task manager it did not shut down or whose threads are still
  busy, or a busy thread in Qt's global pool;
* ``make_window`` opens a real MainWindow on a real SQLite store (one task manager per
  store, shared by every window on it, as in the app) and waits until it shows its
  first example; ``task_manager`` is the app's task manager for a tool tested alone.
"""

from __future__ import annotations

import os
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import (
    QCoreApplication,
    QEvent,
    QObject,
    QSettings,
    QStandardPaths,
    QThreadPool,
    QTimer,
)
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from reviewer.settings_files import APPLICATION, ORGANIZATION
from reviewer.store import Store
from ui.review.queue_model import Role
from ui.review.window import MainWindow
from ui.settings import Settings
from ui.tasks import TaskManager, managers


@pytest.fixture
def ui_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Settings]:
    """Settings stored under the test's temporary folder; the app's own (``Settings()``)
    there too (``$XDG_CONFIG_HOME``: the app finds its file itself, not through Qt)."""
    QStandardPaths.setTestModeEnabled(True)
    folder = tmp_path / "settings"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(folder))
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, str(folder))
    QCoreApplication.setOrganizationName(ORGANIZATION)
    QCoreApplication.setApplicationName(APPLICATION)
    settings = Settings(QSettings(str(folder / "reviewer.ini"), QSettings.Format.IniFormat))
    settings.q.setValue("reviewer", "claire")
    yield settings


def running_timers(windows: list[QWidget]) -> list[str]:
    """Timers still running in windows already closed (they would fire into them)."""
    return [f"{type(w).__name__}: {t.objectName() or type(t.parent()).__name__} timer"
            for w in windows if not w.isVisible()
            for t in w.findChildren(QTimer) if t.isActive()]


def unfinished_managers(before: set[int]) -> list[str]:
    """What is wrong with the task managers made since ``before`` (ids): not shut down,
    or still holding work or busy threads once shut down. Each is shut down here, so the
    next test starts clean whatever this one left."""
    problems: list[str] = []
    for m in managers():
        if id(m) in before:
            continue
        if not m.is_shut_down:
            problems.append("not shut down")
        m.shutdown(5000)
        QApplication.processEvents()  # the last answers (dropped once shut down)
        if not m.idle:
            problems.append(f"{m.pending} answers pending or threads busy after shutdown")
    return problems


class ClosedWindowTimers(QObject):
    """Watches every window that closes: once its ``closeEvent`` has run (the window
    hides), none of its timers may still run. Windows are deleted soon after they close
    (pytest-qt deletes the ones it was given), so this looks at the moment of closing."""

    def __init__(self, app: QApplication) -> None:
        super().__init__()
        self.app = app
        self.closing: set[int] = set()
        self.found: list[str] = []
        app.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Note a window's Close, check its timers at the Hide that follows."""
        kind = event.type()
        if kind not in (QEvent.Type.Close, QEvent.Type.Hide) \
                or not isinstance(watched, QWidget) or not watched.isWindow():
            return False
        if kind == QEvent.Type.Close:
            self.closing.add(id(watched))
        elif id(watched) in self.closing:
            self.closing.discard(id(watched))
            self.found += running_timers([watched])
        return False

    def remove(self) -> None:
        """Stop watching."""
        self.app.removeEventFilter(self)


@pytest.fixture
def closed_window_timers(qapp: QApplication) -> Iterator[ClosedWindowTimers]:
    """The watcher ``no_leaks`` reads (a test of the guard itself may clear what it found)."""
    watch = ClosedWindowTimers(qapp)
    yield watch
    watch.remove()


@pytest.fixture
def no_leaks(qapp: QApplication, closed_window_timers: ClosedWindowTimers) -> Iterator[None]:
    """Fail the test if it leaves a window, a running timer of a closed window, a task
    manager not shut down or not idle, or a busy thread of Qt's pool behind."""
    before = set(map(id, QApplication.topLevelWidgets()))
    managers_before = set(map(id, managers()))
    watch = closed_window_timers
    yield
    mine = [w for w in QApplication.topLevelWidgets() if id(w) not in before]
    for w in mine:
        w.close()
    timers = watch.found + running_timers(mine)
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    QApplication.processEvents()
    left = [w for w in QApplication.topLevelWidgets()
            if id(w) not in before and w.isVisible()]
    assert not left, f"widgets left open: {left}"
    assert not timers, f"timers running in closed windows: {timers}"
    problems = unfinished_managers(managers_before)
    assert not problems, f"task managers: {problems}"
    assert QThreadPool.globalInstance().waitForDone(5000)
    assert QThreadPool.globalInstance().activeThreadCount() == 0


def wait_ready(qtbot: Any, window: MainWindow, timeout: int = 30000) -> None:
    """Wait until the window has no background work left and shows an example."""
    qtbot.waitUntil(window.ready, timeout=timeout)


def idle(qtbot: Any, window: MainWindow, timeout: int = 30000) -> None:
    """Wait until every background operation of the window has reported back (and the
    pane has built what it defers to the next turn of the event loop)."""
    qtbot.waitUntil(lambda: window.tasks.pending == 0 and not window.model.loading
                    and not window.pane.pending, timeout=timeout)


def decisions(window: MainWindow) -> dict[str, str | None]:
    """Key -> decision of every loaded queue row, as the model exposes them."""
    m = window.model
    return {m.index(r, 0).data(Role.Key): m.index(r, 0).data(Role.Decision)
            for r in range(m.rowCount())}


@pytest.fixture
def task_manager(store: Store, no_leaks: None) -> Iterator[TaskManager]:
    """The app's task manager on the test's store (shut down after the test)."""
    tasks = TaskManager(store)
    yield tasks
    tasks.shutdown()


@pytest.fixture
def make_window(qtbot: Any, ui_settings: Settings, no_leaks: None
                ) -> Iterator[Callable[[Store], MainWindow]]:
    """Open main windows on a store; each is closed, and the task managers shut down, after.

    Windows on the same store share one task manager, as every window of the app does."""
    opened: list[MainWindow] = []
    shared: dict[int, TaskManager] = {}

    def make(store: Store) -> MainWindow:
        if id(store) not in shared:
            shared[id(store)] = TaskManager(store)
        tasks = shared[id(store)]
        window = MainWindow(tasks, ui_settings)
        qtbot.addWidget(window)
        window.show()
        qtbot.waitExposed(window)
        window.activateWindow()
        wait_ready(qtbot, window)
        opened.append(window)
        return window

    yield make
    for window in opened:
        window.close()
        window.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    for tasks in shared.values():
        tasks.shutdown()


FREEZE_BOUND_S = 1.0  # "never freezes the GUI for more than a second"
WALL_BOUND_S = 5.0  # on a loaded shared machine the process may wait to be scheduled


class GapMeter:
    """The longest gap between the ticks of a 10 ms timer: how long the loop was blocked,
    in the GUI thread's CPU time (``busy``) and on the wall clock (``wall``)."""

    def __init__(self) -> None:
        self.timer = QTimer()
        self.timer.setInterval(10)
        self.timer.timeout.connect(self._tick)
        self.last = (0.0, 0.0)
        self.busy = 0.0
        self.wall = 0.0

    @staticmethod
    def _now() -> tuple[float, float]:
        return time.thread_time(), time.perf_counter()

    def _tick(self) -> None:
        now = self._now()
        self.busy = max(self.busy, now[0] - self.last[0])
        self.wall = max(self.wall, now[1] - self.last[1])
        self.last = now

    def start(self) -> None:
        self.last = self._now()
        self.timer.start()

    def stop(self) -> tuple[float, float]:
        self._tick()
        self.timer.stop()
        return self.busy, self.wall

    def check(self, record_property: Callable[[str, object], None], what: str) -> None:
        """Stop (if still running), record and print the longest gap, and fail past the
        freeze bounds."""
        busy, wall = self.stop() if self.timer.isActive() else (self.busy, self.wall)
        record_property("longest_event_loop_gap_busy_s", round(busy, 3))
        record_property("longest_event_loop_gap_wall_s", round(wall, 3))
        print(f"\nlongest event-loop gap, {what}: {busy * 1000:.0f} ms busy, "
              f"{wall * 1000:.0f} ms on the wall clock")
        assert busy < FREEZE_BOUND_S
        assert wall < WALL_BOUND_S


def accept_boxes() -> list[str]:
    """Accept the next modal message box as soon as it shows; the returned list receives
    its text (the app's start-up boxes run their own event loop inside ``cli_main``)."""
    seen: list[str] = []

    def close_box() -> None:
        box = QApplication.activeModalWidget()
        if isinstance(box, QMessageBox):
            seen.append(box.text())
            box.accept()
        else:
            QTimer.singleShot(20, close_box)

    QTimer.singleShot(0, close_box)
    return seen

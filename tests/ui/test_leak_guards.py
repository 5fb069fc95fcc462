"""The leak guards of every UI test (tests/support/qt.py) catch what they are meant to."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QWidget

from reviewer.store import Store
from tests.support.qt import ClosedWindowTimers, unfinished_managers
from ui.tasks import TaskManager, managers


class _Debounced(QWidget):
    """A window with a typing pause, stopped on close when ``tidy``."""

    def __init__(self, tidy: bool) -> None:
        super().__init__()
        self.tidy = tidy
        self.timer = QTimer(self)
        self.timer.setInterval(60_000)

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.tidy:
            self.timer.stop()
        super().closeEvent(event)


def test_a_timer_left_running_in_a_closed_window_is_caught(
        qtbot: Any, closed_window_timers: ClosedWindowTimers) -> None:
    watch = closed_window_timers  # the very watcher this test's own guard reads
    for tidy in (True, False):
        window = _Debounced(tidy)
        qtbot.addWidget(window)
        window.show()
        window.timer.start()
        window.close()
        window.timer.stop()  # stopped too late: it ran in the closed window
    assert watch.found == ["_Debounced: _Debounced timer"]  # the untidy one only
    watch.found.clear()  # caught as it should be: let this test pass


def test_a_task_manager_not_shut_down_is_caught(qtbot: Any, store: Store) -> None:
    before = set(map(id, managers()))
    tidy, forgotten = TaskManager(store), TaskManager(store)
    tidy.query(lambda _s: 1)
    forgotten.query(lambda _s: 2)
    qtbot.waitUntil(lambda: tidy.idle and forgotten.idle, timeout=5000)
    tidy.shutdown()
    assert unfinished_managers(before) == ["not shut down"]  # the forgotten one
    assert forgotten.is_shut_down and forgotten.idle  # ...and it is shut down now
    assert unfinished_managers(before) == []

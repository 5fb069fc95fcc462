"""Benchmark hook: with ``REVIEWER_BENCH_FIRST_PAINT=1`` the app reports its first paint.

``benchmarks/bench_gui.py`` starts ``reviewer gui`` in a subprocess and needs to know when
the queue's first page is on screen. When the variable is set, the first paint of the
queue table with rows prints ``first-paint <unix time> rows <n>`` on stdout; the app
then waits until the window has finished loading what it shows (at most a few seconds,
so the peak memory includes the example pane) and quits.
"""

from __future__ import annotations

import os
import time

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication

from ui.main_window import MainWindow

ENV = "REVIEWER_BENCH_FIRST_PAINT"
SETTLE_LIMIT_S = 10.0


def enabled() -> bool:
    """Whether the benchmark asked for the hook."""
    return bool(os.environ.get(ENV))


class FirstPaint(QObject):
    """Watches the queue table's viewport for its first paint with rows."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.fired = False
        self.deadline = 0.0
        window.queue.viewport().installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Note the first paint that shows rows (reported once the paint is done)."""
        if (not self.fired and event.type() == QEvent.Type.Paint
                and self.window.model.rowCount() > 0):
            self.fired = True
            QTimer.singleShot(0, self._report)
        return False

    def _report(self) -> None:
        print(f"first-paint {time.time():.6f} rows {self.window.model.rowCount()}", flush=True)
        self.deadline = time.monotonic() + SETTLE_LIMIT_S
        self._settle()

    def _settle(self) -> None:
        if self.window.ready() or time.monotonic() > self.deadline:
            QApplication.quit()
        else:
            QTimer.singleShot(20, self._settle)


def watch(window: MainWindow) -> FirstPaint | None:
    """Install the hook when the benchmark asked for it."""
    return FirstPaint(window) if enabled() else None

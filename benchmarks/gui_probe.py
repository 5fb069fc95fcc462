"""Benchmark probe: ``python -m benchmarks.gui_probe --db DB gui`` is ``reviewer --db DB gui``
that reports its first paint.

``benchmarks/bench_gui.py`` starts it in a subprocess and needs to know when the queue's
first page is on screen. The first paint of the queue table with rows prints
``first-paint <unix time> rows <n>`` on stdout; the app then waits until the window has
finished loading what it shows (at most a few seconds, so the peak memory includes the
example pane) and quits. The probe lives here, not in the product: it watches the
application's events from outside the window.
"""

from __future__ import annotations

import sys
import time

from ui import cli
from ui.commands import gui

# The app's modules are imported as ``reviewer gui`` imports them: the domain before Qt
# (ui/app.py; PySide6 first would make every later import pay its import hook) and
# without the cyclic collector (``gui.starting``). The probe adds no start-up cost the
# app itself does not have.
with gui.starting():
    from ui.app import application
    from ui.review.window import MainWindow

    # isort: split
    from PySide6.QtCore import QEvent, QObject, QTimer
    from PySide6.QtWidgets import QApplication

SETTLE_LIMIT_S = 10.0


class FirstPaint(QObject):
    """Watches every paint for the queue table's first paint with rows."""

    def __init__(self, app: QApplication) -> None:
        super().__init__(app)
        self.window: MainWindow | None = None
        self.fired = False
        self.deadline = 0.0
        app.installEventFilter(self)

    def _main_window(self) -> MainWindow | None:
        if self.window is None:
            self.window = next((w for w in QApplication.topLevelWidgets()
                                if isinstance(w, MainWindow)), None)
        return self.window

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Note the first paint that shows rows (reported once the paint is done)."""
        if self.fired or event.type() != QEvent.Type.Paint:
            return False
        window = self._main_window()
        if window is not None and watched is window.queue.viewport() \
                and window.model.rowCount() > 0:
            self.fired = True
            QTimer.singleShot(0, self._report)
        return False

    def _report(self) -> None:
        window = self._main_window()
        assert window is not None
        print(f"first-paint {time.time():.6f} rows {window.model.rowCount()}", flush=True)
        self.deadline = time.monotonic() + SETTLE_LIMIT_S
        self._settle()

    def _settle(self) -> None:
        window = self._main_window()
        if window is None or window.ready() or time.monotonic() > self.deadline:
            QApplication.quit()
        else:
            QTimer.singleShot(20, self._settle)


def main(argv: list[str]) -> int:
    """Run the reviewer command line with the probe watching the application."""
    probe = FirstPaint(application())  # noqa: F841 - watches until the app quits
    return cli.main(argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""A real review window in its own process, driven by the keyboard, for crash tests.

``python -m tests.app_process DB SETTINGS_DIR KEY [KEY…]`` opens the real ``MainWindow``
(offscreen) on the SQLite file ``DB``, and for each attempt ``KEY`` selects it, presses
``A`` the way a reviewer does (``A`` again when the pane asks whether to accept a
refusal anyway), waits until the window shows the decision, and prints
``decided KEY``. Then it prints ``idle`` and keeps the store open, waiting to be killed:
the test sends SIGKILL at that moment, with no chance to close anything.
"""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import sys
import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from reviewer.keys import AttemptKey
from reviewer.store import open_store
from ui.review.queue_model import Role
from ui.review.window import MainWindow
from ui.settings import Settings
from ui.tasks import TaskManager

REVIEWER = "claire"


def wait_until(app: QApplication, test: Callable[[], bool], what: str,
               timeout: float = 60.0) -> None:
    """Turn the event loop until ``test()`` holds (exit 3 after ``timeout`` seconds)."""
    end = time.monotonic() + timeout
    while not test():
        if time.monotonic() > end:
            print(f"timeout waiting for {what}", flush=True)
            sys.exit(3)
        app.processEvents()
        time.sleep(0.005)


def shown_decision(window: MainWindow, key: str) -> str | None:
    """The decision the queue row of ``key`` shows (what the reviewer sees)."""
    m = window.model
    for r in range(m.rowCount()):
        if m.index(r, 0).data(Role.Key) == key:
            return m.index(r, 0).data(Role.Decision)
    return None


def main(argv: list[str]) -> int:
    """Open the window, accept each key, report, then wait to be killed."""
    db, settings_dir, keys = argv[0], Path(argv[1]), argv[2:]
    app = QApplication([])
    QCoreApplication.setOrganizationName("reviewer-crash-test")
    settings = Settings(QSettings(str(settings_dir / "reviewer.ini"),
                                  QSettings.Format.IniFormat))
    settings.q.setValue("reviewer", REVIEWER)
    settings.q.setValue("auto_advance", "false")
    store = open_store(db)
    window = MainWindow(TaskManager(store), settings)
    window.show()
    window.activateWindow()  # shortcuts reach the active window only
    wait_until(app, window.ready, "the first example")
    print("ready", flush=True)
    for key in keys:
        window.select_key(AttemptKey.parse(key))
        wait_until(app, lambda k=key: window.pane.view is not None  # type: ignore[misc]
                   and str(window.pane.view.key) == k and window.ready(), f"example {key}")
        QTest.keyClick(QApplication.focusWidget() or window, Qt.Key.Key_A)
        if window.pane.question_box.isVisible():  # "the filter still refuses it": anyway
            QTest.keyClick(QApplication.focusWidget() or window, Qt.Key.Key_A)
        wait_until(app, lambda k=key: shown_decision(window, k) == "accept"  # type: ignore[misc]
                   and window.pane.view is not None
                   and window.pane.view.review.decision == "accept", f"decision on {key}")
        print(f"decided {key}", flush=True)
    print("idle", flush=True)
    while True:  # the store stays open: nothing is closed, flushed or checkpointed
        app.processEvents()
        time.sleep(0.02)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

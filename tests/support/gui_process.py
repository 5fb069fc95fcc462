"""The whole app as the console script starts it, with one decision typed, for signal tests.

``python -m tests.support.gui_process DB KEY [at-once] [quit]`` runs ``reviewer --db DB gui``
(the console script's ``main``, so ``run_app`` and its close path are the real ones).
Once the window is shown it selects attempt ``KEY``, presses ``A`` the way a reviewer
does, waits until the window shows the decision (with ``at-once``: not at all, the key
just pressed), prints ``idle`` and hands back to the app's event loop, where the test
sends its signal (with ``quit``: Ctrl+Q is chosen then, File → Quit). The settings live
under the session's ``$XDG_CONFIG_HOME`` (tests/conftest.py).
"""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from reviewer.keys import AttemptKey
from tests.support.app_process import shown_decision
from ui import cli
from ui.review.window import MainWindow

ROOT = Path(__file__).resolve().parents[2]


@contextmanager
def gui_started(db: str, key: str, *flags: str, env: Mapping[str, str]
                ) -> Iterator[subprocess.Popen[str]]:
    """This module run in its own process (``DB KEY [at-once] [quit]``, ``env`` added to
    the environment), once it printed ``idle``; killed, waited for and its pipes closed
    after the block."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.support.gui_process", db, key, *flags],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen", **env})
    assert proc.stdout is not None and proc.stderr is not None
    try:
        line = ""
        for line in proc.stdout:
            if line.strip() == "idle" or line.startswith("timeout"):
                break
        assert line.strip() == "idle"
        yield proc
    finally:
        proc.kill()
        proc.wait(timeout=30)
        proc.stdout.close()
        proc.stderr.close()


def decide(window: MainWindow, key: str, *, wait_for_it: bool = True,
           then_quit: bool = False) -> None:
    """Select ``key``, press A (again if asked), wait for the decision (unless not
    ``wait_for_it``), say ``idle`` (then quit, if ``then_quit``)."""
    app = QApplication.instance()
    assert app is not None

    def wait(test: object, what: str) -> None:
        end = time.monotonic() + 60
        while not test():  # type: ignore[operator]
            if time.monotonic() > end:
                print(f"timeout waiting for {what}", flush=True)
                return
            app.processEvents()
            time.sleep(0.005)

    window.activateWindow()  # shortcuts reach the active window only
    wait(window.ready, "the first example")
    window.select_key(AttemptKey.parse(key))
    wait(lambda: window.pane.view is not None and str(window.pane.view.key) == key
         and window.ready(), "the example")
    QTest.keyClick(QApplication.focusWidget() or window, Qt.Key.Key_A)
    if window.pane.question_box.isVisible():  # "the filter still refuses it": anyway
        QTest.keyClick(QApplication.focusWidget() or window, Qt.Key.Key_A)
    if wait_for_it:
        wait(lambda: shown_decision(window, key) == "accept", "the decision")
    print("idle", flush=True)
    if then_quit:
        window.actions_by_name["quit"].trigger()


def main(argv: list[str]) -> int:
    """Run the app on ``argv[0]``, deciding ``argv[1]`` once its window shows."""
    db, key, *how = argv
    wait_for_it, then_quit = "at-once" not in how, "quit" in how
    show = MainWindow.show

    def show_then_decide(window: MainWindow) -> None:
        show(window)
        QTimer.singleShot(0, lambda: decide(window, key, wait_for_it=wait_for_it,
                                            then_quit=then_quit))

    MainWindow.show = show_then_decide  # type: ignore[method-assign]
    sys.argv = ["reviewer", "--db", db, "--reviewer", "claire", "gui"]
    return cli.main()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

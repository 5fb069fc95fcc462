"""Fixtures and helpers of the GUI tests (tests/ui/conftest.py makes the fixtures available).

* settings live in a temporary folder (never the user's real settings);
* every UI test fails if it leaves a top-level widget or a running thread behind;
* ``make_window`` opens a real MainWindow on a real SQLite store and waits until it shows
  its first example.
"""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication, QEvent, QSettings, QStandardPaths, QThreadPool
from PySide6.QtWidgets import QApplication

from reviewer.store import Store
from ui.review.queue_model import Role
from ui.review.window import MainWindow
from ui.settings import APPLICATION, ORGANIZATION, Settings


@pytest.fixture
def ui_settings(tmp_path: Path) -> Iterator[Settings]:
    """Settings stored under the test's temporary folder."""
    QStandardPaths.setTestModeEnabled(True)
    folder = tmp_path / "settings"
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, str(folder))
    QCoreApplication.setOrganizationName(ORGANIZATION)
    QCoreApplication.setApplicationName(APPLICATION)
    settings = Settings(QSettings(str(folder / "reviewer.ini"), QSettings.Format.IniFormat))
    settings.q.setValue("reviewer", "claire")
    yield settings


@pytest.fixture
def no_leaks(qapp: QApplication) -> Iterator[None]:
    """Fail the test if it leaves a top-level widget or a busy thread pool behind."""
    before = set(map(id, QApplication.topLevelWidgets()))
    yield
    for w in QApplication.topLevelWidgets():
        if id(w) not in before:
            w.close()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    QApplication.processEvents()
    left = [w for w in QApplication.topLevelWidgets()
            if id(w) not in before and w.isVisible()]
    assert not left, f"widgets left open: {left}"
    assert QThreadPool.globalInstance().waitForDone(5000)
    assert QThreadPool.globalInstance().activeThreadCount() == 0


def wait_ready(qtbot: Any, window: MainWindow, timeout: int = 30000) -> None:
    """Wait until the window has no background work left and shows an example."""
    qtbot.waitUntil(window.ready, timeout=timeout)


def idle(qtbot: Any, window: MainWindow, timeout: int = 30000) -> None:
    """Wait until every background operation of the window has reported back."""
    qtbot.waitUntil(lambda: window.ops.pending == 0 and not window.model.loading,
                    timeout=timeout)


def decisions(window: MainWindow) -> dict[str, str | None]:
    """Key -> decision of every loaded queue row, as the model exposes them."""
    m = window.model
    return {m.index(r, 0).data(Role.Key): m.index(r, 0).data(Role.Decision)
            for r in range(m.rowCount())}


@pytest.fixture
def make_window(qtbot: Any, ui_settings: Settings, no_leaks: None
                ) -> Iterator[Callable[[Store], MainWindow]]:
    """Open main windows on a store; each is closed (and its threads joined) after."""
    opened: list[MainWindow] = []

    def make(store: Store) -> MainWindow:
        window = MainWindow(store, ui_settings)
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

"""The Tools menu of the main window opens the feedback windows."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from collections.abc import Callable
from typing import Any

import pytest
from PySide6.QtGui import QAction

from reviewer.store import Store
from ui.review.window import MainWindow
from ui.tools.backtest_editor import BacktestEditor
from ui.tools.dashboard import AgreementDashboard

pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints",
                                       "does not support raise")


def trigger(window: MainWindow, name: str) -> None:
    action = window.findChild(QAction, f"action_tool_{name}")
    assert action is not None
    action.trigger()


def test_tools_menu_opens_each_tool_once(
    qtbot: Any, filled_store: Store, make_window: Callable[[Store], MainWindow]
) -> None:
    window = make_window(filled_store)
    names = [a.objectName() for a in window.tools_menu.actions()]
    assert names[:4] == ["action_tool_backtest", "action_tool_criteria",
                         "action_tool_dashboard", "action_tool_export"]
    trigger(window, "backtest")
    editor = window.feedback_tools.open["backtest"]
    assert isinstance(editor, BacktestEditor) and editor.isVisible()
    qtbot.waitUntil(lambda: editor.result is not None, timeout=10000)
    trigger(window, "backtest")
    assert window.feedback_tools.open["backtest"] is editor  # raised, not duplicated
    trigger(window, "dashboard")
    board = window.feedback_tools.open["dashboard"]
    assert isinstance(board, AgreementDashboard)
    qtbot.waitUntil(lambda: board.stats is not None, timeout=10000)
    for name in ("criteria", "export"):
        trigger(window, f"{name}")
    for tool in list(window.feedback_tools.open.values()):
        tool.close()
    qtbot.waitUntil(lambda: not window.feedback_tools.open, timeout=5000)

"""The Tools windows behave alike: a key and a mnemonic each (listed in the Tools menu and
the help overlay), Esc and Ctrl+W close them, they open at their content's size and
where they were last closed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from PySide6.QtCore import QSize
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QTableWidget, QWidget

from reviewer.store import Store
from ui.review.action_builder import help_lines
from ui.review.window import MainWindow
from ui.shortcuts import TOOL_SHORTCUTS
from ui.tools.dashboard import AgreementDashboard
from ui.tools.window_frame import table_width

pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints",
                                       "does not support raise")

Maker = Callable[[Store], MainWindow]
NAMES = ["backtest", "criteria", "dashboard", "export", "calibration"]


def press(widget: QWidget, keys: str) -> None:
    """Type one key sequence ("Ctrl+Shift+C") into the widget."""
    combo = QKeySequence(keys)[0]  # type: ignore[index]  # QKeyCombination, untyped
    QTest.keyClick(widget, combo.key(), combo.keyboardModifiers())


def open_with_key(qtbot: Any, window: MainWindow, name: str) -> QWidget:
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=5000)
    keys = next(s for s in TOOL_SHORTCUTS if s.name == name).keys[0]
    press(window.queue, keys)
    qtbot.waitUntil(lambda: name in window.feedback_tools.open, timeout=5000)
    tool = window.feedback_tools.open[name]
    qtbot.waitUntil(tool.isVisible, timeout=5000)
    return tool


def close_with_key(qtbot: Any, window: MainWindow, name: str, keys: str) -> None:
    tool = window.feedback_tools.open[name]
    tool.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is tool, timeout=5000)
    press(QApplication.focusWidget() or tool, keys)
    qtbot.waitUntil(lambda: name not in window.feedback_tools.open, timeout=5000)


def test_every_tool_has_a_key_and_a_mnemonic_listed_in_menu_and_help(
        qtbot: Any, filled_store: Store, make_window: Maker) -> None:
    window = make_window(filled_store)
    actions = [a for a in window.tools_menu.actions() if a.objectName().startswith("action_tool")]
    assert [a.objectName() for a in actions] == [f"action_tool_{n}" for n in NAMES]
    letters = []
    for action, entry in zip(actions, TOOL_SHORTCUTS, strict=True):
        text = action.text()
        assert "&" in text, f"{text!r} has no mnemonic"
        letters.append(text[text.index("&") + 1].lower())
        assert [k.toString() for k in action.shortcuts()] == list(entry.keys)
        # The menu shows the key beside the entry; the help overlay lists it, no "&".
        shown = QKeySequence(entry.keys[0]).toString(QKeySequence.SequenceFormat.NativeText)
        assert (shown, text.replace("&", "")) in help_lines()
    assert len(set(letters)) == len(letters), f"mnemonics clash: {letters}"
    # Every key of the Tools menu is free in the main window (none shadows another).
    all_keys = [k.toString() for a in window.findChildren(QAction) for k in a.shortcuts()]
    for entry in TOOL_SHORTCUTS:
        assert all_keys.count(entry.keys[0]) == 1, entry.keys[0]


@pytest.mark.parametrize("closing", ["Esc", "Ctrl+W"])
def test_each_tool_opens_with_its_key_and_closes_with_esc_or_ctrl_w(
        qtbot: Any, filled_store: Store, make_window: Maker, closing: str) -> None:
    window = make_window(filled_store)
    for name in NAMES:
        open_with_key(qtbot, window, name)
        close_with_key(qtbot, window, name, closing)
    assert not window.feedback_tools.open


def test_the_dashboard_opens_wide_enough_for_its_columns(
        qtbot: Any, filled_store: Store, make_window: Maker) -> None:
    window = make_window(filled_store)
    board = open_with_key(qtbot, window, "dashboard")
    assert isinstance(board, AgreementDashboard)
    qtbot.waitUntil(lambda: board.stats is not None, timeout=10000)
    qtbot.wait(50)  # the resize after the figures arrived is applied
    table = board.findChild(QTableWidget, "agreement_table")
    assert table is not None and table.rowCount() > 0
    screen = board.screen().availableGeometry()
    needed = table_width(table)
    assert board.width() > 445
    if board.width() < int(screen.width() * 0.9):  # not bounded by the screen: all shown
        assert table.viewport().width() >= table.horizontalHeader().length(), (
            f"columns cut: {table.viewport().width()} px for {needed}")
    assert board.width() <= screen.width()
    board.close()


def test_a_tool_reopens_where_and_as_large_as_it_was_closed(
        qtbot: Any, filled_store: Store, make_window: Maker) -> None:
    window = make_window(filled_store)
    tool = open_with_key(qtbot, window, "criteria")
    first = tool.size()
    wanted = QSize(first.width() + 37, first.height() + 23)
    tool.resize(wanted)
    qtbot.waitUntil(lambda: tool.size() == wanted, timeout=5000)
    close_with_key(qtbot, window, "criteria", "Esc")
    again = open_with_key(qtbot, window, "criteria")
    assert again is not tool or again.isVisible()
    assert again.size() == wanted
    again.close()
    qtbot.waitUntil(lambda: not window.feedback_tools.open, timeout=5000)
    assert window.settings.geometry("tool_criteria") is not None  # in the test's settings

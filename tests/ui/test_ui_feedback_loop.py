"""The feedback loop reaches the queue: a check version saved in the back-test editor is
evaluated on every stored response, and the queue and the pane say what the old version
refused and the current one passes; the filter replays with the current versions on
Ctrl+Shift+C. Driven with keys on the real window and a real SQLite store."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtTest import QTest
from sqlalchemy import func, select

from models import CheckResult, CheckVersion
from reviewer.catalog.spec import CheckSpec
from reviewer.catalog.versions import current_check_versions
from reviewer.revise.editors import save_check_version
from reviewer.rule.replay_check import check_replay
from reviewer.store import Store
from tests.support.feedback_stores import SEED_NEW_PATTERN
from tests.support.qt import idle
from tests.ui.test_ui_review import show
from ui.review.queue_model import Role
from ui.review.window import MainWindow
from ui.tools.backtest_editor import BacktestEditor

pytestmark = pytest.mark.qt_log_ignore("does not support propagateSizeHints",
                                        "does not support raise")
Maker = Callable[[Store], MainWindow]


def open_backtest(qtbot: Any, w: MainWindow) -> BacktestEditor:
    action = w.findChild(QAction, "action_tool_backtest")
    assert action is not None
    action.trigger()
    editor = w.feedback_tools.open["backtest"]
    assert isinstance(editor, BacktestEditor)
    qtbot.waitUntil(lambda: editor.result is not None, timeout=30000)
    return editor


def reason_row(w: MainWindow, key: str) -> str:
    m = w.model
    for r in range(m.rowCount()):
        if m.index(r, 0).data(Role.Key).endswith(key):
            return str(m.index(r, 3).data())
    raise KeyError(key)


def test_a_saved_version_reaches_the_queue_and_the_pane(qtbot: Any, make_window: Maker,
                                                        filled_store: Store) -> None:
    w = make_window(filled_store)
    show(qtbot, w, "recette-003/2/2")  # refused by D-COMMERCE ("à inscrire la date")
    editor = open_backtest(qtbot, w)
    # It opens on the check that refused the attempt on screen, not the first one (D-3114).
    assert editor.check_box.currentData() == "D-COMMERCE"
    editor.pattern.setText(SEED_NEW_PATTERN)  # non-ASCII: set, not typed
    qtbot.waitUntil(lambda: editor.result is not None
                    and editor.result.new.pattern == SEED_NEW_PATTERN, timeout=30000)
    editor.reason.setFocus()
    QTest.keyClicks(editor.reason, "seed wording")
    QTest.keyClick(editor.reason, Qt.Key.Key_Return)  # Enter saves
    qtbot.waitUntil(lambda: "evaluated on" in editor.recheck_label.text(), timeout=60000)
    assert editor.recheck_label.text() == (
        "D-COMMERCE v2 evaluated on 32 stored responses: 8 the old version refused now "
        "pass, 0 now fail")
    with filled_store.session() as s:
        assert s.scalar(select(func.count(CheckResult.id)).join(CheckVersion)
                        .where(CheckVersion.version == 2)) == 32
    assert check_replay(filled_store).ok  # the imported results are kept as they were
    idle(qtbot, w)
    # The queue and the pane show it; the filter as imported is unchanged until asked.
    assert reason_row(w, "/recette-003/2/2").startswith(
        "D-COMMERCE: old version refused, current version passes — D-COMMERCE échoué")
    assert w.pane.check_model.index(0, 2).data() == "failed · v2 passes"
    assert w.pane.live_line.text() == (
        "With second opinions and your overrides, the filter would now: refused\n"
        "With the current check versions: accepted")
    editor.close()  # back to the review window
    w.activateWindow()
    qtbot.waitUntil(w.isActiveWindow, timeout=5000)
    w.queue.setFocus()
    QTest.keyClick(w.queue, Qt.Key.Key_C,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert w.actions_by_name["current_checks"].isChecked()
    assert w.pane.live_line.text() == (
        "With the current check versions, second opinions and your overrides, the filter "
        "would now: accepted  ⟵ changed")
    QTest.keyClick(w.queue, Qt.Key.Key_C,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert w.pane.live_line.text().startswith(
        "With second opinions and your overrides, the filter would now: refused")


def test_the_editor_follows_the_attempt_and_resumes_an_unfinished_recheck(
        qtbot: Any, make_window: Maker, filled_store: Store) -> None:
    # A version saved without its re-check (from the command line, or an editor closed
    # while it ran): opening the editor on it evaluates what is left.
    with filled_store.session() as s:
        cv = current_check_versions(s)["D-COMMERCE"]
        save_check_version(s, CheckSpec("D-COMMERCE", cv.description, SEED_NEW_PATTERN,
                                        "i", "forbid", None), reason="cli", author="claire")
    w = make_window(filled_store)
    show(qtbot, w, "recette-006/2/3")  # refused by E-INVENTE: its checks passed, the first
    editor = open_backtest(qtbot, w)
    assert editor.check_box.currentData() == "D-COMMERCE"
    qtbot.waitUntil(lambda: "evaluated on" in editor.recheck_label.text(), timeout=60000)
    assert editor.recheck_label.text().startswith("D-COMMERCE v2 evaluated on 32 stored")
    editor.check_box.setCurrentIndex(editor.check_box.findData("D-3114"))
    qtbot.waitUntil(lambda: editor.result is not None
                    and editor.result.check_id == "D-3114", timeout=30000)
    # Back on the queue, another attempt: the open editor follows it.
    show(qtbot, w, "recette-005/2/2")
    open_backtest(qtbot, w)
    assert editor.check_box.currentData() == "D-COMMERCE"
    idle(qtbot, w)
    assert reason_row(w, "/recette-005/2/2").startswith("D-COMMERCE: old version refused")
    editor.close()

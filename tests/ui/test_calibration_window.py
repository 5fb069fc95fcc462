"""The Calibration window driven from the keyboard alone: open a grading file, score and
rank answers, see the graders only once a group is scored, the scores surviving a
restart, and the judge's position consistency (fake Ollama, real client)."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QLineEdit

from reviewer.calibration.scores import score_events
from reviewer.calibration.sets import list_sets, load_set
from reviewer.store import Store
from tests.support.fake_ollama import FakeOllama, GroupJudge
from ui.settings import AppSettings
from ui.tasks import TaskManager
from ui.tools.calibration import CalibrationWindow

# The file dialog's completer pops up as the path is typed: offscreen cannot raise it.
pytestmark = [pytest.mark.qt_log_ignore("does not support propagateSizeHints",
                                        "does not support raise",
                                        "does not support grabbing the keyboard"),
              pytest.mark.usefixtures("no_leaks")]

DATA = Path(__file__).parents[1] / "graders" / "data" / "calibration_set.jsonl"
WHO = "claire"


def headers(window: CalibrationWindow) -> list[str]:
    table = window.answers
    return [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]


def column(window: CalibrationWindow, name: str) -> list[str]:
    table = window.answers
    c = headers(window).index(name)
    return [table.item(r, c).text() for r in range(table.rowCount())]


def agreement(window: CalibrationWindow) -> dict[str, list[str]]:
    t = window.agreement
    return {t.item(r, 0).text(): [t.item(r, c).text() for c in range(1, t.columnCount())]
            for r in range(t.rowCount())}


def press(qtbot: Any, window: CalibrationWindow, *keys: Any,
          modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    """Type keys into the window, each write answered before the next key."""
    for key in keys:
        qtbot.keyClick(window.answers, key, modifier)
        qtbot.waitUntil(lambda: window.tasks.pending == 0, timeout=10000)


def open_window(qtbot: Any, tasks: TaskManager, fake: FakeOllama | None = None
                ) -> CalibrationWindow:
    def config() -> AppSettings:
        host = fake.url if fake is not None else "http://127.0.0.1:9"
        return AppSettings(WHO, host, "juge:14b", "", "en", True)

    window = CalibrationWindow(tasks, WHO, config)
    qtbot.addWidget(window)
    with qtbot.waitSignal(window.loaded, timeout=10000):
        window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    return window


def open_with_keyboard(qtbot: Any, window: CalibrationWindow, path: Path) -> None:
    """Ctrl+O, type the path in Qt's file dialog, Enter."""
    qtbot.keyClick(window.answers, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.findChild(QFileDialog, "open_dialog") is not None)
    dialog = window.findChild(QFileDialog, "open_dialog")
    name = dialog.findChild(QLineEdit, "fileNameEdit")
    qtbot.waitUntil(name.hasFocus)
    qtbot.keyClicks(name, str(path))
    with qtbot.waitSignal(window.loaded, timeout=10000):
        qtbot.keyClick(name, Qt.Key.Key_Return)
    window.activateWindow()
    qtbot.waitUntil(window.answers.hasFocus)


@pytest.fixture
def grading_file(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "notes.jsonl"  # an ASCII path: QTest types it key by key
    shutil.copyfile(DATA, path)
    yield path


def test_keyboard_alone_scores_ranks_and_compares(
    qtbot: Any, store: Store, task_manager: TaskManager, grading_file: Path
) -> None:
    window = open_window(qtbot, task_manager)
    assert window.state is None  # nothing stored yet
    open_with_keyboard(qtbot, window, grading_file)
    assert "Group 1 of 12: partage" in window.position.text()

    # Three of the four answers scored: nothing of the graders shows yet (no anchoring).
    press(qtbot, window, Qt.Key.Key_5, Qt.Key.Key_5, Qt.Key.Key_1)
    assert column(window, "You") == ["5", "5", "1", ""]
    assert "rouge_l" not in headers(window)
    assert "Score the 1 answers left" in window.status.text()
    press(qtbot, window, Qt.Key.Key_2)
    assert column(window, "rouge_l") == ["0.632", "0.300", "0.737", "0.143"]
    assert column(window, "Your advantage") == ["+0.85", "+0.85", "-1.09", "-0.61"]
    # ROUGE-L puts C, the wrong recipient, above everything: its cells are highlighted.
    assert "rouge_l inverts: C above A (you: A above C)" in window.inverted.text()
    c = headers(window).index("rouge_l")
    assert window.answers.item(2, c).background().color().name() == "#f8d0d0"
    assert agreement(window)["rouge_l"][:3] == ["0.400", "-0.183", "1"]

    # Next group, ranked instead of scored: the first answer moved down twice, Enter.
    press(qtbot, window, Qt.Key.Key_N)
    assert "Group 2 of 12: horaires" in window.position.text()
    press(qtbot, window, Qt.Key.Key_Down, modifier=Qt.KeyboardModifier.AltModifier)
    press(qtbot, window, Qt.Key.Key_Down, modifier=Qt.KeyboardModifier.AltModifier)
    assert "Ranking changed" in window.status.text()
    assert "rouge_l" not in headers(window)
    press(qtbot, window, Qt.Key.Key_Return)
    assert column(window, "Answer") == ["B", "C", "A", "D"]
    assert column(window, "You") == ["4", "3", "2", "1"]
    assert "numeric" in headers(window)

    # Delete clears a score: the group is unfinished again, the graders hide.
    press(qtbot, window, Qt.Key.Key_K)
    press(qtbot, window, Qt.Key.Key_Delete)
    assert "numeric" not in headers(window)
    assert agreement(window)["rouge_l"][2] == "1"  # one group finished
    press(qtbot, window, Qt.Key.Key_3)  # back to a finished group (scored, not ranked)
    assert agreement(window)["rouge_l"][2] == "2"

    with store.session() as s:
        set_id = list_sets(s, WHO)[0].id
        loaded = load_set(s, set_id, WHO)
        trail = list(score_events(s))
    assert loaded.human[:8] == (5.0, 5.0, 1.0, 2.0, 2.0, 4.0, 3.0, 1.0)
    assert {e["reviewer"] for e in trail} == {WHO}
    assert [e["action"] for e in trail][-2:] == ["clear", "set"]


def test_scores_survive_a_restart(qtbot: Any, store: Store, grading_file: Path,
                                  no_leaks: None) -> None:
    first_tasks = TaskManager(store)
    window = open_window(qtbot, first_tasks)
    open_with_keyboard(qtbot, window, grading_file)
    press(qtbot, window, Qt.Key.Key_4, Qt.Key.Key_5, Qt.Key.Key_1, Qt.Key.Key_2)
    window.close()
    first_tasks.shutdown()

    tasks = TaskManager(store)
    try:
        again = open_window(qtbot, tasks)
        # The last file opened comes back, on its first unfinished group.
        assert "Group 2 of 12" in again.position.text()
        press(qtbot, again, Qt.Key.Key_P)
        assert column(again, "You") == ["4", "5", "1", "2"]
        assert "rouge_l" in headers(again)
        again.close()
    finally:
        tasks.shutdown()


def test_the_judge_in_three_orders_shows_its_position_consistency(
    qtbot: Any, store: Store, task_manager: TaskManager, grading_file: Path,
    fake_ollama: FakeOllama,
) -> None:
    judge = GroupJudge.preferring_first()
    fake_ollama.responder = judge
    window = open_window(qtbot, task_manager, fake_ollama)
    open_with_keyboard(qtbot, window, grading_file)
    press(qtbot, window, Qt.Key.Key_5, Qt.Key.Key_5, Qt.Key.Key_1, Qt.Key.Key_2)
    assert "12 groups × up to 3 orders = 34 judge calls" in window.cost.text()
    with qtbot.waitSignal(window.judged, timeout=30000):
        qtbot.keyClick(window.answers, Qt.Key.Key_J, Qt.KeyboardModifier.ControlModifier)
    assert judge.calls == 34
    assert "judge" in headers(window) and "judge+numbers" in agreement(window)
    text = window.position_label.text()
    consistency = float(text.split(": ")[1].split(" ")[0])
    assert consistency < 1  # this judge prefers the first positions
    assert "Judge on this group: position consistency" in window.inverted.text()
    plain = column(window, "judge")
    window.debias.setChecked(True)  # mean over the orders
    assert column(window, "judge") != plain


def test_the_tools_menu_opens_the_calibration_window_once(
    qtbot: Any, filled_store: Store, make_window: Any
) -> None:
    from PySide6.QtGui import QAction

    window = make_window(filled_store)
    action = window.findChild(QAction, "action_tool_calibration")
    assert action is not None and action in window.tools_menu.actions()
    action.trigger()
    tool = window.feedback_tools.open["calibration"]
    assert isinstance(tool, CalibrationWindow) and tool.isVisible()
    assert tool.tasks is window.tasks  # the app's one task manager
    qtbot.waitUntil(lambda: "Open a grading file" in tool.status.text(), timeout=10000)
    action.trigger()
    assert window.feedback_tools.open["calibration"] is tool  # raised, not duplicated
    tool.close()
    qtbot.waitUntil(lambda: not window.feedback_tools.open, timeout=5000)


def test_scores_given_in_another_window_show_here(
    qtbot: Any, store: Store, task_manager: TaskManager, grading_file: Path
) -> None:
    first = open_window(qtbot, task_manager)
    open_with_keyboard(qtbot, first, grading_file)
    second = open_window(qtbot, task_manager)  # the same file comes back
    assert column(second, "You") == ["", "", "", ""]
    press(qtbot, first, Qt.Key.Key_4, Qt.Key.Key_2)
    # The write reported Changes(calibration=True): the other window reloaded its scores.
    qtbot.waitUntil(lambda: column(second, "You") == ["4", "2", "", ""], timeout=10000)

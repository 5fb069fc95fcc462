"""The Tools menu entries of the feedback loop: back-test, criteria, agreement, export.

``install_tools(window)`` adds them to ``window.tools_menu``. Each tool opens once as its
own window (parented to the main window so it closes with it); choosing the entry again
brings the open one to the front.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QWidget

if TYPE_CHECKING:
    from reviewer.judge.client import JudgeClient
    from ui.review.window import MainWindow

JUDGE_TIMEOUT_S = 120.0


class FeedbackTools:
    """Opens the feedback windows of one main window, one instance each."""

    def __init__(self, window: MainWindow) -> None:
        self.window = window
        self.open: dict[str, QWidget] = {}

    def judge(self) -> JudgeClient:
        """A judge client from the window's settings (host, model)."""
        from reviewer.judge.client import JudgeClient

        config = self.window.config
        return JudgeClient(config.ollama_host, config.ollama_model, timeout=JUDGE_TIMEOUT_S,
                           retries=1)

    def factories(self) -> dict[str, Callable[[], QWidget]]:
        """How to build each tool."""
        # Imported when a tool is first opened: together they pull in the judge client,
        # the graders and the agreement statistics, about 140 ms of a start-up that must
        # paint the queue in under a second.
        from ui.tools.backtest_editor import BacktestEditor
        from ui.tools.criteria_editor import CriteriaEditor
        from ui.tools.dashboard import AgreementDashboard
        from ui.tools.export_dialog import ExportDialog

        w = self.window
        return {
            "backtest": lambda: BacktestEditor(w.store, w.reviewer, w),
            "criteria": lambda: CriteriaEditor(w.store, w.reviewer, self.judge, w),
            "dashboard": lambda: AgreementDashboard(w.store, w),
            "export": lambda: ExportDialog(w.store, w),
        }

    def show(self, name: str) -> QWidget:
        """Open the tool (or raise the open one) and return it."""
        tool = self.open.get(name)
        if tool is None:
            tool = self.factories()[name]()
            tool.setWindowFlag(Qt.WindowType.Window, True)
            tool.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
            tool.destroyed.connect(lambda *_: self.open.pop(name, None))
            self.open[name] = tool
        tool.show()
        tool.raise_()
        tool.activateWindow()
        return tool


def install_tools(window: MainWindow) -> FeedbackTools:
    """Add the feedback entries to the window's Tools menu."""
    tools = FeedbackTools(window)
    # translate() with an explicit context: lupdate cannot know what ``window.tr`` means.
    translate = QCoreApplication.translate
    entries = (
        ("backtest", translate("FeedbackTools", "Regex back-test…")),
        ("criteria", translate("FeedbackTools", "Criteria editor…")),
        ("dashboard", translate("FeedbackTools", "Agreement dashboard…")),
        ("export", translate("FeedbackTools", "Export…")),
    )
    for name, text in entries:
        action = QAction(text, window)
        action.setObjectName(f"action_tool_{name}")
        action.triggered.connect(lambda _checked=False, n=name: tools.show(n))
        window.tools_menu.addAction(action)
    return tools

"""The Tools menu entries of the feedback loop: back-test, criteria, agreement, export,
calibration.

``install_tools(host, menu, parent)`` adds them to ``menu``. Each tool opens once as its
own window (parented to ``parent`` so it closes with it) on the host's task manager, the
app's one; choosing the entry again brings the open one to the front. The host is a
``ToolHost`` (``ui/tools/host.py``): the tools never import the main window.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QWidget

from ui.judge import judge_client
from ui.tools.host import ToolHost

if TYPE_CHECKING:
    from reviewer.judge.client import JudgeClient


class FeedbackTools:
    """Opens the feedback windows of one host, one instance each."""

    def __init__(self, host: ToolHost, parent: QWidget) -> None:
        self.host = host
        self.parent = parent
        self.open: dict[str, QWidget] = {}

    def judge(self) -> JudgeClient:
        """A judge client from the host's settings (host, model)."""
        return judge_client(self.host.config)

    def factories(self) -> dict[str, Callable[[], QWidget]]:
        """How to build each tool."""
        # Imported when a tool is first opened: together they pull in the judge client,
        # the graders and the agreement statistics, about 140 ms of a start-up that must
        # paint the queue in under a second.
        from ui.tools.backtest_editor import BacktestEditor
        from ui.tools.calibration import CalibrationWindow
        from ui.tools.criteria_editor import CriteriaEditor
        from ui.tools.dashboard import AgreementDashboard
        from ui.tools.export_dialog import ExportDialog

        h, p = self.host, self.parent
        return {
            "backtest": lambda: BacktestEditor(h.tasks, h.reviewer, p),
            "criteria": lambda: CriteriaEditor(h.tasks, h.reviewer, self.judge, p),
            "dashboard": lambda: AgreementDashboard(h.tasks, p),
            "export": lambda: ExportDialog(h.tasks, p),
            "calibration": lambda: CalibrationWindow(h.tasks, h.reviewer, lambda: h.config, p),
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


def install_tools(host: ToolHost, menu: QMenu, parent: QWidget) -> FeedbackTools:
    """Add the feedback entries to ``menu``."""
    tools = FeedbackTools(host, parent)
    # translate() with an explicit context: lupdate cannot know what ``parent.tr`` means.
    translate = QCoreApplication.translate
    entries = (
        ("backtest", translate("FeedbackTools", "Regex back-test…")),
        ("criteria", translate("FeedbackTools", "Criteria editor…")),
        ("dashboard", translate("FeedbackTools", "Agreement dashboard…")),
        ("export", translate("FeedbackTools", "Export…")),
        ("calibration", translate("FeedbackTools", "Calibration…")),
    )
    for name, text in entries:
        action = QAction(text, parent)
        action.setObjectName(f"action_tool_{name}")
        action.triggered.connect(lambda _checked=False, n=name: tools.show(n))
        menu.addAction(action)
    return tools

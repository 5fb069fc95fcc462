"""The Tools menu entries of the feedback loop: back-test, criteria, agreement, export,
calibration.

``install_tools(host, menu, parent)`` adds them to ``menu``. Each tool opens once as its
own window (parented to ``parent`` so it closes with it) on the host's task manager, the
app's one; choosing the entry again brings the open one to the front. The host is a
``ToolHost`` (``ui/tools/host.py``): the tools never import the main window.

Keys and mnemonics come from ``TOOL_SHORTCUTS`` (``ui/shortcuts.py``, the one table the
help overlay lists too); every window is framed once, here, by ``frame_tool``
(``ui/tools/window_frame.py``): Esc and Ctrl+W close it, it opens at its content's size
and where it was last closed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu, QWidget

from ui.judge import judge_client
from ui.shortcuts import TOOL_SHORTCUTS
from ui.tools.host import ToolHost
from ui.tools.window_frame import frame_tool

if TYPE_CHECKING:
    from reviewer.judge.client import JudgeClient


class FeedbackTools:
    """Opens the feedback windows of one host, one instance each."""

    def __init__(self, host: ToolHost, parent: QWidget) -> None:
        self.host = host
        self.parent = parent
        self.open: dict[str, QWidget] = {}

    def judge(self) -> JudgeClient:
        """A judge client from the host's settings (host, model), abandoned when the
        app closes."""
        return judge_client(self.host.config, abandon=self.host.tasks.closing)

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
            "backtest": lambda: BacktestEditor(h.tasks, h.reviewer, p,
                                               check_id=h.current_check),
            "criteria": lambda: CriteriaEditor(h.tasks, h.reviewer, self.judge, p),
            "dashboard": lambda: AgreementDashboard(h.tasks, p),
            "export": lambda: ExportDialog(h.tasks, p, memory=h.settings),
            "calibration": lambda: CalibrationWindow(h.tasks, h.reviewer, lambda: h.config, p),
        }

    def show(self, name: str) -> QWidget:
        """Open the tool (or raise the open one) and return it."""
        tool = self.open.get(name)
        if tool is not None and name == "backtest":
            from ui.tools.backtest_editor import BacktestEditor

            if isinstance(tool, BacktestEditor):
                # Opened again from another attempt: its check, unless an edit is under way.
                tool.select_check(self.host.current_check)
        if tool is None:
            tool = self.factories()[name]()
            tool.setWindowFlag(Qt.WindowType.Window, True)
            tool.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
            tool.destroyed.connect(lambda *_: self.open.pop(name, None))
            self.open[name] = tool
            frame_tool(tool, name, self.host.settings)
        tool.show()
        tool.raise_()
        tool.activateWindow()
        return tool


def install_tools(host: ToolHost, menu: QMenu, parent: QWidget) -> FeedbackTools:
    """Add the feedback entries to ``menu``, with their keys from ``TOOL_SHORTCUTS``."""
    tools = FeedbackTools(host, parent)
    for s in TOOL_SHORTCUTS:
        action = QAction(s.label(), parent)
        action.setObjectName(f"action_tool_{s.name}")
        action.setShortcuts([QKeySequence(k) for k in s.keys])
        action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        action.triggered.connect(lambda _checked=False, n=s.name: tools.show(n))
        parent.addAction(action)  # the keys work with the menu closed
        menu.addAction(action)
    return tools

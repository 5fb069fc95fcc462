"""What every Tools window gets from its host: closing keys, a first size that shows its
content, and the geometry it had when last closed.

``frame_tool(tool, name, settings)`` is called once per window by ``FeedbackTools``
(``ui/tools/menu.py``), so no tool has to remember any of it:

- Esc and Ctrl+W close it (a window action: it works from any of its fields);
- with no saved geometry it opens at its content's size: the layout's size hint, widened
  so every table shows all its columns (a table's own hint ignores them: the dashboard
  opened 445 px wide with cut columns), bounded by the screen's available area; a tool
  with a ``loaded`` signal (the dashboard, whose figures arrive later) grows again once
  they are shown, until the reviewer resizes it;
- its geometry is saved under ``window/tool_<name>`` when it closes, restored next time.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QSize, Qt, SignalInstance
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import QTableView, QWidget

from ui.settings import Settings

CLOSE_KEYS = ("Esc", "Ctrl+W")
SCREEN_SHARE = 0.9  # of the available area: the window's frame and the panel stay visible


def table_width(table: QTableView) -> int:
    """The width a table needs to show every column without a horizontal scroll bar."""
    width = table.horizontalHeader().length() + 2 * table.frameWidth()
    if table.verticalHeader().isVisible():
        width += table.verticalHeader().sizeHint().width()
    if table.verticalScrollBarPolicy() != Qt.ScrollBarPolicy.ScrollBarAlwaysOff:
        width += table.verticalScrollBar().sizeHint().width()
    return width


def content_size(tool: QWidget) -> QSize:
    """The layout's size hint with every table as wide as its columns.

    Each table's minimum width is raised to what its columns need while the layout is
    asked, then put back: the layout adds its own margins and neighbours.
    """
    tables = [t for t in tool.findChildren(QTableView) if t.isVisibleTo(tool)]
    kept = [t.minimumWidth() for t in tables]
    for table in tables:
        table.setMinimumWidth(max(table.minimumWidth(), table_width(table)))
    layout = tool.layout()
    if layout is not None:
        layout.invalidate()
    try:
        return tool.sizeHint()
    finally:
        for table, width in zip(tables, kept, strict=True):
            table.setMinimumWidth(width)
        if layout is not None:
            layout.invalidate()


def bounded(tool: QWidget, size: QSize) -> QSize:
    """``size``, no larger than the share of the screen the tool opens on."""
    screen = tool.screen()
    if screen is None:
        return size
    area = screen.availableGeometry()
    return QSize(min(size.width(), int(area.width() * SCREEN_SHARE)),
                 min(size.height(), int(area.height() * SCREEN_SHARE)))


def fit_to_content(tool: QWidget) -> None:
    """Grow the tool (never shrink it) to its content's size, within the screen."""
    wanted = bounded(tool, content_size(tool).expandedTo(tool.minimumSizeHint()))
    size = tool.size().expandedTo(wanted) if tool.isVisible() else wanted
    if size != tool.size():
        tool.resize(size)


class GeometryKeeper(QObject):
    """Saves the tool's geometry when it closes; knows whether the reviewer sized it."""

    def __init__(self, tool: QWidget, name: str, settings: Settings) -> None:
        super().__init__(tool)
        self.tool, self.key, self.settings = tool, f"tool_{name}", settings
        self.sized_by_user = False
        self._fitting = False
        tool.installEventFilter(self)

    def restore(self) -> bool:
        """Put the tool where it was last closed; False when it never was."""
        saved = self.settings.geometry(self.key)
        if saved is None or not self.tool.restoreGeometry(saved):
            return False
        self.sized_by_user = True
        return True

    def fit(self) -> None:
        """Grow to the content unless the reviewer chose a size."""
        if not self.sized_by_user:
            self._fitting = True
            try:
                fit_to_content(self.tool)
            finally:
                self._fitting = False

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Remember the geometry on close; a resize by the reviewer stops the fitting."""
        if watched is self.tool:
            if event.type() == QEvent.Type.Close:
                self.settings.set_geometry(self.key, self.tool.saveGeometry())
            elif event.type() == QEvent.Type.Resize and self.tool.isVisible() \
                    and not self._fitting and event.spontaneous():
                self.sized_by_user = True
        return False


def taken_keys(tool: QWidget) -> set[str]:
    """The key sequences the tool already binds (its own QShortcuts and QActions)."""
    keys = {s.key().toString() for s in tool.findChildren(QShortcut)}
    keys |= {k.toString() for a in tool.findChildren(QAction) for k in a.shortcuts()}
    return keys


def close_action(tool: QWidget) -> QAction:
    """Esc and Ctrl+W close the tool from any of its widgets.

    A key the tool binds itself is left to it (the calibration window closes on its own
    Esc): two bindings of one key make it ambiguous, and then neither fires.
    """
    taken = taken_keys(tool)
    action = QAction(tool)
    action.setObjectName("action_close_tool")
    action.setShortcuts([QKeySequence(k) for k in CLOSE_KEYS
                         if QKeySequence(k).toString() not in taken])
    action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
    action.triggered.connect(tool.close)
    tool.addAction(action)
    return action


def frame_tool(tool: QWidget, name: str, settings: Settings) -> GeometryKeeper:
    """Give a Tools window its closing keys, first size and remembered geometry."""
    close_action(tool)
    keeper = GeometryKeeper(tool, name, settings)
    if not keeper.restore():
        keeper.fit()
    loaded = getattr(tool, "loaded", None)
    if isinstance(loaded, SignalInstance):
        loaded.connect(keeper.fit)
    return keeper


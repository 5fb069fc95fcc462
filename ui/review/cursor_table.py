"""The verdict cursor: the pane's verdict and check tables walked from the keyboard.

``V`` puts the cursor on the first verdict; the arrows move it over every verdict row
(rows 11 and 12 too, which no number key reaches) and on into the check rows; Space or
Enter flips the row under it (a verdict's override, a failed check's false-positive
mark); Esc gives the keyboard back to the queue (the window's Esc). A double click flips
a row with the mouse. The window's own shortcuts for these keys (Up/Down move in the
queue, Space scrolls the pane) yield to the table while it has the keyboard.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QItemSelectionModel, QModelIndex, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QTableView, QWidget

# Keys the table takes from the window's shortcuts while it has the keyboard.
OWN_KEYS = frozenset({Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_Home, Qt.Key.Key_End,
                      Qt.Key.Key_Space, Qt.Key.Key_Return, Qt.Key.Key_Enter})


class CursorTable(QTableView):
    """A pane table the cursor can walk (keyboard only while the cursor is in it).

    Signals:
        flip_requested(int): Space, Enter or a double click on this row.
        left_above(): Up on the first row (the cursor goes to the table above).
        left_below(): Down on the last row (the cursor goes to the table below).
    """

    flip_requested = Signal(int)
    left_above = Signal()
    left_below = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.doubleClicked.connect(self._double_clicked)

    def enter(self, row: int) -> bool:
        """Put the cursor on ``row`` (clamped) and give this table the keyboard."""
        model = self.model()
        rows = model.rowCount() if model is not None else 0
        if rows == 0:
            return False
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.place(max(0, min(row, rows - 1)))
        self.setFocus(Qt.FocusReason.ShortcutFocusReason)
        return True

    def place(self, row: int) -> None:
        """Select ``row`` as the cursor's row (no focus change)."""
        model = self.model()
        if model is None or not 0 <= row < model.rowCount():
            return
        self.selectionModel().setCurrentIndex(
            model.index(row, 0), QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows)

    @property
    def row(self) -> int:
        """The cursor's row (−1 when none)."""
        index = self.currentIndex()
        return index.row() if index.isValid() else -1

    def focusOutEvent(self, event: object) -> None:
        """The cursor left: the table goes back to mouse-only (Tab never stops here)."""
        super().focusOutEvent(event)  # type: ignore[arg-type]
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)

    def event(self, e: QEvent) -> bool:
        """Take the cursor's keys from the window's shortcuts."""
        if e.type() == QEvent.Type.ShortcutOverride and isinstance(e, QKeyEvent) \
                and e.key() in OWN_KEYS and e.modifiers() in (
                    Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.KeypadModifier):
            e.accept()
            return True
        return super().event(e)

    def keyPressEvent(self, e: QKeyEvent) -> None:
        """Move, flip, or leave at either end."""
        model = self.model()
        rows = model.rowCount() if model is not None else 0
        row, key = self.row, e.key()
        if key == Qt.Key.Key_Up:
            if row <= 0:
                self.left_above.emit()
            else:
                self.place(row - 1)
        elif key == Qt.Key.Key_Down:
            if row >= rows - 1:
                self.left_below.emit()
            else:
                self.place(row + 1)
        elif key == Qt.Key.Key_Home:
            self.place(0)
        elif key == Qt.Key.Key_End:
            self.place(rows - 1)
        elif key in (Qt.Key.Key_Space, Qt.Key.Key_Return, Qt.Key.Key_Enter):
            if row >= 0:
                self.flip_requested.emit(row)
        else:
            super().keyPressEvent(e)

    def _double_clicked(self, index: QModelIndex) -> None:
        if index.isValid():
            self.flip_requested.emit(index.row())


def focus_inside(obj: QObject | None, widget: QWidget) -> bool:
    """Whether ``obj`` (the focus widget) is ``widget`` or inside it."""
    while isinstance(obj, QWidget):
        if obj is widget:
            return True
        obj = obj.parentWidget()
    return False

"""Table models of the example pane (verdicts, checks) and the plain-text highlight delegate.

Cells are plain text; highlights (contradiction evidence, check matches) are character
formats applied on a document built with ``setPlainText``, never HTML built from data.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    QSize,
    Qt,
)
from PySide6.QtGui import QBrush, QColor, QPainter, QTextCharFormat, QTextCursor, QTextDocument
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
)

from reviewer.review.example import CheckRow, VerdictRow
from ui.widgets_util import rich_tooltip

Index = QModelIndex | QPersistentModelIndex
EVIDENCE_BG = QColor("#ffd54f")
MATCH_BG = QColor("#ffab91")
BAD = QColor("#b3261e")
GOOD = QColor("#1b6e3a")


class Role(IntEnum):
    """Named roles of the pane's models."""

    Spans = Qt.ItemDataRole.UserRole + 20
    Ident = Qt.ItemDataRole.UserRole + 21
    Contradiction = Qt.ItemDataRole.UserRole + 22
    Effective = Qt.ItemDataRole.UserRole + 23


def yes_no(met: bool) -> str:
    """The judge's word for a verdict ("oui" means the criterion's statement holds)."""
    if met:
        return QCoreApplication.translate("VerdictModel", "yes")
    return QCoreApplication.translate("VerdictModel", "no")


class _RowsModel(QAbstractTableModel):
    """A flat table over a tuple of rows: ``COLS`` names the columns, ``titles()`` heads them."""

    COLS: tuple[str, ...] = ()

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.rows: tuple[Any, ...] = ()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        """Rows shown."""
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        """See ``COLS``."""
        return 0 if parent.isValid() else len(self.COLS)

    def titles(self) -> tuple[str, ...]:
        """Column titles (translated in the subclass, whose name is the translation context)."""
        return self.COLS

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Column titles."""
        if orientation != Qt.Orientation.Horizontal or role != Qt.ItemDataRole.DisplayRole:
            return None
        titles = self.titles()
        return titles[section] if 0 <= section < len(titles) else None


class VerdictModel(_RowsModel):
    """One row per criterion, in the order the number keys 1–9 toggle them."""

    COLS = ("n", "criterion", "polarity", "judge", "now", "rationale", "flag", "second")
    rows: tuple[VerdictRow, ...]

    def set_rows(self, rows: tuple[VerdictRow, ...]) -> None:
        """Replace the verdicts shown."""
        self.beginResetModel()
        self.rows = rows
        self.endResetModel()

    def titles(self) -> tuple[str, ...]:
        """Column titles."""
        return ("#", self.tr("Criterion"), "±", self.tr("Judge"), self.tr("Now"),
                self.tr("Rationale"), self.tr("Contradiction"), self.tr("Second opinion"))

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Cells, colours, tooltips and named roles."""
        if not index.isValid() or not 0 <= index.row() < len(self.rows):
            return None
        v, col = self.rows[index.row()], self.COLS[index.column()]
        if role == Role.Ident:
            return v.criterion_id
        if role == Role.Contradiction:
            return v.contradiction
        if role == Role.Effective:
            return v.effective
        if role == Role.Spans:
            return list(v.evidence_spans) if col == "rationale" else []
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(index.row(), v, col)
        if role == Qt.ItemDataRole.ToolTipRole and col == "criterion":
            return rich_tooltip(v.text)
        if role == Qt.ItemDataRole.ToolTipRole and col == "flag" and v.evidence:
            return rich_tooltip(v.evidence)
        if role == Qt.ItemDataRole.ToolTipRole and col == "second" and v.second_opinion:
            return self._second_tooltip(v)
        if role == Qt.ItemDataRole.ForegroundRole:
            return self._colour(v, col)
        if role == Qt.ItemDataRole.BackgroundRole and col == "flag" and v.contradiction:
            return QBrush(QColor("#fde0dc"))
        return None

    def _display(self, row: int, v: VerdictRow, col: str) -> str:
        if col == "n":
            return str(row + 1) if row < 9 else ""
        if col == "criterion":
            return v.criterion_id
        if col == "polarity":
            return v.polarity
        if col == "judge":
            return yes_no(v.met)
        if col == "now":
            text = yes_no(v.effective)
            return text + (" ✎" if v.override is not None else "")
        if col == "rationale":
            return v.rationale
        if col == "flag":
            return self.tr("⚠ contradiction %1").replace("%1", f"{v.score:.2f}") \
                if v.contradiction else ""
        second = v.second_opinion
        if second is None:
            return ""
        text = f"{yes_no(second.met)} : {second.rationale}"
        if not second.applied:
            text = "⚠ " + self.tr("unreliable — not applied") + " — " + text
        return text

    def _second_tooltip(self, v: VerdictRow) -> str | None:
        """Why a second opinion was not applied, and the judge's reasoning (on demand)."""
        second = v.second_opinion
        assert second is not None
        parts = []
        if not second.applied and second.unreliable_reason:
            parts.append(self.tr("Not applied: %1").replace("%1", second.unreliable_reason))
        if second.reasoning:
            parts.append(self.tr("Judge's reasoning: %1").replace("%1", second.reasoning))
        return rich_tooltip("\n\n".join(parts)) if parts else None

    @staticmethod
    def _colour(v: VerdictRow, col: str) -> QBrush | None:
        if col in ("now", "criterion") and v.refuses:
            return QBrush(BAD)
        if col == "flag" and v.contradiction:
            return QBrush(BAD)
        if col == "second" and v.second_opinion is not None and not v.second_opinion.applied:
            return QBrush(BAD)
        if col == "now" and v.override is not None:
            return QBrush(GOOD)
        return None


class CheckModel(_RowsModel):
    """One row per deterministic check result."""

    COLS = ("check", "mode", "result", "matches", "description")
    rows: tuple[CheckRow, ...]

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.response = ""

    def set_rows(self, rows: tuple[CheckRow, ...], response: str) -> None:
        """Replace the checks shown."""
        self.beginResetModel()
        self.rows = rows
        self.response = response
        self.endResetModel()

    def titles(self) -> tuple[str, ...]:
        """Column titles."""
        return (self.tr("Check"), self.tr("Mode"), self.tr("Result"), self.tr("Matches"),
                self.tr("Description"))

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Cells, colours, tooltips and named roles."""
        if not index.isValid() or not 0 <= index.row() < len(self.rows):
            return None
        c, col = self.rows[index.row()], self.COLS[index.column()]
        if role == Role.Ident:
            return c.check_id
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(c, col)
        if role == Qt.ItemDataRole.ToolTipRole and col == "check":
            return rich_tooltip(c.pattern)
        if role == Qt.ItemDataRole.ForegroundRole and col == "result":
            if c.passed or c.false_positive:
                return QBrush(GOOD)
            return QBrush(BAD)
        return None

    def _display(self, c: CheckRow, col: str) -> str:
        if col == "check":
            return c.check_id
        if col == "mode":
            return self.tr("forbid") if c.mode == "forbid" else self.tr("require")
        if col == "result":
            if c.false_positive:
                return self.tr("failed → false positive")
            return self.tr("passed") if c.passed else self.tr("failed")
        if col == "matches":
            found = [self.response[s:e] for s, e in c.spans]
            return c.error or ", ".join(f"« {m} »" for m in found)
        return c.description


class HighlightDelegate(QStyledItemDelegate):
    """Paints a cell's plain text with the spans of ``Role.Spans`` highlighted, wrapped."""

    def __init__(self, view: QTableView, colour: QColor = EVIDENCE_BG) -> None:
        super().__init__(view)
        self.view = view
        self.colour = colour

    def _document(self, option: QStyleOptionViewItem, index: Index, width: int) -> QTextDocument:
        doc = QTextDocument()
        doc.setDefaultFont(option.font)
        doc.setPlainText(str(index.data(Qt.ItemDataRole.DisplayRole) or ""))
        doc.setTextWidth(max(width, 40))
        fmt = QTextCharFormat()
        fmt.setBackground(self.colour)
        fmt.setFontWeight(700)
        cursor = QTextCursor(doc)
        length = doc.characterCount() - 1
        for start, end in index.data(Role.Spans) or []:
            if 0 <= start < end <= length:
                cursor.setPosition(start)
                cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
                cursor.mergeCharFormat(fmt)
        return doc

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        """Draw the background as usual, then the highlighted document."""
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        opt.text = ""
        style = self.view.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, self.view)
        rect = option.rect
        doc = self._document(option, index, rect.width() - 4)
        painter.save()
        painter.translate(rect.left() + 2, rect.top() + 1)
        doc.drawContents(painter)
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        """Height of the wrapped text at the column's width."""
        width = self.view.columnWidth(index.column())
        doc = self._document(option, index, width - 4)
        return QSize(width, int(doc.size().height()) + 2)


def setup_table(view: QTableView) -> None:
    """Read-only, wrapped, row-selecting table whose rows fit their contents."""
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.setWordWrap(True)
    view.verticalHeader().setVisible(False)
    view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    view.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    view.setFocusPolicy(Qt.FocusPolicy.NoFocus)


def fit_height(view: QTableView) -> None:
    """Make the table exactly as tall as its rows (it lives in a scrolling pane)."""
    view.resizeRowsToContents()
    model = view.model()
    rows = model.rowCount() if model is not None else 0
    height = view.horizontalHeader().height() + 2 * view.frameWidth()
    height += sum(view.rowHeight(r) for r in range(rows))
    view.setFixedHeight(height + 2)


def stretch(view: QTableView, column: int, widths: dict[int, int]) -> None:
    """Fixed widths for short columns, the rest for one stretching column."""
    header = view.horizontalHeader()
    for col, width in widths.items():
        header.setSectionResizeMode(col, QHeaderView.ResizeMode.Interactive)
        view.setColumnWidth(col, width)
    header.setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)


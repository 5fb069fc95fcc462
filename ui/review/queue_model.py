"""The queue as a Qt table model, fetched page by page from ``reviewer.review.queue``.

The model never holds the whole table: ``canFetchMore``/``fetchMore`` ask the app's task
manager for the next page (200 rows) and insert it when it arrives; ``refresh_rows``
redraws the rows an operation changed. Named roles expose the row's data to the views
and the tests (napari style).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from enum import IntEnum
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import QBrush, QColor

from reviewer.review.queue import PAGE, QueueFilter, QueueRow, queue_page, queue_rows
from reviewer.review.visible import plain as visible
from ui.tasks import TaskManager
from ui.widgets_util import rich_tooltip

Index = QModelIndex | QPersistentModelIndex


class Role(IntEnum):
    """Named roles of the queue model."""

    AttemptId = Qt.ItemDataRole.UserRole + 1
    Key = Qt.ItemDataRole.UserRole + 2
    Score = Qt.ItemDataRole.UserRole + 3
    Flagged = Qt.ItemDataRole.UserRole + 4
    Decision = Qt.ItemDataRole.UserRole + 5
    Reasons = Qt.ItemDataRole.UserRole + 6
    Accepted = Qt.ItemDataRole.UserRole + 7


COLUMNS = ("state", "key", "score", "reason")
FLAG_COLOUR = QColor("#b3261e")
ACCEPT_COLOUR = QColor("#1b6e3a")
REJECT_COLOUR = QColor("#8a4b00")


class QueueModel(QAbstractTableModel):
    """Rows of the review queue, loaded lazily.

    Signals:
        page_loaded(int): a page arrived; how many rows are loaded now.
        reset_done(): the first page under a new filter arrived.
        failed(str): a page could not be read; the one-line message.
    """

    page_loaded = Signal(int)
    reset_done = Signal()
    failed = Signal(str)

    def __init__(self, tasks: TaskManager, parent: Any = None) -> None:
        super().__init__(parent)
        self.tasks = tasks
        self.filter = QueueFilter()
        self.rows: list[QueueRow] = []
        self._exhausted = True
        self._fetching = False
        self._generation = 0
        self.page_size = PAGE

    # --- loading -------------------------------------------------------------------------
    def set_filter(self, f: QueueFilter) -> None:
        """Show the queue under a new filter (starts loading its first page)."""
        self.beginResetModel()
        audit_changed = (f.audit_sample is None) != (self.filter.audit_sample is None)
        self.filter = f
        self.rows = []
        self._exhausted = False
        self._fetching = False
        self._generation += 1
        self.endResetModel()
        if audit_changed:
            self.headerDataChanged.emit(Qt.Orientation.Horizontal, 3, 3)
        self._load_page()

    def _load_page(self) -> None:
        if self._fetching or self._exhausted:
            return
        self._fetching = True
        generation, f, offset, size = self._generation, self.filter, len(self.rows), \
            self.page_size

        self.tasks.query(lambda s: queue_page(s, f, offset, size),
                         lambda rows: self._arrived(generation, offset, size, rows),
                         lambda exc: self._failed(generation, exc), owner=self)

    def _failed(self, generation: int, exc: BaseException) -> None:
        if generation == self._generation:
            self._fetching = False
            self._exhausted = True
            self.failed.emit(str(exc) or type(exc).__name__)

    def _arrived(self, generation: int, offset: int, size: int, rows: list[QueueRow]) -> None:
        if generation != self._generation or offset != len(self.rows):
            return  # a page for a filter that changed meanwhile
        # Still "fetching" while rows go in: views and testers call fetchMore from the
        # insertion signals, and must not ask for the page being inserted a second time.
        self._exhausted = len(rows) < size
        if rows:
            self.beginInsertRows(QModelIndex(), offset, offset + len(rows) - 1)
            self.rows.extend(rows)
            self.endInsertRows()
        self._fetching = False
        self.page_loaded.emit(len(self.rows))
        if offset == 0:
            self.reset_done.emit()

    @property
    def loading(self) -> bool:
        """True while a page is on its way."""
        return self._fetching

    def canFetchMore(self, parent: Index = QModelIndex()) -> bool:  # noqa: B008
        """More rows exist and none are being fetched."""
        return not parent.isValid() and not self._exhausted and not self._fetching

    def fetchMore(self, parent: Index = QModelIndex()) -> None:  # noqa: B008
        """Ask the worker for the next page."""
        if not parent.isValid():
            self._load_page()

    # --- updates -------------------------------------------------------------------------
    def row_of(self, attempt_id: int) -> int | None:
        """The loaded row showing ``attempt_id``."""
        for i, r in enumerate(self.rows):
            if r.attempt_id == attempt_id:
                return i
        return None

    def set_decision(self, attempt_id: int, decision: str | None) -> None:
        """Show a new review decision on a loaded row."""
        i = self.row_of(attempt_id)
        if i is None:
            return
        self.rows[i] = self.rows[i]._replace(decision=decision, reviewed=decision is not None)
        self.dataChanged.emit(self.index(i, 0), self.index(i, len(COLUMNS) - 1))

    def refresh_rows(self, attempt_ids: Iterable[int]) -> None:
        """Read the loaded rows of ``attempt_ids`` again (after an operation changed them)."""
        shown = {r.attempt_id for r in self.rows}
        loaded = [i for i in attempt_ids if i in shown]
        if not loaded:
            return
        generation, f = self._generation, self.filter
        self.tasks.query(lambda s: queue_rows(s, f, loaded),
                         lambda rows: self._refreshed(generation, rows), owner=self)

    def _refreshed(self, generation: int, rows: list[QueueRow]) -> None:
        if generation != self._generation:
            return  # the filter changed: the rows were read again anyway
        where = {r.attempt_id: i for i, r in enumerate(self.rows)}
        changed = [where[new.attempt_id] for new in rows if new.attempt_id in where]
        for i, new in zip(changed, (n for n in rows if n.attempt_id in where), strict=True):
            self.rows[i] = new
        # One signal for the span: after a bulk action a signal per row made the view
        # size its columns to their contents once per row (seconds for a page).
        if changed:
            self.dataChanged.emit(self.index(min(changed), 0),
                                  self.index(max(changed), len(COLUMNS) - 1))

    def load_until(self, attempt_id: int, found: Callable[[int | None], None]) -> None:
        """Fetch pages until ``attempt_id`` is loaded (or the queue ends), then ``found(row)``."""
        row = self.row_of(attempt_id)
        if row is not None or self._exhausted:
            found(row)
            return

        def again(_: int) -> None:
            self.page_loaded.disconnect(again)
            self.load_until(attempt_id, found)

        self.page_loaded.connect(again)
        self._load_page()

    # --- Qt model API --------------------------------------------------------------------
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        """Loaded rows (0 under a valid parent: this is a flat table)."""
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        """Decision mark, key, contradiction score, first reason."""
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Column titles and, as tooltips, what they mean."""
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(COLUMNS):
            return None
        audit = self.filter.audit_sample is not None  # accepted attempts: no refusal
        if role == Qt.ItemDataRole.DisplayRole:
            return (self.tr("Review"), self.tr("Attempt"), self.tr("Contradiction"),
                    self.tr("The filter said") if audit else self.tr("Why refused"))[section]
        if role == Qt.ItemDataRole.ToolTipRole:
            return (
                self.tr("Your decision: ✓ accepted, ✗ rejected, · not yet. ⚑: the judge "
                        "contradicts itself on this attempt."),
                self.tr("Conversation · turn/attempt."),
                self.tr("How strongly a verdict's rationale says the opposite of the "
                        "verdict (the detector's score, 0–1); the queue puts the highest "
                        "first."),
                self.tr("What the filter decided (these attempts were accepted).") if audit
                else self.tr("The filter's first reason for refusing; hover a row for all."),
            )[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Cell text, colours and the named roles."""
        if not index.isValid() or not 0 <= index.row() < len(self.rows):
            return None
        row = self.rows[index.row()]
        col = index.column()
        if role == Role.AttemptId:
            return row.attempt_id
        if role == Role.Key:
            return str(row.key)
        if role == Role.Score:
            return row.score
        if role == Role.Flagged:
            return row.flagged
        if role == Role.Decision:
            return row.decision
        if role == Role.Reasons:
            return list(row.reasons)
        if role == Role.Accepted:
            return row.accepted
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(row, col)
        if role == Qt.ItemDataRole.ToolTipRole and col == 3 and row.reasons:
            # Tooltips are rich text: escape the data so markup in a reason shows as text.
            return rich_tooltip("\n".join(visible(r) for r in row.reasons))
        if role == Qt.ItemDataRole.ForegroundRole:
            return self._colour(row, col)
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (0, 2):
            return int(Qt.AlignmentFlag.AlignCenter)
        return None

    def _display(self, row: QueueRow, col: int) -> str:
        if col == 0:
            mark = {"accept": "✓", "reject": "✗"}.get(row.decision or "", "·")
            return mark + (" ⚑" if row.flagged else "")
        if col == 1:
            return f"{visible(row.key.conversation)} · {row.key.turn}/{row.key.attempt}"
        if col == 2:
            return f"{row.score:.2f}" if row.score else ""
        if row.accepted:
            return self.tr("accepted by the filter")
        if row.rechecked:
            # The feedback loop: a saved version no longer refuses what the old one did.
            return self.tr("%1: old version refused, current version passes — %2").replace(
                "%1", visible(row.rechecked)).replace(
                "%2", visible(row.reasons[0]) if row.reasons else "")
        return visible(row.reasons[0]) if row.reasons else ""

    @staticmethod
    def _colour(row: QueueRow, col: int) -> QBrush | None:
        if col == 0 and row.decision == "accept":
            return QBrush(ACCEPT_COLOUR)
        if col == 0 and row.decision == "reject":
            return QBrush(REJECT_COLOUR)
        if col in (0, 2) and row.flagged:
            return QBrush(FLAG_COLOUR)
        return None

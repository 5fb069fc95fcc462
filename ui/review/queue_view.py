"""The queue table: which row is current, moving through it, finding an attempt in it.

The view keeps the reviewer's place across reloads (``keep``: the attempt to select again
when the first page under a new filter arrives), fetches pages up to an attempt it is
asked to select, and goes on to the next page when "next" reaches the end of the loaded
rows. It says what became current by signal; loading the example is the window's job.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QItemSelectionModel, QModelIndex, Qt, Signal
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from reviewer.review.queue import queue_index
from ui.review.queue_model import QueueModel, Role
from ui.tasks import TaskManager


class QueueView(QTableView):
    """The review queue, one attempt per row.

    Signals:
        attempt_chosen(int): this attempt's row became current.
        attempt_outside(int): an attempt asked for is not in this queue (nothing selected).
        emptied(): the queue under the new filter has no row.
        end_reached(): "next" was asked on the last row of the queue.
    """

    attempt_chosen = Signal(int)
    attempt_outside = Signal(int)
    emptied = Signal()
    end_reached = Signal()

    def __init__(self, model: QueueModel, tasks: TaskManager,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.queue_model = model
        self.tasks = tasks
        self._pending: int | None = None
        self._advance_pending = False
        self.setObjectName("queue")
        self.setModel(model)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.verticalHeader().setVisible(False)
        self.verticalHeader().setDefaultSectionSize(24)
        self.setWordWrap(False)
        header = self.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Fixed)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Fixed)
        header.setStretchLastSection(True)
        self.setColumnWidth(0, 52)
        self.setColumnWidth(2, 48)
        model.reset_done.connect(self._after_reset)
        model.page_loaded.connect(self._after_page)
        self.selectionModel().currentRowChanged.connect(self._row_changed)

    def keep(self, attempt_id: int | None) -> None:
        """Select ``attempt_id`` again once the queue is read anew (unless another is due)."""
        if attempt_id is not None and self._pending is None:
            self._pending = attempt_id

    def _row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid():
            self.attempt_chosen.emit(int(current.data(Role.AttemptId)))

    def _after_reset(self) -> None:
        target, self._pending = self._pending, None
        row = None if target is None else self.queue_model.row_of(target)
        if row is not None:
            self.select_row(row)
        elif self.queue_model.rowCount() > 0:
            self.select_row(0)
        else:
            self.emptied.emit()

    def _after_page(self, _rows: int) -> None:
        if self._advance_pending:
            self._advance_pending = False
            self.go(1)

    def select_row(self, row: int) -> None:
        """Make ``row`` current (its attempt is then chosen)."""
        index = self.queue_model.index(row, 1)
        self.selectionModel().setCurrentIndex(
            index, QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows)
        self.scrollTo(index)

    def select_attempt(self, attempt_id: int) -> None:
        """Select ``attempt_id`` (fetching pages up to it); if the queue hides it, say so."""
        model = self.queue_model
        if model.loading and model.rowCount() == 0:
            self._pending = attempt_id  # the first page is on its way: select it there
            return
        if model.row_of(attempt_id) is not None:
            model.load_until(attempt_id, self._found(attempt_id))
            return
        f = model.filter

        def done(index: int | None) -> None:
            if index is None or f != model.filter:
                self._found(attempt_id)(None)
            else:
                model.load_until(attempt_id, self._found(attempt_id))

        self.tasks.query(lambda s: queue_index(s, f, attempt_id), done, owner=self)

    def _found(self, attempt_id: int) -> Callable[[int | None], None]:
        def found(row: int | None) -> None:
            if row is not None:
                self.select_row(row)
                return
            # Not in this queue (e.g. an accepted attempt): shown, nothing selected.
            self.selectionModel().clearCurrentIndex()
            self.clearSelection()
            self.attempt_outside.emit(attempt_id)
        return found

    def go(self, step: int) -> None:
        """Go to the next (1) or previous (−1) attempt of the queue."""
        model = self.queue_model
        current = self.currentIndex()
        target = (current.row() if current.isValid() else -1) + step
        if 0 <= target < model.rowCount():
            self.select_row(target)
        elif step > 0 and model.canFetchMore():
            self._advance_pending = True
            model.fetchMore()
        elif step > 0 and model.loading:
            self._advance_pending = True
        elif step > 0:
            self.end_reached.emit()

    def focus(self) -> None:
        """Give the keyboard to the queue (the review keys act from here)."""
        self.setFocus(Qt.FocusReason.OtherFocusReason)

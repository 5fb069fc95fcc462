"""The queue table: which row is current, moving through it, finding an attempt in it.

The view keeps the reviewer's place across reloads (``keep``: the attempt to select again
when the first page under a new filter arrives; without one, the first attempt the
reviewer has not decided), fetches pages up to an attempt it is asked to select, and goes
on to the next page when "next" reaches the end of the loaded rows; ``moving`` is True
while it is on its way to an attempt (keys typed meanwhile wait for it). It says what
became current by signal; loading the example is the window's job. The attempt column
never narrows below the widest name it has shown (it used to collapse to "rec…" when a
filter change emptied the table for a moment).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QItemSelectionModel, QModelIndex, Qt, Signal
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from reviewer.review.queue import next_unreviewed, queue_index
from ui.review.queue_model import QueueModel, Role
from ui.tasks import TaskManager


class QueueView(QTableView):
    """The review queue, one attempt per row.

    Signals:
        attempt_chosen(int): this attempt's row became current.
        attempt_outside(int): an attempt asked for is not in this queue (nothing selected).
        emptied(): the queue under the new filter has no row.
        end_reached(): "next" was asked on the last row of the queue.
        settled(): the view is no longer on its way to an attempt (``moving`` is False).
        all_reviewed(): "next unreviewed" found every attempt of the queue decided.
        wrapped(): "next unreviewed" found none below and went back to the top.
    """

    attempt_chosen = Signal(int)
    attempt_outside = Signal(int)
    emptied = Signal()
    end_reached = Signal()
    settled = Signal()
    all_reviewed = Signal()
    wrapped = Signal()

    def __init__(self, model: QueueModel, tasks: TaskManager,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.queue_model = model
        self.tasks = tasks
        self._pending: int | None = None
        self._advance_pending = False
        self._locating = 0  # select_attempt lookups on their way
        self.setObjectName("queue")
        self.setTabKeyNavigation(False)  # Tab leaves the queue for the filter bar
        self.setModel(model)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        # Shift+arrows or Ctrl+click pick several rows for a bulk action; J/K select one.
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.verticalHeader().setVisible(False)
        self.verticalHeader().setDefaultSectionSize(24)
        self.setWordWrap(False)
        header = self.horizontalHeader()
        for col in (0, 1, 2):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        self.setColumnWidth(0, 56)
        self.setColumnWidth(1, self._text_width("recette-000 · 0/0"))
        self.setColumnWidth(2, max(self._text_width(str(model.headerData(
            2, Qt.Orientation.Horizontal))), 56))
        model.reset_done.connect(self._after_reset)
        model.page_loaded.connect(self._after_page)
        self.selectionModel().currentRowChanged.connect(self._row_changed)

    def _text_width(self, text: str) -> int:
        return self.fontMetrics().horizontalAdvance(text) + 24  # cell margins and grid

    def _widen(self, first: int, last: int) -> None:
        """Make the attempt column as wide as the widest name of rows first..last."""
        model = self.queue_model
        widest = max((self._text_width(str(model.index(r, 1).data()))
                      for r in range(first, last + 1)), default=0)
        if widest > self.columnWidth(1):
            self.setColumnWidth(1, widest)

    @property
    def moving(self) -> bool:
        """True while the view is on its way to an attempt (a page or a lookup pending)."""
        return self._advance_pending or self._pending is not None or self._locating > 0

    def abandon(self) -> None:
        """Stop being on the way anywhere (the page it waited for could not be read)."""
        self._pending, self._advance_pending, self._locating = None, False, 0
        self.settled.emit()

    def keep(self, attempt_id: int | None, *, force: bool = False) -> None:
        """Select ``attempt_id`` again once the queue is read anew (unless another is due,
        or ``force``: the reviewer asked to go back there)."""
        if attempt_id is not None and (force or self._pending is None):
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
            self.select_row(self.first_undecided_row())
        else:
            self.emptied.emit()
        self.settled.emit()

    def first_undecided_row(self) -> int:
        """The first loaded row the reviewer has not decided (row 0 when all are)."""
        for i, r in enumerate(self.queue_model.rows):
            if r.decision is None:
                return i
        return 0

    def _after_page(self, rows: int) -> None:
        self._widen(max(rows - self.queue_model.page_size, 0), rows - 1)  # the new page
        if self._advance_pending:
            self._advance_pending = False
            self.go(1)
            self.settled.emit()

    def moveCursor(self, cursorAction: QAbstractItemView.CursorAction,
                   modifiers: Qt.KeyboardModifier) -> QModelIndex:
        """Home and End go to the first and last loaded row: a queue has no columns to
        walk along (Qt's Home went to the first cell of the row, so it did nothing)."""
        rows = self.queue_model.rowCount()
        column = max(self.currentIndex().column(), 0)
        if rows and cursorAction == QAbstractItemView.CursorAction.MoveHome:
            return self.queue_model.index(0, column)
        if rows and cursorAction == QAbstractItemView.CursorAction.MoveEnd:
            return self.queue_model.index(rows - 1, column)
        return super().moveCursor(cursorAction, modifiers)

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
        self._locating += 1

        def done(index: int | None) -> None:
            if index is None or f != model.filter:
                self._found(attempt_id, located=True)(None)
            else:
                model.load_until(attempt_id, self._found(attempt_id, located=True))

        def failed(_exc: BaseException) -> None:
            self._locating -= 1
            self.settled.emit()

        self.tasks.query(lambda s: queue_index(s, f, attempt_id), done, failed, owner=self)

    def _found(self, attempt_id: int, *, located: bool = False) -> Callable[[int | None], None]:
        def found(row: int | None) -> None:
            if located:
                self._locating -= 1
            if row is not None:
                self.select_row(row)
            else:
                # Not in this queue (e.g. an accepted attempt): shown, nothing selected.
                self.selectionModel().clearCurrentIndex()
                self.clearSelection()
                self.attempt_outside.emit(attempt_id)
            self.settled.emit()
        return found

    def go_unreviewed(self, after: int | None) -> None:
        """Select the first attempt after ``after`` the reviewer has not decided (from the
        top when ``after`` is None or none is left below); the database finds it, however
        deep in the queue."""
        f = self.queue_model.filter
        self._locating += 1

        def done(found: tuple[int | None, bool]) -> None:
            self._locating -= 1
            attempt_id, wrapped = found
            if attempt_id is None or f != self.queue_model.filter:
                if attempt_id is None:
                    self.all_reviewed.emit()
                self.settled.emit()
                return
            if wrapped:
                self.wrapped.emit()
            self.select_attempt(attempt_id)  # settles once it is selected

        def failed(_exc: BaseException) -> None:
            self._locating -= 1
            self.settled.emit()

        self.tasks.query(lambda s: next_unreviewed(s, f, after), done, failed, owner=self)

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

    def selected_ids(self) -> list[int]:
        """The attempts of the selected rows, in queue order (a bulk action's rows)."""
        rows = sorted({i.row() for i in self.selectionModel().selectedRows()})
        return [int(self.queue_model.index(r, 0).data(Role.AttemptId)) for r in rows]

    def focus(self) -> None:
        """Give the keyboard to the queue (the review keys act from here)."""
        self.setFocus(Qt.FocusReason.OtherFocusReason)

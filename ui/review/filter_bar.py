"""The queue's filter bar: search box, queue mode, run / criterion / check / state boxes.

It only describes a ``QueueFilter`` and says when it changed (typing in the search box
waits for a 300 ms pause first); the window decides what to reload. The run, criterion
and check boxes offer what the store holds (``filter_choices``), read again when an
operation reports new attempts or a catalog change.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import QCheckBox, QComboBox, QHBoxLayout, QLineEdit, QVBoxLayout, QWidget

from reviewer.changes import Changes
from reviewer.review.queue import QueueFilter, filter_choices
from ui.tasks import TaskManager

AUDIT_SAMPLE = 50
STATES = ("all", "to_review", "reviewed", "overridden", "others_not_me")
SEARCH_PAUSE_MS = 300


class FilterBar(QWidget):
    """What the queue shows, as boxes.

    Signals:
        filter_changed(object): the ``QueueFilter`` the boxes now describe.
        search_entered(): Enter was pressed in the search box (after ``filter_changed``).
    """

    filter_changed = Signal(object)
    search_entered = Signal()

    def __init__(self, tasks: TaskManager, reviewer: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tasks = tasks
        self.reviewer = reviewer
        self.search = QLineEdit()
        self.search.setObjectName("search")
        self.search.setPlaceholderText(self.tr("Search responses and rationales (/)"))
        self.search.setClearButtonEnabled(True)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(SEARCH_PAUSE_MS)
        self._timer.timeout.connect(self.apply)
        self.search.textChanged.connect(lambda _t: self._timer.start())
        self.search.returnPressed.connect(self._entered)
        self.mode = QComboBox()
        self.mode.setObjectName("mode")
        self.mode.addItem(self.tr("Refused attempts"), "refused")
        self.mode.addItem(self.tr("Audit: random accepted attempts"), "audit")
        self.run_box, self.criterion_box, self.check_box, self.state_box = (
            QComboBox(), QComboBox(), QComboBox(), QComboBox())
        self.run_box.addItem(self.tr("All runs"), None)
        self.criterion_box.addItem(self.tr("Any criterion"), None)
        self.check_box.addItem(self.tr("Any check"), None)
        labels = (self.tr("All"), self.tr("To review"), self.tr("Reviewed"),
                  self.tr("Overridden"), self.tr("Reviewed by others, not by me"))
        for state, text in zip(STATES, labels, strict=True):
            self.state_box.addItem(text, state)
        self.flagged = QCheckBox(self.tr("Contradictions only"))
        self.flagged.setObjectName("filter_flagged")
        self._lay_out()
        tasks.changed.connect(self._changed)

    def _lay_out(self) -> None:
        col = QVBoxLayout(self)
        col.setContentsMargins(0, 0, 0, 0)
        col.addWidget(self.search)
        row1, row2 = QHBoxLayout(), QHBoxLayout()
        row1.addWidget(self.mode, 2)
        row1.addWidget(self.state_box, 1)
        row2.addWidget(self.run_box, 2)
        row2.addWidget(self.criterion_box, 1)
        row2.addWidget(self.check_box, 1)
        col.addLayout(row1)
        col.addLayout(row2)
        col.addWidget(self.flagged)
        # Clicks only: the keyboard belongs to the review keys (A, R, J, K, 1–9 …).
        for box, name in ((self.run_box, "run"), (self.criterion_box, "criterion"),
                          (self.check_box, "check"), (self.state_box, "state")):
            box.setObjectName(f"filter_{name}")
        for widget in (self.mode, self.run_box, self.criterion_box, self.check_box,
                       self.state_box, self.flagged):
            widget.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        for box in (self.mode, self.run_box, self.criterion_box, self.check_box,
                    self.state_box):
            box.currentIndexChanged.connect(lambda _i: self.apply())
        self.flagged.toggled.connect(lambda _c: self.apply())

    def current(self) -> QueueFilter:
        """The filter the boxes describe."""
        f = QueueFilter(
            run=self.run_box.currentData(), criterion=self.criterion_box.currentData(),
            check=self.check_box.currentData(), flagged_only=self.flagged.isChecked(),
            review_state=self.state_box.currentData() or "all",
            search=self.search.text(), reviewer=self.reviewer,
        )
        return f.audit(AUDIT_SAMPLE, seed=0) if self.mode.currentData() == "audit" else f

    def apply(self) -> None:
        """Say the filter changed now (a pending search pause is cut short)."""
        self._timer.stop()
        self.filter_changed.emit(self.current())

    def _entered(self) -> None:
        self.apply()
        self.search_entered.emit()

    def focus_search(self) -> None:
        """Put the cursor in the search box, its text selected."""
        self.search.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.search.selectAll()

    def toggle_audit(self) -> None:
        """Switch between the refused queue and the audit sample of accepted attempts."""
        self.mode.setCurrentIndex(1 - self.mode.currentIndex())

    def stop(self) -> None:
        """Forget a pending search pause (the window is closing)."""
        self._timer.stop()

    # --- choices ---------------------------------------------------------------------
    def load_choices(self) -> None:
        """Read the runs, criteria and checks the boxes offer (after the queue's first
        page is asked for: the first paint must not wait behind it)."""
        self.tasks.query(filter_choices, self._fill, owner=self)

    def _changed(self, changes: Changes) -> None:
        if changes.attempts_added or changes.catalog:
            self.load_choices()

    def _fill(self, choices: dict[str, list[str]]) -> None:
        for box, key in ((self.run_box, "runs"), (self.criterion_box, "criteria"),
                         (self.check_box, "checks")):
            chosen = box.currentData()
            box.blockSignals(True)
            while box.count() > 1:  # the first item is "All" / "Any"
                box.removeItem(1)
            for value in choices[key]:
                box.addItem(value, value)
            box.setCurrentIndex(max(box.findData(chosen), 0))
            box.blockSignals(False)
            if box.currentData() != chosen:  # what was chosen is gone from the store
                self.apply()

"""The queue's filter bar: search box, queue mode, run / criterion / check / state boxes.

It only describes a ``QueueFilter`` and says when it changed (typing in the search box
waits for a 300 ms pause first); the window decides what to reload. The run, criterion
and check boxes offer what the store holds (``filter_choices``), read again when an
operation reports new attempts or a catalog change.

The keyboard reaches it: ``/`` the search box, ``Ctrl+L`` the boxes, Tab and Shift+Tab
between them, Esc back to the queue (the window's Esc). While a box has the keyboard,
every key it understands (letters to find an entry, the arrows, Space) goes to it, never
to a review shortcut: typing "R" to reach a run never rejects an attempt. A box changed
with the mouse gives the keyboard back to the queue at once, so a later PageDown never
changes a filter behind the reviewer's back. ``state()``/``restore()`` are the boxes as
settings keep them (the window remembers the last filter).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from reviewer.changes import Changes
from reviewer.review.queue import QueueFilter, filter_choices
from reviewer.review.visible import plain as visible
from ui.review.text_widgets import plain_label
from ui.tasks import TaskManager
from ui.widgets_util import named

AUDIT_SAMPLE = 50
STATES = ("all", "to_review", "reviewed", "overridden", "others_not_me")
SEARCH_PAUSE_MS = 300
# Keys a focused box keeps from the window's shortcuts (besides every printable key).
BOX_KEYS = frozenset({Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_PageUp, Qt.Key.Key_PageDown,
                      Qt.Key.Key_Home, Qt.Key.Key_End, Qt.Key.Key_Space})
MOUSE_REASONS = (Qt.FocusReason.MouseFocusReason, Qt.FocusReason.PopupFocusReason)


class FilterBar(QWidget):
    """What the queue shows, as boxes.

    Signals:
        filter_changed(object): the ``QueueFilter`` the boxes now describe.
        search_entered(): Enter was pressed in the search box (after ``filter_changed``).
        done(): a box was changed with the mouse: the keyboard goes back to the queue.
    """

    filter_changed = Signal(object)
    search_entered = Signal()
    done = Signal()

    def __init__(self, tasks: TaskManager, reviewer: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tasks = tasks
        self.reviewer = reviewer
        self._by_mouse = False
        self.search = QLineEdit()
        self.search.setObjectName("search")
        self.search.setPlaceholderText(self.tr("Search responses and rationales (/)"))
        self.search.setClearButtonEnabled(True)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(SEARCH_PAUSE_MS)
        self._timer.timeout.connect(self.apply)
        self.search.textChanged.connect(self._typed)
        self.search.returnPressed.connect(self._entered)
        self.no_match = named(plain_label(selectable=False), "search_status")
        self.no_match.setStyleSheet("color: #b3261e;")
        self.no_match.hide()
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

    @property
    def boxes(self) -> tuple[QWidget, ...]:
        """The filter widgets after the search box, in Tab order."""
        return (self.mode, self.state_box, self.run_box, self.criterion_box, self.check_box,
                self.flagged)

    def _lay_out(self) -> None:
        col = QVBoxLayout(self)
        col.setContentsMargins(0, 0, 0, 0)
        col.addWidget(self.search)
        col.addWidget(self.no_match)
        row1, row2 = QHBoxLayout(), QHBoxLayout()
        row1.addWidget(self.mode, 2)
        row1.addWidget(self.state_box, 1)
        row2.addWidget(self.run_box, 2)
        row2.addWidget(self.criterion_box, 1)
        row2.addWidget(self.check_box, 1)
        col.addLayout(row1)
        col.addLayout(row2)
        col.addWidget(self.flagged)
        for box, name in ((self.run_box, "run"), (self.criterion_box, "criterion"),
                          (self.check_box, "check"), (self.state_box, "state")):
            box.setObjectName(f"filter_{name}")
        previous: QWidget = self.search
        for widget in self.boxes:
            widget.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
            widget.installEventFilter(self)
            QWidget.setTabOrder(previous, widget)
            previous = widget
        for box in (self.mode, self.run_box, self.criterion_box, self.check_box,
                    self.state_box):
            box.currentIndexChanged.connect(lambda _i: self.apply())
            box.activated.connect(self._activated)
        self.flagged.toggled.connect(lambda _c: self.apply())
        self.flagged.clicked.connect(self._activated)

    # --- keyboard --------------------------------------------------------------------
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """A focused box keeps its keys; note whether the mouse gave it the focus."""
        kind = event.type()
        if kind == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent):
            mods = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
            plain_key = mods in (Qt.KeyboardModifier.NoModifier,
                                 Qt.KeyboardModifier.ShiftModifier)
            if plain_key and (event.key() in BOX_KEYS or (
                    event.text().isprintable() and event.text() != "")):
                event.accept()
                return True
        elif kind == QEvent.Type.FocusIn:
            reason = event.reason()  # type: ignore[attr-defined]
            if reason in MOUSE_REASONS:
                self._by_mouse = True
            elif reason in (Qt.FocusReason.TabFocusReason, Qt.FocusReason.BacktabFocusReason,
                            Qt.FocusReason.ShortcutFocusReason):
                self._by_mouse = False
        return False

    def _activated(self, *_: object) -> None:
        if self._by_mouse:
            self._by_mouse = False
            # After the popup has closed: closing it gives the box the focus back.
            QTimer.singleShot(0, self, self.done.emit)

    def focus_filters(self) -> None:
        """Give the keyboard to the first box (Tab goes on to the next ones)."""
        self._by_mouse = False
        self.mode.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def has_keyboard(self) -> bool:
        """Whether the search box or a box has the keyboard."""
        return any(w.hasFocus() for w in (self.search, *self.boxes))

    # --- the filter ------------------------------------------------------------------
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

    def _typed(self, text: str) -> None:
        if not text:  # cleared (Esc, the clear button, the last Backspace): at once
            self.apply()
        else:
            self._timer.start()

    def _entered(self) -> None:
        self.apply()
        self.search_entered.emit()

    def focus_search(self) -> None:
        """Put the cursor in the search box, its text selected."""
        self.search.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.search.selectAll()

    def clear_search(self) -> bool:
        """Empty the search box (the filter applies at once); False if it was empty."""
        if not self.search.text():
            return False
        self.search.clear()
        return True

    def show_no_match(self, query: str | None) -> None:
        """Say that the search found nothing (None: hide the line)."""
        self.no_match.setText(self.tr("No match for “%1”").replace("%1", query or ""))
        self.no_match.setVisible(query is not None)

    def toggle_audit(self) -> None:
        """Switch between the refused queue and the audit sample of accepted attempts."""
        self.mode.setCurrentIndex(1 - self.mode.currentIndex())

    def stop(self) -> None:
        """Forget a pending search pause (the window is closing)."""
        self._timer.stop()

    # --- remembered ------------------------------------------------------------------
    def state(self) -> dict[str, str]:
        """The boxes as the settings keep them (the search is not kept: it is a moment)."""
        return {"mode": str(self.mode.currentData()),
                "state": str(self.state_box.currentData()),
                "run": self.run_box.currentData() or "",
                "criterion": self.criterion_box.currentData() or "",
                "check": self.check_box.currentData() or "",
                "flagged": "true" if self.flagged.isChecked() else "false"}

    def restore(self, state: dict[str, str]) -> None:
        """Set the boxes from ``state`` without saying so (the window applies them next).

        A run, criterion or check is offered before the store's choices are read; if the
        store no longer holds it, ``_fill`` falls back to "All" then.
        """
        widgets = (self.mode, self.state_box, self.run_box, self.criterion_box,
                   self.check_box, self.flagged)
        for w in widgets:
            w.blockSignals(True)
        try:
            for box, key in ((self.mode, "mode"), (self.state_box, "state")):
                box.setCurrentIndex(max(box.findData(state.get(key, "")), 0))
            for box, key in ((self.run_box, "run"), (self.criterion_box, "criterion"),
                             (self.check_box, "check")):
                value = state.get(key, "")
                if value:
                    if box.findData(value) < 0:
                        box.addItem(visible(value), value)
                    box.setCurrentIndex(box.findData(value))
            self.flagged.setChecked(state.get("flagged") == "true")
        finally:
            for w in widgets:
                w.blockSignals(False)

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
                box.addItem(visible(value), value)  # a name's hidden characters shown
            box.setCurrentIndex(max(box.findData(chosen), 0))
            box.blockSignals(False)
            if box.currentData() != chosen:  # what was chosen is gone from the store
                self.apply()

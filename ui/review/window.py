"""The main window: queue on the left, example on the right, progress in the status bar.

The window never touches the store itself: every read and write is a function handed to
``Ops`` (one background thread, in order), whose result comes back by signal. Every review
action is committed the moment it runs (no Save button) and is undoable across restarts,
because undo reads the audit trail.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any

from PySide6.QtCore import QItemSelectionModel, QModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMenu,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from reviewer.keys import AttemptKey
from reviewer.review import actions as review_actions
from reviewer.review.decisions import ConflictError
from reviewer.review.example import ExampleView, load_example
from reviewer.review.queue import (
    QueueFilter,
    attempt_id_for,
    filter_choices,
    queue_index,
    queue_progress,
)
from reviewer.store import Session, Store
from ui.review.dialogs import HelpOverlay, NoteDialog, SettingsDialog
from ui.review.example_view import ExamplePane
from ui.review.queue_model import QueueModel, Role
from ui.review.second_opinion import SecondOpinionRunner
from ui.settings import Settings
from ui.shortcuts import SHORTCUTS, criterion_label
from ui.tasks import Ops
from ui.tools.menu import install_tools

AUDIT_SAMPLE = 50
STATES = ("all", "to_review", "reviewed", "overridden", "others_not_me")


class MainWindow(QMainWindow):
    """The review window."""

    example_shown = Signal(int)  # attempt id, once the pane shows it

    def __init__(self, store: Store, settings: Settings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.store = store
        self.settings = settings
        self.config = settings.load()
        self.ops = Ops(self)
        self.ops.error.connect(self.show_error)
        self.current_id: int | None = None
        self._load_generation = 0
        self._pending_select: int | None = None
        self._advance_pending = False
        self.note_dialog: NoteDialog | None = None
        self.help_overlay: HelpOverlay | None = None
        self.progress = (0, 0)
        self.setWindowTitle(self.tr("Reviewer — refused examples"))

        self.model = QueueModel(store, self.ops, self)
        self.pane = ExamplePane()
        self.second = SecondOpinionRunner(self)
        self._build_left()
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setObjectName("main_splitter")
        self.splitter.addWidget(self.left)
        self.splitter.addWidget(self.pane)
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([470, 1000])
        self.setCentralWidget(self.splitter)
        self._build_status()
        self.actions_by_name: dict[str, QAction] = {}
        self._build_actions()
        self._build_menus()
        self._restore_geometry()

        self.model.reset_done.connect(self._after_reset)
        self.model.page_loaded.connect(self._after_page)
        self.queue.selectionModel().currentRowChanged.connect(self._row_changed)
        self.apply_filter()
        self._load_choices()
        self.refresh_undo_state()
        self.queue.setFocus(Qt.FocusReason.OtherFocusReason)

    # --- construction --------------------------------------------------------------------
    @property
    def reviewer(self) -> str:
        """Whose decisions this window reads and writes."""
        return self.config.reviewer

    def _build_left(self) -> None:
        self.left = QWidget()
        col = QVBoxLayout(self.left)
        col.setContentsMargins(6, 6, 0, 6)
        self.search = QLineEdit()
        self.search.setObjectName("search")
        self.search.setPlaceholderText(self.tr("Search responses and rationales (/)"))
        self.search.setClearButtonEnabled(True)
        self.search.returnPressed.connect(self._search_entered)
        self._search_timer = QTimer(self)
        self._search_timer.setSingleShot(True)
        self._search_timer.setInterval(300)
        self._search_timer.timeout.connect(self.apply_filter)
        self.search.textChanged.connect(lambda _t: self._search_timer.start())
        col.addWidget(self.search)

        self.mode = QComboBox()
        self.mode.setObjectName("mode")
        self.mode.addItem(self.tr("Refused attempts"), "refused")
        self.mode.addItem(self.tr("Audit: random accepted attempts"), "audit")
        self.run_box = QComboBox()
        self.criterion_box = QComboBox()
        self.check_box = QComboBox()
        self.state_box = QComboBox()
        for box, name in ((self.run_box, "run"), (self.criterion_box, "criterion"),
                          (self.check_box, "check"), (self.state_box, "state")):
            box.setObjectName(f"filter_{name}")
            box.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.mode.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.run_box.addItem(self.tr("All runs"), None)
        self.criterion_box.addItem(self.tr("Any criterion"), None)
        self.check_box.addItem(self.tr("Any check"), None)
        labels = (self.tr("All"), self.tr("To review"), self.tr("Reviewed"),
                  self.tr("Overridden"), self.tr("Reviewed by others, not by me"))
        for state, text in zip(STATES, labels, strict=True):
            self.state_box.addItem(text, state)
        self.flagged = QCheckBox(self.tr("Contradictions only"))
        self.flagged.setObjectName("filter_flagged")
        self.flagged.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        row1 = QHBoxLayout()
        row1.addWidget(self.mode, 2)
        row1.addWidget(self.state_box, 1)
        row2 = QHBoxLayout()
        row2.addWidget(self.run_box, 2)
        row2.addWidget(self.criterion_box, 1)
        row2.addWidget(self.check_box, 1)
        col.addLayout(row1)
        col.addLayout(row2)
        col.addWidget(self.flagged)
        for box in (self.mode, self.run_box, self.criterion_box, self.check_box,
                    self.state_box):
            box.currentIndexChanged.connect(lambda _i: self.apply_filter())
        self.flagged.toggled.connect(lambda _c: self.apply_filter())

        self.queue = QTableView()
        self.queue.setObjectName("queue")
        self.queue.setModel(self.model)
        self.queue.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.queue.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.queue.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.queue.verticalHeader().setVisible(False)
        self.queue.verticalHeader().setDefaultSectionSize(24)
        self.queue.setWordWrap(False)
        header = self.queue.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Fixed)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Fixed)
        header.setStretchLastSection(True)
        self.queue.setColumnWidth(0, 52)
        self.queue.setColumnWidth(2, 48)
        col.addWidget(self.queue, 1)

    def _build_status(self) -> None:
        bar = self.statusBar()
        self.progress_label = QLabel()
        self.progress_label.setObjectName("progress_label")
        self.progress_label.setTextFormat(Qt.TextFormat.PlainText)
        self.error_label = QLabel()
        self.error_label.setObjectName("error_label")
        self.error_label.setTextFormat(Qt.TextFormat.PlainText)
        self.error_label.setStyleSheet("color: #b3261e;")
        self.job_bar = QProgressBar()
        self.job_bar.setObjectName("job_bar")
        self.job_bar.setMaximumWidth(220)
        self.job_bar.setFormat(self.tr("second opinions %v / %m"))
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.cancel_button.setObjectName("cancel_button")
        self.cancel_button.clicked.connect(self.second.cancel)
        self.job_bar.hide()
        self.cancel_button.hide()
        bar.addWidget(self.progress_label)
        bar.addWidget(self.error_label, 1)
        bar.addPermanentWidget(self.job_bar)
        bar.addPermanentWidget(self.cancel_button)

    def _handlers(self) -> dict[str, Callable[[], None]]:
        handlers: dict[str, Callable[[], None]] = {
            "accept": lambda: self.decide("accept"),
            "reject": lambda: self.decide("reject"),
            "next": lambda: self.go(1),
            "previous": lambda: self.go(-1),
            "false_positive": self.toggle_false_positive,
            "note": self.edit_note,
            "second_opinion": self.second_opinion,
            "second_opinion_all": self.second_opinion_all,
            "search": self.focus_search,
            "audit": self.toggle_audit,
            "undo": self.undo,
            "redo": self.redo,
            "settings": self.edit_settings,
            "quit": self.quit,
            "help": self.show_help,
        }
        for n in range(1, 10):
            handlers[f"criterion{n}"] = partial(self.toggle_criterion, n)
        return handlers

    def _build_actions(self) -> None:
        handlers = self._handlers()
        for s in SHORTCUTS:
            text = criterion_label(int(s.name[-1])) if s.name.startswith("criterion") \
                else s.label()
            action = QAction(text, self)
            action.setObjectName(f"action_{s.name}")
            action.setShortcuts([QKeySequence(k) for k in s.keys])
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            action.triggered.connect(handlers[s.name])
            self.addAction(action)
            self.actions_by_name[s.name] = action

    def _build_menus(self) -> None:
        a = self.actions_by_name
        bar = self.menuBar()
        file_menu = bar.addMenu(self.tr("&File"))
        file_menu.addActions([a["settings"], a["quit"]])
        edit = bar.addMenu(self.tr("&Edit"))
        edit.addActions([a["undo"], a["redo"]])
        go = bar.addMenu(self.tr("&Go"))
        go.addActions([a["next"], a["previous"], a["search"], a["audit"]])
        rev = bar.addMenu(self.tr("&Review"))
        rev.addActions([a["accept"], a["reject"], a["note"], a["false_positive"]])
        crit = QMenu(self.tr("Toggle criterion"), rev)
        crit.addActions([a[f"criterion{n}"] for n in range(1, 10)])
        rev.addMenu(crit)
        rev.addSeparator()
        rev.addActions([a["second_opinion"], a["second_opinion_all"]])
        # Other editors (regex back-test, criteria, agreement, exports) add entries here.
        self.tools_menu = bar.addMenu(self.tr("&Tools"))
        self.tools_menu.setObjectName("tools_menu")
        self.feedback_tools = install_tools(self)
        help_menu = bar.addMenu(self.tr("&Help"))
        help_menu.addAction(a["help"])
        # Buttons for the mouse, the same actions as the keys.
        tools = self.addToolBar(self.tr("Review"))
        tools.setObjectName("review_toolbar")
        tools.setMovable(False)
        tools.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        short = {"accept": self.tr("Accept (A)"), "reject": self.tr("Reject (R)"),
                 "note": self.tr("Note (N)"), "false_positive": self.tr("False positive (F)"),
                 "second_opinion": self.tr("Second opinion (S)"),
                 "second_opinion_all": self.tr("Second opinion: all flagged"),
                 "undo": self.tr("Undo"), "redo": self.tr("Redo"), "help": "?"}
        for name, text in short.items():
            a[name].setIconText(text)
        tools.addActions([a["accept"], a["reject"], a["note"], a["false_positive"]])
        tools.addSeparator()
        tools.addActions([a["second_opinion"], a["second_opinion_all"]])
        tools.addSeparator()
        tools.addActions([a["undo"], a["redo"], a["help"]])

    def _restore_geometry(self) -> None:
        geometry = self.settings.geometry("geometry")
        if geometry is not None:
            self.restoreGeometry(geometry)
        else:
            self.resize(1500, 950)
        splitter = self.settings.geometry("splitter")
        if splitter is not None:
            self.splitter.restoreState(splitter)

    def closeEvent(self, event: QCloseEvent) -> None:
        """Remember the layout, stop background work, then close."""
        self.settings.set_geometry("geometry", self.saveGeometry())
        self.settings.set_geometry("splitter", self.splitter.saveState())
        self.second.cancel()
        self.ops.wait()
        super().closeEvent(event)

    # --- queue ---------------------------------------------------------------------------
    def current_filter(self) -> QueueFilter:
        """The filter the boxes describe."""
        f = QueueFilter(
            run=self.run_box.currentData(), criterion=self.criterion_box.currentData(),
            check=self.check_box.currentData(), flagged_only=self.flagged.isChecked(),
            review_state=self.state_box.currentData() or "all",
            search=self.search.text(), reviewer=self.reviewer,
        )
        if self.mode.currentData() == "audit":
            f = f.audit(AUDIT_SAMPLE, seed=0)
        return f

    def apply_filter(self) -> None:
        """Reload the queue under the current filter."""
        self._search_timer.stop()
        keep = self.current_id
        if keep is not None and self._pending_select is None:
            self._pending_select = keep
        self.model.set_filter(self.current_filter())
        self.refresh_progress()

    def _load_choices(self) -> None:
        def fetch() -> dict[str, list[str]]:
            with self.store.session() as session:
                return filter_choices(session)

        self.ops.run(fetch, self._fill_choices)

    def _fill_choices(self, choices: dict[str, list[str]]) -> None:
        for box, key in ((self.run_box, "runs"), (self.criterion_box, "criteria"),
                         (self.check_box, "checks")):
            box.blockSignals(True)
            for value in choices[key]:
                box.addItem(value, value)
            box.blockSignals(False)

    def _after_reset(self) -> None:
        target = self._pending_select
        self._pending_select = None
        if target is not None:
            row = self.model.row_of(target)
            if row is not None:
                self.select_row(row)
                return
        if self.model.rowCount() > 0:
            self.select_row(0)
        else:
            self.current_id = None
            self.pane.show_empty()

    def _after_page(self, _rows: int) -> None:
        if self._advance_pending:
            self._advance_pending = False
            self.go(1)

    def select_row(self, row: int) -> None:
        """Make ``row`` current (this loads its example)."""
        index = self.model.index(row, 1)
        self.queue.selectionModel().setCurrentIndex(
            index, QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows)
        self.queue.scrollTo(index)

    def select_attempt(self, attempt_id: int) -> None:
        """Select ``attempt_id`` in the queue (fetching pages up to it), else just show it."""
        if self.model.row_of(attempt_id) is not None:
            self.model.load_until(attempt_id, self._select_found(attempt_id))
            return
        f = self.model.filter

        def fetch() -> int | None:
            with self.store.session() as session:
                return queue_index(session, f, attempt_id)

        def done(index: int | None) -> None:
            if index is None or f != self.model.filter:
                self._select_found(attempt_id)(None)
            else:
                self.model.load_until(attempt_id, self._select_found(attempt_id))

        self.ops.run(fetch, done)

    def _select_found(self, attempt_id: int) -> Callable[[int | None], None]:
        def found(row: int | None) -> None:
            if row is not None:
                self.select_row(row)
            else:
                # Not in this queue (e.g. an accepted attempt): show it, select nothing.
                self.queue.selectionModel().clearCurrentIndex()
                self.queue.clearSelection()
                self.load(attempt_id)

        return found

    def select_key(self, key: AttemptKey) -> None:
        """Select the attempt named ``key`` (used by ``--attempt``)."""
        def fetch() -> int | None:
            with self.store.session() as session:
                return attempt_id_for(session, key)

        def done(attempt_id: int | None) -> None:
            if attempt_id is None:
                self.show_error(self.tr("No attempt %1").replace("%1", str(key)))
                return
            if self.model.loading:
                self._pending_select = attempt_id
            else:
                self.select_attempt(attempt_id)

        self.ops.run(fetch, done)

    def _row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid():
            self.load(int(current.data(Role.AttemptId)))

    def go(self, step: int) -> None:
        """Go to the next (1) or previous (−1) attempt of the queue."""
        current = self.queue.currentIndex()
        row = current.row() if current.isValid() else -1
        target = row + step
        if 0 <= target < self.model.rowCount():
            self.select_row(target)
        elif step > 0 and self.model.canFetchMore():
            self._advance_pending = True
            self.model.fetchMore()
        elif step > 0 and self.model.loading:
            self._advance_pending = True
        elif step > 0:
            self.statusBar().showMessage(self.tr("End of the queue"), 4000)

    # --- example -------------------------------------------------------------------------
    def load(self, attempt_id: int) -> None:
        """Load an attempt into the example pane (in the background)."""
        self.current_id = attempt_id
        self._load_generation += 1
        generation, reviewer = self._load_generation, self.reviewer

        def fetch() -> ExampleView:
            with self.store.session() as session:
                return load_example(session, attempt_id, reviewer)

        self.ops.run(fetch, lambda view: self._show(generation, view))

    def _show(self, generation: int, view: ExampleView) -> None:
        if generation != self._load_generation or view.attempt_id != self.current_id:
            return
        self.pane.show_example(view)
        self.example_shown.emit(view.attempt_id)

    def _refresh_with(self, view: ExampleView) -> None:
        """Show a freshly reloaded example if it is the current one; update its queue row."""
        self.model.set_decision(view.attempt_id, view.review.decision)
        if view.attempt_id == self.current_id:
            self._load_generation += 1
            self.pane.show_example(view)
            self.example_shown.emit(view.attempt_id)

    # --- review actions ------------------------------------------------------------------
    def _act(self, change: Callable[[Session], review_actions.Outcome], *, jump: bool = False,
             back_to: int | None = None) -> None:
        """Run a review action, then reload the attempt it touched and the progress.

        ``back_to``: the attempt to show again if the action fails (the window may have
        moved on already), so the reviewer sees what was not recorded and can retry."""
        reviewer, f = self.reviewer, self.model.filter

        def work() -> tuple[review_actions.Outcome, ExampleView | None, tuple[int, int],
                            tuple[int, int]]:
            with self.store.session() as session:
                outcome = change(session)
            view = None
            with self.store.session() as session:
                if outcome.attempt_id is not None:
                    view = load_example(session, outcome.attempt_id, reviewer)
                progress = queue_progress(session, f)
                return outcome, view, progress, review_actions.undo_state(session, reviewer)

        def done(result: tuple[review_actions.Outcome, ExampleView | None, tuple[int, int],
                               tuple[int, int]]) -> None:
            outcome, view, progress, undo_state = result
            self._show_progress(progress)
            self._show_undo_state(undo_state)
            if view is None:
                if outcome.action in ("undo", "redo"):
                    self.statusBar().showMessage(self.tr("Nothing to %1").replace(
                        "%1", self.tr("undo") if outcome.action == "undo" else self.tr("redo")),
                        4000)
                return
            if jump and view.attempt_id != self.current_id:
                self.current_id = view.attempt_id
                self.select_attempt(view.attempt_id)
            self._refresh_with(view)
            if outcome.conflicts:
                # Another reviewer decided meanwhile: say so; the pane now shows both.
                self.show_error("; ".join(outcome.conflicts))
            else:
                self.error_label.clear()

        self.ops.run(work, done, lambda exc: self._action_failed(exc, back_to))

    def _action_failed(self, exc: BaseException, back_to: int | None = None) -> None:
        if back_to is not None and back_to != self.current_id:
            self.current_id = back_to
            self.select_attempt(back_to)
        elif isinstance(exc, ConflictError) and self.current_id is not None:
            self.load(self.current_id)
        self.show_error(str(exc))

    def decide(self, decision: str) -> None:
        """Accept or reject the current attempt (then go to the next one, if set so)."""
        aid = self.current_id
        if aid is None:
            return
        reviewer = self.reviewer
        view = self.pane.view
        # What the other reviewers had decided when this attempt was shown: a decision
        # written since then is reported instead of silently sitting next to ours.
        seen = view.seen_others if view is not None and view.attempt_id == aid else None
        self._act(lambda s: review_actions.decide(s, reviewer, aid, decision,
                                                seen_others=seen), back_to=aid)
        if self.config.auto_advance:
            self.go(1)

    def toggle_criterion(self, n: int) -> None:
        """Flip the n-th verdict of the table."""
        view = self.pane.view
        if view is None or self.current_id != view.attempt_id:
            return
        if not 1 <= n <= len(view.verdicts):
            self.statusBar().showMessage(self.tr("No criterion %1 here").replace("%1", str(n)),
                                         4000)
            return
        criterion, aid, reviewer = view.verdicts[n - 1].criterion_id, view.attempt_id, \
            self.reviewer
        self._act(lambda s: review_actions.toggle_criterion(s, reviewer, aid, criterion))

    def toggle_false_positive(self) -> None:
        """Mark (or unmark) the selected failed check, else the first failed one."""
        view = self.pane.view
        if view is None:
            return
        selected = self.pane.checks.currentIndex()
        candidates = [c for c in view.checks if not c.passed]
        if selected.isValid() and not view.checks[selected.row()].passed:
            candidates = [view.checks[selected.row()]]
        if not candidates:
            self.statusBar().showMessage(self.tr("No failed check on this attempt"), 4000)
            return
        check, aid, reviewer = candidates[0].check_id, view.attempt_id, self.reviewer
        self._act(lambda s: review_actions.toggle_false_positive(s, reviewer, aid,
                                                               check))

    def edit_note(self) -> None:
        """Write the note of the current attempt (Enter saves)."""
        view = self.pane.view
        if view is None:
            return
        dialog = NoteDialog(view.review.note, self)
        self.note_dialog = dialog
        try:
            if dialog.exec() != NoteDialog.DialogCode.Accepted:
                return
            text, aid, reviewer = dialog.text(), view.attempt_id, self.reviewer
        finally:
            self.note_dialog = None
            dialog.deleteLater()
            self._take_focus_back()
        self._act(lambda s: review_actions.set_note(s, reviewer, aid, text))

    def _take_focus_back(self) -> None:
        """After a dialog, keys must reach the window again (not every platform says so)."""
        self.activateWindow()
        self.queue.setFocus(Qt.FocusReason.OtherFocusReason)

    def undo(self) -> None:
        """Undo the latest change (even one made before a restart)."""
        reviewer = self.reviewer
        self._act(lambda s: review_actions.undo(s, reviewer), jump=True)

    def redo(self) -> None:
        """Redo the latest undone change."""
        reviewer = self.reviewer
        self._act(lambda s: review_actions.redo(s, reviewer), jump=True)

    def refresh_undo_state(self) -> None:
        """Enable Undo/Redo from the audit trail."""
        reviewer = self.reviewer
        def fetch() -> tuple[int, int]:
            with self.store.session() as session:
                return review_actions.undo_state(session, reviewer)

        self.ops.run(fetch, self._show_undo_state)

    def _show_undo_state(self, state: tuple[int, int]) -> None:
        self.actions_by_name["undo"].setEnabled(state[0] > 0)
        self.actions_by_name["redo"].setEnabled(state[1] > 0)

    def refresh_progress(self) -> None:
        """Reviewed / total for the current filter."""
        f = self.model.filter

        def fetch() -> tuple[int, int]:
            with self.store.session() as session:
                return queue_progress(session, f)

        self.ops.run(fetch, self._show_progress)

    def _show_progress(self, progress: tuple[int, int]) -> None:
        reviewed, total = progress
        self.progress = progress
        self.progress_label.setText(
            self.tr("Reviewed %1 / %2 (%3 to review)").replace("%1", str(reviewed))
            .replace("%2", str(total)).replace("%3", str(total - reviewed)))

    def show_error(self, message: str) -> None:
        """One line in the status bar (never a dialog per error)."""
        self.error_label.setText(message.splitlines()[0] if message else "")
        self.error_label.setToolTip("")

    # --- other actions -------------------------------------------------------------------
    def quit(self) -> None:
        """Close the window (decisions are already saved)."""
        self.close()

    def focus_search(self) -> None:
        """Put the cursor in the search box."""
        self.search.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.search.selectAll()

    def _search_entered(self) -> None:
        self.apply_filter()
        self.queue.setFocus(Qt.FocusReason.OtherFocusReason)

    def toggle_audit(self) -> None:
        """Switch between the refused queue and the audit sample of accepted attempts."""
        self.mode.setCurrentIndex(1 - self.mode.currentIndex())

    def show_help(self) -> None:
        """The keyboard overlay."""
        overlay = HelpOverlay(self)
        self.help_overlay = overlay
        overlay.finished.connect(overlay.deleteLater)
        overlay.finished.connect(self._help_closed)
        overlay.open()

    def _help_closed(self, _result: int) -> None:
        self.help_overlay = None

    def edit_settings(self) -> None:
        """The settings dialog; the reviewer name and auto-advance apply at once."""
        dialog = SettingsDialog(self.config, self)
        try:
            if dialog.exec() != SettingsDialog.DialogCode.Accepted:
                return
            values = dialog.values()
        finally:
            dialog.deleteLater()
            self._take_focus_back()
        self.apply_settings(values)

    def apply_settings(self, values: Any) -> None:
        """Save the settings and apply what can change live."""
        self.settings.save(values)
        changed_reviewer = values.reviewer != self.config.reviewer
        self.config = self.settings.load()
        if changed_reviewer:
            self.apply_filter()
            self.refresh_undo_state()
            if self.current_id is not None:
                self.load(self.current_id)

    def second_opinion(self) -> None:
        """Ask the judge again about the current attempt's unmet success criteria."""
        if self.current_id is not None:
            self.second.start([self.current_id])

    def second_opinion_all(self) -> None:
        """Second opinion for every flagged attempt of the current filter."""
        self.second.start_flagged(replace(self.model.filter, flagged_only=True))

    def ready(self) -> bool:
        """True when no background work is pending and an example is shown (screenshots)."""
        return self.ops.pending == 0 and not self.model.loading and (
            self.pane.view is not None or self.model.rowCount() == 0)

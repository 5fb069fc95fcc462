"""The main window: queue on the left, example on the right, progress in the status bar.

The window never touches the store itself: every read and write is a function of a
session handed to the app's one task manager (``ui/tasks.py``: one background thread, in
order, app-wide), whose result comes back by signal. Every review action is committed
the moment it runs (no Save button) and is undoable across restarts, because undo reads
the audit trail. What an operation changed — this window's, another window's, a tool's,
a batch's — comes back as ``Changes`` through the manager's ``changed``, and the window
refreshes from that alone (``_changed``).

The parts live beside it: the filter bar (``filter_bar.py``), the queue table
(``queue_view.py``), the job status (``job_status.py``), the actions, menus and toolbar
made from the keyboard table (``action_builder.py``), the review keys as operations
(``commands.py``), the second-opinion runner (``second_opinion.py``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import replace
from functools import partial

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QLabel, QMainWindow, QSplitter, QVBoxLayout, QWidget

from reviewer.changes import Changes
from reviewer.keys import AttemptKey
from reviewer.review.example import ExampleView, load_example
from reviewer.review.queue import QueueFilter, attempt_id_for, queue_progress
from reviewer.review.undo import undo_steps
from ui.review.action_builder import ReviewActions, help_lines
from ui.review.commands import ReviewCommands
from ui.review.dialogs import HelpOverlay, SettingsDialog
from ui.review.example_view import ExamplePane
from ui.review.filter_bar import FilterBar
from ui.review.job_status import JobStatus
from ui.review.queue_model import QueueModel
from ui.review.queue_view import QueueView
from ui.review.second_opinion import SecondOpinionRunner
from ui.settings import AppSettings, Settings
from ui.tasks import TaskManager
from ui.tools.menu import install_tools
from ui.widgets_util import named, plain


class MainWindow(QMainWindow):
    """The review window.

    Signals:
        example_shown(int): the example pane now shows this attempt.
    """

    example_shown = Signal(int)

    def __init__(self, tasks: TaskManager, settings: Settings,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tasks = tasks
        self.settings = settings
        self.config = settings.load()
        self.current_id: int | None = None
        self._load_generation = 0
        self._listening = True
        self.help_overlay: HelpOverlay | None = None
        self.progress = (0, 0)
        self.setWindowTitle(self.tr("Reviewer — refused examples"))
        self.model = QueueModel(tasks, self)
        self.filters = FilterBar(tasks, self.reviewer)
        self.queue = QueueView(self.model, tasks)
        self.pane = ExamplePane()
        self.second = SecondOpinionRunner(tasks, lambda: self.config, self)
        self.commands = ReviewCommands(tasks, self.pane, lambda: self.current_id,
                                       lambda: self.reviewer, self)
        self.setCentralWidget(self._splitter())
        self._build_status()
        self.review_actions = ReviewActions(self, self._handlers())
        self.actions_by_name = self.review_actions.by_name
        self.tools_menu = self.review_actions.menus["tools"]
        self.feedback_tools = install_tools(self, self.tools_menu, self)
        self._restore_geometry()
        self._connect()
        self.apply_filter()
        self.filters.load_choices()
        self.refresh_undo()
        self.queue.focus()

    @property
    def reviewer(self) -> str:
        """Whose decisions this window reads and writes."""
        return self.config.reviewer

    # --- construction ----------------------------------------------------------------
    def _splitter(self) -> QSplitter:
        left = QWidget()
        col = QVBoxLayout(left)
        col.setContentsMargins(6, 6, 0, 6)
        col.addWidget(self.filters)
        col.addWidget(self.queue, 1)
        self.splitter = named(QSplitter(Qt.Orientation.Horizontal), "main_splitter")
        self.splitter.addWidget(left)
        self.splitter.addWidget(self.pane)
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([470, 1000])
        return self.splitter

    def _build_status(self) -> None:
        bar = self.statusBar()
        self.progress_label = plain(named(QLabel(), "progress_label"))
        self.error_label = plain(named(QLabel(), "error_label"))
        self.error_label.setStyleSheet("color: #b3261e;")
        self.jobs = JobStatus()
        bar.addWidget(self.progress_label)
        bar.addWidget(self.error_label, 1)
        bar.addPermanentWidget(self.jobs)

    def _handlers(self) -> dict[str, Callable[[], None]]:
        c = self.commands
        handlers: dict[str, Callable[[], None]] = {
            "accept": lambda: self.decide("accept"), "reject": lambda: self.decide("reject"),
            "next": lambda: self.queue.go(1), "previous": lambda: self.queue.go(-1),
            "false_positive": c.toggle_false_positive, "note": c.edit_note,
            "second_opinion": self.second_opinion,
            "second_opinion_all": self.second_opinion_all,
            "search": self.filters.focus_search, "audit": self.filters.toggle_audit,
            "undo": c.undo, "redo": c.redo, "settings": self.edit_settings,
            "quit": self.quit, "help": self.show_help,
        }
        for n in range(1, 10):
            handlers[f"criterion{n}"] = partial(c.toggle_criterion, n)
        return handlers

    def _connect(self) -> None:
        self.tasks.error.connect(self.show_error)
        self.tasks.changed.connect(self._changed)
        self.model.failed.connect(self.show_error)
        self.filters.filter_changed.connect(self._filter_changed)
        self.filters.search_entered.connect(self.queue.focus)
        self.queue.attempt_chosen.connect(self.load)
        self.queue.attempt_outside.connect(self.load)
        self.queue.emptied.connect(self._emptied)
        self.queue.end_reached.connect(lambda: self.notice(self.tr("End of the queue")))
        self.commands.notice.connect(self.notice)
        self.commands.error.connect(self.show_error)
        self.commands.stored.connect(self.error_label.clear)
        self.commands.show_attempt.connect(self._show_attempt)
        self.commands.reload.connect(self._reload)
        self.commands.dialog_closed.connect(self._take_focus_back)
        self.second.started.connect(self._batch_started)
        self.second.progressed.connect(self.jobs.set_progress)
        self.second.finished.connect(self.jobs.finish)
        self.second.error.connect(self.show_error)
        self.jobs.cancel_requested.connect(self.second.cancel)

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
        """Remember the layout, stop this window's timers and batch, let the app's jobs
        finish (a decision asked for is on disk before the store closes), then close."""
        self.settings.set_geometry("geometry", self.saveGeometry())
        self.settings.set_geometry("splitter", self.splitter.saveState())
        self.filters.stop()
        self.statusBar().clearMessage()  # its timer would fire into a closed window
        self.second.cancel()
        if self._listening:
            self._listening = False
            with contextlib.suppress(RuntimeError):
                self.tasks.changed.disconnect(self._changed)
        self.tasks.wait()
        super().closeEvent(event)

    # --- queue -----------------------------------------------------------------------
    def apply_filter(self) -> None:
        """Reload the queue under the filter the boxes describe (keeping the attempt)."""
        self.filters.reviewer = self.reviewer
        self.filters.apply()

    def _filter_changed(self, f: QueueFilter) -> None:
        self.queue.keep(self.current_id)
        self.model.set_filter(f)
        self.refresh_progress()

    def _emptied(self) -> None:
        self.current_id = None
        self.pane.show_empty()

    def select_key(self, key: AttemptKey) -> None:
        """Select the attempt named ``key`` (used by ``--attempt``)."""
        def done(attempt_id: int | None) -> None:
            if attempt_id is None:
                self.show_error(self.tr("No attempt %1").replace("%1", str(key)))
            else:
                self.queue.select_attempt(attempt_id)

        self.tasks.query(lambda s: attempt_id_for(s, key), done, owner=self)

    # --- example and refresh ---------------------------------------------------------
    def load(self, attempt_id: int) -> None:
        """Load an attempt into the example pane (in the background)."""
        self.current_id = attempt_id
        self._load_generation += 1
        generation, reviewer = self._load_generation, self.reviewer
        self.tasks.query(lambda s: load_example(s, attempt_id, reviewer),
                         lambda view: self._show(generation, view), owner=self)

    def _reload(self) -> None:
        if self.current_id is not None:
            self.load(self.current_id)

    def _show(self, generation: int, view: ExampleView) -> None:
        if generation != self._load_generation or view.attempt_id != self.current_id:
            return
        self.pane.show_example(view)
        self.example_shown.emit(view.attempt_id)

    def _changed(self, changes: Changes) -> None:
        """Refresh from what an operation reports it changed (whoever asked for it)."""
        if changes.decisions:
            self.refresh_undo()
        if changes.verdicts or changes.flags or changes.catalog or changes.attempts_added:
            self.apply_filter()  # the queue's rows or order may differ; the attempt is kept
            return
        self.refresh_progress()
        self.model.refresh_rows(changes.attempts)
        if changes.touches(self.current_id):
            self._reload()

    def refresh_undo(self) -> None:
        """Name in the Edit menu what Undo/Redo will do (from the audit trail)."""
        reviewer = self.reviewer
        self.tasks.query(lambda s: undo_steps(s, reviewer), self.review_actions.show_undo,
                         owner=self)

    def refresh_progress(self) -> None:
        """Reviewed / total for the current filter."""
        f = self.model.filter
        self.tasks.query(lambda s: queue_progress(s, f), self._show_progress, owner=self)

    def _show_progress(self, progress: tuple[int, int]) -> None:
        reviewed, total = progress
        self.progress = progress
        self.progress_label.setText(
            self.tr("Reviewed %1 / %2 (%3 to review)").replace("%1", str(reviewed))
            .replace("%2", str(total)).replace("%3", str(total - reviewed)))

    def show_error(self, message: str) -> None:
        """One line in the status bar (never a dialog per error)."""
        self.error_label.setText(message.splitlines()[0] if message else "")

    def notice(self, message: str) -> None:
        """A short status-bar message (a few seconds)."""
        self.statusBar().showMessage(message, 4000)

    # --- review actions (ui/review/commands.py) ----------------------------------------
    def decide(self, decision: str) -> None:
        """Accept or reject the current attempt (then go to the next one, if set so)."""
        if self.commands.decide(decision) and self.config.auto_advance:
            self.queue.go(1)

    def _show_attempt(self, attempt_id: int) -> None:
        self.current_id = attempt_id
        self.queue.select_attempt(attempt_id)

    def _take_focus_back(self) -> None:
        """After a dialog, keys must reach the window again (not every platform says so)."""
        self.activateWindow()
        self.queue.focus()

    # --- other actions ---------------------------------------------------------------
    def quit(self) -> None:
        """Close the window (decisions are already saved)."""
        self.close()

    def show_help(self) -> None:
        """The keyboard overlay."""
        overlay = HelpOverlay(help_lines(), self)
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

    def apply_settings(self, values: AppSettings) -> None:
        """Save the settings and apply what can change live."""
        self.settings.save(values)
        changed_reviewer = values.reviewer != self.config.reviewer
        self.config = self.settings.load()
        if changed_reviewer:
            self.apply_filter()
            self.refresh_undo()
            if self.current_id is not None:
                self.load(self.current_id)

    def second_opinion(self) -> None:
        """Ask the judge again about the current attempt's unmet success criteria."""
        if self.current_id is not None:
            self.second.start([self.current_id])

    def second_opinion_all(self) -> None:
        """Second opinion for every flagged attempt of the current filter."""
        self.second.start_flagged(replace(self.model.filter, flagged_only=True))

    def _batch_started(self) -> None:
        self.error_label.clear()
        self.jobs.start(self.tr("second opinions %v / %m"))

    def ready(self) -> bool:
        """True when no background work is pending and an example is shown (screenshots)."""
        return self.tasks.pending == 0 and not self.model.loading and (
            self.pane.view is not None or self.model.rowCount() == 0)

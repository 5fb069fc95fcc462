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
made from the keyboard table (``action_builder.py``), what each review key does and when
(``review_keys.py``, over the key queue of ``key_queue.py``), the review keys as
operations (``commands.py``), the second-opinion runner (``second_opinion.py``).

It starts where the reviewer left off: the last filter (kept in the settings) on its
first attempt the reviewer has not decided. The status bar says what each action did,
the filter's progress, and the progress over every refusal of the store.
"""

from __future__ import annotations

import contextlib
import re
import sys
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QShowEvent
from PySide6.QtWidgets import QLabel, QMainWindow, QSizePolicy, QSplitter, QVBoxLayout, QWidget

from reviewer.changes import Changes
from reviewer.keys import AttemptKey
from reviewer.review.example import ExampleView, load_example
from reviewer.review.queue import QueueFilter, attempt_id_for, overall_progress, queue_progress
from reviewer.review.undo import UndoSteps, undo_steps
from reviewer.review.visible import plain as visible
from reviewer.settings_write import Refusal
from reviewer.store.names import stored_reviewers
from ui.review.action_builder import ReviewActions, help_lines, key_text
from ui.review.commands import ReviewCommands
from ui.review.dialogs import HelpOverlay, SettingsDialog
from ui.review.example_view import ExamplePane
from ui.review.filter_bar import FilterBar
from ui.review.job_status import JobStatus
from ui.review.key_queue import KeyQueue
from ui.review.note_at_close import NoteAtClose
from ui.review.queue_model import QueueModel, Role
from ui.review.queue_view import QueueView
from ui.review.quit_wait import QuitWait
from ui.review.review_keys import ReviewKeys
from ui.review.second_opinion import SecondOpinionRunner
from ui.review.text_widgets import FittedLabel
from ui.review.type_ahead import TypeAhead
from ui.review.undo_text import where
from ui.settings import AppSettings, Settings, session_only_text
from ui.shortcuts import shortcut
from ui.tasks import TaskManager
from ui.tools.menu import install_tools
from ui.widgets_util import ScreenFit, named, plain

if TYPE_CHECKING:  # the bulk dialog (and its domain module) loads when first opened
    from ui.review.bulk_dialog import BulkDialog

MESSAGE_MS = 8000  # how long the status bar says what an action did
RELEASE_HELD = QEvent.Type(QEvent.registerEventType())  # see MainWindow._page_in


class MainWindow(QMainWindow):
    """The review window.

    Signals:
        example_shown(int): the example pane now shows this attempt.
    """

    example_shown = Signal(int)

    def __init__(self, tasks: TaskManager, settings: Settings,
                 parent: QWidget | None = None, *, reviewer: str | None = None) -> None:
        super().__init__(parent)
        self.tasks = tasks
        self.settings = settings
        self._closing = False  # closeEvent has begun
        self.config = settings.load()
        # ``reviewer gui --reviewer NAME``: this session decides as NAME (already checked
        # by reviewer_name); the stored setting is left as it is.
        self._session_reviewer = reviewer
        self.current_id: int | None = None
        self._load_generation = 0
        self._shown_generation = 0
        self._listening = True
        self._resume = True  # the first page: go on to the first attempt not decided
        self._before_search: int | None = None
        self.help_overlay: HelpOverlay | None = None
        self.bulk_dialog: BulkDialog | None = None
        self._quit_after_bulk = False  # Quit asked for while a bulk apply is stored
        self.progress = (0, 0)
        self.overall = (0, 0)
        # At start-up the first page goes to the task thread alone: the other reads
        # (progress, filter choices, undo labels, the first example) are held until that
        # page has arrived and been painted (``_release_held``). Asked together with it,
        # they ran on the task thread while the queue painted its rows, and the two threads
        # took turns at the GIL: the first paint waited for all of them.
        self._held: list[Callable[[], None]] | None = []
        self._show_who()
        self.model = QueueModel(tasks, self)
        self.filters = FilterBar(tasks, self.reviewer)
        self._default_filter = self.filters.state()  # what a setting not stored stands for
        self.filters.restore(settings.review_filter())
        self.queue = QueueView(self.model, tasks)
        self.pane = ExamplePane()
        self.second = SecondOpinionRunner(tasks, lambda: self.config, self)
        self.commands = ReviewCommands(tasks, self.pane, lambda: self.current_id,
                                       lambda: self.reviewer, self)
        self._undo_reads = 0  # Edit-menu reads asked for, not answered yet
        # The current attempt's last read failed, none asked since: a key that needs
        # the pane reads it again rather than wait (ninth hostile pass, K2).
        self._read_failed = False
        # The queue's first read failed (its red line), none arrived since: a move reads
        # it again (Z6).
        self._unread_queue: str | None = None
        self.keys = KeyQueue(self.fresh, lambda: self.queue.moving, self,
                             settled=self._undo_settled, stalled=self._read_again)
        self.commands.typed = self.keys
        # A note typed when the window closes is stored first (twelfth pass, P12-1).
        self.note_at_close = NoteAtClose(self, tasks, self.pane.note_editor,
                                         reviewer=lambda: self.reviewer, name_of=self._name_of,
                                         refused=self._note_refused)
        self._note_back: tuple[int, str] | None = None  # a refused note, to put back
        # A quit waits a bounded time for the work asked for, the window live (P15-3).
        self.quit_wait = QuitWait(self, tasks, say=self._say_closing,
                                  abandoning=self._abandoning)
        self._slow_line = ""  # the "… waiting for the database…" line shown
        self._dropped_line: str | None = None  # keys dropped, said again once (P13-2)
        self.type_ahead = TypeAhead(self, self.keys)
        self.review_keys = ReviewKeys(
            pane=self.pane, queue=self.queue, filters=self.filters, commands=self.commands,
            keys=self.keys, current=lambda: self.current_id,
            auto_advance=lambda: self.config.auto_advance, notice=self.notice, parent=self)
        self.setCentralWidget(self._splitter())
        self._build_status()
        self.review_actions = ReviewActions(self, self._handlers())
        self.actions_by_name = self.review_actions.by_name
        self.tools_menu = self.review_actions.menus["tools"]
        self.feedback_tools = install_tools(self, self.tools_menu, self)
        # Brought onto its screen when first shown (showEvent); a screenshot keeps its size.
        self.fits_screen = True
        self._restore_geometry()
        self._connect()
        self.apply_filter()
        self._ask(self.filters.load_choices)
        self.refresh_undo()
        self.queue.focus()
        self._say_reviewer_problem()
        self._say_session_only()
        self._say_read_only()

    @property
    def reviewer(self) -> str:
        """Whose decisions this window reads and writes."""
        return self._session_reviewer or self.config.reviewer

    def _show_who(self) -> None:
        """The title bar says who decides in this window."""
        title = self.tr("Reviewer — refused examples — %1").replace("%1", self.reviewer)
        if self.tasks.store.read_only:
            title = self.tr("%1 (read-only)").replace("%1", title)
        self.setWindowTitle(title)

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
        self.overall_label = plain(named(QLabel(), "overall_label"))
        self.overall_label.setStyleSheet("color: #37474f; font-weight: bold;")
        self.message_label = plain(named(QLabel(), "message_label"))
        self.message_label.setStyleSheet("color: #1b5e20;")
        self.error_label = plain(named(FittedLabel(), "error_label"))
        self.error_label.setStyleSheet("color: #b3261e;")
        # Wrapped, not cut at the window's edge: the end of a long line names the keys
        # that were not applied (fourteenth hostile pass, P14-2).
        self.error_label.setWordWrap(True)
        self.error_label.setSizePolicy(QSizePolicy.Policy.Ignored,
                                       QSizePolicy.Policy.Preferred)
        self.jobs = JobStatus()
        self._message_timer = named(QTimer(self), "message_timer")
        self._message_timer.setSingleShot(True)
        self._message_timer.setInterval(MESSAGE_MS)
        self._message_timer.timeout.connect(self.message_label.clear)
        bar.addWidget(self.progress_label)
        bar.addWidget(self.overall_label)
        bar.addWidget(self.message_label)
        bar.addWidget(self.error_label, 1)
        bar.addPermanentWidget(self.jobs)

    def _handlers(self) -> dict[str, Callable[[], None]]:
        handlers = self.review_keys.handlers()
        for name in ("next", "previous", "next_unreviewed"):
            handlers[name] = partial(self._move, handlers[name])
        handlers.update({
            "second_opinion": partial(self.review_keys.submit, "S", self.second_opinion,
                                      False, "second_opinion"),
            "second_opinion_all": self.second_opinion_all,
            "search": self.filters.focus_search, "filters": self.filters.focus_filters,
            "audit": self.filters.toggle_audit, "settings": self.edit_settings,
            "bulk": self.bulk, "current_checks": self.toggle_current_checks,
            "quit": self.quit, "help": self.show_help,
        })
        # The Bulk dialog and second opinions write too: refused during a quit's wait as
        # Undo is (fifteenth hostile pass, P15-12: Ctrl+B opened it, and its Apply stored
        # 63 decisions while the note sat unsaved behind it).
        for name in ("undo", "redo", "bulk", "second_opinion", "second_opinion_all",
                     *self.review_keys.handlers()):
            handlers[name] = partial(self._unless_quitting, name, handlers[name])
        return handlers

    def _connect(self) -> None:
        self.tasks.error.connect(self.show_error)
        self.tasks.changed.connect(self._changed)
        self.tasks.waiting.connect(self._say_waiting)
        self.model.failed.connect(self.show_error)
        self.model.failed.connect(self._queue_failed)
        self.model.failed.connect(self._release_held)
        self.model.reset_done.connect(self._first_page)
        self.model.reset_done.connect(self._page_in)
        self.model.rowsInserted.connect(self._queue_read)
        self.filters.filter_changed.connect(self._filter_changed)
        self.filters.search_entered.connect(self.queue.focus)
        self.filters.done.connect(self.queue.focus)
        self.queue.attempt_chosen.connect(self.load)
        self.queue.attempt_outside.connect(self.load)
        self.queue.emptied.connect(self._emptied)
        self.queue.settled.connect(self.keys.drain)
        self.queue.end_reached.connect(lambda: self.notice(self.tr("End of the queue")))
        self.queue.all_reviewed.connect(lambda: self.notice(
            self.tr("You have decided every attempt of this queue")))
        self.queue.wrapped.connect(lambda: self.notice(
            self.tr("None left below: back to the first one not reviewed")))
        self.keys.refused.connect(self._keys_refused)
        self.commands.notice.connect(self.notice)
        self.commands.error.connect(self.show_error)
        self.commands.stored.connect(self._stored)
        self.commands.keys_dropped.connect(lambda names: self._keys_refused(
            self.tr("Not applied: %1 (typed after a change that was not stored)")
            .replace("%1", names), said=False))
        self.commands.show_attempt.connect(self._show_attempt)
        self.commands.reload.connect(self._reload)
        self.commands.settled.connect(self.keys.drain)
        self.commands.history_moved.connect(self.refresh_undo)
        self.pane.note_editor.saved.connect(self._note_saved)
        self.pane.note_editor.dropped.connect(self.review_keys.note_dropped)
        self.commands.note_refused.connect(
            lambda aid, text: self._note_refused(aid, text, None))
        self.example_shown.connect(self._put_note_back)
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

    def showEvent(self, event: QShowEvent) -> None:
        """The first time it is shown, the window fits on its screen, and again once the
        window manager's frame is known (``ScreenFit``)."""
        super().showEvent(event)
        if self.fits_screen:
            self.fits_screen = False
            ScreenFit(self)

    def closeEvent(self, event: QCloseEvent) -> None:
        """Remember the layout, stop this window's timers and batch, let the app's jobs
        finish (a decision asked for is on disk before the store closes), then close.

        The main window closing ends the app: a judge request in flight is abandoned
        (``TaskManager.close_down``), not waited for (fourth hostile pass, G6).

        A note being typed is stored first, the window closing once it is stored; if it
        cannot be, the window stays open with the note (``NoteAtClose``).

        Neither wait is without bound (``QuitWait``): at the task manager's deadline the
        window closes anyway, naming what it did not wait for (fifteenth pass, P15-3)."""
        if not self.quit_wait.abandoned and self.note_at_close.holds():
            self.quit_wait.start()
            event.ignore()
            return
        self.second.cancel()
        self.tasks.close_down()  # before the wait: a judge request is dropped, not awaited
        if not self.quit_wait.let_close():
            event.ignore()
            return
        self._closing = True  # a settings file found replaced now is said on stderr
        self.settings.set_geometry("geometry", self.saveGeometry())
        self.settings.set_geometry("splitter", self.splitter.saveState())
        self.settings.on_session_only = None  # the window is going
        self.filters.stop()
        self.statusBar().clearMessage()  # its timer would fire into a closed window
        self._message_timer.stop()
        self._held = None  # reads held at start-up are no longer wanted
        if self._listening:
            self._listening = False
            with contextlib.suppress(RuntimeError):
                self.tasks.changed.disconnect(self._changed)
                self.tasks.waiting.disconnect(self._say_waiting)
        super().closeEvent(event)

    def _say_closing(self, line: str) -> None:
        """What the quit waits for, said until the window closes (no time limit)."""
        self._message_timer.stop()
        self.message_label.setText(line)

    def _abandoning(self) -> None:
        """The quit stops waiting: said in the status bar (and on standard error by the
        task manager); a note still on its way has its text written there too."""
        named = ", ".join(self.tasks.unanswered())
        self.show_error(self.tr("Closed without waiting any longer for: %1; it may not have "
                                "been stored").replace("%1", named) if named else
                        self.tr("Closed without waiting any longer for the database; "
                                "nothing was waiting to be stored"))
        self.note_at_close.abandon()

    def _say_waiting(self, what: str) -> None:
        """A write not answered for a few seconds is said; the line goes once it is
        answered (unless another line replaced it). Fifteenth hostile pass, P15-5: a
        Reject waited 78 s on a silent PostgreSQL connection with no line."""
        if what:
            self._slow_line = self.tr("%1 waiting for the database…").replace("%1", what)
            self.show_error(self._slow_line)
            return
        if self._slow_line and self.error_label.text() == self._slow_line:
            self.error_label.clear()
        self._slow_line = ""

    # --- queue -----------------------------------------------------------------------
    def apply_filter(self) -> None:
        """Reload the queue under the filter the boxes describe (keeping the attempt)."""
        self.filters.reviewer = self.reviewer
        self.filters.apply()

    def _filter_changed(self, f: QueueFilter) -> None:
        old = self.model.filter
        target, force = self.current_id, False
        if f.search.strip() and not old.search.strip():
            self._before_search = self.current_id  # where clearing the search goes back to
        elif old.search.strip() and not f.search.strip() and self._before_search is not None:
            target, force, self._before_search = self._before_search, True, None
        if f != old:
            self.keys.refuse(self.tr("the queue changed before they could apply"))
        self.queue.keep(target, force=force)
        self.pane.set_search(f.search)
        self.filters.show_no_match(None)
        self.model.set_filter(f)
        # Written only when it differs from what is remembered: each write syncs the
        # settings file to disk, on the GUI thread (before the first paint, at start).
        state = self.filters.state()
        if state != {**self._default_filter, **self.settings.review_filter()}:
            self.settings.set_review_filter(state)
        self.refresh_progress()

    def _emptied(self) -> None:
        self.current_id = None
        self.keys.refuse(self.tr("the queue is empty"))
        query = self.model.filter.search.strip()
        if query:
            self.filters.show_no_match(query)
            self.pane.show_empty(self.tr("No match for “%1”").replace("%1", query))
        else:
            # Said, not "No attempt selected": the audit queue under "Contradictions
            # only" read as nothing chosen yet (twelfth hostile pass, P12-9).
            self.pane.show_empty(self.tr("No attempt in this queue under these filters"))

    def _queue_failed(self, message: str) -> None:
        self.show_error(message)
        if self.model.rowCount() == 0:
            self._unread_queue = self.error_label.text()
        self.queue.abandon()
        self.keys.refuse(self.tr("the queue could not be read"))

    def _queue_read(self) -> None:
        """A page arrived: a queue whose first read had failed is read now, and its
        red line goes (unless another error replaced it)."""
        if self._unread_queue is not None:
            if self.error_label.text() == self._unread_queue:
                self.error_label.clear()
            self._unread_queue = None

    def _move(self, go: Callable[[], None]) -> None:
        """A move through the queue; the queue's first read failed, so this move reads
        it again (tenth hostile pass, Z6: it stayed empty, "End of the queue", until a
        filter changed)."""
        if self._unread_queue is not None and not self.model.loading:
            self.notice(self.tr("Reading the queue again…"))
            self.apply_filter()
            return
        go()

    def _ask(self, read: Callable[[], None]) -> None:
        """Ask for ``read`` now, or once the first page is painted (start-up)."""
        if self._held is None:
            read()
        else:
            self._held.append(read)

    def _page_in(self) -> None:
        """The first page is in: release the held reads once its rows are painted.

        After the slots that select the first row (whose example load is held too). The
        rows' paint is a low-priority event (``UpdateRequest``) posted as they went in; a
        low-priority event posted now is delivered after it (a zero timer came before).
        Without a paint to wait for (a hidden window), it is simply the next event."""
        if self._held is not None:
            QCoreApplication.postEvent(self, QEvent(RELEASE_HELD),
                                       Qt.EventPriority.LowEventPriority.value)

    def customEvent(self, event: QEvent) -> None:
        """Our own posted events: the release of the reads held at start-up."""
        if event.type() == RELEASE_HELD:
            self._release_held()
        else:
            super().customEvent(event)

    def _release_held(self) -> None:
        """Ask, in order, for the reads held while the first page was on its way."""
        held, self._held = self._held, None
        for read in held or ():
            read()

    def _first_page(self) -> None:
        """At the start: past the loaded rows if they are all decided already."""
        if not self._resume:
            return
        self._resume = False
        current = self.queue.currentIndex()
        if current.isValid() and current.data(Role.Decision) is not None:
            self.queue.go_unreviewed(None)

    def select_key(self, key: AttemptKey) -> None:
        """Select the attempt named ``key`` (used by ``--attempt``)."""
        self._resume = False

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
        self._read_failed = False
        generation, reviewer = self._load_generation, self.reviewer
        self._ask(lambda: self.tasks.query(
            lambda s: load_example(s, attempt_id, reviewer),
            lambda view: self._show(generation, view),
            lambda exc: self._load_failed(generation, exc), owner=self))

    def _reload(self) -> None:
        if self.current_id is not None:
            self.load(self.current_id)

    def _show(self, generation: int, view: ExampleView) -> None:
        if generation != self._load_generation or view.attempt_id != self.current_id:
            return
        self._shown_generation = generation
        self.pane.show_example(view)
        self.example_shown.emit(view.attempt_id)
        self.keys.drain()

    def _load_failed(self, generation: int, exc: BaseException) -> None:
        """The current attempt could not be read: the keys waiting for it are refused,
        named, with why (ninth hostile pass, K2/K3: they used to wait until a later
        click loaded another row, and then applied to it).

        A line that already says this failure (the reject that sent the window back
        here, "Reject of … not saved: …") is kept: the bare error said less."""
        if generation != self._load_generation:
            return
        error = (str(exc) or type(exc).__name__).splitlines()[0]
        self._read_failed = True
        waiting = self.keys.drop()
        if waiting:
            # One pass: an attempt's name or the error may hold "%3" themselves.
            values = {"1": " ".join(waiting), "2": self._current_name(), "3": error}
            self.show_error(re.sub(r"%([123])", lambda m: values[m.group(1)], self.tr(
                "Not applied, nothing was stored: %1 — %2 could not be read: %3")))
        elif error not in self.error_label.text():
            self.show_error(error)

    def _current_name(self) -> str:
        """The current attempt as the status bar names it ("recette-001/2/1")."""
        return self._name_of(self.current_id)

    def _name_of(self, attempt_id: int | None) -> str:
        """An attempt as the status bar names it ("recette-001/2/1"): from the queue, or
        the pane when the queue does not hold it (a search that matches nothing)."""
        row = self.model.row_of(attempt_id) if attempt_id is not None else None
        if row is not None:
            return visible(where(self.model.rows[row].key))
        view = self.pane.view
        if view is not None and attempt_id is not None and view.attempt_id == attempt_id:
            return visible(where(view.key))
        return self.tr("the attempt")

    def _read_again(self) -> None:
        """A key waits for the pane and nothing is on its way to it: if the attempt's last
        read failed, read it again (the key runs once it is shown, or is refused)."""
        if self._read_failed and self.current_id is not None:
            self._reload()

    def fresh(self) -> bool:
        """The pane shows the current attempt as it stands: its latest load has arrived,
        no write asked for is unanswered, no note is being typed. The keys that act on
        the shown attempt wait for this."""
        view = self.pane.view
        return (self.current_id is not None and view is not None
                and view.attempt_id == self.current_id
                and self._shown_generation == self._load_generation
                and self.commands.in_flight == 0 and not self.pane.note_editor.editing)

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
        self._undo_reads += 1
        self._ask(lambda: self.tasks.query(lambda s: undo_steps(s, reviewer),
                                           self._show_undo, self._undo_unread, owner=self))

    def _show_undo(self, steps: UndoSteps) -> None:
        self.commands.menu_steps = steps  # what the next undo or redo expects on top
        self.review_actions.show_undo(steps)
        self._undo_unread()

    def _undo_unread(self, _exc: BaseException | None = None) -> None:
        self._undo_reads -= 1
        self.keys.drain()  # an Undo or Redo may wait for the menu (KeyQueue)

    def _undo_settled(self) -> bool:
        """This window's writes answered and its Edit menu read after them."""
        return self.commands.in_flight == 0 and self._undo_reads == 0

    def refresh_progress(self) -> None:
        """Reviewed / total for the current filter, and over every refusal of the store."""
        f, reviewer = self.model.filter, self.reviewer
        self._ask(lambda: self.tasks.query(lambda s: queue_progress(s, f),
                                           self._show_progress, owner=self))
        self._ask(lambda: self.tasks.query(lambda s: overall_progress(s, reviewer),
                                           self._show_overall, owner=self))

    def _show_progress(self, progress: tuple[int, int]) -> None:
        reviewed, total = progress
        self.progress = progress
        if self.model.filter.review_state == "to_review":
            # Every attempt of this filter is still to review: "Reviewed 0 / 32" after 31
            # decisions said nothing; the count left does (the overall line says the rest).
            self.progress_label.setText(self.tr("%1 to review in this filter").replace(
                "%1", str(total)))
            return
        self.progress_label.setText(
            self.tr("Reviewed %1 / %2 (%3 to review)").replace("%1", str(reviewed))
            .replace("%2", str(total)).replace("%3", str(total - reviewed)))

    def _show_overall(self, progress: tuple[int, int]) -> None:
        reviewed, total = progress
        self.overall = progress
        self.overall_label.setText(
            self.tr("%1 of %2 refusals reviewed, %3 left").replace("%1", str(reviewed))
            .replace("%2", str(total)).replace("%3", str(total - reviewed)))

    def show_error(self, message: str) -> None:
        """One line in the status bar (never a dialog per error)."""
        self.error_label.setText(message.splitlines()[0] if message else "")

    def notice(self, message: str) -> None:
        """Say in the status bar what an action did (for a few seconds)."""
        self.message_label.setText(message.splitlines()[0] if message else "")
        self._message_timer.start()

    # --- review actions (ui/review/review_keys.py, ui/review/commands.py) -----------
    def decide(self, decision: str) -> None:
        """Accept or reject the current attempt (then go to the next one, if set so),
        without the accept question (scripts and tests of the plain decision)."""
        if self.commands.decide(decision) and self.config.auto_advance:
            self.queue.go(1)

    def _note_saved(self, attempt_id: int, text: str) -> None:
        self.commands.save_note(attempt_id, text, self._name_of(attempt_id))
        self.queue.focus()
        self.keys.drain()

    def _keys_refused(self, line: str, *, said: bool = True) -> None:
        """Keys dropped: said (unless their failure's line said it already), and the line
        outlives the next write stored: the note saved by the click that dropped them
        cleared it at once (thirteenth hostile pass, P13-2: the Reject was dropped
        "without a word")."""
        if said:
            self.show_error(line)
        self._dropped_line = line

    def _stored(self) -> None:
        """A write was stored: the failure line goes; one naming dropped keys is said
        once more first (``_keys_refused``)."""
        line, self._dropped_line = self._dropped_line, None
        if line is not None:
            self.show_error(line)
        else:
            self.error_label.clear()

    def _note_refused(self, attempt_id: int, text: str, line: str | None) -> None:
        """A note could not be stored: its text goes back in the editor once the pane
        shows its attempt (the failed write brings it back), with ``line`` if given."""
        if line is not None:  # at close: keys typed while it waited apply to nothing
            self.quit_wait.give_up()
            dropped = self.keys.drop()
            if dropped:
                line += "; " + self.tr("not applied: %1").replace("%1", " ".join(dropped))
            self.show_error(line)
        self._note_back = (attempt_id, text)
        self._put_note_back()
        if self._note_back is not None and self.current_id != attempt_id:
            self._show_attempt(attempt_id)

    def _put_note_back(self) -> None:
        back, view = self._note_back, self.pane.view
        if back is None or view is None or view.attempt_id != back[0] \
                or self.current_id != back[0]:
            return
        self._note_back = None
        editor = self.pane.note_editor
        if editor.editing and editor.attempt_id == back[0]:
            return  # typed again meanwhile: what is in the editor now wins
        editor.keep()
        self.pane.edit_note()
        editor.setText(back[1])

    def _unless_quitting(self, name: str, run: Callable[[], None]) -> None:
        """A review key (Undo included) typed while a quit waits for the note is not
        applied, and said so: Ctrl+Z then ran once the note was refused, undoing a
        decision 4-8 s after the key, under "Note saved" only (fourteenth pass, P14-1).
        The same while a quit waits for the background work (``QuitWait``)."""
        if self.note_at_close.saving:
            self.show_error(self.tr("Not applied: %1 (the app is closing once the note is "
                                    "stored)").replace("%1", key_text(shortcut(name))))
            return
        if self.quit_wait.active:
            self.show_error(self.tr("Not applied: %1 (the app is closing)").replace(
                "%1", key_text(shortcut(name))))
            return
        run()

    def close_now(self) -> None:
        """Close for a signal: the window cannot wait for the reviewer, so a note that
        cannot be stored is written on standard error (``NoteAtClose``)."""
        self.note_at_close.must_close = True
        self.close()

    def _show_attempt(self, attempt_id: int) -> None:
        self.current_id = attempt_id
        self.queue.select_attempt(attempt_id)

    def _take_focus_back(self) -> None:
        """After a dialog, keys must reach the window again (not every platform says so)."""
        self.activateWindow()
        self.queue.focus()

    # --- other actions ---------------------------------------------------------------
    def quit(self) -> None:
        """Close the window (decisions are already saved; a note being typed is saved as
        it closes).

        The bulk dialog open: nothing is stored before Apply, so it is closed and the app
        quits; once Apply was pressed the write is one transaction that cannot be stopped
        (seventh hostile pass, B1), so the quit waits for it, saying so, and the window
        closes when it is stored (eighth hostile pass, Q3: Ctrl+Q typed then was dropped
        without a word, and the app stayed open)."""
        dialog = self.bulk_dialog
        if dialog is not None and dialog.applying:
            self._quit_after_bulk = True
            said = self.tr("The app closes once the bulk action is stored (it cannot be "
                           "stopped).")
            self._message_timer.stop()  # said until the window closes: no time limit
            self.message_label.setText(said)
            dialog.say(said)
            self.quit_wait.start()  # not without bound either (P15-3)
            return
        if dialog is not None:
            dialog.reject()
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

    def toggle_current_checks(self) -> None:
        """"The filter would now" with each check's newest evaluated version, or not."""
        self.pane.set_current_checks(self.actions_by_name["current_checks"].isChecked())

    @property
    def current_check(self) -> str | None:
        """The check the shown attempt failed (its first), else its first check: what the
        back-test editor opens on."""
        view = self.pane.view
        if view is None or not view.checks:
            return None
        failed = [c for c in view.checks if not c.passed]
        return (failed or list(view.checks))[0].check_id

    def bulk(self) -> None:
        """One action over the queue's filter or the selected rows, previewed first."""
        if self.bulk_dialog is not None:
            self.bulk_dialog.raise_()
            return
        from ui.review.bulk_dialog import BulkDialog

        dialog = BulkDialog(self.tasks, self.reviewer, self.model.filter,
                            self.queue.selected_ids(), self)
        self.bulk_dialog = dialog
        dialog.applied.connect(self._bulk_applied)
        dialog.apply_failed.connect(self._bulk_refused)
        dialog.quit_asked.connect(self.quit)
        dialog.finished.connect(self._bulk_closed)
        dialog.open()

    def _bulk_applied(self, _outcome: object, text: str) -> None:
        self.error_label.clear()
        self.notice(self.tr("%1 — %2 to undo").replace("%1", text)
                    .replace("%2", key_text(shortcut("undo"))))

    def _bulk_refused(self) -> None:
        """The apply a quit was waiting for stored nothing: the app stays open (the
        dialog shows why and a new preview), rather than close on a decision lost."""
        if self._quit_after_bulk:
            self._quit_after_bulk = False
            self.quit_wait.give_up()
            self._message_timer.stop()
            self.message_label.clear()
            # A failure's colour, not the success green (fifteenth pass, P15-12).
            self.show_error(self.tr("The bulk action was not stored: the app stays open."))

    def _bulk_closed(self, _result: int) -> None:
        dialog, self.bulk_dialog = self.bulk_dialog, None
        if dialog is not None:
            dialog.deleteLater()
        if self._quit_after_bulk:  # the apply a quit waited for is stored
            self._quit_after_bulk = False
            self.close()
            return
        self._take_focus_back()

    def _say_read_only(self) -> None:
        """A store opened read-only (a read-only mount or folder) is said from the start,
        in the title and the status bar: the reviewer learnt it at the first decision
        refused, or never, for a note typed then quit on (twelfth hostile pass, P12-6)."""
        if self.tasks.store.read_only:
            self.show_error(self.tr("This store is read-only here: you can read it, and "
                                    "nothing you decide can be saved."))

    def _say_reviewer_problem(self) -> None:
        """The stored reviewer name fails the rule (saved by an older version): say so,
        and who decides instead, until a valid name is set in Settings."""
        problem = self.settings.reviewer_problem
        if problem and self._session_reviewer is None:
            self.show_error(self.tr("The reviewer name in the settings is not used (%1); "
                                    "deciding as %2 until you set a name in Settings.")
                            .replace("%1", problem).replace("%2", self.reviewer))

    def _say_session_only(self) -> None:
        """The settings file is a link: its settings are used and never written
        (``ui.settings``; seventh hostile pass, S3). Said once, at the start; one found
        later by a write is said by ``_session_only_found``."""
        self.settings.on_session_only = self._session_only_found
        if self.settings.session_only is None or self.error_label.text():
            return
        self.show_error(session_only_text(self.settings.session_only))

    def _session_only_found(self, refused: Refusal) -> None:
        """A write found the settings file made a link or replaced while the app ran: the
        settings are kept in memory from now on (eighth hostile pass, S4). Said once, in
        the status bar; on standard error when it is found as the window closes."""
        if self._closing:
            print(f"reviewer: {session_only_text(refused, translated=False)}",
                  file=sys.stderr, flush=True)
        else:
            self.show_error(session_only_text(refused))

    def edit_settings(self) -> None:
        """The settings dialog, once the reviewers the store knows are read (a name that
        differs from one only by case is refused in it: ninth hostile pass, N2); without
        them when the store cannot be read (each decision checks the name too)."""
        self.tasks.query(stored_reviewers, self._edit_settings,
                         lambda _exc: self._edit_settings([]), owner=self)

    def _edit_settings(self, known: list[str]) -> None:
        """The settings dialog; the reviewer name and auto-advance apply at once."""
        dialog = SettingsDialog(replace(self.config, reviewer=self.reviewer), self,
                                known_reviewers=known)
        try:
            if dialog.exec() != SettingsDialog.DialogCode.Accepted:
                return
            values = dialog.values()
        finally:
            dialog.deleteLater()
            self._take_focus_back()
        self.apply_settings(values)

    def apply_settings(self, values: AppSettings) -> None:
        """Save the settings and apply what can change live.

        A session name (``gui --reviewer``) left as it was in the dialog is not saved
        over the stored one; a name changed in the dialog is saved and used from now on.
        """
        before = self.reviewer
        if values.reviewer != before:
            # The note being typed is the typist's: saved under the name it was typed
            # as, before the new name applies (eleventh hostile pass, V7).
            self.pane.note_editor.keep()
        if self._session_reviewer is not None and values.reviewer == self._session_reviewer:
            values = replace(values, reviewer=self.config.reviewer)
        else:
            self._session_reviewer = None
        self.settings.save(values)
        self.config = self.settings.load()
        changed_reviewer = self.reviewer != before
        self._show_who()
        if changed_reviewer:
            # The status line's last action (its "Ctrl+Z to undo") was the other name's
            # (tenth hostile pass, Z7).
            self.notice(self.tr("Deciding as %1 now").replace("%1", self.reviewer))
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
        return self.tasks.pending == 0 and self._held is None and not self.model.loading \
            and not self.queue.moving and not self.pane.pending \
            and (self.pane.view is not None or self.model.rowCount() == 0)

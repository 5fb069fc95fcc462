"""Second opinions from the window: one attempt (S) or every flagged one, in the background.

The batch (``reviewer.judge.runs.ask_second_opinions``) runs as a long job of the app's
task manager, so the reviewer keeps working meanwhile. The runner drives no widget: it
says by signal when a batch starts, how far it is and how it ended, and the window shows
that (its job-status widget, its error line). However many attempts fail, the reviewer
sees one summary line (never one dialog per error). What the batch changed reaches every
screen through the task manager's ``changed``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from reviewer.review.queue import QueueFilter, queue_keys
from ui.judge import judge_client
from ui.settings import AppSettings
from ui.tasks import LongTask, TaskManager, Work

if TYPE_CHECKING:
    from reviewer.judge.runs import SecondOpinionRun

TIMEOUT_S = 120.0


class SecondOpinionRunner(QObject):
    """Starts, tracks and cancels second-opinion batches (one at a time).

    Signals:
        started(): a batch started.
        progressed(int, int): attempts done, attempts the batch will ask about.
        finished(str): the batch ended; its summary line (the message when it failed).
        error(str): one line for the window's error label.
    """

    started = Signal()
    progressed = Signal(int, int)
    finished = Signal(str)
    error = Signal(str)

    def __init__(self, tasks: TaskManager, config: Callable[[], AppSettings],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.tasks = tasks
        self.config = config
        self._task: LongTask | None = None

    @property
    def running(self) -> bool:
        """True while a batch runs."""
        return self._task is not None

    def cancel(self) -> None:
        """Stop starting new attempts; those in flight finish and are kept."""
        if self._task is not None:
            self._task.cancel()

    def start_flagged(self, f: QueueFilter) -> None:
        """Second opinions for every attempt the (flagged-only) filter shows."""
        self.tasks.query(lambda s: [r.attempt_id for r in queue_keys(s, f)], self.start,
                         owner=self)

    def start(self, attempt_ids: list[int]) -> None:
        """Run the second opinions of ``attempt_ids`` in the background."""
        if self.running:
            self.error.emit(self.tr("Second opinions are already running"))
            return
        if not attempt_ids:
            self.error.emit(self.tr("No attempt to ask a second opinion about"))
            return
        config = self.config()

        def work(w: Work) -> SecondOpinionRun:
            from reviewer.judge.runs import ask_second_opinions

            client = judge_client(config, TIMEOUT_S, abandon=w.closing)
            return ask_second_opinions(w.store, client, attempt_ids, progress=w.progress,
                                       cancel=w.cancel)

        self._task = self.tasks.long(work, self._done, self._failed, owner=self,
                                     on_progress=self.progressed.emit)
        self.started.emit()

    def _done(self, run: SecondOpinionRun) -> None:
        self._task = None
        report = run.report
        text = self.tr("Second opinions: %1 asked, %2 now accepted, %3 failed, %4 skipped") \
            .replace("%1", str(report.done)).replace("%2", str(report.saved)) \
            .replace("%3", str(len(report.failed))).replace("%4", str(report.skipped))
        if report.cancelled:
            text += " — " + self.tr("cancelled")
        if run.why_skipped:
            text += " — " + run.why_skipped
        if report.stopped:
            self.error.emit(self.tr("Second opinion stopped: %1").replace("%1", report.stopped))
        elif report.failed:
            key, message = report.failed[0]
            more = len(report.failed) - 1
            line = f"{key}: {message}" + (f" (+{more})" if more else "")
            self.error.emit(self.tr("Second opinion failed: %1").replace("%1", line))
        self.finished.emit(text)

    def _failed(self, exc: BaseException) -> None:
        self._task = None
        message = str(exc) or type(exc).__name__
        self.error.emit(self.tr("Second opinion failed: %1").replace("%1", message))
        self.finished.emit(message)

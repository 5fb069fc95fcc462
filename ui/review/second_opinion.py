"""Second opinions from the window: one attempt (S) or every flagged one, in the background.

The batch (``reviewer.judge.batch.run_second_opinions``) runs on the long-jobs pool with a
progress bar and a Cancel button in the status bar. However many attempts fail, the
reviewer sees one summary line (never one dialog per error).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from reviewer.review.queue import QueueFilter, queue_keys
from reviewer.rule.replay import load_attempts
from reviewer.store import Store

if TYPE_CHECKING:
    from ui.review.window import MainWindow

TIMEOUT_S = 120.0


def skip_reason(store: Store, attempt_ids: list[int], report: Any) -> str:
    """Why the judge was not asked, when one attempt was asked about and skipped."""
    if len(attempt_ids) != 1 or report.skipped != 1:
        return ""
    from reviewer.judge.second_opinion import why_not_needed

    with store.session() as session:
        attempts = load_attempts(session, attempt_ids)
        return why_not_needed(attempts[0]) if attempts else ""


class SecondOpinionRunner(QObject):
    """Starts, tracks and cancels second-opinion batches for a main window."""

    progressed = Signal(int, int)
    finished = Signal(str)  # the summary line shown in the status bar

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self._cancel: threading.Event | None = None
        self.progressed.connect(self._show_progress)

    @property
    def running(self) -> bool:
        """True while a batch runs."""
        return self._cancel is not None

    def cancel(self) -> None:
        """Stop starting new attempts; those in flight finish and are kept."""
        if self._cancel is not None:
            self._cancel.set()
            self.window.cancel_button.setEnabled(False)

    def start_flagged(self, f: QueueFilter) -> None:
        """Second opinions for every attempt the (flagged-only) filter shows."""
        store = self.window.store

        def ids() -> list[int]:
            with store.session() as session:
                return [r.attempt_id for r in queue_keys(session, f)]

        self.window.ops.run(ids, self.start)

    def start(self, attempt_ids: list[int]) -> None:
        """Run the second opinions of ``attempt_ids`` in the background."""
        w = self.window
        if self.running:
            w.show_error(self.tr("Second opinions are already running"))
            return
        if not attempt_ids:
            w.show_error(self.tr("No attempt to ask a second opinion about"))
            return
        config, store = w.config, w.store
        cancel = threading.Event()
        self._cancel = cancel
        w.job_bar.setRange(0, 0)  # busy until the batch knows how many it will ask
        w.job_bar.show()
        w.cancel_button.setEnabled(True)
        w.cancel_button.show()
        w.error_label.clear()

        def work() -> Any:
            from reviewer.judge.batch import run_second_opinions
            from reviewer.judge.client import JudgeClient

            client = JudgeClient(config.ollama_host, config.ollama_model, timeout=TIMEOUT_S,
                                 retries=1, think=config.judge_think)
            report = run_second_opinions(store, client, attempt_ids,
                                         progress=self.progressed.emit, cancel=cancel)
            return report, skip_reason(store, attempt_ids, report)

        w.ops.run_long(work, self._done, self._failed)

    def _show_progress(self, done: int, total: int) -> None:
        bar = self.window.job_bar
        bar.setRange(0, max(total, 1))
        bar.setValue(done)

    def _finish(self) -> None:
        self._cancel = None
        self.window.job_bar.hide()
        self.window.cancel_button.hide()

    def _done(self, result: tuple[Any, str]) -> None:
        self._finish()
        w = self.window
        report, why = result
        text = self.tr("Second opinions: %1 asked, %2 now accepted, %3 failed, %4 skipped") \
            .replace("%1", str(report.done)).replace("%2", str(report.saved)) \
            .replace("%3", str(len(report.failed))).replace("%4", str(report.skipped))
        if report.cancelled:
            text += " — " + self.tr("cancelled")
        if why:
            text += " — " + why
        if report.stopped:
            w.show_error(self.tr("Second opinion stopped: %1").replace("%1", report.stopped))
        elif report.failed:
            key, message = report.failed[0]
            more = len(report.failed) - 1
            line = f"{key}: {message}" + (f" (+{more})" if more else "")
            w.show_error(self.tr("Second opinion failed: %1").replace("%1", line))
        w.statusBar().showMessage(text, 15000)
        self.finished.emit(text)
        w.apply_filter()
        if w.current_id is not None:
            w.load(w.current_id)

    def _failed(self, exc: BaseException) -> None:
        self._finish()
        message = str(exc) or type(exc).__name__
        self.window.show_error(self.tr("Second opinion failed: %1").replace("%1", message))
        self.finished.emit(message)

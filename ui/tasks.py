"""Background operations (Anki style): the GUI never runs store work on its own thread.

``Ops.run(fn, on_done, on_error)`` runs ``fn()`` on a one-thread pool, so store operations
run in the order the reviewer asked for them (accept, then next, then undo…) while the
window stays responsive; the result comes back on the GUI thread through a queued signal.
Long jobs (second opinions, judge calls) use ``Ops.run_long`` on a separate pool so they
never block the reviewer's own actions.

One relay object lives as long as its ``Ops`` and answers carry a job id. A relay per job
deleted with ``deleteLater`` crashed PySide6 6.12 when a window closed right after a job
answered inside a nested event loop (``qtbot.waitSignal``, a modal dialog): the deferred
deletion could run while the worker thread was still inside ``emit``.

Signals:
    busy_changed(bool): True when the first job starts, False when the last one answers.
    error(str): a job without ``on_error`` failed; the one-line message.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

Done = Callable[[Any], None]
Failed = Callable[[BaseException], None]


class _Relay(QObject):
    """Lives on the GUI thread; a worker emits, Qt queues the call back to the GUI."""

    done = Signal(int, object)
    failed = Signal(int, object)


class _Job(QRunnable):
    def __init__(self, job: int, fn: Callable[[], Any], relay: _Relay) -> None:
        super().__init__()
        self.job, self.fn, self.relay = job, fn, relay

    def run(self) -> None:
        try:
            result = self.fn()
        except BaseException as exc:
            self._emit(self.relay.failed, exc)
        else:
            self._emit(self.relay.done, result)

    def _emit(self, signal: Any, value: Any) -> None:
        # RuntimeError: the window is gone, nobody is waiting for this answer.
        with contextlib.suppress(RuntimeError):
            signal.emit(self.job, value)


class Ops(QObject):
    """Runs store work off the GUI thread and reports back by signal."""

    busy_changed = Signal(bool)
    error = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(1)
        self.long_pool = QThreadPool(self)
        self.long_pool.setMaxThreadCount(1)
        self._relay = _Relay(self)
        self._relay.done.connect(self._done)
        self._relay.failed.connect(self._failed)
        self._ids = itertools.count(1)
        self._callbacks: dict[int, tuple[Done | None, Failed | None]] = {}

    @property
    def pending(self) -> int:
        """Jobs started whose result has not been delivered yet."""
        return len(self._callbacks)

    def run(self, fn: Callable[[], Any], on_done: Done | None = None,
            on_error: Failed | None = None, *, long: bool = False) -> None:
        """Run ``fn`` in the background; call ``on_done(result)`` or ``on_error(exc)`` after."""
        job = next(self._ids)
        self._callbacks[job] = (on_done, on_error)
        if len(self._callbacks) == 1:
            self.busy_changed.emit(True)
        (self.long_pool if long else self.pool).start(_Job(job, fn, self._relay))

    def run_long(self, fn: Callable[[], Any], on_done: Done | None = None,
                 on_error: Failed | None = None) -> None:
        """Like ``run`` but on the pool for long jobs."""
        self.run(fn, on_done, on_error, long=True)

    def _finish(self, job: int) -> tuple[Done | None, Failed | None]:
        callbacks = self._callbacks.pop(job, (None, None))
        if not self._callbacks:
            self.busy_changed.emit(False)
        return callbacks

    def _done(self, job: int, result: Any) -> None:
        on_done, _ = self._finish(job)
        if on_done is not None:
            on_done(result)

    def _failed(self, job: int, exc: BaseException) -> None:
        _, on_error = self._finish(job)
        if on_error is not None:
            on_error(exc)
        else:
            self.error.emit(str(exc) or type(exc).__name__)

    def wait(self, msecs: int = 30000) -> bool:
        """Block until every job has finished (used at shutdown and in tests)."""
        ok = self.pool.waitForDone(msecs)
        return self.long_pool.waitForDone(msecs) and ok

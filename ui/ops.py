"""Background operations (Anki style): the GUI never runs store work on its own thread.

``Ops.run(fn, on_done, on_error)`` runs ``fn()`` on a one-thread pool, so store operations
run in the order the reviewer asked for them (accept, then next, then undo…) while the
window stays responsive; the result comes back on the GUI thread through a queued signal.
Long jobs (second opinions) use ``Ops.run_long`` on a separate pool so they never block the
reviewer's own actions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

Done = Callable[[Any], None]
Failed = Callable[[BaseException], None]


class _Relay(QObject):
    """Lives on the GUI thread; the worker emits, Qt queues the call back to the GUI."""

    done = Signal(object)
    failed = Signal(object)


class _Job(QRunnable):
    def __init__(self, fn: Callable[[], Any], relay: _Relay) -> None:
        super().__init__()
        self.fn = fn
        self.relay = relay
        self.setAutoDelete(True)

    def run(self) -> None:
        try:
            result = self.fn()
        except BaseException as exc:
            self.relay.failed.emit(exc)
        else:
            self.relay.done.emit(result)


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
        self._relays: set[_Relay] = set()

    @property
    def pending(self) -> int:
        """Jobs started whose result has not been delivered yet."""
        return len(self._relays)

    def run(self, fn: Callable[[], Any], on_done: Done | None = None,
            on_error: Failed | None = None, *, long: bool = False) -> None:
        """Run ``fn`` in the background; call ``on_done(result)`` or ``on_error(exc)`` after."""
        relay = _Relay(self)
        self._relays.add(relay)
        if len(self._relays) == 1:
            self.busy_changed.emit(True)

        def finish() -> None:
            self._relays.discard(relay)
            relay.deleteLater()
            if not self._relays:
                self.busy_changed.emit(False)

        def done(result: Any) -> None:
            finish()
            if on_done is not None:
                on_done(result)

        def failed(exc: BaseException) -> None:
            finish()
            if on_error is not None:
                on_error(exc)
            else:
                self.error.emit(str(exc) or type(exc).__name__)

        relay.done.connect(done)
        relay.failed.connect(failed)
        (self.long_pool if long else self.pool).start(_Job(fn, relay))

    def run_long(self, fn: Callable[[], Any], on_done: Done | None = None,
                 on_error: Failed | None = None) -> None:
        """Like ``run`` but on the pool for long jobs."""
        self.run(fn, on_done, on_error, long=True)

    def wait(self, msecs: int = 30000) -> bool:
        """Block until every job has finished (used at shutdown and in tests)."""
        ok = self.pool.waitForDone(msecs)
        return self.long_pool.waitForDone(msecs) and ok

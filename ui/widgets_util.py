"""Small helpers shared by the feedback windows (editors, dashboard, export dialog).

``Background`` runs store work off the GUI thread for one window. Unlike ``ui.ops.Ops``
it keeps a single relay object for the window's whole life instead of one per job
deleted with ``deleteLater``: a window closed right after a job answered (inside a
nested event loop, as ``qtbot.waitSignal`` or a modal dialog runs) must never meet a
relay whose deferred deletion is still pending, which crashes PySide6 6.12.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Callable
from typing import Any, TypeVar

from PySide6.QtCore import QObject, QRunnable, Qt, QThreadPool, Signal
from PySide6.QtWidgets import QLabel

T = TypeVar("T", bound=QObject)
Done = Callable[[Any], None]
Failed = Callable[[BaseException], None]


def named(obj: T, name: str) -> T:
    """``obj`` with its object name set (tests and style sheets find widgets by name)."""
    obj.setObjectName(name)
    return obj


def plain(label: QLabel) -> QLabel:
    """``label`` showing its text verbatim: a QLabel takes text that looks like markup
    (an answer, a pattern, an error quoting either) for rich text unless told otherwise."""
    label.setTextFormat(Qt.TextFormat.PlainText)
    return label


class _Relay(QObject):
    """Lives on the GUI thread; a worker emits, Qt queues the call to the GUI thread."""

    done = Signal(int, object)
    failed = Signal(int, object)


class _Task(QRunnable):
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


class Background(QObject):
    """Jobs run in order on one thread (``long`` ones on a second); answers by callback."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(1)
        self.long_pool = QThreadPool(self)
        self.long_pool.setMaxThreadCount(1)
        self.relay = _Relay(self)
        self.relay.done.connect(self._done)
        self.relay.failed.connect(self._failed)
        self._ids = itertools.count(1)
        self._callbacks: dict[int, tuple[Done | None, Failed | None]] = {}

    @property
    def pending(self) -> int:
        """Jobs started whose answer has not been delivered yet."""
        return len(self._callbacks)

    def run(self, fn: Callable[[], Any], on_done: Done | None = None,
            on_error: Failed | None = None, *, long: bool = False) -> None:
        """Run ``fn`` in the background, then ``on_done(result)`` or ``on_error(exc)``."""
        job = next(self._ids)
        self._callbacks[job] = (on_done, on_error)
        (self.long_pool if long else self.pool).start(_Task(job, fn, self.relay))

    def run_long(self, fn: Callable[[], Any], on_done: Done | None = None,
                 on_error: Failed | None = None) -> None:
        """Like ``run``, on the pool for long jobs (judge calls)."""
        self.run(fn, on_done, on_error, long=True)

    def _done(self, job: int, result: Any) -> None:
        on_done, _ = self._callbacks.pop(job, (None, None))
        if on_done is not None:
            on_done(result)

    def _failed(self, job: int, exc: BaseException) -> None:
        _, on_error = self._callbacks.pop(job, (None, None))
        if on_error is not None:
            on_error(exc)

    def wait(self, msecs: int = 30000) -> bool:
        """Block until every job has finished (before closing the window)."""
        ok = self.pool.waitForDone(msecs)
        return self.long_pool.waitForDone(msecs) and ok

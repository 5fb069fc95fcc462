"""The app's one task manager (Anki's ``taskman`` with ``QueryOp`` / ``CollectionOp``).

Every store access of the GUI is a function of a ``Session`` handed to the one
``TaskManager`` of the app (made in ``ui/app.py``, passed to the main window, which hands
it to every tool). The manager opens the unit of work, commits it, closes it, and delivers
the result on the GUI thread by signal; no module of ``ui/`` opens a session itself.

* ``query(fn, on_done, on_error)`` and ``write(fn, on_done, on_error)`` run on ONE
  background thread, in the order they were asked for, app-wide: accept → next → undo
  keep that order whichever window asked, and two windows never write at once (each
  used to have its own worker and its own connection, so their writes raced).
* After a write whose result carries changes (a ``reviewer.changes.Changes``, or anything
  with a ``.changes`` property such as ``reviewer.review.actions.Outcome``), the manager
  emits ``changed(Changes)`` — before the caller's ``on_done`` — and each screen
  refreshes from what the operation says it changed, never from hard-wired reloads.
* ``long(fn, on_done, …)`` runs a long job (judge batches, back-tests, exports,
  whole-store figures) on a separate pool, so it never blocks the reviewer's own
  actions. ``fn`` receives a ``Work``: the store, the job's cancel flag, a progress
  callback and ``read(fn)`` for a unit of work opened for it. How its writes are
  ordered: the ordered thread hands the job to the long pool when it reaches it, so the
  job sees every write asked for before it; its own writes (second opinions, re-judged
  verdicts, never review decisions) are small units of work committed as they arrive,
  interleaved with the review actions asked for meanwhile — the database serialises
  them (SQLite's write lock and busy timeout, PostgreSQL's row locks) — and its
  ``changed`` comes once, when it has finished.

What a write or a long job does may be named (``what``: "Reject of recette-033/2/1",
"export to out.jsonl"). A write not answered for ``SLOW_MS`` is said (``waiting``). At
quit the manager waits a bounded time (``quit_wait_ms``, from ``begin_quit``), never
without bound: a worker blocked in C (a FIFO's ``open``, a PostgreSQL socket that stays
open and silent) cannot be stopped, so the app then exits anyway, naming on standard
error what it did not wait for (``unanswered``, ``say_abandoned``; fifteenth hostile pass,
P15-3 and P15-5: the quit waited for as long as the worker did, deaf to SIGTERM).

Answers belong to an ``owner`` (the asking widget). Once the owner is deleted its answers
are dropped and its long jobs cancelled; the job itself still runs to its end, so a write
that was asked for is written.

One relay object lives as long as the manager and answers carry a job id. A relay per job
deleted with ``deleteLater`` crashed PySide6 6.12 when a window closed right after a job
answered inside a nested event loop (``qtbot.waitSignal``, a modal dialog): the deferred
deletion could run while the worker thread was still inside ``emit``.

Signals:
    busy_changed(bool): True when the first job starts, False when the last one answers.
    error(str): a job without ``on_error`` failed; the one-line message.
    changed(object): the ``Changes`` a write or a long job reported (never empty).
    waiting(str): the oldest write asked for more than ``SLOW_MS`` ago and not answered
        yet, by its name; "" once none is.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import sys
import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

import shiboken6
from PySide6.QtCore import QCoreApplication, QObject, QRunnable, QThreadPool, QTimer, Signal

from reviewer.changes import Changes
from reviewer.store import Session, Store
from reviewer.store.database import busy_timeout_ms
from reviewer.store.units import in_unit_of_work

T = TypeVar("T")
Failed = Callable[[BaseException], None]
Progress = Callable[[int, int], None]
# Long jobs: judge batches wait on the network, reads of the whole store on the disk; a
# few at once keeps a back-test from waiting behind a batch of second opinions.
LONG_THREADS = 4
WAIT_MS = 30000
# A write unanswered this long is said ("Reject of … waiting for the database…"): a lock
# wait or a server that stopped answering (fifteenth hostile pass, P15-5).
SLOW_MS = 3000
# How long a quit waits for the work asked for; then the app exits anyway. Longer than
# the lock wait (SQLite's busy timeout, PostgreSQL's lock_timeout), so that a write under
# a lock gets its own answer (stored, or refused and said) rather than abandoned.
QUIT_WAIT_MS = 10000
LOCK_MARGIN_MS = 5000


def quit_wait_ms() -> int:
    """How long a quit waits for the background work (``$REVIEWER_QUIT_WAIT_MS``, else
    10 s or the lock wait and 5 s more, whichever is longer)."""
    value = os.environ.get("REVIEWER_QUIT_WAIT_MS", "")
    if value.isdigit():
        return int(value)
    return max(QUIT_WAIT_MS, busy_timeout_ms() + LOCK_MARGIN_MS)

_managers: weakref.WeakSet[TaskManager] = weakref.WeakSet()


def changes_of(result: object) -> Changes | None:
    """What a result says it changed: a ``Changes``, or its ``.changes`` property."""
    if isinstance(result, Changes):
        return result
    changes = getattr(result, "changes", None)
    return changes if isinstance(changes, Changes) else None


def managers() -> list[TaskManager]:
    """Every task manager still alive (the leak guards of the tests look at them)."""
    return list(_managers)


class _Relay(QObject):
    """Lives on the GUI thread; a worker emits, Qt queues the call back to the GUI.

    Signals:
        done(int, object): job id, result.
        failed(int, object): job id, the exception.
        progressed(int, int, int): job id, done, total.
    """

    done = Signal(int, object)
    failed = Signal(int, object)
    progressed = Signal(int, int, int)


def _emit(signal: Any, *values: Any) -> None:
    # RuntimeError: the manager is gone, nobody is waiting for this answer.
    with contextlib.suppress(RuntimeError):
        signal.emit(*values)


class _Job(QRunnable):
    """Runs ``fn`` on a pool thread and sends its result or exception to the relay."""

    def __init__(self, job: int, fn: Callable[[], object], relay: _Relay) -> None:
        super().__init__()
        self.job, self.fn, self.relay = job, fn, relay

    def run(self) -> None:
        """Called by the pool."""
        try:
            result = self.fn()
        except BaseException as exc:
            _emit(self.relay.failed, self.job, exc)
        else:
            _emit(self.relay.done, self.job, result)


class _Handoff(QRunnable):
    """Reached in order on the ordered thread: starts a long job on the long pool."""

    def __init__(self, pool: QThreadPool, job: _Job) -> None:
        super().__init__()
        self.pool, self.job = pool, job

    def run(self) -> None:
        """Called by the ordered pool."""
        self.pool.start(self.job)


class Work:
    """What a long job receives: the store, its cancel flag, progress, units of work,
    and ``closing``, the manager's flag set when the app closes: a job hands it to whatever
    waits on the outside (a judge request) so that the wait is dropped, not finished."""

    def __init__(self, store: Store, cancel: threading.Event, report: Progress,
                 closing: threading.Event | None = None) -> None:
        self.store = store
        self.cancel = cancel
        self.closing = closing if closing is not None else threading.Event()
        self._report = report

    def progress(self, done: int, total: int) -> None:
        """Report progress (any thread); the owner's ``on_progress`` gets it on the GUI."""
        self._report(done, total)

    def read(self, fn: Callable[[Session], T]) -> T:
        """``fn(session)`` in a unit of work opened for this job."""
        return in_unit_of_work(self.store, fn)


class LongTask:
    """A started long job: ``cancel()`` asks it to stop (it decides when)."""

    def __init__(self, cancel: threading.Event) -> None:
        self._cancel = cancel

    def cancel(self) -> None:
        """Set the job's cancel flag."""
        self._cancel.set()

    @property
    def cancelled(self) -> bool:
        """True once cancel was asked."""
        return self._cancel.is_set()


@dataclass(slots=True)
class _Pending:
    on_done: Callable[[Any], None] | None
    on_error: Failed | None
    owner: QObject | None
    reports_changes: bool
    on_progress: Progress | None = None
    cancel: threading.Event | None = None
    what: str | None = None  # what it does, as the reviewer would name it
    write: bool = False  # a write of the ordered thread (said when slow)
    asked: float = 0.0  # time.monotonic() when asked for

    def alive(self) -> bool:
        """False once the owner was deleted: its answer is dropped."""
        return self.owner is None or bool(shiboken6.isValid(self.owner))


class TaskManager(QObject):
    """Runs the app's store work off the GUI thread, in order, and reports back by signal.

    Signals:
        busy_changed(bool): True when the first job starts, False when the last one answers.
        error(str): a job without ``on_error`` failed; the one-line message.
        changed(object): the ``Changes`` a write or a long job reported (never empty).
        waiting(str): the oldest write asked for more than ``SLOW_MS`` ago and not
            answered yet, by its name; "" once none is.
    """

    busy_changed = Signal(bool)
    error = Signal(str)
    changed = Signal(object)
    waiting = Signal(str)

    def __init__(self, store: Store, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.store = store
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(1)  # THE ordered thread
        self.long_pool = QThreadPool(self)
        self.long_pool.setMaxThreadCount(LONG_THREADS)
        self._relay = _Relay(self)
        self._relay.done.connect(self._done)
        self._relay.failed.connect(self._failed)
        self._relay.progressed.connect(self._progressed)
        self._ids = itertools.count(1)
        self._jobs: dict[int, _Pending] = {}
        self._watched: set[int] = set()  # owners whose deletion cancels their long jobs
        self._shut = False
        # Set when the app closes (close_down): long jobs abandon what they wait for
        # outside the app (Work.closing, a judge request).
        self.closing = threading.Event()
        self._quit_by: float | None = None  # the quit's deadline (time.monotonic())
        self._abandoned_said = False
        self._slow_said = ""
        self._slow = QTimer(self)
        self._slow.setInterval(250)
        self._slow.timeout.connect(self._look_for_slow)
        _managers.add(self)

    # --- asking ----------------------------------------------------------------------
    def query(self, fn: Callable[[Session], T], on_done: Callable[[T], None] | None = None,
              on_error: Failed | None = None, *, owner: QObject | None = None) -> None:
        """Read in the background, in order; ``on_done(result)`` on the GUI thread."""
        store = self.store
        self._start(lambda: in_unit_of_work(store, fn),
                    _Pending(on_done, on_error, owner, reports_changes=False))

    def write(self, fn: Callable[[Session], T], on_done: Callable[[T], None] | None = None,
              on_error: Failed | None = None, *, owner: QObject | None = None,
              what: str | None = None) -> None:
        """Write in one committed unit of work, in order; then ``changed``, ``on_done``.
        ``what``: the write as the reviewer names it (said when it is slow or abandoned)."""
        store = self.store
        self._start(lambda: in_unit_of_work(store, fn),
                    _Pending(on_done, on_error, owner, reports_changes=True, what=what,
                             write=True))

    def long(self, fn: Callable[[Work], T], on_done: Callable[[T], None] | None = None,
             on_error: Failed | None = None, *, owner: QObject | None = None,
             on_progress: Progress | None = None, what: str | None = None) -> LongTask:
        """Run a long job on the long pool (see the module docstring for its ordering);
        ``what`` names it when a quit leaves it unfinished."""
        cancel = threading.Event()
        entry = _Pending(on_done, on_error, owner, reports_changes=True,
                         on_progress=on_progress, cancel=cancel, what=what)
        job = self._next_id()
        relay = self._relay
        work = Work(self.store, cancel, lambda d, t: _emit(relay.progressed, job, d, t),
                    self.closing)
        self._start(lambda: fn(work), entry, job=job, long=True)
        if owner is not None and id(owner) not in self._watched:
            self._watched.add(id(owner))
            owner.destroyed.connect(partial(self._owner_gone, id(owner)))
        return LongTask(cancel)

    def long_query(self, fn: Callable[[Session], T],
                   on_done: Callable[[T], None] | None = None, on_error: Failed | None = None,
                   *, owner: QObject | None = None, what: str | None = None) -> LongTask:
        """A read too long for the ordered thread (whole-store figures, exports)."""
        return self.long(lambda work: work.read(fn), on_done, on_error, owner=owner,
                         what=what)

    def _next_id(self) -> int:
        return next(self._ids)

    def _start(self, fn: Callable[[], object], entry: _Pending, *, job: int | None = None,
               long: bool = False) -> None:
        if self._shut:
            raise RuntimeError("the task manager is shut down")
        job = self._next_id() if job is None else job
        entry.asked = time.monotonic()
        self._jobs[job] = entry
        if len(self._jobs) == 1:
            self.busy_changed.emit(True)
            self._slow.start()
        runnable = _Job(job, fn, self._relay)
        self.pool.start(_Handoff(self.long_pool, runnable) if long else runnable)

    # --- answers ---------------------------------------------------------------------
    def _done(self, job: int, result: object) -> None:
        entry = self._jobs.pop(job, None)
        try:
            if entry is None or self._shut:  # the app is ending: nobody may ask again
                return
            changes = changes_of(result) if entry.reports_changes else None
            if changes is not None and not changes.empty:
                self.changed.emit(changes)
            if entry.on_done is not None and entry.alive():
                entry.on_done(result)
        finally:
            self._maybe_idle()

    def _failed(self, job: int, exc: BaseException) -> None:
        entry = self._jobs.pop(job, None)
        try:
            if entry is None or self._shut or not entry.alive():
                return
            if entry.on_error is not None:
                entry.on_error(exc)
            else:
                self.error.emit(str(exc) or type(exc).__name__)
        finally:
            self._maybe_idle()

    def _progressed(self, job: int, done: int, total: int) -> None:
        entry = self._jobs.get(job)
        if entry is not None and not self._shut and entry.on_progress is not None and entry.alive():
            entry.on_progress(done, total)

    def _owner_gone(self, key: int, *_: object) -> None:
        self._watched.discard(key)
        for entry in self._jobs.values():
            if entry.cancel is not None and id(entry.owner) == key:
                entry.cancel.set()

    def _maybe_idle(self) -> None:
        if not self._jobs:
            self._slow.stop()
            self.busy_changed.emit(False)
        self._look_for_slow()

    def _look_for_slow(self) -> None:
        """Say the oldest write unanswered for ``SLOW_MS`` (or that none is any more)."""
        late = time.monotonic() - SLOW_MS / 1000
        slow = next((self._named(e) for e in self._jobs.values()
                     if e.write and e.asked <= late), "")
        if slow != self._slow_said and not self._shut:
            self._slow_said = slow
            self.waiting.emit(slow)

    @staticmethod
    def _named(entry: _Pending) -> str:
        return entry.what or QCoreApplication.translate("TaskManager", "A change")

    # --- state and shutdown ----------------------------------------------------------
    @property
    def pending(self) -> int:
        """Jobs asked for whose answer has not been delivered yet."""
        return len(self._jobs)

    @property
    def idle(self) -> bool:
        """No answer pending and no thread of either pool busy."""
        return not self._jobs and self.pool.activeThreadCount() == 0 \
            and self.long_pool.activeThreadCount() == 0

    @property
    def is_shut_down(self) -> bool:
        """True after ``shutdown``: no job can be asked for any more."""
        return self._shut

    def cancel_long(self, owner: QObject | None = None) -> None:
        """Ask the long jobs of ``owner`` (every one when None) to stop."""
        for entry in self._jobs.values():
            if entry.cancel is not None and (owner is None or entry.owner is owner):
                entry.cancel.set()

    def close_down(self) -> None:
        """The app is closing: long jobs drop what they wait for outside it (a judge
        request in flight) instead of waiting for it; what they have is still written.

        A judge that never answered kept the process alive with no window for two 120 s
        timeouts (fourth hostile pass, G6): the window waited for the job on close, and
        Qt's thread pools wait for their threads when they are destroyed."""
        self.closing.set()

    def wait(self, msecs: int = WAIT_MS) -> bool:
        """Block until every job has run (the ordered thread first: it starts long jobs),
        ``msecs`` at most in all."""
        end = time.monotonic() + msecs / 1000
        ok = self.pool.waitForDone(msecs)
        left = max(0, int((end - time.monotonic()) * 1000))
        return self.long_pool.waitForDone(left) and ok

    # --- the quit: a bounded wait ----------------------------------------------------
    def begin_quit(self) -> None:
        """The app is asked to quit: from now on it waits ``quit_wait_ms()`` at most for
        the work asked for (a second call keeps the first deadline)."""
        if self._quit_by is None:
            self._quit_by = time.monotonic() + quit_wait_ms() / 1000

    def end_quit(self) -> None:
        """The quit was given up (a note refused, the app stays open)."""
        self._quit_by = None

    @property
    def quit_left_ms(self) -> int:
        """What is left of the quit's wait (the whole wait when no quit began)."""
        if self._quit_by is None:
            return quit_wait_ms()
        return max(0, int((self._quit_by - time.monotonic()) * 1000))

    def unanswered(self) -> list[str]:
        """The writes and named long jobs asked for and not answered, by name (reads
        are not named: a read left unfinished loses nothing)."""
        return [self._named(e) for e in self._jobs.values() if e.write or e.what]

    def abandoned_line(self) -> str:
        """What a quit that stops waiting says on standard error (English, one line)."""
        named = self.unanswered()
        waited = f"no answer within {quit_wait_ms() / 1000:g} s"
        if not named:
            return (f"reviewer: quit without waiting any longer for the database ({waited}); "
                    "nothing was waiting to be stored")
        return (f"reviewer: quit without waiting any longer for: {', '.join(named)} "
                f"({waited}); it may not have been stored")

    def say_abandoned(self) -> None:
        """Say once, on standard error, what the quit did not wait for."""
        if not self._abandoned_said:
            self._abandoned_said = True
            print(self.abandoned_line(), file=sys.stderr, flush=True)

    def shutdown(self, msecs: int | None = None) -> bool:
        """Cancel the long jobs, wait for every thread, refuse new jobs (at the app's end).
        False when a thread is still busy after the wait: the quit's (``begin_quit``)
        when ``msecs`` is not given.

        Answers still on their way are dropped: the windows are closing, and one acting
        on an answer would ask for more work. A judge request in flight is abandoned
        rather than waited for (``close_down``)."""
        self.close_down()
        self.cancel_long()
        self._shut = True
        self._slow.stop()
        if msecs is None:
            self.begin_quit()
            msecs = self.quit_left_ms
        return self.wait(msecs)

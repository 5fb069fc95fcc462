"""A PostgreSQL connection that stops answering: Ctrl-C acts at once, and a silence is
bounded without cutting a long statement short.

Fifteenth hostile pass, P15-5: with the connection stalled (the socket open, nothing
coming back: a proxy, a VPN or a NAT that stops forwarding, a frozen server), a command
waited for ever, and Ctrl-C seemed to do nothing. ``connect_timeout`` bounds only the
connection's start, H1's ``lock_timeout`` only a lock wait, and TCP keepalives are
answered by whatever box holds the connection open.

Why Ctrl-C was not acted on: psycopg's wait does see it (it polls in slices of 0.1 s, and
Python's handler raises ``KeyboardInterrupt`` between two), but its ``Connection.wait``
then asks the server to cancel the statement, over a new connection that goes the same
stalled way (5 s in psycopg 3.3.9), waits for the statement to end (5 s more), and logs
two lines under ours. Here an interrupt gets one bounded try at the cancel (``CANCEL_S``:
on a live server it stops a long statement holding locks), then the connection is
closed; the interrupt goes on to the command, which says its usual line. The server rolls
back what was not committed when it finds the connection gone.

The silence: a statement of which no byte has come for ``silence_s()`` seconds (10, the
connection timeout's value) has the server looked at from outside, over a new connection
(``_looked_at``, itself bounded): a server that is running it (``pg_stat_activity``
shows our session ``active``, not waiting on us to read or to send) is left to finish,
and looked at again after as long; so an import, an export or a migration that runs
for minutes on a healthy server is never cut. A server that does not answer the new
connection, or says our session is idle, gone or blocked writing to us, is not going to
answer: the connection is closed and :class:`ServerSilent` says so in one line. A server
that answers but cannot say (a pooler between us, no right to see the session) is
given the benefit of the doubt.
"""

from __future__ import annotations

import contextlib
import os
import select
import time
from collections.abc import Generator, Mapping, Sequence
from typing import Any, TypeVar

import psycopg
from psycopg import waiting
from psycopg.conninfo import conninfo_to_dict

RV = TypeVar("RV")

# Seconds without a byte of an answer before the server is looked at from outside.
SILENCE_S = 10
# Seconds the look from outside may take (its connection, its one query).
LOOK_S = 5
# libpq's smallest connect_timeout: a smaller value is taken as 2 s.
LIBPQ_MIN_TIMEOUT_S = 2
# Seconds an interrupt gives the cancel request before the connection is closed.
CANCEL_S = 2
# Seconds an answer reported finished by the server is given to arrive (it may be on
# its way when the server is looked at).
ARRIVAL_S = 1
# psycopg's own slice of waiting (``psycopg.connection._WAIT_INTERVAL``): signals are
# looked at between two.
WAIT_INTERVAL_S = 0.1
# What our session waits on when the server waits on us: our answer not read, our
# statement not received. Active, but not working.
WAITING_ON_US = ("ClientWrite", "ClientRead")
LOOK = ("SELECT pg_backend_pid(), a.pid, a.state, a.wait_event "
        "FROM (SELECT 1) AS one LEFT JOIN pg_stat_activity AS a ON a.pid = %s")


# psycopg's error for a wait's own timeout: private, so looked up; without it (another
# psycopg release) every wait is watched.
_WAIT_TIMEOUT: type[Exception] | None = getattr(psycopg.errors, "_WaitTimeout", None)


def silence_s() -> float:
    """Seconds of silence before the server is looked at (``$REVIEWER_PG_SILENCE_S``, for
    the tests; else ``SILENCE_S``)."""
    value = os.environ.get("REVIEWER_PG_SILENCE_S", "")
    return float(value) if value.isdigit() and int(value) > 0 else SILENCE_S


def watched_connect(cargs: Sequence[Any], cparams: Mapping[str, Any]) -> WatchedConnection:
    """A connection made as SQLAlchemy's psycopg dialect makes one (``psycopg.connect``),
    watched (see the module)."""
    conn = WatchedConnection.connect(*cargs, **cparams)
    conn.params = conninfo_to_dict(cargs[0] if cargs else "", **cparams)
    conn.quiet = silence_s()
    return conn


class ServerSilent(psycopg.OperationalError):
    """The server stopped answering a statement: the connection was closed."""

    def __init__(self, where: str, seconds: float, committing: bool) -> None:
        self.where = where
        self.seconds = round(seconds)
        self.committing = committing
        super().__init__(f"the PostgreSQL server at {where} has not answered for "
                         f"{self.seconds} s")

    def line(self, done: str) -> str:
        """The one line, ending with what became of the work (``done``)."""
        if self.committing:  # the commit may have been made, its answer lost
            return (f"{self} after the commit was sent: the change in progress may or may "
                    "not have been saved; look before doing it again")
        return f"{self}; {done}"


class WatchedConnection(psycopg.Connection[Any]):
    """A psycopg connection whose waits act on an interrupt at once and end a silence."""

    params: Mapping[str, Any] = {}
    quiet: float = SILENCE_S
    committing = False

    def wait(self, gen: Generator[Any, Any, RV], interval: float = WAIT_INTERVAL_S,
             timeout: float | None = None) -> RV:
        """Consume ``gen`` as psycopg does, with the silence watched (see the module)."""
        if timeout is not None:  # psycopg's own bounded waits (notifies)
            return super().wait(gen, interval, timeout)
        fd = self.pgconn.socket
        started = time.monotonic()
        try:
            if _WAIT_TIMEOUT is not None:
                # Almost every statement is answered within ``quiet``: waited for in
                # psycopg's C loop, at its speed (the watch below costs a few µs a
                # statement).
                try:
                    return waiting.wait(gen, fd, interval, timeout=self.quiet)
                except _WAIT_TIMEOUT:
                    pass  # ``gen`` is resumed where it was, now watched
            return waiting.wait(self._watched(gen, started), fd, interval)
        except (KeyboardInterrupt, SystemExit):
            self._abandon()
            raise

    def commit(self) -> None:
        """Commit, a silence then said to leave the commit's outcome unknown."""
        self.committing = True
        try:
            super().commit()
        finally:
            self.committing = False

    def _watched(self, gen: Generator[Any, Any, RV], heard: float
                 ) -> Generator[Any, Any, RV]:
        """``gen``, whose every wake-up (psycopg sends 0 every ``interval`` while nothing
        comes) is timed: after ``quiet`` seconds without data since ``heard``, the server
        is looked at."""
        try:
            state = next(gen)
            while True:
                ready = yield state
                now = time.monotonic()
                if ready:
                    heard = now
                elif now - heard >= self.quiet:
                    if not self._still_working():
                        silent = ServerSilent(self._where(), time.monotonic() - heard,
                                              self.committing)
                        self.pgconn.finish()  # the server rolls back what is not committed
                        raise silent
                    heard = time.monotonic()
                state = gen.send(ready)
        except StopIteration as done:
            result: RV = done.value
            return result

    def _still_working(self) -> bool:
        """Whether the server is running our statement, or may be (it answers but cannot
        say); False when it does not answer, or says it is not."""
        try:
            tells, state, waits = _looked_at(self._same_server(), self.pgconn.backend_pid)
        except _NoAnswer:
            return False
        except psycopg.Error:  # it answered, with a refusal (too many clients, …)
            return True
        if not tells or (state == "active" and waits not in WAITING_ON_US):
            return True
        # Finished, gone or blocked on us: an answer on its way would be here by now.
        arrival = select.poll()  # not select(): a descriptor past 1023 is refused there
        arrival.register(self.pgconn.socket, select.POLLIN)
        return bool(arrival.poll(ARRIVAL_S * 1000))

    def _same_server(self) -> Mapping[str, Any]:
        """The connection's settings, naming the one server it reached: of several hosts
        in the URL, another one knows nothing of our session."""
        found = {"host": self.info.host, "port": str(self.info.port)}
        with contextlib.suppress(psycopg.Error):
            if self.info.hostaddr:
                found["hostaddr"] = self.info.hostaddr
        return {**self.params, **found}

    def _abandon(self) -> None:
        """After an interrupt: one bounded try at cancelling the statement, then the
        connection closed (psycopg would wait for the statement's end)."""
        if self.pgconn.transaction_status == psycopg.pq.TransactionStatus.ACTIVE:
            with contextlib.suppress(Exception, KeyboardInterrupt, SystemExit):
                if psycopg.capabilities.has_cancel_safe():
                    self.cancel_safe(timeout=CANCEL_S)
        self.pgconn.finish()

    def _where(self) -> str:
        """HOST:PORT of the server (a socket folder for a local one)."""
        try:
            return f"{self.info.host}:{self.info.port}"
        except psycopg.Error:
            return "?"


class _NoAnswer(Exception):
    """The server did not answer the look from outside in time."""


class _Bounded(psycopg.Connection[Any]):
    """The look's own connection: each wait ends after ``LOOK_S``."""

    def wait(self, gen: Generator[Any, Any, RV], interval: float = WAIT_INTERVAL_S,
             timeout: float | None = None) -> RV:
        try:
            return waiting.wait(_before(gen, time.monotonic() + LOOK_S),
                                self.pgconn.socket, interval)
        except BaseException:
            self.pgconn.finish()  # nothing more is waited for on it
            raise


def _before(gen: Generator[Any, Any, RV], deadline: float) -> Generator[Any, Any, RV]:
    """``gen``, abandoned with :class:`_NoAnswer` once ``deadline`` has passed."""
    try:
        state = next(gen)
        while True:
            ready = yield state
            if not ready and time.monotonic() >= deadline:
                raise _NoAnswer
            state = gen.send(ready)
    except StopIteration as done:
        result: RV = done.value
        return result


def _looked_at(params: Mapping[str, Any], backend: int) -> tuple[bool, str | None,
                                                                  str | None]:
    """Our session (process ``backend``) as a new connection to the server sees it:
    whether it can tell, the session's state (None: gone) and what it waits on. It
    cannot tell through a pooler (the process numbers we were given are not the
    server's) or without the right to see the session."""
    settings = {key: value for key, value in params.items()
                if key not in ("connect_timeout", "prepare_threshold", "autocommit")}
    seconds = max(LIBPQ_MIN_TIMEOUT_S, min(LOOK_S, round(silence_s())))
    try:
        look = _Bounded.connect(**settings, connect_timeout=seconds, autocommit=True)
    except psycopg.OperationalError as exc:
        if exc.sqlstate is None or exc.sqlstate.startswith("57P"):  # silent, or restarting
            raise _NoAnswer from exc
        raise
    try:
        row = look.execute(LOOK, (backend,)).fetchone()
        own = look.pgconn.backend_pid
    finally:
        look.close()
    if row is None or row[0] != own:
        return False, None, None
    _, found, state, waits = row
    if found is None:
        return True, None, None
    return state is not None, state, waits

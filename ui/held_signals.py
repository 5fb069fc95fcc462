"""SIGINT, SIGTERM and SIGHUP while the app starts: held, then acted on where it is safe.

Python raises ``KeyboardInterrupt`` at the next bytecode after a Ctrl-C, wherever it is.
While the app started, that was often inside PySide6's own import machinery (shiboken
runs Python code to set up each Qt module, its enums and its signatures), which it left
half made: "internal error (AttributeError: type object 'PySide6.QtCore.Qt' has no
attribute 'ShortcutContext')", "ImportError: libshiboken: could not import module
'PySide6.QtGui'", or an abort (SIGABRT) with shiboken's traceback; SIGTERM and SIGHUP
killed the app with no line (ninth hostile pass, T8).

So from the ``gui`` command's first line (:func:`held`, before PySide6 is imported) these
signals are only recorded. The window's own signal handling (``ui/interrupt.py``) takes
them over once the window is built (:func:`take_over`) and acts on one held as if it came
then: one line, the window closed as by its close button, exit 130, 143 or 129. Where the
start waits on the reviewer or on the database (a start-up box, the store being opened:
:func:`released`), the signals act as they did before: Ctrl-C interrupts, SIGTERM ends;
one held until then ends the start there. A start that ends before the window (refused,
a screenshot) says the signal held in one line, with its exit code. A signal ignored at
the start (SIGHUP under ``nohup``) stays ignored.

No Qt here: this runs before PySide6 is imported.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

from reviewer.errors import InterruptedByUser, ReviewerError

NOT_SAVED = "the step in progress was not saved (what was saved before is kept)"
# Each signal held: what its line calls it, and its exit code (128 + its number).
ENDINGS = {signal.SIGINT: ("interrupted", 130), signal.SIGTERM: ("terminated", 143),
           signal.SIGHUP: ("hung up", 129)}


class Ended(KeyboardInterrupt):
    """A signal held, acted on where the start let it: raised through the start (a
    KeyboardInterrupt: no ``except Exception`` or ``except ReviewerError`` on the way takes
    it for a failure to show in a box), said by :func:`held`."""

    def __init__(self, number: int) -> None:
        super().__init__(number)
        self.number = number


def ending(number: int) -> ReviewerError:
    """The one line and exit code of the start ended by signal ``number``."""
    said, code = ENDINGS[signal.Signals(number)]
    if number == signal.SIGINT:
        return InterruptedByUser(f"{said}; {NOT_SAVED}")
    error = ReviewerError(f"{said}; {NOT_SAVED}")
    error.exit_code = code
    return error


class _Hold:
    """The usual handlers, put aside while the signals are held, and what came."""

    def __init__(self) -> None:
        self.usual: dict[signal.Signals, Any] = {}
        self.received: list[int] = []
        self.releases = 0  # how many :func:`released` blocks are open
        self.handed = False  # taken over by the window's handling

    def record(self, number: int, _frame: FrameType | None) -> None:
        self.received.append(number)

    def hold(self) -> None:
        for sig in ENDINGS:
            # As ui/interrupt.py: SIGINT always, the others unless ignored (nohup).
            if sig == signal.SIGINT or signal.getsignal(sig) != signal.SIG_IGN:
                self.usual[sig] = signal.signal(sig, self.record)

    def restore(self) -> None:
        for sig, handler in self.usual.items():
            signal.signal(sig, handler)

    def act(self) -> None:
        """Raise :class:`Ended` for the first signal held, if any."""
        if self.received:
            raise Ended(self.received[0])


_hold: _Hold | None = None


@contextmanager
def held() -> Iterator[None]:
    """While inside, SIGINT, SIGTERM and SIGHUP are recorded instead of acted on, except
    in :func:`released` blocks and once :func:`take_over` handed them to the window. A
    signal still held at the end, or acted on meanwhile, ends the command: its one line
    and exit code (a ``ReviewerError``, said by ``main``). Off the main thread (an
    in-process caller), nothing changes."""
    global _hold
    if threading.current_thread() is not threading.main_thread() or _hold is not None:
        yield
        return
    hold = _Hold()
    hold.hold()
    _hold = hold
    try:
        yield
    except Ended as exc:
        raise ending(exc.number) from None
    finally:
        _hold = None
        if not hold.handed and not hold.releases:
            hold.restore()
    if not hold.handed and hold.received:
        raise ending(hold.received[0])


@contextmanager
def released() -> Iterator[None]:
    """While inside, the signals act as they usually do (the start waits on the reviewer
    or on the database here, and touches no Qt module for the first time); one held until
    now ends the start first (:class:`Ended`). Without a hold, nothing changes."""
    hold = _hold
    if hold is None or hold.handed:
        yield
        return
    hold.act()
    if not hold.releases:
        hold.restore()
    hold.releases += 1
    try:
        yield
    finally:
        hold.releases -= 1
        if not hold.releases and _hold is hold:
            hold.hold()


def take_over() -> tuple[dict[signal.Signals, Any], int | None] | None:
    """For the window's own handling, once it has put its handlers in: the usual handlers
    (to put back after the window) and the first signal held (to act on now), and the
    hold is over. None without a hold."""
    hold = _hold
    if hold is None or hold.handed:
        return None
    hold.handed = True
    return dict(hold.usual), (hold.received[0] if hold.received else None)

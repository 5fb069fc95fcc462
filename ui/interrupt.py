"""Ctrl-C (SIGINT), SIGTERM and SIGHUP to the running app close its window the way its
close button does.

Python runs a signal's handler only between bytecodes of the main thread. While Qt's
loop waits in C++ none run, so Python's default handler raised ``KeyboardInterrupt``
inside whichever Python slot ran next (the type-ahead's key filter at the next key):
Qt printed the traceback and the app went on (sixth hostile pass, GI). Here the
interpreter's C handler writes the signal's number to a socket Qt watches
(``signal.set_wakeup_fd``); that wakes the loop into a Python slot, which says so in one
line and closes the window through its ``closeEvent`` (the note being typed saved, the
settings written, the task queue drained). The app then ends with the exit code of that
signal: 130 for an interrupt, 143 for SIGTERM, 129 for SIGHUP.

SIGTERM (``kill``, a logout, a service manager) and SIGHUP (the terminal closed) killed
the app the default way: no line, the settings not written, a key pressed just before
possibly not stored (eighth hostile pass, Q2). A signal ignored when the app starts
(SIGHUP under ``nohup``) stays ignored.

A signal that came while the app started was held (``ui/held_signals.py``: raised in the
middle of PySide6's imports, it broke them); it is acted on here, as if it came once the
window is there.
"""

from __future__ import annotations

import contextlib
import signal
import socket
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from PySide6.QtCore import QSocketNotifier
from PySide6.QtWidgets import QWidget

from ui.held_signals import take_over

CLOSED = "the window was closed as by its close button"
INTERRUPTED_LINE = f"reviewer: interrupted; {CLOSED}"
TERMINATED_LINE = f"reviewer: terminated; {CLOSED}"
HUNG_UP_LINE = f"reviewer: hung up; {CLOSED}"
# Each signal handled: the line said, and the exit code (128 + its number, as a shell says).
ENDINGS = {signal.SIGINT: (INTERRUPTED_LINE, 130), signal.SIGTERM: (TERMINATED_LINE, 143),
           signal.SIGHUP: (HUNG_UP_LINE, 129)}


@contextmanager
def closing_on_signals(window: QWidget) -> Iterator[Callable[[], int | None]]:
    """While inside, SIGINT, SIGTERM and SIGHUP close ``window``; yields "the exit code of
    the signal that closed it" (None: none did)."""
    reader, writer = socket.socketpair()
    reader.setblocking(False)
    writer.setblocking(False)  # a signal handler never waits on a full socket
    ended: list[int] = []

    def woken() -> None:
        try:
            numbers = reader.recv(64)
        except OSError:  # woken for nothing: the bytes were read already
            return
        for number in numbers:
            if number in ENDINGS and number in previous and not ended:
                line, code = ENDINGS[signal.Signals(number)]
                ended.append(code)
                print(line, file=sys.stderr, flush=True)
                # ``close_now``: the window closes even if a note typed cannot be stored
                # (its text then goes to stderr); the close button would keep it open.
                getattr(window, "close_now", window.close)()

    notifier = QSocketNotifier(reader.fileno(), QSocketNotifier.Type.Read)
    notifier.activated.connect(woken)
    previous_fd = signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)
    # A Python handler, so that the C handler runs and writes to the socket; the
    # work is done in ``woken``, from the event loop, never in the middle of a slot.
    previous: dict[signal.Signals, Any] = {}
    for sig in ENDINGS:
        if sig == signal.SIGINT or signal.getsignal(sig) != signal.SIG_IGN:
            previous[sig] = signal.signal(sig, lambda _number, _frame: None)
    start = take_over()  # the signals held while the app started, now ours
    if start is not None:
        usual, came = start
        previous.update((sig, usual[sig]) for sig in previous if sig in usual)
        if came is not None:  # woken by it as by a signal coming now
            writer.send(bytes([came]))
    try:
        yield lambda: ended[0] if ended else None
    finally:
        for kept, handler in previous.items():
            signal.signal(kept, handler)
        signal.set_wakeup_fd(previous_fd)
        notifier.setEnabled(False)
        with contextlib.suppress(RuntimeError):
            notifier.activated.disconnect(woken)
        reader.close()
        writer.close()

"""Ctrl-C (SIGINT) to the running app closes its window the way its close button does.

Python runs a signal's handler only between bytecodes of the main thread. While Qt's
loop waits in C++ none run, so Python's default handler raised ``KeyboardInterrupt``
inside whichever Python slot ran next (the type-ahead's key filter at the next key):
Qt printed the traceback and the app went on (sixth hostile pass, GI). Here the
interpreter's C handler writes the signal's number to a socket Qt watches
(``signal.set_wakeup_fd``); that wakes the loop into a Python slot, which closes the
window through its ``closeEvent`` (settings written, the task queue drained). The app
then ends with 130, the exit code of an interrupt.
"""

from __future__ import annotations

import contextlib
import signal
import socket
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from PySide6.QtCore import QSocketNotifier
from PySide6.QtWidgets import QWidget

INTERRUPTED_LINE = "reviewer: interrupted; the window was closed as by its close button"


@contextmanager
def closing_on_interrupt(window: QWidget) -> Iterator[Callable[[], bool]]:
    """While inside, SIGINT closes ``window``; yields "was it interrupted?"."""
    reader, writer = socket.socketpair()
    reader.setblocking(False)
    writer.setblocking(False)  # a signal handler never waits on a full socket
    interrupted: list[bool] = []

    def woken() -> None:
        try:
            numbers = reader.recv(64)
        except OSError:  # woken for nothing: the bytes were read already
            return
        if signal.SIGINT in numbers and not interrupted:
            interrupted.append(True)
            print(INTERRUPTED_LINE, file=sys.stderr, flush=True)
            window.close()

    notifier = QSocketNotifier(reader.fileno(), QSocketNotifier.Type.Read)
    notifier.activated.connect(woken)
    previous_fd = signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)
    # A Python handler, so that the C handler runs and writes to the socket; the
    # work is done in ``woken``, from the event loop, never in the middle of a slot.
    previous = signal.signal(signal.SIGINT, lambda _number, _frame: None)
    try:
        yield lambda: bool(interrupted)
    finally:
        signal.signal(signal.SIGINT, previous)
        signal.set_wakeup_fd(previous_fd)
        notifier.setEnabled(False)
        with contextlib.suppress(RuntimeError):
            notifier.activated.disconnect(woken)
        reader.close()
        writer.close()

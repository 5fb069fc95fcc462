"""Temporary files not yet in place, removed when SIGTERM or SIGHUP ends the process.

A command ended by ``kill``, a closed terminal or a CI timeout died with its temporary
file beside the destination (``.rejects.jsonl.k3j9x0aa``: sg02 of the second hostile
pass). While such a file exists and was made on the main thread, those two signals first
remove every one of them, then do what they did before: the previous Python handler, or
the default action (the process ends, killed by that signal, as before).

Outside those moments no handler is installed, on purpose: Python runs a handler only
between two bytecodes, so a command waiting inside C (a SQLite lock held by another
process) would not end until the wait did, and these signals must end it at once. SIGKILL
cannot be caught: ``reviewer.atomic`` says what it may leave.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from pathlib import Path
from types import FrameType
from typing import Any

SIGNALS = (signal.SIGTERM, signal.SIGHUP)


class _Unfinished:
    """The registry: paths, and the handlers this module replaced while it holds any."""

    def __init__(self) -> None:
        self.paths: set[Path] = set()
        self.saved: dict[int, Any] = {}
        self.lock = threading.Lock()

    def add(self, path: Path) -> None:
        with self.lock:
            self.paths.add(path)
            if not self.saved and _on_main_thread():
                for sig in SIGNALS:
                    # An ignored signal stays ignored: under nohup a SIGHUP removed the
                    # temporary file and the command, which went on, then failed on it.
                    if signal.getsignal(sig) != signal.SIG_IGN:
                        self.saved[sig] = signal.signal(sig, self._ended)

    def discard(self, path: Path) -> None:
        with self.lock:
            self.paths.discard(path)
            if not self.paths and self.saved and _on_main_thread():
                self._restore()

    def _restore(self) -> None:
        for sig, previous in self.saved.items():
            signal.signal(sig, previous)
        self.saved.clear()

    def _ended(self, signum: int, frame: FrameType | None) -> None:
        for path in list(self.paths):
            with contextlib.suppress(OSError):
                path.unlink()
        self.paths.clear()
        previous = self.saved.get(signum, signal.SIG_DFL)
        self._restore()
        if callable(previous):
            previous(signum, frame)
        elif previous != signal.SIG_IGN:
            os.kill(os.getpid(), signum)  # the default action, now that it is back


def _on_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


_registry = _Unfinished()


def track(path: Path) -> None:
    """``path`` is a temporary file to remove if the process is terminated."""
    _registry.add(path)


def settled(path: Path) -> None:
    """``path`` was renamed into place or removed: nothing to do for it any more."""
    _registry.discard(path)


def remove_unfinished() -> None:
    """Remove every temporary file not yet in place: the process is about to end without
    its threads finishing (the GUI's quit that stopped waiting, ``ui/app.py``)."""
    with _registry.lock:
        for path in list(_registry.paths):
            with contextlib.suppress(OSError):
                path.unlink()
        _registry.paths.clear()

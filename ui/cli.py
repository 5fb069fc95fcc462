"""The ``reviewer`` console script: the domain CLI plus the ``gui`` command.

It lives in ``ui`` so that ``reviewer`` never imports Qt; ``ui.commands.gui`` imports
PySide6 only when the GUI actually starts, so the other commands stay light.

This module imports little at load time: a Ctrl-C while the CLI's modules load (a third
of a second) ended in Python's traceback and death by SIGINT. They are imported inside
:func:`main`, where an interrupt is the usual one line and exit 130. The console script
imports ``ui/entry.py`` first, whose handler says that line while this module loads.
"""

from __future__ import annotations

import sys

# typing.TYPE_CHECKING without importing typing, which runs for tens of milliseconds at
# the start: a Ctrl-C then was Python's traceback and death by SIGINT (eighth hostile
# pass). The names below are only annotations (mypy reads this name as typing's).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

# reviewer.errors.INTERRUPTED, repeated here: what failed to load cannot be asked.
INTERRUPTED = 130
INTERRUPTED_LINE = ("reviewer: interrupted; the step in progress was not saved (what was "
                    "saved before is kept)")


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``reviewer`` with the GUI command available.

    Called without ``argv`` it runs the process's own command line (the console script,
    ``python -m ui.cli``): once the command has finished, Ctrl-C is ignored, since the
    work is done and its exit code is the truth. Python's finalisation (seconds after
    an import, the heap being freed) puts the default SIGINT action back, and a Ctrl-C
    then killed the process (exit -2, nothing said) after it had imported everything.
    """
    try:
        if argv is None:
            _python_interrupts()
            sys.unraisablehook = _redeliver_interrupts(sys.unraisablehook)
        code = _run(argv)
    except KeyboardInterrupt:  # while loading, or after main reported its failure
        print(INTERRUPTED_LINE, file=sys.stderr, flush=True)
        code = INTERRUPTED
    if argv is None:
        import signal

        signal.signal(signal.SIGINT, signal.SIG_IGN)
    _forget_interrupted_eval()
    return code


def _python_interrupts() -> None:
    """Python's own Ctrl-C handler (KeyboardInterrupt) back in place of the console
    script's first one (``ui/entry.py``: the one line and exit 130 while the modules
    load), for the command: it catches the interrupt to roll back and say what was kept.
    A SIGINT ignored (a job started in the background) stays ignored."""
    import signal

    if signal.getsignal(signal.SIGINT) not in (signal.SIG_IGN, None):
        signal.signal(signal.SIGINT, signal.default_int_handler)


def _forget_interrupted_eval() -> None:
    """Clear Python's note of a Ctrl-C that escaped an ``eval``/``exec`` of a string.

    Python (3.11) notes such a ``KeyboardInterrupt`` as unhandled even once it was
    caught, and ``python -m ui.cli`` then ends by killing itself with SIGINT (exit -2)
    after our one line. SQLAlchemy's declarative mapping and ``dataclasses`` evaluate
    many strings while the CLI's modules load: 12 of 225 Ctrl-Cs sent to ``flag`` in
    its first two seconds ended so (eighth hostile pass). Any later ``exec`` of a
    string clears the note; the interrupt was handled here.
    """
    exec("")


def _redeliver_interrupts(hook: Callable[[Any], object]) -> Callable[[Any], object]:
    """An unraisable-exception hook that gives a lost Ctrl-C back to the command.

    A Ctrl-C that lands while Python runs a finaliser or a weakref callback (the
    database layer's caches) cannot propagate: Python printed "Exception ignored in …
    KeyboardInterrupt" with a traceback, and the interrupt was lost. Raised again as a
    signal, it reaches the command at the next bytecode, where it is the usual one line.
    """
    def handle(info: Any) -> object:
        if isinstance(info.exc_value, KeyboardInterrupt):
            import _thread
            import os
            import signal
            import time

            def again() -> None:
                time.sleep(0.01)  # once this hook has returned: raised in it, it is lost
                os.kill(os.getpid(), signal.SIGINT)

            _thread.start_new_thread(again, ())  # no waiting for it: a wait is interrupted
            return None
        if _pool_wakeup_at_exit(info):
            return None
        return hook(info)

    return handle


def _pool_wakeup_at_exit(info: Any) -> bool:
    """Python 3.11's own race at exit after a process pool was interrupted (flag's
    Ctrl-C): concurrent.futures' exit hook wakes the pool's manager through a pipe the
    interrupted pool has closed already, and Python printed the OSError's traceback under
    our one line. The pool's work was ended and said so; nothing is left to wake."""
    import errno
    import traceback

    exc = info.exc_value
    if not isinstance(exc, OSError) or exc.errno != errno.EBADF:
        return False
    frames = traceback.extract_tb(info.exc_traceback)
    return any(f.filename.endswith("concurrent/futures/process.py")
               and f.name == "_python_exit" for f in frames)


def _run(argv: Sequence[str] | None) -> int:
    from reviewer.cli.main import main as reviewer_main
    from ui.commands import gui

    return reviewer_main(argv, extra=[gui.register], extra_commands=frozenset({"gui"}))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

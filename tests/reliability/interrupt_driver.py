"""Run a ``reviewer`` command line as ``python -m ui.cli`` does, with a Ctrl-C that lands
at a chosen moment: ``python -m tests.reliability.interrupt_driver MOMENT ARG…``.

A Ctrl-C typed by hand lands wherever the command happens to be; the moments that went
wrong are a few instructions wide, and a test that sends the signal from outside hit
them once in a loaded full run. Here the signal is sent from inside, at the moment:
SIGINT to the whole process group, as a terminal sends it (the test starts the driver
in a session of its own), so the command, its workers and the driver all get it.

MOMENT:

- ``second-worker``: ``reviewer flag``'s second scoring process has just been started,
  before the process pool has started the thread that runs it;
- ``worker-start``: the first scoring process is starting, before its set-up has run;
- ``commit``: a unit of work has just been committed;
- ``loading``: the command's modules are loading, inside an ``eval`` of a string (as
  SQLAlchemy's declarative mapping and ``dataclasses`` run while they load).
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


def ctrl_c() -> None:
    os.killpg(os.getpgrp(), signal.SIGINT)


def at_second_worker() -> None:
    from multiprocessing.process import BaseProcess

    start = BaseProcess.start
    started = [0]

    def start_then_interrupt(self: BaseProcess) -> None:
        start(self)
        started[0] += 1
        if started[0] == 2:
            ctrl_c()

    BaseProcess.start = start_then_interrupt


def at_worker_start() -> None:
    from reviewer.contradiction import flagging

    forks = [0]
    os.register_at_fork(before=lambda: forks.__setitem__(0, forks[0] + 1))
    set_up = flagging._start_worker

    def interrupted_set_up(*args: Any) -> None:
        if forks[0] == 1:  # the first worker: one Ctrl-C, not one per worker
            ctrl_c()
        set_up(*args)

    flagging._start_worker = interrupted_set_up


def at_commit() -> None:
    from sqlalchemy import event
    from sqlalchemy.orm import Session

    commits = [0]

    @event.listens_for(Session, "after_commit")
    def interrupt(session: Session) -> None:
        commits[0] += 1
        if commits[0] == 1:
            ctrl_c()


def at_loading() -> None:
    import importlib

    import_module = importlib.import_module
    imports = [0]

    def interrupted_import(name: str, package: str | None = None) -> Any:
        imports[0] += 1
        if imports[0] == 1:
            # The signal is handled at the next check, inside the evaluated code (the
            # comprehension's frame), as when it lands in such an eval by itself.
            eval("__import__('os').killpg(__import__('os').getpgrp(), 2) or "
                 "[_ for _ in range(1000)]")
        return import_module(name, package)

    importlib.import_module = interrupted_import


MOMENTS = {"second-worker": at_second_worker, "worker-start": at_worker_start,
           "commit": at_commit, "loading": at_loading}


if __name__ == "__main__":
    MOMENTS[sys.argv[1]]()
    sys.argv = ["reviewer", *sys.argv[2:]]
    from ui.cli import main

    sys.exit(main())

"""``reviewer gui [--screenshot PNG] [--attempt KEY] [--reviewer NAME]``: open the review
window (deciding as NAME, else as the name in Settings)."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from reviewer.collector import collector_paused


def register(sub: Any) -> None:
    """Add the ``gui`` command."""
    p = sub.add_parser("gui", help="open the review app (loads the demo run on first start)")
    p.add_argument("--screenshot", type=Path, metavar="PNG", help="render the window, save, exit")
    p.add_argument("--attempt", metavar="RUN/CONVERSATION/TURN/ATTEMPT", help="attempt to select")
    p.add_argument("--lang", choices=["en", "fr"], help="interface language (default: system)")
    # SUPPRESS: never overwrite a global --reviewer given before the command name.
    p.add_argument("--reviewer", default=argparse.SUPPRESS, metavar="NAME",
                   help="decide as NAME in this session (default: the name in Settings); "
                        "shown in the title bar")
    p.set_defaults(func=run)


@contextmanager
def starting() -> Iterator[None]:
    """No cyclic garbage collection while the app starts (its previous state restored).

    Importing SQLAlchemy, the models, PySide6 and the window allocates some 120,000
    long-lived objects and leaves a few hundred garbage ones, and the collector walked the
    growing heap about 170 times on the way. ``run_app`` freezes what start-up built and
    enables the collector again once the window is shown.
    """
    with collector_paused():
        yield


def run(args: argparse.Namespace) -> int:
    """Start Qt and the main window (imported here: Qt is heavy and only the GUI needs it).

    With no display Qt would abort the process (exit 134, its own advice): one
    ``reviewer:`` line and exit 1 instead (fourth hostile pass, GUI0). Ctrl-C, SIGTERM and
    SIGHUP are held from here until the window handles them (``ui/held_signals.py``): a
    KeyboardInterrupt in the middle of PySide6's imports broke them (ninth pass, T8)."""
    from ui.held_signals import held  # here: every other command imports this module

    with held():
        from reviewer.errors import ReviewerError
        from ui.display import display_problem

        problem = display_problem()
        if problem is not None:
            raise ReviewerError(problem)
        with starting():
            from ui.app import run_app

            return run_app(args)

"""``reviewer gui [--screenshot PNG] [--attempt KEY] [--reviewer NAME]``: open the review
window (deciding as NAME, else as the name in Settings)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


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


def run(args: argparse.Namespace) -> int:
    """Start Qt and the main window (imported here: Qt is heavy and only the GUI needs it)."""
    from ui.app import run_app

    return run_app(args)

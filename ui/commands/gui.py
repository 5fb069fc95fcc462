"""``reviewer gui [--screenshot PNG] [--attempt KEY]``: open the review window."""

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
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Start Qt and the main window (imported here: Qt is heavy and only the GUI needs it)."""
    from ui.app import run_app

    return run_app(args)

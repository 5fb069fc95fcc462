"""``reviewer demo``: import the bundled demo run into the database."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from reviewer.atomic import made_folder_text
from reviewer.cli.common import new_store_folder, store_from
from reviewer.ingest.demo import load_demo


def register(sub: Any) -> None:
    """Add the ``demo`` command."""
    p = sub.add_parser("demo", help="import the bundled demo run (Journal des Nuisances)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Import the demo and say what was added."""
    folder = new_store_folder(args)
    store = store_from(args)
    try:
        report = load_demo(store)
    finally:
        store.close()
    print(report.summary() + made_folder_text(folder))
    if report.unchecked:
        print(f"reviewer: note: {report.unchecked}", file=sys.stderr)
    return 0

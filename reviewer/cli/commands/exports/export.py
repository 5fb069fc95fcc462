"""``reviewer export KIND OUT``: dataset, catalog, golden, resume or decisions.

``dataset`` takes ``--per turn|conversation`` and ``--format chat|sharegpt`` and writes
``OUT.manifest.json`` beside OUT. Every file is written to a temporary file and renamed.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from reviewer.cli.common import store_from
from reviewer.exports import KINDS
from reviewer.exports.dataset import FORMATS, PER
from reviewer.exports.run import run_export


def register(sub: Any) -> None:
    """Add the ``export`` command."""
    p = sub.add_parser("export", help="write the corrected dataset, catalog, golden set, …")
    p.add_argument("kind", choices=KINDS, metavar="KIND", help=" | ".join(KINDS))
    p.add_argument("out", type=Path, metavar="OUT")
    p.add_argument("--per", choices=PER, default="turn", help="dataset: one example per …")
    p.add_argument("--format", choices=FORMATS, default="chat", dest="fmt",
                   help="dataset: chat messages (default) or ShareGPT")
    p.add_argument("--run", action="append", default=None, metavar="NAME",
                   help="dataset: only this run (repeatable)")
    p.add_argument("--reviewer", dest="filter_reviewer", default=None, metavar="NAME",
                   help="use only this reviewer's decisions (default: latest of any)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Write the export and say what was written."""
    store = store_from(args)
    try:
        with store.session() as session:
            line = run_export(session, args.kind, args.out, per=args.per, fmt=args.fmt,
                              reviewer=args.filter_reviewer, runs=args.run)
    finally:
        store.close()
    print(line)
    return 0

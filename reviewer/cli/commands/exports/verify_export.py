"""``reviewer verify-export OUT``: do the files of an export match its manifest?

OUT is the exported file, the folder of a split export, or the manifest itself. Exit 0
with one line when every file the manifest lists has its size and SHA-256; exit 1 with
one line naming the file that differs (an export interrupted between two renames, or a
file changed since).
"""

from __future__ import annotations

import argparse
from typing import Any

from reviewer.cli.arguments import export_path
from reviewer.exports.manifest import verify


def register(sub: Any) -> None:
    """Add the ``verify-export`` command."""
    p = sub.add_parser("verify-export", help="check an export's files against its manifest")
    p.add_argument("out", type=export_path, metavar="OUT")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Check and say so in one line."""
    checked = verify(args.out)
    names = ", ".join(str(f["name"]) for f in checked.document["files"])
    print(f"{checked.manifest}: matches {names} ({checked.lines} lines)")
    return 0

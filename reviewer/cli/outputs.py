"""The output guard as the commands use it: the open database and the command's inputs.

Every command that writes a file checks its output here before it opens the store or
reads anything (``reviewer.outputs``): a refused path is one line, exit 2, nothing touched.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from reviewer.outputs import Output, check_folder, check_output
from reviewer.store.database import default_url, sqlite_path, to_url


def database_file(args: argparse.Namespace) -> Path | None:
    """The SQLite file the command will open (None for PostgreSQL)."""
    db = getattr(args, "db", None)
    return sqlite_path(to_url(db) if db else default_url())


def checked_output(args: argparse.Namespace, path: Path | str, *,
                   inputs: Sequence[Path] = (), folder: bool = False) -> Output:
    """``path`` checked against the command's database and ``inputs`` (see
    ``reviewer.outputs``); ``folder`` for an export that writes a folder of files."""
    check = check_folder if folder else check_output
    return check(path, database=database_file(args), inputs=inputs)

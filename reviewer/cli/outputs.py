"""The output guard as the commands use it: the open database and the command's inputs.

Every command that writes a file checks its output here before it opens the store or
reads anything (``reviewer.outputs``): a refused path is one line, exit 2, nothing touched.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from reviewer.errors import BadInputError
from reviewer.outputs import Output, check_folder, check_output
from reviewer.store.database import database_url, file_identity, sqlite_path


def database_file(args: argparse.Namespace) -> Path | None:
    """The SQLite file the command will open (None for PostgreSQL)."""
    return sqlite_path(database_url(getattr(args, "db", None)))


def checked_output(args: argparse.Namespace, path: Path | str, *,
                   inputs: Sequence[Path] = (), folder: bool = False) -> Output:
    """``path`` checked against the command's database and ``inputs`` (see
    ``reviewer.outputs``); ``folder`` for an export that writes a folder of files."""
    check = check_folder if folder else check_output
    return check(path, database=database_file(args), inputs=inputs)


def refuse_the_store(args: argparse.Namespace, *inputs: tuple[Path | None, str]) -> None:
    """BadInputError when an input file (``(path, what it should be)``) is the store the
    command opens: ``import c.db`` on the open ``c.db`` said "c.db:1: not valid UTF-8"
    (eleventh hostile pass, V8). Compared by identity, so a link to it is named too."""
    database = database_file(args)
    store = file_identity(database) if database is not None else None
    for path, what in inputs:
        if store is not None and path is not None and file_identity(path) == store:
            raise BadInputError(f"{path}: is the open database (--db), not {what}; "
                                "nothing was read")


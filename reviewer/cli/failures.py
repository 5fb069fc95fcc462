"""Any exception a command lets out, as one line that names its cause in the reviewer's
words, with the exit code of its kind (the table: ``reviewer.errors``).

Known failures are ``ReviewerError`` already. The others are translated here: database
errors by the store (``reviewer.store.faults.explain_db_error``: read-only, disk full,
busy, damaged, PostgreSQL faults), file system errors by errno, Ctrl-C, text that is not
UTF-8; whatever is left is an internal error, one line, the traceback only with --debug.
"""

from __future__ import annotations

import os
import sys

from reviewer.errors import (
    CWD_GONE,
    BadInputError,
    InternalError,
    InterruptedByUser,
    ReviewerError,
    StoreError,
    os_failure,
)

MAX_MESSAGE = 300


def explain(exc: BaseException, db: str | None) -> ReviewerError:
    """The one-line error to show for ``exc``; ``db`` is the ``--db`` option (or None)."""
    if type(exc) is ReviewerError and isinstance(exc.__cause__, OSError):
        # A generic failure raised from a file system error (an export's "cannot write
        # OUT: …") has that error's kind: a full disk exits 4 whoever reports it.
        exc.exit_code = os_failure(exc.__cause__).exit_code
        return exc
    if isinstance(exc, ReviewerError):
        return exc
    if isinstance(exc, KeyboardInterrupt):
        return InterruptedByUser("interrupted; the step in progress was not saved (what was "
                                 "saved before is kept)")
    if _is_database_error(exc):
        from reviewer.store.database import database_url
        from reviewer.store.faults import explain_db_error

        try:
            url = database_url(db)
        except ReviewerError:  # cannot happen once open_store accepted it; never mask exc
            url = "sqlite://"
        return explain_db_error(exc, url) or StoreError(f"database error: {first_line(exc)}")
    if isinstance(exc, UnicodeDecodeError):
        return BadInputError(f"an input is not UTF-8 text (byte 0x{exc.object[exc.start]:02X} "
                             f"at offset {exc.start}); save it as UTF-8")
    if isinstance(exc, FileNotFoundError) and exc.filename is None and _no_current_folder():
        # os.getcwd() (under abspath, realpath, Path.resolve of a relative path) in a
        # folder that was deleted: "cannot use a file: no such file or folder" named no
        # file and no cause (sixth hostile pass, U4).
        return BadInputError(CWD_GONE)
    if isinstance(exc, OSError):
        return os_failure(exc)
    if isinstance(exc, MemoryError):
        return ReviewerError("out of memory")
    return InternalError(f"internal error ({type(exc).__name__}: {first_line(exc)}); "
                         "rerun with --debug and report the traceback")


def _no_current_folder() -> bool:
    """Whether the current folder no longer exists (deleted, or moved out of reach)."""
    try:
        os.getcwd()
    except FileNotFoundError:
        return True
    except OSError:
        return False
    return False


def _is_database_error(exc: BaseException) -> bool:
    """A DB-API error from SQLAlchemy, sqlite3 or psycopg (imported only if loaded)."""
    kinds: list[type[BaseException]] = []
    if "sqlalchemy" in sys.modules:
        from sqlalchemy.exc import DBAPIError

        kinds.append(DBAPIError)
    if "sqlite3" in sys.modules:
        import sqlite3

        kinds.append(sqlite3.Error)
    psycopg = sys.modules.get("psycopg")
    if psycopg is not None:
        kinds.append(psycopg.Error)
    return isinstance(exc, tuple(kinds))


def first_line(exc: BaseException) -> str:
    """The first line of an exception's message (of the driver's error, when wrapped),
    at most ``MAX_MESSAGE`` characters."""
    orig = getattr(exc, "orig", None) or exc
    text = str(orig).strip()
    line = text.splitlines()[0] if text else type(orig).__name__
    return line if len(line) <= MAX_MESSAGE else line[:MAX_MESSAGE] + "…"


def one_line(message: str) -> str:
    """A message on one line whatever it quotes (a path or key with a newline in it)."""
    return " ⏎ ".join(part for part in message.splitlines() if part) if message else message

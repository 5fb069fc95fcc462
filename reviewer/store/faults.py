"""A database error as one line naming its cause: ``explain_db_error(exc, url)``.

SQLite reports a full disk, a read-only folder and a file size limit alike as "disk I/O
error" or "attempt to write a readonly database", and the driver's message carries the
SQL and its parameters (a reviewer's note, say). So for SQLite the place the database
lives is examined when a write failed: a read-only file system, a file or a folder the
process may not write (SQLite creates ``-wal`` and ``-shm`` beside the database), free
space, the process's file size limit. PostgreSQL errors are read from their SQLSTATE.

Each message ends saying what happened to the change in progress: the unit of work was
rolled back (``Store.session``), so it was not saved; what earlier units saved is kept.
A failure while the store is being opened says "nothing was changed" instead: no command
has changed anything yet, and one that only reads (an export, a queue listing) never
had a change in progress (fourth hostile pass, F1).
"""

from __future__ import annotations

import errno
import os
import re
import resource
import sqlite3
import sys
from pathlib import Path

from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import DBAPIError
from sqlalchemy.pool import NullPool

from reviewer.errors import (
    BadInputError,
    DiskFullError,
    InterruptedByUser,
    ReadOnlyError,
    ReviewerError,
    StoreError,
)

NOT_SAVED = "the change in progress was not saved"
OPENING = "nothing was changed"  # what ``done`` says for a failure while opening
# The size SQLite's shared-memory file (``NAME-shm``) takes as soon as a WAL database is
# read: a file size limit below it stops every command, even one that only reads.
SHM_SIZE = 32 * 1024
# Below this much free space a failed write is taken for a full disk: SQLite needs room
# for at least a few pages of WAL, and file systems keep blocks back for root.
LOW_SPACE = 1 << 20
# SQLite primary result codes (the low byte of the extended code).
SQLITE_PERM, SQLITE_BUSY, SQLITE_LOCKED, SQLITE_NOMEM, SQLITE_READONLY = 3, 5, 6, 7, 8
SQLITE_INTERRUPT, SQLITE_IOERR, SQLITE_CORRUPT, SQLITE_FULL, SQLITE_CANTOPEN = 9, 10, 11, 13, 14
SQLITE_TOOBIG, SQLITE_NOTADB = 18, 26
# SQLite's extended codes of a unique index refusing a row, and PostgreSQL's SQLSTATE.
SQLITE_CONSTRAINT_UNIQUE, SQLITE_CONSTRAINT_PRIMARYKEY = 2067, 1555
PG_UNIQUE_VIOLATION = "23505"
# PostgreSQL SQLSTATEs (https://www.postgresql.org/docs/current/errcodes-appendix.html).
PG_READ_ONLY = {"25006": "the transaction is read-only (a standby server, or "
                         "default_transaction_read_only is on)",
                "42501": "permission denied for this user"}
PG_FULL = {"53100": "the server's disk is full"}
PG_QUERY_CANCELED = "57014"  # a statement timeout, or a cancel request
PG_RETRY = {"40001": "another transaction changed the same rows",
            "40P01": "a deadlock with another transaction",
            "55P03": "another session is writing the same rows",
            "57014": "the statement was cancelled (statement timeout?)"}


def shown_url(url: str) -> str:
    """The URL without its password (a SQLite URL as its file path)."""
    path = sqlite_file(url)
    if path is not None:
        return str(path)
    return hidden(url)


# libpq also takes the password as a query parameter, which SQLAlchemy's hide_password
# leaves in clear: `…/db?password=S3CRET: cannot open …` (sixteenth hostile pass, P16-7).
_QUERY_PASSWORD = re.compile(r"(?i)([?&]password=)[^&]*")


def masked(text: str) -> str:
    """``text`` (a URL as typed or rendered) with a ``password=`` parameter's value shown
    as ``***``."""
    return _QUERY_PASSWORD.sub(r"\1***", text)


def hidden(url: str | URL) -> str:
    """A database URL as messages show it: no password, in the user part or the query."""
    return masked(make_url(url).render_as_string(hide_password=True))


def sqlite_file(url: str) -> Path | None:
    """The file behind a SQLite URL (None for other backends and in-memory databases)."""
    try:
        parsed = make_url(url)
    except Exception:  # an unparsable --db: the caller reports that itself
        return None
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return Path(parsed.database)


def explain_db_error(exc: BaseException, url: str, done: str = NOT_SAVED, *,
                     engine: Engine | None = None) -> ReviewerError | None:
    """A one-line ``ReviewerError`` for a DB-API error (wrapped by SQLAlchemy or not), or
    None when it is not a fault of the database's surroundings (a bug, then). ``done``
    ends the message of a SQLite write failure: what happened to the work (``OPENING``
    while the store is opened). ``engine``, when the caller has it, is asked the
    PostgreSQL setting an error names (``statement_timeout``)."""
    orig = exc.orig if isinstance(exc, DBAPIError) else exc
    if isinstance(orig, sqlite3.Error):
        return _sqlite(orig, url, done)
    silent = _server_silent(orig, done)
    if silent is not None:
        return silent
    if orig is not None and type(orig).__module__.split(".")[0] == "psycopg":
        return statement_timeout(orig, url, done, engine) or _postgres(orig, url)
    return None


def _server_silent(orig: BaseException | None, done: str) -> StoreError | None:
    """A server that stopped answering (fifteenth hostile pass, P15-5:
    ``reviewer.store.stalls``), said with what became of the work (``done``). Looked up
    in ``sys.modules``: a SQLite command never loads psycopg."""
    stalls = sys.modules.get("reviewer.store.stalls")
    if stalls is None or not isinstance(orig, stalls.ServerSilent):
        return None
    return StoreError(orig.line(done))


def statement_timeout(orig: BaseException, url: str, done: str,
                      engine: Engine | None = None) -> StoreError | None:
    """The refusal of a statement the server cancelled at its ``statement_timeout``
    (a role's, a database's or the server's setting), or None for another error.

    Ninth hostile pass, P3: ``ALTER ROLE bob SET statement_timeout = '1ms'`` read "cannot
    open the database (canceling statement due to statement timeout)", and later "the
    database is busy …, try again", which no retry helps. Where the setting comes from and
    its value are read from the catalog when the caller has the engine
    (``timeout_setting``), with the statement that undoes it.
    """
    if getattr(orig, "sqlstate", None) != PG_QUERY_CANCELED or \
            "statement timeout" not in str(orig):
        return None
    found = timeout_setting(engine) if engine is not None else None
    parsed = make_url(url)
    role, database = parsed.username or "ROLE", parsed.database or "DATABASE"
    if found is None:
        return StoreError(f"{shown_url(url)}: a statement was cancelled by the server's "
                          f"statement_timeout; {done}; raise it for this role or database "
                          f"(ALTER ROLE {role} SET statement_timeout = '5min', or 0 for none)")
    value, (whose, undo) = found[0], {
        "role in database": (f"role {role} in database {database}",
                             f"ALTER ROLE {role} IN DATABASE {database}"),
        "role": (f"role {role}", f"ALTER ROLE {role}"),
        "database": (f"database {database}", f"ALTER DATABASE {database}"),
        "every role": ("every role", "ALTER ROLE ALL"),
    }[found[1]]
    return StoreError(f"{shown_url(url)}: a statement was cancelled by the server's "
                      f"statement_timeout ({value}, set for {whose}); {done}; raise it or "
                      f"reset it ({undo} RESET statement_timeout)")


# Settings of ALTER ROLE … SET and ALTER DATABASE … SET that apply to this session, the
# strongest first (PostgreSQL: role in database, role, database, every role).
_ROLE_SETTINGS = """
SELECT s.setconfig, s.setrole <> 0, s.setdatabase <> 0 FROM pg_db_role_setting s
WHERE s.setrole IN (0, (SELECT oid FROM pg_roles WHERE rolname = current_user))
  AND s.setdatabase IN (0, (SELECT oid FROM pg_database WHERE datname = current_database()))
"""


def timeout_setting(engine: Engine) -> tuple[str, str] | None:
    """The ``statement_timeout`` set for this role or database, as written, and for whom
    (``role in database``, ``role``, ``database``, ``every role``); None when it is the
    server's own (postgresql.conf) or cannot be read.

    Read on a connection of its own where no timeout applies (the startup packet's
    ``-c statement_timeout=0`` outranks the role's setting): on a loaded machine even a
    ``SHOW`` on one of the store's connections outlasted a 1 ms timeout.
    """
    rank = {(True, True): "role in database", (True, False): "role",
            (False, True): "database", (False, False): "every role"}
    order = list(rank.values())
    reader = create_engine(engine.url, poolclass=NullPool, connect_args={
        "options": "-c statement_timeout=0 -c lock_timeout=5000", "connect_timeout": 5,
        "client_encoding": "UTF8"})
    try:
        with reader.connect() as conn:
            rows = conn.execute(text(_ROLE_SETTINGS)).all()
    except Exception:  # the server is gone, a catalog we may not read: no value
        return None
    finally:
        reader.dispose()
    found = []
    for config, for_role, for_database in rows:
        for item in config or ():
            name, _, value = str(item).partition("=")
            if name == "statement_timeout":
                found.append((order.index(rank[bool(for_role), bool(for_database)]), value,
                              rank[bool(for_role), bool(for_database)]))
    if not found:
        return None
    _, value, whose = min(found)
    return value, whose


def unique_violation(exc: BaseException) -> bool:
    """Whether ``exc`` is a unique index (or primary key) refusing a row, on either
    backend: what a writer meets when another process committed the same row after this
    one looked for it (two imports of one new run, P45)."""
    orig = exc.orig if isinstance(exc, DBAPIError) else exc
    if isinstance(orig, sqlite3.IntegrityError):
        return getattr(orig, "sqlite_errorcode", None) in (SQLITE_CONSTRAINT_UNIQUE,
                                                           SQLITE_CONSTRAINT_PRIMARYKEY)
    return (orig is not None and type(orig).__module__.split(".")[0] == "psycopg"
            and getattr(orig, "sqlstate", None) == PG_UNIQUE_VIOLATION)


def _sqlite(orig: sqlite3.Error, url: str, done: str) -> ReviewerError | None:
    code = getattr(orig, "sqlite_errorcode", None)
    name = getattr(orig, "sqlite_errorname", None) or type(orig).__name__
    primary = code & 0xFF if isinstance(code, int) else None
    where = shown_url(url)
    path = sqlite_file(url)
    if primary in (SQLITE_BUSY, SQLITE_LOCKED) or (primary is None and (
            "locked" in str(orig) or "busy" in str(orig))):
        # One unit of work was refused whole, so "nothing was changed" is exact here.
        return StoreError(f"{where}: the database is busy (another process is writing to "
                          "it); nothing was changed, try again")
    if primary == SQLITE_CANTOPEN and (limit := descriptors_exhausted()) is not None:
        return ReviewerError(f"{where}: cannot open the database: too many open files (this "
                             f"process may have only {limit} open, ulimit -n); raise the "
                             "limit (ulimit -n 1024) and try again")
    if primary in (SQLITE_READONLY, SQLITE_PERM, SQLITE_FULL, SQLITE_IOERR, SQLITE_CANTOPEN):
        found = surroundings(path, done) if path is not None else None
        if found is not None:
            return found
        if primary in (SQLITE_READONLY, SQLITE_PERM):
            return ReadOnlyError(f"{where}: the database is read-only ({name}); {done}")
        if primary == SQLITE_FULL:
            return DiskFullError(f"{where}: the disk holding the database is full; {done}")
        if primary == SQLITE_CANTOPEN:
            return StoreError(f"{where}: cannot open the database file ({name}: a missing "
                              "folder, or no permission)")
        return StoreError(f"{where}: disk I/O error ({name}): the disk or file system failed "
                          f"while reading or writing the database; {done}")
    if primary in (SQLITE_CORRUPT, SQLITE_NOTADB):
        return StoreError(f"{where}: the database file is damaged ({name}); restore a backup "
                          "(the .bak- copies beside it) or the last export")
    if primary == SQLITE_TOOBIG:
        return BadInputError(f"{where}: a value is too big to store ({name}); {done}")
    if primary == SQLITE_NOMEM:
        return ReviewerError(f"{where}: out of memory; {done}")
    if primary == SQLITE_INTERRUPT:
        return InterruptedByUser(f"interrupted; {done}")
    return None


SQLITE_FILES = 4
"""The descriptors SQLite may need at once for one store: the file, its -wal, its -shm and
a journal or temporary file."""


def descriptors_exhausted() -> int | None:
    """The process's open-file limit (``ulimit -n``) when fewer than SQLITE_FILES more
    files can be opened, else None.

    Fourth hostile pass, N3: under ``ulimit -n 5`` SQLite says only "unable to open
    database file", which sent the reviewer to look at the database; the cause was the
    descriptor limit. Probed by opening /dev/null, which needs no permission.
    """
    opened: list[int] = []
    try:
        for _ in range(SQLITE_FILES):
            opened.append(os.open(os.devnull, os.O_RDONLY))
    except OSError as exc:
        if exc.errno == errno.EMFILE:
            return resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    finally:
        for fd in opened:
            os.close(fd)
    return None


def surroundings(path: Path, done: str = NOT_SAVED) -> ReviewerError | None:
    """What about the place the SQLite file lives prevents writing it, if anything;
    ``done`` ends the message (see :func:`explain_db_error`)."""
    folder = path.parent
    try:
        fs = os.statvfs(folder)
    except OSError:
        return StoreError(f"{path}: its folder {folder} cannot be reached")
    if fs.f_flag & os.ST_RDONLY:
        return ReadOnlyError(f"{path}: the file system holding the database is mounted "
                             f"read-only; {done}")
    if path.exists() and not os.access(path, os.W_OK):
        return ReadOnlyError(f"{path}: the database file is read-only (no write permission); "
                             f"{done}")
    if not os.access(folder, os.W_OK | os.X_OK):
        return ReadOnlyError(f"{path}: the folder {folder} is read-only, and SQLite must "
                             f"create {path.name}-wal and {path.name}-shm in it; {done}")
    free = fs.f_bavail * fs.f_frsize
    if free < LOW_SPACE:
        return DiskFullError(f"{path}: the disk is full ({free // 1024} KiB free on the file "
                             f"system holding the database); {done}")
    limit = resource.getrlimit(resource.RLIMIT_FSIZE)[0]
    if limit != resource.RLIM_INFINITY and limit < SHM_SIZE:
        # The file that reached the limit is NAME-shm, which even a read needs: "the
        # database reached the limit" sent the user to a 1 MB file that had not grown.
        return DiskFullError(f"{path}: this process's file size limit ({limit // 1024} KiB, "
                             f"ulimit -f) is below the {SHM_SIZE // 1024} KiB SQLite needs "
                             f"for the database's shared-memory file {path.name}-shm; "
                             f"{done}")
    if limit != resource.RLIM_INFINITY and _largest(path) + LOW_SPACE > limit:
        return DiskFullError(f"{path}: the database reached this process's file size limit "
                             f"({limit // 1024} KiB, ulimit -f); {done}")
    return None


def _largest(path: Path) -> int:
    sizes = []
    for suffix in ("", "-wal", "-journal"):
        try:
            sizes.append(Path(f"{path}{suffix}").stat().st_size)
        except OSError:
            continue
    return max(sizes, default=0)


def _postgres(orig: BaseException, url: str) -> ReviewerError | None:
    where = shown_url(url)
    state = getattr(orig, "sqlstate", None) or ""
    message = str(orig).strip().splitlines()[0] if str(orig).strip() else type(orig).__name__
    if "NUL (0x00)" in message:  # psycopg refuses it before sending anything
        return BadInputError(f"a text contains a NUL character (U+0000), which PostgreSQL "
                             f"cannot store; {NOT_SAVED}")
    if state in PG_READ_ONLY:
        return ReadOnlyError(f"{where}: the database cannot be written: {PG_READ_ONLY[state]}; "
                             f"{NOT_SAVED}")
    if state in PG_FULL:
        return DiskFullError(f"{where}: {PG_FULL[state]}; {NOT_SAVED}")
    if state in PG_RETRY:
        return StoreError(f"{where}: the database is busy ({PG_RETRY[state]}); {NOT_SAVED}, "
                          "try again")
    if state.startswith("08") or state.startswith("57P") or (
            not state and type(orig).__name__ == "OperationalError"):
        return StoreError(f"{where}: cannot reach the PostgreSQL server ({message})")
    if state.startswith("22"):  # data exceptions: a value the column cannot hold
        return BadInputError(f"{where}: a value cannot be stored ({message}); {NOT_SAVED}")
    if state == "54000":
        return BadInputError(f"{where}: the request is too large for PostgreSQL ({message})")
    return None

"""Reading a SQLite store from a place SQLite cannot write (fifth hostile pass, P26).

A store in WAL mode is read through its shared-memory index, ``NAME-shm``, which SQLite
creates beside the database when a connection opens. On a read-only file system, or in
a folder the user may not write, it cannot: even ``queue``, ``stats`` or an export were
refused (exit 3), and a reviewer reading an archived or snapshot store could not.

:func:`read_only_query` says how such a store can still be read, exactly:

* nothing waits in a write-ahead log (no ``NAME-wal``, or an empty one, which is how a
  store is left once every connection closed): the database file is the whole store.
  Where nobody can write it either — a read-only file system, a folder without any
  write permission — it is opened ``immutable``: SQLite then needs no ``-shm``, takes no
  lock and reads the file as it is;
* a write-ahead log holds changes (a copy of a live store) and its ``-shm`` is there:
  opened ``mode=ro``, SQLite reads the log through that index without writing anything;
* otherwise (a log without its index, or a folder others may write while this user may
  not) it cannot be read safely: an ``immutable`` open would not see the changes in the
  log, or would read pages another process is writing. One line says so and what to do:
  copy it somewhere writable first.

Commands that write then fail at their first write, saying the place is read-only
(``reviewer.store.faults``); nothing is changed.
"""

from __future__ import annotations

import os
import sqlite3
import stat
from collections.abc import Callable
from pathlib import Path

from reviewer.errors import ReadOnlyError

IMMUTABLE = "mode=ro&immutable=1"
READ_ONLY = "mode=ro"


def read_only_query(path: Path) -> str | None:
    """The query of a read-only SQLite URI to read the existing store ``path`` with, or
    None when SQLite can make its files beside it (the usual open). ReadOnlyError when it
    cannot be read there at all (see the module docstring)."""
    folder = path.parent
    try:
        read_only_fs = bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        return None  # the usual open says what is wrong with the folder
    if not read_only_fs and os.access(folder, os.W_OK | os.X_OK):
        return None
    wal, shm = Path(f"{path}-wal"), Path(f"{path}-shm")
    if not read_only_fs and all(os.access(p, os.W_OK) for p in (wal, shm)):
        return None  # SQLite has its files already: it can read and write as usual
    try:
        logged = wal.stat().st_size > 0
    except FileNotFoundError:
        logged = False
    except OSError:
        logged = True  # cannot tell: as if it held changes
    where = ("the file system holding it is mounted read-only" if read_only_fs
             else f"the folder {folder} is read-only")
    if logged:
        if shm.exists():
            return READ_ONLY
        raise ReadOnlyError(
            f"{path}: cannot be read here: {where}, and its write-ahead log {wal.name} "
            f"holds changes SQLite reads only through {shm.name}, which it cannot create; "
            "nothing was changed. Copy the database with its -wal file to a writable "
            "folder and open the copy")
    if read_only_fs or not _anyone_may_write(folder):
        return IMMUTABLE
    raise ReadOnlyError(
        f"{path}: cannot be read here: {where} for you but not for others, who may be "
        f"writing the database, and SQLite must create {shm.name} beside it to read it "
        "safely; nothing was changed. Copy it to a writable folder and open the copy")


def _anyone_may_write(folder: Path) -> bool:
    try:
        mode = os.stat(folder).st_mode
    except OSError:
        return True
    return bool(mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))


def uri(path: Path, query: str) -> str:
    """The SQLite URI of ``path`` with ``query`` (the path percent-encoded: ``?``, ``#``
    and ``%`` stay part of the file name)."""
    return f"{path.absolute().as_uri()}?{query}"


def connector(path: Path, query: str) -> Callable[[], sqlite3.Connection]:
    """What the engine calls for a connection: ``path`` opened with ``query``. Not tied to
    a thread, as SQLAlchemy's own SQLite connections (the app reads on a worker)."""
    target = uri(path, query)

    def connect() -> sqlite3.Connection:
        return sqlite3.connect(target, uri=True, check_same_thread=False)

    return connect

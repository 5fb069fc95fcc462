"""A new SQLite store appears whole, or not at all.

Sixth hostile pass, U2: a process killed (SIGKILL, a logout, a power cut) while ``demo``,
``import`` or the app's first start made the store left tables without a schema version
(Python's sqlite3 runs DDL outside the transaction), and every command then refused the
file for good. So a new store is built under a temporary name in its folder
(``.NAME.creating-xxxxxxxx``: the schema migrated to head and stamped, the write-ahead
log checkpointed away), then given its name by a hard link, which never replaces a file
that appeared meanwhile: a store another process made first is kept, and this one is
dropped. The temporary name is then removed.

SIGTERM and SIGHUP remove the temporary files (``reviewer.unfinished``). A process killed
outright leaves one, beside no store or beside a whole one (killed between the link and
the removal: the store then has two names, which ``_refuse_odd_file`` would refuse). The
next opening of that store clears them: a temporary file that is the store itself is
only a second name; another is removed once nobody holds its lock (``flock``, taken by
its builder for as long as it exists), so a creation still under way is left alone.
A file system without hard links gets a rename, after checking that nothing is there.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import secrets
import stat
from collections.abc import Callable
from pathlib import Path

from reviewer.errors import StoreError, os_failure
from reviewer.unfinished import settled, track

# The files SQLite keeps beside a database, by suffix.
SIDE_FILES = ("-wal", "-shm", "-journal")
TAG = ".creating-"
# Bytes of the store's name kept in the temporary one (a 255-byte name still fits).
NAME_BYTES = 150
# The errors of a file system that has no hard links.
NO_LINKS = {errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.ENOSYS, errno.EMLINK}
# Temporary files this process is building (another thread's are not cleared).
_building: set[Path] = set()


def prefix(path: Path) -> str:
    """The start of the temporary names of ``path``'s creation."""
    name = path.name
    while len(os.fsencode(name)) > NAME_BYTES:
        name = name[:-1]
    return f".{name}{TAG}"


def create_whole(path: Path, build: Callable[[Path], None]) -> bool:
    """Make the store ``path`` with ``build(temporary path)``, then put it in place.

    ``build`` migrates a new SQLite file to head (and may fill it) and closes every
    connection to it; on failure it removes what it made. If a store appeared at
    ``path`` meanwhile, it is kept and the one built here is dropped: False.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    clear_unfinished(path)
    temp, fd = _locked_temporary(path)
    names = [temp, *(Path(f"{temp}{suffix}") for suffix in SIDE_FILES)]
    for name in names:
        track(name)
    _building.add(temp)
    try:
        build(temp)
        wal = Path(f"{temp}-wal")
        if wal.exists() and wal.stat().st_size > 0:  # a connection was left open
            raise StoreError(f"{path}: the new database was not closed cleanly; nothing "
                             "was made, try again")
        return _put_in_place(temp, path)
    finally:
        for name in names:
            with contextlib.suppress(OSError):
                name.unlink()
            settled(name)
        _building.discard(temp)
        os.close(fd)  # the lock goes with it, once the temporary name is gone


def _locked_temporary(path: Path) -> tuple[Path, int]:
    """A new empty temporary file beside ``path``, locked by this process."""
    for _ in range(3):
        temp = path.with_name(f"{prefix(path)}{secrets.token_hex(4)}")
        try:
            fd = os.open(temp, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
        except FileExistsError:
            continue
        except OSError as exc:  # a read-only folder: exit 3, a full disk: exit 4
            raise os_failure(exc, path, "write") from exc
        fcntl.flock(fd, fcntl.LOCK_EX)
        # Another process may have cleared the file between its creation and the lock.
        try:
            same = os.path.samestat(os.fstat(fd), os.stat(temp))
        except FileNotFoundError:
            same = False
        if same:
            return temp, fd
        os.close(fd)
    raise StoreError(f"{path}: could not make a temporary file beside it; try again")


def _put_in_place(temp: Path, path: Path) -> bool:
    """Give ``temp`` the name ``path``; False when a file took that name first."""
    try:
        os.link(temp, path)
    except FileExistsError:
        return False  # another process made the store first: it is kept
    except OSError as exc:
        if exc.errno not in NO_LINKS:
            raise os_failure(exc, path, "write") from exc
        if os.path.lexists(path):
            return False
        try:
            os.rename(temp, path)
        except OSError as exc2:
            raise os_failure(exc2, path, "write") from exc2
    _sync_folder(path.parent)
    return True


def _sync_folder(folder: Path) -> None:
    """Make the new name durable (a power cut right after would otherwise lose it)."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def clear_unfinished(path: Path) -> None:
    """Remove what creations of ``path`` killed outright left beside it.

    The store itself is never opened here (closing a descriptor of it would drop this
    process's SQLite locks on it): a temporary file with its identity is unlinked by
    name. Another temporary file is opened only to test its builder's lock.
    """
    start = prefix(path)
    try:
        names = [name for name in os.listdir(path.parent) if name.startswith(start)
                 and not name.endswith(SIDE_FILES)]
    except OSError:
        return
    try:
        store = os.stat(path)
    except OSError:
        store = None
    for name in names:
        temp = path.parent / name
        if temp in _building:
            continue
        try:
            found = os.stat(temp, follow_symlinks=False)
        except OSError:
            continue
        if not stat.S_ISREG(found.st_mode):
            continue
        second_name = store is not None and os.path.samestat(found, store)
        if not second_name and not _abandoned(temp):
            continue
        for leftover in (temp, *(Path(f"{temp}{suffix}") for suffix in SIDE_FILES)):
            with contextlib.suppress(OSError):
                leftover.unlink()


def _abandoned(temp: Path) -> bool:
    """Whether nobody builds ``temp`` any more: its builder's lock is free."""
    try:
        fd = os.open(temp, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    else:
        return True
    finally:
        os.close(fd)

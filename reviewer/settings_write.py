"""The app's settings file, checked right before each write and replaced whole.

QSettings wrote ``reviewer.conf`` itself, whenever it liked (each ``sync``, an event
after each change, its destructor), and only the start-up checked what the file was
(seventh hostile pass, S3). Made a link while the app ran, the file was written through:
QSaveFile follows a symbolic link and renames its temporary file over the link's target,
so a store linked there became INI text at the next key or on quit, decisions included;
a linked text file was overwritten the same way; and before writing, QSettings read the
changed file back, so the store's bytes became settings (eighth hostile pass, S4).

So QSettings never touches the user's file any more (``ui.settings`` keeps the settings
in memory). Each write comes here, and right before it the file is looked at again,
without following a link (``lstat``, then ``O_NOFOLLOW``): written over only when it is
absent or a regular file of one name (no other hard link) holding text (UTF-8, no NUL,
at most :data:`LIMIT` bytes: a settings file is a few kilobytes, a database is neither).
Anything else is a :class:`Refusal`: nothing is written and the app keeps its settings
in memory for the session.

A regular text file other than the one the app last wrote is another writer's settings
(a second window of the app, an editor): it is read and this session's changes are
written over its values (``merge``), as QSettings always did; it is never what the app
keeps in memory.

The new file is a temporary file in the same folder, fsynced, given the previous file's
permissions (a new one: what the umask allows), then renamed over the path. A rename
replaces the directory entry and never follows it: if a link is made in the instant
between the last look and the rename, the link itself is replaced by a regular file and
its target is left as it was. The look, the merge and the rename are made holding a
``flock`` on the folder, so two windows of the app writing at once take turns and
neither loses the other's changes. SIGTERM and SIGHUP remove the temporary file
(``reviewer.unfinished``).
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from reviewer.atomic import folders_held, fsync_folder
from reviewer.input_bytes import kind_of_mode
from reviewer.outputs import SQLITE_HEADER, new_file_mode
from reviewer.unfinished import settled, track

# The largest settings file read back (bytes); the app's own is a few kilobytes.
LIMIT = 1 << 20
# How many times the file is read again when it changes between the look and the rename
# (a writer that does not take the folder's lock: an older version of the app).
TRIES = 3

Why = Literal["symlink", "hardlink", "special", "database", "not_text"]


@dataclass(frozen=True)
class Refusal:
    """Why the settings file at ``path`` is not written: ``symlink`` (to ``target``),
    ``hardlink`` (the file has another name), ``special`` (a folder, a pipe or a device:
    ``kind``), ``database`` (a SQLite database), ``not_text`` (binary or huge)."""

    path: Path
    why: Why
    target: Path | None = None
    kind: str | None = None


@dataclass(frozen=True)
class _Seen:
    """The file as it was read: what must still be there at the rename."""

    node: tuple[int, int, int, int, int] | None  # dev, inode, size, mtime, links; None: absent
    mode: int | None


def link_at_start(path: Path) -> Refusal | None:
    """A refusal when the settings file is a link (symbolic or hard) as the app starts:
    its settings are read (S3: dotfiles kept as links) and never written."""
    try:
        found = os.lstat(path)
    except OSError:
        return None
    if stat.S_ISLNK(found.st_mode):
        return Refusal(path, "symlink", target=Path(os.path.realpath(path)))
    if stat.S_ISREG(found.st_mode) and found.st_nlink > 1:
        return Refusal(path, "hardlink")
    return None


def read_text(path: Path) -> bytes:
    """The bytes of a settings file the app reads at its start (through a symbolic link:
    dotfiles), at most :data:`LIMIT`; empty when there is none or it is not a regular
    file. Opened without waiting: a FIFO swapped in after the start-up checks (which
    refuse one) is never waited on."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return b""
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return b""
        return _read_all(fd)
    except OSError:
        return b""
    finally:
        os.close(fd)


def _read_all(fd: int) -> bytes:
    parts: list[bytes] = []
    size = 0
    while size <= LIMIT:
        part = os.read(fd, LIMIT + 1 - size)
        if not part:
            break
        parts.append(part)
        size += len(part)
    return b"".join(parts)


def _node(found: os.stat_result) -> tuple[int, int, int, int, int]:
    return (found.st_dev, found.st_ino, found.st_size, found.st_mtime_ns, found.st_nlink)


def _shape(path: Path, found: os.stat_result) -> Refusal | None:
    """Why a file of status ``found`` (``lstat``) is not written over, by its kind alone."""
    if stat.S_ISLNK(found.st_mode):
        return Refusal(path, "symlink", target=Path(os.path.realpath(path)))
    if not stat.S_ISREG(found.st_mode):
        return Refusal(path, "special", kind=kind_of_mode(found.st_mode))
    if found.st_nlink > 1:
        return Refusal(path, "hardlink")
    return None


def current(path: Path) -> tuple[bytes, _Seen] | Refusal:
    """The settings file's bytes now (empty when there is none) and what it was, or why
    it must not be written over; a link is never followed."""
    try:
        found = os.lstat(path)
    except FileNotFoundError:
        return b"", _Seen(None, None)
    refused = _shape(path, found)
    if refused is not None:
        return refused
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK
                     | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:  # removed since the look: nothing to merge
        return b"", _Seen(None, None)
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # a symbolic link since the look
            return Refusal(path, "symlink", target=Path(os.path.realpath(path)))
        raise
    try:
        opened = os.fstat(fd)
        refused = _shape(path, opened)
        if refused is not None:
            return refused
        data = _read_all(fd)
    finally:
        os.close(fd)
    if data.startswith(SQLITE_HEADER):
        return Refusal(path, "database")
    if len(data) > LIMIT or b"\0" in data:
        return Refusal(path, "not_text")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return Refusal(path, "not_text")
    return data, _Seen(_node(opened), stat.S_IMODE(opened.st_mode))


def _still(path: Path, seen: _Seen) -> bool:
    """Whether ``path`` is still the file read (or still absent)."""
    try:
        found = os.lstat(path)
    except FileNotFoundError:
        return seen.node is None
    return seen.node is not None and stat.S_ISREG(found.st_mode) and _node(found) == seen.node


def write_settings(path: Path, merge: Callable[[bytes], bytes]) -> Refusal | None:
    """Replace the settings file at ``path`` with ``merge(its bytes now)``; the refusal
    when it must not be written over (nothing written). OSError when the file system
    refuses (a read-only folder, a full disk) or the file kept changing under another
    writer: the file is left as it was, and a later write tries again."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with folders_held([path.parent]):  # two windows of the app write in turn
        for _ in range(TRIES):
            now = current(path)
            if isinstance(now, Refusal):
                return now
            data, seen = now
            if _put(path, merge(data), seen):
                return None
    raise OSError(errno.EAGAIN, f"{path} kept changing while it was written")


def _put(path: Path, data: bytes, seen: _Seen) -> bool:
    """Write ``data`` beside ``path`` and rename it over ``path`` if the file there is
    still the one read; False (nothing changed) when it is not."""
    fd, tmp = _new_temp(path)
    renamed = False
    try:
        try:
            os.fchmod(fd, seen.mode if seen.mode is not None else new_file_mode())
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        if not _still(path, seen):
            return False
        # The instant between this look and the rename is the only one left: a link made
        # there is replaced (a rename never follows one), its target never written.
        os.rename(tmp, path)
        renamed = True
    finally:
        if not renamed:
            with contextlib.suppress(OSError):
                tmp.unlink()
        settled(tmp)
    fsync_folder(path.parent)
    return True


def _new_temp(path: Path) -> tuple[int, Path]:
    """A new file ``.NAME.<8 random characters>`` beside ``path``, open, tracked from
    before it exists (a SIGTERM right after its creation removes it)."""
    while True:
        tmp = path.parent / f".{path.name}.{secrets.token_hex(4)}"
        track(tmp)
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL
                           | getattr(os, "O_CLOEXEC", 0), 0o600), tmp
        except FileExistsError:  # another file's name: not ours to remove
            settled(tmp)
        except BaseException:
            settled(tmp)
            raise

"""Where a command may write: every output path is checked before anything is touched.

A command that writes a file (every export, ``import --skip-bad``, ``grade --output``)
passes its output path through :func:`check_output` first, with the database it has open
and the files it reads. The check refuses, with one ``BadInputError`` line (exit 2) and
nothing written:

* a path that resolves (through symbolic links, ``..`` or a hard link) to the open SQLite
  database or one of its companions: ``-wal``, ``-shm``, ``-journal``, and the copies an
  upgrade keeps (``NAME.bak-…``): writing there destroys every decision;
* a path that resolves to an input of the same command (``import br.jsonl --skip-bad
  br.jsonl`` would replace the very file being imported);
* a path that resolves to the app's settings file (``reviewer.settings_files``): the
  next start of the app replaced what it could not read with its defaults;
* any other SQLite database (a file that starts with the SQLite header: a colleague's
  store, the app's default store, an upgrade's backup), or the ``-wal``, ``-shm`` or
  ``-journal`` file beside one: no output of this program is ever a database, and
  replacing one lost every decision in it (sixth hostile pass, X1);
* a folder, or a block device (a disk), and a path that names a folder by its spelling
  (``OUT/``, ``OUT/.``), whatever is there: the shell and ``open()`` say so too.

What is left is either a *file*, replaced atomically at the path a symbolic link points
to (the link stays a link) and keeping the previous file's permissions, or a *stream*
(``-`` for standard output, a FIFO, a character device such as a terminal), written in
place: renaming a new file over a FIFO or ``/dev/null`` would replace the node itself.
``reviewer.atomic`` does the writing.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from reviewer.errors import CWD_GONE, BadInputError
from reviewer.settings_files import settings_files

STDOUT = "-"
SQLITE_HEADER = b"SQLite format 3\x00"  # the first 16 bytes of every SQLite database
# The files SQLite keeps beside a database, and the copy an upgrade makes before migrating
# (``reviewer.store.database.backup_sqlite``: ``NAME.bak-REVISION-STAMP``).
SQLITE_COMPANIONS = {"-wal": "the write-ahead log", "-shm": "the shared-memory index",
                     "-journal": "the rollback journal"}
BACKUP_INFIX = ".bak-"
# Paths that name an open file descriptor of this process (see _descriptor).
_DESCRIPTOR = re.compile(r"^/(?:dev/(?P<std>stdin|stdout|stderr)|dev/fd/(?P<fd>\d+)"
                         r"|proc/(?P<pid>self|\d+)/fd/(?P<pfd>\d+))$")


STANDARD = {0: "standard input", 1: "standard output", 2: "standard error"}
# The standard streams the shell closed before this process started (``>&-``): see
# closed_by_the_shell. Empty unless the CLI said so.
_CLOSED: set[int] = set()


def closed_by_the_shell(fds: Iterable[int]) -> None:
    """Record which standard streams (0, 1, 2) the shell closed (``reviewer … >&-``).

    The CLI puts ``/dev/null`` in their place, so that what a command *says* there goes
    nowhere, as the shell was asked (``decide … >&-`` stores the decision). An output
    *asked for* there is another matter: ``export decisions - >&-`` wrote the export to
    nothing, said "20 audit events → -" and exited 0 (sixth hostile pass, U5). Such an
    output is refused by :func:`check_output`, before anything is read."""
    _CLOSED.clear()
    _CLOSED.update(fds)


@dataclass(frozen=True, slots=True)
class Output:
    """A checked destination.

    ``shown`` is the path as the user gave it (for messages); ``target`` the file that is
    replaced or the node that is written to (None for standard output); ``stream`` is True
    when the destination is written in place (standard output, a FIFO, a character
    device) rather than replaced by a renamed temporary file.
    """

    shown: str
    target: Path | None
    stream: bool
    database: Path | None = None
    inputs: tuple[Path, ...] = ()
    folder: bool = False  # a folder of files (a split export), from check_folder

    @property
    def is_stdout(self) -> bool:
        """Whether this is standard output (``-``)."""
        return self.target is None

    def __str__(self) -> str:
        return self.shown


def _refuse(shown: str, why: str) -> BadInputError:
    return BadInputError(f"cannot write {shown}: {why}; nothing was written")


def _stat(path: Path) -> os.stat_result | None:
    # stat, never open: closing any descriptor of a SQLite file drops the locks this
    # process holds on it (see reviewer.store.database._refuse_non_sqlite).
    try:
        return os.stat(path)
    except OSError:
        return None


def _same(a: os.stat_result | None, b: os.stat_result | None) -> bool:
    return a is not None and b is not None and (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def _resolved(path: Path, shown: str | None = None) -> Path:
    return Path(os.path.realpath(_absolute(path, shown)))


def _absolute(path: Path, shown: str | None = None) -> Path:
    """``path`` made absolute. A relative path in a current folder that was deleted has
    no meaning: one line, exit 2 (sixth hostile pass, U4: ``abspath`` raised a bare
    FileNotFoundError, "cannot use a file: no such file or folder")."""
    if path.is_absolute():
        return path
    try:
        return Path(os.getcwd()) / path
    except FileNotFoundError:
        raise BadInputError(f"{shown if shown is not None else path}: {CWD_GONE}") from None


def database_role(target: Path, database: Path) -> str | None:
    """What ``target`` is to the SQLite ``database`` (None when it is none of its files)."""
    db = _resolved(database)
    found = _stat(target)
    if target == db or _same(found, _stat(db)):
        return f"it is the open database ({database})"
    for suffix, what in SQLITE_COMPANIONS.items():
        companion = db.with_name(db.name + suffix)
        if target == companion or _same(found, _stat(companion)):
            return f"it is {what} of the open database ({database})"
    if target.parent == db.parent and target.name.startswith(db.name + BACKUP_INFIX):
        return f"it is a backup of the open database ({database})"
    return None


def _descriptor(path: Path) -> int | None:
    """The file descriptor a path such as ``/dev/stdout`` or ``/proc/self/fd/3`` names.

    Its "real path" is ``pipe:[…]`` or the file behind the descriptor: resolved, a pipe
    looked like a new file in a folder that cannot exist, and a file redirected with
    ``>>`` would have been replaced by a rename instead of written at its offset.
    """
    try:
        match = _DESCRIPTOR.match(os.path.normpath(_absolute(path)))
    except BadInputError:  # relative, and no current folder: no descriptor either
        return None
    if match is None:
        return None
    if match["pid"] not in (None, "self", str(os.getpid())):
        return None
    named = match["std"]
    return {"stdin": 0, "stdout": 1, "stderr": 2}[named] if named else \
        int(match["fd"] or match["pfd"])


def is_descriptor_path(path: str) -> bool:
    """Whether ``path`` names an open descriptor of this process (``/dev/stderr``,
    ``/dev/fd/3``): a stream, whatever file is behind it."""
    return _descriptor(Path(path)) is not None


def _not_a_folder(target: Path) -> Path | None:
    """The first part of ``target``'s folder that exists and is not a folder, if any
    (``r.db/x.jsonl``: nothing could ever be written there)."""
    for parent in target.parents:
        found = _stat(parent)
        if found is not None:
            return None if stat.S_ISDIR(found.st_mode) else parent
    return None


def _folder_spelling(shown: str) -> str | None:
    """The ending (``/`` or ``/.``) that makes ``shown`` name a folder, if any.

    Fourth hostile pass, C2: ``export golden f.jsonl/`` lost its slash in ``Path`` and
    replaced the existing *file* f.jsonl (``new.jsonl/`` made a file). ``open("f.jsonl/")``
    fails with ENOTDIR; a single-file output refuses such a path whatever exists there.
    (A split export's folder, ``check_folder``, may of course end with one.)
    """
    for sep in filter(None, (os.sep, os.altsep)):
        for tail in (sep, sep + "."):
            if shown.endswith(tail):
                return tail
    return None


def check_output(
    path: Path | str, *, database: Path | None = None, inputs: Sequence[Path] = (),
) -> Output:
    """The checked destination of ``path`` (see the module docstring), or BadInputError.

    Give the path as the user typed it (a ``str``): a ``Path`` has already dropped a
    trailing ``/``, which names a folder (see ``_folder_spelling``)."""
    shown = str(path)
    if not shown.strip():  # `export decisions ''` was "cannot write : it is a folder" (V8)
        raise BadInputError("an empty path names no file; give the file to write, or - "
                            "for standard output; nothing was written")
    tail = _folder_spelling(shown)
    if tail is not None:
        raise _refuse(shown, f"it ends with '{tail}', which names a folder")
    guard = (database, tuple(inputs))
    given = Path(path).expanduser()
    fd = 1 if shown == STDOUT else _descriptor(given)
    if fd is not None:
        if fd in _CLOSED:
            raise _refuse(shown, f"{STANDARD[fd]} is closed")
        check_descriptor(shown, fd, database, inputs)
        if fd == 1:
            return Output(shown, None, True, *guard)
        # another descriptor: written where it stands, never renamed over
        return Output(shown, Path(os.path.normpath(_absolute(given))), True, *guard)
    target = _resolved(given, shown)
    found = _stat(target)
    if found is None:
        blocked = _not_a_folder(target)
        if blocked is not None:
            raise _refuse(shown, f"{blocked} is a file, not a folder")
    _check_protected(shown, target, found, database, inputs)
    if found is None or stat.S_ISREG(found.st_mode):
        return Output(shown, target, False, *guard)
    if stat.S_ISDIR(found.st_mode):
        raise _refuse(shown, "it is a folder")
    if stat.S_ISFIFO(found.st_mode) or stat.S_ISCHR(found.st_mode):
        return Output(shown, target, True, *guard)
    raise _refuse(shown, "it is a device or a socket, not a file")


def check_descriptor(shown: str, fd: int, database: Path | None,
                      inputs: Sequence[Path]) -> None:
    """A descriptor open on a regular file is that file: the store (``/dev/fd/3`` opened
    on it) or an input (``-o /dev/stdin`` with the input as standard input) is refused."""
    try:
        found = os.fstat(fd)  # fstat, never open or close: the store's locks stay
    except OSError:
        return  # not open: writing to it fails later, with its own line
    if stat.S_ISREG(found.st_mode):
        _check_protected(shown, _resolved(Path(f"/proc/self/fd/{fd}")), found, database,
                         inputs)


def _check_protected(shown: str, target: Path, found: os.stat_result | None,
                     database: Path | None, inputs: Sequence[Path]) -> None:
    """Refuse ``target`` when it is the store, one of its files, or an input."""
    if database is not None:
        role = database_role(target, database)
        if role is not None:
            raise _refuse(shown, role)
        for parent in target.parents:  # r.db-wal/x.jsonl: a folder where SQLite's WAL goes
            role = database_role(parent, database)
            if role is not None:
                what = role.replace("it is its ", "is the ").replace("it is ", "is ")
                raise _refuse(shown, f"{parent} {what}")
    for given in inputs:
        if target == _resolved(given) or _same(found, _stat(given)):
            raise _refuse(shown, f"it is an input of this command ({given})")
    # Fourth hostile pass, S1: ``export golden ~/.config/reviewer/reviewer.conf`` replaced
    # the settings with JSONL (exit 0), and the next GUI start reset them to the defaults:
    # the reviewer name, the judge's host and model, the last filter were gone.
    for settings in settings_files():
        if target == _resolved(settings) or _same(found, _stat(settings)):
            raise _refuse(shown, f"it is the app's settings file ({settings})")
    database_file = _other_database(target, found)
    if database_file is not None:
        raise _refuse(shown, database_file)


def _other_database(target: Path, found: os.stat_result | None) -> str | None:
    """What ``target`` is when it is a SQLite database or one of the files SQLite keeps
    beside one (``-wal``, ``-shm``, ``-journal``, even when absent: written there, it
    would be taken for that database's own), else None.

    Sixth hostile pass, X1: ``export golden colleague.db`` (a slip of tab completion)
    and ``export decisions ~/.local/share/reviewer/reviewer.sqlite3`` replaced the whole
    database with JSONL, exit 0. Only the open database was protected; any file that
    starts with the SQLite header now is.
    """
    kind = _database_kind(target, found)
    if kind is None:
        return None
    return f"it is {kind}, and no output ever replaces one; choose another name"


def database_kind(path: Path) -> str | None:
    """What ``path`` is, read through symbolic links, when it is a SQLite database ("a
    database (SQLite)") or a file SQLite keeps beside one ("the write-ahead log of the
    database X (SQLite)"); None otherwise. The app's settings are never written over one
    (``ui.settings``; seventh hostile pass, S3)."""
    target = _resolved(path)
    return _database_kind(target, _stat(target))


def _database_kind(target: Path, found: os.stat_result | None) -> str | None:
    if found is not None and stat.S_ISREG(found.st_mode) and _starts_as_sqlite(target,
                                                                                found):
        return "a database (SQLite)"
    for suffix, what in SQLITE_COMPANIONS.items():
        if not target.name.endswith(suffix) or target.name == suffix:
            continue
        owner = target.with_name(target.name.removesuffix(suffix))
        beside = _stat(owner)
        if beside is not None and stat.S_ISREG(beside.st_mode) and \
                _starts_as_sqlite(owner, beside):
            return f"{what} of the database {owner} (SQLite)"
    return None


def _starts_as_sqlite(path: Path, found: os.stat_result) -> bool:
    """Whether the regular file ``path`` (``found`` its status) starts with the SQLite
    header.

    A descriptor this process already holds on that file is read with ``pread`` rather
    than the file opened again: closing any descriptor of a SQLite file drops every lock
    this process holds on it (see ``_stat``). Only a file held by no descriptor is
    opened, read and closed; one that cannot be read is taken for what it is not.
    """
    if found.st_size < len(SQLITE_HEADER):
        return False
    for fd in _held(found):
        try:
            return os.pread(fd, len(SQLITE_HEADER), 0) == SQLITE_HEADER
        except OSError:  # write-only (``>>FILE``): another descriptor may be readable
            continue
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError:
        return False
    try:
        return os.pread(fd, len(SQLITE_HEADER), 0) == SQLITE_HEADER
    except OSError:
        return False
    finally:
        os.close(fd)


def _held(found: os.stat_result) -> list[int]:
    """The descriptors of this process open on the file ``found`` describes."""
    try:
        names = os.listdir("/proc/self/fd")
    except OSError:  # no /proc: the file is opened (see _starts_as_sqlite)
        return []
    held = []
    for name in names:
        with contextlib.suppress(OSError, ValueError):
            if _same(os.fstat(int(name)), found):
                held.append(int(name))
    return held


def as_output(out: Path | str | Output) -> Output:
    """``out`` checked when it is not already (no database, no inputs to compare with)."""
    return out if isinstance(out, Output) else check_output(out)


def beside(out: Output, suffix: str) -> Output | None:
    """The companion file written next to ``out`` (``OUT.manifest.json``), checked the
    same way; None for a stream, which has no "next to"."""
    if out.stream or out.target is None:
        return None
    return _companion(check_output(Path(out.shown + suffix), database=out.database,
                                   inputs=out.inputs))


def _companion(out: Output) -> Output:
    """``out`` if it can be a file of an export that is several files (a manifest, a
    split's files): a FIFO or a device there would block (a FIFO with no reader hung the
    export for ever) or swallow a file the manifest vouches for."""
    if out.stream:
        raise _refuse(out.shown, "it is a FIFO or a device, and this file of the export "
                      "must be a regular file")
    return out


def check_folder(path: Path | str, *, database: Path | None = None,
                 inputs: Sequence[Path] = ()) -> Output:
    """A folder an export writes its files into (``OUT/train.jsonl``…): an existing
    folder or a path where none exists yet (created when the files are written)."""
    shown = str(path)
    if not shown.strip():
        raise BadInputError("an empty path names no folder; give the folder to write the "
                            "files in; nothing was written")
    if shown == "-":  # standard output everywhere else: never a folder named "-"
        raise _refuse(shown, "a split export writes a folder of files, not standard "
                             "output; give a folder")
    target = _resolved(Path(path).expanduser(), shown)
    found = _stat(target)
    if found is not None and not stat.S_ISDIR(found.st_mode):
        raise _refuse(shown, "it is not a folder (a split export writes a folder of files)")
    blocked = _not_a_folder(target) if found is None else None
    if blocked is not None:
        raise _refuse(shown, f"{blocked} is a file, not a folder")
    return Output(shown, target, False, database, tuple(inputs), folder=True)


def inside(folder: Output, name: str) -> Output:
    """A file of an export folder, checked as any output; a symbolic link there is
    refused rather than followed."""
    assert folder.folder and folder.target is not None
    member = folder.target / name
    with contextlib.suppress(OSError):
        if stat.S_ISLNK(os.lstat(member).st_mode):
            # Sixth hostile pass, X2: a ``train.jsonl`` linked to a store was followed and
            # the store replaced. The folder is the export's own unit (the manifest
            # describes the files in it): a file of it is a file there, or nothing yet.
            raise _refuse(str(Path(folder.shown) / name), "it is a symbolic link, and "
                          "the files of a split export's folder must be regular files "
                          "(or absent); remove the link")
    return _companion(check_output(Path(folder.shown) / name, database=folder.database,
                                   inputs=folder.inputs))


def new_file_mode() -> int:
    """The permissions ``open()`` would give a new file under the current umask."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return 0o666 & ~int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    if sys.platform == "win32":  # pragma: no cover - no umask there
        return 0o666
    mask = os.umask(0o022)  # read it back: there is no other portable way
    os.umask(mask)
    return 0o666 & ~mask

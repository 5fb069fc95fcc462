"""Writing files so that a failure never leaves a half-written one.

Every destination first goes through ``reviewer.outputs.check_output`` (no database, no
input of the command, no folder). A *file* is written to a temporary file in its folder
(same file system, so the rename is atomic), flushed and fsynced, given the previous
file's permissions (a new file: what the umask allows), then renamed over the file — a
symbolic link's target, so the link stays. On any error, including an interrupt, the
temporary file is removed and the destination is left as it was. A *stream* (``-``, a
FIFO, a character device) is written in place: there is nothing to rename, and a
failure halfway leaves what was already sent.

Several files that belong together (a dataset and its manifest, the files of a split)
are written with :class:`FileSet`: every temporary file is complete and fsynced before
the first rename, and they are renamed in order, the manifest last. Readers check the
manifest's checksums (``reviewer.exports.manifest``), so a process killed between two
renames leaves files that are seen not to match, never a silent mix. Two sets renamed
at the same moment into one folder (two exports to the same file) take turns: the
renames of a set are made holding an advisory lock (``flock``) on each folder they go
to, so the last set renamed is there whole (fifth hostile pass, P19: one run in six left
the data of one export beside the manifest of the other). The folder itself is locked,
not a lock file beside the output: nothing is left behind, and no file of the user's
can be taken for the lock.

A failure of the file system (disk full, file too large, no permission) is one
``ReviewerError`` line naming the destination, not a traceback. SIGTERM and SIGHUP remove
the temporary files first (``reviewer.unfinished``); a process killed outright (SIGKILL,
power loss) cannot: a ``.NAME.xxxxxxxx`` file may stay beside the destination, which is
still the old file.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import json
import os
import secrets
import sys
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import Any, BinaryIO, cast

from reviewer.errors import BadInputError, ReviewerError
from reviewer.outputs import Output, as_output, new_file_mode
from reviewer.unfinished import settled, track

# Bytes per write to the file: the lines are gathered into blocks this big first.
BLOCK = 1 << 20
# Random characters after a temporary file's prefix.
TEMP_RANDOM = 8


def _cannot_write(shown: object, exc: OSError, *, stream: bool = False) -> ReviewerError:
    """The one line of a failed write. A stream (``-``, a FIFO) has no file to leave as it
    was: its reader may have had part of the export ("Broken pipe; nothing was written"
    after the reader had read bytes: fifteenth hostile pass, P15-13 (3))."""
    if stream:
        return ReviewerError(f"cannot write {shown}: {exc.strerror or exc}; the export "
                             "stopped, and its reader may have received part of it (a "
                             "stream cannot be taken back)")
    return ReviewerError(f"cannot write {shown}: {exc.strerror or exc}; nothing was written "
                         "(any previous file is left as it was)")


class Sink:
    """Where the bytes of one output go, with their SHA-256 and their count.

    Writes are gathered into blocks of :data:`BLOCK` bytes; the checksum is taken on
    those blocks (hashlib releases the GIL on them).
    """

    def __init__(self, raw: BinaryIO, shown: str, *, checksum: bool = True,
                 stream: bool = False) -> None:
        self.raw = raw
        self.shown = shown
        self.stream = stream  # what it wrote is gone to the reader: no "nothing written"
        self.size = 0
        self._hash = hashlib.sha256() if checksum else None
        self._parts: list[bytes] = []
        self._pending = 0

    def write(self, data: bytes) -> None:
        """Add bytes."""
        self._parts.append(data)
        self._pending += len(data)
        if self._pending >= BLOCK:
            self._drain()

    def writelines(self, lines: Iterable[bytes]) -> None:
        """Add each of ``lines``, with one count for them all: they are copied once, into
        the block (joining them first was one more copy of a whole export)."""
        parts = list(lines)
        self._parts += parts
        self._pending += sum(map(len, parts))
        if self._pending >= BLOCK:
            self._drain()

    def _drain(self) -> None:
        if not self._parts:
            return
        block = b"".join(self._parts)
        self._parts.clear()
        self._pending = 0
        if self._hash is not None:
            self._hash.update(block)
        self.size += len(block)
        try:
            self.raw.write(block)
        except OSError as exc:
            raise _cannot_write(self.shown, exc, stream=self.stream) from exc

    def flush(self) -> None:
        """Hand everything gathered to the file."""
        self._drain()
        try:
            self.raw.flush()
        except OSError as exc:
            raise _cannot_write(self.shown, exc, stream=self.stream) from exc

    @property
    def sha256(self) -> str:
        """The checksum of everything written (after :meth:`flush`)."""
        self._drain()
        return self._hash.hexdigest() if self._hash is not None else ""


def json_text(data: Any) -> str:
    """A JSON document with each top-level key on its own line, each value compact.

    Readable, and written by the C encoder: ``indent=`` takes the pure-Python one, which
    spent a third of a second on the pair list of a 10,000-attempt preference export.
    """
    if not isinstance(data, dict) or not data:
        return json.dumps(data, ensure_ascii=False) + "\n"
    items = [f"{json.dumps(str(k), ensure_ascii=False)}: {json.dumps(v, ensure_ascii=False)}"
             for k, v in data.items()]
    return "{\n  " + ",\n  ".join(items) + "\n}\n"


class _Entry:
    """One output of a :class:`FileSet`: its sink and, for a file, its temporary path."""

    def __init__(self, out: Output, sink: Sink, tmp: Path | None, owned: BinaryIO | None
                 ) -> None:
        self.out = out
        self.sink = sink
        self.tmp = tmp
        self.owned = owned  # the file object to close (not standard output)
        # The temporary file's folder, held open: a folder moved while the export ran
        # (seventh hostile pass F1) still has its temporary file removed through it.
        self.folder: int | None = None
        if tmp is not None:
            with contextlib.suppress(OSError):
                self.folder = os.open(tmp.parent, os.O_RDONLY | os.O_DIRECTORY)

    def moved(self) -> bool:
        """Whether the temporary file's folder is no longer at its path."""
        if self.folder is None or self.tmp is None:
            return False
        try:
            here, there = os.fstat(self.folder), os.stat(self.tmp.parent)
        except OSError:
            return True
        return (here.st_dev, here.st_ino) != (there.st_dev, there.st_ino)

    def remove_temp(self) -> None:
        """The temporary file removed where it is, even in a folder moved meanwhile; an
        error here never hides the one that made the export fail."""
        if self.tmp is not None:
            with contextlib.suppress(OSError):
                if self.folder is not None:
                    os.unlink(self.tmp.name, dir_fd=self.folder)
                else:
                    self.tmp.unlink(missing_ok=True)
            settled(self.tmp)
            self.tmp = None
        self.close_folder()

    def close_folder(self) -> None:
        if self.folder is not None:
            with contextlib.suppress(OSError):
                os.close(self.folder)
            self.folder = None


def _open_stream(out: Output) -> tuple[BinaryIO, BinaryIO | None]:
    if out.target is None:
        return sys.stdout.buffer, None
    # Appending: a FIFO or a device ignores it, and a file behind /dev/stderr (a ``>>``
    # redirection) is written at its end rather than truncated.
    raw = cast(BinaryIO, open(out.target, "ab"))  # noqa: SIM115 - closed by FileSet
    return raw, raw


def _temp_prefix(folder: Path, name: str) -> str:
    """``.NAME.`` for the temporary file, shortened so that with the 8 random
    characters it still fits the file system's longest name (a valid 250-byte name
    overflowed NAME_MAX once the dots and the random part were added)."""
    try:
        longest = os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError):
        longest = 255
    room = max(1, longest - len(".") - len(".") - TEMP_RANDOM)
    encoded = os.fsencode(name)
    if len(encoded) > room:
        name = os.fsdecode(encoded[:room].decode("utf-8", "ignore").encode("utf-8"))
    return f".{name}."


def made_folder(out: Output) -> Path | None:
    """The outermost folder writing ``out`` will make (None when they all exist): what an
    export names, so a typo in a folder's name does not read as an ordinary success
    (eleventh hostile pass, V6)."""
    if out.target is None or out.stream:
        return None
    return outermost_missing(out.target if out.folder else out.target.parent)


def made_folder_text(folder: Path | None) -> str:
    """" (made the folder X)" once ``folder`` exists, else "": how an export, a first
    store (``demo``, ``import``) and a screenshot end their line."""
    return f" (made the folder {folder})" if folder is not None and folder.is_dir() else ""


def outermost_missing(folder: Path) -> Path | None:
    """The outermost of ``folder`` and its parents that does not exist yet (None when
    ``folder`` exists): the one folder writing there would make first."""
    missing = missing_folders(folder)
    return missing[-1] if missing else None


def missing_folders(folder: Path) -> list[Path]:
    """``folder`` and those of its parents that do not exist yet, innermost first."""
    missing = []
    while not folder.exists() and folder.parent != folder:
        missing.append(folder)
        folder = folder.parent
    return missing


def _new_temp(folder: Path, prefix: str) -> tuple[int, str]:
    """A new file ``folder/prefix<8 random characters>``, open, tracked from before it
    exists: with mkstemp a SIGTERM between the file's creation and ``track`` left it
    behind (the hostile-output test caught it on a loaded machine)."""
    for _ in range(100):  # mkstemp's own number of tries
        path = folder / f"{prefix}{secrets.token_hex(TEMP_RANDOM // 2)}"
        track(path)
        try:
            return os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(
                os, "O_CLOEXEC", 0), 0o600), str(path)
        except FileExistsError:  # another file's name: not ours to remove
            settled(path)
        except BaseException:  # Ctrl-C may land just after the file was made
            path.unlink(missing_ok=True)
            settled(path)
            raise
    raise FileExistsError(errno.EEXIST, f"no unused temporary name in {folder}")


def _open_temp(out: Output, created: list[Path]) -> tuple[BinaryIO, Path]:
    """The temporary file of ``out``; the folders made for it are added to ``created``."""
    target = out.target
    assert target is not None
    missing = missing_folders(target.parent)
    target.parent.mkdir(parents=True, exist_ok=True)
    created.extend(missing)
    try:
        mode = os.stat(target).st_mode & 0o7777  # keep the previous file's permissions
    except FileNotFoundError:
        mode = new_file_mode()
    fd, tmp = _new_temp(target.parent, _temp_prefix(target.parent, target.name))
    try:
        os.fchmod(fd, mode)
        return cast(BinaryIO, os.fdopen(fd, "wb")), Path(tmp)
    except BaseException:
        os.close(fd)
        Path(tmp).unlink(missing_ok=True)
        settled(Path(tmp))
        raise


def fsync_folder(folder: Path) -> None:
    """Flush ``folder``'s entries (a rename into it) to disk, where the file system allows."""
    with contextlib.suppress(OSError):  # not every file system lets a folder be opened
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


@contextmanager
def folders_held(folders: list[Path]) -> Iterator[None]:
    """An exclusive ``flock`` on each of ``folders`` for the duration of the block, taken
    in one order (device, inode), so that two processes putting files into the same
    folders wait for each other instead of interleaving their renames.

    The lock is advisory: only another :class:`FileSet` (or the settings writer,
    ``reviewer.settings_write``) waits for it. A folder that
    cannot be opened or locked (a file system without ``flock``) is renamed into without
    the lock, as before: the manifest's checksums still show a mix.
    """
    held: list[int] = []
    try:
        for folder in sorted(set(folders), key=_node_key):
            try:
                fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)
                             | getattr(os, "O_CLOEXEC", 0))
            except OSError:
                continue
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)  # waits for the other set's renames
            except OSError:
                os.close(fd)
                continue
            held.append(fd)
        yield
    finally:
        for fd in reversed(held):
            os.close(fd)  # closing the last descriptor of the folder releases its lock


def _node_key(folder: Path) -> tuple[int, int]:
    try:
        found = os.stat(folder)
    except OSError:
        return (-1, -1)
    return (found.st_dev, found.st_ino)


def _same_node(a: Output, b: Output) -> bool:
    if a.target is None or b.target is None:
        return False
    try:
        first, second = os.stat(a.target), os.stat(b.target)
    except OSError:
        return False
    return (first.st_dev, first.st_ino) == (second.st_dev, second.st_ino)


class FileSet:
    """Outputs written together and put in place together (see the module docstring).

    ``with FileSet() as files: sink = files.open(out); …``: on success every file is
    fsynced, then renamed in the order it was opened; on any failure every temporary
    file is removed and no destination changes.
    """

    def __init__(self, *, checksum: bool = True) -> None:
        self.checksum = checksum
        self._entries: list[_Entry] = []
        # Folders made for the outputs (a split's new folder): a failed export removes
        # them again, so a full disk leaves no empty folder behind.
        self._created: list[Path] = []

    def open(self, out: Path | str | Output) -> Sink:
        """A sink for ``out`` (checked: see ``reviewer.outputs``)."""
        checked = as_output(out)
        self._refuse_twice(checked)
        tmp: Path | None = None
        try:
            if checked.stream:
                raw, owned = _open_stream(checked)
            else:
                raw, tmp = _open_temp(checked, self._created)
                owned = raw
        except OSError as exc:
            self._abort()
            raise _cannot_write(checked, exc) from exc
        sink = Sink(raw, checked.shown, checksum=self.checksum, stream=checked.stream)
        self._entries.append(_Entry(checked, sink, tmp, owned))
        return sink

    def _refuse_twice(self, out: Output) -> None:
        """Two outputs of one set must be two files: a manifest that is a link to its
        dataset (or a split's ``valid.jsonl`` linked to ``train.jsonl``) would be renamed
        over the file written just before it, and the manifest vouch for itself."""
        if out.target is None and not any(e.out.target is None for e in self._entries):
            return
        for entry in self._entries:
            if entry.out.target == out.target or _same_node(entry.out, out):
                self._abort()
                raise BadInputError(f"cannot write {out.shown}: it is the same file as "
                                    f"{entry.out.shown} (a link?), and both are outputs of "
                                    "this export; nothing was written")

    def write_json(self, out: Path | str | Output, data: Any) -> None:
        """A whole JSON document (UTF-8) as one more output: see :func:`json_text`."""
        self.open(out).write(json_text(data).encode("utf-8"))

    def __enter__(self) -> FileSet:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if kind is not None:
            self._abort()
            return
        try:
            self._commit()
        except BaseException:
            self._abort()
            raise

    def prepare(self) -> None:
        """Make every file complete and durable under its temporary name, without putting
        any in place yet: a caller with its own transaction calls it before committing,
        so a disk that refuses the file rolls the transaction back (``import --skip-bad``
        imported the good lines although their rejects could not be written)."""
        for entry in self._entries:
            if entry.owned is not None and entry.owned.closed:
                continue
            entry.sink.flush()
            try:
                if entry.tmp is not None and entry.owned is not None:
                    os.fsync(entry.owned.fileno())
                if entry.owned is not None:
                    entry.owned.close()
            except OSError as exc:
                raise _cannot_write(entry.out, exc) from exc

    def _commit(self) -> None:
        self.prepare()
        # Every file is complete on disk before the first one takes its place.
        renamed = [entry for entry in self._entries
                   if entry.tmp is not None and entry.out.target is not None]
        folders: list[Path] = []
        for entry in renamed:
            assert entry.out.target is not None
            if entry.out.target.parent not in folders:
                folders.append(entry.out.target.parent)
        # One file needs no turn: a rename is atomic by itself.
        with folders_held(folders) if len(renamed) > 1 else contextlib.nullcontext():
            for entry in renamed:
                assert entry.tmp is not None and entry.out.target is not None
                if entry.moved():
                    raise ReviewerError(f"cannot write {entry.out.shown}: its folder was "
                                        "moved or replaced while the export ran; nothing "
                                        "was written (any previous file is left as it was)")
                try:
                    os.replace(entry.tmp, entry.out.target)
                except OSError as exc:
                    raise _cannot_write(entry.out, exc) from exc
                settled(entry.tmp)
                entry.tmp = None
                entry.close_folder()
        for folder in folders:
            fsync_folder(folder)

    def _abort(self) -> None:
        for entry in self._entries:
            if entry.owned is not None:
                with contextlib.suppress(OSError):
                    entry.owned.close()
            entry.remove_temp()
        for folder in self._created:  # innermost first; one holding anything else stays
            with contextlib.suppress(OSError):
                folder.rmdir()
        self._created.clear()


class _Text:
    """What :func:`atomic_text` hands out: ``write(str)`` encoded to UTF-8 into a sink."""

    def __init__(self, sink: Sink) -> None:
        self.sink = sink

    def write(self, text: str) -> int:
        self.sink.write(text.encode("utf-8"))
        return len(text)


@contextmanager
def atomic_text(path: Path | str | Output) -> Iterator[_Text]:
    """A UTF-8 text output that appears at ``path`` only if the block succeeds."""
    with FileSet(checksum=False) as files:
        yield _Text(files.open(path))


def write_jsonl_atomic(path: Path | str | Output, rows: Iterable[dict[str, Any]]) -> int:
    """Write JSONL (one compact object per line) atomically; return how many lines."""
    return write_jsonl_files([(path, rows)])[0]


def write_jsonl_files(files_rows: Sequence[tuple[Path | str | Output,
                                                 Iterable[dict[str, Any]]]]) -> list[int]:
    """Write several JSONL files as one set (all or nothing, two outputs never one file:
    ``FileSet``); return how many lines each. Written one after the other, the calibration
    export's trail, a link to its main file, was replaced by it: "5 audit events → …",
    rc 0, and the events were nowhere (fifteenth hostile pass, P15-8)."""
    counts = []
    with FileSet(checksum=False) as files:
        for path, rows in files_rows:
            sink, count = files.open(path), 0
            for row in rows:
                sink.write((json.dumps(row, ensure_ascii=False) + "\n").encode("utf-8"))
                count += 1
            counts.append(count)
    return counts


def write_json_atomic(path: Path | str | Output, data: Any) -> None:
    """Write one JSON document (indented, UTF-8) atomically."""
    with FileSet(checksum=False) as files:
        files.write_json(path, data)

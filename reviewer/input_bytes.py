"""Reading an input file in bounded memory and time, whatever the path names.

A path given as input can be ``/dev/zero`` (NUL bytes without end, no newline),
``/dev/urandom``, a FIFO, or a multi-gigabyte file by mistake. Reading it whole or
line by line with Python's own readers then grows one line until memory runs out (exit
1 "out of memory" after seconds of swapping, or never). Every input reader goes through
here instead:

* ``bounded_lines(fh, source)``: the lines of a binary file with their 1-based numbers,
  read in pieces of ``CHUNK`` bytes; a line longer than ``max_line`` bytes, or a piece of
  a long line holding NUL bytes, is refused at once as "not a text file" (exit 2,
  ``FILE:LINE``). A short line with a NUL is the caller's to reject (``--skip-bad``).
* ``read_bounded(path, limit)``: a whole small file (a CSV of decisions), refused beyond
  ``limit`` bytes or, as above, at a long line holding NUL bytes.
* ``read_text(path, limit, what)``: the UTF-8 text of a small file read whole (a prompt
  template, a catalog, a JSON schema): a device, pipe or folder refused by name
  (``refuse_special``, which every input file argument of the command line goes
  through too), then ``read_bounded``.

A UTF-8 byte-order mark at the start of a file (what Windows editors save as "UTF-8 with
BOM") is dropped by every reader here, so such a file reads as the same file without it
(fourth hostile pass, I1: a run file with a BOM was refused with Python's own advice,
"decode using utf-8-sig").
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from reviewer.errors import BadInputError, os_failure
from reviewer.text_rules import not_utf8, not_utf8_at

BOM = b"\xef\xbb\xbf"
CHUNK = 1 << 20
MAX_LINE = 256 << 20
"""The longest line a run file or grader input may hold (a 10,000-turn conversation
is a few megabytes)."""


def _not_text(source: object, line: int, why: str) -> BadInputError:
    return BadInputError(f"{source}:{line}: {why}: this is not a text file (JSON lines "
                         "or CSV saved as UTF-8)")


def read_line(fh: BinaryIO, source: object, number: int, max_line: int = MAX_LINE) -> bytes:
    """The next line of ``fh`` (b"" at the end), read in bounded pieces."""
    pieces: list[bytes] = []
    size = 0
    while piece := fh.readline(CHUNK):
        pieces.append(piece)
        size += len(piece)
        if piece.endswith(b"\n"):
            break
        if len(piece) == CHUNK and b"\x00" in piece:
            raise _not_text(source, number, "NUL bytes in a line of over a megabyte")
        if size > max_line:
            raise _not_text(source, number, f"a line longer than {max_line >> 20} MB")
    return b"".join(pieces)


def bounded_lines(fh: BinaryIO, source: object,
                  max_line: int = MAX_LINE) -> Iterator[tuple[int, bytes]]:
    """Every line of ``fh`` (newline kept) with its 1-based number; a byte-order mark
    starting the first line is dropped."""
    number = 1
    while raw := read_line(fh, source, number, max_line):
        yield number, raw.removeprefix(BOM) if number == 1 else raw
        number += 1


def decoded_lines(fh: BinaryIO, source: object) -> Iterator[tuple[int, str]]:
    """``bounded_lines`` decoded as UTF-8; a line that is not UTF-8 is reported at its own
    line and column."""
    for number, raw in bounded_lines(fh, source):
        try:
            yield number, raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise not_utf8_at(source, number, raw[exc.start], exc.start + 1) from None


def size_text(size: int) -> str:
    """``size`` bytes as people say it: "1 MB", "64 KB"."""
    return f"{size >> 20} MB" if size >= 1 << 20 else f"{size >> 10} KB"


def read_bounded(path: Path, limit: int, too_big: str = "split it") -> bytes:
    """The bytes of ``path``; BadInputError beyond ``limit`` bytes (``too_big`` says what
    to do), or at a line of over ``CHUNK`` bytes holding NUL bytes (a short line's NUL is
    the caller's to name)."""
    pieces: list[bytes] = []
    size = lines = line_start = 0
    nul_in_line = False
    try:
        with path.open("rb") as fh:
            while piece := fh.read(CHUNK):
                last = piece.rfind(b"\n")
                if last >= 0:
                    lines += piece.count(b"\n")
                    line_start = size + last + 1
                    nul_in_line = b"\x00" in piece[last + 1:]
                else:
                    nul_in_line = nul_in_line or b"\x00" in piece
                size += len(piece)
                if nul_in_line and size - line_start > CHUNK:
                    raise _not_text(path, lines + 1, "NUL bytes in a line of over a megabyte")
                if size > limit:
                    raise BadInputError(f"{path}: larger than {size_text(limit)}; {too_big}")
                pieces.append(piece)
    except OSError as exc:
        raise os_failure(exc, path, "read") from None
    return b"".join(pieces)


def read_text(path: Path, limit: int, what: str) -> str:
    """The UTF-8 text of the file ``path`` names, read whole, for an input that is a file
    by nature (``what``: "a prompt template", "a catalog"), with the byte-order mark
    dropped.

    Fourth hostile pass, MEM: ``prompt set juge /dev/zero``, ``import --catalog
    /dev/zero`` read until memory ran out, and the kernel's OOM killer took the process
    (and could take others). A device, a pipe (which can wait for a writer for ever) or
    a folder is refused by name before anything is read; a regular file beyond ``limit``
    bytes is refused at the limit, which the message says.
    """
    refuse_special(path, what)
    data = read_bounded(path, limit, f"{what} may be at most {size_text(limit)}")
    try:
        return data.decode("utf-8-sig")  # -sig: a leading byte-order mark is dropped
    except UnicodeDecodeError:
        raise not_utf8(path, data) from None


def refuse_special(path: Path, what: str) -> None:
    """BadInputError when ``path`` names a folder, a pipe, a device or a socket where the
    command reads ``what`` ("a catalog", "a CSV of decisions"): the one refusal of every
    input file (a FIFO with no writer waited for ever, a device read as an empty file or
    without end). Nothing there is the reader's to report."""
    kind = special_file(path)
    if kind is not None:
        raise BadInputError(f"{path}: is {kind}, not a file; give {what} saved as a file")


def special_file(path: Path) -> str | None:
    """What ``path`` is when it exists but is not a regular file ("a folder", "a pipe",
    "a device", "a socket", "not a file") or is one the kernel makes ("a kernel interface
    (proc file system)"), read through symbolic links; None for a regular file or nothing
    there. A database or a settings file that is one of these blocked or misled the
    reader (a FIFO waits for a writer for ever, ``/proc/kmsg`` for a kernel message)."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return kind_of(found)


def kind_of(found: os.stat_result) -> str | None:
    """What a file of status ``found`` is when it is no file a person saved (see
    :func:`special_file`); None for a regular file."""
    if not stat.S_ISREG(found.st_mode):
        return kind_of_mode(found.st_mode)
    system = kernel_file_system(found.st_dev)
    return None if system is None else f"a kernel interface ({system} file system)"


# File systems whose files the kernel makes as they are read: a file there looks regular
# (``/proc/kmsg``: size 0) and a read can wait for ever for the next kernel message
# (fifteenth hostile pass, P15-11), or without end (``trace_pipe``). None is an input.
KERNEL_FILE_SYSTEMS = frozenset({
    "proc", "sysfs", "debugfs", "tracefs", "securityfs", "configfs", "cgroup", "cgroup2",
    "bpf", "pstore", "efivarfs", "binfmt_misc", "fusectl", "mqueue"})


def kernel_file_system(device: int) -> str | None:
    """The name of the kernel's file system (``proc``, ``sysfs``, …) on ``device``, or None.

    Those have device numbers of major 0 (no disk behind them), so any other device is
    answered at once; for the rest (tmpfs, overlay, btrfs and NFS have them too) the
    mount table says. Not a read that waits: a first read without waiting would take a
    message from ``/proc/kmsg`` (its reads consume them) and let the next one wait, and
    a read bounded in time would refuse a slow disk's file.
    """
    if os.major(device) != 0:
        return None
    wanted = f"{os.major(device)}:{os.minor(device)}"
    try:
        with open("/proc/self/mountinfo", encoding="utf-8", errors="replace") as table:
            for line in table:
                fields = line.split()
                if len(fields) > 2 and fields[2] == wanted and " - " in line:
                    system = line.split(" - ", 1)[1].split()[0]
                    return system if system in KERNEL_FILE_SYSTEMS else None
    except OSError:  # no /proc (another system): nothing more is known
        return None
    return None


def kind_of_mode(mode: int) -> str:
    """What a file of ``mode`` that is not a regular file is, in words."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a file"

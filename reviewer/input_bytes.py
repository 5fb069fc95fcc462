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
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from reviewer.errors import BadInputError, os_failure

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
    """Every line of ``fh`` (newline kept) with its 1-based number."""
    number = 1
    while raw := read_line(fh, source, number, max_line):
        yield number, raw
        number += 1


def read_bounded(path: Path, limit: int) -> bytes:
    """The bytes of ``path``; BadInputError beyond ``limit`` bytes, or at a line of over
    ``CHUNK`` bytes holding NUL bytes (a short line's NUL is the caller's to name)."""
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
                    raise BadInputError(f"{path}: larger than {limit >> 20} MB; split it")
                pieces.append(piece)
    except OSError as exc:
        raise os_failure(exc, path, "read") from None
    return b"".join(pieces)


def special_file(path: Path) -> str | None:
    """What ``path`` is when it exists but is not a regular file ("a folder", "a pipe",
    "a device", "not a file"), read through symbolic links; None for a regular file or
    nothing there. A database or a settings file that is one of these blocked or misled
    the reader (a FIFO waits for a writer for ever)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a file"

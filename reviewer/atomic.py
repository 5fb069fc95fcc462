"""Writing files so that a failure never leaves a half-written one.

Everything goes to a temporary file in the destination's folder (same file system, so
the rename is atomic), is flushed and fsynced, then renamed over the destination. On any
error, including an interrupt, the temporary file is removed and the destination is
left as it was. A failure of the file system (disk full, file too large, a folder in the
way, no permission) is one ``ReviewerError`` line naming the destination, not a traceback.

A process killed outright (SIGKILL, power loss) cannot remove its temporary file: a
``.NAME.xxxxxxxx`` file may stay beside the destination, which is still the old file.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from reviewer.errors import ReviewerError


@contextmanager
def atomic_text(path: Path) -> Iterator[IO[str]]:
    """Open a UTF-8 text file that appears at ``path`` only if the block succeeds."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    except OSError as exc:
        raise _cannot_write(path, exc) from exc
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as out:
            yield out
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise _cannot_write(path, exc) from exc
        raise


def _cannot_write(path: Path, exc: OSError) -> ReviewerError:
    return ReviewerError(f"cannot write {path}: {exc.strerror or exc}; nothing was written "
                         "(any previous file is left as it was)")


def write_jsonl_atomic(path: Path, rows: Iterable[dict[str, Any]],
                       before_rename: Callable[[], None] | None = None) -> int:
    """Write JSONL (one compact object per line) atomically; return how many lines.

    ``before_rename`` runs once every row is written, before the file takes its place:
    a companion file written there (a manifest) makes the pair all or nothing, since a
    failure of the companion leaves the old file in place too.
    """
    count = 0
    with atomic_text(path) as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
            count += 1
        if before_rename is not None:
            before_rename()
    return count


def write_json_atomic(path: Path, data: Any) -> None:
    """Write one JSON document (indented, UTF-8) atomically."""
    with atomic_text(path) as out:
        json.dump(data, out, ensure_ascii=False, indent=2)
        out.write("\n")

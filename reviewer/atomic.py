"""Writing files so that a failure never leaves a half-written one.

Everything goes to a temporary file in the destination's folder (same file system, so
the rename is atomic), is flushed and fsynced, then renamed over the destination. On any
error, including an interrupt, the temporary file is removed and the destination is
left as it was.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any


@contextmanager
def atomic_text(path: Path) -> Iterator[IO[str]]:
    """Open a UTF-8 text file that appears at ``path`` only if the block succeeds."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as out:
            yield out
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_jsonl_atomic(path: Path, rows: Iterable[dict[str, Any]]) -> int:
    """Write JSONL (one compact object per line) atomically; return how many lines."""
    count = 0
    with atomic_text(path) as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
            count += 1
    return count


def write_json_atomic(path: Path, data: Any) -> None:
    """Write one JSON document (indented, UTF-8) atomically."""
    with atomic_text(path) as out:
        json.dump(data, out, ensure_ascii=False, indent=2)
        out.write("\n")

"""Export: ``reviewer export dataset`` vs ``json.dumps`` of the same rows to a file.

Ours reads the store, walks every conversation (choosing the accepted attempt of each
turn, or the one a reviewer restored), builds the chat examples and writes them with a
manifest, atomically. The baseline writes the very same examples, already in memory,
with ``json.dumps`` one per line and an ``fsync``. Goal: ours takes at most twice as
long. Correctness: same number of lines, same bytes.

On PostgreSQL the rows cross a socket: reading the accepted contexts alone with psycopg
took 2.4 times as long as ``json.dumps`` of the examples in memory (10,000 attempts), so
that baseline judged the driver more than the export. There, as for the import, the
judged baseline is raw psycopg: a server-side cursor over the accepted attempts' stored
contexts and answers, ``json`` both ways, ``fsync`` (``read_and_write``); the ratio to
``json.dumps`` stays in the checks as information. The file is compared byte for byte
with SQLite's export of the same run.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from benchmarks.common import Context, Result, best_time
from benchmarks.postgres import connect
from reviewer.cli.main import main as cli_main

GOAL = 2.0


def ours(db: Path | str, out: Path) -> None:
    """``reviewer export dataset OUT`` through the command line entry."""
    code = cli_main(["--db", str(db), "export", "dataset", str(out)])
    if code != 0:
        raise RuntimeError(f"reviewer export exited with {code}")


def write_rows(rows: list[Any], out: Path) -> None:
    """The baseline: one ``json.dumps`` per row, then flush and fsync."""
    with out.open("w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
        fh.flush()
        os.fsync(fh.fileno())


PLAIN_QUERY = ("SELECT {messages}, response FROM attempts WHERE accepted{true} "
               "ORDER BY conversation_id, turn, attempt")


def read_and_write(db: Path | str, out: Path) -> int:
    """Information: the plain driver reading the accepted attempts, ``json`` both ways.

    Roughly the dataset export without a framework and without the walk's checks (no
    replay, no context check): what reading and writing alone cost on this machine.
    On PostgreSQL through a server-side cursor, as a careful reader of 100,000 contexts
    would (the whole result in memory is about 300 MB).
    """
    if isinstance(db, str) and "://" in db:
        with connect(db) as conn, conn.cursor(name="plain") as cur:
            cur.itersize = 2000
            cur.execute(PLAIN_QUERY.format(messages="messages::text", true=""))
            return _write_chats(cur, out)
    lite = sqlite3.connect(db)
    try:
        return _write_chats(lite.execute(PLAIN_QUERY.format(messages="messages", true=" = 1")),
                            out)
    finally:
        lite.close()


def _write_chats(rows: Iterable[tuple[str, str]], out: Path) -> int:
    lines = 0
    with out.open("w", encoding="utf-8") as fh:
        for messages, response in rows:
            chat = [*json.loads(messages), {"role": "assistant", "content": response}]
            fh.write(json.dumps({"messages": chat}, ensure_ascii=False) + "\n")
            lines += 1
        fh.flush()
        os.fsync(fh.fileno())
    return lines


# Best of this many runs of each side: both swing by a third from run to run here
# (json.dumps of the 100k rows took 1.5 s in one run and 2.4 s in another), and a ratio
# of two single runs ranged from 1.2 to 2.1 for the same code.
REPEAT = 3


def run(ctx: Context) -> Result:
    """Export to learn the rows, then time both sides, each its own best of ``REPEAT``
    (ours first, then the baseline: alternating put ours right after the baseline's
    237 MB write, which evicted the store's pages)."""
    out, base_out = ctx.out / "dataset.jsonl", ctx.out / "dataset-baseline.jsonl"
    repeat = max(ctx.heavy_repeat, 1 if ctx.repeat <= 1 else REPEAT)
    mine = best_time(lambda: ours(ctx.db, out), repeat)
    with out.open(encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh]
    base = best_time(lambda: write_rows(rows, base_out), repeat)
    same = out.read_bytes() == base_out.read_bytes()
    # The same run exported from either backend is the same file, byte for byte.
    digest = hashlib.sha256(out.read_bytes()).hexdigest()
    ctx.state.setdefault("export_digests", {})[ctx.backend] = digest
    pg = ctx.backend == "postgresql"
    plain = best_time(lambda: read_and_write(ctx.db, base_out), repeat if pg else ctx.heavy_repeat)
    lines = len(rows)
    for path in (out, base_out):
        path.unlink(missing_ok=True)
    Path(f"{out}.manifest.json").unlink(missing_ok=True)
    checks: dict[str, Any] = {"examples": lines, "same_bytes": same,
                              "json_dumps_s": base, "ratio_to_json_dumps": mine / base,
                              "plain_read_and_write_s": plain,
                              "ratio_to_plain_read_and_write": mine / plain}
    if pg:
        base, other, other_label = plain, base, "json.dumps of the examples in memory"
    else:
        other, other_label = plain, "the plain driver's read + json both ways"
    ratio = mine / base
    sqlite_digest = ctx.state["export_digests"].get("sqlite")
    if ctx.backend != "sqlite" and sqlite_digest is not None:
        checks["same_bytes_as_sqlite"] = digest == sqlite_digest
    return Result(
        ctx.label(f"export dataset ({lines:,} examples)"), mine, base, ratio,
        f"ratio ≤ {GOAL:g}", ratio <= GOAL, checks=checks,
        note=("baseline: psycopg (server-side cursor) read + json both ways; " if pg else "")
        + f"information: {other_label} takes {other:.2f} s (ours {mine / other:.1f}×)",
    )

"""Exports: ``reviewer export …`` vs ``json.dumps`` of the same rows to the same files.

Three rows, each ours against its own baseline:

* the dataset (``export dataset OUT``): the store read, every conversation walked (the
  final status of each attempt, the attempt each context continues, tainted contexts),
  each example built, written with its manifest (sizes and SHA-256) as one unit;
* the preference pairs (``export preference OUT --include-filter-refusals``): every
  attempt's context and answer read, pairs of one context built;
* the split (``export dataset OUT --split valid=0.1``): the conversations ranked, two
  files and the manifest.

The baseline writes the very same rows, already in memory as Python objects, with one
``json.dumps`` per row into the same files, flushed and fsynced. Goal: ours takes at most
twice as long. Correctness: same lines, same bytes. The two sides are timed alternately,
each keeping its best of ``REPEAT`` runs (the machine's speed drifts between runs).

On PostgreSQL the rows cross a socket: reading the accepted contexts alone with psycopg
took 2.4 times as long as ``json.dumps`` of the examples in memory (10,000 attempts), so
that baseline judged the driver more than the export. There, as for the import, the
judged baseline of the dataset row is raw psycopg: a server-side cursor over the accepted
attempts' stored contexts and answers, ``json`` both ways, ``fsync``
(:func:`read_and_write`); the ratio to ``json.dumps`` stays in the checks as information,
and the file is compared byte for byte with SQLite's export of the same run. The
preference and split rows are measured on SQLite only: they read the same attempts
through the same walk, and each 100,000-attempt export on the server costs a minute of
the run per repeat.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from benchmarks.common import Context, Result
from benchmarks.postgres import connect
from reviewer.cli.main import main as cli_main

GOAL = 2.0
REPEAT = 3


def ours(db: Path | str, args: list[str]) -> None:
    """``reviewer export …`` through the command line entry."""
    code = cli_main(["--db", str(db), "export", *args])
    if code != 0:
        raise RuntimeError(f"reviewer export exited with {code}")


def write_rows(files: dict[Path, list[Any]]) -> None:
    """The baseline: one ``json.dumps`` per row into each file, then flush and fsync."""
    for path, rows in files.items():
        with path.open("w", encoding="utf-8") as fh:
            for row in rows:
                fh.write(json.dumps(row, ensure_ascii=False) + "\n")
            fh.flush()
            os.fsync(fh.fileno())


PLAIN_QUERY = ("SELECT {messages}, response FROM attempts WHERE accepted{true} "
               "ORDER BY conversation_id, turn, attempt")


def read_and_write(db: Path | str, out: Path) -> int:
    """The plain driver reading the accepted attempts, ``json`` both ways.

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


def _timed(step: Callable[[], Any]) -> float:
    started = time.perf_counter()
    step()
    return time.perf_counter() - started


def alternate(mine: Callable[[], Any], base: Callable[[], Any], repeat: int
              ) -> tuple[float, float]:
    """Each side's best time, the two timed one after the other ``repeat`` times."""
    best_mine = best_base = float("inf")
    for _ in range(repeat):
        best_mine = min(best_mine, _timed(mine))
        best_base = min(best_base, _timed(base))
    return best_mine, best_base


def _measure(ctx: Context, name: str, args: list[str], outputs: list[Path],
             repeat: int) -> tuple[float, float, int, bool]:
    """Export once to learn the rows, then time ours and the baseline alternately."""
    ours(ctx.db, args)
    rows = {path: [json.loads(line) for line in path.read_text(encoding="utf-8")
                   .splitlines()] for path in outputs}
    base_dir = ctx.out / f"baseline-{name}"
    base_dir.mkdir(exist_ok=True)
    targets = {base_dir / p.name: r for p, r in rows.items()}
    mine, base = alternate(lambda: ours(ctx.db, args), lambda: write_rows(targets), repeat)
    same = all(p.read_bytes() == (base_dir / p.name).read_bytes() for p in outputs)
    shutil.rmtree(base_dir)
    return mine, base, sum(len(r) for r in rows.values()), same


def _result(label: str, what: str, mine: float, base: float, lines: int, same: bool,
            **checks: Any) -> Result:
    ratio = mine / base
    return Result(f"{label} ({lines:,} {what})", mine, base, ratio, f"ratio ≤ {GOAL:g}",
                  ratio <= GOAL, checks={what: lines, "same_bytes": same, **checks})


def _dataset(ctx: Context, repeat: int) -> Result:
    """The dataset row; on PostgreSQL judged against psycopg (module docstring)."""
    out, plain_out = ctx.out / "dataset.jsonl", ctx.out / "plain.jsonl"
    mine, base, lines, same = _measure(ctx, "dataset", ["dataset", str(out)], [out], repeat)
    # The same run exported from either backend is the same file, byte for byte.
    digest = hashlib.sha256(out.read_bytes()).hexdigest()
    ctx.state.setdefault("export_digests", {})[ctx.backend] = digest
    pg = ctx.backend == "postgresql"
    if pg:  # the judged baseline, timed alternately with ours
        mine, plain = alternate(lambda: ours(ctx.db, ["dataset", str(out)]),
                                lambda: read_and_write(ctx.db, plain_out), repeat)
    else:
        plain = min(_timed(lambda: read_and_write(ctx.db, plain_out))
                    for _ in range(max(ctx.heavy_repeat, 1)))
    checks: dict[str, Any] = {"json_dumps_s": base, "ratio_to_json_dumps": mine / base,
                              "plain_read_and_write_s": plain,
                              "ratio_to_plain_read_and_write": mine / plain}
    sqlite_digest = ctx.state["export_digests"].get("sqlite")
    if pg and sqlite_digest is not None:
        checks["same_bytes_as_sqlite"] = digest == sqlite_digest
    if pg:
        row = _result(ctx.label("export dataset"), "examples", mine, plain, lines, same,
                      **checks)
        row.note = ("baseline: psycopg (server-side cursor) read + json both ways; "
                    f"information: json.dumps of the examples in memory takes {base:.2f} s "
                    f"(ours {mine / base:.1f}×)")
    else:
        row = _result("export dataset", "examples", mine, base, lines, same, **checks)
        row.note = (f"information: plain sqlite3 read + json both ways takes {plain:.2f} s "
                    f"(ours {mine / plain:.1f}×)")
    for path in (out, plain_out):
        path.unlink(missing_ok=True)
        Path(f"{path}.manifest.json").unlink(missing_ok=True)
    return row


def run(ctx: Context) -> list[Result]:
    """The three rows (see the module docstring); the dataset's alone on PostgreSQL."""
    repeat = max(ctx.heavy_repeat, 1 if ctx.repeat <= 1 else REPEAT)
    dataset = _dataset(ctx, repeat)
    if ctx.backend != "sqlite":
        return [dataset]

    pairs = ctx.out / "pairs.jsonl"
    mine, base, lines, same = _measure(
        ctx, "preference", ["preference", str(pairs), "--include-filter-refusals"], [pairs],
        repeat)
    preference = _result("export preference --include-filter-refusals", "pairs", mine, base,
                         lines, same)

    folder = ctx.out / "split"
    mine, base, lines, same = _measure(
        ctx, "split", ["dataset", str(folder), "--split", "valid=0.1"],
        [folder / "train.jsonl", folder / "valid.jsonl"], repeat)
    split = _result("export split (dataset, valid=0.1)", "examples", mine, base, lines,
                    same)

    pairs.unlink(missing_ok=True)
    Path(f"{pairs}.manifest.json").unlink(missing_ok=True)
    shutil.rmtree(folder, ignore_errors=True)
    return [dataset, preference, split]

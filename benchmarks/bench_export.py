"""Export: ``reviewer export dataset`` vs ``json.dumps`` of the same rows to a file.

Ours reads the store, walks every conversation (choosing the accepted attempt of each
turn, or the one a reviewer restored), builds the chat examples and writes them with a
manifest, atomically. The baseline writes the very same examples, already in memory,
with ``json.dumps`` one per line and an ``fsync``. Goal: ours takes at most twice as
long. Correctness: same number of lines, same bytes.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from benchmarks.common import Context, Result, best_time
from reviewer.cli.main import main as cli_main

GOAL = 2.0


def ours(db: Path, out: Path) -> None:
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


def run(ctx: Context) -> Result:
    """Export once to learn the rows, then time both sides."""
    out, base_out = ctx.out / "dataset.jsonl", ctx.out / "dataset-baseline.jsonl"
    mine = best_time(lambda: ours(ctx.db_path, out), ctx.repeat)
    with out.open(encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh]
    base = best_time(lambda: write_rows(rows, base_out), ctx.repeat)
    same = out.read_bytes() == base_out.read_bytes()
    lines = len(rows)
    for path in (out, base_out):
        path.unlink(missing_ok=True)
    Path(f"{out}.manifest.json").unlink(missing_ok=True)
    ratio = mine / base
    return Result(
        f"export dataset ({lines:,} examples)", mine, base, ratio, f"ratio ≤ {GOAL:g}",
        ratio <= GOAL, checks={"examples": lines, "same_bytes": same},
    )

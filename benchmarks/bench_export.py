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
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.common import Context, Result
from reviewer.cli.main import main as cli_main

GOAL = 2.0
REPEAT = 3


def ours(db: Path, args: list[str]) -> None:
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


def read_and_write(db: Path, out: Path) -> int:
    """Information: plain sqlite3 reading the accepted attempts, ``json`` both ways.

    Roughly the dataset export without a framework and without the walk's checks (no
    replay, no context check): what reading and writing alone cost on this machine.
    """
    conn = sqlite3.connect(db)
    lines = 0
    try:
        rows = conn.execute(
            "SELECT messages, response FROM attempts WHERE accepted = 1 "
            "ORDER BY conversation_id, turn, attempt")
        with out.open("w", encoding="utf-8") as fh:
            for messages, response in rows:
                chat = [*json.loads(messages), {"role": "assistant", "content": response}]
                fh.write(json.dumps({"messages": chat}, ensure_ascii=False) + "\n")
                lines += 1
            fh.flush()
            os.fsync(fh.fileno())
    finally:
        conn.close()
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
    ours(ctx.db_path, args)
    rows = {path: [json.loads(line) for line in path.read_text(encoding="utf-8")
                   .splitlines()] for path in outputs}
    base_dir = ctx.out / f"baseline-{name}"
    base_dir.mkdir(exist_ok=True)
    targets = {base_dir / p.name: r for p, r in rows.items()}
    mine, base = alternate(lambda: ours(ctx.db_path, args), lambda: write_rows(targets),
                           repeat)
    same = all(p.read_bytes() == (base_dir / p.name).read_bytes() for p in outputs)
    shutil.rmtree(base_dir)
    return mine, base, sum(len(r) for r in rows.values()), same


def _result(label: str, what: str, mine: float, base: float, lines: int, same: bool,
            **checks: Any) -> Result:
    ratio = mine / base
    return Result(f"{label} ({lines:,} {what})", mine, base, ratio, f"ratio ≤ {GOAL:g}",
                  ratio <= GOAL, checks={what: lines, "same_bytes": same, **checks})


def run(ctx: Context) -> list[Result]:
    """The three rows (see the module docstring)."""
    repeat = max(ctx.heavy_repeat, 1 if ctx.repeat <= 1 else REPEAT)
    out = ctx.out / "dataset.jsonl"
    mine, base, lines, same = _measure(ctx, "dataset", ["dataset", str(out)], [out], repeat)
    plain = min(_timed(lambda: read_and_write(ctx.db_path, ctx.out / "plain.jsonl"))
                for _ in range(max(ctx.heavy_repeat, 1)))
    dataset = _result("export dataset", "examples", mine, base, lines, same,
                      plain_read_and_write_s=plain,
                      ratio_to_plain_read_and_write=mine / plain)
    dataset.note = (f"information: plain sqlite3 read + json both ways takes {plain:.2f} s "
                    f"(ours {mine / plain:.1f}×)")

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

    for path in (out, pairs, ctx.out / "plain.jsonl"):
        path.unlink(missing_ok=True)
        Path(f"{path}.manifest.json").unlink(missing_ok=True)
    shutil.rmtree(folder, ignore_errors=True)
    return [dataset, preference, split]

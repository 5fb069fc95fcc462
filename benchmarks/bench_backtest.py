"""Back-test: ``reviewer.backtest.backtest`` vs a loop of ``re.search`` over texts in memory.

A back-test runs the check's current pattern and a candidate on every stored response.
The baseline does the same two searches per text with the standard ``re`` module, over
responses already loaded in a list. Goal: ours (reading the store, the per-text time
bound of the ``regex`` module, keys, agreement) takes at most 1.5 times as long.
Correctness: both count the same failures for each pattern.
"""

from __future__ import annotations

import re
import sqlite3

from benchmarks.common import Context, Result, best_time, timed
from reviewer.revise.backtest import backtest
from reviewer.rule.checks import CheckPattern
from reviewer.store import open_store

GOAL = 1.5
CHECK = "D-COMMERCE"
OLD = r"inscri(vez|re|ption)"
NEW = r"inscri(vez|ption)|premium|abonne"


def run(ctx: Context) -> Result:
    """Time both sides; the responses for the baseline are loaded beforehand (untimed)."""
    conn = sqlite3.connect(ctx.db_path)
    texts = [t for (t,) in conn.execute("SELECT response FROM attempts ORDER BY id")]
    conn.close()
    old, new = re.compile(OLD, re.IGNORECASE), re.compile(NEW, re.IGNORECASE)

    def baseline() -> tuple[int, int]:
        old_hits = new_hits = 0
        for text in texts:
            old_hits += old.search(text) is not None
            new_hits += new.search(text) is not None
        return old_hits, new_hits

    store = open_store(str(ctx.db_path))
    try:
        with store.session() as session:
            def ours() -> object:
                return backtest(session, CHECK, CheckPattern(NEW, "i"), budget=None)
            mine = best_time(ours, ctx.heavy_repeat)
            result = ours()
    finally:
        store.close()
    base = best_time(baseline, ctx.heavy_repeat)
    _, (old_hits, new_hits) = timed(baseline)
    ratio = mine / base
    return Result(
        f"back-test over {len(texts):,} responses", mine, base, ratio, f"ratio ≤ {GOAL:g}",
        ratio <= GOAL,
        checks={"attempts": result.attempts, "texts": len(texts),
                "old_failures": result.old_failures, "baseline_old_hits": old_hits,
                "new_failures": result.new_failures, "baseline_new_hits": new_hits,
                "same_counts": (result.old_failures, result.new_failures)
                == (old_hits, new_hits) and result.attempts == len(texts)},
    )

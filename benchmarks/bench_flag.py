"""Contradiction tier over every stored verdict: ``reviewer flag`` (rules tier), verdicts/s.

There is no baseline: the goal is a rate, at least 50,000 verdicts per second end to end
(read the verdicts, score them, write the flags and each attempt's score). The detector
alone, on verdicts in memory, is measured by ``bench_contradiction``.
"""

from __future__ import annotations

from typing import Any

from benchmarks.common import Context, Result, timed
from reviewer.contradiction import engine
from reviewer.contradiction.flagging import flag_all
from reviewer.store import open_store

GOAL = 50_000.0


def flag(db: Any) -> tuple[float, Any]:
    """Flag every verdict of the store at ``db``; seconds and counts."""
    store = open_store(str(db))
    try:
        return timed(lambda: flag_all(store))
    finally:
        store.close()


def run(ctx: Context) -> Result:
    """Flag the store (its flags and scores are what the queue filters and sorts on)."""
    seconds, counts = flag(ctx.db)
    rate = counts.verdicts / seconds
    return Result(
        ctx.label(f"flag {counts.verdicts:,} verdicts"), rate, None, None,
        f"≥ {GOAL:,.0f} verdicts/s",
        rate >= GOAL, unit="verdicts/s",
        checks={"verdicts": counts.verdicts, "attempts": counts.attempts,
                "flagged": counts.flagged, "flagged_attempts": counts.flagged_attempts,
                "seconds": seconds, "compiled_scanner": engine.COMPILED},
        # A scanner edited since the last build runs pure Python, three times slower:
        # say which one this row measured (`make` rebuilds it).
        note="compiled scanner" if engine.COMPILED else
        "PURE-PYTHON scanner (compiled copy missing or stale: scripts/build_compiled.py)",
    )

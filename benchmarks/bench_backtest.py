"""Back-test: ``reviewer.backtest.backtest`` vs a loop of ``re.search`` over texts in memory.

A back-test runs the check's current pattern and a candidate on every stored response.
The baseline does the same two searches per text with the standard ``re`` module, over
responses already loaded in a list. Goal: ours (reading the store, the per-text time
bound of the ``regex`` module, keys, agreement) takes at most 1.5 times as long.
Correctness: both count the same failures for each pattern.

Second row: the same back-test with both patterns in the ``ecmascript`` dialect (V8, as
the team's TypeScript filter runs them), on a copy of the store where D-COMMERCE's
current version is ``ecmascript``. Goal: at most 3 times the ``python`` back-test, with
the same counts (these patterns read alike in both dialects on these texts).
"""

from __future__ import annotations

import re
import sqlite3
import tempfile
from pathlib import Path

from benchmarks.common import Context, Result, best_time, timed
from reviewer.catalog.spec import CheckSpec
from reviewer.catalog.versions import add_check_version, current_check_versions
from reviewer.revise.backtest import BacktestResult, backtest
from reviewer.rule.checks import CheckPattern
from reviewer.store import open_store

GOAL = 1.5
ECMASCRIPT_GOAL = 3.0
CHECK = "D-COMMERCE"
OLD = r"inscri(vez|re|ption)"
NEW = r"inscri(vez|ption)|premium|abonne"


def _time_backtest(db: Path, dialect: str, repeat: int) -> tuple[float, BacktestResult]:
    store = open_store(str(db))
    try:
        with store.session() as session:
            def ours() -> BacktestResult:
                return backtest(session, CHECK, CheckPattern(NEW, "i", dialect=dialect),
                                budget=None)
            ours()  # warm-up: V8 starts
            return best_time(ours, repeat), ours()
    finally:
        store.close()


def _ecmascript_copy(db: Path, folder: Path) -> Path:
    """A copy of the store whose D-COMMERCE current version is the same pattern in JS."""
    copy = folder / "ecmascript.sqlite3"
    src, dst = sqlite3.connect(db), sqlite3.connect(copy)
    src.backup(dst)
    src.close()
    dst.close()
    store = open_store(str(copy))
    try:
        with store.session() as s:
            cv = current_check_versions(s)[CHECK]
            add_check_version(s, CheckSpec(CHECK, cv.description, cv.pattern, cv.flags,
                                           cv.mode, cv.when, "ecmascript"), reason="bench")
    finally:
        store.close()
    return copy


def run_ecmascript(ctx: Context, python_s: float, python: BacktestResult) -> Result:
    """The ecmascript back-test against the python one, on the same responses."""
    with tempfile.TemporaryDirectory(dir=ctx.out) as folder:
        copy = _ecmascript_copy(ctx.db_path, Path(folder))
        seconds, result = _time_backtest(copy, "ecmascript", ctx.heavy_repeat)
    ratio = seconds / python_s
    return Result(
        f"ECMAScript back-test over {result.attempts:,} responses (vs python)", seconds,
        python_s, ratio, f"ratio ≤ {ECMASCRIPT_GOAL:g}", ratio <= ECMASCRIPT_GOAL,
        checks={"attempts": result.attempts, "old_failures": result.old_failures,
                "new_failures": result.new_failures,
                "same_counts": (result.attempts, result.old_failures, result.new_failures,
                                result.removed, result.added)
                == (python.attempts, python.old_failures, python.new_failures,
                    python.removed, python.added)},
        note="baseline: the python back-test of the row above")


def run(ctx: Context) -> list[Result]:
    """Both rows: python against a loop of re.search, ecmascript against python."""
    first, python_s, python = run_python(ctx)
    return [first, run_ecmascript(ctx, python_s, python)]


def run_python(ctx: Context) -> tuple[Result, float, BacktestResult]:
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
            def ours() -> BacktestResult:
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
    ), mine, result

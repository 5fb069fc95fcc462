"""Queue: the queries behind the app's queue model, at full size vs on 1,000 attempts.

For each filter the app offers (criterion, failed check, flagged only, review state, a
search word, everything sorted) it times what a filter change costs: the first page of
200 rows (``queue_page``) and the status bar counts (``queue_progress``). Goals: at most
three times the cost on 1,000 attempts (the cost does not grow with the store) and under
100 ms each at full size.
"""

from __future__ import annotations

from pathlib import Path

from benchmarks.common import Context, Result, best_time
from reviewer.queue import QueueFilter, queue_page, queue_progress
from reviewer.store import open_store

RATIO_GOAL = 3.0
ABSOLUTE_GOAL_S = 0.100
REVIEWER = "bench"
FILTERS: dict[str, QueueFilter] = {
    "refused by score": QueueFilter(reviewer=REVIEWER),
    "criterion G-DEMANDE": QueueFilter(criterion="G-DEMANDE", reviewer=REVIEWER),
    "check D-COMMERCE": QueueFilter(check="D-COMMERCE", reviewer=REVIEWER),
    "flagged only": QueueFilter(flagged_only=True, reviewer=REVIEWER),
    "to review": QueueFilter(review_state="to_review", reviewer=REVIEWER),
    "reviewed": QueueFilter(review_state="reviewed", reviewer=REVIEWER),
    "search conciliateur": QueueFilter(search="conciliateur", reviewer=REVIEWER),
    "all attempts sorted": QueueFilter(include_accepted=True, reviewer=REVIEWER),
}


def measure(db: Path, f: QueueFilter, repeat: int) -> tuple[float, int, int]:
    """Best time of first page + counts, the page's length and the total."""
    store = open_store(str(db))
    try:
        with store.session() as session:
            def once() -> None:
                queue_page(session, f)
                queue_progress(session, f)
            once()  # the first call compiles and warms the page cache for both sizes
            seconds = best_time(once, repeat)
            rows = len(queue_page(session, f))
            total = queue_progress(session, f)[1]
    finally:
        store.close()
    return seconds, rows, total


def run(ctx: Context) -> list[Result]:
    """One result per filter."""
    results = []
    for label, f in FILTERS.items():
        big, rows, total = measure(ctx.db_path, f, ctx.repeat)
        small, small_rows, small_total = measure(ctx.small_db_path, f, ctx.repeat)
        ratio = big / small
        results.append(Result(
            f"queue: {label}", big, small, ratio,
            f"ratio ≤ {RATIO_GOAL:g} and < {ABSOLUTE_GOAL_S * 1000:.0f} ms",
            ratio <= RATIO_GOAL and big < ABSOLUTE_GOAL_S,
            checks={"rows": rows, "total": total, "small_rows": small_rows,
                    "small_total": small_total},
            note=f"baseline: the same on {ctx.state.get('small_attempts', 1000):,} attempts",
        ))
    return results

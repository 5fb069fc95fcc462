"""Queue: the query behind the app's queue model, at full size vs on 1,000 attempts.

For each filter the app offers (criterion, failed check, flagged only, review state, a
search word, everything sorted) it times what the queue model runs when the filter
changes: the first page of 200 rows (``queue_page``). Goals: at most three times the
cost on 1,000 attempts (the cost does not grow with the store) and under 100 ms at full
size. The status bar's counts (``queue_progress``) run in the background after the page
is shown; their time is reported too, as information: a count visits every match, so
it grows with the number of matches.

Where the small store holds fewer matches than a page (a selective filter on 1,000
attempts), its page is shorter and cheaper; the same number of rows read from the big
store (``rows_like_small_s``) separates the store's size from the page's length, as information.
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
    # A word reviewers look for (a sales pitch); a word in a third of all answers would
    # cost in proportion to its matches, which the count has to visit.
    "search premium": QueueFilter(search="premium", reviewer=REVIEWER),
    "all attempts sorted": QueueFilter(include_accepted=True, reviewer=REVIEWER),
}


def measure(db: Path, f: QueueFilter, repeat: int,
            rows_like: int | None = None) -> tuple[float, float, int, int, float]:
    """Best time of the first page and of the counts, the page's length, the total, and
    the best time of a first page cut to ``rows_like`` rows (0.0 when not asked)."""
    store = open_store(str(db))
    try:
        with store.session() as session:
            queue_page(session, f)  # the first call compiles the statement (cached after)
            queue_progress(session, f)
            page = best_time(lambda: queue_page(session, f), repeat)
            counts = best_time(lambda: queue_progress(session, f), repeat)
            rows = len(queue_page(session, f))
            total = queue_progress(session, f)[1]
            same = best_time(lambda: queue_page(session, f, 0, rows_like), repeat) \
                if rows_like is not None else 0.0
    finally:
        store.close()
    return page, counts, rows, total, same


def run(ctx: Context) -> list[Result]:
    """One result per filter."""
    results = []
    for label, f in FILTERS.items():
        small, small_counts, small_rows, small_total, _ = measure(ctx.small_db_path, f,
                                                                  ctx.repeat)
        big, big_counts, rows, total, same = measure(ctx.db_path, f, ctx.repeat, small_rows)
        ratio = big / small
        results.append(Result(
            f"queue: {label}", big, small, ratio,
            f"ratio ≤ {RATIO_GOAL:g} and < {ABSOLUTE_GOAL_S * 1000:.0f} ms",
            ratio <= RATIO_GOAL and big < ABSOLUTE_GOAL_S,
            checks={"rows": rows, "total": total, "small_rows": small_rows,
                    "small_total": small_total, "counts_s": big_counts,
                    "small_counts_s": small_counts, "rows_like_small_s": same,
                    "rows_like_small_ratio": same / small},
            note=f"first page; baseline: the same on {ctx.state.get('small_attempts', 1000):,}"
                 f" attempts; status-bar counts {big_counts * 1000:.0f} ms"
                 f" ({small_counts * 1000:.0f} ms small); the first {small_rows} rows"
                 f" {same * 1000:.1f} ms (ratio {same / small:.2f})",
        ))
    return results

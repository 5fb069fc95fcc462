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

from typing import Any

from sqlalchemy import event

from benchmarks.common import Context, Result, best_time
from reviewer.review.queue import QueueFilter, queue_page, queue_progress
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


def measure(small_db: str, big_db: str, f: QueueFilter, repeat: int) -> dict[str, Any]:
    """Best times of the first page and of the counts on both stores, their lengths and
    totals, and the best time of the big store's first page cut to the small page's
    length.

    The two stores are timed alternately, run after run: the shared machine's speed
    drifts over seconds, and a ratio of two minima taken minutes apart measured the
    drift as much as the store's size.
    """
    small_store, big_store = open_store(small_db), open_store(big_db)
    try:
        with small_store.session() as small, big_store.session() as big:
            for session in (small, big):
                queue_page(session, f)  # the first call compiles the statement
                queue_progress(session, f)
            rows_small = len(queue_page(small, f))
            best = {"page": [float("inf")] * 2, "counts": [float("inf")] * 2,
                    "cut": [float("inf")]}
            for _ in range(max(repeat, 1)):
                for i, session in enumerate((small, big)):
                    best["page"][i] = min(best["page"][i], best_time(
                        lambda s=session: queue_page(s, f), 1))
                    best["counts"][i] = min(best["counts"][i], best_time(
                        lambda s=session: queue_progress(s, f), 1))
                best["cut"][0] = min(best["cut"][0], best_time(
                    lambda: queue_page(big, f, 0, rows_small), 1))
            return {
                "small": best["page"][0], "big": best["page"][1],
                "small_counts": best["counts"][0], "big_counts": best["counts"][1],
                "small_rows": rows_small, "rows": len(queue_page(big, f)),
                "small_total": queue_progress(small, f)[1],
                "total": queue_progress(big, f)[1], "cut": best["cut"][0],
            }
    finally:
        small_store.close()
        big_store.close()


# A page takes milliseconds: best of this many runs (timeit's way), so that one run
# disturbed by the shared machine does not decide a ratio. Smoke runs keep their one.
PAGE_REPEAT = 20


def page_plan(db: str, f: QueueFilter) -> list[str]:
    """PostgreSQL: ``EXPLAIN (ANALYZE, BUFFERS)`` of the first page's main statement."""
    from benchmarks.postgres import explain

    seen: list[tuple[str, Any]] = []
    store = open_store(db)
    event.listen(store.engine, "before_cursor_execute",
                 lambda _c, _cur, statement, params, *_a: seen.append((statement, params)))
    try:
        with store.session() as session:
            queue_page(session, f)
    finally:
        store.close()
    statement, params = max((s for s in seen if not s[0].startswith("EXPLAIN")),
                            key=lambda s: len(s[0]))
    return explain(db, statement, params)


def run(ctx: Context) -> list[Result]:
    """One result per filter."""
    results = []
    repeat = ctx.repeat if ctx.repeat <= 1 else max(ctx.repeat, PAGE_REPEAT)
    for label, f in FILTERS.items():
        m = measure(ctx.small_db, ctx.db, f, repeat)
        big, small, same = m["big"], m["small"], m["cut"]
        ratio = big / small
        results.append(Result(
            ctx.label(f"queue: {label}"), big, small, ratio,
            f"ratio ≤ {RATIO_GOAL:g} and < {ABSOLUTE_GOAL_S * 1000:.0f} ms",
            ratio <= RATIO_GOAL and big < ABSOLUTE_GOAL_S,
            checks={"rows": m["rows"], "total": m["total"], "small_rows": m["small_rows"],
                    "small_total": m["small_total"], "counts_s": m["big_counts"],
                    "small_counts_s": m["small_counts"], "rows_like_small_s": same,
                    "rows_like_small_ratio": same / small},
            note=f"first page; baseline: the same on {ctx.state.get('small_attempts', 1000):,}"
                 f" attempts, timed alternately; status-bar counts"
                 f" {m['big_counts'] * 1000:.0f} ms ({m['small_counts'] * 1000:.0f} ms small);"
                 f" the first {m['small_rows']} rows {same * 1000:.1f} ms"
                 f" (ratio {same / small:.2f})",
        ))
    if ctx.backend == "postgresql":
        slowest = max(range(len(results)), key=lambda i: results[i].ours or 0.0)
        results[slowest].checks["explain"] = page_plan(ctx.db, list(FILTERS.values())[slowest])
    return results

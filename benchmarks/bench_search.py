"""Search: the queue's first page under a two-word search, a query at the bound, and the
refusal of queries over it.

The two-word searches are timed like the queue's filters (``bench_queue.measure``: the
first page on the big store and on the 1,000-attempt one, alternately, best of 20; the
status-bar count as information). Goal: under 100 ms. A query of ``MAX_WORDS`` words
(the 64 commonest words of the stored answers: every one a prefix that matches most
attempts, the costliest query the bound lets through) is timed page and count together,
as information: what such a query costs is the commonness of its words (each a prefix to
expand over every attempt holding it) more than their number. A query of 1,000 words and
one of 20,000 are refused with one line, and no statement reaches the database. On
PostgreSQL, with SQLite's store of the same run at hand, the attempts each query finds
are compared with SQLite's.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from sqlalchemy import event, select, text

from benchmarks.bench_queue import ABSOLUTE_GOAL_S, REVIEWER, measure
from benchmarks.common import Context, Result, best_time, timed
from models import Attempt
from reviewer.errors import BadInputError
from reviewer.review.queue import QueueFilter, queue_count, queue_page
from reviewer.store import open_store, search

QUERIES = {
    "two words, selective": "premium offre",  # a sales pitch: about 1 refusal in 40
    "two words, common": "perceuse syndic",  # about 1 refusal in 8
}
PAGE_REPEAT = 20


def commonest_words(db: str, count: int, sample: int = 500) -> list[str]:
    """The ``count`` commonest words of the first ``sample`` stored answers."""
    store = open_store(db)
    try:
        with store.session() as s:
            texts = s.scalars(select(Attempt.response).order_by(Attempt.id).limit(sample))
            counts = Counter(w for t in texts for w in set(search.WORD.findall(search.fold(t))))
    finally:
        store.close()
    return [w for w, _ in counts.most_common(count)]


def _pages(ctx: Context, repeat: int) -> list[Result]:
    results = []
    for label, query in QUERIES.items():
        m = measure(ctx.small_db, ctx.db, QueueFilter(search=query, reviewer=REVIEWER), repeat)
        big, small = m["big"], m["small"]
        results.append(Result(
            ctx.label(f"search {label} “{query}”: first page"), big, small, big / small,
            f"< {ABSOLUTE_GOAL_S * 1000:.0f} ms", big < ABSOLUTE_GOAL_S,
            checks={"rows": m["rows"], "total": m["total"], "small_rows": m["small_rows"],
                    "small_total": m["small_total"], "counts_s": m["big_counts"]},
            note=f"{m['total']:,} matches among the refused; baseline: the same on "
                 f"{ctx.state.get('small_attempts', 1000):,} attempts; status-bar count "
                 f"{m['big_counts'] * 1000:.0f} ms",
        ))
    return results


def _at_bound(ctx: Context, repeat: int) -> Result:
    words = commonest_words(ctx.db, search.MAX_WORDS)
    f = QueueFilter(search=" ".join(words), reviewer=REVIEWER, include_accepted=True)
    store = open_store(ctx.db)
    try:
        with store.session() as s:
            queue_page(s, f)  # compiles the statement

            def page_and_count() -> tuple[int, int]:
                return len(queue_page(s, f)), queue_count(s, f)

            seconds = best_time(page_and_count, repeat)
            rows, total = page_and_count()
    finally:
        store.close()
    return Result(
        ctx.label(f"search at the bound ({len(words)} common words): page and count"),
        seconds, None, None, "answers (time: information)", rows >= 0,
        checks={"words": len(words), "page_rows": rows, "matches": total},
        note="every word a prefix most answers hold: the costliest query the bound admits; "
             "its cost is the words' commonness more than their number (see "
             "docs/reliability.md)",
    )


def _refused(ctx: Context, words: int) -> Result:
    query = " ".join(f"mot{n}" for n in range(words))
    store = open_store(ctx.db)
    statements: list[str] = []
    event.listen(store.engine, "before_cursor_execute",
                 lambda _c, _cur, statement, *_a: statements.append(statement))
    try:
        with store.session() as s:
            def refuse() -> str:
                try:
                    queue_page(s, QueueFilter(search=query, reviewer=REVIEWER))
                except BadInputError as exc:
                    return str(exc)
                return ""

            seconds, message = timed(refuse)
    finally:
        store.close()
    return Result(
        ctx.label(f"search of {words:,} words"), seconds, None, None,
        "refused in one line, before the database", bool(message) and "\n" not in message
        and not statements,
        checks={"refused": bool(message) and "\n" not in message,
                "no_statement": not statements, "message": message},
        note=message,
    )


def _same_as_sqlite(ctx: Context, queries: list[str]) -> dict[str, Any]:
    """On PostgreSQL: the keys each query finds, compared with SQLite's store of the run."""
    if ctx.backend == "sqlite" or not ctx.db_path.exists():
        return {}
    found = []
    for db in (str(ctx.db_path), ctx.db):
        store = open_store(db)
        try:
            with store.session() as s:
                keys = dict(s.execute(text(
                    "SELECT a.id, r.name || '/' || c.name || '/' || a.turn || '/' || a.attempt "
                    "FROM attempts a JOIN conversations c ON c.id = a.conversation_id "
                    "JOIN runs r ON r.id = a.run_id")).all())
                found.append((set(keys.values()),
                              [{keys[i] for i in search.search_ids(s, q)} for q in queries]))
        finally:
            store.close()
    if found[0][0] != found[1][0]:
        return {}  # SQLite's store holds another run (``--backend postgresql`` alone)
    return {"same_matches_as_sqlite": found[0][1] == found[1][1],
            "compared_queries": len(queries)}


def run(ctx: Context) -> list[Result]:
    """The page rows, the bound, the refusals."""
    repeat = ctx.repeat if ctx.repeat <= 1 else max(ctx.repeat, PAGE_REPEAT)
    results = _pages(ctx, repeat)
    results.append(_at_bound(ctx, ctx.repeat))
    results.extend(_refused(ctx, n) for n in (1000, 20_000))
    parity = _same_as_sqlite(ctx, [*QUERIES.values(), "conciliateur", "l'école", "3114",
                                   "évènement", "100 %", "foo_bar", "peut-être", "aboie chien"])
    results[0].checks.update(parity)
    return results

"""Full-text search over responses and rationales, the same language on both backends.

A query is words (runs of letters and digits; everything else separates them); an
attempt matches when its text holds, for every word, a word starting with it. Accents and
case are ignored: "evenement" finds "Événement". A query with no word searches nothing
(the queue is not filtered).

SQLite: an FTS5 index (``unicode61 remove_diacritics 2``) filled at import. PostgreSQL
(migration 0012): ``attempt_search``, one tsvector per attempt under a GIN index, its
words folded like FTS5's (``document_words``), filled at import and kept by triggers when
a second opinion or a re-judge adds a rationale.

A query is bounded (``MAX_WORDS`` words, ``MAX_QUERY_CHARS`` characters): beyond, it is
refused with a one-line ``BadInputError`` before anything reaches the database.
"""

from __future__ import annotations

import math
import re
import unicodedata
from functools import cache
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Integer,
    Select,
    TableClause,
    Text,
    bindparam,
    cast,
    column,
    false,
    func,
    literal_column,
    select,
    table,
    text,
    union_all,
)
from sqlalchemy.orm import Session

from models import Attempt
from reviewer.errors import BadInputError
from reviewer.store.membership import hashed, more_than

# Letters and digits: the characters FTS5's unicode61 tokenizer keeps in a word. "_" is a
# word character for Python's \w but a separator for FTS5, so "a_b" is two words.
WORD = re.compile(r"[^\W_]+", re.UNICODE)
# A reviewer types a few words, or pastes a sentence to find where it came from. The cost
# of a search grows with its words (each is a prefix to expand in the index: a 1,000-word
# query took 29 s with the old LIKE search), so a query is capped well above any sentence:
# a pasted paragraph is refused with a message saying to shorten it.
MAX_WORDS = 64
MAX_QUERY_CHARS = 1000


def fold(value: str) -> str:
    """Lower-case and strip diacritics, the way the index compares words."""
    decomposed = unicodedata.normalize("NFKD", value.lower())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def words(query: str) -> list[str]:
    """The searchable words of a query, folded, each once, in order.

    Raises BadInputError for a query over the bound (``MAX_WORDS``, ``MAX_QUERY_CHARS``).
    """
    found = list(dict.fromkeys(WORD.findall(fold(query))))
    if not found and query.strip():
        # `%`, `_` or `a*` matched every attempt as an empty search would, without a word
        # (fifteenth hostile pass, P15-13 (5)).
        shown = query if len(query) <= 40 else query[:39] + "…"
        raise BadInputError(f"the search {shown!r} holds no word: it matches whole words "
                            "and their beginnings (letters and digits); punctuation and "
                            "'*' are not searched")
    if len(found) > MAX_WORDS:
        raise BadInputError(f"search too long: {len(found):,} words (at most {MAX_WORDS}); "
                            "search for a few of them")
    if len(query) > MAX_QUERY_CHARS:
        raise BadInputError(f"search too long: {len(query):,} characters (at most "
                            f"{MAX_QUERY_CHARS:,}); search for a few of its words")
    return found


# PostgreSQL's index (migration 0012): each attempt's words folded as FTS5's unicode61
# tokenizer folds them (decomposed, lower-cased, combining marks removed), distinct. Here
# rather than on the server: PostgreSQL's regular expressions and normalize() cost 3.8 ms
# per attempt, this a tenth. The migration's triggers fold the texts written later on the
# server, with the same result for every code point (tests/store/test_search.py).
MARKS = re.compile("[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")
# A tsvector word is at most 2 kB (PostgreSQL skips longer ones), the whole at most 1 MB.
MAX_WORD_BYTES = 2047
MAX_DOCUMENT_BYTES = 1 << 19


class _WordTable(dict[int, str | None]):
    """``str.translate`` table, filled as characters are met: a combining mark is removed,
    a character that is not a letter or a digit becomes a space (``WORD``'s classes,
    decided per character, so one table pass equals removing the marks then finding the
    words: three times faster than the two regular expressions)."""

    def __missing__(self, code: int) -> str | None:
        char = chr(code)
        value = None if MARKS.match(char) else char if WORD.fullmatch(char) else " "
        self[code] = value
        return value


_WORDS = _WordTable()


def document_words(body: str) -> str:
    """The distinct folded words of ``body``, space-separated, as PostgreSQL indexes them.

    A word over 2 kB, and the words past half a megabyte of them (a tsvector holds at
    most 1 MB), are left out: no search could type the one, no answer holds the other.
    """
    found = dict.fromkeys(unicodedata.normalize("NFD", body).lower().translate(_WORDS).split())
    if len(body) * 4 < MAX_DOCUMENT_BYTES and max(map(len, found), default=0) * 4 <= MAX_WORD_BYTES:
        return " ".join(found)  # nothing near either limit, even at 4 bytes a character
    kept: list[str] = []
    size = 0
    for word in found:
        length = len(word.encode("utf-8"))
        if length <= MAX_WORD_BYTES and size + length < MAX_DOCUMENT_BYTES:
            kept.append(word)
            size += length + 1
    return " ".join(kept)


def index_rows(session: Session, rows: list[tuple[int, str]]) -> None:
    """Add ``(attempt_id, text)`` rows to the index: new attempts, at import."""
    if not rows:
        return
    if session.get_bind().dialect.name == "sqlite":
        session.execute(
            text("INSERT INTO attempt_search(rowid, body) VALUES (:id, :body)"),
            [{"id": i, "body": b} for i, b in rows],
        )
        return
    # One statement per chunk, the words as two arrays: no row count can reach the
    # 65,535-parameter limit, and the server only turns each list into a tsvector.
    from sqlalchemy.dialects import postgresql  # see _pg_search

    session.execute(
        text("INSERT INTO attempt_search (attempt_id, document) "
             "SELECT i, reviewer_search_vector(w) FROM unnest(:ids, :words) AS t(i, w)"
             ).bindparams(
            bindparam("ids", [i for i, _ in rows], type_=postgresql.ARRAY(Integer)),
            bindparam("words", [document_words(b) for _, b in rows],
                      type_=postgresql.ARRAY(Text))))


def fts_query(query: str) -> str | None:
    """An FTS5 MATCH expression: every word, as a prefix, all required."""
    terms = words(query)
    if not terms:
        return None
    return " AND ".join(f'"{t}"*' for t in terms)


# A queue page starts from the matches when there are at most this many (each costs a
# read of the attempt's row, about a page: bounded whatever the store's size); with more,
# it walks the queue order and looks each attempt up in the matches, stopping at a full
# page (the more matches, the sooner).
DRIVE_LIMIT = 1000
PAGE_ROWS = 200  # a queue page (reviewer.review.queue.PAGE, which imports this module)
# PostgreSQL: beyond this many matches a page tests a hashed set of them (``_pg_condition``).
HASHED_FROM = 400


@cache
def _pg_search() -> TableClause:
    """PostgreSQL's index (migration 0012), for the statements built here.

    SQLAlchemy's PostgreSQL dialect (with every driver's module) is imported only when
    PostgreSQL is searched: a SQLite app's start no longer pays for it."""
    from sqlalchemy.dialects import postgresql

    return table("attempt_search", column("attempt_id", Integer),
                 column("document", postgresql.TSVECTOR))


def _pg_query(terms: list[str]) -> ColumnElement[Any]:
    """The tsquery of ``terms``: every one a prefix, all required (letters and digits only:
    nothing to quote)."""
    from sqlalchemy.dialects import postgresql

    return cast(bindparam(None, " & ".join(f"'{t}':*" for t in terms), type_=Text),
                postgresql.TSQUERY)


# A prefix term makes the GIN index collect every document holding a word it starts (a
# bitmap of all of them, before any intersection): "premium offre" read the 50,000
# documents holding "offre" to keep 1,500 (51 ms at 100,000 attempts), where the 1,871
# holding "premium", their other words tested on the row, took 16-24 ms. Testing a
# candidate's row costs about what the index spends on 16 entries of another term, so a
# query is driven by its rarest term alone when that term's matches, times this ratio, are
# fewer than the other terms' together (the planner's estimates, from ANALYZE).
DRIVER_RATIO = 16
DRIVER_TERMS = 8  # beyond, a query is given to the index whole


class _PgPlan:
    """The planner's estimates a PostgreSQL search needs, read in one ``EXPLAIN``: the
    store's attempts, the query's matches and, for a query of a few terms, each term's."""

    def __init__(self, session: Session, terms: list[str]) -> None:
        self.terms = terms
        each = [[t] for t in terms] if 2 <= len(terms) <= DRIVER_TERMS else []
        branches: list[Select[Any]] = [
            select(literal_column("1")).select_from(Attempt.__table__),
            *(select(literal_column("1")).where(_pg_match(q)) for q in [terms, *each])]
        compiled = union_all(*branches).compile(dialect=session.get_bind().dialect)
        plan: Any = session.connection().exec_driver_sql(
            f"EXPLAIN (FORMAT JSON) {compiled}", compiled.params).scalar()
        rows = [float(p["Plan Rows"]) for p in plan[0]["Plan"]["Plans"]]
        self.attempts, self.matches, self.each = rows[0], rows[1], rows[2:]

    def driver(self) -> str | None:
        """The term to drive the search by, None to give the index all of them."""
        if not self.each:
            return None
        rarest = min(range(len(self.terms)), key=self.each.__getitem__)
        others = sum(self.each) - self.each[rarest]
        return self.terms[rarest] if self.each[rarest] * DRIVER_RATIO < others else None

    def walk_limit(self) -> int:
        """Beyond this many matches a page walks the queue, probing each document."""
        # DRIVE_LIMIT 0 (the tests' setting) walks on both backends.
        return DRIVE_LIMIT and max(DRIVE_LIMIT, math.isqrt(int(self.attempts) * PAGE_ROWS))


def _pg_match(terms: list[str]) -> ColumnElement[bool]:
    return _pg_search().c.document.op("@@")(_pg_query(terms))


def _too_long(terms: list[str]) -> bool:
    """A term longer than a tsvector word is in no document: the query matches nothing."""
    return any(len(t.encode("utf-8")) > MAX_WORD_BYTES for t in terms)


def _pg_matches(terms: list[str], driver: str | None) -> Select[Any]:
    """The ids of the attempts whose document matches every term (found through the
    index entries of ``driver`` alone when given)."""
    found = select(_pg_search().c.attempt_id.label("id"))
    if _too_long(terms):
        return found.where(false())
    if driver is None:
        return found.where(_pg_match(terms))
    # ts_match_vq is what @@ calls, but as a function the planner does not give it to
    # the index: the driver's entries find the candidates, each row tests the rest.
    return found.where(_pg_match([driver]),
                       func.ts_match_vq(_pg_search().c.document, _pg_query(terms)))


def _matches(session: Session, terms: list[str]) -> Select[Any]:
    """The ids of the attempts whose text matches every term, as one ``id`` column."""
    if session.get_bind().dialect.name == "sqlite":
        fts = text("SELECT rowid AS id FROM attempt_search WHERE attempt_search MATCH :q"
                   ).bindparams(q=" AND ".join(f'"{t}"*' for t in terms))
        return select(text("id")).select_from(fts.columns().subquery())
    return _pg_matches(terms, None if _too_long(terms) else _PgPlan(session, terms).driver())


def matching_condition(session: Session, query: str,
                       probe: bool = False) -> ColumnElement[bool] | None:
    """A WHERE condition on ``Attempt`` for a search query, None for a query with no word.

    ``probe=True`` is the form for a queue page (see ``DRIVE_LIMIT``). Raises
    BadInputError for a query over the bound, before any statement runs.
    """
    terms = words(query)
    if not terms:
        return None
    if session.get_bind().dialect.name != "sqlite":
        return _pg_condition(session, terms, probe)
    matches = _matches(session, terms)
    if not probe or not more_than(session, matches, DRIVE_LIMIT):
        return Attempt.id.in_(matches)
    # "id + 0" is the same number but no longer the key, so SQLite cannot start from the
    # matches (every match's row read, then all of them sorted: the cost grew with the
    # store); it walks the queue index and stops at a full page.
    return (Attempt.id + literal_column("0")).in_(matches)


def _pg_condition(session: Session, terms: list[str], probe: bool) -> ColumnElement[bool]:
    """PostgreSQL's condition, in the form for the number of matches (estimated).

    A page has three ways, measured at 100,000 attempts (CPU of client and server, the
    median of 7, on a loaded machine): up to ``HASHED_FROM`` matches it starts from them
    (the planner's join); up to ``sqrt(PAGE × attempts)`` (4,500 at 100,000, 1,400 at
    10,000; at least ``DRIVE_LIMIT``) it walks the queue index testing each attempt
    against a hashed set of the matches, like SQLite's ``id + 0 IN``: 18-30 ms for
    1,500-3,000 matches where the join, which reads every refused attempt's index entry
    and every match's conversation before sorting, took 38-58 ms (the same 30 ms for
    760); beyond, building the set reads too many documents (170-200 ms for
    8,000-43,000 matches) and the page walks the queue testing each attempt's own
    document, read by key (19-43 ms), stopping at a full page: the more matches, the
    sooner. The two walks cost the same at ``sqrt(PAGE × attempts)``: building the set
    reads one document per match, walking about ``PAGE × attempts / matches`` of them.
    Counting the matches up to a limit, as on SQLite, read documents one by one: the
    estimates (ANALYZE's statistics, within a few percent for the words measured) take
    one EXPLAIN.
    """
    if _too_long(terms):
        return false()
    plan = _PgPlan(session, terms)
    if probe and plan.matches > plan.walk_limit():
        return _pg_walk(terms)
    matches = _pg_matches(terms, plan.driver())
    if probe and plan.matches > HASHED_FROM:
        # Inside an expression the IN stays a subquery, run once into a hash table:
        # PostgreSQL would otherwise turn it into a join and plan it as above.
        return hashed(Attempt.id, matches)
    return Attempt.id.in_(matches)


def _pg_walk(terms: list[str]) -> ColumnElement[bool]:
    """The condition of a PostgreSQL page that walks the queue, probing each document."""
    # PostgreSQL turns an IN, or an EXISTS, into a join or a hashed set of every match,
    # and its cost model, which does not count reading a document, picked that where
    # walking was cheaper. A scalar subquery stays what it is: the page walks the queue
    # index and tests each attempt's own document (read by key) until the page is full.
    matched = (select(_pg_match(terms))
               .where(_pg_search().c.attempt_id == Attempt.id).scalar_subquery())
    return func.coalesce(matched, false())


def search_ids(session: Session, query: str) -> list[int]:
    """Ids of the attempts matching ``query``, in id order."""
    cond = matching_condition(session, query)
    stmt: Select[Any] = select(Attempt.id).order_by(Attempt.id)
    if cond is not None:
        stmt = stmt.where(cond)
    return list(session.scalars(stmt))

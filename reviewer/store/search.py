"""Full-text search over responses and rationales, the same language on both backends.

A query is words (runs of letters and digits; everything else separates them); an
attempt matches when its text holds, for every word, a word starting with it. Accents and
case are ignored: "evenement" finds "Événement". A query with no word searches nothing
(the queue is not filtered).

SQLite: an FTS5 index (``unicode61 remove_diacritics 2``) filled at import. PostgreSQL
(migration 0007): ``attempt_search``, one tsvector per attempt under a GIN index, its
words folded like FTS5's (see the migration), filled at import and kept by triggers when
a second opinion or a re-judge adds a rationale.

A query is bounded (``MAX_WORDS`` words, ``MAX_QUERY_CHARS`` characters): beyond, it is
refused with a one-line ``BadInputError`` before anything reaches the database.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Integer,
    Select,
    Text,
    TextClause,
    bindparam,
    literal_column,
    select,
    text,
)
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Session

from models import Attempt
from reviewer.errors import BadInputError

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
    if len(found) > MAX_WORDS:
        raise BadInputError(f"search too long: {len(found):,} words (at most {MAX_WORDS}); "
                            "search for a few of them")
    if len(query) > MAX_QUERY_CHARS:
        raise BadInputError(f"search too long: {len(query):,} characters (at most "
                            f"{MAX_QUERY_CHARS:,}); search for a few of its words")
    return found


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
    # One statement per chunk, the texts as two arrays: the server folds and indexes
    # them in one pass, and no row count can reach the 65,535-parameter limit.
    session.execute(
        text("INSERT INTO attempt_search (attempt_id, document) "
             "SELECT i, reviewer_search_document(b) "
             "FROM unnest(:ids, :bodies) AS t(i, b)").bindparams(
            bindparam("ids", [i for i, _ in rows], type_=ARRAY(Integer)),
            bindparam("bodies", [b for _, b in rows], type_=ARRAY(Text))))


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


def _matches(session: Session, terms: list[str]) -> TextClause:
    """The ids of the attempts whose text matches every term, as one ``id`` column."""
    if session.get_bind().dialect.name == "sqlite":
        return text("SELECT rowid AS id FROM attempt_search WHERE attempt_search MATCH :q"
                    ).bindparams(q=" AND ".join(f'"{t}"*' for t in terms))
    return text("SELECT attempt_id AS id FROM attempt_search "
                "WHERE document @@ reviewer_search_query(:words)").bindparams(
        bindparam("words", terms, type_=ARRAY(Text)))


def matching_condition(session: Session, query: str,
                       probe: bool = False) -> ColumnElement[bool] | None:
    """A WHERE condition on ``Attempt`` for a search query, None for a query with no word.

    ``probe=True`` is the form for a queue page (see ``DRIVE_LIMIT``). Raises
    BadInputError for a query over the bound, before any statement runs.
    """
    terms = words(query)
    if not terms:
        return None
    found = _matches(session, terms)
    matches = select(text("id")).select_from(found.columns().subquery())
    if probe and _more_matches_than(session, found, DRIVE_LIMIT):
        # "id + 0" is the same number but no longer the key, so the database cannot start
        # from the matches (every match's row read, then all of them sorted: the cost grew
        # with the store); it walks the queue index and stops at a full page.
        return (Attempt.id + literal_column("0")).in_(matches)
    return Attempt.id.in_(matches)


def _more_matches_than(session: Session, found: TextClause, limit: int) -> bool:
    """More than ``limit`` attempts match (counted up to ``limit + 1`` only)."""
    first = select(text("id")).select_from(found.columns().subquery()).limit(limit + 1)
    count = session.scalar(select(literal_column("count(*)")).select_from(first.subquery()))
    return int(count or 0) > limit


def search_ids(session: Session, query: str) -> list[int]:
    """Ids of the attempts matching ``query``, in id order."""
    cond = matching_condition(session, query)
    stmt: Select[Any] = select(Attempt.id).order_by(Attempt.id)
    if cond is not None:
        stmt = stmt.where(cond)
    return list(session.scalars(stmt))

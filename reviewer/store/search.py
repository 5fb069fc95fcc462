"""Full-text search over responses and rationales.

SQLite: an FTS5 index (``unicode61 remove_diacritics 2``) filled at import, so "evenement"
finds "événement". Other backends: a case- and accent-insensitive LIKE over the response
and the rationales (slower, but needs no extension or superuser rights).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Select,
    and_,
    exists,
    func,
    literal_column,
    or_,
    select,
    text,
)
from sqlalchemy.orm import Session

from models import Attempt, Verdict

WORD = re.compile(r"\w+", re.UNICODE)
# Characters PostgreSQL's translate() maps to their plain letter (no unaccent extension needed).
# Capitals too, mapped before lower(): under the C locale lower() leaves "É" as it is.
ACCENTED = "àâäáãåéèêëíìîïóòôöõúùûüçñÿœæ" "ÀÂÄÁÃÅÉÈÊËÍÌÎÏÓÒÔÖÕÚÙÛÜÇÑŸŒÆ"
PLAIN = "aaaaaaeeeeiiiiooooouuuucnyoa" "AAAAAAEEEEIIIIOOOOOUUUUCNYOA"


def fold(value: str) -> str:
    """Lower-case and strip diacritics, the way the index compares words."""
    decomposed = unicodedata.normalize("NFKD", value.lower())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def words(query: str) -> list[str]:
    """The searchable words of a query, folded."""
    return WORD.findall(fold(query))


def index_rows(session: Session, rows: list[tuple[int, str]]) -> None:
    """Add ``(attempt_id, text)`` rows to the index (no-op where there is no FTS table)."""
    if not rows or session.get_bind().dialect.name != "sqlite":
        return
    session.execute(
        text("INSERT INTO attempt_search(rowid, body) VALUES (:id, :body)"),
        [{"id": i, "body": b} for i, b in rows],
    )


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


def matching_condition(session: Session, query: str,
                       probe: bool = False) -> ColumnElement[bool] | None:
    """A WHERE condition on ``Attempt`` for a search query, None for an empty query.

    ``probe=True`` is the form for a queue page (see ``DRIVE_LIMIT``).
    """
    terms = words(query)
    if not terms:
        return None
    if session.get_bind().dialect.name == "sqlite":
        match = fts_query(query)
        ids = text("SELECT rowid FROM attempt_search WHERE attempt_search MATCH :q").bindparams(
            q=match
        )
        matches = select(text("rowid")).select_from(ids.columns().subquery())
        if probe and _more_matches_than(session, match, DRIVE_LIMIT):
            # "id + 0" is the same number but no longer the rowid, so SQLite cannot start
            # from the matches (every match's row read, then all of them sorted: the cost
            # grew with the store); it walks the queue index and stops at a full page.
            return (Attempt.id + literal_column("0")).in_(matches)
        return Attempt.id.in_(matches)
    conditions = []
    for term in terms:
        pattern = f"%{term}%"
        folded_response = func.lower(func.translate(Attempt.response, ACCENTED, PLAIN))
        folded_rationale = func.lower(func.translate(Verdict.rationale, ACCENTED, PLAIN))
        in_rationale = exists().where(
            Verdict.attempt_id == Attempt.id, folded_rationale.like(pattern)
        )
        conditions.append(or_(folded_response.like(pattern), in_rationale))
    return and_(*conditions)


def _more_matches_than(session: Session, match: str | None, limit: int) -> bool:
    """More than ``limit`` indexed texts match (counted up to ``limit + 1`` only)."""
    found = session.scalar(text(
        "SELECT count(*) FROM (SELECT rowid FROM attempt_search"
        " WHERE attempt_search MATCH :q LIMIT :n)").bindparams(q=match, n=limit + 1))
    return int(found or 0) > limit


def search_ids(session: Session, query: str) -> list[int]:
    """Ids of the attempts matching ``query``, in id order."""
    cond = matching_condition(session, query)
    stmt: Select[Any] = select(Attempt.id).order_by(Attempt.id)
    if cond is not None:
        stmt = stmt.where(cond)
    return list(session.scalars(stmt))

"""Forms of "the attempt is one of these ids" for a queue page.

A page walks the queue in index order and stops at 200 rows, so a filter is tested on
each attempt it walks. Given a subquery of ids, PostgreSQL turns ``id IN (subquery)``
into a join, which it plans as a probe of the subquery's index for every attempt walked
(a hash join would lose the queue order the walk stops on). ``hashed`` keeps the IN
inside an expression, where it stays a subquery that runs once into a hash table: each
attempt walked is then tested in memory. The table must fit in the server's hash memory
(``work_mem`` × ``hash_mem_multiplier``, 8 MB by default, about 150,000 ids): beyond,
PostgreSQL runs the subquery again for every attempt walked. So callers count first
(``more_than``) and use it only below a bound.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import ColumnElement, Select, false, func, select
from sqlalchemy.orm import InstrumentedAttribute, Session


def hashed(column: ColumnElement[Any] | InstrumentedAttribute[Any],
           ids: Select[Any]) -> ColumnElement[bool]:
    """``column IN (ids)``, tested against a hash table built once (PostgreSQL)."""
    return func.coalesce(column.in_(ids), false())


def more_than(session: Session, ids: Select[Any], limit: int) -> bool:
    """``ids`` has more than ``limit`` rows (counted up to ``limit + 1`` only)."""
    count = session.scalar(select(func.count()).select_from(ids.limit(limit + 1).subquery()))
    return int(count or 0) > limit

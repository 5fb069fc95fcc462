"""One unit of work around a function of a session, for callers that must not open one.

The app's task manager (``ui/tasks.py``) runs every store access of the GUI as
``in_unit_of_work(store, fn)``: the session is opened, committed (or rolled back when
``fn`` raises) and closed here, so no module of ``ui/`` ever opens a session itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from sqlalchemy.orm import Session

from reviewer.store.database import Store

T = TypeVar("T")


def in_unit_of_work(store: Store, fn: Callable[[Session], T]) -> T:
    """``fn(session)`` in one committed unit of work; its result."""
    with store.session() as session:
        return fn(session)

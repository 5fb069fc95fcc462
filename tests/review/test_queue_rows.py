"""``queue_rows``: the rows an operation changed, read again whatever the filter."""

from __future__ import annotations

import pytest

from reviewer.review import actions
from reviewer.review.queue import QueueFilter, queue_page, queue_rows
from reviewer.store import Store
from tests.support.stores import act, attempt_id

pytestmark = pytest.mark.both_backends
RUN = "2026-10-14-ministral-8b"


def test_rows_come_back_with_the_reviewers_decision_even_outside_the_filter(
        filled_store: Store) -> None:
    to_review = QueueFilter(reviewer="claire", review_state="to_review")
    decided = attempt_id(filled_store, f"{RUN}/recette-002/2/1")
    accepted = attempt_id(filled_store, f"{RUN}/recette-002/1/1")  # accepted by the filter
    act(filled_store, actions.decide, "claire", decided, "reject")
    with filled_store.session() as s:
        rows = queue_rows(s, to_review, [accepted, decided, decided, 10**9])
        page = {r.attempt_id: r for r in queue_page(s, QueueFilter(reviewer="claire"), 0, 200)}
    # Queue order (refused first); the unknown id is left out.
    assert [r.attempt_id for r in rows] == [decided, accepted]
    assert (rows[0].decision, rows[0].reviewed) == ("reject", True)
    assert rows[0] == page[decided]  # the very row the page shows
    assert rows[1].accepted and rows[1].decision is None
    with filled_store.session() as s:
        assert queue_rows(s, to_review, []) == []
        assert queue_rows(s, QueueFilter(reviewer="bob"), [decided])[0].decision is None

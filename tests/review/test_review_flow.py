"""The domain side of the review flow: the next unreviewed attempt however deep in the
queue, the progress over every refusal, "flip the refusing verdicts and accept" as one
undo step, the rescue, and what an undo says it took back. On SQLite and PostgreSQL."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from reviewer.ingest.importer import import_run
from reviewer.review import actions as review_actions
from reviewer.review.example import load_example
from reviewer.review.queue import (
    QueueFilter,
    next_unreviewed,
    overall_progress,
    queue_keys,
)
from reviewer.review.rows import get_decision, snapshot
from reviewer.store import Store
from tests.support.run_files import sample_rows, write_catalog, write_jsonl
from tests.support.stores import act, attempt_id

pytestmark = pytest.mark.both_backends
RUN = "2026-10-14-ministral-8b"


def ids_in_order(store: Store, f: QueueFilter) -> list[int]:
    with store.session() as s:
        return [r.attempt_id for r in queue_keys(s, f)]


def test_next_unreviewed_follows_the_queue_and_goes_round(filled_store: Store) -> None:
    f = QueueFilter(reviewer="claire")
    order = ids_in_order(filled_store, f)
    for aid in order[:3] + order[5:7]:
        act(filled_store, review_actions.decide, "claire", aid, "reject")
    act(filled_store, review_actions.decide, "bob", order[3], "accept")  # not claire's
    act(filled_store, review_actions.toggle_criterion, "claire", order[4], "G-DEMANDE")
    assert act(filled_store, next_unreviewed, f) == (order[3], False)
    assert act(filled_store, next_unreviewed, f, order[3]) == (order[4], False)  # overrides
    assert act(filled_store, next_unreviewed, f, order[4]) == (order[7], False)  # are no decision
    # From the last one, the search goes round to the top; under "to review" the attempt
    # just decided is still the reference point.
    assert act(filled_store, next_unreviewed, f, order[-1]) == (order[3], True)
    todo = replace(f, review_state="to_review")
    assert act(filled_store, next_unreviewed, todo, order[5]) == (order[7], False)
    for aid in order:
        act(filled_store, review_actions.decide, "claire", aid, "reject")
    assert act(filled_store, next_unreviewed, f, order[0]) == (None, False)
    assert act(filled_store, next_unreviewed, replace(f, review_state="reviewed")) == (None, False)


def test_next_unreviewed_deep_in_a_large_queue(store: Store, tmp_path: Path) -> None:
    import_run(store, write_jsonl(tmp_path / "run.jsonl", sample_rows(90)),
               catalog_path=write_catalog(tmp_path / "catalog.json"))
    f = QueueFilter(reviewer="claire")
    order = ids_in_order(store, f)
    assert len(order) == 270
    with store.session() as s:  # 230 decided: past the app's first page of 200 rows
        for aid in order[:230]:
            review_actions.decide(s, "claire", aid, "accept")
    assert act(store, next_unreviewed, f) == (order[230], False)
    assert act(store, overall_progress, "claire") == (230, 270)


def test_overall_progress_counts_every_refusal_whatever_the_filter(filled_store: Store) -> None:
    assert act(filled_store, overall_progress, "claire") == (0, 24)
    aid = attempt_id(filled_store, f"{RUN}/recette-002/2/2")
    act(filled_store, review_actions.decide, "claire", aid, "reject")
    act(filled_store, review_actions.decide, "bob", aid, "accept")
    assert act(filled_store, overall_progress, "claire") == (1, 24)
    assert act(filled_store, overall_progress, "dana") == (0, 24)


def test_accept_overriding_is_one_step_and_the_rule_then_accepts(filled_store: Store) -> None:
    aid = attempt_id(filled_store, f"{RUN}/recette-003/2/3")  # E-INVENTE "oui" refuses
    outcome = act(filled_store, review_actions.accept_overriding, "claire", aid)
    assert (outcome.flipped, outcome.marked) == (("E-INVENTE",), ())
    view = act(filled_store, load_example, aid, "claire")
    assert view.review.decision == "accept" and view.live.accepted
    assert view.review.criteria == {"E-INVENTE": False}
    undone = act(filled_store, review_actions.undo, "claire")
    assert undone.step is not None and undone.step.kind == "group"
    assert (undone.step.count, undone.step.attempts) == (2, 1)
    with filled_store.session() as s:
        assert snapshot(get_decision(s, aid, "claire"))["decision"] is None
        assert snapshot(get_decision(s, aid, "claire"))["criteria"] == {}
    # A check is marked, a verdict already flipped back to refuse is set back to the judge.
    check_aid = attempt_id(filled_store, f"{RUN}/recette-003/2/2")
    act(filled_store, review_actions.toggle_criterion, "claire", check_aid, "G-DEMANDE")
    outcome = act(filled_store, review_actions.accept_overriding, "claire", check_aid)
    assert (outcome.flipped, outcome.marked) == (("G-DEMANDE",), ("D-COMMERCE",))
    view = act(filled_store, load_example, check_aid, "claire")
    assert view.live.accepted and view.review.criteria == {}
    assert view.review.checks == {"D-COMMERCE": "false_positive"}


def test_rescue_without_an_open_contradiction_writes_nothing(filled_store: Store) -> None:
    aid = attempt_id(filled_store, f"{RUN}/recette-004/2/3")
    assert act(filled_store, review_actions.rescue, "claire", aid).attempt_id is None
    with filled_store.session() as s:
        assert get_decision(s, aid, "claire") is None


def test_an_undo_and_a_redo_say_what_they_did(filled_store: Store) -> None:
    aid = attempt_id(filled_store, f"{RUN}/recette-005/2/1")
    act(filled_store, review_actions.decide, "claire", aid, "accept")
    undone = act(filled_store, review_actions.undo, "claire")
    assert undone.step is not None
    assert (undone.step.kind, undone.step.value, str(undone.step.key)) == (
        "decision", "accept", f"{RUN}/recette-005/2/1")
    redone = act(filled_store, review_actions.redo, "claire")
    assert redone.step is not None and (redone.step.kind, redone.step.value) == (
        "decision", "accept")

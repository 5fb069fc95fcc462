"""Bulk actions: previewed, written in one transaction as one undo step, one audit row per
attempt, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from typing import Any

import pytest
from sqlalchemy import func, select

from models import AuditEvent, ReviewDecision
from reviewer.cli.main import main
from reviewer.review import actions as review_actions
from reviewer.review.bulk import BulkAction, Scope, StalePreview, apply_bulk, plan_bulk
from reviewer.review.queue import QueueFilter, queue_ids, queue_keys
from reviewer.review.rows import get_decision, snapshot
from reviewer.review.undo import undo_steps
from reviewer.rule.replay import Overrides, load_attempts, replay
from reviewer.store import Store
from tests.support.stores import act, attempt_id

pytestmark = pytest.mark.both_backends
RUN = "2026-10-14-ministral-8b"
# The small run's G-DEMANDE refusals: turn 2 attempt 1 of recette-001…008, and recette-999.
DEMANDE = QueueFilter(criterion="G-DEMANDE", reviewer="claire")


def stored(store: Store, aid: int, reviewer: str = "claire") -> dict[str, Any]:
    with store.session() as s:
        return snapshot(get_decision(s, aid, reviewer))


def events(store: Store) -> list[tuple[int, str, Any, Any]]:
    with store.session() as s:
        return [(e.attempt_id, e.field, e.old, e.new)
                for e in s.scalars(select(AuditEvent).order_by(AuditEvent.id))]


def live(store: Store, aid: int, reviewer: str = "claire") -> bool:
    """Whether the filter would accept the attempt now, with the reviewer's overrides."""
    with store.session() as s:
        attempt = load_attempts(s, [aid])[0]
        return replay(attempt, overrides=Overrides.of(get_decision(s, aid, reviewer))).accepted


def test_the_preview_says_what_would_change_and_stores_nothing(filled_store: Store) -> None:
    store = filled_store
    first = attempt_id(store, f"{RUN}/recette-001/2/1")
    act(store, review_actions.toggle_criterion, "claire", first, "G-DEMANDE")  # done already
    plan = act(store, plan_bulk, "claire", BulkAction("flip", "G-DEMANDE"),
               Scope.of_filter(DEMANDE))
    assert plan.in_scope == 9
    assert plan.count == 8 and dict(plan.skipped) == {"already_flipped": 1}
    assert plan.label == "G-DEMANDE → met on 8 attempts"
    # Every one of them is refused by G-DEMANDE alone: the filter would now accept them.
    assert (plan.rescued, plan.accepted_after) == (8, 8)
    assert all(c.old is None and c.command.value is True for c in plan.changes)
    with store.session() as s:
        order = [str(r.key) for r in queue_keys(s, DEMANDE)]
    assert [str(c.key) for c in plan.changes] == [
        k for k in order if k != f"{RUN}/recette-001/2/1"]
    # Planning wrote nothing: the one event is the toggle made by hand.
    assert len(events(store)) == 1


def test_a_bulk_flip_is_one_undo_step_with_one_audit_row_per_attempt(
        filled_store: Store) -> None:
    store = filled_store
    scope = Scope.of_filter(DEMANDE)
    plan = act(store, plan_bulk, "claire", BulkAction("flip", "G-DEMANDE"), scope)
    outcome = act(store, apply_bulk, "claire", plan, scope)
    ids = [c.attempt_id for c in plan.changes]
    assert outcome.attempt_ids == tuple(ids) and len(ids) == 9
    assert outcome.changes.attempts == frozenset(ids) and outcome.changes.decisions
    trail = events(store)
    assert [(a, f, o, n) for a, f, o, n in trail] == [
        (a, "criterion:G-DEMANDE", None, True) for a in ids]
    assert all(stored(store, a)["criteria"] == {"G-DEMANDE": True} for a in ids)
    assert all(live(store, a) for a in ids)
    with store.session() as s:
        steps = undo_steps(s, "claire")
    assert steps.undo is not None and steps.undo.label == "G-DEMANDE → met on 9 attempts"
    # One Undo takes all nine back; Redo puts them again, each as one step.
    back = act(store, review_actions.undo, "claire")
    assert set((back.attempt_id, *back.others)) == set(ids)
    assert all(stored(store, a)["criteria"] == {} for a in ids)
    assert not any(live(store, a) for a in ids)
    with store.session() as s:
        steps = undo_steps(s, "claire")
    assert steps.undo is None
    assert steps.redo is not None and steps.redo.label == "G-DEMANDE → met on 9 attempts"
    act(store, review_actions.redo, "claire")
    assert all(stored(store, a)["criteria"] == {"G-DEMANDE": True} for a in ids)
    assert len(events(store)) == 27  # 9 set, 9 undone, 9 redone: one row each time


def test_accept_over_selected_rows_skips_the_ones_already_accepted(filled_store: Store) -> None:
    store = filled_store
    a, b, c = (attempt_id(store, f"{RUN}/recette-00{n}/2/2") for n in (1, 2, 3))
    act(store, review_actions.decide, "claire", b, "accept")
    act(store, review_actions.decide, "claire", c, "reject")
    scope = Scope.of_rows([c, a, b])
    plan = act(store, plan_bulk, "claire", BulkAction("accept"), scope)
    assert [ch.attempt_id for ch in plan.changes] == [c, a]
    assert [ch.old for ch in plan.changes] == ["reject", None]
    assert dict(plan.skipped) == {"already_accepted": 1} and plan.label == "accept 2 attempts"
    act(store, apply_bulk, "claire", plan, scope)
    assert [stored(store, x)["decision"] for x in (a, b, c)] == ["accept"] * 3
    with store.session() as s:
        assert undo_steps(s, "claire").undo.label == "accept 2 attempts"  # type: ignore[union-attr]
    act(store, review_actions.undo, "claire")
    # The undo puts back what each attempt had: nothing, accept (untouched), reject.
    assert [stored(store, x)["decision"] for x in (a, b, c)] == [None, "accept", "reject"]


def test_false_positive_marks_only_the_attempts_the_check_failed(filled_store: Store) -> None:
    store = filled_store
    everything = QueueFilter(reviewer="claire")
    scope = Scope.of_filter(everything)
    plan = act(store, plan_bulk, "claire", BulkAction("false_positive", "D-COMMERCE"), scope)
    with store.session() as s:
        failed = queue_ids(s, QueueFilter(check="D-COMMERCE"))
    assert [c.attempt_id for c in plan.changes] == failed and len(failed) == 8
    assert plan.skipped == {"no_failed_check": plan.in_scope - 8}
    assert plan.rescued == 8
    act(store, apply_bulk, "claire", plan, scope)
    assert all(stored(store, x)["checks"] == {"D-COMMERCE": "false_positive"} for x in failed)
    assert all(live(store, x) for x in failed)


def test_a_stale_preview_writes_nothing(filled_store: Store) -> None:
    store = filled_store
    scope = Scope.of_filter(DEMANDE)
    plan = act(store, plan_bulk, "claire", BulkAction("reject"), scope)
    # Another window of the same reviewer rejects one of them meanwhile.
    act(store, review_actions.decide, "claire", plan.changes[3].attempt_id, "reject")
    with pytest.raises(StalePreview, match="preview again"):
        act(store, apply_bulk, "claire", plan, scope)
    assert len(events(store)) == 1
    with store.session() as s:
        decided = s.scalar(select(func.count(ReviewDecision.id))
                           .where(ReviewDecision.decision.is_not(None)))
    assert decided == 1


def test_a_flip_against_the_judge_both_ways_says_so(filled_store: Store) -> None:
    """Over every attempt, G-DEMANDE goes met where the judge said "non" and unmet where it
    said "oui": the step is named as a flip, not as one of the two values."""
    store = filled_store
    scope = Scope.of_filter(QueueFilter(reviewer="claire", include_accepted=True))
    plan = act(store, plan_bulk, "claire", BulkAction("flip", "G-DEMANDE"), scope)
    assert {c.command.value for c in plan.changes} == {True, False}
    assert plan.label == f"flip G-DEMANDE on {plan.count} attempts"
    act(store, apply_bulk, "claire", plan, scope)
    with store.session() as s:
        step = undo_steps(s, "claire").undo
    assert step is not None and step.label == f"flip G-DEMANDE on {plan.count} attempts"


def _reviewed(db_url: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, int, int]:
    """``reviewed`` as ``reviewer stats`` prints it, in text and in JSON, and how many
    keys ``reviewer queue --state reviewed`` lists, for claire."""
    assert main(["--db", db_url, "stats"]) == 0
    text = next(line for line in capsys.readouterr().out.splitlines()
                if line.split()[:1] == ["reviewed"])
    assert main(["--db", db_url, "stats", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert main(["--db", db_url, "--reviewer", "claire", "queue", "--state", "reviewed"]) == 0
    listed = capsys.readouterr().out.splitlines()
    return int(text.split()[1]), int(data["reviewed"]), len(listed)


def test_stats_counts_an_undone_bulk_reject_as_the_queue_does(
        filled_store: Store, db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Eighth hostile pass, S5: a bulk reject of every refusal undone in the app left
    `reviewer stats` saying "reviewed 63" while `queue --state reviewed` listed none and
    the window said 0/63: stats counted the decision rows an undo leaves behind."""
    store = filled_store
    scope = Scope.of_filter(QueueFilter(reviewer="claire"))
    plan = act(store, plan_bulk, "claire", BulkAction("reject"), scope)
    act(store, apply_bulk, "claire", plan, scope)
    n = plan.count
    assert n > 1 and _reviewed(db_url, capsys) == (n, n, n)

    back = act(store, review_actions.undo, "claire")  # what the app's Undo runs
    assert len((back.attempt_id, *back.others)) == n
    assert _reviewed(db_url, capsys) == (0, 0, 0)

    act(store, review_actions.redo, "claire")
    assert _reviewed(db_url, capsys) == (n, n, n)

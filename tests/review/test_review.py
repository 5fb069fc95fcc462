"""Reviewer decisions: audit trail, undo/redo across sessions, optimistic conflicts."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select

from models import Attempt, AuditEvent
from reviewer.errors import BadInputError
from reviewer.ingest.importer import import_run
from reviewer.review.decisions import Change, ConflictError, apply_change, get_decision, redo, undo
from reviewer.rule.replay import Overrides, imported_decision, load_attempts, replay
from reviewer.store import Store, open_store
from tests.support.run_files import record, sample_rows, write_catalog, write_jsonl

# Every test that uses a store runs on SQLite and on the throwaway PostgreSQL server.
pytestmark = pytest.mark.both_backends


@pytest.fixture
def loaded(tmp_path: Path, store: Store) -> Store:
    import_run(
        store,
        write_jsonl(tmp_path / "run.jsonl", sample_rows(2)),
        catalog_path=write_catalog(tmp_path / "c.json"),
    )
    return store


def first_id(store: Store) -> int:
    with store.session() as s:
        return s.scalars(select(Attempt.id).order_by(Attempt.id)).first() or 0


def test_replay_reproduces_imported_decisions(loaded: Store) -> None:
    with loaded.session() as s:
        ids = list(s.scalars(select(Attempt.id)))
        for attempt in load_attempts(s, ids):
            decision = imported_decision(attempt)
            assert decision.accepted == attempt.accepted
            assert list(decision.reasons) == attempt.reasons


def test_override_recomputes_decision(tmp_path: Path, store: Store) -> None:
    rows = [record("c", 1, 1, demande="non"), record("c", 1, 2, commerce_passed=False)]
    import_run(
        store,
        write_jsonl(tmp_path / "r.jsonl", rows),
        catalog_path=write_catalog(tmp_path / "c.json"),
    )
    with store.session() as s:
        unmet, hit = load_attempts(s, s.scalars(select(Attempt.id)))
        assert not replay(unmet).accepted
        assert replay(unmet, overrides=Overrides(criteria={"G-DEMANDE": True})).accepted
        assert replay(hit, overrides=Overrides(checks={"D-COMMERCE": "false_positive"})).accepted


def test_changes_are_audited_and_undo_survives_a_restart(loaded: Store, db_url: str) -> None:
    aid = first_id(loaded)
    with loaded.session() as s:
        apply_change(s, "alice", Change(aid, "decision", "reject"))
    with loaded.session() as s:
        apply_change(s, "alice", Change(aid, "criterion:G-DEMANDE", False))
        apply_change(s, "alice", Change(aid, "note", "répond bien, le juge se trompe"))
    loaded.close()

    reopened = open_store(db_url)
    try:
        with reopened.session() as s:
            row = get_decision(s, aid, "alice")
            assert row is not None
            assert (row.decision, row.criteria, row.note) == (
                "reject",
                {"G-DEMANDE": False},
                "répond bien, le juge se trompe",
            )
            assert undo(s, "alice") is not None  # the note
            assert undo(s, "alice") is not None  # the criterion
        with reopened.session() as s:
            row = get_decision(s, aid, "alice")
            assert row is not None
            assert (row.decision, row.criteria, row.note) == ("reject", {}, "")
            assert redo(s, "alice") is not None
            row = get_decision(s, aid, "alice")
            assert row is not None and row.criteria == {"G-DEMANDE": False}
            trail = s.scalars(select(AuditEvent.action).order_by(AuditEvent.id)).all()
            assert trail == ["set", "set", "set", "undo", "undo", "redo"]
            # A new change clears what could be redone.
            apply_change(s, "alice", Change(aid, "decision", "accept"))
            assert redo(s, "alice") is None
    finally:
        reopened.close()


def test_undo_is_per_reviewer(loaded: Store) -> None:
    aid = first_id(loaded)
    with loaded.session() as s:
        apply_change(s, "alice", Change(aid, "decision", "accept"))
        apply_change(s, "bob", Change(aid, "decision", "reject"))
        undo(s, "alice")
        alice, bob = get_decision(s, aid, "alice"), get_decision(s, aid, "bob")
        assert alice is not None and alice.decision is None
        assert bob is not None and bob.decision == "reject"


def test_stale_version_is_refused_and_nothing_changes(loaded: Store) -> None:
    aid = first_id(loaded)
    with loaded.session() as s:
        apply_change(s, "alice", Change(aid, "decision", "accept"), expected_version=0)
    with loaded.session() as s:
        apply_change(s, "alice", Change(aid, "note", "ok"), expected_version=1)
    with pytest.raises(ConflictError) as info, loaded.session() as s:
        apply_change(s, "alice", Change(aid, "decision", "reject"), expected_version=1)
    assert info.value.current["decision"] == "accept"
    with loaded.session() as s:
        row = get_decision(s, aid, "alice")
        assert row is not None and row.decision == "accept" and row.version == 2


@pytest.mark.parametrize(
    "change",
    [
        Change(1, "decision", "maybe"),
        Change(1, "criterion:G-DEMANDE", "yes"),
        Change(1, "check:D-COMMERCE", "wrong"),
        Change(1, "colour", "red"),
    ],
)
def test_invalid_changes_are_refused(loaded: Store, change: Change) -> None:
    with pytest.raises(BadInputError), loaded.session() as s:
        apply_change(s, "alice", change)

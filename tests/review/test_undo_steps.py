"""Undo and redo as typed steps: labels, grouped steps, one query, restarts, races, 0005 trails."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from sqlalchemy import (
    JSON,
    Column,
    DateTime,
    Integer,
    MetaData,
    String,
    Table,
    create_engine,
    select,
)
from sqlalchemy import event as sa_event
from sqlalchemy.engine import Engine

from models import Attempt, AuditEvent
from reviewer.ingest.importer import import_run
from reviewer.review import actions as review_actions
from reviewer.review.commands import (
    CommandGroup,
    MarkFalsePositive,
    OverrideCriterion,
    ReviewCommand,
    SetDecision,
    SetNote,
    command_for,
)
from reviewer.review.decisions import Change, ConflictError, apply_change, get_decision
from reviewer.review.undo import (
    StepMoved,
    UndoStep,
    undo,
    undo_counts,
    undo_steps,
    undo_steps_query,
)
from reviewer.store import Store, open_store
from reviewer.store.database import _alembic_config, make_engine
from tests.review.test_team import in_threads
from tests.support.pg_server import PgServer
from tests.support.run_files import sample_rows, write_catalog, write_jsonl
from tests.support.stores import act

pytestmark = pytest.mark.both_backends


@pytest.fixture
def loaded(tmp_path: Path, store: Store) -> Store:
    """Eight attempts (two conversations of four, tests/support/run_files.sample_rows)."""
    import_run(store, write_jsonl(tmp_path / "run.jsonl", sample_rows(2)),
               catalog_path=write_catalog(tmp_path / "c.json"))
    return store


def ids_and_keys(store: Store) -> list[tuple[int, str]]:
    with store.session() as s:
        from reviewer.review.queue import QueueFilter, queue_keys
        rows = queue_keys(s, QueueFilter(include_accepted=True))
        return sorted((r.attempt_id, str(r.key)) for r in rows)


def labels(store: Store, reviewer: str = "alice") -> tuple[str | None, str | None]:
    with store.session() as s:
        steps = undo_steps(s, reviewer)
    return (steps.undo.label if steps.undo else None, steps.redo.label if steps.redo else None)


def decision_of(store: Store, aid: int, reviewer: str = "alice") -> dict[str, Any]:
    with store.session() as s:
        row = get_decision(s, aid, reviewer)
        if row is None:
            return {}
        return {"decision": row.decision, "criteria": dict(row.criteria),
                "checks": dict(row.checks), "note": row.note}


@contextmanager
def statements(engine: Engine) -> Iterator[list[str]]:
    """Every SQL statement the engine runs inside the block."""
    seen: list[str] = []

    def record(_conn: Any, _cursor: Any, sql: str, *_: Any) -> None:
        seen.append(sql)

    sa_event.listen(engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        sa_event.remove(engine, "before_cursor_execute", record)


# --- typed commands and their labels ------------------------------------------------------

def test_commands_round_trip_through_their_stored_event() -> None:
    commands: list[ReviewCommand] = [
        SetDecision(7, "reject"), SetDecision(7, None), SetNote(7, "« relu »"),
        OverrideCriterion(7, "G-DEMANDE", True), OverrideCriterion(7, "E-INVENTE", None),
        MarkFalsePositive(7, "D-COMMERCE", True), MarkFalsePositive(7, "D-COMMERCE", False)]
    for c in commands:
        stored = AuditEvent(attempt_id=7, field=c.field, old=None, new=c.value)
        assert ReviewCommand.from_event(stored) == c
        assert command_for(7, c.field, c.value) == c
    assert OverrideCriterion(7, "G-DEMANDE", True).inverse(False) == OverrideCriterion(
        7, "G-DEMANDE", False)
    assert MarkFalsePositive(7, "D-COMMERCE", True).inverse(None) == MarkFalsePositive(
        7, "D-COMMERCE", False)


def test_labels_name_what_undo_and_redo_would_do(loaded: Store) -> None:
    (aid, key), (other, other_key) = ids_and_keys(loaded)[:2]
    assert labels(loaded) == (None, None)
    act(loaded, review_actions.decide, "alice", aid, "reject")
    assert labels(loaded) == (f"reject {key}", None)
    act(loaded, review_actions.toggle_criterion, "alice", aid, "G-DEMANDE")
    assert labels(loaded)[0] == f"G-DEMANDE → unmet on {key}"
    act(loaded, review_actions.toggle_false_positive, "alice", other, "D-COMMERCE")
    assert labels(loaded)[0] == f"D-COMMERCE → false positive on {other_key}"
    act(loaded, review_actions.set_note, "alice", other, "vu")
    assert labels(loaded) == (f"note on {other_key}", None)
    act(loaded, review_actions.undo, "alice")
    # Redo names what it would set again; undo names the step now on top.
    assert labels(loaded) == (f"D-COMMERCE → false positive on {other_key}",
                              f"note on {other_key}")
    act(loaded, review_actions.undo, "alice")
    act(loaded, review_actions.undo, "alice")
    assert labels(loaded) == (f"reject {key}", f"G-DEMANDE → unmet on {key}")
    act(loaded, review_actions.decide, "alice", aid, None)  # a new change: nothing to redo
    assert labels(loaded) == (f"clear decision {key}", None)
    assert act(loaded, review_actions.undo_state, "alice") == (2, 0)
    # Bob has his own stacks.
    assert labels(loaded, "bob") == (None, None)


def test_a_redo_re_applies_exactly_what_was_undone(loaded: Store) -> None:
    aid = ids_and_keys(loaded)[0][0]
    act(loaded, review_actions.toggle_criterion, "alice", aid, "G-DEMANDE")
    act(loaded, review_actions.toggle_false_positive, "alice", aid, "D-COMMERCE")
    before = decision_of(loaded, aid)
    assert act(loaded, review_actions.undo, "alice").action == "undo"
    act(loaded, review_actions.undo, "alice")
    assert decision_of(loaded, aid)["criteria"] == {} and decision_of(loaded, aid)["checks"] == {}
    nothing = act(loaded, review_actions.undo, "alice")
    assert nothing.attempt_id is None and nothing.action == "undo"
    act(loaded, review_actions.redo, "alice")
    act(loaded, review_actions.redo, "alice")
    assert decision_of(loaded, aid) == before
    assert act(loaded, review_actions.redo, "alice").attempt_id is None


# --- grouped steps ------------------------------------------------------------------------

def test_a_group_is_one_step_to_undo_and_redo_across_a_restart(loaded: Store, db_url: str
                                                                ) -> None:
    (aid, key), (other, _) = ids_and_keys(loaded)[:2]
    act(loaded, review_actions.decide, "alice", other, "reject")  # an earlier single step
    rescue = CommandGroup((OverrideCriterion(aid, "G-DEMANDE", True),
                           MarkFalsePositive(aid, "D-COMMERCE", True),
                           SetDecision(aid, "accept")))
    act(loaded, rescue.apply, "alice")
    assert act(loaded, review_actions.undo_state, "alice") == (2, 0)
    with loaded.session() as s:
        step = undo_steps(s, "alice").undo
    assert step is not None
    assert (step.kind, step.count, step.attempts, step.label) == (
        "group", 3, 1, f"3 changes on {key}")
    loaded.close()

    reopened = open_store(db_url)
    try:
        outcome = act(reopened, review_actions.undo, "alice")
        assert (outcome.attempt_id, outcome.field, outcome.changes.attempts) == (
            aid, None, frozenset({aid}))
        assert decision_of(reopened, aid) == {"decision": None, "criteria": {}, "checks": {},
                                              "note": ""}
        assert decision_of(reopened, other)["decision"] == "reject"  # the single step stays
        assert labels(reopened)[1] == f"3 changes on {key}"
        act(reopened, review_actions.redo, "alice")
        assert decision_of(reopened, aid) == {
            "decision": "accept", "criteria": {"G-DEMANDE": True},
            "checks": {"D-COMMERCE": "false_positive"}, "note": ""}
        assert act(reopened, review_actions.undo_state, "alice") == (2, 0)
        with reopened.session() as s:
            trail = [(e.action, e.group_id is not None) for e in
                     s.scalars(select(AuditEvent).order_by(AuditEvent.id))]
        assert trail == [("set", False), *[("set", True)] * 3, *[("undo", True)] * 3,
                         *[("redo", True)] * 3]
    finally:
        reopened.close()


def test_a_group_over_several_attempts_says_so_and_refreshes_them(loaded: Store) -> None:
    (a, _), (b, _), (c, _) = ids_and_keys(loaded)[:3]
    act(loaded, CommandGroup((SetDecision(a, "reject"), SetDecision(b, "reject"),
                              SetDecision(c, "reject"), SetNote(c, "lot"))).apply, "alice")
    assert labels(loaded)[0] == "4 changes on 3 attempts"
    outcome = act(loaded, review_actions.undo, "alice")
    assert outcome.changes.attempts == frozenset({a, b, c})
    assert all(decision_of(loaded, x)["decision"] is None for x in (a, b, c))


# --- one indexed query --------------------------------------------------------------------

def test_menus_read_the_stacks_with_one_query_whatever_the_trail(loaded: Store) -> None:
    aid = ids_and_keys(loaded)[0][0]
    for n in range(30):
        act(loaded, review_actions.set_note, "alice", aid, f"note {n}")
        act(loaded, review_actions.set_note, "bob", aid, f"note {n}")
    act(loaded, review_actions.undo, "alice")
    with loaded.session() as s:
        s.execute(select(Attempt.id)).all()  # the session's connection is open
        with statements(loaded.engine) as seen:
            assert undo_counts(s, "alice") == (29, 1)
        assert len(seen) == 1
        with statements(loaded.engine) as seen:
            steps = undo_steps(s, "alice")
        assert len(seen) == 1
        assert steps.undo is not None and steps.undo.value == "note 28"
        assert steps.redo is not None and steps.redo.value == "note 29"


def test_the_menu_query_is_answered_from_keys(loaded: Store) -> None:
    if loaded.dialect != "sqlite":
        pytest.skip("EXPLAIN QUERY PLAN is SQLite's")
    aid = ids_and_keys(loaded)[0][0]
    act(loaded, review_actions.set_note, "alice", aid, "vu")
    with loaded.session() as s:
        compiled = undo_steps_query("alice").compile(loaded.engine)
        params = tuple(compiled.params[name] for name in compiled.positiontup or ())
        plan = [row[-1] for row in s.connection().exec_driver_sql(
            f"EXPLAIN QUERY PLAN {compiled}", params)]
    # What grows with the trail is reached through keys: the cursor by reviewer, the top
    # events by id, a group's members through the group index; the trail is never
    # scanned. (On this tiny store the planner may scan the one-row runs table.)
    trail = [p for p in plan if p.split()[1].startswith(("audit_events", "undo_cursors"))]
    # The cursor, 2 top events, 6 group aggregates (count, attempts, the bulk shape).
    assert len(trail) == 9, plan
    assert all(p.startswith("SEARCH") for p in trail), plan
    assert sum("ix_audit_events_group" in p for p in trail) == 6, plan


# --- races --------------------------------------------------------------------------------

def test_an_undo_racing_another_window_is_refused_not_misapplied(loaded: Store) -> None:
    (a, _), (b, _), (c, _) = ids_and_keys(loaded)[:3]
    act(loaded, review_actions.decide, "alice", a, "accept")
    act(loaded, review_actions.decide, "alice", b, "reject")
    looked, other_done = threading.Event(), threading.Event()

    def first_window() -> Any:
        try:
            with loaded.session() as s:
                def hold(*_: Any) -> None:
                    looked.set()  # it has read what Undo would take back (b)
                    assert other_done.wait(60)
                sa_event.listen(s, "before_flush", hold, once=True)
                return undo(s, "alice")
        except ConflictError as exc:
            return exc

    def second_window() -> None:
        assert looked.wait(60)
        act(loaded, review_actions.set_note, "alice", c, "entre-temps")
        other_done.set()

    result, _ = in_threads(first_window, second_window)
    assert isinstance(result, ConflictError) and "undo history" in str(result)
    assert decision_of(loaded, b)["decision"] == "reject"  # nothing was undone
    assert act(loaded, review_actions.undo_state, "alice") == (3, 0)
    act(loaded, review_actions.undo, "alice")  # the latest change: the other window's note
    assert decision_of(loaded, c)["note"] == "" and decision_of(loaded, b)["decision"] == "reject"


def test_an_undo_takes_back_the_step_its_menu_named_or_nothing(loaded: Store) -> None:
    # Seventh hostile pass, U1: window 1 rejected K, window 2 (same reviewer) accepted it;
    # Ctrl+Z in window 1, whose menu still said "Undo: reject K", took back window 2's
    # accept. The undo now carries the step the menu named, and changes nothing when
    # another window or process has put another step on top.
    (k, key), (other, _) = ids_and_keys(loaded)[:2]
    act(loaded, review_actions.decide, "alice", k, "reject")
    with loaded.session() as s:  # window 1's menu
        shown = undo_steps(s, "alice").undo
    assert shown is not None and shown.label == f"reject {key}"
    act(loaded, review_actions.decide, "alice", k, "accept")  # window 2
    with pytest.raises(StepMoved) as moved:
        act(loaded, review_actions.undo, "alice", shown.top)
    assert isinstance(moved.value, ConflictError)
    assert moved.value.now is not None and moved.value.now.label == f"accept {key}"
    assert str(moved.value) == (
        f"not undone: the undo history was changed in another window or process; the step "
        f"to undo is now accept {key} (undo again to take it)")
    assert decision_of(loaded, k)["decision"] == "accept"  # nothing was changed
    assert act(loaded, review_actions.undo_state, "alice") == (2, 0)
    # The menu read again names window 2's accept; an undo expecting it takes it back.
    assert act(loaded, review_actions.undo, "alice", moved.value.now.top).attempt_id == k
    assert decision_of(loaded, k)["decision"] == "reject"
    # Redo alike: the redo another window has already done is not done twice.
    with loaded.session() as s:
        shown = undo_steps(s, "alice").redo
    assert shown is not None
    act(loaded, review_actions.redo, "alice")  # window 2
    act(loaded, review_actions.decide, "alice", other, "reject")
    with pytest.raises(StepMoved) as moved:
        act(loaded, review_actions.redo, "alice", shown.top)
    assert moved.value.now is None and "nothing is left to redo" in str(moved.value)
    assert decision_of(loaded, k)["decision"] == "accept"
    # Without an expected step (the CLI's way), the top is taken as before.
    assert act(loaded, review_actions.undo, "alice").attempt_id == other


def test_one_reviewer_in_two_processes_keeps_one_consistent_stack(loaded: Store) -> None:
    ids = [aid for aid, _ in ids_and_keys(loaded)]
    barrier = threading.Barrier(2)

    def window(part: list[int], choice: str) -> None:
        barrier.wait(timeout=60)
        for aid in part:
            act(loaded, review_actions.decide, "alice", aid, choice)

    in_threads(lambda: window(ids[:4], "accept"), lambda: window(ids[4:], "reject"))
    assert act(loaded, review_actions.undo_state, "alice") == (8, 0)
    for _ in ids:
        assert act(loaded, review_actions.undo, "alice").attempt_id is not None
    assert act(loaded, review_actions.undo, "alice").attempt_id is None
    assert all(decision_of(loaded, aid)["decision"] is None for aid in ids)


def test_the_version_check_still_refuses_a_stale_write(loaded: Store) -> None:
    aid = ids_and_keys(loaded)[0][0]
    with loaded.session() as s:
        apply_change(s, "alice", Change(aid, "decision", "accept"), expected_version=0)
    with pytest.raises(ConflictError), loaded.session() as s:
        SetDecision(aid, "reject").apply(s, "alice", expected_version=0)
    assert act(loaded, review_actions.undo_state, "alice") == (1, 0)  # no step pushed


# --- a trail written before migration 0006 ------------------------------------------------

OLD_EVENTS = Table(  # audit_events as revision 0005 knew it
    "audit_events", MetaData(),
    Column("id", Integer, primary_key=True), Column("attempt_id", Integer),
    Column("reviewer", String(200)), Column("at", DateTime(timezone=True)),
    Column("action", String(30)), Column("field", String(120)),
    Column("old", JSON), Column("new", JSON), Column("reverts_id", Integer))
OLD_DECISIONS = Table(
    "review_decisions", MetaData(),
    Column("id", Integer, primary_key=True), Column("attempt_id", Integer),
    Column("reviewer", String(200)), Column("decision", String(10)),
    Column("criteria", JSON), Column("checks", JSON), Column("note", String),
    Column("version", Integer), Column("updated_at", DateTime(timezone=True)))


@pytest.fixture
def empty_url(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """A database with no schema yet, on the backend under test."""
    if backend != "postgresql":
        yield f"sqlite:///{tmp_path / 'old.sqlite3'}"
        return
    server: PgServer = request.getfixturevalue("pg_server")
    name = server.database(empty=True)
    try:
        yield server.url(name)
    finally:
        server.drop(name)


@pytest.fixture
def old_store(tmp_path: Path, empty_url: str) -> Iterator[tuple[str, int, int]]:
    """A store left at revision 0005 with the trail the code of then wrote, as it wrote it:

    alice on A: decision reject, note, G-DEMANDE met, undo, undo, redo (the note);
    bob on B: accept, undo (interleaved with alice's).
    """
    db_url = empty_url
    engine = create_engine(db_url)
    with engine.begin() as conn:
        cfg = _alembic_config()
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0005")
    engine.dispose()
    old = Store(db_url, make_engine(db_url))  # not migrated: stays at 0005
    # Two attempts written with the tables as they were at 0005 (reflected), not through
    # today's importer: its model has columns later migrations add.
    with old.engine.begin() as conn:
        tables = MetaData()
        tables.reflect(conn, only=["runs", "conversations", "attempts"])
        run_id = conn.execute(tables.tables["runs"].insert().values(
            name="2026-10-14-ministral-8b", imported_at=datetime(2026, 10, 12, tzinfo=UTC),
        )).inserted_primary_key[0]
        conv_id = conn.execute(tables.tables["conversations"].insert().values(
            run_id=run_id, name="recette-001")).inserted_primary_key[0]
        attempts = tables.tables["attempts"]
        row = {"run_id": run_id, "conversation_id": conv_id, "turn": 1, "messages": [],
               "response": "Réponse.", "reference": None, "accepted": False,
               "reasons": [], "judge_model": None, "fingerprint": "",
               "contradiction_score": 0.0, "flagged": False}
        a, b = (conn.execute(attempts.insert().values(
            {k: v for k, v in {**row, "attempt": n}.items() if k in attempts.c}
        )).inserted_primary_key[0] for n in (1, 2))
    at = datetime(2026, 10, 12, 9, 0, tzinfo=UTC)
    trail = [  # number, attempt, reviewer, action, field, old, new, reverted number
        (1, a, "alice", "set", "decision", None, "reject", None),
        (2, a, "alice", "set", "note", "", "à revoir", None),
        (3, b, "bob", "set", "decision", None, "accept", None),
        (4, a, "alice", "set", "criterion:G-DEMANDE", None, True, None),
        (5, a, "alice", "undo", "criterion:G-DEMANDE", True, None, 4),
        (6, b, "bob", "undo", "decision", "accept", None, 3),
        (7, a, "alice", "undo", "note", "à revoir", "", 2),
        (8, a, "alice", "redo", "note", "", "à revoir", 7),
    ]
    with old.engine.begin() as conn:
        ids: dict[int, int] = {}  # trail number → id given by the store
        for n, aid, who, action, field, before, after, reverts in trail:
            ids[n] = conn.execute(OLD_EVENTS.insert().values(
                attempt_id=aid, reviewer=who, at=at, action=action, field=field, old=before,
                new=after, reverts_id=None if reverts is None else ids[reverts],
            )).inserted_primary_key[0]
        conn.execute(OLD_DECISIONS.insert(), [
            {"attempt_id": a, "reviewer": "alice", "decision": "reject", "criteria": {},
             "checks": {}, "note": "à revoir", "version": 6, "updated_at": at},
            {"attempt_id": b, "reviewer": "bob", "decision": None, "criteria": {},
             "checks": {}, "note": "", "version": 2, "updated_at": at}])
    old.close()
    yield db_url, a, b


def test_a_trail_from_before_0006_undoes_as_it_did(old_store: tuple[str, int, int]) -> None:
    url, a, b = old_store
    store = open_store(url)  # upgrades to head, backfilling the stacks
    try:
        # The old code's stacks: alice undo [1, 8] redo [5]; bob undo [] redo [6].
        assert act(store, review_actions.undo_state, "alice") == (2, 1)
        assert act(store, review_actions.undo_state, "bob") == (0, 1)
        undo_label, redo_label = labels(store)
        assert undo_label is not None and undo_label.startswith("note on ")
        assert redo_label is not None and redo_label.startswith("G-DEMANDE → met on ")
        act(store, review_actions.undo, "alice")
        assert decision_of(store, a) == {"decision": "reject", "criteria": {}, "checks": {},
                                         "note": ""}
        act(store, review_actions.undo, "alice")
        assert decision_of(store, a)["decision"] is None
        assert act(store, review_actions.undo, "alice").attempt_id is None
        for _ in range(3):  # the decision, the note, then the criterion undone before 0006
            assert act(store, review_actions.redo, "alice").attempt_id == a
        assert decision_of(store, a) == {"decision": "reject", "criteria": {"G-DEMANDE": True},
                                         "checks": {}, "note": "à revoir"}
        act(store, review_actions.redo, "bob")
        assert decision_of(store, b, "bob")["decision"] == "accept"
        # A new change goes on top of the backfilled stack.
        act(store, review_actions.set_note, "bob", b, "relu")
        assert act(store, review_actions.undo_state, "bob") == (2, 0)
    finally:
        store.close()


def test_undo_step_labels_of_every_kind() -> None:
    from reviewer.keys import AttemptKey
    key = AttemptKey("run", "recette-009", 2, 2)
    assert UndoStep("decision", key, None, "reject").label == "reject run/recette-009/2/2"
    assert UndoStep("decision", key, None, None).label == "clear decision run/recette-009/2/2"
    assert UndoStep("criterion", key, "G-DEMANDE", None).label == (
        "G-DEMANDE → judge's verdict on run/recette-009/2/2")
    assert UndoStep("check", key, "D-COMMERCE", None).label == (
        "D-COMMERCE → check result on run/recette-009/2/2")
    assert UndoStep("group", key, None, None, 2, 2).label == "2 changes on 2 attempts"

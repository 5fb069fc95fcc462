"""The review queue: order, filters, accent-insensitive search, audit sample, CLI."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from reviewer.review import actions as review_actions
from reviewer.review import queue
from reviewer.review.queue import (
    QueueFilter,
    audit_sample,
    queue_count,
    queue_index,
    queue_keys,
    queue_page,
    queue_progress,
)
from reviewer.store import Store, search
from tests.support.stores import act, attempt_id, flag
from ui.cli import main as cli_main

# Storage-touching tests run on SQLite and on the throwaway PostgreSQL server.
pytestmark = pytest.mark.both_backends

RUN = "2026-10-14-ministral-8b"


def keys(store: Store, f: QueueFilter, limit: int | None = None) -> list[str]:
    with store.session() as s:
        return [str(r.key) for r in queue_keys(s, f, limit)]


def test_refused_first_then_score_then_key(filled_store: Store) -> None:
    flag(filled_store, f"{RUN}/recette-005/2/1", 0.7)
    flag(filled_store, f"{RUN}/recette-003/2/1", 0.9)
    order = keys(filled_store, QueueFilter(include_accepted=True))
    assert order[:3] == [f"{RUN}/recette-003/2/1", f"{RUN}/recette-005/2/1",
                         f"{RUN}/recette-001/2/1"]
    assert order[3:5] == [f"{RUN}/recette-001/2/2", f"{RUN}/recette-001/2/3"]
    with filled_store.session() as s:
        rows = queue_keys(s, QueueFilter(include_accepted=True))
    accepted = [r.accepted for r in rows]
    assert accepted == sorted(accepted), "every refused attempt comes before the accepted ones"
    assert keys(filled_store, QueueFilter())[:2] == order[:2]
    assert all(not r.accepted for r in queue_keys_session(filled_store, QueueFilter()))


def queue_keys_session(store: Store, f: QueueFilter) -> list:
    with store.session() as s:
        return queue_keys(s, f)


def test_filters(filled_store: Store) -> None:
    flag(filled_store, f"{RUN}/recette-002/2/1", 0.8)
    assert keys(filled_store, QueueFilter(flagged_only=True)) == [f"{RUN}/recette-002/2/1"]
    commerce = keys(filled_store, QueueFilter(check="D-COMMERCE"))
    assert commerce and all(k.endswith("/2/2") for k in commerce)
    invente = keys(filled_store, QueueFilter(criterion="E-INVENTE"))
    assert invente and all(k.endswith("/2/3") for k in invente)
    demande = keys(filled_store, QueueFilter(criterion="G-DEMANDE"))
    assert f"{RUN}/recette-999/1/1" in demande and all(
        k.endswith("/2/1") or "999" in k for k in demande)
    assert keys(filled_store, QueueFilter(run="another-run")) == []
    assert len(keys(filled_store, QueueFilter(run=RUN))) == 24


def test_search_ignores_accents_and_case(filled_store: Store) -> None:
    found = keys(filled_store, QueueFilter(search="evenement"))
    assert found == [f"{RUN}/recette-999/1/1"]
    assert keys(filled_store, QueueFilter(search="ÉVÉNEMENT")) == found
    # Rationales are searched too.
    assert f"{RUN}/recette-004/2/1" in keys(filled_store, QueueFilter(search="repond directement"))
    assert keys(filled_store, QueueFilter(search="zzzintrouvable")) == []


def test_review_states_and_progress(filled_store: Store) -> None:
    first, second, third = keys(filled_store, QueueFilter())[:3]
    ids = [attempt_id(filled_store, k) for k in (first, second, third)]
    act(filled_store, review_actions.decide, "claire", ids[0], "reject")
    act(filled_store, review_actions.decide, "claire", ids[1], "accept")
    act(filled_store, review_actions.toggle_criterion, "claire", ids[2], "E-INVENTE")
    act(filled_store, review_actions.decide, "marc", ids[2], "accept")
    base = QueueFilter(reviewer="claire")
    reviewed = keys(filled_store, QueueFilter(reviewer="claire", review_state="reviewed"))
    assert sorted(reviewed) == sorted([first, second])
    to_review = keys(filled_store, QueueFilter(reviewer="claire", review_state="to_review"))
    assert first not in to_review and third in to_review and len(to_review) == 22
    overridden = keys(filled_store, QueueFilter(reviewer="claire", review_state="overridden"))
    # Accepting a refusal flips the filter's decision; a toggled verdict is an override;
    # rejecting what the filter refused is agreement, not an override.
    assert sorted(overridden) == sorted([second, third])
    with filled_store.session() as s:
        assert queue_progress(s, base) == (2, 24)
        assert queue_progress(s, QueueFilter(reviewer="marc")) == (1, 24)


def test_audit_sample_is_accepted_random_and_seeded(filled_store: Store) -> None:
    with filled_store.session() as s:
        a = [str(r.key) for r in audit_sample(s, 5, seed=1)]
        b = [str(r.key) for r in audit_sample(s, 5, seed=1)]
        c = [str(r.key) for r in audit_sample(s, 5, seed=2)]
        rows = audit_sample(s, 5, seed=1)
        accepted_total = queue_count(s, QueueFilter(include_accepted=True)) - queue_count(
            s, QueueFilter())
    assert a == b and len(a) == 5 and a != c
    assert all(r.accepted for r in rows)
    assert a != sorted(a), "a random sample, not the first accepted attempts"
    assert accepted_total == 8
    with filled_store.session() as s:
        assert len(audit_sample(s, 50, seed=3)) == 8


@pytest.mark.parametrize("as_json", [False, True])
def test_queue_command_prints_app_order(filled_store: Store, db_url: str, as_json: bool,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    flag(filled_store, f"{RUN}/recette-006/2/1", 0.95)
    expected = keys(filled_store, QueueFilter(), limit=7)
    argv = ["--db", db_url, "queue", "--limit", "7"] + (["--json"] if as_json else [])
    assert cli_main(argv) == 0
    out = capsys.readouterr().out
    if as_json:
        data = json.loads(out)
        assert [d["key"] for d in data] == expected
        assert data[0]["score"] == 0.95
        assert data[0]["reasons"][0].startswith("G-DEMANDE non tenu : L'assistant répond")
    else:
        assert out.splitlines() == expected


def test_queue_command_on_bad_database(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    bogus = tmp_path / "notes.txt"
    bogus.write_text("not a database", encoding="utf-8")
    assert cli_main(["--db", str(bogus), "queue"]) == 1
    assert "not a reviewer database" in capsys.readouterr().err


def test_queue_index_is_the_row_the_app_shows(filled_store: Store) -> None:
    flag(filled_store, f"{RUN}/recette-007/2/2", 0.6)
    f = QueueFilter(reviewer="claire")
    with filled_store.session() as s:
        rows = queue_keys(s, f)
        for position in (0, 1, 13, len(rows) - 1):
            assert queue_index(s, f, rows[position].attempt_id) == position
        accepted = attempt_id(filled_store, f"{RUN}/recette-001/1/1")
        assert queue_index(s, f, accepted) is None  # accepted: not in the refused queue
        audit = f.audit(3, seed=5)
        sample = queue_keys(s, audit)
        assert [queue_index(s, audit, r.attempt_id) for r in sample] == [0, 1, 2]


@pytest.mark.parametrize(("drive_limit", "hashed_limit"),
                         [(search.DRIVE_LIMIT, queue.HASHED_CHECK_LIMIT), (0, 0)])
def test_pages_under_every_filter_agree_with_the_count_and_the_rank(
        filled_store: Store, drive_limit: int, hashed_limit: int,
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A page probes each filter while walking the queue order (a search with many matches
    # and a check failing more than the hashed limit too, which the zeros force here); the
    # count and the rank use the other forms. Small pages cross ties of score, the
    # refused/accepted boundary and the page ends.
    monkeypatch.setattr(search, "DRIVE_LIMIT", drive_limit)
    monkeypatch.setattr(queue, "HASHED_CHECK_LIMIT", hashed_limit)
    for key, score in ((f"{RUN}/recette-002/2/1", 0.8), (f"{RUN}/recette-005/2/1", 0.8),
                       (f"{RUN}/recette-007/2/2", 0.3)):
        flag(filled_store, key, score)
    mine = attempt_id(filled_store, f"{RUN}/recette-999/1/1")
    act(filled_store, review_actions.decide, "claire", mine, "accept")
    filters = [QueueFilter(criterion="G-DEMANDE"), QueueFilter(check="D-COMMERCE"),
               QueueFilter(flagged_only=True), QueueFilter(search="repond"),
               QueueFilter(search="repond", include_accepted=True),
               QueueFilter(review_state="to_review", include_accepted=True),
               QueueFilter(review_state="reviewed", include_accepted=True),
               QueueFilter(include_accepted=True), QueueFilter().audit(6, seed=4)]
    for f in (replace(f, reviewer="claire") for f in filters):
        with filled_store.session() as s:
            whole = queue_keys(s, f)
            paged = [r for start in range(0, len(whole) + 3, 3)
                     for r in queue_page(s, f, start, 3)]
            assert whole, f
            assert [r.attempt_id for r in paged] == [r.attempt_id for r in whole], f
            assert queue_count(s, f) == len(whole), f
            assert [queue_index(s, f, r.attempt_id) for r in whole] == list(range(len(whole)))


def test_a_check_page_on_postgresql_tests_a_hashed_set_of_failures(
        filled_store: Store) -> None:
    # At 100,000 attempts the page probed the check's results for each of the 14,700
    # attempts it walked before the first 200 failures (28 ms of 45): PostgreSQL plans
    # "id IN (failures)" as that probe unless the IN stays a subquery hashed once.
    if filled_store.dialect != "postgresql":
        pytest.skip("the hashed SubPlan is PostgreSQL's plan")
    f = QueueFilter(check="D-COMMERCE", reviewer="claire")
    seen: list[tuple[str, Any]] = []

    def record(_conn: Any, _cursor: Any, statement: str, params: Any, *_: Any) -> None:
        seen.append((statement, params))

    event.listen(filled_store.engine, "before_cursor_execute", record)
    try:
        with filled_store.session() as s:
            assert queue_page(s, f)
            statement, params = max(seen, key=lambda x: len(x[0]))
            plan = "\n".join(str(row[0]) for row in s.connection().exec_driver_sql(
                f"EXPLAIN {statement}", params))
    finally:
        event.remove(filled_store.engine, "before_cursor_execute", record)
    assert "hashed SubPlan" in plan, plan

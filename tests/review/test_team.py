"""Team mode: reviewer identity, concurrent decisions, queue states, on both backends."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, func, select
from sqlalchemy.orm import Session

from models import Attempt, AuditEvent, ReviewDecision
from reviewer.cli.main import main as cli
from reviewer.ingest.importer import import_run
from reviewer.review import actions as review_actions
from reviewer.review.decisions import Change, ConflictError, apply_change, get_decision
from reviewer.review.queue import QueueFilter, queue_keys
from reviewer.review.team import DecisionResult, decide, default_reviewer, seen_versions
from reviewer.store import Store
from tests.support.run_files import sample_rows, write_catalog, write_jsonl
from tests.support.stores import act

pytestmark = pytest.mark.both_backends


@pytest.fixture
def loaded(tmp_path: Path, store: Store) -> Store:
    """Eight attempts: two conversations of four (see tests/runfiles.sample_rows)."""
    import_run(store, write_jsonl(tmp_path / "run.jsonl", sample_rows(2)),
               catalog_path=write_catalog(tmp_path / "c.json"))
    return store


def all_ids(store: Store) -> list[int]:
    with store.session() as s:
        return list(s.scalars(select(Attempt.id).order_by(Attempt.id)))


def in_threads(*workers: Callable[[], Any]) -> list[Any]:
    """Run the workers in parallel threads; return their results, re-raise their errors."""
    results: list[Any] = [None] * len(workers)
    errors: list[BaseException] = []

    def run(i: int, work: Callable[[], Any]) -> None:
        try:
            results[i] = work()
        except BaseException as exc:  # reported to the test below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i, w)) for i, w in enumerate(workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "a worker is stuck"
    if errors:
        raise errors[0]
    return results


def test_later_reviewer_is_told_and_sees_both_decisions(loaded: Store) -> None:
    aid = all_ids(loaded)[0]
    with loaded.session() as s:
        alice_saw = seen_versions(s, aid, "alice")  # alice opens the attempt: nobody yet
    assert alice_saw == {}
    with loaded.session() as s:
        first = decide(s, "bob", Change(aid, "decision", "reject"), seen_others={})
    assert first.conflicts == ()
    with loaded.session() as s:
        later = decide(s, "alice", Change(aid, "decision", "accept"), seen_others=alice_saw)
    assert [(c.other.reviewer, c.other.decision, c.seen_version, c.disagrees)
            for c in later.conflicts] == [("bob", "reject", 0, True)]
    assert "bob also reviewed this attempt meanwhile" in later.conflicts[0].message("decision")
    assert later.mine["decision"] == "accept"
    assert [(o.reviewer, o.decision) for o in later.others] == [("bob", "reject")]
    # Nothing was overwritten: both decisions are stored.
    with loaded.session() as s:
        bob, alice = get_decision(s, aid, "bob"), get_decision(s, aid, "alice")
        assert bob is not None and bob.decision == "reject"
        assert alice is not None and alice.decision == "accept"
        # Once alice has seen bob's decision, her next change reports nothing new.
        seen = seen_versions(s, aid, "alice")
        again = decide(s, "alice", Change(aid, "note", "vu avec bob"), seen_others=seen)
    assert again.conflicts == () and [o.reviewer for o in again.others] == ["bob"]


def test_agreeing_reviewer_is_told_without_a_disagreement(loaded: Store) -> None:
    aid = all_ids(loaded)[1]
    with loaded.session() as s:
        decide(s, "bob", Change(aid, "criterion:G-DEMANDE", True))
    with loaded.session() as s:
        result = decide(s, "alice", Change(aid, "criterion:G-DEMANDE", True), seen_others={})
    assert [(c.other.reviewer, c.disagrees) for c in result.conflicts] == [("bob", False)]


def test_two_reviewers_deciding_at_once_lose_nothing_and_the_later_is_told(
    loaded: Store,
) -> None:
    ids = all_ids(loaded)
    barrier = threading.Barrier(2)
    choices = {"alice": "accept", "bob": "reject"}

    def reviewer(name: str) -> list[DecisionResult]:
        with loaded.session() as s:  # each one opens every attempt before anyone decides
            seen = {aid: seen_versions(s, aid, name) for aid in ids}
        barrier.wait(timeout=60)
        out = []
        for aid in ids:
            with loaded.session() as s:
                out.append(decide(s, name, Change(aid, "decision", choices[name]),
                                  expected_version=0, seen_others=seen[aid]))
        return out

    alice, bob = in_threads(lambda: reviewer("alice"), lambda: reviewer("bob"))

    with loaded.session() as s:
        stored = {(r.attempt_id, r.reviewer): (r.decision, r.version)
                  for r in s.scalars(select(ReviewDecision))}
        events = s.scalar(select(func.count()).select_from(AuditEvent))
    assert stored == {(aid, name): (choice, 1) for aid in ids for name, choice in choices.items()}
    assert events == 2 * len(ids)
    for aid, a, b in zip(ids, alice, bob, strict=True):
        # Exactly one of the two decided second on each attempt, and only that one is told.
        told = [(name, r) for name, r in (("alice", a), ("bob", b)) if r.conflicts]
        assert len(told) == 1, f"attempt {aid}: {a.conflicts} / {b.conflicts}"
        name, result = told[0]
        other = "bob" if name == "alice" else "alice"
        assert [(c.other.reviewer, c.other.decision, c.disagrees) for c in result.conflicts] == [
            (other, choices[other], True)]
        assert result.mine["decision"] == choices[name]


def test_same_reviewer_in_two_windows_one_write_one_conflict(loaded: Store) -> None:
    ids = all_ids(loaded)
    barrier = threading.Barrier(2)

    def window(choice: str) -> list[str]:
        barrier.wait(timeout=60)
        out = []
        for aid in ids:
            try:
                with loaded.session() as s:
                    decide(s, "alice", Change(aid, "decision", choice), expected_version=0)
                out.append("written")
            except ConflictError as exc:
                out.append(f"conflict:{exc.current['decision']}")
        return out

    first, second = in_threads(lambda: window("accept"), lambda: window("reject"))
    with loaded.session() as s:
        stored = {r.attempt_id: (r.decision, r.version) for r in s.scalars(select(ReviewDecision))}
    for i, aid in enumerate(ids):
        outcomes = sorted([first[i], second[i]])
        winner = "accept" if first[i] == "written" else "reject"
        # One write went in; the other window was refused and told what is stored.
        assert outcomes == sorted(["written", f"conflict:{winner}"])
        assert stored[aid] == (winner, 1)


def run_race(store: Store, aid: int, late_change: Change, late_version: int,
             early_change: Change) -> Any:
    """The late session reads, then the early one commits, then the late one writes."""
    read_done, early_committed = threading.Event(), threading.Event()

    def late() -> Any:
        try:
            with store.session() as s:
                hold = _hold_flush(s, read_done, early_committed)
                event.listen(s, "before_flush", hold)
                apply_change(s, "alice", late_change, expected_version=late_version)
            return "written"
        except ConflictError as exc:
            return exc

    def early() -> str:
        assert read_done.wait(60)
        with store.session() as s:
            apply_change(s, "alice", early_change)
        early_committed.set()
        return "written"

    late_result, _ = in_threads(late, early)
    return late_result


def _hold_flush(session: Session, read_done: threading.Event,
                early_committed: threading.Event) -> Callable[..., None]:
    def hold(*_: Any) -> None:
        # apply_change has read the stored version; let the other session win the race.
        read_done.set()
        assert early_committed.wait(60)
    return hold


def test_insert_race_on_the_first_decision_is_a_conflict_not_a_crash(loaded: Store) -> None:
    aid = all_ids(loaded)[2]
    result = run_race(loaded, aid, Change(aid, "decision", "reject"), 0,
                      Change(aid, "decision", "accept"))
    assert isinstance(result, ConflictError)
    assert result.current["decision"] == "accept"
    with loaded.session() as s:
        assert s.scalar(select(func.count()).select_from(ReviewDecision)) == 1
        assert s.scalar(select(func.count()).select_from(AuditEvent)) == 1


def test_update_race_on_a_stale_version_is_a_conflict(loaded: Store) -> None:
    aid = all_ids(loaded)[3]
    with loaded.session() as s:
        apply_change(s, "alice", Change(aid, "decision", "accept"))
    result = run_race(loaded, aid, Change(aid, "decision", "reject"), 1,
                      Change(aid, "note", "relu"))
    assert isinstance(result, ConflictError)
    with loaded.session() as s:
        row = get_decision(s, aid, "alice")
        assert row is not None and (row.decision, row.note, row.version) == ("accept", "relu", 2)


def test_queue_states_not_reviewed_by_me_and_reviewed_by_others_only(loaded: Store) -> None:
    everything = QueueFilter(include_accepted=True, reviewer="alice")
    with loaded.session() as s:
        ids = [r.attempt_id for r in queue_keys(s, everything)]
        apply_change(s, "bob", Change(ids[0], "decision", "accept"))
        apply_change(s, "bob", Change(ids[1], "decision", "reject"))
        apply_change(s, "alice", Change(ids[1], "decision", "reject"))
        apply_change(s, "alice", Change(ids[2], "decision", "accept"))
        apply_change(s, "carol", Change(ids[3], "note", "pas encore décidé"))

    def state(value: Any) -> list[int]:
        with loaded.session() as s:
            f = QueueFilter(include_accepted=True, reviewer="alice", review_state=value)
            return [r.attempt_id for r in queue_keys(s, f)]

    assert state("others_not_me") == [ids[0]]
    assert state("to_review") == [i for i in ids if i not in (ids[1], ids[2])]
    assert sorted(state("reviewed")) == sorted([ids[1], ids[2]])


def test_global_reviewer_option_names_the_decider(
    loaded: Store, db_url: str, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with loaded.session() as s:
        keys = [str(r.key) for r in queue_keys(s, QueueFilter(include_accepted=True))]
    assert cli(["--db", db_url, "--reviewer", "bob", "decide", keys[0], "--reject"]) == 0
    monkeypatch.setenv("REVIEWER_NAME", "carol")
    assert default_reviewer() == "carol"
    assert cli(["--db", db_url, "decide", keys[0], "--accept"]) == 0
    capsys.readouterr()
    assert cli(["--db", db_url, "--reviewer", "alice", "queue", "--state", "others_not_me",
                "--json"]) == 0
    shown = [row["key"] for row in json.loads(capsys.readouterr().out)]
    assert shown == [keys[0]]
    with loaded.session() as s:
        assert sorted(s.scalars(select(ReviewDecision.reviewer))) == ["bob", "carol"]


def test_app_action_reports_who_decided_meanwhile(loaded: Store) -> None:
    aid = all_ids(loaded)[4]
    with loaded.session() as s:
        shown = seen_versions(s, aid, "alice")  # the app shows the attempt to alice
    act(loaded, review_actions.decide, "bob", aid, "reject", seen_others={})
    outcome = act(loaded, review_actions.decide, "alice", aid, "accept", seen_others=shown)
    assert outcome.conflicts == (
        "bob also reviewed this attempt meanwhile (decision = 'reject', disagrees)",)
    with loaded.session() as s:
        shown = seen_versions(s, aid, "alice")
    again = act(loaded, review_actions.decide, "alice", aid, "reject", seen_others=shown)
    assert again.conflicts == ()

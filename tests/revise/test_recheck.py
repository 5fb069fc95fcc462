"""A saved check version evaluated again on every stored response: stored beside the import,
read by the one rule with the current versions on demand, resumable, on both backends."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import func, select

from models import CheckResult, CheckVersion
from reviewer.catalog.spec import CheckSpec
from reviewer.catalog.versions import current_check_versions
from reviewer.review.queue import QueueFilter, queue_keys
from reviewer.revise.editors import save_check_version
from reviewer.revise.recheck import recheck_check, recheck_counts
from reviewer.rule.replay import load_attempts, replay
from reviewer.rule.replay_check import check_replay
from reviewer.store import Store
from tests.support.feedback_stores import SEED_NEW_PATTERN
from tests.support.stores import attempt_id

pytestmark = pytest.mark.both_backends
RUN = "2026-10-14-ministral-8b"
# The small run's D-COMMERCE hits: "Pensez à inscrire la date dans votre journal."
HITS = [f"{RUN}/recette-00{n}/2/2" for n in range(1, 9)]


def save(store: Store, pattern: str, dialect: str = "python") -> int:
    """A new D-COMMERCE version, as the back-test editor saves it (no re-check yet)."""
    with store.session() as s:
        cv = current_check_versions(s)["D-COMMERCE"]
        spec = CheckSpec("D-COMMERCE", cv.description, pattern, "i", "forbid", None, dialect)
        return save_check_version(s, spec, reason="seed wording", author="claire").version


def decisions(store: Store, key: str) -> tuple[bool, bool]:
    """(the filter as imported, the filter with the current check versions)."""
    with store.session() as s:
        attempt = load_attempts(s, [attempt_id(store, key)])[0]
        return replay(attempt).accepted, replay(attempt, current_checks=True).accepted


def results_of(store: Store, version: int) -> int:
    with store.session() as s:
        return int(s.scalar(
            select(func.count(CheckResult.id))
            .join(CheckVersion, CheckResult.check_version_id == CheckVersion.id)
            .where(CheckVersion.check_id == "D-COMMERCE", CheckVersion.version == version))
            or 0)


def test_a_saved_version_is_evaluated_on_every_stored_response(filled_store: Store) -> None:
    store = filled_store
    assert save(store, SEED_NEW_PATTERN) == 2
    seen: list[tuple[int, int]] = []
    run = recheck_check(store, "D-COMMERCE", progress=lambda d, t: seen.append((d, t)),
                        chunk=10)
    # Every attempt the check ran on (32), in chunks; the eight hits pass under v2.
    assert (run.version, run.evaluated, run.total) == (2, 32, 32)
    assert (run.now_pass, run.now_fail, run.cancelled) == (8, 0, False)
    assert seen == [(0, 32), (10, 32), (20, 32), (30, 32), (32, 32)]
    assert run.changes.catalog
    assert results_of(store, 2) == 32 and results_of(store, 1) == 32  # the import is kept
    # The rule reads the import by default, the current versions when asked.
    for key in HITS:
        assert decisions(store, key) == (False, True), key
    assert check_replay(store).ok  # every imported decision is still reproduced
    # The queue says which check's old version refused and the current one passes.
    with store.session() as s:
        rows = {str(r.key): r for r in queue_keys(s, QueueFilter())}
    assert {k for k, r in rows.items() if r.rechecked} == set(HITS)
    assert rows[HITS[0]].rechecked == "D-COMMERCE"
    # Asked again: nothing left to evaluate.
    again = recheck_check(store, "D-COMMERCE")
    assert (again.evaluated, again.total) == (0, 0) and again.changes.empty
    with store.session() as s:
        assert recheck_counts(s, "D-COMMERCE") == (32, 32)


def test_a_cancelled_recheck_keeps_what_it_evaluated_and_resumes(filled_store: Store) -> None:
    store = filled_store
    save(store, SEED_NEW_PATTERN)
    cancel = threading.Event()

    def progress(done: int, _total: int) -> None:
        if done >= 10:
            cancel.set()  # the reviewer presses Cancel after the first chunk

    run = recheck_check(store, "D-COMMERCE", progress=progress, cancel=cancel, chunk=10)
    assert run.cancelled and run.evaluated == 10 and results_of(store, 2) == 10
    with store.session() as s:
        assert recheck_counts(s, "D-COMMERCE") == (32, 10)
    rest = recheck_check(store, "D-COMMERCE", chunk=10)
    assert (rest.evaluated, rest.total) == (22, 22) and results_of(store, 2) == 32


def test_the_current_version_runs_in_its_dialect(filled_store: Store) -> None:
    """Each saved version is evaluated in its own dialect (here ECMAScript, run by V8)."""
    store = filled_store
    save(store, r"inscri(re|vez|ption)", "ecmascript")
    recheck_check(store, "D-COMMERCE")
    assert save(store, r"\bjournal\b", "ecmascript") == 3
    run = recheck_check(store, "D-COMMERCE")
    assert run.version == 3 and run.evaluated == 32
    # "journal" is in the eight hits' responses only: they still fail under v3; the
    # newest version evaluated is what the current replay reads.
    for key in HITS:
        assert decisions(store, key) == (False, False), key
    with store.session() as s:
        cv = current_check_versions(s)["D-COMMERCE"]
        assert (cv.version, cv.dialect) == (3, "ecmascript")

"""Second opinions for many attempts: bounded parallelism, committed as they arrive.

``run_second_opinions`` is what both the CLI (``reviewer rejudge``) and the GUI (from a
worker thread) call. Each attempt is one task on a small thread pool (default 2: a local
Ollama serves few requests at once); each answer is committed in its own unit of work, so
an interrupted batch keeps what arrived and a rerun only asks what is still missing
(attempts that already have their second opinion, or no longer need one, are skipped).

A fault that would fail every following request the same way (no server, unknown model,
the same HTTP 5xx ``stop_after`` times in a row) stops the batch instead of marking
every remaining attempt failed; any other fault (a reply that is not JSON, a cut reply)
is recorded for its attempt and the batch goes on.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field

from reviewer.judge.client import JudgeClient, JudgeFault
from reviewer.judge.guard import Strictness
from reviewer.judge.second_opinion import (
    FAILED,
    FLIPPED,
    SKIPPED,
    Outcome,
    needs_second_opinion,
    second_opinion,
)
from reviewer.judge.transport import STREAK, FaultStreak
from reviewer.rule.replay import load_attempts
from reviewer.store import Store

CHUNK = 500
DEFAULT_PARALLEL = 2

Progress = Callable[[int, int], None]


@dataclass
class BatchReport:
    """What a batch did. ``saved`` = attempts the second opinion turned into acceptances."""

    selected: int = 0
    done: int = 0
    saved: int = 0
    skipped: int = 0
    unreliable: int = 0  # second opinions stored but not applied by the guard
    failed: list[tuple[str, str]] = field(default_factory=list)
    outcomes: list[Outcome] = field(default_factory=list)
    stopped: str = ""
    cancelled: bool = False

    @property
    def not_run(self) -> int:
        """Attempts that needed a second opinion but were not reached (stop or cancel)."""
        return self.selected - self.skipped - self.done

    def summary(self) -> str:
        """The line the CLI prints."""
        text = (f"{self.done} asked, {self.saved} now accepted, {len(self.failed)} failed, "
                f"{self.skipped} skipped")
        if self.unreliable:
            text += f", {self.unreliable} unreliable (not applied)"
        if self.not_run:
            text += f", {self.not_run} not run"
        return text


def pending_attempts(store: Store, ids: Iterable[int], only: str | None = None) -> list[int]:
    """Those of ``ids`` that still need a second opinion (read in chunks)."""
    ids = list(ids)
    out: list[int] = []
    for start in range(0, len(ids), CHUNK):
        with store.session() as session:
            out += [a.id for a in load_attempts(session, ids[start:start + CHUNK])
                    if needs_second_opinion(a, only)]
    return out


def run_second_opinions(
    store: Store,
    client: JudgeClient,
    attempt_ids: Sequence[int],
    *,
    parallel: int = DEFAULT_PARALLEL,
    only: str | None = None,
    progress: Progress | None = None,
    cancel: threading.Event | None = None,
    guard: Strictness | None = None,
    stop_after: int = STREAK,
) -> BatchReport:
    """Ask the second opinions ``attempt_ids`` still need, ``parallel`` at a time.

    ``progress(done, total)`` is called from the calling thread after each attempt.
    Setting ``cancel`` stops starting new attempts; the ones in flight finish and are
    kept. A KeyboardInterrupt stops starting new ones too, abandons the requests in flight
    when the client has an ``abandon`` event (their attempts stay unasked), then
    propagates. ``guard`` is the
    second-opinion guard's strictness; ``stop_after`` identical HTTP 5xx faults in a row
    stop the batch (``report.stopped``).
    """
    report = BatchReport(selected=len(attempt_ids))
    todo = pending_attempts(store, attempt_ids, only)
    report.skipped = report.selected - len(todo)
    stop = cancel or threading.Event()
    streak = FaultStreak(stop_after)
    if progress:
        progress(0, len(todo))

    def task(attempt_id: int) -> tuple[Outcome, str] | None:
        if stop.is_set():
            return None
        outcome = second_opinion(store, client, attempt_id, only=only, guard=guard)
        fault = outcome.fault if isinstance(outcome.fault, JudgeFault) else None
        why = ""
        if fault is not None and fault.fatal:
            why = str(fault)
        elif outcome.status != SKIPPED and streak.observe(
                fault.kind if fault else None, fault.status if fault else None,
                fault.detail if fault else ""):
            why = streak.stop_message(outcome.message)
        if why:
            stop.set()  # here, not in the collecting thread: the next task must see it
        return outcome, why

    with ThreadPoolExecutor(max_workers=max(1, parallel),
                            thread_name_prefix="second-opinion") as pool:
        futures: list[Future[tuple[Outcome, str] | None]] = [pool.submit(task, i)
                                                              for i in todo]
        try:
            for finished, future in enumerate(as_completed(futures), 1):
                _collect(report, future.result())
                if progress:
                    progress(finished, len(todo))
        except KeyboardInterrupt:
            stop.set()
            report.cancelled = True
            # Drop the requests in flight (within ABANDON_POLL_S): leaving the pool waits
            # for its threads, and a silent judge held Ctrl-C for every timeout and retry
            # (361 s with the defaults, sixth hostile pass RJ). Nothing of them is stored.
            if client.abandon is not None:
                client.abandon.set()
            raise
        finally:
            for future in futures:
                future.cancel()
    report.cancelled = report.cancelled or (cancel is not None and cancel.is_set()
                                            and not report.stopped)
    return report


def _collect(report: BatchReport, result: tuple[Outcome, str] | None) -> None:
    if result is None:
        return
    outcome, why = result
    report.outcomes.append(outcome)
    if outcome.status == SKIPPED:  # changed since selection (another process asked it)
        report.skipped += 1
        return
    report.done += 1
    report.unreliable += len(outcome.unreliable)
    if outcome.status == FLIPPED:
        report.saved += 1
    elif outcome.status == FAILED:
        report.failed.append((outcome.key, outcome.message))
    if why and not report.stopped:
        report.stopped = why

"""A saved check version evaluated again on every stored response: the loop reaches the queue.

When the reviewer saves a new version of a check (the back-test editor), the stored
results still say what the old version decided, so the queue would go on showing the
hits the new pattern no longer makes. ``recheck_check`` evaluates the check's current
version, in its dialect (``reviewer.rule.checks.evaluate_many``: one trip into V8 per
chunk for ``ecmascript``), on the response and last user message of every attempt the
check was run on, and stores each result as a ``CheckResult`` of that version beside the
imported one. The rule then reads either (``reviewer.rule.replay.check_outcomes``): the
imported results by default, the newest versions' when the reviewer asks how the filter
decides with the current checks.

It is a long job: chunks of ``CHUNK`` attempts, each its own committed unit of work, with
progress and a cancel flag checked between texts. Attempts already evaluated under that
version are skipped, so a cancelled run resumes where it stopped when asked again.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from sqlalchemy import func, insert, select
from sqlalchemy.orm import Session

from models import Attempt, CheckResult, CheckVersion
from reviewer.catalog.versions import current_check_versions
from reviewer.changes import Changes
from reviewer.errors import BadInputError, ReviewerError
from reviewer.rule.checks import (
    CheckPattern,
    CompiledCheck,
    compile_check,
    evaluate_many,
    last_user_message,
)
from reviewer.store import Store
from reviewer.store.units import in_unit_of_work

CHUNK = 500


class RecheckCancelled(ReviewerError):
    """The reviewer stopped the run (what was evaluated before is kept)."""


@dataclass(frozen=True, slots=True)
class RecheckRun:
    """What re-evaluating a check's current version found.

    ``now_pass``: attempts the imported result failed and the current version passes
    ("old version refused, current version passes"); ``now_fail`` the reverse.
    """

    check_id: str
    version: int
    evaluated: int
    total: int
    now_pass: int
    now_fail: int
    cancelled: bool = False

    @property
    def changes(self) -> Changes:
        """Check results changed on any attempt: every screen reads its attempts again."""
        return Changes(catalog=True) if self.evaluated else Changes()


@dataclass(frozen=True, slots=True)
class _Target:
    version_id: int
    version: int
    check: CompiledCheck


def _target(session: Session, check_id: str) -> _Target:
    cv = current_check_versions(session).get(check_id)
    if cv is None:
        raise BadInputError(f"no check {check_id}")
    spec = CheckPattern(cv.pattern, cv.flags, cv.mode, cv.when, cv.dialect)
    return _Target(cv.id, cv.version, compile_check(spec))


def _pending(session: Session, check_id: str, version_id: int) -> list[int]:
    """Attempts the check was run on that have no result of this version yet."""
    ran = select(CheckResult.attempt_id).join(
        CheckVersion, CheckResult.check_version_id == CheckVersion.id
    ).where(CheckVersion.check_id == check_id)
    done = select(CheckResult.attempt_id).where(CheckResult.check_version_id == version_id)
    return list(session.scalars(
        select(Attempt.id).where(Attempt.id.in_(ran), Attempt.id.not_in(done))
        .order_by(Attempt.id)))


def _imported(session: Session, check_id: str,
              ids: Sequence[int]) -> dict[int, tuple[int, bool]]:
    """Each attempt's imported result of the check: (position, passed), lowest version."""
    rows = session.execute(
        select(CheckResult.attempt_id, CheckResult.position, CheckResult.passed,
               CheckVersion.version)
        .join(CheckVersion, CheckResult.check_version_id == CheckVersion.id)
        .where(CheckVersion.check_id == check_id, CheckResult.attempt_id.in_(list(ids)))
        .order_by(CheckResult.attempt_id, CheckVersion.version.desc()))
    return {aid: (position, bool(passed)) for aid, position, passed, _v in rows}


def _chunk(session: Session, check_id: str, target: _Target, ids: Sequence[int],
           checkpoint: Callable[[], None]) -> tuple[int, int]:
    """Evaluate and store one chunk; (now passing, now failing) against the import."""
    texts = {aid: (response, messages) for aid, response, messages in session.execute(
        select(Attempt.id, Attempt.response, Attempt.messages)
        .where(Attempt.id.in_(list(ids))))}
    imported = _imported(session, check_id, ids)
    order = [aid for aid in ids if aid in texts and aid in imported]
    passed = evaluate_many(target.check, [texts[a][0] for a in order],
                           [last_user_message(texts[a][1]) for a in order],
                           where=lambda i: f"attempt {order[i]}", checkpoint=checkpoint)
    if order:
        session.execute(insert(CheckResult), [
            {"attempt_id": aid, "check_version_id": target.version_id,
             "position": imported[aid][0], "passed": ok}
            for aid, ok in zip(order, passed, strict=True)])
    now_pass = sum(ok and not imported[a][1] for a, ok in zip(order, passed, strict=True))
    now_fail = sum(not ok and imported[a][1] for a, ok in zip(order, passed, strict=True))
    return now_pass, now_fail


def recheck_check(store: Store, check_id: str, *,
                  progress: Callable[[int, int], None] | None = None,
                  cancel: threading.Event | None = None, chunk: int = CHUNK) -> RecheckRun:
    """Evaluate ``check_id``'s current version on every attempt it was run on, and store
    each result (see the module docstring)."""
    target = in_unit_of_work(store, lambda s: _target(s, check_id))
    ids = in_unit_of_work(store, lambda s: _pending(s, check_id, target.version_id))

    def checkpoint() -> None:
        if cancel is not None and cancel.is_set():
            raise RecheckCancelled(f"re-checking {check_id} stopped")

    done = now_pass = now_fail = 0
    cancelled = False
    if progress is not None:
        progress(0, len(ids))
    for start in range(0, len(ids), chunk):
        part = ids[start:start + chunk]
        try:
            gained, lost = in_unit_of_work(
                store, partial(_chunk, check_id=check_id, target=target, ids=part,
                               checkpoint=checkpoint))
        except RecheckCancelled:
            cancelled = True
            break
        done, now_pass, now_fail = done + len(part), now_pass + gained, now_fail + lost
        if progress is not None:
            progress(done, len(ids))
    return RecheckRun(check_id, target.version, done, len(ids), now_pass, now_fail,
                      cancelled)


def recheck_counts(session: Session, check_id: str) -> tuple[int, int]:
    """(attempts the check was run on, how many its current version has evaluated)."""
    cv = current_check_versions(session).get(check_id)
    if cv is None:
        return 0, 0
    ran = session.scalar(
        select(func.count(func.distinct(CheckResult.attempt_id)))
        .join(CheckVersion, CheckResult.check_version_id == CheckVersion.id)
        .where(CheckVersion.check_id == check_id)) or 0
    done = session.scalar(select(func.count(CheckResult.id))
                          .where(CheckResult.check_version_id == cv.id)) or 0
    return int(ran), int(done)

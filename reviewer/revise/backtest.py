"""Back-testing a new pattern for a check over every stored attempt.

The current version of the check (the *old* pattern) and the candidate (the *new* one)
are both evaluated on every stored response; attempts are streamed in chunks with a
plain Core select (``yield_per``), so 100,000 attempts never sit in memory at once.

* ``removed``: attempts the old pattern fails and the new one passes (hits that disappear);
* ``added``: attempts the new pattern fails and the old one passes (hits that appear).

Agreement with the reviewer (see ``reviewer.labels.check_label``): on attempts the
reviewer accepted or whose hit they marked false positive, a failure is a *false
failure*; on attempts the reviewer rejected while this check's stored result failed
(a confirmed cause), a pass is a *miss*. Both patterns get a ``Confusion`` on that same
labelled set, so the figures say whether the edit helps.

Each pattern runs in its dialect (``python`` or ``ecmascript``, see
``reviewer.rule.checks``): a chunk of responses goes into the engine at once
(``evaluate_many``), so an ``ecmascript`` back-test enters V8 twice per 1,000 attempts.
A text one pattern searches longer than the time bound stops the back-test with a
PatternTimeout: "pattern stopped after …" for the new pattern, "current (vN, stored)
pattern stopped after …" when it is the check's stored version that is catastrophic (so
the new pattern is not blamed for it).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from models import Attempt, CheckResult, CheckVersion, Conversation, ReviewDecision, Run
from reviewer.agreement.confusion import Confusion
from reviewer.catalog.versions import current_check_versions
from reviewer.errors import BadInputError, ReviewerError
from reviewer.keys import AttemptKey
from reviewer.review.labels import check_label, review_views
from reviewer.rule.checks import (
    DEFAULT_TIMEOUT,
    CheckPattern,
    CompiledCheck,
    PatternError,
    PatternTimeout,
    compile_check,
    evaluate_many,
    last_user_message,
)
from reviewer.rule.ecmascript import EngineUnavailable

CHUNK = 1000
DEFAULT_BUDGET = 60.0


class BudgetExceeded(BadInputError):
    """The whole back-test ran past its time budget."""


class Cancelled(ReviewerError):
    """The caller asked the back-test to stop (a newer pattern was typed)."""


@dataclass
class BacktestResult:
    """What a new pattern would change, and how both patterns agree with the reviewer."""

    check_id: str
    old: CheckPattern
    old_version: int
    new: CheckPattern
    reviewer: str | None
    attempts: int = 0
    removed: list[AttemptKey] = field(default_factory=list)
    added: list[AttemptKey] = field(default_factory=list)
    old_agreement: Confusion = field(default_factory=Confusion)
    new_agreement: Confusion = field(default_factory=Confusion)
    old_failures: int = 0
    new_failures: int = 0

    def as_dict(self) -> dict[str, Any]:
        """The JSON form the CLI prints."""

        def pattern(p: CheckPattern) -> dict[str, Any]:
            return {"pattern": p.pattern, "flags": p.flags, "mode": p.mode, "when": p.when,
                    "dialect": p.dialect}

        return {
            "check": self.check_id,
            "old": {**pattern(self.old), "version": self.old_version},
            "new": pattern(self.new),
            "reviewer": self.reviewer,
            "attempts": self.attempts,
            "old_failures": self.old_failures,
            "new_failures": self.new_failures,
            "removed": [str(k) for k in self.removed],
            "added": [str(k) for k in self.added],
            "agreement": {"old": self.old_agreement.as_dict(),
                          "new": self.new_agreement.as_dict()},
        }


def current_pattern(session: Session, check_id: str) -> tuple[CheckPattern, int]:
    """The current version of a check as a ``CheckPattern``, with its version number."""
    cv = current_check_versions(session).get(check_id)
    if cv is None:
        raise BadInputError(f"unknown check {check_id!r}")
    return CheckPattern(cv.pattern, cv.flags, cv.mode, cv.when, cv.dialect), cv.version


def response_of(session: Session, key: AttemptKey) -> str:
    """The stored response of an attempt ("" when it is not stored), for previews."""
    found = session.scalar(
        select(Attempt.response)
        .join(Conversation, Attempt.conversation_id == Conversation.id)
        .join(Run, Attempt.run_id == Run.id)
        .where(Run.name == key.run, Conversation.name == key.conversation,
               Attempt.turn == key.turn, Attempt.attempt == key.attempt))
    return found or ""


def _labels(session: Session, check_id: str, reviewer: str | None) -> dict[int, bool]:
    """attempt id → True (should fail) / False (should pass), for labelled attempts only."""
    views = review_views(session, reviewer)
    rows = session.execute(
        select(CheckResult.attempt_id, CheckResult.passed)
        .join(CheckVersion, CheckResult.check_version_id == CheckVersion.id)
        .where(CheckVersion.check_id == check_id,
               CheckResult.attempt_id.in_(select(ReviewDecision.attempt_id)))
        # The imported result is the lowest version (later ones are re-checks,
        # reviewer.revise.recheck): read last, it is the one kept.
        .order_by(CheckVersion.version.desc())
    )
    stored: dict[int, bool] = {aid: passed for aid, passed in rows}
    out: dict[int, bool] = {}
    for aid, view in views.items():
        label = check_label(view, check_id, stored.get(aid))
        if label is not None:
            out[aid] = label
    return out


def _rows(session: Session, with_messages: bool, chunk: int) -> Iterator[Any]:
    cols: list[Any] = [Attempt.id, Run.name, Conversation.name, Attempt.turn, Attempt.attempt,
                       Attempt.response]
    if with_messages:
        cols.append(Attempt.messages)
    stmt = (
        select(*cols)
        .join(Conversation, Attempt.conversation_id == Conversation.id)
        .join(Run, Attempt.run_id == Run.id)
        .order_by(Attempt.id)
        .execution_options(yield_per=chunk)
    )
    yield from session.execute(stmt)


def _needs_context(*checks: CompiledCheck) -> bool:
    return any(c.spec.mode == "require" and c.when is not None for c in checks)


def _chunks(rows: Iterator[Any], size: int) -> Iterator[list[Any]]:
    chunk: list[Any] = []
    for row in rows:
        chunk.append(row)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _run(check: CompiledCheck, which: str | None, responses: Sequence[str],
         users: Sequence[str], keys: Sequence[AttemptKey], checkpoint: Callable[[], None]
         ) -> list[bool]:
    """One pattern on a chunk; a timeout of the stored pattern says so (``which``)."""
    try:
        return evaluate_many(check, responses, users, where=lambda i: str(keys[i]),
                             checkpoint=checkpoint)
    except PatternTimeout as exc:
        raise (exc if which is None else exc.naming(which)) from None


def _compile(spec: CheckPattern, which: str, timeout: float) -> CompiledCheck:
    try:
        return compile_check(spec, timeout=timeout)
    except EngineUnavailable:
        raise  # not the pattern's fault: no "current pattern:" in front
    except PatternError as exc:
        if which == "new":
            raise
        raise PatternError(f"{which} pattern: {exc}") from None


def backtest(
    session: Session,
    check_id: str,
    new: CheckPattern,
    *,
    reviewer: str | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    budget: float | None = DEFAULT_BUDGET,
    cancel: Callable[[], bool] | None = None,
    chunk: int = CHUNK,
) -> BacktestResult:
    """Compare the check's current pattern with ``new`` over every stored attempt.

    Raises PatternError (invalid pattern), PatternTimeout (one text took longer than
    ``timeout``; the stored pattern's says so), BudgetExceeded (the whole run took longer
    than ``budget`` seconds) or Cancelled (``cancel()`` returned True; asked between two
    texts, or every 50 ms inside the ECMAScript engine).
    """
    old, version = current_pattern(session, check_id)
    new_check = _compile(new, "new", timeout)
    old_name = f"current (v{version}, stored)"
    old_check = _compile(old, old_name, timeout)
    labels = _labels(session, check_id, reviewer)
    result = BacktestResult(check_id, old, version, new, reviewer)
    started = time.monotonic()

    def checkpoint() -> None:
        if cancel is not None and cancel():
            raise Cancelled("back-test cancelled")
        if budget is not None and time.monotonic() - started > budget:
            raise BudgetExceeded(
                f"back-test stopped after {budget:g} s ({result.attempts} attempts done): "
                "the pattern is too slow on this store")

    context = _needs_context(old_check, new_check)
    for rows in _chunks(_rows(session, context, chunk), chunk):
        keys = [AttemptKey(r[1], r[2], r[3], r[4]) for r in rows]
        responses = [r[5] for r in rows]
        users = [last_user_message(r[6]) for r in rows] if context else [""] * len(rows)
        old_passes = _run(old_check, old_name, responses, users, keys, checkpoint)
        new_passes = _run(new_check, None, responses, users, keys, checkpoint)
        for row, key, old_pass, new_pass in zip(rows, keys, old_passes, new_passes,
                                                 strict=True):
            result.attempts += 1
            result.old_failures += not old_pass
            result.new_failures += not new_pass
            if old_pass != new_pass:
                (result.removed if new_pass else result.added).append(key)
            label = labels.get(row[0])
            if label is not None:
                result.old_agreement.add(not old_pass, label)
                result.new_agreement.add(not new_pass, label)
    result.removed.sort()
    result.added.sort()
    return result

"""Checking that the filter rule, replayed on stored rows, reproduces every import.

Each imported record carries the filter's own ``accepted`` and ``reasons``; replaying
``reviewer.filter_rule`` on its stored checks and first-opinion verdicts must give them
back exactly. A mismatch means the rule, the import or the record is wrong, and every
feature built on the replay (second opinions, overrides, statistics) would be off.

``recheck_checks`` goes one step further down: it re-evaluates every stored check result
with the pattern, flags, mode and dialect of the version it was made under, on the stored
response (and last user message), and lists each one that comes out differently. A
catalog declared in the wrong dialect shows up at once: the production filter's
JavaScript ``\\b`` and Python's do not fail the same answers.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select

from models import Attempt, CheckResult, CheckVersion, Conversation, Run
from reviewer.keys import AttemptKey
from reviewer.rule.checks import (
    CheckPattern,
    CompiledCheck,
    PatternError,
    PatternTimeout,
    compile_check,
    evaluate_many,
    last_user_message,
)
from reviewer.rule.ecmascript import EngineUnavailable
from reviewer.rule.replay import imported_decision, load_attempts
from reviewer.store import Store

CHUNK = 500


@dataclass(frozen=True, slots=True)
class Mismatch:
    """One record whose replayed decision differs from the stored one."""

    key: str
    stored_accepted: bool
    replayed_accepted: bool
    stored_reasons: tuple[str, ...]
    replayed_reasons: tuple[str, ...]

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"attempt": self.key,
                "stored": {"accepted": self.stored_accepted, "reasons": self.stored_reasons},
                "replayed": {"accepted": self.replayed_accepted,
                             "reasons": self.replayed_reasons}}


@dataclass
class ReplayCheck:
    """How many records were replayed and which ones were not reproduced."""

    total: int = 0
    mismatches: list[Mismatch] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when every record was reproduced."""
        return not self.mismatches

    def summary(self) -> str:
        """``N records, all reproduced`` or ``M of N records not reproduced``."""
        if self.ok:
            return f"{self.total} records, all reproduced"
        return f"{len(self.mismatches)} of {self.total} records not reproduced"


def check_replay(store: Store, run: str | None = None) -> ReplayCheck:
    """Replay the filter rule on every stored attempt (or one run's) and compare."""
    stmt = (
        select(Attempt.id, Run.name, Conversation.name)
        .join(Conversation, Conversation.id == Attempt.conversation_id)
        .join(Run, Run.id == Conversation.run_id)
        .order_by(Run.name, Conversation.name, Attempt.turn, Attempt.attempt)
    )
    if run is not None:
        stmt = stmt.where(Run.name == run)
    result = ReplayCheck()
    with store.session() as session:
        rows = session.execute(stmt).all()
    names = {aid: (r, c) for aid, r, c in rows}
    ids = [aid for aid, _, _ in rows]
    for start in range(0, len(ids), CHUNK):
        with store.session() as session:
            for attempt in load_attempts(session, ids[start:start + CHUNK]):
                result.total += 1
                decision = imported_decision(attempt)
                stored = tuple(str(r) for r in attempt.reasons)
                if decision.accepted == attempt.accepted and decision.reasons == stored:
                    continue
                run_name, conversation = names[attempt.id]
                key = AttemptKey(run_name, conversation, attempt.turn, attempt.attempt)
                result.mismatches.append(Mismatch(str(key), attempt.accepted,
                                                  decision.accepted, stored, decision.reasons))
    result.mismatches.sort(key=lambda m: m.key)
    return result


@dataclass(frozen=True, slots=True)
class CheckDifference:
    """A stored check result that its own version, evaluated again, does not give back."""

    key: str
    check_id: str
    version: int
    dialect: str
    stored_passed: bool
    rechecked_passed: bool | None  # None: the pattern could not be evaluated (see error)
    error: str = ""

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"attempt": self.key, "check": self.check_id, "version": self.version,
                "dialect": self.dialect, "stored": self.stored_passed,
                "rechecked": self.rechecked_passed, **({"error": self.error} if self.error
                                                       else {})}


@dataclass
class Recheck:
    """How many stored check results were evaluated again and which ones differ."""

    total: int = 0
    differences: list[CheckDifference] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when every stored result was given back."""
        return not self.differences

    def summary(self) -> str:
        """``N check results, all reproduced`` or ``M of N check results differ``."""
        if self.ok:
            return f"{self.total} check results, all reproduced"
        return f"{len(self.differences)} of {self.total} check results differ"


def _compiled(versions: dict[int, CheckVersion]) -> dict[int, CompiledCheck | str]:
    """Each version compiled in its dialect, or the reason it cannot be."""
    out: dict[int, CompiledCheck | str] = {}
    for vid, cv in versions.items():
        try:
            out[vid] = compile_check(CheckPattern(cv.pattern, cv.flags, cv.mode, cv.when,
                                                  cv.dialect))
        except EngineUnavailable:
            raise  # no engine here (ulimit -v): nothing can be rechecked, not a difference
        except PatternError as exc:
            out[vid] = str(exc)
    return out


def _recheck_chunk(rows: list[Any], results: list[tuple[int, int, bool]],
                   versions: dict[int, CheckVersion],
                   compiled: dict[int, CompiledCheck | str], report: Recheck) -> None:
    by_attempt = {r[0]: r for r in rows}
    per_version: dict[int, list[tuple[int, bool]]] = defaultdict(list)
    for attempt_id, vid, passed in results:
        per_version[vid].append((attempt_id, passed))
    for vid, items in per_version.items():
        cv, check = versions[vid], compiled[vid]
        keys = [str(AttemptKey(*by_attempt[aid][1:5])) for aid, _ in items]
        report.total += len(items)
        error = check if isinstance(check, str) else ""
        got: list[bool | None] = [None] * len(items)
        if isinstance(check, CompiledCheck):
            responses = [by_attempt[aid][5] for aid, _ in items]
            users = [last_user_message(by_attempt[aid][6]) for aid, _ in items]
            try:
                got = list(evaluate_many(check, responses, users, where=keys.__getitem__))
            except PatternTimeout as exc:
                error = str(exc)
        for key, (_, stored), rechecked in zip(keys, items, got, strict=True):
            if rechecked != stored:
                report.differences.append(CheckDifference(
                    key, cv.check_id, cv.version, cv.dialect, stored, rechecked, error))


def recheck_checks(store: Store, run: str | None = None, *, chunk: int = CHUNK) -> Recheck:
    """Evaluate every stored check result again under its own version and dialect."""
    stmt = (
        select(Attempt.id, Run.name, Conversation.name, Attempt.turn, Attempt.attempt,
               Attempt.response, Attempt.messages)
        .join(Conversation, Conversation.id == Attempt.conversation_id)
        .join(Run, Run.id == Conversation.run_id)
        .order_by(Attempt.id)
    )
    if run is not None:
        stmt = stmt.where(Run.name == run)
    report = Recheck()
    with store.session() as session:
        versions = {cv.id: cv for cv in session.scalars(select(CheckVersion))}
        compiled = _compiled(versions)
        ids = list(session.scalars(stmt.with_only_columns(Attempt.id)))
        for start in range(0, len(ids), chunk):
            part = ids[start:start + chunk]
            rows = list(session.execute(stmt.where(Attempt.id.in_(part))))
            results = [(a, v, p) for a, v, p in session.execute(
                select(CheckResult.attempt_id, CheckResult.check_version_id,
                       CheckResult.passed)
                .where(CheckResult.attempt_id.in_(part))
                .order_by(CheckResult.attempt_id, CheckResult.position))]
            _recheck_chunk(rows, results, versions, compiled, report)
    report.differences.sort(key=lambda d: (d.key, d.check_id))
    return report

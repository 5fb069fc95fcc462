"""The units of work of the app's two editors (regex back-test, criteria), one function each.

The editors read what they edit (current versions, how many attempts each criterion
touched), store a new version with its reason, preview a response under the old and the
new pattern, and re-judge what a criterion touched. Each function receives the session of
the caller's unit of work (the app's task manager opens it) or, for the long judge run,
the store; what a save changes is reported as ``Changes`` so every open screen refreshes.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy.orm import Session

from reviewer.catalog.spec import CheckSpec, CriterionSpec
from reviewer.catalog.versions import (
    add_check_version,
    add_criterion_version,
    check_spec,
    criterion_spec,
    current_check_versions,
    current_criterion_versions,
)
from reviewer.changes import Changes
from reviewer.judge.client import JudgeClient
from reviewer.keys import AttemptKey
from reviewer.revise.backtest import response_of
from reviewer.revise.criterion_rejudge import RejudgeReport, rejudge_criterion, touched_counts
from reviewer.rule.checks import CheckPattern, compile_check, find_matches
from reviewer.store import Store

Spans = list[tuple[int, int]]


@dataclass(frozen=True, slots=True)
class CriteriaState:
    """The criteria as the editor lists them: current specs, version numbers, and how many
    attempts the filter judged on each (what a re-judging run would send)."""

    specs: dict[str, CriterionSpec]
    versions: dict[str, int]
    touched: dict[str, int]


@dataclass(frozen=True, slots=True)
class ChecksState:
    """The checks as the regex editor lists them: current specs and version numbers."""

    specs: dict[str, CheckSpec]
    versions: dict[str, int]


@dataclass(frozen=True, slots=True)
class SavedVersion:
    """A new version of a criterion or a check."""

    ident: str
    version: int

    @property
    def changes(self) -> Changes:
        """Every screen showing a criterion's text or a check's pattern refreshes."""
        return Changes(catalog=True)


@dataclass(frozen=True, slots=True)
class Preview:
    """One stored response with the spans the old and the new pattern match."""

    text: str
    old: Spans
    new: Spans


@dataclass(frozen=True, slots=True)
class RejudgeRun:
    """A re-judging run's report; its new verdicts change what every screen shows."""

    report: RejudgeReport

    @property
    def changes(self) -> Changes:
        """New ``rejudge`` verdicts on the touched attempts (which ones is not tracked)."""
        return Changes(verdicts=True)


def criteria_state(session: Session) -> CriteriaState:
    """The criteria editor's list."""
    current = current_criterion_versions(session)
    return CriteriaState({k: criterion_spec(v) for k, v in sorted(current.items())},
                         {k: v.version for k, v in current.items()}, touched_counts(session))


def checks_state(session: Session) -> ChecksState:
    """The regex editor's list."""
    current = current_check_versions(session)
    return ChecksState({k: check_spec(v) for k, v in sorted(current.items())},
                       {k: v.version for k, v in current.items()})


def save_criterion_version(session: Session, spec: CriterionSpec, *, reason: str,
                           author: str) -> SavedVersion:
    """Store ``spec`` as its criterion's next version, with the reason and the author."""
    return SavedVersion(spec.id, add_criterion_version(session, spec, reason=reason,
                                                       author=author).version)


def save_check_version(session: Session, spec: CheckSpec, *, reason: str,
                       author: str) -> SavedVersion:
    """Store ``spec`` as its check's next version, with the reason and the author."""
    return SavedVersion(spec.id, add_check_version(session, spec, reason=reason,
                                                   author=author).version)


def check_preview(session: Session, key: AttemptKey, old: CheckPattern, new: CheckPattern,
                  *, timeout: float) -> Preview:
    """The response of ``key`` and what each pattern matches in it (each bounded in time)."""
    text = response_of(session, key)
    where = str(key)
    return Preview(text,
                   find_matches(compile_check(old, timeout=timeout), text, where=where),
                   find_matches(compile_check(new, timeout=timeout), text, where=where))


def rejudge_touched(store: Store, client: JudgeClient, criterion_id: str, *,
                    progress: Callable[[int, int], None] | None = None,
                    cancel: threading.Event | None = None) -> RejudgeRun:
    """Re-judge every attempt the criterion touched under its current version."""
    return RejudgeRun(rejudge_criterion(store, client, criterion_id, progress=progress,
                                        cancel=cancel))

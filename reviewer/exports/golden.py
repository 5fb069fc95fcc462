"""The golden set: every reviewed attempt with what the reviewer expects of the filter.

One JSONL record per audited attempt (``reviewer.labels``), for the filter's own
regression tests::

    {"key", "messages", "response", "reference",
     "expected": {"accepted": bool,
                  "criteria": {"G-DEMANDE": true, …},   # met ("oui") as the reviewer reads it
                  "checks": {"D-COMMERCE": true, …}},   # passed
     "filter": {"accepted": bool, "reasons": [...]},    # what the filter said
     "versions": {"G-DEMANDE": 1, "D-COMMERCE": 2, …},  # versions the grader ran under
     "reviewer", "note"}

The per-criterion and per-check expectations follow docs/agreement.md.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from models import Conversation, Run
from reviewer.atomic import write_jsonl_atomic
from reviewer.keys import AttemptKey
from reviewer.outputs import Output
from reviewer.review.labels import (
    ReviewView,
    check_label,
    criterion_bad,
    review_views,
    reviewer_good,
)
from reviewer.rule.replay import (
    check_outcomes,
    effective_verdicts,
    imported_results,
    load_attempts,
)

CHUNK = 500


def _names(session: Session, conv_ids: set[int]) -> dict[int, tuple[str, str]]:
    rows = session.execute(
        select(Conversation.id, Run.name, Conversation.name)
        .join(Run, Conversation.run_id == Run.id).where(Conversation.id.in_(conv_ids)))
    return {cid: (run, name) for cid, run, name in rows}


def golden_record(attempt: Any, view: ReviewView, key: AttemptKey) -> dict[str, Any]:
    """One attempt's expectations."""
    criteria: dict[str, bool] = {}
    for v in effective_verdicts(attempt.verdicts, overrides=view.overrides):
        bad = criterion_bad(v, view)
        criteria[v.criterion_id] = (not bad) if v.kind == "success" else bad
    checks: dict[str, bool] = {}
    for c in check_outcomes(attempt.check_results):
        label = check_label(view, c.check_id, c.passed)
        checks[c.check_id] = c.passed if label is None else not label
    versions = {v.criterion_version.criterion_id: v.criterion_version.version
                for v in attempt.verdicts if v.origin == "filter"}
    versions |= {r.check_version.check_id: r.check_version.version
                 for r in imported_results(attempt.check_results)}
    return {
        "key": str(key),
        "messages": attempt.messages,
        "response": attempt.response,
        "reference": attempt.reference,
        "expected": {"accepted": reviewer_good(attempt, view), "criteria": criteria,
                     "checks": checks},
        "filter": {"accepted": attempt.accepted, "reasons": attempt.reasons},
        "versions": dict(sorted(versions.items())),
        "reviewer": view.reviewer,
        "note": view.note,
    }


def golden_records(session: Session, reviewer: str | None = None) -> Iterator[dict[str, Any]]:
    """The records, in key order."""
    views = review_views(session, reviewer)
    ids = sorted(views)
    rows: list[tuple[AttemptKey, int]] = []
    for i in range(0, len(ids), CHUNK):
        attempts = load_attempts(session, ids[i:i + CHUNK])
        names = _names(session, {a.conversation_id for a in attempts})
        rows += [(AttemptKey(*names[a.conversation_id], a.turn, a.attempt), a.id)
                 for a in attempts]
        session.expunge_all()
    rows.sort()
    for i in range(0, len(rows), CHUNK):
        part = rows[i:i + CHUNK]
        by_id = {a.id: a for a in load_attempts(session, [aid for _, aid in part])}
        for key, aid in part:
            yield golden_record(by_id[aid], views[aid], key)
        session.expunge_all()


def export_golden(session: Session, out: Path | Output, *, reviewer: str | None = None) -> int:
    """Write the golden set atomically; return how many attempts."""
    return write_jsonl_atomic(out, golden_records(session, reviewer))

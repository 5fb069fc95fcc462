"""Storing the contradiction detector's readings: one ``ContradictionFlag`` per verdict.

``flag_attempts(session, ids)`` scores every first-opinion (filter) verdict of the given
attempts with the deterministic tier, inserts or updates its ``rules`` flag, and sets
``Attempt.contradiction_score`` to the highest score among them (the review queue sorts
on it). It works inside the caller's unit of work, so the importer can call it from its
``on_imported`` hook and flag new attempts in the same transaction. Writes go through
bulk statements: a season of runs has about a million verdicts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.orm import Session

from models import Attempt, ContradictionFlag, CriterionVersion, Verdict
from reviewer.contradiction import detect
from reviewer.store import Store, refresh_statistics

TIER = "rules"
DETECTOR = "rules-v1"
CHUNK = 500
TABLES = Attempt.metadata.tables


@dataclass
class FlagCounts:
    """What a flagging pass did."""

    attempts: int = 0
    verdicts: int = 0
    flagged: int = 0
    flagged_attempts: int = 0

    def add(self, other: FlagCounts) -> None:
        """Accumulate another pass's counts."""
        self.attempts += other.attempts
        self.verdicts += other.verdicts
        self.flagged += other.flagged
        self.flagged_attempts += other.flagged_attempts

    def summary(self) -> str:
        """The line ``reviewer flag`` prints."""
        return (f"{self.verdicts} verdicts scored on {self.attempts} attempts: "
                f"{self.flagged} flagged, on {self.flagged_attempts} attempts")


def flag_attempts(session: Session, ids: Iterable[int]) -> FlagCounts:
    """Score and store the rules-tier flags of these attempts' filter verdicts."""
    counts = FlagCounts()
    ids = list(ids)
    for start in range(0, len(ids), CHUNK):
        counts.add(_flag_chunk(session, ids[start:start + CHUNK]))
    return counts


def flag_imported(session: Session, ids: list[int]) -> None:
    """The importer's ``on_imported`` hook: flag the attempts a file just added."""
    flag_attempts(session, ids)


def _flag_chunk(session: Session, ids: list[int]) -> FlagCounts:
    rows = session.execute(
        select(Verdict.id, Verdict.attempt_id, Verdict.met, Verdict.rationale,
               CriterionVersion.kind, CriterionVersion.text, CriterionVersion.criterion_id)
        .join(CriterionVersion, CriterionVersion.id == Verdict.criterion_version_id)
        .where(Verdict.attempt_id.in_(ids), Verdict.origin == "filter")
    ).all()
    existing: dict[int, int] = {
        verdict_id: flag_id for verdict_id, flag_id in session.execute(
            select(ContradictionFlag.verdict_id, ContradictionFlag.id)
            .where(ContradictionFlag.verdict_id.in_([r.id for r in rows]),
                   ContradictionFlag.tier == TIER))
    }
    best = dict.fromkeys(ids, 0.0)
    inserts: list[dict[str, Any]] = []
    updates: list[dict[str, Any]] = []
    counts = FlagCounts(attempts=len(ids), verdicts=len(rows))
    flagged_attempts: set[int] = set()
    for r in rows:
        found = detect(r.kind, r.met, r.rationale, r.text, r.criterion_id)
        values = {"score": found.score, "flagged": found.contradiction,
                  "evidence": found.evidence, "detector": DETECTOR}
        if found.contradiction:
            counts.flagged += 1
            flagged_attempts.add(r.attempt_id)
        best[r.attempt_id] = max(best[r.attempt_id], found.score)
        if r.id in existing:
            updates.append({"id": existing[r.id], **values})
        else:
            inserts.append({"verdict_id": r.id, "tier": TIER, **values})
    # Core executemany on the session's connection: the ORM bulk path cost more per row
    # than the database did (a season is about a million verdicts).
    conn = session.connection()
    flags, attempts = TABLES["contradiction_flags"], TABLES["attempts"]
    if inserts:
        conn.execute(insert(flags), inserts)
    if updates:
        conn.execute(update(flags).where(flags.c.id == bindparam("flag_id")),
                     [{"flag_id": u.pop("id"), **u} for u in updates])
    conn.execute(update(attempts).where(attempts.c.id == bindparam("attempt_id"))
                 .values(contradiction_score=bindparam("score")),
                 [{"attempt_id": a, "score": s} for a, s in best.items()])
    counts.flagged_attempts = len(flagged_attempts)
    return counts


def flag_all(store: Store, progress: Callable[[int, int], None] | None = None) -> FlagCounts:
    """Flag every stored attempt, one unit of work per chunk."""
    with store.session() as session:
        ids = list(session.scalars(select(Attempt.id).order_by(Attempt.id)))
    counts = FlagCounts()
    for start in range(0, len(ids), CHUNK):
        with store.session() as session:
            counts.add(flag_attempts(session, ids[start:start + CHUNK]))
        if progress:
            progress(min(start + CHUNK, len(ids)), len(ids))
    if ids:
        with store.session() as session:
            refresh_statistics(session)  # the queue filters on the new flags
    return counts

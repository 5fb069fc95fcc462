"""Storing the contradiction detector's readings: a ``ContradictionFlag`` per scored verdict.

``flag_attempts(session, ids)`` scores every first-opinion (filter) verdict of the given
attempts with the deterministic tier, stores its ``rules`` flag, and sets
``Attempt.contradiction_score`` to the highest score among them (the review queue sorts
on it). It works inside the caller's unit of work, so the importer can call it from its
``on_imported`` hook and flag new attempts in the same transaction. ``flag_all`` (what
``reviewer flag`` runs) does the same for the whole store, one unit of work per chunk of
attempts, and can score the chunks in worker processes while it reads and writes.

Only readings with a score above 0 are stored: a verdict without a ``rules`` flag reads
as score 0, not flagged, no evidence (what the detector says of it; the example pane
recomputes it when shown). About nine verdicts in ten score 0, and a season has about a
million verdicts: writing a row for each of them was most of a pass's writing.
A rerun writes only the readings that changed; one that dropped to 0 disappears.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, bindparam, text
from sqlalchemy.orm import Session

from models import Attempt
from models.base import utcnow
from reviewer.store import Store, refresh_statistics
from reviewer.store.bulk import insert_rows

TIER = "rules"
# Which detector wrote a flag: a rerun rewrites the flags another version wrote.
# v2: the scanner's cues stacked with the learned reading (reviewer/contradiction/learned.py).
DETECTOR = "rules+learned-v2"
CHUNK = 1000  # attempts per unit of work (about 12,000 verdicts): small enough to pipeline
# With worker processes, each should get at least this many chunks: the first chunk is
# scored before anything is written and the last is written after everything is scored,
# so with few chunks (10,000 attempts: ten) the workers and the writer wait on each other.
CHUNKS_PER_WORKER = 8
MIN_CHUNK = 250  # below this a chunk's statements cost more than its scoring saves
TABLES = Attempt.metadata.tables

# (verdict id, attempt id, met, rationale, criterion version id)
VerdictRow = tuple[int, int, Any, str, int]
# (kind, text, criterion id) of a criterion version
Criterion = tuple[str, str, str]
# (score, flagged, evidence)
Reading = tuple[float, bool, str]

_VERDICTS = text(
    "SELECT id, attempt_id, met, rationale, criterion_version_id FROM verdicts "
    "WHERE origin = 'filter' AND attempt_id IN :ids ORDER BY id"
).bindparams(bindparam("ids", expanding=True))
_VERDICTS_RANGE = text(
    "SELECT id, attempt_id, met, rationale, criterion_version_id FROM verdicts "
    "WHERE origin = 'filter' AND attempt_id >= :lo AND attempt_id <= :hi ORDER BY id")
_CRITERIA = text("SELECT id, kind, text, criterion_id FROM criterion_versions")
# A rerun compares the chunk's stored rules readings with the new ones and writes only
# the difference: deleting and reinserting every reading also made the triggers that keep
# ``attempts.flagged`` rewrite each flagged attempt twice (its row holds the answer).
_OLD = text(
    "SELECT verdict_id, score, flagged, evidence, detector FROM contradiction_flags "
    "WHERE tier = :tier AND verdict_id IN :ids"
).bindparams(bindparam("ids", expanding=True))
_OLD_RANGE = text(
    "SELECT verdict_id, score, flagged, evidence, detector FROM contradiction_flags "
    "WHERE tier = :tier AND verdict_id IN ("
    "SELECT id FROM verdicts WHERE attempt_id >= :lo AND attempt_id <= :hi)")
_DROP = text(
    "DELETE FROM contradiction_flags WHERE tier = :tier AND verdict_id IN :ids"
).bindparams(bindparam("ids", expanding=True))
# Each attempt's score is the highest of its filter verdicts' rules flags (0 without any):
# one statement per chunk, computed from the flags just written.
_SCORES = text(
    "UPDATE attempts SET contradiction_score = COALESCE(("
    "SELECT max(f.score) FROM verdicts v JOIN contradiction_flags f ON f.verdict_id = v.id "
    "WHERE v.attempt_id = attempts.id AND v.origin = 'filter' AND f.tier = :tier), 0.0) "
    "WHERE id IN :ids"
).bindparams(bindparam("ids", expanding=True))
_SCORES_RANGE = text(
    "UPDATE attempts SET contradiction_score = COALESCE(("
    "SELECT max(f.score) FROM verdicts v JOIN contradiction_flags f ON f.verdict_id = v.id "
    "WHERE v.attempt_id = attempts.id AND v.origin = 'filter' AND f.tier = :tier), 0.0) "
    "WHERE id >= :lo AND id <= :hi")

# PostgreSQL planned the correlated form once per chunk from the statistics of the import,
# taken when no flag existed yet: it read every stored flag for each attempt (25 s of a
# 47 s pass at 10,000 attempts). Grouped by attempt it reads the chunk's flags once, and
# it leaves alone the attempts whose score did not change (most of them: an update
# writes a new copy of the row, answer included).
_PG_CHUNK = "a.id >= :lo AND a.id <= :hi AND a.id = ANY(:ids)"
_PG_SCORES = (
    text("UPDATE attempts a SET contradiction_score = s.score FROM ("
         "SELECT v.attempt_id, max(f.score) AS score FROM verdicts v "
         "JOIN contradiction_flags f ON f.verdict_id = v.id "
         "WHERE v.attempt_id >= :lo AND v.attempt_id <= :hi AND v.attempt_id = ANY(:ids) "
         "AND v.origin = 'filter' AND f.tier = :tier GROUP BY v.attempt_id) s "
         f"WHERE a.id = s.attempt_id AND {_PG_CHUNK} "
         "AND a.contradiction_score IS DISTINCT FROM s.score"),
    text("UPDATE attempts a SET contradiction_score = 0.0 "
         f"WHERE {_PG_CHUNK} AND a.contradiction_score <> 0.0 AND NOT EXISTS ("
         "SELECT 1 FROM verdicts v JOIN contradiction_flags f ON f.verdict_id = v.id "
         "WHERE v.attempt_id = a.id AND v.origin = 'filter' AND f.tier = :tier)"),
)


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


# -- scoring (in this process or in a worker) ------------------------------------------

_criteria: dict[int, Criterion] = {}


def _init_worker(criteria: dict[int, Criterion]) -> None:
    """A worker process keeps the criterion texts: chunks carry only version ids."""
    _criteria.clear()
    _criteria.update(criteria)


def score(items: Sequence[tuple[int, Any, str]]) -> list[Reading]:
    """The detector's reading of each ``(criterion version id, met, rationale)``."""
    from reviewer.contradiction import detect  # the app's start does not need the lexicon

    criteria = _criteria
    out: list[Reading] = []
    append = out.append
    for cv_id, met, rationale in items:
        kind, criterion_text, criterion_id = criteria[cv_id]
        # "oui"/"non" is the detector's quickest spelling of a verdict (SQLite gives 0/1).
        found = detect(kind, "oui" if met else "non", rationale, criterion_text, criterion_id)
        append((found.score, found.contradiction, found.evidence))
    return out


def _load_criteria(conn: Connection) -> dict[int, Criterion]:
    return {cv_id: (kind, criterion_text, criterion_id)
            for cv_id, kind, criterion_text, criterion_id in conn.execute(_CRITERIA)}


# -- storing ---------------------------------------------------------------------------

def _store(conn: Connection, attempt_ids: list[int], rows: list[VerdictRow],
           readings: list[Reading], clear: bool = True, contiguous: bool = False
           ) -> FlagCounts:
    """Replace the chunk's rules flags by its readings above 0; set its attempts' scores.

    ``clear``: rules flags may already be stored (a rerun): only the readings that
    changed are written, those that fell to 0 deleted. ``contiguous``: the chunk is every
    attempt between its ends, so the statements take a range instead of a list of ids.
    """
    counts = FlagCounts(attempts=len(attempt_ids), verdicts=len(rows))
    new: dict[int, Reading] = {}
    flagged_attempts: set[int] = set()
    for row, reading in zip(rows, readings, strict=True):
        if reading[1]:
            counts.flagged += 1
            flagged_attempts.add(row[1])
        if reading[0] > 0.0:
            new[row[0]] = reading
    counts.flagged_attempts = len(flagged_attempts)
    bounds = {"tier": TIER, "lo": attempt_ids[0], "hi": attempt_ids[-1]}
    if clear:
        old = _old_readings(conn, rows, bounds, contiguous)
        _write_difference(conn, old, new)
    elif new:
        now = utcnow()
        insert_rows(conn, TABLES["contradiction_flags"], [_flag_row(v, r, now)
                                                          for v, r in new.items()])
    if conn.dialect.name == "postgresql":
        for statement in _PG_SCORES:
            conn.execute(statement, {"tier": TIER, "lo": attempt_ids[0], "hi": attempt_ids[-1],
                                     "ids": attempt_ids})
    elif contiguous:
        conn.execute(_SCORES_RANGE, bounds)
    else:
        for start in range(0, len(attempt_ids), 20_000):
            conn.execute(_SCORES, {"tier": TIER, "ids": attempt_ids[start:start + 20_000]})
    return counts


def _flag_row(verdict_id: int, reading: Reading, now: datetime) -> dict[str, Any]:
    return {"verdict_id": verdict_id, "tier": TIER, "score": reading[0],
            "flagged": reading[1], "evidence": reading[2], "detector": DETECTOR,
            "created_at": now}


def _old_readings(conn: Connection, rows: list[VerdictRow], bounds: dict[str, Any],
                  contiguous: bool) -> dict[int, tuple[Reading, str]]:
    """The chunk's stored rules readings, with the detector that made them."""
    if contiguous:
        found = list(conn.execute(_OLD_RANGE, bounds))
    else:
        ids = [row[0] for row in rows]
        found = [r for start in range(0, len(ids), 20_000)  # bounded IN lists
                 for r in conn.execute(_OLD, {"tier": TIER, "ids": ids[start:start + 20_000]})]
    return {r[0]: ((float(r[1]), bool(r[2]), r[3] or ""), r[4] or "") for r in found}


def _write_difference(conn: Connection, old: dict[int, tuple[Reading, str]],
                      new: dict[int, Reading]) -> None:
    """Delete the readings that fell to 0, update those that changed, insert new ones."""
    flags = TABLES["contradiction_flags"]
    gone = [v for v in old if v not in new]
    for start in range(0, len(gone), 20_000):
        conn.execute(_DROP, {"tier": TIER, "ids": gone[start:start + 20_000]})
    changed = [{"b_verdict": v, "b_score": r[0], "b_flagged": r[1], "b_evidence": r[2]}
               for v, r in new.items() if v in old and old[v] != (r, DETECTOR)]
    if changed:
        conn.execute(flags.update()
                     .where(flags.c.verdict_id == bindparam("b_verdict"), flags.c.tier == TIER)
                     .values(score=bindparam("b_score"), flagged=bindparam("b_flagged"),
                             evidence=bindparam("b_evidence"), detector=DETECTOR), changed)
    now = utcnow()
    insert_rows(conn, flags, [_flag_row(v, r, now) for v, r in new.items() if v not in old])


def _chunk_rows(conn: Connection, ids: list[int], contiguous: bool) -> list[VerdictRow]:
    if contiguous:  # ids is every attempt between its ends: a range reads the index once
        result = conn.execute(_VERDICTS_RANGE, {"lo": ids[0], "hi": ids[-1]})
    else:
        result = conn.execute(_VERDICTS, {"ids": ids})
    return [(r[0], r[1], r[2], r[3], r[4]) for r in result]


def flag_attempts(session: Session, ids: Iterable[int]) -> FlagCounts:
    """Score and store the rules-tier flags of these attempts' filter verdicts."""
    counts = FlagCounts()
    ids = sorted(set(ids))
    if not ids:
        return counts
    conn = session.connection()
    _init_worker(_load_criteria(conn))
    for start in range(0, len(ids), CHUNK):
        part = ids[start:start + CHUNK]
        rows = _chunk_rows(conn, part, contiguous=False)
        counts.add(_store(conn, part, rows, score([(r[4], r[2], r[3]) for r in rows])))
    return counts


def flag_imported(session: Session, ids: list[int]) -> None:
    """The importer's ``on_imported`` hook: flag the attempts a file just added."""
    flag_attempts(session, ids)


# -- the whole store -------------------------------------------------------------------

def default_workers() -> int:
    """Scoring processes for ``flag_all``: one per core, at most two (the writer is the
    bottleneck beyond that)."""
    return max(1, min(2, os.cpu_count() or 1))


def chunk_size(attempts: int, workers: int, chunk: int = CHUNK) -> int:
    """Attempts per chunk for a pass over ``attempts`` with ``workers`` processes: at most
    ``chunk``, smaller when the store is too small to give every worker several chunks."""
    if workers <= 1:
        return chunk
    return max(min(MIN_CHUNK, chunk), min(chunk, attempts // (workers * CHUNKS_PER_WORKER)))


def _warm(criteria: dict[int, Criterion], rows: list[VerdictRow]) -> None:
    """Load the detector (lexicon, compiled scanner, first-call tables) in this process
    before the workers start: forked workers inherit it instead of each loading it while
    the first chunks wait (about a tenth of a second each, a tenth of a 10,000-attempt pass)."""
    _init_worker(criteria)
    score([(r[4], r[2], r[3]) for r in rows[:24]])


def _chunks(ids: list[int], chunk: int) -> Iterator[tuple[list[int], bool]]:
    for start in range(0, len(ids), chunk):
        part = ids[start:start + chunk]
        yield part, part[-1] - part[0] == len(part) - 1


def flag_all(store: Store, progress: Callable[[int, int], None] | None = None,
             workers: int | None = None, chunk: int = CHUNK) -> FlagCounts:
    """Flag every stored attempt, one unit of work per chunk.

    With ``workers`` > 1 the chunks are scored in that many processes while this one
    reads the next chunks and writes the scored ones; results are stored in chunk order,
    so the flags are the same whatever the number of workers.
    """
    workers = default_workers() if workers is None else max(1, workers)
    with store.session() as session:
        conn = session.connection()
        ids = [i for (i,) in conn.execute(text("SELECT id FROM attempts ORDER BY id"))]
        criteria = _load_criteria(conn)
        # A first pass has nothing to replace: skip looking up every verdict's old flag.
        clear = conn.execute(text("SELECT 1 FROM contradiction_flags WHERE tier = :tier "
                                  "LIMIT 1"), {"tier": TIER}).first() is not None
    counts = FlagCounts()
    done = 0

    def write(part: list[int], rows: list[VerdictRow], readings: list[Reading]) -> None:
        nonlocal done
        contiguous = part[-1] - part[0] == len(part) - 1
        with store.session() as session:
            counts.add(_store(session.connection(), part, rows, readings, clear, contiguous))
        done += len(part)
        if progress:
            progress(done, len(ids))

    if workers == 1 or len(ids) <= chunk:  # one chunk: nothing to overlap
        _init_worker(criteria)
        for part, contiguous in _chunks(ids, chunk):
            with store.session() as session:
                rows = _chunk_rows(session.connection(), part, contiguous)
            write(part, rows, score([(r[4], r[2], r[3]) for r in rows]))
    else:
        parts = list(_chunks(ids, chunk_size(len(ids), workers, chunk)))
        first: list[VerdictRow] | None = None
        with store.session() as session:
            first = _chunk_rows(session.connection(), *parts[0])
        _warm(criteria, first)
        with ProcessPoolExecutor(workers, initializer=_init_worker,
                                 initargs=(criteria,)) as pool:
            pending: deque[tuple[list[int], list[VerdictRow], Future[list[Reading]]]] = deque()
            for part, contiguous in parts:
                if first is not None:  # read already, to warm the detector
                    rows, first = first, None
                else:
                    with store.session() as session:
                        rows = _chunk_rows(session.connection(), part, contiguous)
                pending.append((part, rows, pool.submit(score, [(r[4], r[2], r[3])
                                                                for r in rows])))
                if len(pending) > workers:  # keep every worker busy, memory bounded
                    part0, rows0, future = pending.popleft()
                    write(part0, rows0, future.result())
            while pending:
                part0, rows0, future = pending.popleft()
                write(part0, rows0, future.result())
    if ids:
        with store.session() as session:
            refresh_statistics(session)  # the queue filters on the new flags
    return counts

"""Storing the contradiction detector's readings: a ``ContradictionFlag`` per scored verdict.

``flag_attempts(session, ids)`` scores every first-opinion (filter) verdict of the given
attempts with the deterministic tier, stores its ``rules`` flag, and sets
``Attempt.contradiction_score`` to the highest score among them (the review queue sorts
on it). It works inside the caller's unit of work, so the importer can call it from its
``on_imported`` hook and flag new attempts in the same transaction. ``flag_all`` (what
``reviewer flag`` runs) does the same for the whole store, one unit of work per chunk of
attempts, and can score the chunks (and work out which readings change the decision) in
worker processes while it reads and writes.

Only readings with a score above 0 are stored: a verdict without a ``rules`` flag reads
as score 0, not flagged, no evidence (what the detector says of it; the example pane
recomputes it when shown). About nine verdicts in ten score 0, and a season has about a
million verdicts: writing a row for each of them was most of a pass's writing.
A rerun writes only the readings that changed; one that dropped to 0 disappears.

Each reading also says whether it is *decision-changing*
(:mod:`reviewer.contradiction.decisive`): whether reading that verdict the way its
rationale reads (with the attempt's flagged ones) would change the filter's decision on
the attempt, second opinions applied. The badge, the queue's flag column and
"contradictions only" show the flagged ones among them: ``attempts.flagged`` is "some
flagged reading is decision-changing" (kept by the triggers of migration 0011), and
``attempts.contradiction_score`` orders the queue by them, then by the unflagged
decision-changing readings, before quieter contradictions (see :data:`QUIET`). A second
opinion stored later changes the decision: :func:`refresh_decisions` recomputes the
attempt's flags from its stored readings.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from multiprocessing.process import BaseProcess
from typing import Any

from sqlalchemy import Connection, bindparam, text
from sqlalchemy.orm import Session

from models import Attempt
from models.base import utcnow
from reviewer.contradiction.decisive import decision_changing
from reviewer.rule.filter import CheckOutcome
from reviewer.rule.verdicts import Opinion, effective_verdict
from reviewer.store import Store, refresh_statistics
from reviewer.store.bulk import insert_rows

TIER = "rules"
# Which detector wrote a flag: a rerun rewrites the flags another version wrote.
# v2: the scanner's cues stacked with the learned reading (reviewer/contradiction/learned.py).
# v3: calibrated at a real run's base rate, decision-changing flags.
# v4: trained with base-rate runs D and E, the scanner's masses weighed three times.
DETECTOR = "rules+learned-v4"
CHUNK = 1000  # attempts per unit of work (about 12,000 verdicts): small enough to pipeline
# With worker processes, each should get at least this many chunks: the first chunk is
# scored before anything is written and the last is written after everything is scored,
# so with few chunks (10,000 attempts: ten) the workers and the writer wait on each other.
CHUNKS_PER_WORKER = 8
MIN_CHUNK = 250  # below this a chunk's statements cost more than its scoring saves
TABLES = Attempt.metadata.tables
# What a flagging pass writes (refresh_statistics): its readings, and of the attempts only
# the score and the badge (analyzing every column of attempts took three times as long).
FLAG_TABLES = ("attempts (contradiction_score, flagged)", "contradiction_flags")
PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
PARENT_POLL_S = 1.0
# How long a stopping pool waits for a worker to leave (idle workers leave at once),
# and for a killed one to be gone, before it goes on without it.
STOP_WAIT_S = 5.0

# (verdict id, attempt id, met, rationale, criterion version id)
VerdictRow = tuple[int, int, Any, str, int]
# (kind, text, criterion id, severity) of a criterion version
Criterion = tuple[str, str, str, str | None]
# (score, flagged, evidence, decision-changing)
Reading = tuple[float, bool, str, bool]
# What the rule reads besides the filter verdicts: each attempt's check outcomes and
# its applied second opinions by criterion id.
RuleInputs = tuple[dict[int, list[CheckOutcome]], dict[int, dict[str, Opinion]]]
# Their rows as read: (attempt id, check id, passed) in position order, and (attempt id,
# criterion id, met, rationale) of applied second opinions in id order.
RuleRows = tuple[list[tuple[int, str, Any]], list[tuple[int, str, Any, str]]]
QUIET = 0.001
"""A reading that would not change the filter's decision weighs this share of its score in
the attempt's queue score. So the queue score of an attempt with a decision-changing flag
(the badge: a score of at least the detector's threshold, 0.5) is always above that of
any attempt without one, and below the badge every reading that would change the
decision if the detector were right (an unflagged one, by its probability, at least
the detector's floor of 0.001) comes before any contradiction that would change nothing.

The queue is read as "most likely rescued first": an attempt whose contradiction changes
nothing is refused by something the detector does not dispute (a failed check, a
verdict read below the floor), so it is less likely to be rescued than any attempt
with a decision-changing reading, however likely its own contradiction. At 0.25 such
attempts sorted among the unflagged rescuable refusals and pushed the last of them back
(base-rate runs, read held-out: last rescuable refusal at 58, 97, 50, 207, 83; at
0.001: 47, 70, 50, 160, 68)."""

_VERDICTS = text(
    "SELECT id, attempt_id, met, rationale, criterion_version_id FROM verdicts "
    "WHERE origin = 'filter' AND attempt_id IN :ids ORDER BY id"
).bindparams(bindparam("ids", expanding=True))
_VERDICTS_RANGE = text(
    "SELECT id, attempt_id, met, rationale, criterion_version_id FROM verdicts "
    "WHERE origin = 'filter' AND attempt_id >= :lo AND attempt_id <= :hi ORDER BY id")
_CRITERIA = text("SELECT id, kind, text, criterion_id, severity FROM criterion_versions")
# What the rule needs to decide a flagged attempt, besides its filter verdicts: its check
# results and its latest applied second opinion per criterion (as reviewer.rule.replay
# reads them: the guard's "unreliable — not applied" ones never count).
_CHECKS = text(
    "SELECT r.attempt_id, c.check_id, r.passed FROM check_results r "
    "JOIN check_versions c ON c.id = r.check_version_id WHERE r.attempt_id IN :ids "
    "ORDER BY r.attempt_id, r.position").bindparams(bindparam("ids", expanding=True))
# "+v.criterion_version_id": the same number, but no longer a column SQLite may look up
# by its index. ANALYZE's sample (analysis_limit) says a criterion version has about a
# thousand verdicts, so SQLite read every verdict of every version (1.2 million at
# 100,000 attempts, 1.5 s per chunk: flag_all fell to 5,700 verdicts/s) instead of the
# chunk's second opinions through ix_verdicts_second_opinion (0.1 ms).
_SECOND = text(
    "SELECT v.attempt_id, c.criterion_id, v.met, v.rationale FROM verdicts v "
    "JOIN criterion_versions c ON c.id = +v.criterion_version_id "
    "WHERE v.origin = 'second_opinion' AND v.applied AND v.attempt_id IN :ids ORDER BY v.id"
).bindparams(bindparam("ids", expanding=True))
_CHECKS_RANGE = text(
    "SELECT r.attempt_id, c.check_id, r.passed FROM check_results r "
    "JOIN check_versions c ON c.id = r.check_version_id "
    "WHERE r.attempt_id >= :lo AND r.attempt_id <= :hi ORDER BY r.attempt_id, r.position")
_SECOND_RANGE = text(
    "SELECT v.attempt_id, c.criterion_id, v.met, v.rationale FROM verdicts v "
    "JOIN criterion_versions c ON c.id = +v.criterion_version_id "
    "WHERE v.origin = 'second_opinion' AND v.applied "
    "AND v.attempt_id >= :lo AND v.attempt_id <= :hi ORDER BY v.id")
# PostgreSQL takes the ids as one array: an expanded IN list is a new statement text for
# each length, converted and planned again each time (a fifth of these reads' time).
_PG_CHECKS = text(
    "SELECT r.attempt_id, c.check_id, r.passed FROM check_results r "
    "JOIN check_versions c ON c.id = r.check_version_id "
    "WHERE r.attempt_id = ANY(CAST(:ids AS integer[])) ORDER BY r.attempt_id, r.position")
_PG_SECOND = text(
    "SELECT v.attempt_id, c.criterion_id, v.met, v.rationale FROM verdicts v "
    "JOIN criterion_versions c ON c.id = v.criterion_version_id "
    "WHERE v.origin = 'second_opinion' AND v.applied "
    "AND v.attempt_id = ANY(CAST(:ids AS integer[])) ORDER BY v.id")
# A rerun compares the chunk's stored rules readings with the new ones and writes only
# the difference: deleting and reinserting every reading also made the triggers that keep
# ``attempts.flagged`` rewrite each flagged attempt twice (its row holds the answer).
_OLD = text(
    "SELECT verdict_id, score, flagged, evidence, detector, decisive FROM contradiction_flags "
    "WHERE tier = :tier AND verdict_id IN :ids"
).bindparams(bindparam("ids", expanding=True))
_OLD_RANGE = text(
    "SELECT verdict_id, score, flagged, evidence, detector, decisive FROM contradiction_flags "
    "WHERE tier = :tier AND verdict_id IN ("
    "SELECT id FROM verdicts WHERE attempt_id >= :lo AND attempt_id <= :hi)")
_DROP = text(
    "DELETE FROM contradiction_flags WHERE tier = :tier AND verdict_id IN :ids"
).bindparams(bindparam("ids", expanding=True))
# Each attempt's score is the highest of its filter verdicts' rules readings (0 without
# any), a reading that would not change the decision weighing QUIET of its score: one
# statement per chunk, computed from the readings just written.
_SCORE = (
    "COALESCE((SELECT max(CASE WHEN f.decisive THEN f.score ELSE f.score * :quiet END) "
    "FROM verdicts v JOIN contradiction_flags f ON f.verdict_id = v.id "
    "WHERE v.attempt_id = attempts.id AND v.origin = 'filter' AND f.tier = :tier), 0.0)")
_SCORES = text(f"UPDATE attempts SET contradiction_score = {_SCORE} WHERE id IN :ids"
               ).bindparams(bindparam("ids", expanding=True))
_SCORES_RANGE = text(
    f"UPDATE attempts SET contradiction_score = {_SCORE} WHERE id >= :lo AND id <= :hi")

# On PostgreSQL each attempt's score is computed here from the readings just stored (the
# chunk's filter verdicts are all of them: the same max as ``_SCORE``, in the same
# double-precision arithmetic) and sent as two arrays: one statement that touches only
# the attempts whose score changed (an update writes a new copy of the row). The grouped
# UPDATE … FROM (SELECT … GROUP BY) it replaces, and its second statement for the
# attempts that fell to 0, took a third of a 10,000-attempt pass on the server.
_PG_SCORES = text(
    "UPDATE attempts a SET contradiction_score = s.score "
    "FROM unnest(CAST(:ids AS integer[]), CAST(:scores AS double precision[])) AS s(id, score) "
    "WHERE a.id = s.id AND a.contradiction_score IS DISTINCT FROM s.score")


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
    _seen.clear()  # readings keyed by version id: ids of another store mean other texts
    _shapes.clear()


def _start_worker(parent: int, criteria: dict[int, Criterion]) -> None:
    """Initializer of a scoring process: end with the parent, leave Ctrl-C to it.

    Without this a worker outlived a parent killed by SIGKILL, SIGTERM or SIGHUP (it
    waits on the task queue, whose write end its sibling workers also hold, so no EOF
    ever comes), holding the database and its WAL open. Ctrl-C reaches the whole process
    group: a worker caught scoring would hand its KeyboardInterrupt back as that chunk's
    result, so the workers ignore it and the parent alone stops the pass. A worker is
    forked with Ctrl-C held (:func:`_ctrl_c_deferred`): one typed before this ran is
    dropped here, where it printed the worker's traceback and broke the pool.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # drops a Ctrl-C held since the fork
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    _die_with_parent(parent)
    _init_worker(criteria)


def _die_with_parent(parent: int) -> None:
    """Be killed when ``parent`` dies: at once on Linux (PR_SET_PDEATHSIG), elsewhere
    within a second (a thread watching the parent id)."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):  # no usable libc: the watcher below remains
            pass
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent,), name="parent-watch",
                     daemon=True).start()


def _watch_parent(parent: int) -> None:
    while True:
        time.sleep(PARENT_POLL_S)
        if os.getppid() != parent:  # reparented: the parent is gone
            os._exit(1)


# The readings this process already made in this pass, by (criterion version, met,
# rationale): a judge repeats its stock sentences across a run (the base-rate runs'
# false flags came in blocks of 20-30 copies of one sentence; the benchmark's run has a
# third of its rationales distinct), and the detector is deterministic, so a repeat
# costs a dictionary look-up instead of a scan. Bounded: cleared when full.
_seen: dict[tuple[int, bool, str], Reading] = {}
SEEN_MAX = 50_000  # about 20 MB of readings and their keys


def score(items: Sequence[tuple[int, Any, str]]) -> list[Reading]:
    """The detector's reading of each ``(criterion version id, met, rationale)``."""
    from reviewer.contradiction import detect  # the app's start does not need the lexicon

    criteria = _criteria
    seen = _seen
    if len(seen) > SEEN_MAX:
        seen.clear()
    out: list[Reading] = []
    append = out.append
    for cv_id, met, rationale in items:
        key = (cv_id, bool(met), rationale)
        known = seen.get(key)
        if known is None:
            kind, criterion_text, criterion_id, _severity = criteria[cv_id]
            # "oui"/"non" is the detector's quickest spelling of a verdict (SQLite: 0/1).
            found = detect(kind, "oui" if met else "non", rationale, criterion_text,
                           criterion_id, at_base_rate=True)
            known = seen[key] = (found.score, found.contradiction, found.evidence, False)
        append(known)
    return out


def assess(rows: Sequence[VerdictRow], rule_rows: RuleRows) -> list[Reading]:
    """The readings of a chunk's filter verdicts with whether each changes the decision:
    the scoring processes' whole share of the work (the writer, the serial part of a
    pass, then only stores them)."""
    readings = score([(r[4], r[2], r[3]) for r in rows])
    flagged = {row[0] for row, reading in zip(rows, readings, strict=True) if reading[1]}
    read = {row[0] for row, reading in zip(rows, readings, strict=True) if reading[0] > 0.0}
    decisive = _decisive_of(rows, _rule_inputs_of(rule_rows), flagged, read)
    return [(reading[0], reading[1], reading[2], True) if row[0] in decisive else reading
            for row, reading in zip(rows, readings, strict=True)]


def _load_criteria(conn: Connection) -> dict[int, Criterion]:
    return {cv_id: (kind, criterion_text, criterion_id, severity)
            for cv_id, kind, criterion_text, criterion_id, severity in conn.execute(_CRITERIA)}


# -- which flags change the decision ---------------------------------------------------

# The decision-changing positions of each shape of attempt seen in this pass (see
# _decisive), keyed by criterion version ids: cleared with the criteria (_init_worker).
_shapes: dict[tuple[Any, ...], tuple[int, ...]] = {}
SHAPES_MAX = 50_000


def _decisive(conn: Connection, rows: Sequence[VerdictRow], flagged: set[int],
              read: set[int]) -> set[int]:
    """The ids among ``read`` (verdicts with a reading above 0) whose reading the other
    way changes the filter's decision on their attempt, second opinions applied: a
    flagged verdict together with the attempt's other flagged ones (what the badge
    shows), an unflagged one together with them (what orders the queue below the badge)."""
    if not read:
        return set()
    ids = sorted({row[1] for row in rows if row[0] in read})
    return _decisive_of(rows, _rule_inputs_of(_rule_rows(conn, ids, False)), flagged, read)


def _rule_rows(conn: Connection, ids: list[int], contiguous: bool) -> RuleRows:
    """The rows :func:`_rule_inputs_of` makes the rule's inputs of (plain tuples: a chunk's
    are sent to a scoring process). ``contiguous``: ``ids`` is every attempt between its
    ends (a range reads the indexes once)."""
    if not ids:
        return [], []
    pg = conn.dialect.name == "postgresql"
    if contiguous:
        parts: list[dict[str, Any]] = [{"lo": ids[0], "hi": ids[-1]}]
        statements = (_CHECKS_RANGE, _SECOND_RANGE)
    else:  # bounded IN lists on SQLite; one array on PostgreSQL
        parts = [{"ids": ids[start:start + 20_000]} for start in range(0, len(ids), 20_000)]
        statements = (_PG_CHECKS, _PG_SECOND) if pg else (_CHECKS, _SECOND)
    checks: list[Any] = []
    seconds: list[Any] = []
    for params in parts:
        checks += _fetch(conn, statements[0], params)
        seconds += _fetch(conn, statements[1], params)
    return checks, seconds


def _rule_inputs_of(rows: RuleRows) -> RuleInputs:
    """What the rule reads besides the filter verdicts: each attempt's check results in
    position order, its applied second opinions by criterion (the latest of each)."""
    checks: dict[int, list[CheckOutcome]] = {}
    seconds: dict[int, dict[str, Opinion]] = {}
    for attempt_id, check_id, passed in rows[0]:
        checks.setdefault(attempt_id, []).append(CheckOutcome(check_id, bool(passed)))
    for attempt_id, criterion_id, met, rationale in rows[1]:
        seconds.setdefault(attempt_id, {})[criterion_id] = Opinion(bool(met), rationale)
    return checks, seconds


def _decisive_of(rows: Sequence[VerdictRow], inputs: RuleInputs, flagged: set[int],
                 read: set[int]) -> set[int]:
    """:func:`_decisive` with the rule's other inputs read already (no database: it runs
    in the scoring processes)."""
    if not read:
        return set()
    checks, seconds = inputs
    by_attempt: dict[int, list[VerdictRow]] = {}
    for row in rows:
        by_attempt.setdefault(row[1], []).append(row)
    ids = sorted({row[1] for row in rows if row[0] in read})
    out: set[int] = set()
    # Whether the filter accepts reads which checks passed and each verdict's criterion,
    # kind, verdict and severity, never a rationale (that only words the reasons), and a
    # second opinion's verdict, never its rationale either; a run's attempts come in few
    # such shapes (most pass everything). So the rule runs once per shape of the attempt
    # (checks, each verdict's criterion version and verdict, which are flagged and which
    # read, the second opinions' criteria and verdicts), not per attempt, and once per
    # pass, not per chunk (_shapes: criterion versions mean the same thing for the whole
    # pass).
    known = _shapes
    if len(known) > SHAPES_MAX:
        known.clear()
    no_checks: list[CheckOutcome] = []
    for attempt_id in ids:
        attempt_rows = by_attempt[attempt_id]
        attempt_checks = checks.get(attempt_id, no_checks)
        second = seconds.get(attempt_id)
        shape = (tuple([c.passed for c in attempt_checks]),
                 tuple([(r[4], r[2], r[0] in flagged, r[0] in read) for r in attempt_rows]),
                 tuple(sorted([(c, o.met) for c, o in second.items()])) if second else ())
        positions = known.get(shape)
        if positions is None:
            positions = known[shape] = _changing(attempt_rows, attempt_checks, second or {},
                                                 flagged, read)
        out.update(attempt_rows[i][0] for i in positions)
    return out


def _changing(rows: Sequence[VerdictRow], checks: Sequence[CheckOutcome],
              seconds: dict[str, Opinion], flagged: set[int], read: set[int]
              ) -> tuple[int, ...]:
    """The positions among one attempt's ``rows`` whose reading changes the decision
    (see :func:`_decisive`)."""
    verdicts = []
    position: dict[str, int] = {}
    contradicted: set[str] = set()
    quieter: list[str] = []
    for index, (verdict_id, _a, met, rationale, cv_id) in enumerate(rows):
        kind, _text, criterion_id, severity = _criteria[cv_id]
        effective = effective_verdict(criterion_id, "success" if kind == "success"
                                      else "failure", severity,
                                      Opinion(bool(met), rationale), seconds.get(criterion_id))
        verdicts.append(effective)
        position[criterion_id] = index
        if verdict_id not in read or effective.rescued:
            continue  # a second opinion that replaced the verdict resolved it
        if verdict_id in flagged:
            contradicted.add(criterion_id)
        else:
            quieter.append(criterion_id)
    changing = set(decision_changing(checks, verdicts, contradicted))
    for criterion_id in quieter:
        if criterion_id in decision_changing(checks, verdicts, contradicted | {criterion_id}):
            changing.add(criterion_id)
    return tuple(sorted(position[c] for c in changing))


# -- storing ---------------------------------------------------------------------------

def _store(conn: Connection, attempt_ids: list[int], rows: list[VerdictRow],
           readings: list[Reading], clear: bool = True, contiguous: bool = False,
           assessed: bool = False) -> FlagCounts:
    """Replace the chunk's rules flags by its readings above 0; set its attempts' scores.

    ``clear``: rules flags may already be stored (a rerun): only the readings that
    changed are written, those that fell to 0 deleted. ``contiguous``: the chunk is every
    attempt between its ends, so the statements take a range instead of a list of ids.
    ``assessed``: the readings say already which change the decision (:func:`assess`).
    """
    counts = FlagCounts(attempts=len(attempt_ids), verdicts=len(rows))
    new: dict[int, Reading] = {}
    flagged_attempts: set[int] = set()
    if not assessed:
        flagged = {row[0] for row, reading in zip(rows, readings, strict=True) if reading[1]}
        read = {row[0] for row, reading in zip(rows, readings, strict=True)
                if reading[0] > 0.0}
        decisive = _decisive(conn, rows, flagged, read)
        readings = [(*reading[:3], row[0] in decisive)
                    for row, reading in zip(rows, readings, strict=True)]
    best = dict.fromkeys(attempt_ids, 0.0)  # each attempt's score: _SCORE, in Python
    for row, reading in zip(rows, readings, strict=True):
        if reading[1]:
            counts.flagged += 1
            flagged_attempts.add(row[1])
        if reading[0] > 0.0:
            new[row[0]] = reading
            value = reading[0] if reading[3] else reading[0] * QUIET
            if value > best[row[1]]:
                best[row[1]] = value
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
        # Array literals: psycopg dumps a list element by element (a tenth of the
        # writer's time); a float's repr reads back as the same double.
        conn.execute(_PG_SCORES, {"ids": _array(map(str, best)),
                                  "scores": _array(map(repr, best.values()))})
    elif contiguous:
        conn.execute(_SCORES_RANGE, {**bounds, "quiet": QUIET})
    else:
        _update_scores(conn, attempt_ids)
    return counts


def _array(items: Iterable[str]) -> str:
    """A PostgreSQL array literal of numbers' texts."""
    return "{" + ",".join(items) + "}"


def _update_scores(conn: Connection, attempt_ids: list[int]) -> None:
    for start in range(0, len(attempt_ids), 20_000):
        conn.execute(_SCORES, {"tier": TIER, "quiet": QUIET,
                               "ids": attempt_ids[start:start + 20_000]})


def _flag_row(verdict_id: int, reading: Reading, now: datetime) -> dict[str, Any]:
    return {"verdict_id": verdict_id, "tier": TIER, "score": reading[0],
            "flagged": reading[1], "evidence": reading[2], "decisive": reading[3],
            "detector": DETECTOR, "created_at": now}


def _old_readings(conn: Connection, rows: list[VerdictRow], bounds: dict[str, Any],
                  contiguous: bool) -> dict[int, tuple[Reading, str]]:
    """The chunk's stored rules readings, with the detector that made them."""
    if contiguous:
        found = list(conn.execute(_OLD_RANGE, bounds))
    else:
        ids = [row[0] for row in rows]
        found = [r for start in range(0, len(ids), 20_000)  # bounded IN lists
                 for r in conn.execute(_OLD, {"tier": TIER, "ids": ids[start:start + 20_000]})]
    return {r[0]: ((float(r[1]), bool(r[2]), r[3] or "", bool(r[5])), r[4] or "")
            for r in found}


def _write_difference(conn: Connection, old: dict[int, tuple[Reading, str]],
                      new: dict[int, Reading]) -> None:
    """Delete the readings that fell to 0, update those that changed, insert new ones."""
    flags = TABLES["contradiction_flags"]
    gone = [v for v in old if v not in new]
    for start in range(0, len(gone), 20_000):
        conn.execute(_DROP, {"tier": TIER, "ids": gone[start:start + 20_000]})
    changed = [{"b_verdict": v, "b_score": r[0], "b_flagged": r[1], "b_evidence": r[2],
                "b_decisive": r[3]}
               for v, r in new.items() if v in old and old[v] != (r, DETECTOR)]
    if changed:
        conn.execute(flags.update()
                     .where(flags.c.verdict_id == bindparam("b_verdict"), flags.c.tier == TIER)
                     .values(score=bindparam("b_score"), flagged=bindparam("b_flagged"),
                             evidence=bindparam("b_evidence"),
                             decisive=bindparam("b_decisive"), detector=DETECTOR), changed)
    now = utcnow()
    insert_rows(conn, flags, [_flag_row(v, r, now) for v, r in new.items() if v not in old])


def _chunk_rows(conn: Connection, ids: list[int], contiguous: bool) -> list[VerdictRow]:
    # Both drivers' rows are plain tuples already (building them again was 5 % of the
    # main process's time).
    if contiguous:  # ids is every attempt between its ends: a range reads the index once
        return _fetch(conn, _VERDICTS_RANGE, {"lo": ids[0], "hi": ids[-1]})
    return _fetch(conn, _VERDICTS, {"ids": ids})


def _fetch(conn: Connection, statement: Any, params: dict[str, Any]) -> list[Any]:
    """The driver's own rows, fetched at once: a chunk is ~12,000 verdict rows, the reader
    is the pipeline's serial part, and building a Row per verdict was a fifth of its time
    (plain text() columns have no result processing to skip)."""
    result = conn.execute(statement, params)
    try:
        return list(result.cursor.fetchall())
    finally:
        result.close()


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


_STORED = text(
    "SELECT f.verdict_id, f.decisive, f.flagged FROM contradiction_flags f JOIN verdicts v "
    "ON v.id = f.verdict_id WHERE f.tier = :tier AND v.origin = 'filter' "
    "AND v.attempt_id IN :ids").bindparams(bindparam("ids", expanding=True))
_SET_DECISIVE = text(
    "UPDATE contradiction_flags SET decisive = :decisive WHERE tier = :tier "
    "AND verdict_id IN :ids").bindparams(bindparam("ids", expanding=True))


def refresh_decisions(session: Session, ids: Iterable[int]) -> None:
    """Recompute which stored flags of these attempts change the filter's decision, and
    their queue scores, without reading any rationale again: what a new second opinion
    (or any change of the verdicts the rule sees) calls for."""
    ids = sorted(set(ids))
    if not ids:
        return
    conn = session.connection()
    _init_worker(_load_criteria(conn))
    for start in range(0, len(ids), CHUNK):
        part = ids[start:start + CHUNK]
        found = conn.execute(_STORED, {"tier": TIER, "ids": part}).all()
        if not found:
            continue
        stored = {v: bool(d) for v, d, _f in found}
        decisive = _decisive(conn, _chunk_rows(conn, part, contiguous=False),
                             {v for v, _d, f in found if f}, set(stored))
        for value in (True, False):
            changed = [v for v, was in stored.items() if (v in decisive) == value != bool(was)]
            if changed:
                conn.execute(_SET_DECISIVE, {"decisive": value, "tier": TIER, "ids": changed})
        _update_scores(conn, part)


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


# A chunk as the scoring needs it: its filter verdicts and the rule's other inputs.
Chunk = tuple[list[VerdictRow], RuleRows]


def _read_chunk(store: Store, part: list[int], contiguous: bool) -> Chunk:
    """A chunk's filter verdicts and what the rule reads of its attempts, in one unit of
    work (the scoring processes decide which readings change the decision)."""
    with store.session() as session:
        conn = session.connection()
        return _chunk_rows(conn, part, contiguous), _rule_rows(conn, part, contiguous)


def _chunks(ids: list[int], chunk: int) -> Iterator[tuple[list[int], bool]]:
    for start in range(0, len(ids), chunk):
        part = ids[start:start + chunk]
        yield part, part[-1] - part[0] == len(part) - 1


def _pipeline(store: Store, submit: Callable[[list[VerdictRow], RuleRows], Future[list[Reading]]],
              parts: list[tuple[list[int], bool]], first: Chunk | None,
              workers: int, write: Callable[[list[int], list[VerdictRow], list[Reading]], None]
              ) -> None:
    """Read chunks, have the pool score and assess them, write them back in order."""
    pending: deque[tuple[list[int], list[VerdictRow], Future[list[Reading]]]] = deque()
    for part, contiguous in parts:
        if first is not None:  # read already, to warm the detector
            (rows, inputs), first = first, None
        else:
            rows, inputs = _read_chunk(store, part, contiguous)
        pending.append((part, rows, submit(rows, inputs)))
        if len(pending) > workers:  # keep every worker busy, memory bounded
            part0, rows0, future = pending.popleft()
            write(part0, rows0, future.result())
    while pending:
        part0, rows0, future = pending.popleft()
        write(part0, rows0, future.result())


def _score_in_workers(store: Store, parts: list[tuple[list[int], bool]], first: Chunk,
                      workers: int, criteria: dict[int, Criterion],
                      write: Callable[[list[int], list[VerdictRow], list[Reading]], None]
                      ) -> None:
    """Run :func:`_pipeline` with ``workers`` scoring processes, and stop them within a
    bounded time however it ends (done, Ctrl-C, a failed write).

    The pool is never interrupted halfway through its own bookkeeping: each submission
    (the first one forks the workers and starts the thread that runs them) holds
    Ctrl-C until it is done. A Ctrl-C between the fork and that thread left workers
    that nothing would ever stop, and Python waits for its child processes at exit: the
    command printed its line and never ended (eighth hostile pass).
    """
    pool = ProcessPoolExecutor(workers, mp_context=_fork_context(), initializer=_start_worker,
                               initargs=(os.getpid(), criteria))
    processes: dict[int, BaseProcess] = {}

    def submit(rows: list[VerdictRow], inputs: RuleRows) -> Future[list[Reading]]:
        with _ctrl_c_deferred():
            try:
                return pool.submit(assess, rows, inputs)
            finally:
                processes.update(pool._processes or {})  # started by this submission

    results = pool._result_queue
    try:
        _pipeline(store, submit, parts, first, workers, write)
    except BaseException:
        # Ctrl-C or a failed write: the chunks being scored will not be written.
        with _ctrl_c_deferred():
            _stop(pool, list(processes.values()), results, grace=0.0)
        raise
    with _ctrl_c_deferred():
        _stop(pool, list(processes.values()), results, grace=STOP_WAIT_S)


def _stop(pool: ProcessPoolExecutor, processes: list[BaseProcess], results: Any,
          grace: float) -> None:
    """Shut ``pool`` down without waiting on it: its workers get ``grace`` seconds to
    leave (idle ones leave at once), then the ones left are killed.

    ``ProcessPoolExecutor.shutdown(wait=True)`` waits without a bound, and so does
    Python at exit, for the pool's thread and every child process still running.
    ``results`` is the pool's result queue: this process holds its write end too, so
    once the workers are gone it is closed here, and the pool's thread, if it was
    reading a result that a killed worker never finished, reads its end instead of
    waiting for the rest for ever.
    """
    pool.shutdown(wait=False, cancel_futures=True)
    deadline = time.monotonic() + grace
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
    for process in processes:
        if process.is_alive():
            process.kill()
            process.join(STOP_WAIT_S)
    if not any(process.is_alive() for process in processes):
        writer = getattr(results, "_writer", None)
        if writer is not None:
            writer.close()


@contextmanager
def _ctrl_c_deferred() -> Iterator[None]:
    """Hold Ctrl-C (SIGINT) until the block ends, then raise it (``KeyboardInterrupt``).

    The signal is blocked in this thread, so processes forked here start with it
    blocked (``_start_worker`` then ignores it); on the main thread Python's handler is
    also replaced by one that only notes it, for a Ctrl-C that another thread of this
    process received (a thread that does not block it, such as tqdm's monitor). What
    is undone at the end is decided before anything is changed: an interrupt that
    lands between two of these steps cannot leave Ctrl-C blocked for good.
    """
    masks = hasattr(signal, "pthread_sigmask")
    was_blocked = masks and signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, ())
    on_main = threading.current_thread() is threading.main_thread()
    handler = signal.getsignal(signal.SIGINT) if on_main else None
    held: list[int] = []
    try:
        if masks:
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        if callable(handler):
            signal.signal(signal.SIGINT, lambda signum, _frame: held.append(signum))
        yield
    finally:
        if masks and not was_blocked:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # noted now
        if callable(handler):
            signal.signal(signal.SIGINT, handler)  # notes one still pending first
            if held:
                handler(signal.SIGINT, None)


def _fork_context() -> Any:
    """Fork where it exists: the workers inherit the warmed detector (``_warm``) and are
    this process's children, which ``_die_with_parent`` relies on."""
    if "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    return None


def flag_all(store: Store, progress: Callable[[int, int], None] | None = None,
             workers: int | None = None, chunk: int = CHUNK) -> FlagCounts:
    """Flag every stored attempt, one unit of work per chunk.

    With ``workers`` > 1 the chunks are scored (and which readings change the decision
    worked out) in that many processes while this one reads the next chunks and writes
    the scored ones; results are stored in chunk order, so the flags are the same
    whatever the number of workers.
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
            counts.add(_store(session.connection(), part, rows, readings, clear, contiguous,
                              assessed=True))
        done += len(part)
        if progress:
            progress(done, len(ids))

    if workers == 1 or len(ids) <= chunk:  # one chunk: nothing to overlap
        _init_worker(criteria)
        for part, contiguous in _chunks(ids, chunk):
            rows, inputs = _read_chunk(store, part, contiguous)
            write(part, rows, assess(rows, inputs))
    else:
        parts = list(_chunks(ids, chunk_size(len(ids), workers, chunk)))
        first = _read_chunk(store, *parts[0])
        _warm(criteria, first[0])
        _score_in_workers(store, parts, first, workers, criteria, write)
    if ids:
        with store.session() as session:
            # The queue filters on the new flags and sorts on the scores; the pass wrote
            # no other table (analyzing the verdicts again was a tenth of a pass).
            refresh_statistics(session, FLAG_TABLES)
    return counts

"""The review queue: which attempts to review, in which order, page by page.

One query builder serves the desktop app (its Qt model fetches pages of 200 rows) and the
``reviewer queue`` command, so the order a script sees is the order the app shows:
refused attempts first, then the highest contradiction score (a contradiction that would
change the filter's decision before any other, see ``reviewer.contradiction.flagging``),
then run, conversation, turn and attempt.

The badge ("the judge contradicts itself") and "contradictions only" show an attempt with
an *open* decision-changing contradiction: stored per attempt (``attempts.flagged``,
before anyone's overrides), it goes for a reviewer once that reviewer's overrides cover
every decision-changing verdict of the attempt (the reviewer's reading wins). That
condition is a probe of the reviewer's own decision on the attempt, on top of the stored
flag, so the walk in queue order stays on the (accepted, score) index.

The "audit accepted" queue draws a seeded pseudo-random sample of accepted attempts, so
false accepts are looked for too. The shuffle is an arithmetic hash of the id computed by
the database, so a sample never needs every id in memory and the same seed gives the same
sample on SQLite and PostgreSQL.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any, Literal, NamedTuple

from sqlalchemy import (
    BigInteger,
    ColumnElement,
    Select,
    String,
    Text,
    and_,
    cast,
    exists,
    false,
    func,
    literal,
    literal_column,
    or_,
    select,
)
from sqlalchemy.orm import Session, aliased

from models import (
    Attempt,
    CheckResult,
    CheckVersion,
    ContradictionFlag,
    Conversation,
    CriterionVersion,
    ReviewDecision,
    Run,
    Verdict,
)
from reviewer.errors import BadInputError
from reviewer.keys import AttemptKey
from reviewer.review.rows import decided_attempts, holds_decision
from reviewer.rule.filter import refusing_met
from reviewer.store.membership import hashed, more_than
from reviewer.store.names import attempt_named
from reviewer.store.search import matching_condition
from reviewer.text_rules import storable

# "to_review" = not yet reviewed by me; "others_not_me" = reviewed by others, not by me.
ReviewState = Literal["all", "to_review", "reviewed", "overridden", "others_not_me"]
REVIEW_STATES: tuple[ReviewState, ...] = (
    "all", "to_review", "reviewed", "overridden", "others_not_me")
PAGE = 200
# Multiplier and modulus of the audit shuffle (Knuth's multiplicative hash, a prime below
# 2**32): products stay far below 2**63 for any realistic id.
_HASH_MUL = 2654435761
_HASH_MOD = 4294967291
# PostgreSQL: up to this many failed results a check's page tests a hashed set of them
# (about 1 MB, inside the default 8 MB of hash memory; beyond, each attempt walked is
# probed, and the more failures, the sooner the page is full).
HASHED_CHECK_LIMIT = 20_000


@dataclass(frozen=True, slots=True)
class QueueFilter:
    """What the queue shows. Empty fields do not filter.

    ``audit_sample`` switches to the audit queue: that many accepted attempts drawn with
    ``seed`` (the other filters still apply inside the sample).
    """

    run: str | None = None
    criterion: str | None = None
    check: str | None = None
    flagged_only: bool = False
    review_state: ReviewState = "all"
    search: str = ""
    reviewer: str = ""
    include_accepted: bool = False
    audit_sample: int | None = None
    seed: int = 0

    def audit(self, n: int, seed: int = 0) -> QueueFilter:
        """The same filter on the audit-accepted sample."""
        return replace(self, audit_sample=n, seed=seed)


class QueueRow(NamedTuple):
    """One line of the queue.

    A named tuple, and the reasons kept as the stored JSON text until read: a page
    builds 200 of these, and a frozen dataclass plus a decoded list cost three times
    the row's share of the query (the view reads the reasons of the rows it shows only).
    """

    attempt_id: int
    key: AttemptKey
    accepted: bool
    score: float
    stored_reasons: str | None
    badge: bool  # an open decision-changing contradiction, for the filter's reviewer
    decision: str | None
    reviewed: bool
    # A check whose imported result refused the attempt and whose newest version
    # evaluated since passes it (reviewer.revise.recheck), None when there is none.
    rechecked: str | None = None

    @property
    def flagged(self) -> bool:
        """The badge (the name the queue's callers knew it by)."""
        return self.badge

    @property
    def reasons(self) -> tuple[str, ...]:
        """The filter's reasons for refusing the attempt, in order."""
        if not self.stored_reasons:
            return ()
        return tuple(str(r) for r in json.loads(self.stored_reasons))

    def as_json(self) -> dict[str, Any]:
        """The ``reviewer queue --json`` entry: ``badge`` exactly as the app shows it."""
        return {"key": str(self.key), "score": round(self.score, 4), "badge": self.badge,
                "reasons": list(self.reasons)}


def _exists(*where: ColumnElement[bool]) -> ColumnElement[bool]:
    """``EXISTS (SELECT 1 …)``: with ``SELECT *`` SQLite reads the probed row for its
    columns instead of answering from a covering index."""
    return select(literal_column("1")).where(*where).exists()


# Each filter condition comes in two forms (docs/performance.md). For a page, a
# correlated EXISTS ("probe"): the database walks the attempts in queue order through the
# (accepted, score) index and stops once the page is full, whatever the store's size. For
# a count, ``id IN (subquery)``: it starts from the matching verdicts (or flags, check
# results, decisions) through their indexes instead of probing every attempt.


def _open_flag(attempt_id: Any, decision: Any) -> ColumnElement[bool]:
    """The attempt has a decision-changing flag on a criterion ``decision`` (a reviewer's
    decision row) does not override. JSON ``->`` on both backends (SQLite 3.38+).

    Everything but its own three tables is correlated, at whatever depth it is nested:
    auto-correlation looks one level up only, so under the page's badge (an EXISTS in an
    EXISTS) the page subquery itself became one of this probe's FROMs, walked again for
    every probe (4 s a page on PostgreSQL at 100,000 attempts) and matched against any
    row of the page instead of this one."""
    return select(literal_column("1")).where(
        Verdict.attempt_id == attempt_id, Verdict.origin == "filter",
        ContradictionFlag.verdict_id == Verdict.id, ContradictionFlag.tier == "rules",
        ContradictionFlag.decisive.is_(True), ContradictionFlag.flagged.is_(True),
        CriterionVersion.id == Verdict.criterion_version_id,
        decision.criteria.op("->", return_type=Text)(CriterionVersion.criterion_id).is_(None),
    ).correlate_except(Verdict, ContradictionFlag, CriterionVersion).exists()


def _resolved(attempt_id: Any, reviewer: str) -> ColumnElement[bool]:
    """The reviewer's overrides cover every decision-changing flag of the attempt."""
    mine = aliased(ReviewDecision)
    return _exists(mine.attempt_id == attempt_id, mine.reviewer == reviewer,
                   ~_open_flag(attempt_id, mine))


def _badge(flagged: Any, attempt_id: Any, reviewer: str) -> ColumnElement[bool]:
    """The badge for ``reviewer``: the stored flag, unless their overrides resolved it."""
    return and_(flagged.is_(True), ~_resolved(attempt_id, reviewer))


def _flagged(reviewer: str, probe: bool = False) -> ColumnElement[bool]:
    # The attempt's own flag (kept by triggers, migrations 0005 and 0011), in both forms:
    # a page's walk reads it from the queue index instead of probing a dozen verdicts'
    # readings per attempt, and a count scans that index instead of joining every
    # flagged reading to its verdict (with one verdict in twenty flagged, 0.4-0.7 s at
    # 100,000 attempts). What the reviewer resolved is probed on their own decision rows
    # (a page), or read from them first (a count: a reviewer's decisions are few).
    if probe:
        return _badge(Attempt.flagged, Attempt.id, reviewer)
    mine = aliased(ReviewDecision)
    resolved = select(mine.attempt_id).where(mine.reviewer == reviewer,
                                             ~_open_flag(mine.attempt_id, mine))
    return and_(Attempt.flagged.is_(True), Attempt.id.not_in(resolved))


def _refusing_criterion(session: Session, criterion: str,
                        probe: bool = False) -> ColumnElement[bool]:
    """The attempt has a first-opinion verdict on ``criterion`` that refuses it.

    Which verdict refuses is the rule's (``refusing_met``: a success version with "non", a
    major failure version with "oui", a minor one never), spelled out per version so the
    (criterion version, met) index finds exactly the refusing verdicts.
    """
    versions = session.execute(
        select(CriterionVersion.id, CriterionVersion.kind, CriterionVersion.severity)
        .where(CriterionVersion.criterion_id == criterion)
    ).all()
    refusing = [and_(Verdict.criterion_version_id == cv_id, Verdict.met.is_(met))
                for cv_id, kind, severity in versions
                if (met := refusing_met(kind, severity)) is not None]
    if not refusing:
        return false()
    if probe:
        # "origin || ''": the same test, but the unique (attempt, version, origin) index no
        # longer matches every term, so SQLite takes the covering one with ``met``
        # (otherwise it reads every probed verdict's row for it).
        return _exists(Verdict.attempt_id == Attempt.id,
                       Verdict.origin.concat("") == "filter", or_(*refusing))
    return Attempt.id.in_(
        select(Verdict.attempt_id).where(Verdict.origin == "filter", or_(*refusing))
    )


def _failed_check(session: Session, check: str, probe: bool = False) -> ColumnElement[bool]:
    failed = (select(CheckResult.attempt_id)
              .join(CheckVersion, CheckResult.check_version_id == CheckVersion.id)
              .where(CheckVersion.check_id == check, CheckResult.passed.is_(False)))
    if not probe:
        return Attempt.id.in_(failed)
    # PostgreSQL probed the check's results for each attempt walked, and a check failing
    # on answers that sort late (D-COMMERCE at 100,000 attempts: 8,545 failures, the
    # first 200 found after 14,700 refused attempts) took 28 ms for the walk alone; the
    # failures hashed once, 9 ms (docs/performance.md). Counting them first costs under a
    # millisecond through the (version, passed) index.
    if (session.get_bind().dialect.name == "postgresql"
            and not more_than(session, failed, HASHED_CHECK_LIMIT)):
        return hashed(Attempt.id, failed)
    return _exists(
        CheckResult.attempt_id == Attempt.id,
        CheckResult.check_version_id.in_(
            select(CheckVersion.id).where(CheckVersion.check_id == check)),
        CheckResult.passed.is_(False),
    )


def _review_condition(state: ReviewState, reviewer: str,
                      probe: bool = False) -> ColumnElement[bool] | None:
    mine = and_(ReviewDecision.attempt_id == Attempt.id, ReviewDecision.reviewer == reviewer)
    decided = holds_decision()
    if state == "all":
        return None
    decided_ids = decided_attempts(reviewer)
    # A reviewer's decisions are few next to a season of attempts: "reviewed" starts from
    # them in both forms; "to review" matches most attempts, so a page probes.
    if probe and state == "to_review":
        return ~_exists(mine, decided)
    if state == "to_review":
        return Attempt.id.not_in(decided_ids)
    if state == "reviewed":
        return Attempt.id.in_(decided_ids)
    if state == "others_not_me":
        theirs = and_(ReviewDecision.attempt_id == Attempt.id,
                      ReviewDecision.reviewer != reviewer)
        return and_(~exists().where(mine, decided), exists().where(theirs, decided))
    # Overridden: the reviewer's decision differs from the filter's, or a verdict or a
    # check was overridden (JSON maps compared as text: '{}' is empty on both backends).
    flipped = or_(
        and_(ReviewDecision.decision == "accept", Attempt.accepted.is_(False)),
        and_(ReviewDecision.decision == "reject", Attempt.accepted.is_(True)),
    )
    changed = or_(
        cast(ReviewDecision.criteria, String).not_in(["{}", "null"]),
        cast(ReviewDecision.checks, String).not_in(["{}", "null"]),
    )
    return exists().where(mine, or_(flipped, changed))


def _shuffle(seed: int) -> ColumnElement[Any]:
    # The seed picks the multiplier: a different seed is a different permutation.
    multiplier = (_HASH_MUL * (2 * (abs(seed) % 1_000_003) + 1)) % _HASH_MOD
    # BIGINT on purpose: PostgreSQL computes in the type of the operands, and INTEGER
    # (32 bits) overflows on these products ("integer out of range").
    shifted = cast(Attempt.id, BigInteger) + 7
    return (shifted * literal(multiplier, BigInteger)) % literal(_HASH_MOD, BigInteger)


def _conditions(session: Session, f: QueueFilter,
                probe: bool = False) -> list[ColumnElement[bool]]:
    if f.review_state not in REVIEW_STATES:
        raise BadInputError(f"unknown review state {f.review_state!r}")
    for what, value in (("the search", f.search), ("the run", f.run),
                        ("the criterion", f.criterion), ("the check", f.check)):
        storable(value or "", what)  # a NUL typed or pasted: one line, on every backend
    conds: list[ColumnElement[bool]] = []
    if f.audit_sample is not None:
        conds.append(Attempt.accepted.is_(True))
    elif not f.include_accepted:
        conds.append(Attempt.accepted.is_(False))
    if f.run:
        conds.append(Run.name == f.run)
    if f.criterion:
        conds.append(_refusing_criterion(session, f.criterion, probe))
    if f.check:
        conds.append(_failed_check(session, f.check, probe))
    if f.flagged_only:
        conds.append(_flagged(f.reviewer, probe))
    review = _review_condition(f.review_state, f.reviewer, probe)
    if review is not None:
        conds.append(review)
    if f.search.strip():
        found = matching_condition(session, f.search, probe)
        if found is not None:
            conds.append(found)
    return conds


def _audit_ids(session: Session, f: QueueFilter) -> Select[Any]:
    """The sampled accepted ids (before the other filters: the sample is fixed by seed)."""
    return (
        select(Attempt.id)
        .where(Attempt.accepted.is_(True))
        .order_by(_shuffle(f.seed), Attempt.id)
        .limit(max(f.audit_sample or 0, 0))
    )


def _base(session: Session, f: QueueFilter, columns: list[Any], *,
          names: bool = True, probe: bool = False) -> Select[Any]:
    """The filtered attempts; ``names=False`` skips the joins a count does not need,
    ``probe=True`` gives the page form of the conditions."""
    stmt = select(*columns).select_from(Attempt)
    if names:
        stmt = stmt.join(Conversation, Attempt.conversation_id == Conversation.id)
    if names or f.run:
        stmt = stmt.join(Run, Attempt.run_id == Run.id)
    conds = _conditions(session, f, probe)
    if f.audit_sample is not None:
        conds.append(Attempt.id.in_(_audit_ids(session, f).scalar_subquery()))
    return stmt.where(*conds) if conds else stmt


def _order_keys(f: QueueFilter) -> list[tuple[Any, bool]]:
    """The queue order as ``(expression, descending)`` pairs."""
    if f.audit_sample is not None:
        return [(_shuffle(f.seed), False), (Attempt.id, False)]
    return [(Attempt.accepted, False), (Attempt.contradiction_score, True), (Run.name, False),
            (Conversation.name, False), (Attempt.turn, False), (Attempt.attempt, False),
            (Attempt.id, False)]


def _order_by(f: QueueFilter) -> list[Any]:
    return [key.desc() if descending else key for key, descending in _order_keys(f)]


def _ordered(stmt: Select[Any], f: QueueFilter) -> Select[Any]:
    return stmt.order_by(*_order_by(f))


def queue_index(session: Session, f: QueueFilter, attempt_id: int) -> int | None:
    """The row of ``attempt_id`` in the queue (0-based), None when the filter hides it.

    Computed by the database (a window function), so finding an attempt deep in a large
    queue never loads the rows before it.
    """
    position = func.row_number().over(order_by=_order_by(f)).label("position")
    ranked = _base(session, f, [Attempt.id.label("attempt_id"), position]).subquery()
    found = session.scalar(select(ranked.c.position).where(ranked.c.attempt_id == attempt_id))
    return None if found is None else int(found) - 1


# What a page's walk carries out of the index (and the names it sorts on) for display.
_WALKED = (Attempt.id, Run.name, Conversation.name, Attempt.turn, Attempt.attempt,
           Attempt.accepted, Attempt.contradiction_score, Attempt.flagged)


def _walk(session: Session, f: QueueFilter, part: ColumnElement[bool] | None,
          offset: int, limit: int) -> Select[Any]:
    """One page's walk: the matching attempts in queue order, their sort keys labelled."""
    keys = [key.label(f"k{i}") for i, (key, _) in enumerate(_order_keys(f))]
    stmt = _base(session, f, [*(c.label(f"c{i}") for i, c in enumerate(_WALKED)), *keys],
                 probe=True)
    if part is not None:
        stmt = stmt.where(part)
    return _ordered(stmt, f).offset(offset).limit(limit)


def _now_passing_check() -> Any:
    """Per page row: a check the attempt failed under an older version and passes under
    the newest version evaluated on it (few results per attempt, read by its index)."""
    old, old_v = aliased(CheckResult), aliased(CheckVersion)
    new, new_v = aliased(CheckResult), aliased(CheckVersion)
    seen, seen_v = aliased(CheckResult), aliased(CheckVersion)
    newest = (select(func.max(seen_v.version)).select_from(seen)
              .join(seen_v, seen.check_version_id == seen_v.id)
              .where(seen.attempt_id == old.attempt_id, seen_v.check_id == old_v.check_id)
              .correlate(old, old_v).scalar_subquery())
    return (select(new_v.check_id).select_from(old)
            .join(old_v, old.check_version_id == old_v.id)
            .join(new, new.attempt_id == old.attempt_id)
            .join(new_v, and_(new.check_version_id == new_v.id,
                              new_v.check_id == old_v.check_id, new_v.version > old_v.version))
            .where(old.attempt_id == Attempt.id, old.passed.is_(False),
                   new.passed.is_(True), new_v.version == newest)
            .limit(1).correlate(Attempt).scalar_subquery())


def _rows(session: Session, f: QueueFilter, walk: Select[Any]) -> list[QueueRow]:
    """The display rows of one walk, in queue order.

    One statement: the walk (sort keys only, stopping at the page's end) in a subquery, the
    per-row columns (reasons, decision, the reviewer's badge) computed only for the rows it
    kept: otherwise their subqueries run for every row being sorted. The stored flag comes
    with the walk.
    """
    page = walk.subquery("page")
    decision = (
        select(ReviewDecision.decision)
        .where(ReviewDecision.attempt_id == Attempt.id, ReviewDecision.reviewer == f.reviewer)
        .limit(1)
        .scalar_subquery()
    )
    order = [page.c[f"k{i}"].desc() if descending else page.c[f"k{i}"]
             for i, (_, descending) in enumerate(_order_keys(f))]
    badge = _badge(page.c.c7, page.c.c0, f.reviewer)
    stmt = (
        select(*(page.c[f"c{i}"] for i in range(len(_WALKED) - 1)), badge,
               cast(Attempt.reasons, Text), decision, _now_passing_check())
        .select_from(page)
        .join(Attempt, Attempt.id == page.c.c0)
        .order_by(*order)
    )
    # fetchall: iterating the result fetches row by row, a third of a 200-row page's
    # Python time.
    return [
        QueueRow(row[0], AttemptKey(row[1], row[2], row[3], row[4]), bool(row[5]),
                 float(row[6] or 0.0), row[8], bool(row[7]), row[9], row[9] is not None,
                 row[10])
        for row in session.connection().execute(stmt).fetchall()
    ]


def queue_page(session: Session, f: QueueFilter, offset: int = 0,
               limit: int = PAGE) -> list[QueueRow]:
    """Rows ``offset`` to ``offset + limit`` of the queue, in display order."""
    offset, limit = max(offset, 0), max(limit, 0)
    if not limit:
        return []
    if not f.include_accepted or f.audit_sample is not None:
        return _rows(session, f, _walk(session, f, None, offset, limit))
    # Refused first, then accepted, each part read in (accepted, score) index order up to
    # the page: one ORDER BY across both parts would sort every attempt of the store.
    rows = _rows(session, f, _walk(session, f, Attempt.accepted.is_(False), offset, limit))
    if len(rows) == limit:
        return rows
    before = offset + len(rows) if rows else int(session.scalar(
        _base(session, f, [func.count(Attempt.id)], names=False)
        .where(Attempt.accepted.is_(False))) or 0)
    return rows + _rows(session, f, _walk(session, f, Attempt.accepted.is_(True),
                                          max(offset - before, 0), limit - len(rows)))


def queue_count(session: Session, f: QueueFilter) -> int:
    """How many attempts the queue holds under ``f``."""
    stmt = _base(session, f, [func.count(Attempt.id)], names=False)
    return int(session.scalar(stmt) or 0)


def queue_progress(session: Session, f: QueueFilter) -> tuple[int, int]:
    """``(reviewed, total)`` for the status bar: reviewed = this reviewer decided."""
    total = queue_count(session, f)
    if f.review_state in ("to_review", "others_not_me"):
        return 0, total
    reviewed = queue_count(session, replace(f, review_state="reviewed")) \
        if f.review_state == "all" else total
    return reviewed, total


def queue_keys(session: Session, f: QueueFilter, limit: int | None = None) -> list[QueueRow]:
    """The whole queue (or its first ``limit`` rows) in display order, page by page."""
    out: list[QueueRow] = []
    while limit is None or len(out) < limit:
        size = PAGE if limit is None else min(PAGE, limit - len(out))
        page = queue_page(session, f, len(out), size)
        out.extend(page)
        if len(page) < size:
            break
    return out


def queue_ids(session: Session, f: QueueFilter) -> list[int]:
    """Every attempt id of the queue under ``f``, in display order (a bulk action's scope).

    One ordered statement over the whole filter: bulk actions are rare and the scope is
    what the reviewer filtered down to, so the page-by-page walk buys nothing here.
    """
    return list(session.scalars(_ordered(_base(session, f, [Attempt.id]), f)))


def audit_sample(session: Session, n: int, seed: int = 0,
                 f: QueueFilter | None = None) -> list[QueueRow]:
    """``n`` accepted attempts drawn with ``seed`` (same seed, same sample)."""
    return queue_keys(session, (f or QueueFilter()).audit(n, seed))


def attempt_id_for(session: Session, key: AttemptKey) -> int | None:
    """The id of the attempt named ``key``, None when it is not stored
    (``reviewer.store.names.attempt_named``: as typed, in NFC and NFD, then without the
    spaces around its ids, refusing a key that names two attempts that way)."""
    return attempt_named(session, key)


def filter_choices(session: Session) -> dict[str, list[str]]:
    """The values the filter boxes offer: runs, criteria and checks present in the store."""
    runs = list(session.scalars(select(Run.name).order_by(Run.name)))
    criteria = list(session.scalars(
        select(CriterionVersion.criterion_id).distinct().order_by(CriterionVersion.criterion_id)
    ))
    checks = list(session.scalars(
        select(CheckVersion.check_id).distinct().order_by(CheckVersion.check_id)
    ))
    return {"runs": runs, "criteria": criteria, "checks": checks}


def queue_rows(session: Session, f: QueueFilter, attempt_ids: Iterable[int]) -> list[QueueRow]:
    """The queue rows of ``attempt_ids`` as ``f``'s reviewer sees them, whatever the filter.

    The app redraws the rows an operation changed without reloading the page: a row
    decided under "to review" stays in view with its new mark, as it did before. Rows come
    in queue order; ids that are not stored are left out.
    """
    ids = sorted(set(attempt_ids))
    if not ids:
        return []
    everything = QueueFilter(reviewer=f.reviewer, include_accepted=True)
    keys = [key.label(f"k{i}") for i, (key, _) in enumerate(_order_keys(everything))]
    walk = _base(session, everything,
                 [*(c.label(f"c{i}") for i, c in enumerate(_WALKED)), *keys]
                 ).where(Attempt.id.in_(ids))
    return _rows(session, everything, walk)


def overall_progress(session: Session, reviewer: str) -> tuple[int, int]:
    """``(reviewed, total)`` over every refused attempt of the store, whatever the filter:
    the status bar's "34 of 63 refusals reviewed, 29 left"."""
    return queue_progress(session, QueueFilter(reviewer=reviewer))


def _undecided(reviewer: str) -> ColumnElement[bool]:
    """The reviewer has no decision on the attempt (overrides alone are not a decision)."""
    return ~_exists(ReviewDecision.attempt_id == Attempt.id,
                    ReviewDecision.reviewer == reviewer, holds_decision())


def next_unreviewed(session: Session, f: QueueFilter,
                    after: int | None = None) -> tuple[int | None, bool]:
    """The first attempt of ``f``'s queue after ``after`` that ``f.reviewer`` has not
    decided, and whether the search went round to the top to find it.

    Positions are those of the queue under ``f`` with every review state (the attempt
    just decided under "to review" is still the reference point); ``after`` None or
    outside the queue starts from the top. ``(None, False)`` when every attempt of the
    queue is decided.
    """
    wide = replace(f, review_state="all")
    position = func.row_number().over(order_by=_order_by(wide)).label("position")
    ranked = _base(session, wide, [Attempt.id.label("attempt_id"), position]).subquery()
    candidates = _base(session, f, [Attempt.id], names=False).where(_undecided(f.reviewer))
    start = 0
    if after is not None:
        start = int(session.scalar(
            select(ranked.c.position).where(ranked.c.attempt_id == after)) or 0)

    def first(after_position: int) -> int | None:
        return session.scalar(
            select(ranked.c.attempt_id)
            .where(ranked.c.position > after_position,
                   ranked.c.attempt_id.in_(candidates))
            .order_by(ranked.c.position).limit(1))

    found = first(start)
    if found is not None or start == 0:
        return found, False
    found = first(0)
    return found, found is not None

"""The attempt's own flag (migrations 0005 and 0011) and the queue pages built on it.

``attempts.flagged`` replaced a probe of every verdict's readings; database triggers keep
it, whoever writes the readings. Since migration 0011 it says whether some reading is
*decision-changing* (the badge), no longer whether some reading is flagged. These tests
check it against the readings themselves after each kind of write, and check whole
queues against an order and filters computed in plain Python from the stored rows, on a
synthetic run flagged by the real detector.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import select, text

from benchmarks import make_run
from models import Attempt, ContradictionFlag, Verdict
from reviewer.contradiction.flagging import flag_all
from reviewer.ingest.importer import import_run
from reviewer.review import actions as review_actions
from reviewer.review.queue import QueueFilter, queue_count, queue_keys, queue_page
from reviewer.store.database import Store, _alembic_config, current_revision, head_revision
from reviewer.store.search import search_ids
from tests.support.stores import act

pytestmark = pytest.mark.both_backends

REVIEWER = "claire"
# Whether any flagged reading of any of the attempt's verdicts is decision-changing: what
# the badge shows (before migration 0011: any flagged reading).
READINGS_SAY = text(
    "SELECT a.id FROM attempts a WHERE EXISTS (SELECT 1 FROM verdicts v JOIN "
    "contradiction_flags f ON f.verdict_id = v.id WHERE v.attempt_id = a.id "
    "AND f.decisive AND f.flagged)")


@pytest.fixture
def season(store: Store, tmp_path: Path) -> Store:
    """A synthetic run of 300 attempts, imported and flagged by the rules tier."""
    run, catalog = make_run.write(tmp_path / "run", 300, seed=3)
    import_run(store, run, catalog_path=catalog)
    flag_all(store, workers=1)
    return store


def flagged_column(store: Store) -> set[int]:
    with store.session() as s:
        return set(s.scalars(select(Attempt.id).where(Attempt.flagged.is_(True))))


def flagged_readings(store: Store) -> set[int]:
    with store.session() as s:
        return set(s.scalars(READINGS_SAY))


def rules_readings(store: Store) -> list[tuple[int, float, bool, str, bool]]:
    with store.session() as s:
        return [(v, sc, bool(f), e, bool(d)) for v, sc, f, e, d in s.execute(
            select(ContradictionFlag.verdict_id, ContradictionFlag.score,
                   ContradictionFlag.flagged, ContradictionFlag.evidence,
                   ContradictionFlag.decisive)
            .where(ContradictionFlag.tier == "rules").order_by(ContradictionFlag.verdict_id))]


def test_the_flag_follows_every_writer_of_readings(season: Store) -> None:
    found = flagged_readings(season)
    first_pass = rules_readings(season)
    assert found and flagged_column(season) == found  # the rules pass
    with season.session() as s:
        quiet = s.scalars(select(Attempt.id).where(Attempt.flagged.is_(False))
                          .order_by(Attempt.id)).first()
        verdict = s.scalars(select(Verdict.id).where(Verdict.attempt_id == quiet)).first()
    assert quiet is not None and verdict is not None
    # An ORM row (the LLM tier's way): flagged but not decision-changing, then
    # decision-changing, then not any more.
    with season.session() as s:
        s.add(ContradictionFlag(verdict_id=verdict, tier="llm", score=0.9, flagged=True))
    assert quiet not in flagged_column(season)
    with season.session() as s:
        s.scalars(select(ContradictionFlag).where(
            ContradictionFlag.verdict_id == verdict)).one().decisive = True
    assert quiet in flagged_column(season)
    assert flagged_column(season) == flagged_readings(season)
    with season.session() as s:
        s.scalars(select(ContradictionFlag).where(
            ContradictionFlag.verdict_id == verdict)).one().decisive = False
    assert quiet not in flagged_column(season)
    # A removed reading.
    with season.session() as s:
        s.delete(s.scalars(select(ContradictionFlag).where(
            ContradictionFlag.decisive.is_(True), ContradictionFlag.flagged.is_(True))).first())
    assert flagged_column(season) == flagged_readings(season) != found
    # Readings the detector would not give: one edited, one it never wrote (on a verdict
    # it reads as 0). A rerun of the rules pass writes back exactly what it reads.
    with season.session() as s:
        edited = s.scalars(select(ContradictionFlag).where(
            ContradictionFlag.tier == "rules", ContradictionFlag.decisive.is_(True),
            ContradictionFlag.flagged.is_(True))).first()
        assert edited is not None
        edited.flagged, edited.score, edited.decisive = False, 0.01, False
        unread = s.scalars(select(Verdict.id).where(
            Verdict.attempt_id == quiet, ~Verdict.id.in_(select(ContradictionFlag.verdict_id))
        )).first()
        assert unread is not None
        s.add(ContradictionFlag(verdict_id=unread, tier="rules", score=0.9, flagged=True,
                                decisive=True))
    assert quiet in flagged_column(season)
    flag_all(season, workers=1)
    assert flagged_column(season) == flagged_readings(season) == found
    assert rules_readings(season) == first_pass


ANY_RULES_FLAG = text(
    "SELECT DISTINCT v.attempt_id FROM verdicts v JOIN contradiction_flags f "
    "ON f.verdict_id = v.id WHERE f.flagged AND f.tier = 'rules'")


def test_an_upgrade_sets_the_flag_of_existing_readings(season: Store) -> None:
    found = flagged_readings(season)
    with season.session() as s:
        any_flag = set(s.scalars(ANY_RULES_FLAG))
    assert found < any_flag  # some flags would not change the decision
    with season.engine.begin() as conn:
        cfg = _alembic_config()
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0004")
    assert current_revision(season.engine) == "0004"
    with season.engine.begin() as conn:
        cfg = _alembic_config()
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")
    assert current_revision(season.engine) == head_revision()
    # Readings stored before 0011 do not say which flags change the decision: every
    # rules flag keeps its badge, as before, until the next rules pass says which do.
    assert flagged_column(season) == any_flag
    flag_all(season, workers=1)
    assert flagged_column(season) == flagged_readings(season) == found


def reference(store: Store, f: QueueFilter) -> list[int]:
    """The queue under ``f`` computed in Python from plain reads of the stored rows."""
    with store.session() as s:
        rows = s.execute(text(
            "SELECT a.id, a.accepted, a.contradiction_score, r.name, c.name, a.turn, a.attempt "
            "FROM attempts a JOIN conversations c ON c.id = a.conversation_id "
            "JOIN runs r ON r.id = a.run_id")).all()
        flagged = set(s.scalars(READINGS_SAY))
        refusing = set(s.scalars(text(
            "SELECT v.attempt_id FROM verdicts v JOIN criterion_versions cv "
            "ON cv.id = v.criterion_version_id WHERE cv.criterion_id = :c "
            "AND v.origin = 'filter' AND v.met = (cv.kind = 'failure')"),
            {"c": f.criterion or ""}))
        failing = set(s.scalars(text(
            "SELECT r.attempt_id FROM check_results r JOIN check_versions cv "
            "ON cv.id = r.check_version_id WHERE cv.check_id = :c AND NOT r.passed"),
            {"c": f.check or ""}))
        decided = set(s.scalars(text(
            "SELECT attempt_id FROM review_decisions WHERE reviewer = :r "
            "AND decision IS NOT NULL"), {"r": f.reviewer}))
        found = set(search_ids(s, f.search)) if f.search else None
    kept = [r for r in rows
            if (f.include_accepted or not r[1])
            and (not f.criterion or r[0] in refusing)
            and (not f.check or r[0] in failing)
            and (not f.flagged_only or r[0] in flagged)
            and (f.review_state != "to_review" or r[0] not in decided)
            and (f.review_state != "reviewed" or r[0] in decided)
            and (found is None or r[0] in found)]
    kept.sort(key=lambda r: (bool(r[1]), -float(r[2]), r[3], r[4], r[5], r[6], r[0]))
    return [r[0] for r in kept]


def test_every_filter_shows_the_rows_the_stored_data_says(season: Store) -> None:
    with season.session() as s:
        refused = list(s.scalars(select(Attempt.id).where(Attempt.accepted.is_(False))
                                 .order_by(Attempt.id)))
    for aid in refused[::7]:
        act(season, review_actions.decide, REVIEWER, aid, "accept")
    filters = [QueueFilter(), QueueFilter(include_accepted=True),
               QueueFilter(criterion="G-DEMANDE"), QueueFilter(check="D-COMMERCE"),
               QueueFilter(flagged_only=True), QueueFilter(flagged_only=True,
                                                           include_accepted=True),
               QueueFilter(review_state="to_review"), QueueFilter(review_state="reviewed"),
               QueueFilter(search="premium"),
               QueueFilter(search="conciliateur", include_accepted=True)]
    flagged = flagged_readings(season)
    for f in (replace(f, reviewer=REVIEWER) for f in filters):
        expected = reference(season, f)
        assert expected, f
        with season.session() as s:
            whole = queue_keys(s, f)
            assert [r.attempt_id for r in whole] == expected, f
            assert queue_count(s, f) == len(expected), f
            # Pages of 50 cross score ties and page ends the same way.
            paged = [r.attempt_id for start in range(0, len(expected), 50)
                     for r in queue_page(s, f, start, 50)]
            assert paged == expected, f
        assert [r.flagged for r in whole] == [r.attempt_id in flagged for r in whole], f


def decisive_criteria(store: Store) -> dict[int, set[str]]:
    """Per attempt, the criteria of its decision-changing flagged filter verdicts."""
    with store.session() as s:
        rows = s.execute(text(
            "SELECT v.attempt_id, cv.criterion_id FROM verdicts v "
            "JOIN contradiction_flags f ON f.verdict_id = v.id "
            "JOIN criterion_versions cv ON cv.id = v.criterion_version_id "
            "WHERE v.origin = 'filter' AND f.tier = 'rules' AND f.decisive AND f.flagged")).all()
    found: dict[int, set[str]] = {}
    for aid, cid in rows:
        found.setdefault(aid, set()).add(cid)
    return found


def test_each_row_of_a_page_has_its_own_badge_once_the_reviewer_decided(
        season: Store) -> None:
    """The badge of a row is that row's open flag, not any row's of its page: with the
    reviewer's decision rows on every attempt (the probe nested one EXISTS deeper), an
    overridden flag is closed and an attempt without one stays unbadged."""
    decisive = decisive_criteria(season)
    with season.session() as s:
        refused = list(s.scalars(select(Attempt.id).where(Attempt.accepted.is_(False))
                                 .order_by(Attempt.id)))
    overridden: dict[int, set[str]] = {}
    for n, aid in enumerate(refused):
        if aid in decisive and n % 2 == 0:  # flip every decision-changing verdict
            for cid in sorted(decisive[aid]):
                act(season, review_actions.set_field, REVIEWER, aid, f"criterion:{cid}",
                    True)
            overridden[aid] = set(decisive[aid])
        else:  # a decision row that overrides nothing
            act(season, review_actions.set_note, REVIEWER, aid, "vu")
    expected = {aid: bool(decisive.get(aid, set()) - overridden.get(aid, set()))
                for aid in refused}
    assert any(expected.values()) and not all(expected.values())
    assert overridden  # both kinds of rows share pages
    with season.session() as s:
        shown = {r.attempt_id: r.badge for start in range(0, len(refused), 50)
                 for r in queue_page(s, QueueFilter(reviewer=REVIEWER), start, 50)}
    assert shown == expected

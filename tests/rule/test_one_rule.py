"""The acceptance rule is one rule: every feature that reads it agrees, layer by layer.

The same attempts, with second opinions and a reviewer's overrides applied on a sample,
go through every caller: replay, the example pane (its live decision and each verdict
row), the export's walk (which attempt it chooses per turn), the golden set, and the
agreement figures (the grader's reading and the reviewer's). They must all say what the
seed's rule says, written out here from the seed (``001_…txt``) as a test oracle: a
second opinion can only save a success criterion judged "non"; a reviewer's override
replaces the verdict; a success "non" or a major failure "oui" refuses.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from itertools import product
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import select

from benchmarks import make_run
from models import Attempt, Conversation, Run, Verdict
from reviewer.agreement.feedback import agreement
from reviewer.exports.dataset import DatasetOptions, turn_examples
from reviewer.exports.golden import golden_records
from reviewer.exports.walk import NO_ANSWER, walk_conversations
from reviewer.ingest.demo import load_demo
from reviewer.ingest.importer import import_run
from reviewer.review import actions as review_actions
from reviewer.review.decisions import get_decision
from reviewer.review.example import load_example
from reviewer.rule.filter import (
    Kind,
    VerdictOutcome,
    decide,
    reason_for_verdict,
    refuses,
    refusing_met,
)
from reviewer.rule.replay import FALSE_POSITIVE, Overrides, load_attempts, replay
from reviewer.rule.verdicts import Opinion, effective_verdict, rescuable
from reviewer.store import Store
from tests.support.stores import act

REVIEWER = "claire"
OTHER = "marc"


def seed_met(kind: str, first: bool, second: bool | None, override: bool | None) -> bool:
    """The oracle: the verdict the seed's rule uses."""
    if override is not None:
        return override
    if kind == "success" and not first and second is True:
        return True  # revoirReussites: "si le second avis dit oui, il remplace le premier"
    return first


def seed_refuses(kind: str, severity: str | None, met: bool) -> bool:
    return (not met) if kind == "success" else (met and severity == "major")


def seed_against(kind: str, met: bool) -> bool:
    """A verdict against the answer, minor faults included (what agreement counts)."""
    return (not met) if kind == "success" else met


# --- the rule on its own ------------------------------------------------------------------

@given(kind=st.sampled_from(["success", "failure"]),
       severity=st.sampled_from([None, "minor", "major"]),
       first=st.booleans(), second=st.none() | st.booleans(),
       override=st.none() | st.booleans())
def test_effective_verdict_is_the_seed_rule(kind: str, severity: str | None, first: bool,
                                            second: bool | None,
                                            override: bool | None) -> None:
    v = effective_verdict("C", "success" if kind == "success" else "failure", severity,
                          Opinion(first, "premier avis"),
                          None if second is None else Opinion(second, "second avis"),
                          override)
    assert v.met == seed_met(kind, first, second, override)
    assert v.judged == seed_met(kind, first, second, None)
    assert v.refuses == seed_refuses(kind, severity, v.met) == refuses(kind, v.met, severity)
    # What each layer said stays readable, for "judge said X, second opinion Y, you Z".
    assert (v.first.met, v.second and v.second.met, v.override) == (first, second, override)
    # The reason line quotes the judge call that decided: the second opinion if it saved.
    assert v.rationale == ("second avis" if v.rescued else "premier avis")
    assert (reason_for_verdict(v) is not None) == v.refuses
    # The forms other callers use: the refusing verdict for SQL, the re-judged criteria.
    assert refusing_met(kind, severity) == next(
        (m for m in (False, True) if seed_refuses(kind, severity, m)), None)
    assert rescuable(kind, first) == (kind == "success" and not first)


def test_a_second_opinion_never_condemns() -> None:
    for kind, severity in product(("success", "failure"), (None, "major")):
        saved = effective_verdict("C", "success" if kind == "success" else "failure",
                                  severity, Opinion(kind == "success"), Opinion(kind != "success"))
        assert saved.met == (kind == "success")  # a "oui" stays, a failure "non" stays
        assert not saved.rescued


# --- every caller on the same stored attempts ---------------------------------------------

@pytest.fixture(params=["demo", "generated"])
def season(request: pytest.FixtureRequest, store: Store, tmp_path: Path) -> Store:
    """The bundled demo, or a generated run, with second opinions and overrides applied."""
    if request.param == "demo":
        load_demo(store)
    else:
        run, catalog = make_run.write(tmp_path / "run", 400, seed=5)
        import_run(store, run, catalog_path=catalog)
    treat(store, random.Random(11))
    return store


def treat(store: Store, rng: random.Random) -> None:
    """Second opinions on a sample (some "oui", some "non", some on failure criteria, where
    they must change nothing) and overrides by two reviewers through the app's toggles."""
    with store.session() as s:
        attempts = load_attempts(s, s.scalars(select(Attempt.id)))
        plan: list[tuple[int, str, str | None]] = []
        for a in attempts:
            firsts = [v for v in a.verdicts if v.origin == "filter"]
            for v in rng.sample(firsts, k=min(len(firsts), 2)) if rng.random() < 0.35 else []:
                s.add(Verdict(attempt_id=a.id, criterion_version_id=v.criterion_version_id,
                              origin="second_opinion", position=v.position,
                              met=rng.random() < 0.6, rationale="Second avis, critère seul.",
                              model="fake-judge:7b"))
            failed = [r.check_version.check_id for r in a.check_results if not r.passed]
            if rng.random() < 0.3:
                plan.append((a.id, "criterion", rng.choice(firsts).criterion_version.criterion_id))
            if failed and rng.random() < 0.5:
                plan.append((a.id, "check", rng.choice(failed)))
    assert len(plan) > 20
    for aid, what, target in plan:
        who = OTHER if rng.random() < 0.2 else REVIEWER
        toggle = (review_actions.toggle_criterion if what == "criterion"
                  else review_actions.toggle_false_positive)
        act(store, toggle, who, aid, target)
        if rng.random() < 0.15:  # flipped twice: back to the judge's verdict
            act(store, toggle, who, aid, target)


def layers(attempt: Attempt, overrides: Overrides) -> dict[str, tuple[str, str | None, bool]]:
    """Per criterion: kind, severity, and the oracle's verdict, from the stored rows."""
    seconds: dict[str, bool] = {}
    for v in sorted(attempt.verdicts, key=lambda v: v.id):
        if v.origin == "second_opinion":
            seconds[v.criterion_version.criterion_id] = v.met
    out = {}
    for v in attempt.verdicts:
        if v.origin != "filter":
            continue
        cv = v.criterion_version
        override = overrides.criteria.get(cv.criterion_id)
        out[cv.criterion_id] = (cv.kind, cv.severity, seed_met(
            cv.kind, v.met, seconds.get(cv.criterion_id), override))
    return out


def oracle_accepts(attempt: Attempt, overrides: Overrides) -> bool:
    checks_pass = all(r.passed or overrides.checks.get(r.check_version.check_id)
                      == FALSE_POSITIVE for r in attempt.check_results)
    return checks_pass and not any(seed_refuses(kind, severity, met)
                                   for kind, severity, met in layers(attempt, overrides).values())


def test_every_caller_reads_the_same_rule(season: Store) -> None:
    with season.session() as s:
        attempts = {a.id: a for a in load_attempts(s, s.scalars(select(Attempt.id)))}
        overrides = {aid: Overrides.of(get_decision(s, aid, REVIEWER)) for aid in attempts}
        replayed = {aid: replay(a, overrides=overrides[aid]) for aid, a in attempts.items()}
        graded = {aid: replay(a) for aid, a in attempts.items()}
        touched = {aid for aid, o in overrides.items() if o.criteria or o.checks}
        rescued = {aid for aid, a in attempts.items()
                   if not a.accepted and graded[aid].accepted}
        # The sample exercises every layer, and the layers change decisions both ways.
        assert touched and rescued
        assert any(replayed[aid].accepted != graded[aid].accepted for aid in touched)

        for aid, a in attempts.items():
            expected = oracle_accepts(a, overrides[aid])
            assert replayed[aid].accepted == expected, aid
            assert graded[aid].accepted == oracle_accepts(a, Overrides())
            view = load_example(s, aid, REVIEWER)
            assert view.live == replayed[aid]
            oracle = layers(a, overrides[aid])
            for row in view.verdicts:
                assert row.effective == oracle[row.criterion_id][2], (aid, row.criterion_id)
                assert row.refuses == refuses(row.kind, row.effective, row.severity)
                assert row.override == overrides[aid].criteria.get(row.criterion_id)
            # Someone with no override sees the grader's reading.
            assert load_example(s, aid, "personne").live == graded[aid]

        turns, keys = where_they_are(s)
        check_export(s, replayed, turns)
        check_golden(s, replayed, touched, keys)
        check_agreement(s, attempts, overrides, graded, replayed, touched)


Turns = dict[tuple[str, str, int], dict[int, int]]


def where_they_are(s: Any) -> tuple[Turns, dict[str, int]]:
    """Attempt ids per (run, conversation, turn) and attempt number; ids per key."""
    turns: Turns = defaultdict(dict)
    keys: dict[str, int] = {}
    for aid, run, conv, turn, att in s.execute(
            select(Attempt.id, Run.name, Conversation.name, Attempt.turn, Attempt.attempt)
            .join(Conversation, Attempt.conversation_id == Conversation.id)
            .join(Run, Attempt.run_id == Run.id)):
        turns[(run, conv, turn)][att] = aid
        keys[f"{run}/{conv}/{turn}/{att}"] = aid
    return turns, keys


def check_export(s: Any, replayed: dict[int, Any], turns: Turns) -> None:
    """The walk's final status of every attempt is the rule's (no decision here): each
    attempt the rule accepts is an example of its turn and nothing else is (issue 17:
    per-turn examples are independent), and the chain holds only accepted attempts."""
    options = DatasetOptions(reviewer=REVIEWER, keep_tainted=True)
    walked = 0
    for walk in walk_conversations(s, reviewer=REVIEWER):
        for nodes in walk.turns:
            for node in nodes:
                assert node.accepted == replayed[node.id].accepted, node.key
            key = nodes[0].key
            attempts = turns[(walk.run, walk.conversation, key.turn)]
            accepted = sorted(aid for aid in attempts.values() if replayed[aid].accepted)
            assert sorted(n.id for n in turn_examples(nodes, options)) == accepted, key
            walked += len(accepted)
        for choice in walk.choices:
            assert replayed[choice.id].accepted, choice.key
        if walk.stop == NO_ANSWER:
            attempts = turns[(walk.run, walk.conversation, walk.stop_turn or 0)]
            assert not any(replayed[aid].accepted for aid in attempts.values())
    assert walked > 0


def check_golden(s: Any, replayed: dict[int, Any], touched: set[int],
                 keys: dict[str, int]) -> None:
    records = list(golden_records(s, REVIEWER))
    assert sorted(keys[r["key"]] for r in records) == sorted(touched)
    for record in records:
        assert record["expected"]["accepted"] == replayed[keys[record["key"]]].accepted


def check_agreement(s: Any, attempts: dict[int, Attempt], overrides: dict[int, Overrides],
                    graded: dict[int, Any], replayed: dict[int, Any], touched: set[int]) -> None:
    figures = agreement(s, REVIEWER)
    assert figures.good == {aid: replayed[aid].accepted for aid in touched}
    overall: Counter[tuple[bool, bool]] = Counter(
        (not graded[aid].accepted, not replayed[aid].accepted) for aid in touched)
    got = figures.overall
    assert (got.tp, got.fp, got.fn, got.tn) == (overall[True, True], overall[True, False],
                                                overall[False, True], overall[False, False])
    # Per criterion, the grader's reading is the judge after second opinions, the
    # reviewer's their override (no decision was taken: otherwise the verdict stands).
    per: dict[str, Counter[tuple[bool, bool]]] = defaultdict(Counter)
    for aid in touched:
        judged, mine = layers(attempts[aid], Overrides()), layers(attempts[aid], overrides[aid])
        for cid, (kind, _, met) in judged.items():
            per[cid][seed_against(kind, met), seed_against(kind, mine[cid][2])] += 1
    for cid, counts in per.items():
        c = figures.criteria[cid]
        assert (c.tp, c.fp, c.fn, c.tn) == (counts[True, True], counts[True, False],
                                            counts[False, True], counts[False, False]), cid


def test_the_filter_rule_and_the_verdict_rule_are_the_same_function() -> None:
    """decide() refuses exactly on the verdicts refuses() names, in record order."""
    kinds: tuple[Kind, ...] = ("success", "failure")
    verdicts = [VerdictOutcome(f"C{i}", kind, met, f"raison {i}", severity)
                for i, (kind, met, severity) in enumerate(product(
                    kinds, (True, False), (None, "minor", "major")))]
    decision = decide([], verdicts)
    assert [r.split(" ", 1)[0] for r in decision.reasons] == [
        v.criterion_id for v in verdicts if seed_refuses(v.kind, v.severity, v.met)]

"""Flags a reviewer can act on: decision-changing contradictions, resolved by the reviewer.

The badge, the queue's flag column and "contradictions only" show a contradiction only
when reading the verdict the way its rationale reads would change the filter's decision;
a reviewer's override (or an applied second opinion) resolves it, for that reviewer.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from models import Attempt, Verdict
from reviewer.cli.main import main as cli
from reviewer.contradiction.decisive import decision_changing
from reviewer.contradiction.explain import explanation, gist, meaning
from reviewer.contradiction.flagging import flag_attempts, refresh_decisions
from reviewer.review import actions as review_actions
from reviewer.review.example import ExampleView, load_example
from reviewer.review.queue import QueueFilter, queue_count, queue_keys
from reviewer.rule.filter import CheckOutcome, VerdictOutcome
from reviewer.store import Store
from tests.support.judge_stores import load
from tests.support.run_files import record
from tests.support.stores import act

SAYS_ANSWERED = "L'assistant répond directement à la demande et explique la démarche."
SAYS_NOT_ANSWERED = "La réponse ne dit rien de la date demandée ; elle parle d'autre chose."


def verdict(cid: str, met: bool, severity: str | None = None) -> VerdictOutcome:
    kind = "success" if cid.startswith("G-") else "failure"
    return VerdictOutcome(cid, kind, met, "", severity if kind == "failure" else None)


PASSED = [CheckOutcome("D-COMMERCE", True)]
FAILED = [CheckOutcome("D-COMMERCE", False)]


@pytest.mark.parametrize(
    ("checks", "verdicts", "contradicted", "expected"),
    [
        # Refused only by the contradicted verdict: reading it as its rationale accepts.
        (PASSED, [verdict("G-DEMANDE", False), verdict("E-INVENTE", False, "major")],
         {"G-DEMANDE"}, {"G-DEMANDE"}),
        # A failed check still refuses: the contradiction changes nothing.
        (FAILED, [verdict("G-DEMANDE", False)], {"G-DEMANDE"}, set()),
        # So does a fault the rationale confirms.
        (PASSED, [verdict("G-DEMANDE", False), verdict("E-INVENTE", True, "major")],
         {"G-DEMANDE"}, set()),
        # Two contradicted refusals: both read otherwise accept, so both change it.
        (PASSED, [verdict("G-DEMANDE", False), verdict("G-TON", False)],
         {"G-DEMANDE", "G-TON"}, {"G-DEMANDE", "G-TON"}),
        # A contradicted verdict that does not refuse a refused attempt changes nothing.
        (PASSED, [verdict("G-DEMANDE", False), verdict("G-TON", True)], {"G-TON"}, set()),
        # Accepted: a flip that refuses is a likely false accept; a minor fault is not.
        (PASSED, [verdict("G-DEMANDE", True), verdict("E-LONGUEUR", False, "minor"),
                  verdict("E-INVENTE", False, "major")],
         {"G-DEMANDE", "E-LONGUEUR", "E-INVENTE"}, {"G-DEMANDE", "E-INVENTE"}),
        (PASSED, [verdict("G-DEMANDE", False)], set(), set()),
    ],
)
def test_which_contradictions_change_the_decision(
    checks: list[CheckOutcome], verdicts: list[VerdictOutcome], contradicted: set[str],
    expected: set[str],
) -> None:
    assert decision_changing(checks, verdicts, contradicted) == expected


def test_every_flag_is_explained_in_one_line() -> None:
    text = ("Invente un fait, une loi, un article, un arrêté, un seuil, un chiffre ou un "
            "numéro qui n'est ni dans la conversation ni vérifiable.")
    line = explanation("E-INVENTE", "failure", False, text, "invente un numéro")
    assert line == ("E-INVENTE non = no fault (Invente un fait…); the rationale says: "
                    "« invente un numéro »")
    assert meaning("success", True) == "met" and meaning("success", False) == "not met"
    assert meaning("failure", True) == "fault committed"
    assert gist("Répond à la demande.") == "Répond à la demande"
    assert "\n" not in explanation("G-DEMANDE", "success", False, "x " * 80, "")


# --- on a store, flagged by the real detector ------------------------------------------

pytestmark_store = pytest.mark.both_backends

ROWS = [
    record("c", 1, 1, demande="non", rationale=SAYS_ANSWERED),  # changes the decision
    record("c", 1, 2, demande="non", rationale=SAYS_ANSWERED, commerce_passed=False,
           response="Pensez à inscrire la date."),  # a check refuses anyway
    record("c", 1, 3, demande="non", rationale=SAYS_NOT_ANSWERED),  # consistent
    record("d", 1, 1, demande="oui", rationale=SAYS_NOT_ANSWERED),  # a likely false accept
]


@pytest.fixture
def flagged(store: Store, tmp_path: Path) -> tuple[Store, list[int]]:
    ids = load(store, tmp_path, ROWS)
    with store.session() as s:
        flag_attempts(s, ids)
    return store, ids


def view(store: Store, attempt_id: int, reviewer: str = "claire") -> ExampleView:
    with store.session() as s:
        return load_example(s, attempt_id, reviewer)


def badges(store: Store, f: QueueFilter) -> dict[int, bool]:
    with store.session() as s:
        return {r.attempt_id: r.badge for r in queue_keys(s, f)}


def shown(store: Store, f: QueueFilter) -> list[int]:
    with store.session() as s:
        rows = [r.attempt_id for r in queue_keys(s, f)]
        assert queue_count(s, f) == len(rows)  # the count form agrees with the pages
    return rows


@pytestmark_store
def test_the_badge_shows_only_what_would_change_the_decision(
    flagged: tuple[Store, list[int]],
) -> None:
    store, (sole, checked, consistent, accepted) = flagged
    v = view(store, sole)
    demande = v.verdicts[0]
    assert demande.contradiction and demande.decision_changing and not demande.resolved
    assert v.badge and v.rescue_flips == ("G-DEMANDE",)
    assert demande.explanation.startswith("G-DEMANDE non = not met (")
    assert "« " in demande.explanation and "répond" in demande.explanation
    # The same contradiction behind a failed check: visible in the table, no badge.
    w = view(store, checked)
    assert w.verdicts[0].contradiction and not w.verdicts[0].decision_changing
    assert not w.badge and w.rescue_flips == ()
    assert not view(store, consistent).verdicts[0].contradiction
    # An accepted attempt whose success verdict reads as unmet: a likely false accept.
    a = view(store, accepted)
    assert a.badge and a.verdicts[0].decision_changing and a.rescue_flips == ()

    queue = badges(store, QueueFilter(reviewer="claire"))
    assert next(iter(queue)) == sole  # the decision-changing contradiction comes first
    assert queue == {sole: True, checked: False, consistent: False}
    assert shown(store, QueueFilter(flagged_only=True, reviewer="claire")) == [sole]
    assert shown(store, QueueFilter(flagged_only=True, include_accepted=True,
                                    reviewer="claire")) == [sole, accepted]


@pytestmark_store
def test_queue_json_gives_the_badge_as_the_app_shows_it(
    flagged: tuple[Store, list[int]], db_url: str, capsys: pytest.CaptureFixture[str],
) -> None:
    store, (sole, _checked, _consistent, _accepted) = flagged
    assert cli(["--db", db_url, "queue", "--json", "--reviewer", "claire"]) == 0
    rows: list[dict[str, Any]] = json.loads(capsys.readouterr().out)
    assert [r["badge"] for r in rows] == [True, False, False]
    assert rows[0]["key"].endswith("/c/1/1")
    act(store, review_actions.toggle_criterion, "claire", sole, "G-DEMANDE")
    assert cli(["--db", db_url, "queue", "--json", "--reviewer", "claire"]) == 0
    assert [r["badge"] for r in json.loads(capsys.readouterr().out)] == [False] * 3
    assert cli(["--db", db_url, "queue", "--json", "--reviewer", "marc"]) == 0
    assert [r["badge"] for r in json.loads(capsys.readouterr().out)] == [True, False, False]


@pytestmark_store
def test_a_flipped_verdict_resolves_its_flag_for_that_reviewer(
    flagged: tuple[Store, list[int]],
) -> None:
    store, (sole, _checked, _consistent, _accepted) = flagged
    act(store, review_actions.toggle_criterion, "claire", sole, "G-DEMANDE")
    mine = view(store, sole, "claire")
    assert mine.verdicts[0].resolved and not mine.verdicts[0].open_flag
    assert not mine.badge and mine.rescue_flips == () and not mine.flagged
    assert mine.live.accepted  # the reviewer's reading wins
    theirs = view(store, sole, "marc")  # overrides are per reviewer
    assert theirs.badge and not theirs.verdicts[0].resolved
    assert not badges(store, QueueFilter(reviewer="claire"))[sole]
    assert badges(store, QueueFilter(reviewer="marc"))[sole]
    assert shown(store, QueueFilter(flagged_only=True, reviewer="claire")) == []
    assert shown(store, QueueFilter(flagged_only=True, reviewer="marc")) == [sole]
    # Undone, the flag is open again.
    act(store, review_actions.undo, "claire")
    assert view(store, sole, "claire").badge
    assert shown(store, QueueFilter(flagged_only=True, reviewer="claire")) == [sole]


@pytestmark_store
def test_a_second_opinion_that_replaces_the_verdict_resolves_it(
    flagged: tuple[Store, list[int]],
) -> None:
    store, (sole, _checked, _consistent, _accepted) = flagged
    with store.session() as s:
        first = s.scalars(select(Verdict).where(Verdict.attempt_id == sole,
                                                Verdict.origin == "filter")).first()
        assert first is not None
        s.add(Verdict(attempt_id=sole, criterion_version_id=first.criterion_version_id,
                      origin="second_opinion", position=first.position, met=True,
                      rationale="Répond à la demande.", model="m"))
        s.flush()
        refresh_decisions(s, [sole])
    v = view(store, sole)
    assert v.verdicts[0].contradiction and v.verdicts[0].resolved and not v.badge
    with store.session() as s:
        assert not s.get_one(Attempt, sole).flagged
    assert not badges(store, QueueFilter(reviewer="anyone"))[sole]

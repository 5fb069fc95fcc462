"""The bundled demo run goes through the real importer and the replay of the filter rule."""

from __future__ import annotations

import json
import re

import pytest
from sqlalchemy import select

from models import Attempt
from reviewer.assets import demo_run
from reviewer.cli.main import main as cli
from reviewer.rule.replay import imported_decision, load_attempts
from reviewer.store import open_store

# "L'assistant répond directement à la demande…", "La réponse explique clairement…"
ANSWERED = re.compile(r"répond|explique|donne|dit ce que|propose", re.IGNORECASE)


def test_demo_imports_once_and_counts_match_the_file(
    db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    records = [json.loads(line) for line in demo_run().read_text(encoding="utf-8").splitlines()]
    assert cli(["--db", db_url, "demo"]) == 0
    assert capsys.readouterr().out.strip() == f"{len(records)} new, 0 already present"
    assert cli(["--db", db_url, "demo"]) == 0
    assert capsys.readouterr().out.strip() == f"0 new, {len(records)} already present"

    assert cli(["--db", db_url, "stats", "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["attempts"] == len(records)
    assert stats["accepted"] == sum(r["accepted"] for r in records)
    assert stats["rejected"] == sum(not r["accepted"] for r in records)
    assert stats["conversations"] == len({r["conversation"] for r in records})
    assert stats["runs"] == 1


def test_replaying_the_rule_on_the_demo_reproduces_every_record(db_url: str) -> None:
    assert cli(["--db", db_url, "demo"]) == 0
    store = open_store(db_url)
    try:
        with store.session() as s:
            attempts = load_attempts(s, s.scalars(select(Attempt.id)))
            mismatches = [
                a.id
                for a in attempts
                if (d := imported_decision(a)).accepted != a.accepted
                or list(d.reasons) != a.reasons
            ]
            assert len(attempts) > 150
            assert mismatches == []
    finally:
        store.close()


def test_import_flags_contradictions_so_the_queue_is_sorted_at_once(
    db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli(["--db", db_url, "demo"]) == 0
    capsys.readouterr()
    assert cli(["--db", db_url, "queue", "--limit", "5", "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert len(first) == 5
    assert all(item["score"] > 0.5 for item in first)
    # The seed's case: every refusal whose only reason is G-DEMANDE "non tenu" with a
    # rationale saying the request was answered comes among the first items.
    assert cli(["--db", db_url, "queue", "--limit", "500", "--json"]) == 0
    queue = json.loads(capsys.readouterr().out)
    answered = [i for i, item in enumerate(queue) if len(item["reasons"]) == 1
                and item["reasons"][0].startswith("G-DEMANDE non tenu")
                and ANSWERED.search(item["reasons"][0])]
    assert len(answered) >= 9
    assert max(answered) < 25, answered
    # All but one flagged: the refit on runs A-G reads « … répond directement à la
    # demande sur la façon de noter, … une mise en garde sur les accusations » at 0.45.
    assert sum(queue[i]["score"] < 0.5 for i in answered) <= 1


# The demo's refusals that only a contradicting verdict causes, read from their reasons
# (the judge's rationale says the criterion is met, or that there is no fault): 22 of
# its 63 refusals. The "at most 25 % of refusals" cannot hold on this demo
# without hiding some of them; the badge is held to the base-rate goal instead.
PLANTED = {f"2026-10-14-ministral-8b/recette-{key}" for key in (
    "001/2/1", "003/1/1", "006/1/1", "009/2/2", "012/1/1", "017/1/1", "021/3/1", "025/1/1",
    "027/1/1", "031/1/2", "033/2/1", "034/1/2", "034/3/1", "035/1/1", "037/1/1", "041/1/1",
    "043/1/2", "045/2/1", "047/1/2", "048/1/2", "051/3/1", "053/1/1")}


def test_the_demo_badges_its_contradictions_and_a_flip_resolves_the_flag(
    db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The badge marks a contradiction that would change the filter's decision: on the
    demo it is on at most 1.3 times as many refusals as the planted ones, finds nine in
    ten of them, and sorts them first; once the reviewer reads the verdict as its
    rationale does, the flag is resolved: no badge, no open flag, and the filter
    accepts."""
    from reviewer.review import actions as review_actions
    from reviewer.review.example import load_example
    from tests.support.stores import act

    assert cli(["--db", db_url, "demo"]) == 0
    capsys.readouterr()
    assert cli(["--db", db_url, "queue", "--limit", "1000", "--json",
                "--reviewer", "claire"]) == 0
    refused = json.loads(capsys.readouterr().out)
    badged = {item["key"] for item in refused if item["badge"]}
    assert len(refused) == 63
    assert len(badged) <= 1.3 * len(PLANTED)
    assert len(badged & PLANTED) >= 0.9 * len(PLANTED), sorted(PLANTED - badged)
    # Every badged refusal comes before every refusal without the badge.
    assert [item["badge"] for item in refused] == [True] * len(badged) + \
        [False] * (len(refused) - len(badged))

    store = open_store(db_url)
    try:
        with store.session() as s:
            first = s.scalar(select(Attempt.id).where(Attempt.accepted.is_(False))
                             .order_by(Attempt.contradiction_score.desc(), Attempt.id))
            assert first is not None
            view = load_example(s, first, "claire")
        assert view.badge and view.rescue_flips
        for criterion in view.rescue_flips:
            act(store, review_actions.toggle_criterion, "claire", first, criterion)
        with store.session() as s:
            after = load_example(s, first, "claire")
        assert not after.badge and not after.flagged and after.rescue_flips == ()
        assert all(v.resolved for v in after.verdicts if v.contradiction
                   and v.criterion_id in view.rescue_flips)
        assert after.live.accepted
    finally:
        store.close()

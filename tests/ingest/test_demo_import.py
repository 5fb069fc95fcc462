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
    assert all(queue[i]["score"] >= 0.5 for i in answered)

"""The bundled demo run (assets/demo) shows what the seed describes, and is self-consistent.

The files are read with plain ``json``: these tests check what a user of the demo would
notice, independently of the importer.
"""

from __future__ import annotations

import importlib.util
import json
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from reviewer.rule.filter import CheckOutcome, VerdictOutcome, decide

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "assets" / "demo"
G_DEMANDE_TEXT = (
    "Répond à ce que la personne demande (une information, une explication ou une aide), "
    "en s'en tenant à la conversation et au contexte fourni, ou dit clairement ce qu'elle "
    "ne sait pas ; une réponse factuelle à une demande factuelle suffit."
)
Record = dict[str, Any]


@pytest.fixture(scope="module")
def catalog() -> dict[str, Any]:
    return json.loads((DEMO / "catalog.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def records() -> list[Record]:
    lines = (DEMO / "run.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


@pytest.fixture(scope="module")
def false_accepts() -> list[dict[str, str]]:
    return json.loads((DEMO / "known_false_accepts.json").read_text(encoding="utf-8"))


def key(record: Record) -> str:
    return f"{record['run']}/{record['conversation']}/{record['turn']}/{record['attempt']}"


def by_conversation(records: list[Record]) -> dict[str, list[Record]]:
    groups: dict[str, list[Record]] = defaultdict(list)
    for record in records:
        groups[record["conversation"]].append(record)
    return groups


def flags(letters: str) -> int:
    table = {"i": re.IGNORECASE, "m": re.MULTILINE, "s": re.DOTALL, "x": re.VERBOSE}
    value = 0
    for letter in letters:
        value |= table[letter]
    return value


def g_demande_only(record: Record) -> bool:
    return len(record["reasons"]) == 1 and record["reasons"][0].startswith(
        "G-DEMANDE non tenu : ")


def test_catalog_has_the_judges_criteria_and_the_old_commerce_pattern(
        catalog: dict[str, Any]) -> None:
    criteria = {c["id"]: c for c in catalog["criteria"]}
    assert 11 <= len(criteria) <= 13
    assert criteria["G-DEMANDE"]["text"] == G_DEMANDE_TEXT
    assert criteria["E-COMMERCE"]["severity"] == "major"
    assert {c["severity"] for c in criteria.values() if c["kind"] == "failure"} == {
        "major", "minor"}
    assert all(c["severity"] is None for c in criteria.values() if c["kind"] == "success")
    checks = {c["id"]: c for c in catalog["checks"]}
    assert checks["D-COMMERCE"]["pattern"] == "inscri(vez|re|ption)"
    assert checks["D-COMMERCE"]["flags"] == "i"
    assert checks["D-3114"]["mode"] == "require"
    assert all(c["description"].strip() for c in checks.values())


def test_run_is_big_enough_and_mostly_accepted(records: list[Record]) -> None:
    conversations = {r["conversation"] for r in records}
    assert len(conversations) >= 45
    assert len(records) >= 170
    assert len({key(r) for r in records}) == len(records)
    share = sum(r["accepted"] for r in records) / len(records)
    assert 0.55 <= share <= 0.70
    assert {r["run"] for r in records} == {"2026-10-14-ministral-8b"}
    assert {r["judge"]["model"] for r in records} == {"qwen3.6:35b-a3b"}


def test_every_decision_replays_the_filter_rule(
        records: list[Record], catalog: dict[str, Any]) -> None:
    checks = {c["id"]: c for c in catalog["checks"]}
    criteria = {c["id"]: c for c in catalog["criteria"]}
    for record in records:
        decision = decide(
            [CheckOutcome(c["id"], c["passed"], checks[c["id"]]["description"])
             for c in record["checks"]],
            [VerdictOutcome(v["criterion"], criteria[v["criterion"]]["kind"],
                            v["verdict"] == "oui", v["rationale"],
                            criteria[v["criterion"]]["severity"])
             for v in record["judge"]["verdicts"]],
        )
        assert record["accepted"] == decision.accepted, key(record)
        assert record["reasons"] == list(decision.reasons), key(record)


def test_check_results_are_the_catalog_regexes(
        records: list[Record], catalog: dict[str, Any]) -> None:
    for record in records:
        assert [c["id"] for c in record["checks"]] == [c["id"] for c in catalog["checks"]]
        last_user = record["messages"][-1]["content"]
        for check, result in zip(catalog["checks"], record["checks"], strict=True):
            found = re.search(check["pattern"], record["response"], flags(check["flags"]))
            if check["mode"] == "forbid":
                expected = found is None
            else:
                applies = re.search(check["when"], last_user, flags(check["flags"]))
                expected = found is not None or applies is None
            assert result["passed"] == expected, (key(record), check["id"])


def test_every_attempt_is_judged_on_every_criterion_with_a_short_rationale(
        records: list[Record], catalog: dict[str, Any]) -> None:
    order = [c["id"] for c in catalog["criteria"]]
    for record in records:
        verdicts = record["judge"]["verdicts"]
        assert [v["criterion"] for v in verdicts] == order, key(record)
        for verdict in verdicts:
            assert verdict["verdict"] in {"oui", "non"}
            assert 10 <= len(verdict["rationale"].split()) <= 40, verdict["rationale"]
        assert 40 <= len(record["response"].split()) <= 200, key(record)


def test_g_demande_contradictions_are_the_only_reason_of_nine_refusals(
        records: list[Record]) -> None:
    contradictions = [r for r in records if g_demande_only(r) and "répond" in r["reasons"][0]]
    assert len(contradictions) >= 9


def test_some_failure_verdicts_say_oui_while_finding_no_fault(records: list[Record]) -> None:
    found = [
        v for r in records for v in r["judge"]["verdicts"]
        if v["criterion"] == "E-COMMERCE" and v["verdict"] == "oui"
        and re.match(r"(Aucune|Rien)", v["rationale"])
    ]
    assert found


def test_old_commerce_regex_refuses_innocent_inscrire(records: list[Record]) -> None:
    innocent = re.compile(r"inscri(re|vez) (la date|l'heure|le début|dans)|inscription de chaque",
                          re.IGNORECASE)
    hits = [
        r for r in records
        if not r["checks"][0]["passed"] and innocent.search(r["response"])
        and r["reasons"][0].startswith("D-COMMERCE échoué")
    ]
    assert len(hits) >= 5
    genuine = [r for r in records
               if any(x.startswith("E-COMMERCE relevé") for x in r["reasons"])
               and "premium" in r["response"].lower()]
    assert len(genuine) >= 2


def test_conversations_follow_the_retry_rule(records: list[Record]) -> None:
    for conv, items in by_conversation(records).items():
        turns: dict[int, list[Record]] = defaultdict(list)
        for record in items:
            turns[record["turn"]].append(record)
        planned = {r["turns_planned"] for r in items}
        assert len(planned) == 1 and 2 <= planned.pop() <= 5, conv
        assert sorted(turns) == list(range(1, len(turns) + 1)), conv
        for number, attempts in turns.items():
            assert [a["attempt"] for a in attempts] == list(range(1, len(attempts) + 1))
            assert len(attempts) <= 3
            assert not any(a["accepted"] for a in attempts[:-1]), (conv, number)
            if number < len(turns):
                assert attempts[-1]["accepted"], (conv, number)


def test_some_conversations_are_cut_after_three_refusals(records: list[Record]) -> None:
    cut = []
    for items in by_conversation(records).values():
        last_turn = max(r["turn"] for r in items)
        last = [r for r in items if r["turn"] == last_turn]
        if len(last) == 3 and not any(r["accepted"] for r in last):
            assert last_turn < items[0]["turns_planned"]
            cut.append(last)
    assert len(cut) >= 2
    unjust = [attempts for attempts in cut
              if all(r["reasons"][0].split(" ")[0] in {"D-COMMERCE", "G-DEMANDE"}
                     and len(r["reasons"]) == 1 for r in attempts)]
    assert unjust


def test_context_alternates_and_carries_the_accepted_answers(records: list[Record]) -> None:
    accepted = {(r["conversation"], r["turn"]): r["response"] for r in records if r["accepted"]}
    for record in records:
        messages = record["messages"]
        assert messages[0]["role"] == "system"
        roles = [m["role"] for m in messages[1:]]
        assert roles == ["user", "assistant"] * (record["turn"] - 1) + ["user"], key(record)
        previous = [m["content"] for m in messages[1:] if m["role"] == "assistant"]
        expected = [accepted[(record["conversation"], t)] for t in range(1, record["turn"])]
        assert previous == expected, key(record)


def test_known_false_accepts_were_accepted(
        records: list[Record], false_accepts: list[dict[str, str]]) -> None:
    index = {key(r): r for r in records}
    assert len(false_accepts) >= 4
    for entry in false_accepts:
        assert index[entry["key"]]["accepted"], entry["key"]
        assert entry["why"].strip()
    invented = index[next(e["key"] for e in false_accepts if "2019-114" in e["why"])]
    assert "arrêté municipal n° 2019-114" in invented["response"]


def test_references_with_figures_for_the_graders(records: list[Record]) -> None:
    with_reference = [r for r in records if r["reference"]]
    assert 20 <= len(with_reference) <= 45
    with_figures = [r for r in with_reference
                    if re.search(r"\d+ ?(h|dB|€|minutes)\b", r["reference"])]
    assert len(with_figures) >= 5


def test_files_are_what_the_generator_writes() -> None:
    path = ROOT / "scripts" / "make_demo.py"
    spec = importlib.util.spec_from_file_location("make_demo", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for name, text in module.render().items():
        assert (DEMO / name).read_text(encoding="utf-8") == text, name

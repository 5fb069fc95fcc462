"""Exports: exact content on a small fixture (a conversation restored by an override, one
still cut, one overturned, one whose context diverged), atomic writes, the demo dataset."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from reviewer.agreement.feedback import feedback_stats
from reviewer.atomic import write_jsonl_atomic
from reviewer.catalog.spec import CheckSpec, parse_catalog
from reviewer.catalog.versions import add_check_version, apply_catalog
from reviewer.cli.main import main
from reviewer.exports.dataset import export_dataset
from reviewer.exports.manifest import manifest_path
from reviewer.ingest.demo import load_demo
from reviewer.store import Store
from tests.support.feedback_stores import (
    SEED_NEW_PATTERN,
    SYSTEM,
    answer,
    key,
    load_export_store,
    user,
)

# Storage-touching tests run on SQLite and on the throwaway PostgreSQL server.
pytestmark = pytest.mark.both_backends


@pytest.fixture
def loaded(tmp_path: Path, store: Store) -> Store:
    load_export_store(store, tmp_path)
    return store


def lines(path: Path) -> list[Any]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def chat(conv: str, *attempts: int) -> list[dict[str, str]]:
    """System + (user, assistant) for turns 1..n with the given attempt numbers."""
    out = [SYSTEM]
    for turn, attempt in enumerate(attempts, start=1):
        out += [{"role": "user", "content": user(conv, turn)},
                {"role": "assistant", "content": answer(conv, turn, attempt)}]
    return out


def manifest_of(out: Path) -> dict[str, Any]:
    """The manifest beside ``out``, its ``files`` entry checked against the file itself."""
    doc: dict[str, Any] = json.loads(manifest_path(out).read_text(encoding="utf-8"))
    data = out.read_bytes()
    assert doc.pop("files") == [{"name": out.name, "bytes": len(data),
                                 "sha256": hashlib.sha256(data).hexdigest(),
                                 "lines": data.count(b"\n")}]
    return doc


def test_dataset_per_turn_exact_content(loaded: Store, tmp_path: Path, db_url: str,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "train.jsonl"
    assert main(["--db", db_url, "export", "dataset", str(out)]) == 0
    assert "8 examples (7 turns, 4 conversations, 2 restored turns)" in capsys.readouterr().out
    # Conversations in name order: criterion, cut (nothing), ok, overturned, restored.
    # Every accepted attempt is an example with the context it was generated in:
    # criterion's 1.1 (rescued by an override) and 1.2 (kept by the filter, turn 2 was
    # generated after it) are both there, and so is turn 2.
    assert lines(out) == [
        {"messages": chat("criterion", 1)},
        {"messages": chat("criterion", 2)},
        {"messages": chat("criterion", 2, 1)},
        {"messages": chat("ok", 1)},
        {"messages": chat("ok", 1, 1)},
        {"messages": chat("overturned", 1)},
        {"messages": chat("restored", 1)},
        {"messages": chat("restored", 1, 1)},
    ]
    assert manifest_of(out) == {
        "kind": "dataset", "format": "chat", "per": "turn", "per_turn_pick": "all",
        "weight_context": None, "reviewer": None, "examples": 8, "turns": 7,
        "conversations": {"total": 5, "exported": 4, "complete": 2, "cut_short": 1,
                          "stopped": {"no accepted answer": 2}},
        "source_runs": ["2026-10-14-ministral-8b"],
        "catalog": {"criteria": {"E-INVENTE": 1, "E-LONGUEUR": 1, "G-DEMANDE": 1},
                    "checks": {"D-3114": 1, "D-COMMERCE": 1}},
        "restored": [
            {"line": 1, "key": key(1, "criterion"), "by": ["G-DEMANDE=met by associe"]},
            {"line": 8, "key": key(2, "restored"), "by": ["accepted by associe"]},
        ],
        "tainted": {"excluded": 0, "kept": 0, "examples": []},
        "malformed": [],
        "several_accepted": {"turns": 1, "dropped": {"all": 0, "first": 1, "last": 1},
                             "dropped_here": []},
    }


def test_dataset_per_conversation_and_sharegpt(loaded: Store, tmp_path: Path) -> None:
    out = tmp_path / "conv.jsonl"
    with loaded.session() as s:
        report = export_dataset(s, out, per="conversation", fmt="sharegpt")
    assert report.examples == 4
    roles = {"system": "system", "user": "human", "assistant": "gpt"}

    def share(messages: list[dict[str, str]]) -> dict[str, Any]:
        return {"conversations": [{"from": roles[m["role"]], "value": m["content"]}
                                  for m in messages]}

    # criterion follows the chain it was generated along: 1.2, then 2.1.
    assert lines(out) == [share(chat("criterion", 2, 1)), share(chat("ok", 1, 1)),
                          share(chat("overturned", 1)), share(chat("restored", 1, 1))]
    manifest = manifest_of(out)
    assert [r["line"] for r in manifest["restored"]] == [4]
    # The rescued 1.1 of criterion is off the chain: listed (it is in the per-turn export).
    assert manifest["off_chain"] == [{"key": key(1, "criterion"),
                                      "by": ["G-DEMANDE=met by associe"]}]


def test_resume_lists_restored_conversations(
        loaded: Store, tmp_path: Path, db_url: str) -> None:
    out = tmp_path / "resume.jsonl"
    assert main(["--db", db_url, "export", "resume", str(out)]) == 0
    # criterion is whole along its chain (1.2 then 2.1): nothing to regenerate there.
    assert lines(out) == [
        {"run": "2026-10-14-ministral-8b", "conversation": "restored", "turns_planned": 3,
         "regenerate_from": 3, "reason": "restored", "restored": [key(2, "restored")],
         "messages": chat("restored", 1, 1)},
    ]


def test_cut_conversations_count_unjust_refusals(loaded: Store) -> None:
    with loaded.session() as s:
        cut = feedback_stats(s)["cut"]
    # "restored" cut at turn 2 of 3 (1 turn lost, the reviewer accepted 2.1: unjust);
    # "cut" cut at turn 1 of 3 (2 turns lost, not reviewed).
    assert cut == {"conversations": 2, "turns_lost": 3, "unjust_conversations": 1,
                   "unjust_turns_lost": 1}


def test_golden_exact_content(loaded: Store, tmp_path: Path, db_url: str) -> None:
    out = tmp_path / "golden.jsonl"
    assert main(["--db", db_url, "export", "golden", str(out)]) == 0
    records = lines(out)
    assert [r["key"] for r in records] == [key(1, "criterion"), key(2, "overturned"),
                                           key(2, "restored")]
    checks = {"D-COMMERCE": True, "D-3114": True}
    assert [r["expected"] for r in records] == [
        # override G-DEMANDE met, no decision: the rule replayed with it accepts
        {"accepted": True, "criteria": {"G-DEMANDE": True, "E-INVENTE": False},
         "checks": checks},
        # rejected with nothing overridden: the grader's verdicts stand
        {"accepted": False, "criteria": {"G-DEMANDE": True, "E-INVENTE": False},
         "checks": checks},
        # accepted although refused by G-DEMANDE: G-DEMANDE met, no major fault
        {"accepted": True, "criteria": {"G-DEMANDE": True, "E-INVENTE": False},
         "checks": checks},
    ]
    first = records[0]
    assert first["filter"] == {"accepted": False, "reasons": [
        "G-DEMANDE non tenu : L'assistant répond directement à la demande."]}
    assert first["response"] == answer("criterion", 1, 1)
    assert first["versions"] == {"D-3114": 1, "D-COMMERCE": 1, "E-INVENTE": 1,
                                 "G-DEMANDE": 1}
    assert (records[1]["reviewer"], records[1]["note"]) == ("associe",
                                                            "pousse l'offre Premium")


def test_decisions_export_is_the_audit_trail(loaded: Store, tmp_path: Path,
                                              db_url: str) -> None:
    out = tmp_path / "decisions.jsonl"
    assert main(["--db", db_url, "export", "decisions", str(out)]) == 0
    events = [{k: e[k] for k in ("reviewer", "key", "action", "field", "old", "new")}
              for e in lines(out)]
    assert events == [
        {"reviewer": "associe", "key": key(2, "restored"), "action": "set",
         "field": "decision", "old": None, "new": "accept"},
        {"reviewer": "associe", "key": key(2, "overturned"), "action": "set",
         "field": "decision", "old": None, "new": "reject"},
        {"reviewer": "associe", "key": key(2, "overturned"), "action": "set",
         "field": "note", "old": "", "new": "pousse l'offre Premium"},
        {"reviewer": "associe", "key": key(1, "criterion"), "action": "set",
         "field": "criterion:G-DEMANDE", "old": None, "new": True},
    ]


def test_catalog_export_has_versions_and_reasons_and_reimports(
        loaded: Store, tmp_path: Path, db_url: str) -> None:
    with loaded.session() as s:
        add_check_version(s, CheckSpec("D-COMMERCE", "Pas d'incitation à s'inscrire",
                                       SEED_NEW_PATTERN, "i", "forbid", None),
                          reason="exiger le pronom : « inscrire la date » est permis",
                          author="associe")
    out = tmp_path / "catalog.json"
    assert main(["--db", db_url, "export", "catalog", str(out)]) == 0
    doc = json.loads(out.read_text(encoding="utf-8"))
    commerce = next(c for c in doc["checks"] if c["id"] == "D-COMMERCE")
    assert commerce["pattern"] == SEED_NEW_PATTERN and commerce["version"] == 2
    assert [(c["version"], c["reason"], c["author"]) for c in commerce["changes"]] == [
        (1, "catalog import", None),
        (2, "exiger le pronom : « inscrire la date » est permis", "associe")]
    assert [c["id"] for c in doc["criteria"]] == ["G-DEMANDE", "E-INVENTE", "E-LONGUEUR"]
    assert next(c for c in doc["checks"] if c["id"] == "D-3114")["when"] == "(en finir|suicid)"
    with loaded.session() as s:  # the export is a valid catalog describing the store
        assert apply_catalog(s, parse_catalog(doc, str(out))) == 0


def test_failed_export_leaves_the_previous_file(tmp_path: Path) -> None:
    out = tmp_path / "train.jsonl"
    out.write_text("previous content\n", encoding="utf-8")

    def rows() -> Iterator[dict[str, Any]]:
        yield {"messages": []}
        raise RuntimeError("disk gone")

    with pytest.raises(RuntimeError):
        write_jsonl_atomic(out, rows())
    assert out.read_text(encoding="utf-8") == "previous content\n"
    assert [p.name for p in tmp_path.iterdir()] == ["train.jsonl"]  # no temporary left


def test_demo_dataset_loads_and_alternates(tmp_path: Path, store: Store, db_url: str) -> None:
    load_demo(store)
    for per in ("turn", "conversation"):
        out = tmp_path / f"demo-{per}.jsonl"
        assert main(["--db", db_url, "export", "dataset", str(out), "--per", per]) == 0
        records = lines(out)
        assert records
        for rec in records:
            roles = [m["role"] for m in rec["messages"]]
            body = roles[1:] if roles[0] == "system" else roles
            assert body == ["user", "assistant"] * (len(body) // 2)
            assert body[-1] == "assistant"


def test_the_walk_leaves_the_page_cache_and_the_collector_as_it_found_them(
        loaded: Store) -> None:
    """The pass sets a small SQLite page cache and pauses the garbage collector (both
    for speed: ``reviewer.exports.walk``); the store's connection and the process get
    theirs back, after a whole walk and after one left half-way."""
    import gc

    from reviewer.collector import collector_paused
    from reviewer.exports.walk import walk_conversations

    with loaded.session() as s:
        connection = s.connection()
        sqlite = connection.dialect.name == "sqlite"

        def cache() -> int | None:
            return int(connection.exec_driver_sql("PRAGMA cache_size").scalar_one()) \
                if sqlite else None

        before = cache()
        assert sum(1 for _ in walk_conversations(s)) > 1
        assert cache() == before
        walks = walk_conversations(s, content=True)
        next(walks)
        assert cache() != before or not sqlite  # the pass's own
        walks.close()
        assert cache() == before
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()

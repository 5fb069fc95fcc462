"""Judge faults: one clear line naming host and model, bounded retries, nothing else changed."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from models import JudgeFailure, JudgeRequest
from reviewer.errors import JudgeError
from reviewer.judge.client import JudgeClient
from reviewer.judge.host import normalize_host
from reviewer.judge.schema import verdicts_schema
from reviewer.judge.second_opinion import FAILED, FLIPPED, failures, second_opinion
from reviewer.judge.transport import Abandoned
from reviewer.store import Store
from tests.support.fake_ollama import FakeOllama
from tests.support.judge_stores import (
    MODEL,
    client_for,
    closed_port_url,
    failure_messages,
    load,
    snapshot,
    verdict_reply,
)
from tests.support.run_files import record

GOOD = {"verdicts": [{"criterion": "G-DEMANDE", "rationale": "Elle répond à la demande.",
                      "verdict": "oui"}]}


def script_500(fake: FakeOllama) -> None:
    for _ in range(3):
        fake.reply_error(500, "model runner crashed")


def script_404(fake: FakeOllama) -> None:
    fake.reply_error(404, f'model "{MODEL}" not found, try pulling it first')


def script_timeout(fake: FakeOllama) -> None:
    for _ in range(3):
        fake.reply_json(GOOD, delay=5)


def script_bad_json(fake: FakeOllama) -> None:
    fake.reply_text('{"verdicts": [{"criterion": "G-DEMANDE", "rationale": "Répond')


def script_missing(fake: FakeOllama) -> None:
    fake.reply_json({"verdicts": [{"criterion": "G-AUTRE", "rationale": "?", "verdict": "oui"}]})


FAULTS: list[tuple[Any, str, int]] = [
    (script_500, "HTTP 500: model runner crashed (after 3 tries)", 3),
    (script_404, f'HTTP 404: model "{MODEL}" not found, try pulling it first', 1),
    (script_timeout, "timed out after 0.3 s (after 3 tries)", 3),
    (script_bad_json, "reply is not valid JSON", 1),
    (script_missing, "reply has no verdict for G-DEMANDE", 1),
]


@pytest.mark.parametrize(("script", "tail", "sent"), FAULTS,
                         ids=["http500", "http404", "timeout", "bad-json", "missing"])
def test_fault_message_and_nothing_else_changed(
    tmp_path: Path, store: Store, fake_ollama: FakeOllama, script: Any, tail: str, sent: int
) -> None:
    [aid] = load(store, tmp_path, [record("c", 1, 1, demande="non")])
    before = snapshot(store)
    script(fake_ollama)

    outcome = second_opinion(store, client_for(fake_ollama, timeout=0.3), aid)

    expected = f"judge {MODEL} at {fake_ollama.url}: {tail}"
    assert outcome.status == FAILED and outcome.message == expected
    assert "\n" not in outcome.message
    # The server records a request once it has read it; the client may have given up on
    # the last one (timed out) before the server's thread got to it on a loaded machine.
    deadline = time.monotonic() + 10
    while len(fake_ollama.chat_requests) < sent and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len(fake_ollama.chat_requests) == sent  # transient faults only are retried
    assert snapshot(store) == before  # no verdict, no cache row, attempt untouched
    assert failure_messages(store) == [expected]
    with store.session() as s:
        assert failures(s, aid) == [f"second opinion failed: {expected}"]


def test_an_abandoned_request_is_dropped_at_once_and_is_no_failure(
    tmp_path: Path, store: Store, fake_ollama: FakeOllama
) -> None:
    """Fourth hostile pass, G6: the app closing sets ``abandon``; the request in flight to
    a judge that never answers is dropped, not waited for (120 s, twice), and recorded
    nowhere: the app is closing, the judge did not fail."""
    [aid] = load(store, tmp_path, [record("c", 1, 1, demande="non")])
    before = snapshot(store)
    fake_ollama.reply_json(GOOD, delay=600)
    abandon = threading.Event()
    threading.Timer(0.5, abandon.set).start()
    started = time.monotonic()

    with pytest.raises(Abandoned):
        second_opinion(store, client_for(fake_ollama, timeout=120, abandon=abandon), aid)

    assert time.monotonic() - started < 2.0
    assert snapshot(store) == before
    assert failure_messages(store) == []


def test_no_server_listening(tmp_path: Path, store: Store) -> None:
    [aid] = load(store, tmp_path, [record("c", 1, 1, demande="non")])
    before = snapshot(store)
    url = closed_port_url()

    outcome = second_opinion(store, client_for(url, retries=1), aid)

    assert outcome.message == f"judge {MODEL} at {url}: no server listening (after 2 tries)"
    assert snapshot(store) == before
    assert failure_messages(store) == [outcome.message]


def test_transient_error_is_retried_then_succeeds(
    tmp_path: Path, store: Store, fake_ollama: FakeOllama
) -> None:
    [aid] = load(store, tmp_path, [record("c", 1, 1, demande="non")])
    fake_ollama.reply_error(503, "server busy")
    fake_ollama.reply_error(429, "too many requests")
    fake_ollama.reply_json(GOOD)

    outcome = second_opinion(store, client_for(fake_ollama), aid)

    assert outcome.status == FLIPPED
    assert len(fake_ollama.chat_requests) == 3
    assert failure_messages(store) == []


def test_a_later_success_resolves_the_failure(
    tmp_path: Path, store: Store, fake_ollama: FakeOllama
) -> None:
    [aid] = load(store, tmp_path, [record("c", 1, 1, demande="non")])
    script_bad_json(fake_ollama)
    client = client_for(fake_ollama)
    assert second_opinion(store, client, aid).status == FAILED

    fake_ollama.responder = verdict_reply
    assert second_opinion(store, client, aid).status == FLIPPED

    with store.session() as s:
        assert failures(s, aid) == []
        assert s.scalars(select(JudgeFailure.resolved)).all() == [True]


def test_chat_json_caches_only_validated_replies(store: Store, fake_ollama: FakeOllama) -> None:
    client = client_for(fake_ollama)
    messages = [{"role": "user", "content": "Juge cette réponse."}]
    schema = verdicts_schema(["G-DEMANDE"])
    script_bad_json(fake_ollama)
    with pytest.raises(JudgeError, match="reply is not valid JSON"):
        client.chat_json(messages, schema, store=store)
    fake_ollama.reply_json(GOOD)

    first = client.chat_json(messages, schema, store=store)
    again = client.chat_json(messages, schema, store=store)
    other_seed = client_for(fake_ollama, options={"seed": 7})
    fake_ollama.reply_json(GOOD)
    changed = other_seed.chat_json(messages, schema, store=store)

    assert first == again and first[0] == GOOD
    assert changed[1] != first[1]  # different options: a different request, sent
    assert len(fake_ollama.chat_requests) == 3
    assert fake_ollama.chat_requests[2]["options"]["seed"] == 7
    with store.session() as s:
        assert len(s.scalars(select(JudgeRequest)).all()) == 2


def test_thinking_is_not_parsed(fake_ollama: FakeOllama) -> None:
    fake_ollama.reply_thinking("Hmm, peut-être non…", json.dumps(GOOD))
    data, _ = client_for(fake_ollama).chat_json(
        [{"role": "user", "content": "x"}], verdicts_schema(["G-DEMANDE"]))
    assert data == GOOD


def test_host_defaults_and_forms(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OLLAMA_HOST", raising=False)
    monkeypatch.delenv("REVIEWER_JUDGE_MODEL", raising=False)
    client = JudgeClient()
    assert (client.host, client.model) == ("http://127.0.0.1:11434", "qwen3.6:35b-a3b")
    monkeypatch.setenv("OLLAMA_HOST", "0.0.0.0:11500")
    monkeypatch.setenv("REVIEWER_JUDGE_MODEL", "mistral:7b")
    client = JudgeClient()
    assert (client.host, client.model) == ("http://127.0.0.1:11500", "mistral:7b")
    assert normalize_host("gpu-box") == "http://gpu-box:11434"
    assert normalize_host("https://judge.example.org/") == "https://judge.example.org:443"


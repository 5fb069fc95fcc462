"""What every judge request asks for and what a reply must show: context sized to the
prompt, a reply budget, no silent cut, the whole request under the timeout, thinking."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from sqlalchemy import select

from models import JudgeRequest
from reviewer.errors import JudgeError
from reviewer.judge.batch import run_second_opinions
from reviewer.judge.context import cut_prompt
from reviewer.judge.schema import verdicts_schema
from reviewer.judge.second_opinion import FAILED, second_opinion
from reviewer.store import Store
from tests.support.fake_ollama import FakeOllama, Reply
from tests.support.judge_stores import (
    MODEL,
    client_for,
    failure_messages,
    load,
    snapshot,
    verdict_reply,
)
from tests.support.run_files import record

GOOD = {"verdicts": [{"criterion": "G-DEMANDE", "rationale": "Elle répond à la demande.",
                      "verdict": "oui"}]}
SCHEMA = verdicts_schema(["G-DEMANDE"])


def ask(fake: FakeOllama, text: str = "Juge cette réponse.", **kw: object) -> dict[str, object]:
    data, _ = client_for(fake, **kw).chat_json([{"role": "user", "content": text}], SCHEMA)
    return data


def test_each_request_sets_its_context_and_reply_budget(fake_ollama: FakeOllama) -> None:
    fake_ollama.reply_json(GOOD)
    fake_ollama.reply_json(GOOD)
    ask(fake_ollama)
    ask(fake_ollama, "Un long texte. " * 3000)  # 45,000 characters
    short, long = (r["options"] for r in fake_ollama.chat_requests)
    assert short["num_ctx"] == 2048 and short["num_predict"] == 512
    assert long["num_ctx"] >= 45_000 // 3 and long["num_ctx"] % 1024 == 0


def test_a_prompt_beyond_the_allowed_context_is_refused_before_sending(
    fake_ollama: FakeOllama,
) -> None:
    with pytest.raises(JudgeError, match=r"prompt too long for the judge: about \d+ tokens "
                                         r"plus 512 for the reply, more than the 4096-token"):
        ask(fake_ollama, "Un long texte. " * 3000, max_ctx=4096)
    assert fake_ollama.chat_requests == []


def test_a_reply_cut_at_the_token_limit_is_not_called_bad_json(
    tmp_path: Path, store: Store, fake_ollama: FakeOllama
) -> None:
    [aid] = load(store, tmp_path, [record("c", 1, 1, demande="non")])
    before = snapshot(store)
    cut = Reply.text('{"verdicts": [{"criterion": "G-DEMANDE", "rationale": "La réponse')
    cut.done_reason, cut.reply_tokens = "length", 256
    fake_ollama.push(cut)
    fake_ollama.push(Reply.json(GOOD))  # would be the retry: there must be none

    outcome = second_opinion(store, client_for(fake_ollama), aid)

    expected = f"judge {MODEL} at {fake_ollama.url}: reply cut at 256 tokens"
    assert outcome.status == FAILED and outcome.message == expected
    assert len(fake_ollama.chat_requests) == 1 and snapshot(store) == before
    assert failure_messages(store) == [expected]


def test_a_prompt_the_server_cut_is_a_failure(
    tmp_path: Path, store: Store, fake_ollama: FakeOllama
) -> None:
    [aid] = load(store, tmp_path, [record("c", 1, 1, demande="non")])
    before = snapshot(store)
    fake_ollama.force_options = {"num_ctx": 100}  # a server that ignores the client's
    fake_ollama.responder = verdict_reply

    outcome = second_opinion(store, client_for(fake_ollama), aid)

    assert outcome.status == FAILED
    assert outcome.message.startswith(
        f"judge {MODEL} at {fake_ollama.url}: prompt cut by the server: 100 of about ")
    assert len(fake_ollama.chat_requests) == 1 and snapshot(store) == before


@pytest.mark.parametrize(("count", "cut"), [
    (None, False), (0, False),
    (400, True),           # far below the estimate of 1,000: the server used less context
    (700, False),          # the estimate errs high: 0.7 of it is an uncut prompt
    (1_000, False), (1_060, False),  # at the estimate, or a chat template above it
    (4_096, True),         # exactly the context asked: Ollama kept that many, cut the rest
    (4_097, False), (100_000, False),  # more than a cutting server keeps: no cut
])
def test_only_a_count_below_the_estimate_or_filling_the_context_is_a_cut(
        count: int | None, cut: bool) -> None:
    said = cut_prompt(count, 1_000, 4_096)
    assert said == (f"prompt cut by the server: {count} of about 1000 tokens read" if cut
                    else "")


@pytest.mark.parametrize(("body", "content_type", "tail"), [
    ("<html><body>502 Bad Gateway</body></html>", "text/html",
     "the server's reply is not JSON: is this an Ollama server?"),
    ("[1, 2]", "application/json",
     "the server's reply is JSON but not an object: is this an Ollama server?"),
    ('{"status": "ok"}', "application/json",
     "the server's reply is JSON but not a chat reply: is this an Ollama server?"),
], ids=["html", "json-list", "json-object-without-message"])
def test_a_reply_that_is_not_ollamas_is_a_recorded_failure(
    tmp_path: Path, store: Store, fake_ollama: FakeOllama, body: str, content_type: str,
    tail: str,
) -> None:
    [aid] = load(store, tmp_path, [record("c", 1, 1, demande="non")])
    fake_ollama.reply_raw(body, content_type=content_type)

    outcome = second_opinion(store, client_for(fake_ollama), aid)

    assert outcome.status == FAILED
    assert failure_messages(store) == [f"judge {MODEL} at {fake_ollama.url}: {tail}"]
    assert len(fake_ollama.chat_requests) == 1  # the same server would answer the same


def test_the_timeout_bounds_the_whole_request(fake_ollama: FakeOllama) -> None:
    slow = Reply.json(GOOD)
    slow.drip = 0.1  # a byte every 0.1 s: each read is quick, the body takes 20 s or more
    fake_ollama.push(slow)
    fake_ollama.push(Reply.json(GOOD, delay=5))

    with pytest.raises(JudgeError) as err:
        ask(fake_ollama, timeout=0.5, retries=1)

    assert str(err.value) == (f"judge {MODEL} at {fake_ollama.url}: timed out after 0.5 s "
                              "(after 2 tries)")
    deadline = time.monotonic() + 10
    while fake_ollama.dropped < 1 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert fake_ollama.dropped == 1  # the client hung up in the middle of the body


def test_a_batch_stops_on_the_same_server_error_three_times_in_a_row(
    tmp_path: Path, store: Store, fake_ollama: FakeOllama
) -> None:
    ids = load(store, tmp_path, [record("c", i, 1, demande="non", response=f"Réponse {i}.")
                                 for i in range(1, 7)])
    fake_ollama.reply_error(500, "CUDA error")
    fake_ollama.reply_error(500, "out of memory")  # another error: the count starts again
    fake_ollama.responder = lambda body: Reply.error(500, "out of memory")

    report = run_second_opinions(store, client_for(fake_ollama, retries=0), ids, parallel=1)

    assert report.stopped == (f"judge {MODEL} at {fake_ollama.url}: HTTP 500: out of memory "
                              "(3 times in a row)")
    assert (report.done, len(report.failed), report.not_run) == (4, 4, 2)
    assert len(fake_ollama.chat_requests) == 4


def test_think_is_sent_and_part_of_the_cache_key_and_the_reasoning_is_stored(
    store: Store, fake_ollama: FakeOllama
) -> None:
    messages = [{"role": "user", "content": "Juge cette réponse."}]
    fake_ollama.reply_thinking("La réponse donne la démarche, donc oui.", json.dumps(GOOD))
    fake_ollama.reply_json(GOOD)

    thought, first = client_for(fake_ollama, think=True).chat_json(messages, SCHEMA, store=store)
    plain, second = client_for(fake_ollama).chat_json(messages, SCHEMA, store=store)
    again = client_for(fake_ollama, think=True).chat_json(messages, SCHEMA, store=store)

    assert thought == plain == GOOD and again == (GOOD, first) and first != second
    think_body, plain_body = fake_ollama.chat_requests
    assert think_body["think"] is True and plain_body["think"] is False
    # the reasoning counts in num_predict: a thinking request gets room for it
    assert think_body["options"]["num_predict"] > plain_body["options"]["num_predict"] + 4000
    with store.session() as s:
        rows = s.execute(select(JudgeRequest.id, JudgeRequest.thinking)
                         .order_by(JudgeRequest.id)).all()
    assert [tuple(r) for r in rows] == [(first, "La réponse donne la démarche, donc oui."),
                                        (second, None)]


def test_a_request_from_inside_a_running_event_loop(fake_ollama: FakeOllama) -> None:
    import asyncio

    fake_ollama.reply_json(GOOD)

    async def inside() -> dict[str, object]:
        return ask(fake_ollama)  # a caller that already runs an event loop (a notebook)

    assert asyncio.run(inside()) == GOOD

"""The fake Ollama server itself: what the real client sees, and a clean shutdown."""

from __future__ import annotations

import contextlib
import threading
import time

import httpx
import ollama
import pytest

from tests.support.fake_ollama import FakeOllama, Reply


def test_client_list_show_and_version(fake_ollama: FakeOllama) -> None:
    client = ollama.Client(host=fake_ollama.url, timeout=5)
    assert [m.model for m in client.list().models] == [fake_ollama.model]
    assert client.show(fake_ollama.model).modelinfo is not None
    version = httpx.get(f"{fake_ollama.url}/api/version", timeout=5).json()
    assert version == {"version": fake_ollama.version}


def test_chat_reply_looks_like_a_real_model(fake_ollama: FakeOllama) -> None:
    fake_ollama.reply_json({"ok": True})
    client = ollama.Client(host=fake_ollama.url, timeout=5)
    reply = client.chat(model="m:1b", messages=[{"role": "user", "content": "salut"}])
    assert reply.message.role == "assistant" and reply.message.content == '{"ok": true}'
    assert reply.model == "m:1b" and reply.done and reply.done_reason == "stop"
    assert reply.created_at and reply.created_at.endswith("Z")
    assert reply.eval_count and reply.total_duration
    assert fake_ollama.chat_requests[0]["messages"] == [{"role": "user", "content": "salut"}]


def test_without_script_the_responder_or_a_500_answers(fake_ollama: FakeOllama) -> None:
    client = ollama.Client(host=fake_ollama.url, timeout=5)
    with pytest.raises(ollama.ResponseError) as err:
        client.chat(model="m", messages=[])
    assert err.value.status_code == 500
    fake_ollama.responder = lambda req: Reply.text(req["model"])
    assert client.chat(model="echo", messages=[]).message.content == "echo"


def test_close_interrupts_a_slow_reply_and_joins_its_threads() -> None:
    before = set(threading.enumerate())
    fake = FakeOllama()
    fake.reply_text("tard", delay=30)
    client = ollama.Client(host=fake.url, timeout=30)
    caller = threading.Thread(target=lambda: _swallow(client))
    caller.start()
    while not fake.chat_requests:
        time.sleep(0.01)
    fake.close()  # must not wait out the 30 s delay
    caller.join(timeout=20)
    assert not caller.is_alive()
    assert set(threading.enumerate()) <= before


def _swallow(client: ollama.Client) -> None:
    with contextlib.suppress(Exception):  # the server hangs up while closing: expected
        client.chat(model="m", messages=[])


def test_streams_ndjson_unless_asked_not_to(fake_ollama: FakeOllama) -> None:
    fake_ollama.reply_thinking("Je pèse les deux.", '{"verdict": "oui, tout à fait"}')
    client = ollama.Client(host=fake_ollama.url, timeout=5)
    parts = list(client.chat(model="m", messages=[{"role": "user", "content": "x"}],
                             stream=True))
    assert len(parts) > 2 and all(not p.done for p in parts[:-1]) and parts[-1].done
    assert "".join(p.message.content or "" for p in parts) == '{"verdict": "oui, tout à fait"}'
    assert "".join(p.message.thinking or "" for p in parts) == "Je pèse les deux."
    assert parts[-1].done_reason == "stop" and parts[-1].prompt_eval_count
    fake_ollama.reply_text("{}")
    raw = httpx.post(f"{fake_ollama.url}/api/chat", timeout=5, json={"model": "m"})
    assert raw.headers["content-type"] == "application/x-ndjson"  # Ollama's default: stream


def test_prompt_eval_count_counts_the_prompt_and_a_long_one_is_cut_silently(
    fake_ollama: FakeOllama,
) -> None:
    client = ollama.Client(host=fake_ollama.url, timeout=5)
    text = "mot " * 1000  # 4,000 characters: about 1,000 tokens
    fake_ollama.reply_text("{}")
    fake_ollama.reply_text("{}")
    whole = client.chat(model="m", messages=[{"role": "user", "content": text}],
                        options={"num_ctx": 4096})
    cut = client.chat(model="m", messages=[{"role": "user", "content": text}],
                      options={"num_ctx": 512})
    assert 900 < (whole.prompt_eval_count or 0) < 1100
    assert cut.prompt_eval_count == 512 and cut.done_reason == "stop"  # no error: silent


def test_refuses_as_ollama_does_when_strict(fake_ollama: FakeOllama) -> None:
    fake_ollama.strict_model = True
    client = ollama.Client(host=fake_ollama.url, timeout=5)
    with pytest.raises(ollama.ResponseError) as err:
        client.chat(model="autre:1b", messages=[])
    assert (err.value.status_code, err.value.error) == (404, "model 'autre:1b' not found")
    with pytest.raises(ollama.ResponseError) as err:
        client.chat(model=fake_ollama.model, messages=[], think=True)
    assert (err.value.status_code, err.value.error) == (
        400, f'"{fake_ollama.model}" does not support thinking')
    fake_ollama.load_error = "exit status 2"
    with pytest.raises(ollama.ResponseError) as err:
        client.chat(model=fake_ollama.model, messages=[])
    assert (err.value.status_code, err.value.error) == (
        500, "llama runner process has terminated: exit status 2")

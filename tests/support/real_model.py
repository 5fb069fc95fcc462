"""The real-model server for tests marked ``real_model`` (see docs/judge.md).

``real_server`` (a pytest fixture, import it into the test module) is one
``FakeOllama`` backed by :class:`tests.support.llama_backend.LlamaBackend`, started once
per session (loading the model takes about a second and 1.1 GB) and put back to a plain
real server before each test (no scripted reply, no injected fault). Without the model or
llama-cpp-python the tests are skipped, saying how to install them, unless
``$REVIEWER_REAL_MODEL`` is ``required`` (``make test`` sets it): then they fail.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.support.fake_ollama import FakeOllama
from tests.support.llama_backend import MODEL_NAME, LlamaBackend, model_path

_server: FakeOllama | None = None


def _start() -> FakeOllama:
    global _server
    if _server is None:
        try:
            path = model_path()
            backend = LlamaBackend(path)
        except (FileNotFoundError, ImportError) as exc:
            message = f"real-model tier unavailable: {exc}"
            if os.environ.get("REVIEWER_REAL_MODEL") == "required":
                pytest.fail(message)
            pytest.skip(message)
        _server = FakeOllama(MODEL_NAME, backend=backend)
    return _server


@pytest.fixture(scope="session")
def _real_session() -> Iterator[FakeOllama]:
    server = _start()
    try:
        yield server
    finally:
        server.close()


@pytest.fixture
def real_server(_real_session: FakeOllama) -> FakeOllama:
    """The real-model server, with nothing scripted or injected."""
    _real_session.reset()
    return _real_session

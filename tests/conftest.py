"""Shared pytest fixtures."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.fake_ollama import FakeOllama


@pytest.fixture
def fake_ollama() -> Iterator[FakeOllama]:
    """A started fake Ollama server on 127.0.0.1 (see tests/fake_ollama.py), closed after."""
    server = FakeOllama()
    try:
        yield server
    finally:
        server.close()

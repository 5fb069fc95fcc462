"""Shared pytest fixtures."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from reviewer.store import Store, open_store
from tests.fake_ollama import FakeOllama


@pytest.fixture
def fake_ollama() -> Iterator[FakeOllama]:
    """A started fake Ollama server on 127.0.0.1 (see tests/fake_ollama.py), closed after."""
    server = FakeOllama()
    try:
        yield server
    finally:
        server.close()


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    """URL of a fresh SQLite file in the test's temporary folder (a real file, not memory)."""
    return f"sqlite:///{tmp_path / 'reviewer.sqlite3'}"


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    """An opened, migrated store on a real SQLite file."""
    opened = open_store(db_url)
    try:
        yield opened
    finally:
        opened.close()

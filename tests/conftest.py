"""Shared pytest fixtures."""

from __future__ import annotations

import os

# GUI tests run without a display; set before any QApplication exists.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from collections.abc import Iterator
from pathlib import Path

import pytest

from reviewer.store import Store, open_store
from tests.support.fake_ollama import FakeOllama
from tests.support.pg_server import PgServer, PgUnavailable

BOTH_BACKENDS = "both_backends"


@pytest.fixture
def fake_ollama() -> Iterator[FakeOllama]:
    """A started fake Ollama server on 127.0.0.1 (tests/support/fake_ollama.py), closed after."""
    server = FakeOllama()
    try:
        yield server
    finally:
        server.close()


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Run the tests marked ``both_backends`` that use a store (``db_url``, ``store`` or
    ``backend``) on SQLite and PostgreSQL."""
    if "backend" in metafunc.fixturenames and metafunc.definition.get_closest_marker(
        BOTH_BACKENDS
    ):
        metafunc.parametrize(
            "backend",
            ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)],
            indirect=True,
        )


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    """``sqlite`` unless the test is parametrised over both backends."""
    return str(getattr(request, "param", "sqlite"))


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """The throwaway PostgreSQL cluster (tests/support/pg_server.py), started on first use only."""
    try:
        server = PgServer()
        server.start()
    except PgUnavailable as exc:
        pytest.skip(str(exc))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def db_url(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """URL of a fresh store: a real SQLite file in the test's temporary folder, or a new
    migrated database on the throwaway PostgreSQL server."""
    if backend != "postgresql":
        yield f"sqlite:///{tmp_path / 'reviewer.sqlite3'}"
        return
    server: PgServer = request.getfixturevalue("pg_server")
    name = server.database()
    try:
        yield server.url(name)
    finally:
        server.drop(name)


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    """An opened, migrated store on a real SQLite file."""
    opened = open_store(db_url)
    try:
        yield opened
    finally:
        opened.close()

"""The PostgreSQL side of the benchmarks: a throwaway server and its databases.

The server is the tests' own (``tests/support/pg_server.py``): ``initdb`` into a temporary
folder, started on a free port of 127.0.0.1, stopped and removed at the end of the run
(or by its watchdog if the run dies). Like the tests' server it runs without ``fsync``
(throwaway data), which both sides of every ratio share. Each store is a database copied
from the server's migrated template, as the tests get theirs.
"""

from __future__ import annotations

from typing import Any

import psycopg
from sqlalchemy.engine import make_url

from tests.support.pg_server import TEMPLATE, PgServer, PgUnavailable

__all__ = ["BenchServer", "PgUnavailable", "connect"]


class BenchServer:
    """One started server; ``fresh(name)`` gives the URL of a new migrated database."""

    def __init__(self) -> None:
        self.server = PgServer()

    def start(self) -> BenchServer:
        """Start the cluster (raises PgUnavailable without PostgreSQL binaries)."""
        self.server.start()
        return self

    def fresh(self, name: str) -> str:
        """A migrated, empty database named ``name`` (an older one of that name is dropped)."""
        self.server.drop(name)
        self.server.execute(f'CREATE DATABASE "{name}" TEMPLATE "{TEMPLATE}"')
        return self.server.url(name)

    def drop(self, url: str) -> None:
        """Drop the database of ``url``."""
        database = make_url(url).database
        if database:
            self.server.drop(database)

    def settle(self, url: str) -> None:
        """``VACUUM (ANALYZE)`` the database of ``url``: what autovacuum does within a minute
        or two of a bulk import (the visibility map lets the queue's walks read the
        indexes alone; the import and the flagging pass already ran ANALYZE)."""
        with connect(url, autocommit=True) as conn:
            conn.execute("VACUUM (ANALYZE)")

    def stop(self) -> None:
        """Stop the cluster and remove its folder."""
        self.server.stop()


def explain(url: str, statement: str, params: Any) -> list[str]:
    """``EXPLAIN (ANALYZE, BUFFERS)`` of one statement, its lines."""
    with connect(url) as conn:
        rows = conn.execute(f"EXPLAIN (ANALYZE, BUFFERS) {statement}", params).fetchall()
        conn.rollback()
    return [str(r[0]) for r in rows]


def connect(url: str, **kwargs: Any) -> psycopg.Connection[Any]:
    """A plain psycopg connection to the database of a SQLAlchemy URL."""
    parsed = make_url(url)
    return psycopg.connect(host=parsed.host, port=parsed.port, user=parsed.username,
                           dbname=parsed.database, **kwargs)

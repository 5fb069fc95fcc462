"""Bulk inserts inside a session's transaction: ``COPY`` on PostgreSQL, executemany on SQLite.

psycopg runs an executemany as one INSERT per row (pipelined): for the 15 rows an imported
attempt brings (12 verdicts, 3 check results) that was most of a PostgreSQL import, and
the flagging pass's readings took 8 of its 26 s at 10,000 attempts. COPY sends the rows as
one stream: 24,000 verdict rows went in about four times faster.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import JSON, Connection, Table, insert


def insert_rows(connection: Connection, table: Table, rows: list[dict[str, Any]]) -> None:
    """Insert ``rows`` (dicts with the same keys: column names, every value given, no
    column default applied) into ``table``, in the connection's transaction."""
    if not rows:
        return
    if connection.dialect.name != "postgresql":
        connection.execute(insert(table), rows)
        return
    columns = list(rows[0])
    names = ", ".join(connection.dialect.identifier_preparer.quote(c) for c in columns)
    # COPY takes a JSON column's text: what SQLAlchemy's JSON type would have sent.
    as_json = [isinstance(table.c[c].type, JSON) for c in columns]
    raw = connection.connection.driver_connection
    assert raw is not None
    with raw.cursor() as cursor, cursor.copy(
            f"COPY {table.name} ({names}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row([json.dumps(row[c]) if j and row[c] is not None else row[c]
                            for c, j in zip(columns, as_json, strict=True)])

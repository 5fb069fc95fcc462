"""A new SQLite store appears whole or not at all (``reviewer/store/creation.py``).

The kill itself is tested on real processes in
``tests/reliability/test_reliability_crash.py::test_killed_while_creating_a_store_leaves_none_or_a_whole_one``.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from reviewer.store import open_store
from reviewer.store.creation import clear_unfinished, create_whole, prefix
from reviewer.store.database import head_revision


def test_a_store_another_process_put_in_place_meanwhile_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "r.db"

    def build(temp: Path) -> None:
        temp.write_bytes(b"built here")
        path.write_bytes(b"made by the other process first")

    create_whole(path, build)
    assert path.read_bytes() == b"made by the other process first"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.db"]


def test_a_creation_under_way_is_left_alone_and_an_abandoned_one_cleared(
        tmp_path: Path) -> None:
    path = tmp_path / "r.db"
    busy = tmp_path / f"{prefix(path)}busy"
    dead = tmp_path / f"{prefix(path)}dead"
    busy.write_bytes(b"")
    dead.write_bytes(b"")
    Path(f"{dead}-wal").write_bytes(b"x")
    fd = os.open(busy, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # its builder is alive (another descriptor)
        store = open_store(str(path))
        store.close()
        assert busy.exists() and not dead.exists() and not Path(f"{dead}-wal").exists()
    finally:
        os.close(fd)
    clear_unfinished(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.db"]


def test_a_second_name_left_by_a_kill_after_the_link_is_removed(tmp_path: Path) -> None:
    path = tmp_path / "r.db"
    open_store(str(path)).close()
    os.link(path, tmp_path / f"{prefix(path)}0badf00d")
    store = open_store(str(path))  # was: "this database file has 2 names (hard links)"
    try:
        with store.engine.connect() as conn:
            assert conn.exec_driver_sql(
                "SELECT version_num FROM alembic_version").scalar() == head_revision()
    finally:
        store.close()
    assert path.stat().st_nlink == 1


def test_a_long_file_name_still_fits_its_temporary_name(tmp_path: Path) -> None:
    path = tmp_path / ("é" * 120 + ".db")  # 243 bytes
    open_store(str(path)).close()
    assert [p.name for p in tmp_path.iterdir()] == [path.name]

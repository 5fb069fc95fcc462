"""Broken run and catalog files through the real console script: exit code 2, one
``reviewer: FILE:LINE: …`` line on stderr, never a traceback, never a partial import.

tests/ingest/test_import_fuzz.py feeds random and mutated files to ``import_run`` (hypothesis);
this file checks the same promise end to end — a separate ``python -m ui.cli`` process
on a store that already holds data — and that a refused catalog changes no table either
(the fuzz tests count the run tables only).
"""

from __future__ import annotations

import itertools
import json
import resource
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reviewer.cli.main import main as cli
from reviewer.ingest.importer import import_run
from reviewer.json_input import MAX_DEPTH, MAX_NESTING
from reviewer.store import open_store
from tests.support.run_files import CATALOG, record, write_catalog, write_jsonl

ROOT = Path(__file__).resolve().parents[2]


def good(name: str) -> bytes:
    return json.dumps(record(name), ensure_ascii=False).encode()


def table_counts(path: Path) -> dict[str, int]:
    """Rows in every table of the SQLite file (the full-text index's shadow tables aside)."""
    conn = sqlite3.connect(path)
    try:
        names = [n for (n,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' "
            "AND name NOT LIKE 'attempt_search_%'")]
        return {n: conn.execute(f'SELECT count(*) FROM "{n}"').fetchone()[0] for n in names}
    finally:
        conn.close()


@pytest.fixture
def db_file(tmp_path: Path) -> Path:
    """A store that already holds a run, a catalog and a reviewer's decision."""
    path = tmp_path / "store.sqlite3"
    store = open_store(str(path))
    try:
        import_run(store, write_jsonl(tmp_path / "seed.jsonl", [record("seed", 1, 1)]),
                   catalog_path=write_catalog(tmp_path / "catalog.json"))
    finally:
        store.close()
    assert cli(["--db", str(path), "decide", "2026-10-14-ministral-8b/seed/1/1", "--accept",
                "--reviewer", "zoe"]) == 0
    return path


BROKEN_LINES: dict[str, bytes] = {
    "truncated": good("t")[:57],
    "wrong-type": json.dumps(record("w") | {"turn": "deux"}).encode(),
    "nul-byte": good("n")[:40] + b"\x00" + good("n")[40:],
    "nul-escape": good("e").replace(b"Notez", b"No\\u0000tez"),
    "invalid-utf8": good("u").replace(b"Notez", b"No\xff\xfetez"),
    "deep-nesting": b'{"run": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
    "duplicate-key": good("d")[:-1] + b', "response": "autre"}',
    "ten-megabytes": b'{"run": "' + b"x" * 10_500_000,
}


def broken_run(tmp_path: Path, kind: str) -> Path:
    """Two good new records (which must not be imported either), the broken line, one more."""
    run = tmp_path / f"{kind}.jsonl"
    run.write_bytes(b"\n".join([good("a"), good("b"), BROKEN_LINES[kind], good("c")]) + b"\n")
    return run


@pytest.mark.parametrize("kind", sorted(BROKEN_LINES))
def test_broken_line_is_refused_with_file_line_and_exit_2(
    db_file: Path, tmp_path: Path, kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    run = broken_run(tmp_path, kind)
    before = table_counts(db_file)

    code = cli(["--db", str(db_file), "import", str(run), "--catalog",
                str(tmp_path / "catalog.json")])

    err = capsys.readouterr().err
    assert code == 2, err
    [message] = [ln for ln in err.splitlines() if ln.startswith("reviewer:")]
    assert message.startswith(f"reviewer: {run}:3: ") and len(message) < 500
    assert "Traceback" not in err
    assert table_counts(db_file) == before


def test_a_byte_order_mark_is_read_as_the_same_file_without_it(
    db_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Fourth hostile pass, I1: "UTF-8 with BOM" (a Windows editor's save) was refused with
    # Python's advice "decode using utf-8-sig". Now it imports what the file without the
    # mark imports: the same records and the same catalog version.
    plain_run = write_jsonl(tmp_path / "plain.jsonl", [record("bom", 1, 1), record("bom", 2, 1)])
    plain_catalog = tmp_path / "catalog.json"
    bom_run, bom_catalog = tmp_path / "bom.jsonl", tmp_path / "bom-catalog.json"
    for plain, bom in ((plain_run, bom_run), (plain_catalog, bom_catalog)):
        bom.write_bytes(b"\xef\xbb\xbf" + plain.read_bytes())
    capsys.readouterr()

    assert cli(["--db", str(db_file), "import", str(bom_run), "--catalog",
                str(bom_catalog)]) == 0
    assert capsys.readouterr().out.startswith("2 new, 0 already present")
    after = table_counts(db_file)
    assert cli(["--db", str(db_file), "import", str(plain_run), "--catalog",
                str(plain_catalog)]) == 0
    assert capsys.readouterr().out.startswith("0 new, 2 already present")
    assert table_counts(db_file) == after


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["invalid-utf8", "deep-nesting", "ten-megabytes"])
def test_console_script_refuses_a_broken_line_with_file_line_and_exit_2(
    db_file: Path, tmp_path: Path, kind: str
) -> None:
    run = broken_run(tmp_path, kind)
    before = table_counts(db_file)

    proc = subprocess.run(
        [sys.executable, "-m", "ui.cli", "--db", str(db_file), "import", str(run),
         "--catalog", str(tmp_path / "catalog.json")],
        capture_output=True, text=True, cwd=ROOT, timeout=120)

    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    # A big file shows a progress bar on stderr; the error is one short line after it.
    [message] = [ln for ln in proc.stderr.splitlines() if ln.startswith("reviewer:")]
    assert message.startswith(f"reviewer: {run}:3: ") and len(message) < 500
    assert proc.stderr.endswith(message + "\n")
    assert proc.stdout == ""
    assert table_counts(db_file) == before


def small_stack() -> None:
    """``preexec_fn``: the ``ulimit -s 128`` of the sixth hostile pass (U11)."""
    hard = resource.getrlimit(resource.RLIMIT_STACK)[1]
    resource.setrlimit(resource.RLIMIT_STACK, (128 * 1024, hard))


@pytest.mark.slow
@pytest.mark.parametrize("depth", [MAX_DEPTH - 4, MAX_NESTING, MAX_NESTING + 1, 100_000])
def test_deep_nesting_on_a_128_kb_stack_is_one_line_not_a_segfault(
    db_file: Path, tmp_path: Path, depth: int
) -> None:
    # Seventh hostile pass U11: under `ulimit -s 128` a line of 100,000 brackets crashed
    # the C JSON decoder (SIGSEGV, exit 139, nothing said) before Python's recursion
    # limit stopped it. The depth is now refused before the decoder sees the line.
    # The line is a good record with one more field ("meta") nested ``depth`` deep.
    line = good("deep")[:-1] + b', "meta": ' + b"[" * (depth - 1) + b"]" * (depth - 1) + b"}"
    run = tmp_path / "deep.jsonl"
    run.write_bytes(line + b"\n")
    before = table_counts(db_file)

    proc = subprocess.run(
        [sys.executable, "-m", "ui.cli", "--db", str(db_file), "import", str(run)],
        capture_output=True, text=True, cwd=ROOT, timeout=120, preexec_fn=small_stack)

    if depth < MAX_DEPTH:  # within what a store keeps: imported
        assert (proc.returncode, proc.stderr) == (0, ""), proc.stderr
        assert table_counts(db_file)["attempts"] == before["attempts"] + 1
        return
    # Just within the guard: decoded, then refused by the store's rule (MAX_DEPTH), the
    # same line as beyond it.
    assert (proc.returncode, proc.stderr) == (2, f"reviewer: {run}:1: JSON nested too deeply\n")
    assert table_counts(db_file) == before


def test_catalog_broken_after_valid_entries_changes_nothing(
    db_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    catalog = json.loads(json.dumps(CATALOG))
    catalog["criteria"][0]["text"] = "Nouvelle formulation."  # would add a version
    catalog["criteria"].append({"id": "G-NOUVEAU", "kind": "success", "text": "Nouveau."})
    catalog["checks"][1]["pattern"] = "(3114"  # the last entry is broken
    path = write_catalog(tmp_path / "next-catalog.json", catalog)
    run = write_jsonl(tmp_path / "next.jsonl", [record("next", 1, 1)])
    before = table_counts(db_file)

    assert cli(["--db", str(db_file), "import", str(run), "--catalog", str(path)]) == 2

    err = capsys.readouterr().err
    assert err.startswith(f"reviewer: {path}: ") and "invalid pattern" in err
    assert table_counts(db_file) == before


EXAMPLES = itertools.count()
catalog_values = st.one_of(
    st.none(), st.booleans(), st.integers(), st.text(max_size=30),
    st.text(alphabet="()[]{}*+?\\|^$.", max_size=12),  # mostly invalid patterns
    st.lists(st.text(max_size=5), max_size=3), st.dictionaries(st.text(max_size=5),
                                                              st.integers(), max_size=2),
)


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(section=st.sampled_from(["criteria", "checks"]), index=st.integers(0, 1),
       field=st.sampled_from(["id", "kind", "severity", "text", "description", "pattern",
                              "flags", "mode", "when"]),
       value=catalog_values)
def test_mutated_catalog_is_applied_whole_or_not_at_all(
    db_file: Path, tmp_path: Path, section: str, index: int, field: str, value: Any
) -> None:
    catalog = json.loads(json.dumps(CATALOG))
    # A change the import would store (new each time: hypothesis reuses the store).
    catalog["criteria"][2]["text"] = f"Bien trop long ({next(EXAMPLES)})."
    catalog[section][index][field] = value
    path = write_catalog(tmp_path / "mutated.json", catalog)
    run = write_jsonl(tmp_path / "empty.jsonl", [])
    before = table_counts(db_file)
    try:
        code = cli(["--db", str(db_file), "import", str(run), "--catalog", str(path)])
    except SystemExit as exc:  # argparse only; never expected here
        pytest.fail(f"exit {exc.code}")
    after = table_counts(db_file)
    if code == 2:
        assert after == before
    else:
        assert code == 0
        assert after["criterion_versions"] >= before["criterion_versions"] + 1

"""Injected faults for the command-line property tests: a store and input files to run
every command on, and ways to run ``tests/reliability/cli_driver.py`` under a fault.

The faults are real, never mocked: a read-only file or folder (run in an unprivileged
user namespace when the tests run as root, since root ignores file modes), a full or
read-only file system (a tmpfs mounted in a private mount namespace, made as small as
the store), a file size limit (``RLIMIT_FSIZE``, what ``ulimit -f`` sets), another
process holding the write lock, unreadable, missing, non-UTF-8 and NUL-holding input.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from reviewer.cli.main import main as cli
from reviewer.ingest.importer import import_run
from reviewer.judge.prompts import DEFAULT_JUDGE, JUDGE
from reviewer.store import open_store
from tests.support.run_files import record, write_catalog, write_jsonl
from tests.support.stores import small_run

ROOT = Path(__file__).resolve().parents[2]
DRIVER = Path(__file__).with_name("cli_driver.py")
KEY = "2026-10-14-ministral-8b/recette-001/2/1"
DB_NAME = "reviewer.sqlite3"


@dataclass(frozen=True)
class Files:
    """A store in a folder of its own, inputs for every command, a folder for outputs."""

    root: Path

    @property
    def store_dir(self) -> Path:
        return self.root / "store"

    @property
    def db(self) -> Path:
        return self.store_dir / DB_NAME

    def input(self, name: str) -> Path:
        return self.root / "in" / name

    def output(self, name: str) -> Path:
        return self.root / "out" / name


def make_files(root: Path, db_url: str | None = None) -> Files:
    """Build the store (a small run, its catalog, one decision) and the inputs; the store
    is ``files.db`` unless ``db_url`` names another (PostgreSQL)."""
    files = Files(root)
    for folder in (files.store_dir, root / "in", root / "out"):
        folder.mkdir(parents=True)
    run, catalog = small_run(root / "in")
    url = db_url or str(files.db)
    store = open_store(url)
    try:
        import_run(store, run, catalog_path=catalog)
    finally:
        store.close()
    assert cli(["--db", url, "decide", KEY, "--accept", "--reviewer", "zoe"]) == 0
    write_jsonl(files.input("new_run.jsonl"), [record("nouvelle", 1, 1, run="autre-run")])
    write_catalog(files.input("new_catalog.json"))
    files.input("batch.csv").write_text(f"key,decision,note\n{KEY},reject,vu\n", "utf-8")
    write_jsonl(files.input("grade.jsonl"), [{"response": "3114", "expected": "3114"}])
    write_jsonl(files.input("contradictions.jsonl"), [{
        "criterion_id": "G-DEMANDE", "kind": "success", "verdict": "non",
        "criterion_text": "Répond à ce que la personne demande.",
        "rationale": "L'assistant répond directement à la demande."}])
    files.input("prompt.txt").write_text(DEFAULT_JUDGE.replace("brève", "courte"), "utf-8")
    return files


def writers(f: Files, url: str | None = None) -> dict[str, list[str]]:
    """Commands that must write the store (``f.db``, or ``url``) to succeed."""
    db = ["--db", url or str(f.db)]
    return {
        "decide": [*db, "decide", KEY, "--reject", "--note", "relu", "--reviewer", "ines"],
        "decide --from-csv": [*db, "--reviewer", "ines", "decide", "--from-csv",
                              str(f.input("batch.csv"))],
        "import": [*db, "import", str(f.input("new_run.jsonl")), "--catalog",
                   str(f.input("new_catalog.json"))],
        "check": [*db, "--reviewer", "ines", "check", "D-COMMERCE", "--pattern",
                  "inscri(re|vez)", "--reason", "plus étroit"],
        "criterion": [*db, "--reviewer", "ines", "criterion", "G-DEMANDE", "--text",
                      "Répond précisément à la demande.", "--reason", "plus clair"],
        "prompt set": [*db, "prompt", "set", JUDGE, str(f.input("prompt.txt"))],
        "flag": [*db, "flag", "--workers", "2"],
    }


def readers(f: Files, url: str | None = None) -> dict[str, list[str]]:
    """Commands that only read the store (an export writes outside its folder)."""
    db = ["--db", url or str(f.db)]
    return {
        "stats": [*db, "stats", "--json"],
        "queue": [*db, "queue", "--limit", "5"],
        "queue --search": [*db, "queue", "--search", "date heure"],
        "export decisions": [*db, "export", "decisions", str(f.output("decisions.jsonl"))],
        "backtest": [*db, "backtest", "D-COMMERCE", "inscri"],
        "replay": [*db, "replay"],
        "prompt list": [*db, "prompt", "list"],
        "prompt show": [*db, "prompt", "show", JUDGE],
    }


def judge_commands(f: Files) -> dict[str, list[str]]:
    """Commands that read the store, then fail on an unreachable judge (and record it)."""
    return {"rejudge": ["--db", str(f.db), "rejudge", "--attempt", KEY, "--host",
                        "http://127.0.0.1:9", "--retries", "0", "--timeout", "2"]}


def file_commands(f: Files, path: Path, kind: str) -> list[str]:
    """The command that reads ``path`` as its input of this kind."""
    db = ["--db", str(f.db)]
    return {
        "run": [*db, "import", str(path)],
        "catalog": [*db, "import", str(f.input("new_run.jsonl")), "--catalog", str(path)],
        "csv": [*db, "decide", "--from-csv", str(path)],
        "grade": ["grade", "exact", str(path)],
        "lint": ["lint-graders", str(path)],
        "contradictions": ["contradictions", str(path)],
        "prompt": [*db, "prompt", "set", JUDGE, str(path)],
    }[kind]


INPUT_KINDS = {"run": "new_run.jsonl", "catalog": "new_catalog.json", "csv": "batch.csv",
               "grade": "grade.jsonl", "lint": "grade.jsonl",
               "contradictions": "contradictions.jsonl", "prompt": "prompt.txt"}


# -- running under a fault ---------------------------------------------------------------

CONSOLE = [sys.executable, "-m", "ui.cli"]  # the console script, as a process runs it


def console(*args: str, prefix: Sequence[str] = (), text: bool = True, **kwargs: Any
            ) -> subprocess.CompletedProcess[Any]:
    """The real console script (``python -m ui.cli``) in its own process, its output
    captured (``text=False``: as bytes)."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", **kwargs.pop("env", {})}
    return subprocess.run([*prefix, *CONSOLE, *args],
                          capture_output=True, text=text, cwd=ROOT, timeout=300, env=env,
                          **kwargs)


def unprivileged_prefix() -> list[str]:
    """What makes file modes apply: nothing for a normal user; for root, a user namespace
    without a mapping (root then has no power over files beyond their owner's rights)."""
    if os.geteuid() != 0:
        return []
    if not _works(["unshare", "--user", "true"]):
        pytest.skip("running as root without user namespaces: file modes cannot be tested")
    return ["unshare", "--user"]


def mount_prefix() -> list[str]:
    """A private mount namespace to mount a tmpfs in (skip when the kernel refuses)."""
    if os.geteuid() == 0 and _works(["unshare", "--mount", "true"]):
        return ["unshare", "--mount"]
    if _works(["unshare", "--user", "--map-root-user", "--mount", "true"]):
        return ["unshare", "--user", "--map-root-user", "--mount"]
    pytest.skip("no mount namespace available to make a small or read-only file system")


def _works(argv: list[str]) -> bool:
    try:
        return subprocess.run(argv, capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def run_driver(work: Path, commands: Sequence[Sequence[str]], *, prefix: Sequence[str] = (),
               shell_setup: str | None = None, fsize: int | None = None,
               env: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """Run the commands in one driver process (under ``prefix``, after ``shell_setup``)."""
    spec, results = work / "spec.json", work / "results.json"
    spec.write_text(json.dumps({"commands": [list(c) for c in commands], "fsize": fsize}),
                    encoding="utf-8")
    results.unlink(missing_ok=True)
    driver = [sys.executable, str(DRIVER), str(spec), str(results)]
    argv = [*prefix, *(["sh", "-c", f'{shell_setup} && exec "$@"', "sh"] if shell_setup
                       else []), *driver]
    proc = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, timeout=900,
                          env={**os.environ, **(env or {})})
    assert proc.returncode == 0 and results.exists(), proc.stdout + proc.stderr
    return list(json.loads(results.read_text(encoding="utf-8")))


def make_read_only(path: Path) -> None:
    """Remove every write bit of a file or folder."""
    mode = stat.S_IMODE(path.stat().st_mode)
    path.chmod(mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))


def make_writable(path: Path) -> None:
    path.chmod(stat.S_IMODE(path.stat().st_mode) | stat.S_IWUSR)


def fresh_copy(template: Files, root: Path) -> Files:
    """A copy of the prepared files (each fault gets its own store)."""
    shutil.copytree(template.root, root)
    return Files(root)

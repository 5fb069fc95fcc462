"""What a blind hostile pass found in the outputs, database paths, disk faults, streams
and signals (issue 18), each as the reviewer would see it: the exit code, one stderr
line naming the cause, and the files and decisions as they were.

The faults are real: a read-only folder (an unprivileged user namespace when the tests
run as root), a file size limit (``RLIMIT_FSIZE``, as a full disk refuses), ``/dev/full``,
symbolic links and FIFOs, a closed standard input, SIGINT sent to the very process.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from models import Attempt, AuditEvent
from reviewer.cli.main import main as cli
from reviewer.exports.manifest import manifest_path, verify
from reviewer.ingest.importer import import_run
from reviewer.store import open_store
from tests.reliability.faults import CONSOLE, console, unprivileged_prefix
from tests.support.fake_ollama import FakeOllama, Reply
from tests.support.judge_stores import MODEL, load, verdict_reply
from tests.support.run_files import record, write_catalog, write_jsonl

ROOT = Path(__file__).resolve().parents[2]
PREVIOUS = "previous output\n"
ANSWER = "Notez la date, l'heure et la durée de chaque épisode de bruit. " * 40

# The console script under a file size limit (SIGXFSZ ignored, so a write past the limit
# fails with EFBIG as a full disk fails with ENOSPC).
LIMITED = """
import resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
limit = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
from ui.cli import main
sys.exit(main(sys.argv[2:]))
"""


def limited(limit: int, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", LIMITED, str(limit), *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=300,
                          env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})


def one_line(err: str) -> str:
    """The one ``reviewer:`` line of a failure (and nothing else on stderr)."""
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("reviewer: "), err
    assert "Traceback" not in err
    return lines[0]


def fingerprint(folder: Path) -> dict[str, str]:
    """Every entry of a folder: files by SHA-256, links by target, others by kind."""
    out = {}
    for path in sorted(folder.iterdir()):
        if path.is_symlink():
            out[path.name] = "-> " + os.readlink(path)
        elif path.is_file():
            out[path.name] = hashlib.sha256(path.read_bytes()).hexdigest()
        else:
            out[path.name] = stat.filemode(path.lstat().st_mode)
    return out


def counts(db: Path) -> tuple[int, int]:
    """Attempts and audit events in the SQLite store at ``db``."""
    store = open_store(str(db))
    try:
        with store.session() as s:
            return (s.scalar(select(func.count()).select_from(Attempt)) or 0,
                    s.scalar(select(func.count()).select_from(AuditEvent)) or 0)
    finally:
        store.close()


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A SQLite store with accepted conversations and two decisions (three audit events)."""
    path = tmp_path / "store" / "r.db"
    path.parent.mkdir()
    store = open_store(str(path))
    try:
        rows = [record(f"conv-{i:03d}", 1, 1, response=ANSWER) for i in range(20)]
        import_run(store, write_jsonl(tmp_path / "run.jsonl", rows),
                   catalog_path=write_catalog(tmp_path / "catalog.json"))
    finally:
        store.close()
    key = "2026-10-14-ministral-8b/conv-001/1/1"
    assert cli(["--db", str(path), "decide", key, "--reject", "--note", "à revoir"]) == 0
    assert cli(["--db", str(path), "decide", key.replace("001", "002"), "--accept"]) == 0
    return path


def read_only_prefix(folder: Path) -> tuple[str, ...]:
    """Make ``folder`` read-only; what to run a command under for its mode to apply."""
    folder.chmod(0o555)
    return tuple(unprivileged_prefix())


# -- database paths ------------------------------------------------------------------------

def test_an_empty_db_option_is_an_error_not_the_default_store(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REVIEWER_DB", str(tmp_path / "default.db"))

    assert cli(["--db", "", "stats"]) == 2

    assert one_line(capsys.readouterr().err) == \
        "reviewer: --db is empty: give a database file or URL"
    assert list(tmp_path.iterdir()) == []  # no default store made


def test_a_sqlite_file_uri_never_reaches_the_real_database(
        db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    before = fingerprint(db.parent)

    assert cli(["--db", f"file:{db}", "export", "decisions", str(db)]) == 2

    assert "'file:' URIs are not accepted" in one_line(capsys.readouterr().err)
    assert fingerprint(db.parent) == before  # every decision still there
    assert not (tmp_path / "file:").exists()  # no folder made for a misread path


@pytest.mark.parametrize("name", ["q?x.db", "%41.db", "b#c.db"])
def test_a_db_path_is_the_file_it_names_and_is_protected(
        name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    inputs = tmp_path / "in"
    inputs.mkdir()
    run = write_jsonl(inputs / "run.jsonl", [record("c1", 1, 1)])
    catalog = write_catalog(inputs / "catalog.json")
    assert cli(["--db", name, "import", str(run), "--catalog", str(catalog)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([name, "in"])
    misread = {"q?x.db": "q", "%41.db": "A.db", "b#c.db": "b"}[name]
    before = fingerprint(tmp_path)
    capsys.readouterr()

    assert cli(["--db", name, "export", "decisions", name]) == 2

    assert "it is the open database" in one_line(capsys.readouterr().err)
    assert fingerprint(tmp_path) == before
    assert not (tmp_path / misread).exists()


@pytest.mark.parametrize(("url", "says"), [
    ("mysql://x/y", "mysql is not supported"),
    (":::::://", "is not a database URL or file path"),
])
def test_a_database_url_that_cannot_be_used_is_bad_input(
        url: str, says: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(["--db", url, "stats"]) == 2

    assert says in one_line(capsys.readouterr().err)


# -- the output guard ----------------------------------------------------------------------

def test_a_manifest_linked_to_its_dataset_is_refused(
        db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "d.jsonl"
    out.write_text(PREVIOUS, encoding="utf-8")
    manifest_path(out).symlink_to(out.name)
    before = fingerprint(tmp_path)

    assert cli(["--db", str(db), "export", "dataset", str(out)]) == 2

    assert "is the same file as" in one_line(capsys.readouterr().err)
    assert fingerprint(tmp_path) == before  # the dataset was not replaced by its manifest


@pytest.mark.parametrize("link", ["symbolic", "hard"])
def test_two_files_of_a_split_linked_together_are_refused(
        db: Path, tmp_path: Path, link: str, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "split"
    folder.mkdir()
    (folder / "train.jsonl").write_text(PREVIOUS, encoding="utf-8")
    if link == "symbolic":
        (folder / "valid.jsonl").symlink_to("train.jsonl")
    else:
        os.link(folder / "train.jsonl", folder / "valid.jsonl")
    before = fingerprint(folder)

    assert cli(["--db", str(db), "export", "dataset", str(folder), "--split",
                "valid=0.2"]) == 2

    # A symbolic link in a split folder is refused as such (sixth pass, X2); a hard link
    # is two names of one file, which FileSet refuses.
    assert ("it is a symbolic link" if link == "symbolic" else "is the same file as") \
        in one_line(capsys.readouterr().err)
    assert fingerprint(folder) == before


def test_a_fifo_where_the_manifest_goes_is_refused_without_waiting(
        db: Path, tmp_path: Path) -> None:
    out = tmp_path / "d.jsonl"
    os.mkfifo(manifest_path(out))

    proc = console("--db", str(db), "export", "dataset", str(out))  # hung for ever

    assert proc.returncode == 2
    assert "must be a regular file" in one_line(proc.stderr)
    assert stat.S_ISFIFO(manifest_path(out).lstat().st_mode) and not out.exists()


def test_dev_stdout_on_a_pipe_is_standard_output(db: Path) -> None:
    proc = console("--db", str(db), "export", "decisions", "/dev/stdout")

    assert proc.returncode == 0, proc.stderr
    events = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(events) == 3
    assert proc.stderr == "3 audit events → /dev/stdout\n"


def test_a_descriptor_open_on_the_store_is_refused(db: Path) -> None:
    """``export golden /dev/fd/3`` with fd 3 opened on the store (``3<r.db``): the golden
    set was appended to the database file itself (second blind hostile pass, op15)."""
    before = db.read_bytes()
    fd = os.open(db, os.O_RDONLY)
    try:
        proc = console("--db", str(db), "export", "golden", f"/dev/fd/{fd}", pass_fds=(fd,))
    finally:
        os.close(fd)
    assert proc.returncode == 2
    assert "it is the open database" in one_line(proc.stderr)
    assert db.read_bytes() == before


SETTINGS = "[General]\nreviewer=alice\n\n[ollama]\nhost=http://gpu-box:11434\n"


@pytest.mark.parametrize("how", ["export", "export with ~", "export through a link",
                                 "export to the organisation's file", "grade -o"])
def test_an_output_onto_the_settings_file_is_refused(
        db: Path, tmp_path: Path, how: str) -> None:
    """Fourth hostile pass, S1: ``export golden ~/.config/reviewer/reviewer.conf`` replaced
    the settings with JSONL (exit 0); the next GUI start reset them to the defaults."""
    home = tmp_path / "home"
    config = home / ".config"
    (config / "reviewer").mkdir(parents=True)
    settings = config / ("reviewer.conf" if "organisation" in how else "reviewer/reviewer.conf")
    settings.write_text(SETTINGS, encoding="utf-8")
    (tmp_path / "alias.jsonl").symlink_to(settings)
    out = {"export with ~": "~/.config/reviewer/reviewer.conf",
           "export through a link": str(tmp_path / "alias.jsonl")}.get(how, str(settings))
    command = ["grade", "exact", str(grade_input(tmp_path, 3)), "-o", out] \
        if how == "grade -o" else ["--db", str(db), "export", "golden", out]

    proc = console(*command, env={"HOME": str(home), "XDG_CONFIG_HOME": str(config)})

    assert proc.returncode == 2, proc.stderr
    assert one_line(proc.stderr) == (f"reviewer: cannot write {out}: it is the app's "
                                     f"settings file ({settings}); nothing was written")
    assert settings.read_text(encoding="utf-8") == SETTINGS


def with_streams_on(path: Path, *args: str, fd: int) -> subprocess.CompletedProcess[str]:
    """The console script with descriptor ``fd`` (1 or 2) open read-write on ``path``
    at offset 0, as the shell's ``2<>FILE`` opens it; the other one captured."""
    stream, other = os.open(path, os.O_RDWR), subprocess.PIPE
    try:
        return subprocess.run([*CONSOLE, *args], text=True, cwd=ROOT, timeout=120,
                              env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
                              stdout=stream if fd == 1 else other,
                              stderr=stream if fd == 2 else other)
    finally:
        os.close(stream)


@pytest.mark.parametrize("command", [
    ["export", "golden", "-"],  # succeeds: "2 attempts → -" went over the SQLite header
    ["decide", "nope/x/1/1", "--accept"],  # fails: its error line went there
])
def test_standard_error_on_the_store_writes_nothing_there(
        db: Path, command: list[str]) -> None:
    """``reviewer … 2<>r.db`` (fourth hostile pass, A9): nothing can be said on a
    standard error that is the store, so nothing is; exit 2, the store as it was."""
    before, events = db.read_bytes(), counts(db)

    proc = with_streams_on(db, "--db", str(db), *command, fd=2)

    assert proc.returncode == 2
    assert proc.stdout == ""
    assert db.read_bytes() == before
    assert counts(db) == events


def test_standard_error_on_an_input_writes_nothing_there(tmp_path: Path) -> None:
    src = grade_input(tmp_path, 3)
    before = src.read_bytes()

    proc = with_streams_on(src, "grade", "exact", str(src), "-o", str(tmp_path / "o"),
                           fd=2)

    assert proc.returncode == 2
    assert src.read_bytes() == before
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("command", [
    ["stats"], ["decide", "2026-10-14-ministral-8b/conv-005/1/1", "--accept"]])
def test_standard_output_on_the_store_is_refused_for_every_command(
        db: Path, command: list[str]) -> None:
    """``stats 1<>r.db`` wrote its table over the SQLite header (found with A9): the
    check of ``export … -`` is made for every command, before it starts."""
    before, events = db.read_bytes(), counts(db)

    proc = with_streams_on(db, "--db", str(db), *command, fd=1)

    assert proc.returncode == 2
    assert one_line(proc.stderr) == (f"reviewer: cannot write standard output: it is the "
                                     f"open database ({db}); nothing was written")
    assert db.read_bytes() == before
    assert counts(db) == events


def test_standard_input_as_the_output_of_its_own_input_is_refused(tmp_path: Path) -> None:
    """``grade … IN -o /dev/stdin < IN`` doubled IN (op15's twin, op34)."""
    src = grade_input(tmp_path, 3)
    before = src.read_bytes()
    with src.open("rb") as stdin:
        proc = console("grade", "exact", str(src), "-o", "/dev/stdin", stdin=stdin)
    assert proc.returncode == 2
    assert "it is an input of this command" in one_line(proc.stderr)
    assert src.read_bytes() == before


def test_a_path_through_a_file_is_bad_input(
        db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = fingerprint(db.parent)

    assert cli(["--db", str(db), "export", "decisions", str(db / "x.jsonl")]) == 2

    assert one_line(capsys.readouterr().err) == (
        f"reviewer: cannot write {db / 'x.jsonl'}: {db} is a file, not a folder; nothing "
        "was written")
    assert fingerprint(db.parent) == before


@pytest.mark.parametrize(("command", "ending"), [
    ("export", "/"), ("export", "/."), ("grade -o", "/"), ("import --skip-bad", "/")])
@pytest.mark.parametrize("there", ["a file", "nothing"])
def test_an_output_ending_with_a_slash_names_a_folder_and_is_refused(
        db: Path, tmp_path: Path, command: str, ending: str, there: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Fourth hostile pass, C2: ``export golden f.jsonl/`` dropped the slash and replaced
    the existing file f.jsonl (and ``new.jsonl/`` made a file)."""
    out = tmp_path / "out" / "f.jsonl"
    out.parent.mkdir()
    if there == "a file":
        out.write_text(PREVIOUS, encoding="utf-8")
    given = f"{out}{ending}"
    args = {"export": ["--db", str(db), "export", "golden", given],
            "grade -o": ["grade", "exact", str(grade_input(tmp_path, 3)), "-o", given],
            "import --skip-bad": ["--db", str(db), "import", str(bad_run(tmp_path)),
                                  "--skip-bad", given]}[command]
    before = counts(db)

    assert cli(args) == 2

    assert one_line(capsys.readouterr().err) == (
        f"reviewer: cannot write {given}: it ends with '{ending}', which names a folder; "
        "nothing was written")
    assert fingerprint(out.parent) == ({"f.jsonl": hashlib.sha256(
        PREVIOUS.encode()).hexdigest()} if there == "a file" else {})
    assert counts(db) == before


def test_a_split_export_into_a_folder_given_with_a_slash(
        db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "split"

    assert cli(["--db", str(db), "export", "dataset", f"{out}/", "--split", "valid=0.5"]) == 0

    assert sorted(p.name for p in out.iterdir()) == [
        "manifest.json", "train.jsonl", "valid.jsonl"]
    assert f"→ {out}/ (train.jsonl " in capsys.readouterr().out  # not "split//"


@pytest.mark.parametrize("folder", ["r.db-wal", "r.db-shm/sub"])
def test_a_folder_where_sqlite_keeps_its_files_is_refused(
        db: Path, folder: str, capsys: pytest.CaptureFixture[str]) -> None:
    out = db.parent / folder / "x.jsonl"

    assert cli(["--db", str(db), "export", "decisions", str(out)]) == 2

    assert "of the open database" in one_line(capsys.readouterr().err)
    assert sorted(p.name for p in db.parent.iterdir()) == ["r.db"]  # no folder made


def test_a_long_valid_file_name_can_be_written(db: Path, tmp_path: Path) -> None:
    out = tmp_path / ("d" * 244 + ".jsonl")  # 250 bytes: the temporary name must fit too

    assert cli(["--db", str(db), "export", "decisions", str(out)]) == 0

    assert len(out.read_text(encoding="utf-8").splitlines()) == 3
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


# -- import --skip-bad: all or nothing -----------------------------------------------------

def bad_run(tmp_path: Path, bad_lines: int = 1) -> Path:
    rows: list[Any] = [record(f"new-{i}", 1, 1) for i in range(3)]
    rows += [{"bad": "x" * 200}] * bad_lines
    return write_jsonl(tmp_path / "new-run.jsonl", rows)


def test_rejects_into_a_read_only_folder_import_nothing(db: Path, tmp_path: Path) -> None:
    run, folder = bad_run(tmp_path), tmp_path / "ro"
    folder.mkdir()
    tmp_path.chmod(0o777)
    db.parent.chmod(0o777)
    db.chmod(0o666)
    before = counts(db)
    prefix = read_only_prefix(folder)

    proc = console("--db", str(db), "import", str(run), "--skip-bad",
                   str(folder / "rej.jsonl"), prefix=prefix)

    assert proc.returncode == 3
    assert "Permission denied" in one_line(proc.stderr)
    assert counts(db) == before  # the good lines were not imported either
    assert list(folder.iterdir()) == []


def test_rejects_past_the_file_size_limit_import_nothing(db: Path, tmp_path: Path) -> None:
    run = bad_run(tmp_path, bad_lines=2000)  # about 500 KB of rejects
    rejects = tmp_path / "rej.jsonl"
    before = counts(db)

    proc = limited(256 * 1024, "--db", str(db), "import", str(run), "--skip-bad",
                   str(rejects))

    assert proc.returncode == 4
    assert one_line(proc.stderr).startswith(f"reviewer: cannot write {rejects}: File too")
    assert counts(db) == before
    assert not rejects.exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_a_terminated_import_leaves_no_temporary_rejects_file(
        db: Path, tmp_path: Path, sig: signal.Signals) -> None:
    # sg02: killed by SIGTERM, import --skip-bad left .rej.jsonl.xxxxxxxx beside the file.
    rows: list[Any] = [record(f"big-{i}", 1, 1) for i in range(6000)]
    run = write_jsonl(tmp_path / "big-run.jsonl", [{"bad": "x"}, *rows])
    before = counts(db)
    proc = subprocess.Popen([*CONSOLE, "--db", str(db), "import", str(run), "--skip-bad",
                             str(tmp_path / "rej.jsonl")], cwd=ROOT, stderr=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, text=True)
    try:
        temporary = wait_for_temporary(tmp_path, ".rej.jsonl.", proc)
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == -sig, err  # ended by the signal, as before
    assert not temporary.exists() and not (tmp_path / "rej.jsonl").exists()
    assert counts(db) == before


def test_an_ignored_sighup_stays_ignored_while_a_temporary_file_exists(
        db: Path, tmp_path: Path) -> None:
    # Under nohup (SIGHUP ignored) a SIGHUP removed the temporary rejects file anyway,
    # and the import, which went on as nohup intends, then failed: "cannot write
    # rej.jsonl: No such file or directory".
    rows: list[Any] = [record(f"big-{i}", 1, 1) for i in range(6000)]
    run = write_jsonl(tmp_path / "big-run.jsonl", [{"bad": "x"}, *rows])
    rejects = tmp_path / "rej.jsonl"
    proc = subprocess.Popen([*CONSOLE, "--db", str(db), "import", str(run), "--skip-bad",
                             str(rejects)], cwd=ROOT, stderr=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN))
    try:
        wait_for_temporary(tmp_path, ".rej.jsonl.", proc)
        proc.send_signal(signal.SIGHUP)
        _, err = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert len(rejects.read_text(encoding="utf-8").splitlines()) == 1


def wait_for_temporary(folder: Path, prefix: str, proc: subprocess.Popen[str]) -> Path:
    """The temporary file a running command made in ``folder`` (fails if it ended first)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        found = [p for p in folder.iterdir() if p.name.startswith(prefix)]
        if found:
            return found[0]
        time.sleep(0.01)
    raise AssertionError(f"no {prefix}* file while the command ran (exit {proc.poll()})")


# -- grade -o: the previous file or a whole new one ----------------------------------------

def grade_input(tmp_path: Path, lines: int = 4000) -> Path:
    rows = [{"response": f"{ANSWER} {i}", "reference": ANSWER, "expected": "x"}
            for i in range(lines)]
    return write_jsonl(tmp_path / "in.jsonl", rows)


def test_grade_output_past_the_file_size_limit_keeps_the_previous_file(
        tmp_path: Path) -> None:
    src, out = grade_input(tmp_path), tmp_path / "o.jsonl"
    out.write_text(PREVIOUS, encoding="utf-8")

    proc = limited(256 * 1024, "grade", "exact", str(src), "-o", str(out))

    assert proc.returncode == 4
    assert one_line(proc.stderr).startswith(f"reviewer: cannot write {out}: File too")
    assert out.read_text(encoding="utf-8") == PREVIOUS
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.jsonl", "o.jsonl"]


@pytest.mark.parametrize("command", [["export", "golden", "OUT"], ["queue", "--json"]])
def test_a_file_size_limit_below_the_shared_memory_file_says_so(
        db: Path, tmp_path: Path, command: list[str]) -> None:
    """Under ``ulimit -f 20`` a command that only reads said the database "reached" the
    limit and "the change in progress was not saved" (fourth hostile pass, F1): the file
    that reached it is SQLite's ``r.db-shm``, and nothing was in progress."""
    out = tmp_path / "g.jsonl"
    for suffix in ("-shm", "-wal"):  # as a closed store leaves it: -shm made anew
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    before = db.read_bytes()

    proc = limited(20 * 1024, "--db", str(db),
                   *[str(out) if arg == "OUT" else arg for arg in command])

    assert proc.returncode == 4
    assert one_line(proc.stderr) == (
        f"reviewer: {db}: this process's file size limit (20 KiB, ulimit -f) is below the "
        "32 KiB SQLite needs for the database's shared-memory file r.db-shm; nothing was "
        "changed")
    assert proc.stdout == "" and not out.exists()
    assert db.read_bytes() == before


def test_grade_output_into_a_read_only_folder_is_exit_3(tmp_path: Path) -> None:
    src, folder = grade_input(tmp_path, 3), tmp_path / "ro"
    folder.mkdir()
    tmp_path.chmod(0o777)
    src.chmod(0o644)
    prefix = read_only_prefix(folder)

    proc = console("grade", "exact", str(src), "-o", str(folder / "o.jsonl"), prefix=prefix)

    assert proc.returncode == 3
    assert "Permission denied" in one_line(proc.stderr)


JUDGED = {"notes": [{"answer": 1, "correctness": 5, "helpfulness": 5, "tone": 5,
                     "format": 5, "justification": "Correct."}]}


def test_ctrl_c_before_any_line_is_graded_keeps_the_previous_output(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], fake_ollama: FakeOllama) -> None:
    rows = [{"group": str(i), "response": f"r{i}", "reference": f"ref {i}"} for i in range(4)]
    src, out = write_jsonl(tmp_path / "in.jsonl", rows), tmp_path / "o.jsonl"
    out.write_text(PREVIOUS, encoding="utf-8")

    def interrupt_on_first(_body: dict[str, Any]) -> Reply:
        os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C before any group was judged
        return Reply.json(JUDGED)

    fake_ollama.responder = interrupt_on_first

    code = cli(["grade", "judge", str(src), "-o", str(out), "--host", fake_ollama.url,
                "--model", "j"])

    assert code == 130
    assert one_line(capsys.readouterr().err) == (
        f"reviewer: interrupted; no line was graded yet: {out} is left as it was")
    assert out.read_text(encoding="utf-8") == PREVIOUS  # not an empty new file
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.jsonl", "o.jsonl"]


@pytest.mark.parametrize(("sig", "code", "said"), [
    (signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "terminated"),
    (signal.SIGHUP, 129, "hung up")], ids=["SIGINT", "SIGTERM", "SIGHUP"])
def test_a_signal_during_grade_judge_keeps_the_lines_judged(
        tmp_path: Path, fake_ollama: FakeOllama, sig: signal.Signals, code: int,
        said: str) -> None:
    # Ninth hostile pass, G1: Ctrl-C after some groups were judged threw every judged line
    # away (-o OUT not written, exit 130), while a judge failure halfway writes them and,
    # without -o, they reach stdout as they are graded: an hour of judge calls lost to
    # one key. SIGTERM killed the command with no line. Now the lines judged are put in
    # place as after a judge failure, and the one line says how many.
    rows = [{"group": str(i), "response": f"r{i}", "reference": f"ref {i}"} for i in range(5)]
    src, out = write_jsonl(tmp_path / "in.jsonl", rows), tmp_path / "o.jsonl"
    out.write_text(PREVIOUS, encoding="utf-8")
    pid: list[int] = []

    def signal_on_third(_body: dict[str, Any]) -> Reply:
        if len(fake_ollama.chat_requests) == 3:
            os.kill(pid[0], sig)  # two groups judged, the third in flight
            return Reply.json(JUDGED, delay=30)  # never answered in time
        return Reply.json(JUDGED)

    fake_ollama.responder = signal_on_third
    proc = subprocess.Popen(
        [*CONSOLE, "grade", "judge", str(src), "-o", str(out), "--host", fake_ollama.url,
         "--model", "j"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        cwd=ROOT)
    pid.append(proc.pid)
    try:
        stdout, stderr = proc.communicate(timeout=120)
    finally:
        proc.kill()
        proc.wait(timeout=30)

    assert proc.returncode == code, stderr
    assert one_line(stderr) == (
        f"reviewer: {said}; 2 of 5 lines graded and written to {out}, the other 3 not "
        "graded")
    assert stdout == ""
    written = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [(x["response"], x["score"]) for x in written] == [("r0", 1.0), ("r1", 1.0)]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.jsonl", "o.jsonl"]


# -- the screenshot: a file like any other -------------------------------------------------

@pytest.mark.slow
def test_a_screenshot_onto_dev_full_is_disk_full_and_leaves_the_device(db: Path) -> None:
    proc = console("--db", str(db), "gui", "--screenshot", "/dev/full")

    assert proc.returncode == 4, proc.stderr
    assert "No space left on device" in one_line(proc.stderr)
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


@pytest.mark.slow
def test_a_screenshot_past_the_file_size_limit_keeps_the_previous_png(
        db: Path, tmp_path: Path) -> None:
    shot = tmp_path / "s.png"
    first = console("--db", str(db), "gui", "--screenshot", str(shot))
    assert first.returncode == 0, first.stderr
    assert first.stderr == ""  # not even Qt's platform notes
    previous = shot.read_bytes()
    limit = 40 * 1024  # above the 32 KiB index SQLite maps beside the store
    assert len(previous) > limit + 16 * 1024

    proc = limited(limit, "--db", str(db), "gui", "--screenshot", str(shot))

    assert proc.returncode == 4
    assert one_line(proc.stderr).startswith(f"reviewer: cannot write {shot}: File too")
    assert shot.read_bytes() == previous
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


@pytest.mark.slow
def test_a_screenshot_into_a_read_only_folder_is_exit_3(db: Path, tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    for path in (tmp_path, db.parent):
        path.chmod(0o777)
    db.chmod(0o666)
    prefix = read_only_prefix(folder)

    proc = console("--db", str(db), "gui", "--screenshot", str(folder / "s.png"),
                   prefix=prefix, env={"HOME": str(tmp_path)})

    assert proc.returncode == 3, proc.stderr
    assert "Permission denied" in one_line(proc.stderr)
    assert list(folder.iterdir()) == []


@pytest.mark.parametrize("display", [None, ":4913"], ids=["no-display", "dead-display"])
@pytest.mark.parametrize("screenshot", [False, True], ids=["window", "screenshot"])
def test_the_gui_without_a_display_is_one_line_exit_1(
        db: Path, tmp_path: Path, display: str | None, screenshot: bool) -> None:
    """Fourth hostile pass, GUI0: Qt's platform lines, its advice to reinstall, then
    SIGABRT (exit 134). Now one line that says there is no display and what to do."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "WAYLAND_SOCKET", "QT_QPA_PLATFORM")}
    if display is not None:
        assert not Path(f"/tmp/.X11-unix/X{display[1:]}").exists()
        env["DISPLAY"] = display
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    shot = tmp_path / "s.png"
    args = ["--screenshot", str(shot)] if screenshot else []

    proc = subprocess.run([*CONSOLE, "--db", str(db), "gui", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=120, env=env)

    assert proc.returncode == 1, proc.stderr
    line = one_line(proc.stderr)
    assert line.startswith("reviewer: cannot open a window: ")
    assert ("does not answer" if display else "no display") in line
    assert "desktop session" in line and "QT_QPA_PLATFORM=offscreen" in line
    assert not shot.exists()
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before


def test_only_the_desktop_platforms_are_judged_before_qt(tmp_path: Path) -> None:
    from ui.display import display_problem

    assert display_problem({"QT_QPA_PLATFORM": "offscreen"}) is None
    assert display_problem({"QT_QPA_PLATFORM": "vnc:size=800x600"}) is None
    assert "(DISPLAY is not set)" in str(display_problem({"QT_QPA_PLATFORM": "xcb"}))
    wayland = {"WAYLAND_DISPLAY": "wayland-9", "XDG_RUNTIME_DIR": str(tmp_path)}
    assert "wayland-9 (WAYLAND_DISPLAY) does not exist" in str(display_problem(wayland))
    (tmp_path / "wayland-9").touch()  # a compositor's socket
    assert display_problem(wayland) is None


# -- streams -------------------------------------------------------------------------------

@pytest.mark.parametrize("command", [["stats"], ["export", "decisions", "-"]])
def test_standard_output_on_a_full_device_is_one_line_exit_4(
        db: Path, command: list[str]) -> None:
    with open("/dev/full", "w") as full:
        proc = subprocess.run([*CONSOLE, "--db", str(db), *command], stdout=full,
                              stderr=subprocess.PIPE, text=True, cwd=ROOT, timeout=120)

    assert proc.returncode == 4
    assert "No space left" in one_line(proc.stderr) or "disk is full" in proc.stderr


def limited_to_file(limit: int, out: Path, *args: str, unbuffered: bool
                    ) -> subprocess.CompletedProcess[str]:
    """:func:`limited` with standard output redirected to ``out`` (``> out``)."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONUNBUFFERED"}
    if unbuffered:
        env["PYTHONUNBUFFERED"] = "1"
    with out.open("wb") as stdout:
        return subprocess.run([sys.executable, "-c", LIMITED, str(limit), *args],
                              stdout=stdout, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                              timeout=300, env={**env, "QT_QPA_PLATFORM": "offscreen"})


@pytest.mark.parametrize("unbuffered", [True, False], ids=["PYTHONUNBUFFERED", "buffered"])
def test_an_export_to_standard_output_past_the_file_size_limit_is_exit_4(
        db: Path, tmp_path: Path, unbuffered: bool) -> None:
    """``(ulimit -f 40; reviewer export dataset - > file)`` under PYTHONUNBUFFERED=1 said
    "… → -" and exited 0, the file cut mid-line (fourth hostile pass, F3): Python's raw
    standard output took part of the write and dropped the rest without an error."""
    out, limit = tmp_path / "out.jsonl", 40 * 1024
    whole = console("--db", str(db), "export", "dataset", "-").stdout
    assert len(whole.encode("utf-8")) > limit

    proc = limited_to_file(limit, out, "--db", str(db), "export", "dataset", "-",
                           unbuffered=unbuffered)

    assert proc.returncode == 4
    assert one_line(proc.stderr) == (
        f"reviewer: cannot write standard output ({out}): the file would be larger than "
        "the file system or the file size limit (ulimit -f) allows; what was written "
        "there is incomplete")


def test_grade_to_standard_output_past_the_file_size_limit_names_it(tmp_path: Path) -> None:
    """``grade … > file`` under ``ulimit -f 0`` said "cannot use a file" (F1)."""
    src, out = grade_input(tmp_path, 3), tmp_path / "graded.jsonl"

    proc = limited_to_file(0, out, "grade", "exact", str(src), unbuffered=True)

    assert proc.returncode == 4
    assert one_line(proc.stderr).startswith(
        f"reviewer: cannot write standard output ({out}): the file would be larger")


def test_a_template_from_a_closed_standard_input_is_bad_input(db: Path) -> None:
    proc = subprocess.run(["sh", "-c", '"$@" <&-', "sh", *CONSOLE, "--db", str(db),
                           "prompt", "set", "second_avis", "-"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)

    assert proc.returncode == 2
    assert "standard input is closed" in one_line(proc.stderr)


def test_verify_export_reads_no_further_than_the_manifest_says(db: Path,
                                                                tmp_path: Path) -> None:
    # Third hostile pass: a split's valid.jsonl made a link to /dev/zero kept
    # verify-export reading for ever.
    out = tmp_path / "split"
    assert cli(["--db", str(db), "export", "dataset", str(out), "--split", "valid=0.5"]) == 0
    (out / "valid.jsonl").unlink()
    (out / "valid.jsonl").symlink_to("/dev/zero")
    proc = subprocess.run([*CONSOLE, "verify-export", str(out)], capture_output=True,
                          text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 1
    assert one_line(proc.stderr) == (f"reviewer: {out / 'valid.jsonl'}: listed by "
                                     "manifest.json but it is a device, not a regular file: "
                                     "export again")


@pytest.mark.parametrize("what", ["FIFO", "link to a FIFO"])
def test_verify_export_refuses_a_fifo_member_without_waiting(db: Path, tmp_path: Path,
                                                             what: str) -> None:
    # Seventh hostile pass H3: a split's valid.jsonl replaced by a FIFO made
    # verify-export wait for a writer for ever (export itself refuses such a member).
    out = tmp_path / "split"
    assert cli(["--db", str(db), "export", "dataset", str(out), "--split", "valid=0.5"]) == 0
    (out / "valid.jsonl").unlink()
    if what == "FIFO":
        os.mkfifo(out / "valid.jsonl")
    else:
        os.mkfifo(tmp_path / "pipe")
        (out / "valid.jsonl").symlink_to(tmp_path / "pipe")
    proc = subprocess.run([*CONSOLE, "verify-export", str(out)], capture_output=True,
                          text=True, cwd=ROOT, timeout=30, stdin=subprocess.DEVNULL)
    assert proc.returncode == 1
    assert one_line(proc.stderr) == (f"reviewer: {out / 'valid.jsonl'}: listed by "
                                     "manifest.json but it is a pipe, not a regular file: "
                                     "export again")


@pytest.mark.parametrize("kind", ["dataset", "preference"])
def test_a_split_to_standard_output_is_refused_not_a_folder_named_dash(
        db: Path, tmp_path: Path, kind: str) -> None:
    # Third hostile pass: `export dataset - --split valid=0.1` made a folder "-".
    proc = subprocess.run([*CONSOLE, "--db", str(db), "export", kind, "-", "--split",
                           "valid=0.1"], capture_output=True, text=True, cwd=tmp_path,
                          timeout=120)
    assert proc.returncode == 2 and proc.stdout == ""
    assert one_line(proc.stderr) == ("reviewer: cannot write -: a split export writes a "
                                     "folder of files, not standard output; give a folder; "
                                     "nothing was written")
    assert not (tmp_path / "-").exists()


def test_ctrl_c_during_an_import_is_a_line_of_its_own_after_the_bar(tmp_path: Path) -> None:
    # Third hostile pass: the interrupted line was glued to the progress bar's last state.
    from reviewer.assets import demo_run

    lines = demo_run().read_text("utf-8").splitlines()
    rows = [json.loads(line) for line in lines]
    run = write_jsonl(tmp_path / "big.jsonl", [
        {**r, "conversation": f"{r['conversation']}-{i}"} for i in range(40) for r in rows])
    assert run.stat().st_size > 8 << 20  # past the size that shows a progress bar
    db = tmp_path / "store.sqlite3"
    assert cli(["--db", str(db), "demo"]) == 0
    proc = subprocess.Popen([*CONSOLE, "--db", str(db), "import", str(run)], cwd=ROOT,
                            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    assert proc.stderr is not None
    shown = proc.stderr.read(200)  # the bar has started
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, shown + err
    assert (shown + err).split("\n")[-2] == ("reviewer: interrupted; the step in progress "
                                             "was not saved (what was saved before is kept)")


def test_a_closed_standard_output_is_no_traceback_and_the_decision_stands(db: Path) -> None:
    # Third hostile pass: `decide … >&-` stored the decision, then reported an internal
    # error with a 30-line traceback (Python's sys.stdout is None there).
    key = "2026-10-14-ministral-8b/conv-005/1/1"
    before = counts(db)
    for argv in (["decide", key, "--accept"], ["queue", "--limit", "2"]):
        proc = subprocess.run(["sh", "-c", '"$@" >&-', "sh", *CONSOLE, "--db", str(db),
                               *argv], capture_output=True, text=True, cwd=ROOT, timeout=120)
        assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    assert counts(db) == (before[0], before[1] + 1)  # the accept, once


# -- signals -------------------------------------------------------------------------------

# SIGINT to the process itself the moment the CLI's first module is imported: the window
# of a Ctrl-C pressed as the command starts, made deterministic.
INTERRUPT_WHILE_LOADING = """
import builtins, os, signal, sys
real = builtins.__import__
def importing(name, *args, **kwargs):
    if name == "reviewer.cli.main":
        builtins.__import__ = real
        os.kill(os.getpid(), signal.SIGINT)
    return real(name, *args, **kwargs)
builtins.__import__ = importing
from ui.cli import main
sys.exit(main())
"""

# SIGINT as the first module that the console script's own module would need (typing) is
# imported: with ui.cli importing nothing at load, that is inside main.
INTERRUPT_AT_THE_FIRST_IMPORT = INTERRUPT_WHILE_LOADING.replace('"reviewer.cli.main"',
                                                                '"typing"')

# SIGINT right after the command finished, before the interpreter's own exit.
INTERRUPT_AFTER_THE_COMMAND = """
import os, signal, sys, time
from ui.cli import main
code = main()
os.kill(os.getpid(), signal.SIGINT)
time.sleep(0.2)
sys.exit(code)
"""


def test_ctrl_c_while_the_cli_loads_is_one_line_exit_130(db: Path) -> None:
    proc = subprocess.run([sys.executable, "-c", INTERRUPT_WHILE_LOADING, "--db", str(db),
                           "stats"], capture_output=True, text=True, cwd=ROOT, timeout=120)

    assert proc.returncode == 130
    assert one_line(proc.stderr).startswith("reviewer: interrupted")


def test_ctrl_c_as_the_console_script_module_loads_is_one_line_exit_130(db: Path) -> None:
    # ui.cli imported typing at load, outside main: a Ctrl-C 10-100 ms after the start
    # printed Python's traceback and died by SIGINT (eighth hostile pass, 19).
    proc = subprocess.run([sys.executable, "-c", INTERRUPT_AT_THE_FIRST_IMPORT, "--db",
                           str(db), "stats"], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)

    assert proc.returncode == 130, proc.stderr
    assert one_line(proc.stderr).startswith("reviewer: interrupted")


def test_ctrl_c_once_the_command_is_done_keeps_its_exit_code(
        db: Path, tmp_path: Path) -> None:
    run = write_jsonl(tmp_path / "more.jsonl", [record("more", 1, 1)])
    before = counts(db)

    proc = subprocess.run([sys.executable, "-c", INTERRUPT_AFTER_THE_COMMAND, "--db",
                           str(db), "import", str(run), "--catalog",
                           str(tmp_path / "catalog.json")],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)

    assert proc.returncode == 0, proc.stderr  # it imported: not killed by SIGINT (-2)
    assert proc.stderr == ""
    assert counts(db)[0] == before[0] + 1


def test_ctrl_c_during_rejudge_is_one_line_and_the_answers_are_kept(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], fake_ollama: FakeOllama) -> None:
    db = tmp_path / "judged.db"
    store = open_store(str(db))
    try:
        load(store, tmp_path, [record("c", i, 1, demande="non", response=f"Réponse {i}.")
                               for i in range(1, 6)])
    finally:
        store.close()

    def interrupt_on_third(body: dict[str, Any]) -> Reply:
        if len(fake_ollama.chat_requests) == 3:
            os.kill(os.getpid(), signal.SIGINT)
        return verdict_reply(body)

    fake_ollama.responder = interrupt_on_third
    command = ["--db", str(db), "rejudge", "--host", fake_ollama.url, "--model", MODEL,
               "--parallel", "1"]

    assert cli(command) == 130

    assert one_line(capsys.readouterr().err) == (
        "reviewer: interrupted; the answers received so far are kept: rerun the same "
        "command to ask only the rest")
    fake_ollama.responder = verdict_reply
    asked = len(fake_ollama.chat_requests)
    assert cli(command) == 0
    assert len(fake_ollama.chat_requests) - asked < 5  # only the rest asked again


def test_ctrl_c_during_rejudge_against_a_silent_judge_stops_at_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], fake_ollama: FakeOllama) -> None:
    # Sixth hostile pass, RJ: against a judge that never answers, Ctrl-C took effect only
    # once every request in flight had used up its timeout and retries (361 s with the
    # defaults). With a 60 s timeout and a retry, the old code took at least 120 s.
    db = tmp_path / "silent.db"
    store = open_store(str(db))
    try:
        load(store, tmp_path, [record("c", i, 1, demande="non", response=f"Réponse {i}.")
                               for i in range(1, 5)])
    finally:
        store.close()

    def silent(body: dict[str, Any]) -> Reply:
        if len(fake_ollama.chat_requests) == 2:  # both workers are waiting on the judge
            threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT)).start()
        return Reply.json({}, delay=3600)

    fake_ollama.responder = silent
    began = time.monotonic()
    code = cli(["--db", str(db), "rejudge", "--host", fake_ollama.url, "--model", MODEL,
                "--parallel", "2", "--timeout", "60", "--retries", "1"])
    took = time.monotonic() - began

    assert code == 130
    assert took < 20, took  # a generous guard: the old code needed 120 s or more
    assert one_line(capsys.readouterr().err) == (
        "reviewer: interrupted; the answers received so far are kept: rerun the same "
        "command to ask only the rest")
    fake_ollama.responder = verdict_reply
    assert cli(["--db", str(db), "rejudge", "--host", fake_ollama.url, "--model", MODEL,
                "--timeout", "60"]) == 0  # the abandoned attempts are asked again


def test_verify_export_after_a_refused_link_still_passes(
        db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "d.jsonl"
    assert cli(["--db", str(db), "export", "dataset", str(out)]) == 0
    good = fingerprint(tmp_path)
    manifest_path(out).unlink()
    manifest_path(out).symlink_to(out.name)

    assert cli(["--db", str(db), "export", "dataset", str(out)]) == 2

    assert out.read_bytes() and fingerprint(tmp_path)["d.jsonl"] == good["d.jsonl"]
    manifest_path(out).unlink()
    assert cli(["--db", str(db), "export", "dataset", str(out)]) == 0
    verify(out)  # the pair matches again


@pytest.mark.parametrize("manifest", ["deep", "elsewhere"])
def test_verify_export_refuses_a_manifest_that_does_not_describe_the_file(
        db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], manifest: str) -> None:
    """Second blind hostile pass: a 100,000-deep manifest ended in exit 70 (in15), and one
    listing only ../../../etc/hostname with its true checksum passed (in18)."""
    out = tmp_path / "d.jsonl"
    assert cli(["--db", str(db), "export", "dataset", str(out)]) == 0
    capsys.readouterr()
    if manifest == "deep":
        text = "[" * 100_000 + "]" * 100_000
    else:
        other = Path("/etc/hostname")
        data = other.read_bytes()
        text = json.dumps({"files": [{"name": "../" * 8 + "etc/hostname", "bytes": len(data),
                                      "sha256": hashlib.sha256(data).hexdigest()}]})
    manifest_path(out).write_text(text, encoding="utf-8")
    code = cli(["verify-export", str(out)])
    err = capsys.readouterr().err
    assert code == 1, err
    assert len(err.splitlines()) == 1 and err.startswith("reviewer: ") and "Traceback" not in err


def test_a_split_that_cannot_be_written_leaves_no_empty_folder(
        db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    # Third hostile pass: a split to a new folder on a full disk failed in one line, but
    # left the folder it had made, empty, as if an export had been written there. (The
    # disk is full when the files are made durable: SQLite's own writes are not Python's.)
    def full(_fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    out = tmp_path / "new" / "split"

    assert cli(["--db", str(db), "export", "dataset", str(out), "--split", "valid=0.5"]) == 4

    assert one_line(capsys.readouterr().err).startswith("reviewer: cannot write ")
    assert not (tmp_path / "new").exists()


# The console script with SIGTERM sent to itself the moment a file is created: the worst
# time, between the temporary file's creation and its registration.
TERMINATED_AT_CREATION = """
import os, signal, sys
real_open = os.open
def open_then_terminated(path, flags, *args, **kwargs):
    fd = real_open(path, flags, *args, **kwargs)
    if flags & os.O_CREAT and os.path.basename(path).startswith(".out.jsonl."):
        os.kill(os.getpid(), signal.SIGTERM)
    return fd
os.open = open_then_terminated
from ui.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_terminated_as_the_temporary_file_is_made_leaves_none(db: Path,
                                                              tmp_path: Path) -> None:
    # A loaded machine delivered SIGTERM between mkstemp and the file's registration: the
    # temporary file stayed. Now it is registered before it exists.
    out = tmp_path / "out.jsonl"
    before = sorted(p.name for p in tmp_path.iterdir())
    proc = subprocess.run([sys.executable, "-c", TERMINATED_AT_CREATION, "--db", str(db),
                           "export", "dataset", str(out)], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)
    assert proc.returncode == -signal.SIGTERM, proc.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == before


# -- two exports to the same file at once (fifth hostile pass, P19) ------------------------

FLOCK_SYSCALL = {"x86_64": 73, "aarch64": 32}.get(__import__("platform").machine())


def waiting_for_a_lock(pid: int) -> bool:
    """True while the process sleeps inside ``flock`` (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/syscall").read_text().split()
    except OSError:
        return False
    return bool(fields) and fields[0] == str(FLOCK_SYSCALL)


@pytest.mark.skipif(FLOCK_SYSCALL is None or not Path("/proc/self/syscall").exists(),
                    reason="needs Linux /proc/PID/syscall")
@pytest.mark.parametrize("split", [False, True], ids=["file", "split"])
def test_an_export_renaming_while_another_renames_waits_its_turn(
        db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, split: bool) -> None:
    # P19: two `export dataset mix.jsonl` at once (--format chat, --format sharegpt) left
    # the data of one beside the manifest of the other, both exit 0, about one run in
    # six. Made certain here: this process's export stops right after its first rename,
    # and the other export runs in its own process meanwhile, to its end or until it
    # waits. Each must put its files in place whole, one after the other.
    out = tmp_path / "exports" / ("folder" if split else "mix.jsonl")
    out.parent.mkdir()
    extra = ["--split", "valid=0.2"] if split else []
    first_target = out / "train.jsonl" if split else out
    other: list[subprocess.Popen[str]] = []
    real_replace = os.replace

    def replace_then_let_the_other_run(src: Any, dst: Any) -> None:
        real_replace(src, dst)
        if Path(dst) != first_target or other:
            return
        other.append(subprocess.Popen(
            [*CONSOLE, "--db", str(db), "export", "dataset", str(out), "--format", "sharegpt",
             *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
            env={**os.environ, "QT_QPA_PLATFORM": "offscreen"}))
        deadline = time.monotonic() + 240  # only keeps a regression from hanging the suite
        while other[0].poll() is None and not waiting_for_a_lock(other[0].pid):
            assert time.monotonic() < deadline, "the other export neither ended nor waited"
            time.sleep(0.01)

    monkeypatch.setattr(os, "replace", replace_then_let_the_other_run)
    try:
        assert cli(["--db", str(db), "export", "dataset", str(out), "--format", "chat",
                    *extra]) == 0
    finally:
        monkeypatch.undo()
        for proc in other:
            proc.wait(timeout=240)
    assert other and other[0].returncode == 0, other[0].stderr.read() if other else ""
    if other[0].stderr is not None:
        other[0].stderr.close()
    if other[0].stdout is not None:
        other[0].stdout.close()

    check = console("verify-export", str(out))
    assert check.returncode == 0, check.stderr  # the files and their manifest match
    first = (out / "train.jsonl" if split else out).read_text("utf-8").splitlines()[0]
    assert '"conversations"' in first  # the export renamed last (ShareGPT) is there whole
    listed = sorted(p.name for p in (out if split else out.parent).iterdir())
    assert listed == (["manifest.json", "train.jsonl", "valid.jsonl"] if split
                      else ["mix.jsonl", "mix.jsonl.manifest.json"])  # no lock file left


# -- the sixth blind pass ------------------------------------------------------------------

ANOTHER_DATABASE = ("(SQLite), and no output ever replaces one; choose another name; "
                    "nothing was written")


def another_store(db: Path, folder: Path, name: str = "colleague.db") -> Path:
    """A second reviewer store (a colleague's, the app's default one): a copy of ``db``."""
    other = folder / name
    other.write_bytes(db.read_bytes())
    return other


@pytest.mark.parametrize("output", [
    "export", "export through a link", "export onto its -wal", "manifest",
    "a split's file", "a split's manifest", "import --skip-bad", "grade -o"])
def test_an_output_onto_another_database_is_refused(
        db: Path, tmp_path: Path, output: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Sixth hostile pass, X1: ``export golden colleague.db`` replaced a store that was not
    the open one with JSONL, exit 0, every decision in it gone. Every output of every
    command is refused on a SQLite database, and on the files SQLite keeps beside one."""
    work = tmp_path / "work"
    work.mkdir()
    other = another_store(db, work)
    out = work / "d.jsonl"
    command = ["--db", str(db), "export", "golden", str(other)]
    if output == "export through a link":
        (work / "alias.jsonl").symlink_to(other.name)
        command[-1] = str(work / "alias.jsonl")
    elif output == "export onto its -wal":
        command[-1] = f"{other}-wal"  # absent: written there, SQLite would read it as its own
    elif output == "manifest":
        other.rename(manifest_path(out))
        command = ["--db", str(db), "export", "dataset", str(out)]
    elif output.startswith("a split's"):
        (work / "sp").mkdir()
        other.rename(work / "sp" / ("valid.jsonl" if "file" in output else "manifest.json"))
        command = ["--db", str(db), "export", "dataset", str(work / "sp"), "--split",
                   "valid=0.2"]
    elif output == "import --skip-bad":
        command = ["--db", str(db), "import", str(bad_run(tmp_path)), "--skip-bad",
                   str(other)]
    elif output == "grade -o":
        command = ["grade", "exact", str(grade_input(tmp_path, 3)), "-o", str(other)]
    before, events = fingerprint(work), counts(db)

    assert cli(command) == 2

    line = one_line(capsys.readouterr().err)
    assert line.startswith("reviewer: cannot write ") and line.endswith(ANOTHER_DATABASE)
    assert fingerprint(work) == before  # the other store byte for byte, nothing beside it
    assert counts(db) == events  # nothing imported either


def test_the_apps_default_store_is_refused_as_an_export(db: Path, tmp_path: Path) -> None:
    """X1's second reproduction: the app's own store, 13 MB, became a 4.6 kB JSONL."""
    data = tmp_path / "home" / ".local" / "share"
    (data / "reviewer").mkdir(parents=True)
    default = another_store(db, data / "reviewer", "reviewer.sqlite3")
    before = default.read_bytes()

    proc = console("--db", str(db), "export", "decisions", str(default),
                   env={"HOME": str(tmp_path / "home"), "XDG_DATA_HOME": str(data)})

    assert proc.returncode == 2
    assert one_line(proc.stderr).endswith(ANOTHER_DATABASE)
    assert default.read_bytes() == before


def test_a_new_export_beside_another_database_is_written(db: Path, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]
                                                          ) -> None:
    """Only a database is protected: a JSONL file beside one, or one that merely ends
    with '-wal' with no database of that name, is written as before."""
    another_store(db, tmp_path)
    for name in ("colleague.jsonl", "notes-wal"):
        (tmp_path / name).write_text(PREVIOUS, encoding="utf-8")
        assert cli(["--db", str(db), "export", "decisions", str(tmp_path / name)]) == 0
        assert len((tmp_path / name).read_text("utf-8").splitlines()) == 3
    capsys.readouterr()


def test_a_split_file_that_is_a_symlink_is_refused_not_followed(
        db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Sixth hostile pass, X2: ``sp/train.jsonl`` linked to a file elsewhere (there, a
    store) was followed and that file replaced. A split folder is the export's own: its
    files are regular files or absent; a link there is refused, nothing renamed."""
    notes = tmp_path / "notes.txt"
    notes.write_text(PREVIOUS, encoding="utf-8")
    folder = tmp_path / "sp"
    folder.mkdir()
    (folder / "train.jsonl").symlink_to("../notes.txt")
    before = fingerprint(tmp_path)

    assert cli(["--db", str(db), "export", "dataset", str(folder), "--split",
                "valid=0.2"]) == 2

    assert one_line(capsys.readouterr().err) == (
        f"reviewer: cannot write {folder / 'train.jsonl'}: it is a symbolic link, and the "
        "files of a split export's folder must be regular files (or absent); remove the "
        "link; nothing was written")
    assert fingerprint(tmp_path) == before
    assert fingerprint(folder) == {"train.jsonl": "-> ../notes.txt"}


@pytest.mark.parametrize("out", ["-", "/dev/stdout"])
@pytest.mark.parametrize("kind", ["decisions", "dataset", "golden"])
def test_an_export_to_a_closed_standard_output_is_refused(
        db: Path, kind: str, out: str) -> None:
    """Sixth hostile pass, U5: ``export decisions - >&-`` wrote nothing anywhere, said
    "3 audit events → -" and exited 0. What a command *says* on a closed standard output
    still goes nowhere (``decide … >&-``: see above); an export asked for there is
    refused."""
    before = db.read_bytes()
    proc = subprocess.run(["sh", "-c", '"$@" >&-', "sh", *CONSOLE, "--db", str(db),
                           "export", kind, out], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)

    assert proc.returncode == 2
    assert one_line(proc.stderr) == (f"reviewer: cannot write {out}: standard output is "
                                     "closed; nothing was written")
    assert db.read_bytes() == before


def in_a_deleted_folder(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The console script run from a current folder that was deleted (``mkdir gone; cd
    gone; rmdir ../gone``), its standard output a regular file (as in a script's log)."""
    gone = tmp_path / "gone"
    gone.mkdir()
    log = tmp_path / "stdout.log"
    with log.open("w", encoding="utf-8") as stdout:
        proc = subprocess.run(
            ["sh", "-c", 'cd "$1" && rmdir "$1" && shift && exec "$@"', "sh", str(gone),
             *CONSOLE, *args], stdout=stdout, stderr=subprocess.PIPE, text=True, timeout=120,
            env={**os.environ, "QT_QPA_PLATFORM": "offscreen",
                 "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get(
                     "PYTHONPATH")]))})
    assert not gone.exists()
    return subprocess.CompletedProcess(proc.args, proc.returncode,
                                       log.read_text("utf-8"), proc.stderr)


@pytest.mark.parametrize("command", [["stats"], ["export", "decisions", "-"],
                                     ["export", "decisions", "ABS"],
                                     ["decide", "2026-10-14-ministral-8b/conv-005/1/1",
                                      "--accept"]])
def test_a_deleted_current_folder_with_absolute_paths_works(
        db: Path, tmp_path: Path, command: list[str]) -> None:
    """Sixth hostile pass, U4: with the working folder deleted, every command (with an
    absolute ``--db``) said "cannot use a file: no such file or folder", exit 2, and
    worked with ``--debug`` (which changed nothing but where its stdout went)."""
    out = tmp_path / "e.jsonl"
    command = [str(out) if arg == "ABS" else arg for arg in command]

    proc = in_a_deleted_folder(tmp_path, "--db", str(db), *command)

    assert proc.returncode == 0, proc.stderr
    if command[-1] == "-":
        assert len(proc.stdout.splitlines()) == 3
    if command[-1] == str(out):
        assert len(out.read_text("utf-8").splitlines()) == 3


@pytest.mark.parametrize(("command", "named"), [
    (["--db", "DB", "export", "decisions", "e.jsonl"], "e.jsonl: "),
    (["--db", "DB", "export", "dataset", "sp", "--split", "valid=0.2"], "sp: "),
    (["--db", "r.db", "stats"], "--db 'r.db': "),
])
def test_a_relative_path_in_a_deleted_current_folder_says_so(
        db: Path, tmp_path: Path, command: list[str], named: str) -> None:
    before = fingerprint(db.parent)

    proc = in_a_deleted_folder(tmp_path, *[str(db) if a == "DB" else a for a in command])

    assert proc.returncode == 2
    assert one_line(proc.stderr) == (
        f"reviewer: {named}the current folder no longer exists (deleted or moved?); cd to "
        "a folder that exists, or give an absolute path")
    assert fingerprint(db.parent) == before


def test_a_split_folder_moved_mid_export_leaves_no_temporary_file(tmp_path: Path) -> None:
    # Seventh hostile pass F1: `bsp` moved to `bsp.old` (and a file made at `bsp`) while
    # a split export wrote: rc 2, but 38 MB of hidden .train.jsonl.XXXX files stayed in
    # bsp.old, and the line named one of them. The temporary files are removed where
    # they are, and the line names the output and what happened to its folder.
    from reviewer.atomic import FileSet
    from reviewer.errors import ReviewerError

    folder = tmp_path / "bsp"
    folder.mkdir()
    with pytest.raises(ReviewerError) as refused, FileSet() as files:
        for name in ("train.jsonl", "valid.jsonl"):
            files.open(folder / name).write(b'{"x": 1}\n' * 1000)
        folder.rename(tmp_path / "bsp.old")
        (tmp_path / "bsp").write_text("x\n", "utf-8")
    assert str(refused.value) == (
        f"cannot write {folder / 'train.jsonl'}: its folder was moved or replaced while "
        "the export ran; nothing was written (any previous file is left as it was)")
    assert list((tmp_path / "bsp.old").iterdir()) == []
    assert (tmp_path / "bsp").read_text("utf-8") == "x\n"

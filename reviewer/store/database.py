"""Opening the store: URL resolution, engine settings, automatic migration with a backup.

One ``Session`` per unit of work: ``with store.session() as s: …`` commits on success and
rolls back on error. SQLite runs with WAL, foreign keys and a busy timeout; PostgreSQL
works through the same code (``postgresql+psycopg://…``).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import sqlite3
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from platformdirs import user_data_path
from sqlalchemy import Connection, Engine, create_engine, event, inspect, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, InvalidRequestError
from sqlalchemy.orm import Session, sessionmaker

import models
from reviewer.atomic import missing_folders
from reviewer.errors import CWD_GONE, BadInputError, ReadOnlyError, StoreError
from reviewer.input_bytes import special_file
from reviewer.store.creation import clear_unfinished, create_whole
from reviewer.store.faults import (
    OPENING,
    PG_QUERY_CANCELED,
    explain_db_error,
    hidden,
    masked,
)
from reviewer.store.read_only import READ_ONLY, connector, read_only_query, uri
from reviewer.text_rules import spelt

if TYPE_CHECKING:  # Alembic (with Mako and Pygments) is imported only to migrate
    from alembic.config import Config

MIGRATIONS = Path(models.__file__).resolve().parent / "migrations"
BUSY_TIMEOUT_MS = 5000
# SQLite's extended code for a read-only open that finds a hot journal to roll back.
SQLITE_READONLY_ROLLBACK = 776
# Seconds to reach a PostgreSQL server (connection and start-up) before saying so.
CONNECT_TIMEOUT_S = 10
# SQLite's page cache per connection, in KiB (negative = KiB in the pragma). The default
# 2 MiB holds less than one queue page touches on a season's store (the index leaves of
# the ~1,000 attempts a selective filter walks past, their verdict probes, 200 rows and
# their overflow pages), so pages were read again at every page: 8 MiB already took a
# criterion page's SQL at 100k from 4.9 to 1.3 ms. Not more: a whole-store pass (the
# export) fills the cache and never rereads it, and filling 32 MiB made it ~7 % slower.
CACHE_KIB = 16384
# Rows ANALYZE samples per index: enough for the planner, bounded at any store size.
ANALYSIS_LIMIT = 1000


def busy_timeout_ms() -> int:
    """How long a writer waits for another process's lock before saying the file is busy."""
    value = os.environ.get("REVIEWER_BUSY_TIMEOUT_MS", "")
    return int(value) if value.isdigit() else BUSY_TIMEOUT_MS


# The backends reviewer is built and tested for; any other URL is refused up front (a
# dialect that is not installed used to end in an internal error).
BACKENDS = ("sqlite", "postgresql")
# The URL schemes accepted: plain ``postgresql`` and psycopg2 reach make_engine, which
# says which one works.
DRIVERS = ("sqlite", "sqlite+pysqlite", "postgresql", "postgresql+psycopg",
           "postgresql+psycopg2")


def default_url() -> str:
    """``$REVIEWER_DB`` if set, else a SQLite file in the user data folder."""
    env = os.environ.get("REVIEWER_DB")
    if env:
        return to_url(env, "$REVIEWER_DB")
    folder = user_data_path("reviewer", appauthor=False)
    return to_url(str(folder / "reviewer.sqlite3"))


def database_url(option: str | None, given_as: str = "--db") -> str:
    """The URL of the database an option names: None is the default (``$REVIEWER_DB``,
    else the user data folder); an empty value is an error, never a silent default."""
    if option is None:
        return default_url()
    return to_url(option, given_as)


def to_url(text: str, given_as: str = "--db") -> str:
    """A SQLAlchemy URL for ``text``: a URL (SQLite or PostgreSQL) or a plain file path.

    The one reading of ``--db``, ``$REVIEWER_DB`` and the app's setting, so the store the
    command opens and the file the output guard protects are the same. A path is taken
    literally: ``?``, ``%`` and ``#`` are part of the file name (an f-string URL sent
    ``q?x.db`` to a file ``q`` and ``%41.db`` to ``A.db``, and the guard protected the wrong
    file). A value that is neither (empty, ``file:…`` SQLite URI, an unparsable URL, another
    database) is a BadInputError naming ``given_as``.
    """
    if not text.strip():
        raise BadInputError(f"{given_as} is empty: give a database file or URL")
    if "://" not in text:
        if _SLASHLESS_URL.match(text):  # `sqlite:r.db` made a folder "sqlite:" (P12-7)
            raise BadInputError(f"{given_as} {spelt(text)!r}: a database URL missing its "
                                "slashes; write sqlite:///PATH (three slashes), a "
                                "postgresql+psycopg:// URL, or just the file's path")
        _refuse_folder_spelling(text, given_as)
        if "\x00" in text:  # no file name holds one (os.stat: ValueError, exit 70)
            raise BadInputError(f"{given_as} {spelt(text, len(text))}: a file name cannot "
                                "hold a NUL character (U+0000)")
        if text.startswith("file:"):
            raise BadInputError(
                f"{given_as} {text!r}: SQLite 'file:' URIs are not accepted; give the "
                "file's path (or sqlite:///PATH)")
        path = _resolved(Path(text).expanduser(), given_as)
        return URL.create("sqlite", database=str(path)).render_as_string(hide_password=False)
    try:
        parsed = make_url(text)
    except ArgumentError:
        raise BadInputError(f"{given_as} {without_password(text)!r} is not a database URL or "
                            "file path") from None
    except ValueError:  # make_url's int() of the port (seventh hostile pass T1: exit 70)
        raise BadInputError(f"{given_as} {without_password(text)}: not a valid database "
                            f"URL ({_port_problem(text)})") from None
    backend = parsed.get_backend_name()
    if backend in BACKENDS and parsed.drivername not in DRIVERS:
        # SQLAlchemy loads any dialect named: an async or absent one was an internal
        # error on every command (thirteenth hostile pass, P13-3).
        raise BadInputError(
            f"{given_as} {without_password(text)!r}: '{parsed.drivername}' is not a driver "
            "reviewer uses; write sqlite:///PATH, a file's path, or postgresql+psycopg://…")
    if backend not in BACKENDS:
        raise BadInputError(
            f"{given_as} {hidden(parsed)}: {backend} is not "
            "supported (use a SQLite file or a postgresql+psycopg:// URL)")
    if backend == "sqlite" and (parsed.host or parsed.username or parsed.port):
        # SQLAlchemy refuses it when connecting (ArgumentError, exit 70), and `stats`
        # read the path without its host (twelfth hostile pass, P12-4).
        raise BadInputError(f"{given_as} {without_password(text)!r}: a SQLite URL names no "
                            "host; write sqlite:///PATH (three slashes) or just the file's "
                            "path")
    problem = _unusable_part(parsed) or (_host_problem(parsed) if backend == "postgresql"
                                         else None)
    if problem is not None:
        shown = without_password(text)
        raise BadInputError(f"{given_as} {spelt(shown, len(shown))}: not a valid database URL "
                            f"({problem})")
    if backend == "sqlite" and parsed.database in (None, "", ":memory:"):
        # An in-memory database opens, takes every decision, and forgets them all when
        # the command ends: a reviewer who typed sqlite:// meant a file.
        raise BadInputError(f"{given_as} {text!r} is an in-memory database: nothing would be "
                            "kept; give a database file (or sqlite:///PATH)")
    if backend == "sqlite" and parsed.query:
        raise _sqlite_options(text, parsed.query, given_as)
    if backend == "sqlite":
        _refuse_folder_spelling(str(parsed.database), given_as)
        _resolved(Path(str(parsed.database)).expanduser(), given_as)
    return text


def _refuse_folder_spelling(path: str, given_as: str) -> None:
    """A path ending in ``/`` or ``/.`` names a folder: ``--db r.db/`` opened r.db, and
    ``sqlite:///u1.db/`` or ``u2.db/.`` made a store there (twelfth and thirteenth hostile
    passes, P12-7, P13-6). A folder that exists keeps its own line ("is a folder")."""
    tail = next((t for t in ("/", "/.") if path.endswith(t)), None)
    if tail is not None and not os.path.isdir(path):
        raise BadInputError(f"{given_as} {spelt(path)!r}: it ends with '{tail}', which names "
                            "a folder; give the database file")


_SLASHLESS_URL = re.compile(r"(?i)(sqlite|postgres(ql)?)(\+\w+)?:(?!//)")
"""A URL's scheme without its ``//`` (``sqlite:r.db``, ``sqlite:/r.db``)."""


def _netloc(text: str) -> tuple[str, str]:
    """A URL's user part (before the last ``@``, may be empty) and its host and port."""
    netloc = text.split("://", 1)[1].split("/", 1)[0].split("?", 1)[0]
    user, _, host = netloc.rpartition("@")
    return user, host


def without_password(text: str) -> str:
    """``text``, a URL SQLAlchemy cannot parse, with the password of its user part shown
    as ``***`` (as ``render_as_string(hide_password=True)`` does for one it can)."""
    user, _ = _netloc(text)
    name, colon, _password = user.partition(":")
    if not colon:
        return masked(text)
    scheme, rest = text.split("://", 1)
    return masked(f"{scheme}://{name}:***@{rest[len(user) + 1:]}")


def _port_problem(text: str) -> str:
    """What is wrong with the port of ``text``, a URL whose port make_url could not read."""
    _, host = _netloc(text)
    if host.startswith("[") and "]" not in host:
        return "the '[' of an IPv6 address is never closed"
    port = host.rpartition("]")[2] if host.startswith("[") else host
    port = port.partition(":")[2]
    if not port:
        return "the port after ':' is empty"
    return f"the port {port!r} is not a number"


def _unusable_part(parsed: URL) -> str | None:
    """What part of ``parsed`` holds a character no connection can take, if any.

    Eighth hostile pass, P2: libpq reads its settings as one C string, so a NUL (``%00``)
    in the user or database name ended them there, and every setting after it was
    dropped without a word: the port first, and the command went to port 5432, where
    another server could have answered with another database. Any control character
    (a line feed, an escape) and a lone surrogate (bytes of ``$REVIEWER_DB`` that are not
    UTF-8, an internal error) are refused with it, in every part of a PostgreSQL URL;
    the password is named, never shown. A SQLite file name can hold any of them but NUL.
    """
    postgres = parsed.get_backend_name() == "postgresql"
    parts: list[tuple[str, str | None]] = [
        ("the user name", parsed.username), ("the password", parsed.password),
        ("the host", parsed.host),
        ("the database name" if postgres else "the file name", parsed.database)]
    for key, value in parsed.query.items():
        for item in (key, *((value,) if isinstance(value, str) else value)):
            parts.append((f"the option '{spelt(key)}'", item))
    for what, part in parts:
        bad = next((ch for ch in part or "" if ch == "\x00" or (
            postgres and unicodedata.category(ch) in ("Cc", "Cs"))), None)
        if bad is None:
            continue
        code = ord(bad)
        if unicodedata.category(bad) == "Cs":
            byte = f"byte 0x{code - 0xDC00:02X}" if 0xDC80 <= code <= 0xDCFF else f"U+{code:04X}"
            return f"{what} is not valid UTF-8 text ({byte})"
        return f"{what} holds a {'NUL' if code == 0 else 'control'} character, U+{code:04X}"
    return None


# The dots IDNA (and so socket.getaddrinfo) splits a host name at.
_HOST_DOTS = re.compile("[.\u3002\uff0e\uff61]")
MAX_LABEL = 63  # the longest part of a host name between two dots (RFC 1035)


def _host_problem(parsed: URL) -> str | None:
    """What makes a host name of the PostgreSQL URL ``parsed`` unusable, if anything:
    the URL's host, a list of them (``h1,h2``) and every ``?host=`` value.

    Eighth hostile pass, T5: psycopg looks a name up with ``socket.getaddrinfo``, which
    encodes it with IDNA first; an empty part (``x..com``, ``.``) or one longer than 63
    characters made that raise a bare UnicodeError, an internal error (exit 70). A
    folder (``/run/postgresql``, the server's socket) is no name, and an IP address
    always encodes.
    """
    found: list[str] = []
    for value in (parsed.host, parsed.query.get("host")):
        for token in (value,) if isinstance(value, str) else value or ():
            found += [_without_port(host) for host in token.split(",")]
    for host in found:
        if not host or host.startswith(("/", "@")) or host[1:2] == ":":  # psycopg's rule
            continue
        try:
            host.encode("idna")
            continue
        except UnicodeError as exc:
            why = exc
        shown = spelt(host, 80)
        labels = _HOST_DOTS.split(host)
        if len(labels) > 1 and not labels[-1]:
            labels.pop()  # one dot at the end: a fully qualified name
        if not all(labels):
            return (f"the host '{shown}' has an empty part between dots (two dots in a "
                    "row, or a dot first)")
        for label in labels:
            try:
                size = len(label.encode("idna"))
            except UnicodeError:  # too long: as DNS spells it, xn-- and its Punycode
                size = len(label) if label.isascii() else 4 + len(label.encode("punycode"))
            if size > MAX_LABEL:
                spelt_as = "" if label.isascii() else " once spelt for DNS"
                return (f"the host '{shown}' has a part of {size} characters between dots"
                        f"{spelt_as} (at most {MAX_LABEL})")
        return f"the host '{shown}' is not a valid host name ({why})"
    return None


def _without_port(host: str) -> str:
    """``host`` without the ``:PORT`` of a ``?host=HOST:PORT`` value (an IPv6 address,
    holding colons of its own, as it is)."""
    name, colon, port = host.rpartition(":")
    return name if colon and port.isdigit() and ":" not in name else host


def _sqlite_options(text: str, query: Any, given_as: str) -> BadInputError:
    """The refusal of a SQLite URL with options after ``?``.

    None of them does what a reviewer means (fifth hostile pass): ``?mode=ro`` was dropped
    with a raw SAWarning naming a source file, and the write went through (P42);
    ``?mode=ro&uri=true`` opened a new empty store named ``PATH?mode=ro`` (P43), beside a
    ``PATH`` the output guard protected instead. Honouring them would mean a store that
    cannot be migrated, a WAL it cannot switch to, and a guard reading the options as
    the pysqlite driver does; driver options such as ``isolation_level`` would undo the
    unit of work. So they are refused, as ``file:`` URIs are.
    """
    hint = ("; to keep a store from being changed, make its file read-only (chmod a-w "
            "FILE)" if "mode" in query or "immutable" in query else "")
    return BadInputError(
        f"{given_as} {text!r}: options after '?' are not accepted in a SQLite URL; give "
        f"the file's path (or sqlite:///PATH without them){hint}")


def _resolved(path: Path, given_as: str) -> Path:
    """``path`` with its symbolic links followed; a loop of links is the user's error, and
    so is a place no store can be made (``_check_place``)."""
    try:
        resolved = path.resolve()
    except (RuntimeError, OSError) as exc:  # 3.11 says RuntimeError("Symlink loop …")
        if isinstance(exc, FileNotFoundError) and not path.is_absolute():  # os.getcwd()
            raise BadInputError(f"{given_as} {str(path)!r}: {CWD_GONE}") from None
        raise BadInputError(f"{given_as} {str(path)!r}: cannot follow its symbolic links "
                            f"({exc})") from None
    _check_place(path, resolved, given_as)
    return resolved


def _check_place(given: Path, path: Path, given_as: str) -> None:
    """Refuse a store under a file (or a device), or one whose name is blank (fourteenth
    hostile pass, P14-5): ``--db t.txt/n.db`` said "cannot use …/t.txt: File exists", exit 1, and
    ``--db 'u9.db/ '`` made a folder u9.db and a store named " " in it."""
    if path.is_dir():  # a folder has its own line when the store is opened
        return
    if not path.name.strip():
        raise BadInputError(f"{given_as} {spelt(str(given))!r}: the file name is blank; give "
                            "the database file's name")
    folder = path.parent
    while not folder.exists() and folder.parent != folder:
        folder = folder.parent
    if not folder.is_dir():
        shown = str(folder)
        raise BadInputError(f"{given_as} {spelt(str(given))!r}: {spelt(shown, len(shown))} is "
                            "not a folder")


def sqlite_path(url: str) -> Path | None:
    """The file behind a SQLite URL, or None for other backends and in-memory databases."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or not parsed.database:
        return None
    if parsed.database == ":memory:":
        return None
    return Path(parsed.database)


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    # WAL lets the app read while a CLI writes; FULL sync so a decision survives SIGKILL
    # and power loss; foreign keys are off by default in SQLite.
    cur = dbapi_conn.cursor()
    cur.execute(f"PRAGMA busy_timeout = {busy_timeout_ms()}")
    cur.execute("PRAGMA foreign_keys = ON")
    cur.execute("PRAGMA journal_mode = WAL")
    cur.execute("PRAGMA synchronous = FULL")
    cur.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
    cur.close()


def make_engine(url: str, read_only: str | None = None) -> Engine:
    """An engine with the settings each backend needs; ``read_only``, the query of a
    read-only SQLite URI to open the file with (``reviewer.store.read_only``)."""
    if url.startswith("sqlite"):
        path = sqlite_path(url)
        if path is not None and read_only is not None:
            engine = create_engine(url, creator=connector(path, read_only))
            event.listen(engine, "connect", _sqlite_pragmas)
            return engine
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url)
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    # No server-side prepared statements: psycopg prepares a statement after its fifth
    # run, and PostgreSQL then keeps one plan made without the values. A queue page or a
    # search is the same text with other values, and the one plan walked the queue for a
    # rare word or read every document for a common one (315 ms instead of 47 at 100,000
    # attempts). Planning each time costs about a millisecond.
    #
    # No parallel plans: a queue page is a walk in index order that stops at 200 rows,
    # and PostgreSQL split it between workers whose rows past the merge point were
    # wasted: each of three processes walked 3,700 attempts of the "premium" page
    # (250-290 ms at 100,000 attempts, 53-95 ms walked by one), and the criterion and
    # check pages were 2-3 times slower than alone. On a team's server, shared by several
    # reviewers, a query's own workers only compete with the others'.
    #
    # A lock waited for as long as SQLite's busy timeout, then "busy" (SQLSTATE 55P03,
    # ``faults.PG_RETRY``): seventh hostile pass, H1, a `decide --from-csv` stopped with
    # Ctrl+Z (or a laptop asleep inside a transaction) held its rows' locks, and the same
    # reviewer's `decide` and every action of the app waited with no limit and no word.
    # Only lock waits are bounded: no statement_timeout, which would also stop the long
    # statements an import, an export or a migration legitimately runs.
    connect: dict[str, Any] = {"prepare_threshold": None,
                               "options": "-c max_parallel_workers_per_gather=0 "
                                          f"-c lock_timeout={busy_timeout_ms()}"}
    # A host or port that never answers (a firewall dropping packets, a stopped VM)
    # left every command waiting forever; libpq's own default is no limit. The URL's
    # ?connect_timeout= wins when the team set one.
    #
    # The client speaks UTF-8 whatever the server's encoding: under SQL_ASCII psycopg
    # returned bytes, and SQLAlchemy's first query (the server's version) was an internal
    # error before ``server_encoding`` could refuse the database (seventh pass, T4).
    connect["client_encoding"] = "UTF8"
    if "connect_timeout" not in make_url(url).query:
        connect["connect_timeout"] = CONNECT_TIMEOUT_S
    try:
        engine = create_engine(url, pool_pre_ping=True, connect_args=connect)
    except (ArgumentError, ImportError) as exc:  # NoSuchModuleError is an ArgumentError
        # postgresql:// picks psycopg2, which is not installed: say which URL works.
        raise BadInputError(f"{hidden(url)}: cannot "
                            f"use this database driver ({_first_line(exc)}); use "
                            "postgresql+psycopg://…") from None
    event.listen(engine, "do_connect", _connect)
    return engine


def _connect(dialect: Any, _record: Any, cargs: Any, cparams: dict[str, Any]) -> Any:
    """A PostgreSQL connection, whose failure to encode a host name is the driver's
    connection error like any other (one line, exit 1), not an internal error.

    ``to_url`` refuses such a host in the URL (eighth hostile pass, T5); libpq and
    psycopg also take one from ``$PGHOST`` when the URL names none, and psycopg turns
    only an OSError of ``socket.getaddrinfo`` into its error, not the UnicodeError of
    the name's IDNA encoding.

    The connection's waits act on Ctrl-C at once and end a silence of the server
    (fifteenth hostile pass, P15-5: ``reviewer.store.stalls``).
    """
    try:
        if dialect.driver == "psycopg":
            from reviewer.store.stalls import watched_connect  # psycopg: PostgreSQL only

            return watched_connect(cargs, cparams)
        return dialect.connect(*cargs, **cparams)
    except UnicodeError as exc:  # any other text the driver cannot encode ($PGPASSWORD…)
        host = cparams.get("host") or os.environ.get("PGHOST", "")
        said = f"failed to resolve host {spelt(str(host), 80)!r}" if "idna" in str(exc) \
            else "cannot use the connection settings"
        raise dialect.loaded_dbapi.OperationalError(f"{said}: {exc}") from exc


def _alembic_config() -> Config:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


_REVISION_LINE = re.compile(
    r"""^(revision|down_revision)\s*(?::[^=]*)?=\s*(?:['"]([^'"]+)['"]|None)\s*$""",
    re.MULTILINE)


@lru_cache(maxsize=1)
def _revision_graph() -> dict[str, str | None] | None:
    """``{revision: down_revision}`` read from the migration files' own assignments.

    Reading four lines per file costs little, where Alembic's script machinery (with
    Mako and Pygments) was a sixth of the app's start-up. None when a file does not
    spell them plainly (Alembic then answers). Read once per process: the files come
    with the code, and every opening of a store asked twice (1.5 ms, 20 files).
    """
    graph: dict[str, str | None] = {}
    for path in sorted((MIGRATIONS / "versions").glob("*.py")):
        found = dict((m.group(1), m.group(2)) for m in
                     _REVISION_LINE.finditer(path.read_text(encoding="utf-8")))
        if "revision" not in found or found["revision"] is None or "down_revision" not in found:
            return None
        graph[found["revision"]] = found["down_revision"]
    return graph


def _script_head() -> str:
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(_alembic_config()).get_current_head()
    assert head is not None
    return head


def head_revision() -> str:
    """The newest schema revision this code knows."""
    graph = _revision_graph()
    if graph:
        heads = set(graph) - {down for down in graph.values() if down is not None}
        if len(heads) == 1:
            return heads.pop()
    return _script_head()


def _known_revisions() -> set[str]:
    graph = _revision_graph()
    if graph:
        return set(graph)
    from alembic.script import ScriptDirectory

    script = ScriptDirectory.from_config(_alembic_config())
    return {rev.revision for rev in script.walk_revisions()}


_OUR_REVISION = re.compile(r"(\d{4})(?:_\w+)?")
"""How this program names its schema revisions: ``0012`` (a newer one may add a slug)."""


def unknown_schema(where: str, rev: str) -> StoreError:
    """The refusal of a store stamped with a revision this code does not know.

    Fourth hostile pass, V2: a stamp of ``'abc; drop'`` was called "newer … upgrade
    reviewer", which cannot help. Only a stamp in this program's own numbering and past
    its latest revision is newer; anything else is no revision this program ever wrote.
    """
    head = head_revision()
    rev = str(rev)  # SQLite stores what it is given: an integer stamp is possible
    ours = _OUR_REVISION.fullmatch(rev)
    if ours is not None and head.isdigit() and int(ours.group(1)) > int(head):
        return StoreError(f"{where}: schema {rev} is newer than this version of reviewer "
                          f"knows (latest {head}); upgrade reviewer")
    shown = rev if len(rev) <= 40 and rev.isprintable() else repr(rev[:40])
    return StoreError(f"{where}: schema version {shown} is not one reviewer ever wrote "
                      f"(latest {head}): the database is damaged or not a reviewer store; "
                      "open the right file, or restore a .bak- copy from beside it")


def current_revision(engine: Engine) -> str | None:
    """The revision stamped in the database, None for an empty database.

    Raises StoreError for a file that is not a database, or tables without a stamp.
    """
    try:
        with engine.connect() as conn:
            encoding, schema = "UTF8", "main"
            if conn.dialect.name == "postgresql":
                encoding, schema = conn.execute(text(
                    "SELECT current_setting('server_encoding'), current_schema()")).one()
                if schema is None:
                    raise no_schema_on_path(conn, engine.url)
            tables = set(inspect(conn).get_table_names())
            # A plain read of Alembic's stamp: Alembic itself is only imported to migrate.
            stamps = [row[0] for row in conn.execute(text(
                "SELECT version_num FROM alembic_version"))] \
                if "alembic_version" in tables else []
    except DBAPIError as exc:
        translated = explain_db_error(exc, hidden(engine.url),
                                      OPENING, engine=engine)
        if translated is not None and (not isinstance(translated, StoreError)
                                       or _sqlstate(exc) == PG_QUERY_CANCELED):
            # Read-only, disk full, a statement timeout: say so, not "cannot open".
            raise translated from exc
        raise StoreError(f"{hidden(engine.url)}: "
                         f"cannot open the database ({_first_line(exc)})") from exc
    if encoding != "UTF8":
        raise not_utf8(hidden(engine.url), str(encoding))
    if len(stamps) > 1:
        raise StoreError(f"{hidden(engine.url)}: "
                         f"several schema versions stamped ({', '.join(sorted(stamps))})")
    rev = stamps[0] if stamps else None
    if rev is None and tables - {"alembic_version"}:
        raise StoreError(
            f"{hidden(engine.url)}: has tables but no reviewer "
            "schema version; refusing to touch it"
        )
    return rev


def no_schema_on_path(conn: Connection, url: URL) -> StoreError:
    """The refusal of a PostgreSQL connection whose ``search_path`` names no schema that
    exists (``current_schema()`` is null): reviewer can neither find its tables nor make
    them, and says so before trying.

    Ninth hostile pass, P3: ``ALTER ROLE bob SET search_path = nonexist`` made ``queue``
    (a read) say "schema upgrade failed, rolled back, nothing changed: no schema has been
    selected to create in". The message names where the setting comes from (the role's,
    the database's, both, or the server's) with the statement that undoes it, and the
    schema that holds the reviewer tables when there is one.
    """
    value, source = conn.execute(text(
        "SELECT setting, source FROM pg_settings WHERE name = 'search_path'")).one()
    holders = list(conn.execute(text(
        "SELECT n.nspname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
        "WHERE c.relname = 'alembic_version' AND c.relkind IN ('r', 'p') ORDER BY 1"
    )).scalars())
    role, database = url.username or "ROLE", url.database or "DATABASE"
    whose, fix = {
        "user": (f"role {role}", f"ALTER ROLE {role} RESET search_path"),
        "database": (f"database {database}", f"ALTER DATABASE {database} RESET search_path"),
        "database user": (f"role {role} in database {database}",
                          f"ALTER ROLE {role} IN DATABASE {database} RESET search_path"),
    }.get(str(source), ("the server", "in postgresql.conf"))
    there = f" (they are in schema {', '.join(holders)})" if holders else ""
    target = "that schema" if len(holders) == 1 else "the schema that holds them"
    return StoreError(
        f"{hidden(url)}: the search_path of {whose} ({value}) "
        f"names no schema that exists, so the reviewer tables cannot be found{there}; reset "
        f"it ({fix}) or set it to {target}; nothing was changed")


def not_utf8(where: str, encoding: str) -> StoreError:
    """The refusal of a PostgreSQL database whose encoding is not UTF-8.

    Seventh hostile pass, T4: a ``SQL_ASCII`` database (no encoding: bytes stored as
    given) was an internal error on every command, a ``LATIN1`` one on the demo and on
    any text Latin-1 cannot hold, which a model's text is full of (curly quotes, dashes,
    "€", a decomposed accent). So any encoding but UTF8 is refused when the store is
    opened, before anything is written; the data of an existing one moves to a UTF8
    database with ``pg_dump`` and ``pg_restore``.
    """
    return StoreError(f"{where}: this database is in {encoding}; reviewer needs a UTF8 "
                      "database: createdb -E UTF8 -T template0 NAME (move an existing one "
                      "with pg_dump and pg_restore); nothing was changed")


def _first_line(exc: BaseException) -> str:
    orig = getattr(exc, "orig", None) or exc
    return str(orig).splitlines()[0] if str(orig) else type(orig).__name__


def backup_sqlite(path: Path, revision: str | None) -> Path:
    """Copy a SQLite file (consistent even in WAL mode) next to itself; return the copy."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    target = path.with_name(f"{path.name}.bak-{revision or 'empty'}-{stamp}")
    src = sqlite3.connect(path)
    try:
        dst = sqlite3.connect(target)
        with dst:
            src.backup(dst)
        dst.close()
    finally:
        src.close()
    return target


def upgrade(engine: Engine, url: str, *, made_here: bool = False) -> Path | None:
    """Bring the schema to head. Returns the backup made, if any.

    A database newer than this code is refused untouched. An older SQLite file is copied
    first; if the upgrade fails the copy is put back, so a failed upgrade loses nothing.
    A SQLite file this open created (``made_here``) is removed again when its first
    upgrade fails: Python's sqlite3 runs DDL outside the transaction, so a disk that
    filled halfway left tables without a schema version, and every later open refused
    the half-made store "for good" (fl10). A failure caused by the disk or permissions
    keeps that kind (exit 4 or 3), not "could not finish".
    """
    rev = current_revision(engine)
    head = head_revision()
    if rev == head:
        return None
    if rev is not None and rev not in _known_revisions():
        raise unknown_schema(hidden(engine.url), rev)
    path = sqlite_path(url)
    backup = backup_sqlite(path, rev) if (path is not None and rev is not None) else None
    try:
        from alembic import command

        with engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                # One session at a time makes or upgrades the schema; the others wait,
                # then find it at head and do nothing. Four first commands at once each
                # made it in their own transaction, and three failed on PostgreSQL's
                # "duplicate key … pg_type_typname_nsp_index" (tenth hostile pass, Z5).
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"),
                             {"key": SCHEMA_LOCK})
            cfg = _alembic_config()
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")
    except Exception as exc:
        if backup is not None and path is not None:
            engine.dispose()
            shutil.copyfile(backup, path)
            for suffix in ("-wal", "-shm"):
                Path(f"{path}{suffix}").unlink(missing_ok=True)
        # Without a copy, PostgreSQL's transaction rolled the DDL back; Python's sqlite3
        # ran it outside the transaction, so a file made here is removed whole.
        elif made_here and path is not None:
            engine.dispose()
            for suffix in ("", "-wal", "-shm", "-journal"):
                Path(f"{path}{suffix}").unlink(missing_ok=True)
        undone = (f"database restored from {backup}" if backup else
                  "the new database file was removed" if made_here and path is not None
                  else "rolled back, nothing changed")
        kind = explain_db_error(exc, url)
        if rev is None and path is None and _sqlstate(exc) == INSUFFICIENT_PRIVILEGE:
            raise no_schema_yet(engine) from exc
        failure = StoreError(f"schema upgrade failed, {undone}: {_first_line(exc)}")
        if kind is not None:
            failure.exit_code = kind.exit_code  # a full disk exits 4 whoever reports it
        raise failure from exc
    return backup


SCHEMA_LOCK = 0x7265766965776572  # "reviewer" in ASCII: this app's advisory lock key
INSUFFICIENT_PRIVILEGE = "42501"  # PostgreSQL's SQLSTATE for "permission denied"


def _sqlstate(exc: BaseException) -> str | None:
    orig = exc.orig if isinstance(exc, DBAPIError) else exc
    state = getattr(orig, "sqlstate", None)
    return state if isinstance(state, str) else None


def no_schema_yet(engine: Engine) -> ReadOnlyError:
    """The refusal of a reviewer who opens a PostgreSQL database before its owner made
    the schema, and may not make it (no CREATE on the schema, docs/team.md section 1).

    Seventh hostile pass, P1: it read "schema upgrade failed, rolled back, nothing
    changed: permission denied for schema public", which neither says that the database
    is simply empty nor who can fix it. The owner named is the database's, who the guide
    makes owner of the schema too; the URL shown is the reviewer's with that name.
    """
    url = engine.url
    owner = "OWNER"
    with contextlib.suppress(DBAPIError), engine.connect() as conn:
        found = conn.exec_driver_sql(
            "SELECT pg_get_userbyid(datdba) FROM pg_database "
            "WHERE datname = current_database()").scalar()
        owner = str(found) if found else owner
    as_owner = hidden(url.set(username=owner, password=None))
    return ReadOnlyError(
        f"{hidden(url)}: this database has no reviewer schema "
        f"yet, and {url.username} may not create it; its owner must create it once, with "
        f"any command (reviewer --db {as_owner} stats; docs/team.md, section 2); nothing "
        "was changed")


# What a bulk write (import, flagging pass) fills on PostgreSQL: the tables it analyzes.
BULK_TABLES = ("runs", "conversations", "attempts", "verdicts", "check_results",
               "contradiction_flags", "attempt_search")


def refresh_statistics(session: Session, tables: Sequence[str] = BULK_TABLES) -> None:
    """Tell the planner how big the tables now are, after a bulk write.

    Without statistics SQLite guesses, and after an import it guessed wrong: it scanned
    every flagged reading to show one row's flag. ``analysis_limit`` keeps this to a
    fraction of a second at any size. PostgreSQL's autovacuum gets there within a minute
    or so; until then a queue page on a freshly imported store hash-joined its 200 rows
    with a scan of every attempt, and a search guessed its matches from an empty table.
    ANALYZE samples a bounded number of rows (about a second at 100,000 attempts); a
    role that does not own the tables gets a warning per table, not an error, and waits
    for autovacuum. ``tables`` names what the bulk write changed, a table's name followed
    by a column list where only those columns changed (PostgreSQL analyzes only those;
    SQLite's bounded ``ANALYZE`` covers every table).
    """
    dialect = session.get_bind().dialect.name
    if dialect == "sqlite":
        session.execute(text(f"PRAGMA analysis_limit = {ANALYSIS_LIMIT}"))
        session.execute(text("ANALYZE"))
    elif dialect == "postgresql":
        session.execute(text(f"ANALYZE {', '.join(tables)}"))


class Store:
    """An opened, migrated database and its session factory."""

    def __init__(self, url: str, engine: Engine) -> None:
        self.url = url
        self.engine = engine
        self._factory = sessionmaker(engine, expire_on_commit=False)
        # The SQLite file's identity when opened: a unit of work that wrote checks that
        # the path still names it before committing (``_still_there``).
        path = sqlite_path(url) if engine.dialect.name == "sqlite" else None
        with contextlib.suppress(OSError):  # a relative URL: stat it from here, always
            path = path.absolute() if path is not None else None
        self._path = path
        self._identity = file_identity(path) if path is not None else None
        # Opened read-only (a read-only mount or folder): it reads, and every write is
        # refused; the app says so from the start (twelfth hostile pass, P12-6).
        self.read_only = False

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self.engine.dialect.name

    @contextmanager
    def session(self) -> Iterator[Session]:
        """One unit of work: commit on success, roll back on any error."""
        with self._factory() as session:
            try:
                yield session
                self._still_there(session)
                session.commit()
            except DBAPIError as exc:
                session.rollback()
                translated = explain_db_error(exc, self.url, engine=self.engine)
                if translated is not None:
                    raise translated from exc
                raise
            except BaseException:
                _roll_back_keeping(session)
                raise

    def _still_there(self, session: Session) -> None:
        """Refuse to commit a write into a SQLite file that was deleted or replaced.

        Sixth hostile pass, U6: with the file removed (``rm``, a sync tool, a restore that
        moved another file in place) while the app was open, every decision went on into
        the unlinked file, said "Rejected … Ctrl+Z to undo", and was gone when the app
        closed. One ``stat`` per unit of work that wrote: Python's sqlite3 opens its
        transaction at the first write, so a unit that only read costs nothing.
        """
        if self._identity is None or self._path is None or not session.in_transaction():
            return
        session.flush()  # pending ORM changes are writes too
        driver = session.connection().connection.driver_connection
        if not getattr(driver, "in_transaction", False):
            return
        if file_identity(self._path) != self._identity:
            raise StoreError(
                f"{self._path}: the database file was deleted or replaced while open: "
                "nothing was saved; close reviewer and open the database again (what was "
                "decided since it went is lost with the old file)")

    def close(self) -> None:
        """Release every connection (needed before copying or deleting a SQLite file)."""
        self.engine.dispose()


def _roll_back_keeping(session: Session) -> None:
    """Roll ``session`` back after a failure that is on its way out, without replacing it.

    A Ctrl-C that landed inside ``commit()`` once the database had committed (SQLAlchemy
    finishing its bookkeeping) made this rollback raise "This session is in 'committed'
    state", and the command said "internal error" and exited 70 instead of the one
    line of an interruption (eighth hostile pass). Nothing is left to undo then; the
    session is closed as usual.
    """
    with contextlib.suppress(InvalidRequestError):
        session.rollback()


def file_identity(path: Path) -> tuple[int, int] | None:
    """The device and inode ``path`` names, None when it names nothing. stat, never
    open: closing a descriptor of a store would drop this process's SQLite locks."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino


def open_store(url: str | None = None, *, migrate: bool = True, create: bool = True,
               named_by: str | None = None) -> Store:
    """Open (and by default migrate) the store at ``url`` or the default location.

    ``create=False``: a SQLite file that does not exist, or is empty, is refused
    (``no_store``) before anything is made or written, not even its folder. A PostgreSQL
    database is the server's to create; an empty one gets its schema from its first
    command, as its owner's (docs/team.md). ``named_by`` says where ``url`` was read when
    it is not ``--db`` (the app's Settings), in the refusals.
    """
    option = url
    url = database_url(url, named_by or "--db")
    path = sqlite_path(url)
    made_here = path is not None and not path.exists()
    if path is not None and not create and (made_here or _empty_file(path)):
        raise no_store(path, option, named_by)
    if path is not None and made_here and migrate:
        # Built beside it and put in place whole: a kill leaves no store or a whole one.
        create_whole(path, _build)
        made_here = False
    read_only = None
    if path is not None and path.exists():
        _refuse_odd_file(path)
        # A place SQLite cannot write (a read-only mount, folder): read it read-only.
        read_only = read_only_query(path)
        if path.stat().st_size > 0:
            _refuse_non_sqlite(path, read_only or READ_ONLY)
    engine = make_engine(url, read_only)
    try:
        if read_only is not None:
            _refuse_an_upgrade(engine, path)
        elif migrate:
            upgrade(engine, url, made_here=made_here)
        elif current_revision(engine) != head_revision():
            raise StoreError(f"{url}: schema is not at the version this reviewer expects")
    except BaseException:
        engine.dispose()
        raise
    store = Store(url, engine)
    store.read_only = read_only is not None
    return store


T = TypeVar("T")


def fill_new_store(option: str | None, fill: Callable[[Store], T]) -> tuple[bool, T | None]:
    """``fill`` a store that does not exist yet before it gets its name.

    When ``option`` (``--db``) names a SQLite file that is not there, the store is built
    under a temporary name, ``fill`` runs on it, and it takes its name only once ``fill``
    has returned: a first import that fails leaves no empty store behind (eleventh
    hostile pass, V5: ``stats`` then read "0 attempts" where the reviewer had mistyped
    the run). Returns ``(True, result)`` then; ``(False, None)`` when the store exists,
    is not SQLite, or appeared meanwhile (it is kept, and what ``fill`` did is dropped:
    the caller does its work on that store).
    """
    path = sqlite_path(database_url(option, "--db"))
    if path is None or path.exists():
        return False, None
    done: list[T] = []
    made = missing_folders(path.parent)  # removed again when nothing was made (P13-5)

    def build(temp: Path) -> None:
        _build(temp)
        url = URL.create("sqlite", database=str(temp)).render_as_string(hide_password=False)
        store = Store(url, make_engine(url))
        try:
            done.append(fill(store))
        finally:
            store.close()

    try:
        placed = create_whole(path, build)
    except BaseException:
        for folder in made:  # innermost first; one that holds anything else stays
            with contextlib.suppress(OSError):
                folder.rmdir()
        raise
    if placed:
        return True, done[0]
    return False, None


def _build(temp: Path) -> None:
    """Make a new SQLite store at ``temp``: schema at head, stamped, every connection
    closed (the write-ahead log checkpointed into the file and removed)."""
    url = URL.create("sqlite", database=str(temp)).render_as_string(hide_password=False)
    engine = make_engine(url)
    try:
        upgrade(engine, url, made_here=True)
    finally:
        engine.dispose()


def _refuse_an_upgrade(engine: Engine, path: Path | None) -> None:
    """A store read where it cannot be written must be at this reviewer's schema: an
    upgrade writes the file and a backup copy beside it."""
    rev = current_revision(engine)
    if rev != head_revision():
        raise ReadOnlyError(f"{path}: this store has schema {rev} and this reviewer must "
                            f"upgrade it to {head_revision()}, which writes beside it, in a "
                            "read-only place; nothing was changed. Copy it to a writable "
                            "folder and open the copy")


def is_default_store(option: str | None) -> bool:
    """Whether ``option`` (``--db``, the app's setting; None when not given) leaves the
    store to the default location in the user data folder: no option, no
    ``$REVIEWER_DB``. The app makes that store on its first start, and no other."""
    return option is None and not os.environ.get("REVIEWER_DB")


def no_store(path: Path, option: str | None, named_by: str | None = None) -> BadInputError:
    """The refusal of a command that may not make a store, given a SQLite file that does
    not exist (or is empty: ``_empty_file``).

    Fifth hostile pass, P40: a mistyped ``--db``, or the NFD twin of an NFC file name (a
    name pasted from macOS), made an empty store; ``queue`` printed nothing and exited 0,
    and ``export dataset good.jsonl`` replaced a good dataset with 0 examples.

    ``named_by`` (the app's Settings) is said in place of the advice: ``reviewer import``
    writes to the default store, not to the one Settings names (sixth pass, U3), and
    the app offers its own way out.
    """
    if is_default_store(option):
        return BadInputError(
            f"no database yet at {path} (the default store): import a run first (reviewer "
            "import RUN.jsonl, or reviewer demo), or name a database with --db")
    named = f", named by {named_by}" if named_by else \
        "" if option is not None else ", named by $REVIEWER_DB"
    if path.exists():
        advice = "" if named_by else " (import a run first, or check the path)"
        return BadInputError(f"no database at {path}{named}: the file is empty{advice}")
    twin = _unicode_twin(path)
    if twin is not None:
        return BadInputError(
            f"no database at {path}{named} (a file beside it, {twin.name}, has the same "
            "name spelt with other Unicode code points, NFC or NFD: type the name again "
            "or complete it with Tab)")
    advice = "" if named_by else " (import a run first, or check the path)"
    return BadInputError(f"no database at {path}{named}{advice}")


def _empty_file(path: Path) -> bool:
    """Whether ``path`` is an empty file with no write-ahead log beside it: no database
    yet (a copy that failed on a full disk, ``touch``), which a reader would otherwise
    report as an empty store."""
    wal = Path(f"{path}-wal")
    return (path.is_file() and path.stat().st_size == 0
            and (not wal.exists() or wal.stat().st_size == 0))


def _unicode_twin(path: Path) -> Path | None:
    """A file beside ``path`` whose name is ``path``'s in another Unicode normalization
    (``café`` typed as e + U+0301 where the file has U+00E9, or the reverse)."""
    key = unicodedata.normalize("NFC", path.name)
    try:
        names = os.listdir(path.parent)
    except OSError:
        return None
    for name in names:
        if name != path.name and unicodedata.normalize("NFC", name) == key:
            return path.parent / name
    return None


def _refuse_odd_file(path: Path) -> None:
    """Refuse what is no database file, or a database file with other names.

    A folder or a device is no database at all: a device made SQLite say "disk I/O
    error", and a folder's link count passed for hard links (the third hostile pass).
    SQLite finds its WAL and journal by the name it was opened with: two processes
    opening one file by two names write two WALs for one database, and decisions were
    lost (2 of 16 in the hostile pass, cc02). Symbolic links are followed before this
    (``to_url``), so only hard links reach the second test.
    """
    kind = special_file(path)
    if kind is not None:  # the user named the wrong thing: bad input (U9 of pass six)
        raise BadInputError(f"{path}: is {kind}, not a database file; give a database file "
                         "(reviewer import makes a new one where there is none)")
    links = path.stat().st_nlink
    if links > 1:  # a creation killed before it removed its temporary name?
        clear_unfinished(path)
        links = path.stat().st_nlink
    if links > 1:
        raise StoreError(f"{path}: this database file has {links} names (hard links); "
                         "SQLite keeps its journal beside each name, so two names can lose "
                         "decisions. Open it by one name only (copy it, or remove the "
                         "other links); left untouched")


def _half_made(conn: sqlite3.Connection, tables: set[str]) -> bool:
    """Whether ``tables`` (no schema version stamped) are a store whose creation was
    killed before it was stamped: only reviewer's own tables, and not one row in them.

    Sixth hostile pass, U2: older versions built a new store in place, and a kill left
    such a file, refused by every command "for good". A file with any row, or a table
    reviewer never made, is not called so (another application's file).
    """
    ours = set(models.Base.metadata.tables) | {"alembic_version"}
    own = {name for name in tables if not name.startswith(("sqlite_", "attempt_search"))}
    if not own - {"alembic_version"} or not own <= ours:
        return False
    return all(conn.execute(f'SELECT 1 FROM "{name}" LIMIT 1').fetchone() is None
               for name in sorted(own))


def _refuse_non_sqlite(path: Path, query: str = READ_ONLY) -> None:
    """Refuse a file that is not SQLite, another application's SQLite file, or a newer
    schema, before anything is written to it.

    The engine's first connection switches the file to WAL, which rewrites its header; so
    the file is read here through a read-only SQLite connection and refused while it is
    still byte for byte what it was. Read through SQLite, never ``open()``: closing any
    descriptor of a SQLite file drops every POSIX lock this process holds on it, and
    another process would then take the WAL for unused and delete it under a live store.
    """
    try:
        # ``uri`` makes the path absolute: a relative one has no file URI (fifth hostile
        # pass, P41: --db sqlite:///u.db on an existing file was an internal error).
        # ``query``: read-only, or immutable for a store in a read-only place (P26).
        conn = sqlite3.connect(uri(path, query), uri=True)
        try:
            tables = {name for (name,) in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
            stamp = conn.execute("SELECT version_num FROM alembic_version").fetchone() \
                if "alembic_version" in tables else None
            half_made = stamp is None and _half_made(conn, tables)
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        if getattr(exc, "sqlite_errorcode", None) == SQLITE_READONLY_ROLLBACK:
            # A hot journal: a program crashed inside a transaction on this file, and
            # only a writer may roll it back. It was reported as "read-only" (dl16).
            raise StoreError(
                f"{path}: another program was interrupted while writing this file (its "
                f"unfinished transaction is in {path.name}-journal); open it once with that "
                "program or the sqlite3 shell to recover it; left untouched") from None
        if "not a database" in str(exc):
            raise StoreError(f"{path}: is not a reviewer database (not a SQLite file); "
                             "left untouched") from None
        translated = explain_db_error(exc, f"sqlite:///{path}", OPENING)
        if translated is not None and not isinstance(translated, StoreError):
            raise translated from exc  # read-only, disk full: say so, not "cannot open"
        raise StoreError(f"{path}: cannot open the database ({exc}); left untouched") from exc
    rev = stamp[0] if stamp else None
    if half_made:
        raise StoreError(f"{path}: was left half-made by an interrupted first start "
                         "(tables, no schema version, not one row); it holds no decision: "
                         "delete it (and its -wal and -shm files, if any) and start again "
                         "(left untouched)")
    if rev is None and tables - {"alembic_version"}:
        raise StoreError(f"{path}: has tables but no reviewer schema version; refusing to "
                         "touch it (left untouched)")
    if rev is not None and rev not in _known_revisions():
        raise StoreError(f"{unknown_schema(str(path), rev)} (left untouched)")

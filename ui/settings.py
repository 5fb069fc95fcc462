"""User settings kept with QSettings (organization "reviewer"): the Settings dialog's
values, window geometries, and the review window's last filter."""

from __future__ import annotations

import errno
import itertools
import os
import re
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, QByteArray, QCoreApplication, QSettings

from reviewer.errors import BadInputError
from reviewer.input_bytes import special_file
from reviewer.judge.host import normalize_host
from reviewer.outputs import database_kind
from reviewer.review.identity import (
    FALLBACK_NAME,
    case_twin_refusal,
    default_reviewer,
    reviewer_name,
)
from reviewer.settings_files import APPLICATION, ORGANIZATION, settings_files
from reviewer.settings_write import Refusal, link_at_start, read_text, write_settings
from reviewer.text_rules import storable

LANGUAGES = ("system", "en", "fr")
DEFAULT_HOST = "http://127.0.0.1:11434"
DEFAULT_MODEL = "qwen3.6:35b-a3b"


@dataclass
class AppSettings:
    """What the Settings dialog edits."""

    reviewer: str
    ollama_host: str
    ollama_model: str
    database: str
    language: str
    auto_advance: bool
    judge_think: bool = False  # second opinions: let a reasoning judge think (--think)


def usable_reviewer(stored: str) -> tuple[str, str | None]:
    """The name to decide as, and why the stored one is not used (None when it is).

    A name saved by an older version may fail today's rule (``reviewer_name``): it is
    left in the settings file, not used; the default name is used until the reviewer
    picks a valid one in Settings. Its decisions stay in the store under it.
    """
    problem = None
    if stored.strip():
        try:
            return reviewer_name(stored), None
        except BadInputError as exc:
            problem = str(exc)
    try:
        name = default_reviewer()
    except BadInputError as exc:  # $REVIEWER_NAME or the login name fails the rule too
        name, problem = FALLBACK_NAME, problem or str(exc)
    return name, problem


def check_values(s: AppSettings, known: Sequence[str] = ()) -> AppSettings:
    """The settings as they will be stored, or BadInputError saying which is wrong.

    ``known``: the reviewers the store knows; a name that differs from one of them only
    by case is refused, naming it (ninth hostile pass, N2)."""
    for what, value in (("the Ollama host", s.ollama_host), ("the judge model", s.ollama_model),
                        ("the database", s.database)):
        storable(value, what)
    if s.ollama_host.strip():  # empty: the default host; else the judge's own rule
        normalize_host(s.ollama_host)
    name = reviewer_name(s.reviewer)
    twin = case_twin_refusal(name, known)
    if twin is not None:
        raise twin
    # replace(), not a new AppSettings: a field added later (judge_think) is kept.
    return replace(s, reviewer=name, ollama_host=s.ollama_host.strip(),
                   ollama_model=s.ollama_model.strip(), database=s.database.strip())


# Where the settings live in memory: a file QSettings can never create (nothing is ever
# made under /dev/null), so its own writes (``sync``, the event after each change, its
# destructor) fail without a word and it never reads anything back. One name per
# ``Settings``: QSettings shares the memory of every object naming one file.
MEMORY = Path(os.devnull) / ORGANIZATION
_memories = itertools.count(1)


def _in_memory() -> QSettings:
    return QSettings(str(MEMORY / f"{APPLICATION}-{os.getpid()}-{next(_memories)}.conf"),
                     QSettings.Format.IniFormat)


def _scratch() -> tempfile.TemporaryDirectory[str]:
    """A private folder for QSettings' copies (mode 0700, removed after use), in memory
    (``/dev/shm``) where there is one: QSettings fsyncs what it writes, and a copy on disk
    doubled the time of each write."""
    shm = "/dev/shm"
    where = shm if os.path.isdir(shm) and os.access(shm, os.W_OK | os.X_OK) else None
    return tempfile.TemporaryDirectory(prefix="reviewer-settings-", dir=where)


def _parsed(path: Path) -> list[tuple[str, object]]:
    """The settings in the file ``path``, read by QSettings itself (its escapes,
    ``@ByteArray``…) from a copy of its bytes in a private folder, never from the user's
    file; from the file itself, never set, when no temporary folder can be made."""
    data = read_text(path)
    try:
        with _scratch() as scratch:
            copy = Path(scratch) / f"{APPLICATION}.conf"
            copy.write_bytes(data)
            return _values(QSettings(str(copy), QSettings.Format.IniFormat))
    except OSError:
        return _values(QSettings(str(path), QSettings.Format.IniFormat)) if data else []


def _values(read: QSettings) -> list[tuple[str, object]]:
    return [(key, read.value(key)) for key in read.allKeys()]


def _user_settings() -> tuple[QSettings, Path, Refusal | None]:
    """The user's settings, held in memory; the application's file (the only one the app
    writes), and why it is not written when it is kept for this session only; refused
    (BadInputError) when a settings file is not a regular file, or is a database.

    QSettings read its files as it was constructed: a FIFO there (nm43 of the hostile
    pass) froze the app before its window, waiting for a writer that never came; a device
    or a folder is no better. On Linux these are the application's file and the
    organisation's fallback, under the configuration folder (``$XDG_CONFIG_HOME``),
    computed in ``reviewer.settings_files`` so that the CLI refuses to write over them.

    Seventh hostile pass, S3: QSettings writes through a symbolic link (it replaces the
    link's target), so ``reviewer.conf`` linked to a store turned that store into INI
    text on quit, decisions included. A settings file that is a SQLite database (or one
    of its files), through a link or not, is refused: the app never reads a database as
    its settings nor writes over one. The application's file being any other link
    (dotfiles kept in a repository, a slip of tab completion onto another text file) is
    read, and the settings are kept in memory for the session, never written through the
    link; the window says so once.

    Eighth hostile pass, S4: the same file made a link while the app ran was written
    through all the same, at the next change or on quit. QSettings now never reads nor
    writes the user's files: they are read here once, and every write goes through
    ``Settings.write``, which looks at the file again first (``reviewer.settings_write``).
    """
    app_file, org_file = settings_files()
    for path in (app_file, org_file):
        kind = special_file(path)
        if kind is not None:
            raise BadInputError(f"{path}: the settings file is {kind}, not a regular file; "
                                "remove or rename it")
        database = database_kind(path)
        if database is not None and path.is_symlink():
            raise BadInputError(f"{path}: the settings file is a link to "
                                f"{os.path.realpath(path)}, {database}; the app never "
                                "writes its settings over one; remove the link")
        if database is not None:
            raise BadInputError(f"{path}: the settings file is {database}; the app never "
                                "writes its settings over one; remove or rename it")
    kept = _in_memory()
    for path in (org_file, app_file):  # the application's values over the fallback's
        for key, value in _parsed(path):
            kept.setValue(key, value)
    return kept, app_file, link_at_start(app_file)


# What the window says once when the settings are kept for this session only (context
# "Settings"; %1 the settings file, %2 what is there now).
_SAID = {
    "symlink": QT_TRANSLATE_NOOP("Settings", "Settings are kept for this session only: %1 is a "
                                 "symbolic link to %2, and the app writes its settings only "
                                 "to a regular file there."),
    "hardlink": QT_TRANSLATE_NOOP("Settings", "Settings are kept for this session only: %1 "
                                  "has another name elsewhere (a hard link), and the app "
                                  "writes its settings only to a file of its own there."),
    "replaced": QT_TRANSLATE_NOOP("Settings", "Settings are kept for this session only: %1 "
                                  "was replaced by %2, not a settings file, and the app "
                                  "leaves it as it is."),
}
_REPLACED_BY = {
    "database": QT_TRANSLATE_NOOP("Settings", "a database"),
    "not_text": QT_TRANSLATE_NOOP("Settings", "a file that is not text"),
    "a folder": QT_TRANSLATE_NOOP("Settings", "a folder"),
    "a pipe": QT_TRANSLATE_NOOP("Settings", "a pipe"),
    "a device": QT_TRANSLATE_NOOP("Settings", "a device"),
    "not a file": QT_TRANSLATE_NOOP("Settings", "something that is not a file"),
}


def session_only_text(refused: Refusal, *, translated: bool = True) -> str:
    """The one line saying why the settings are kept for this session only (English when
    not ``translated``: a line on standard error)."""
    def tr(text: object) -> str:
        return QCoreApplication.translate("Settings", str(text)) if translated else str(text)

    if refused.why in ("symlink", "hardlink"):
        template = tr(_SAID[refused.why])
        other = str(refused.target or "")
    else:
        template = tr(_SAID["replaced"])
        what = refused.kind if refused.why == "special" else refused.why
        other = tr(_REPLACED_BY.get(what or "", _REPLACED_BY["not a file"]))
    values = {"%1": str(refused.path), "%2": other}  # one pass: a path may hold "%2"
    return re.sub("%[12]", lambda m: values[m.group()], template)


class Settings:
    """Typed access to the stored settings.

    ``reviewer_problem`` says why the stored reviewer name is not used (see
    ``usable_reviewer``), after ``load``; None when it is; ``stored_name_refused`` the
    same reason when it is a name saved in the settings (not the login name) that fails.
    ``session_only`` is why the settings file is not written (a ``Refusal``: a link, or
    replaced by something that is no settings file) once the settings are kept in memory
    for the session (see ``_user_settings``, ``write``); None while they are written.
    ``on_session_only`` is called with it once, when a write finds the file so (the
    window says it).

    The user's settings (``Settings()``) are held in memory and written by ``write``
    alone; settings handed in (``Settings(QSettings(...))``, the tests' own file) are
    QSettings' to write.
    """

    def __init__(self, qsettings: QSettings | None = None) -> None:
        self.session_only: Refusal | None = None
        self.on_session_only: Callable[[Refusal], None] | None = None
        self._file: Path | None = None  # the user's file, written by ``write``
        self._changed: set[str] = set()  # keys set since the last write
        if qsettings is None:
            qsettings, self._file, self.session_only = _user_settings()
        self.q = qsettings
        self.reviewer_problem: str | None = None
        self.stored_name_refused: str | None = None

    def file_name(self) -> str:
        """The settings file as the reviewer knows it (the link, when kept in memory)."""
        return str(self._file) if self._file is not None else self.q.fileName()

    def _set(self, key: str, value: object) -> None:
        self.q.setValue(key, value)
        self._changed.add(key)

    def write(self) -> None:
        """Put the changes on disk now, unless the file is no longer the settings file:
        then they are kept in memory for the session, and ``on_session_only`` is told.

        Right before each write the file is looked at again (``write_settings``): never
        written through a link, nor over a file with another name, a folder, a pipe, a
        database or binary data; a settings file another window wrote meanwhile gets
        this session's changes over its own values. A file system that refuses (a
        read-only folder, a full disk) leaves the changes in memory, written next time,
        without a word: QSettings' own behaviour.
        """
        if self._file is None:
            self.q.sync()
            return
        if self.session_only is not None or not self._changed:
            return
        try:
            refused = write_settings(self._file, self._merged)
        except OSError:
            return
        if refused is None:
            self._changed.clear()
            return
        self.session_only = refused
        if self.on_session_only is not None:
            self.on_session_only(refused)

    def _merged(self, data: bytes) -> bytes:
        """``data`` (the settings file as it is now) with this session's changes over it,
        as QSettings writes INI text; read and written in a private folder."""
        with _scratch() as scratch:
            copy = Path(scratch) / f"{APPLICATION}.conf"
            copy.write_bytes(data)
            there = QSettings(str(copy), QSettings.Format.IniFormat)
            for key in sorted(self._changed):
                if self.q.contains(key):
                    there.setValue(key, self.q.value(key))
                else:
                    there.remove(key)
            there.sync()
            status = there.status()
            del there
            if status != QSettings.Status.NoError:
                raise OSError(errno.EIO, f"QSettings could not write {copy}")
            return copy.read_bytes()

    def load(self) -> AppSettings:
        """The stored settings, with defaults for what was never set."""
        q = self.q
        language = str(q.value("language", "system"))
        stored = str(q.value("reviewer", "") or "")
        reviewer, self.reviewer_problem = usable_reviewer(stored)
        # A name the reviewer saved that fails the rule (not merely a login name that
        # does): the app does not start under another name (ui/name_choice.py).
        self.stored_name_refused = self.reviewer_problem if stored.strip() else None
        return AppSettings(
            reviewer=reviewer,
            ollama_host=str(q.value("ollama/host", DEFAULT_HOST)),
            ollama_model=str(q.value("ollama/model", DEFAULT_MODEL)),
            database=str(q.value("database", "")),
            language=language if language in LANGUAGES else "system",
            auto_advance=str(q.value("auto_advance", "true")).lower() in ("true", "1"),
            judge_think=str(q.value("ollama/think", "false")).lower() in ("true", "1"),
        )

    def save(self, s: AppSettings) -> None:
        """Store the settings now (synced to disk); BadInputError when one is not valid."""
        s = check_values(s)
        self._set("reviewer", s.reviewer)
        self._set("ollama/host", s.ollama_host.strip() or DEFAULT_HOST)
        self._set("ollama/model", s.ollama_model.strip() or DEFAULT_MODEL)
        self._set("database", s.database.strip())
        self._set("language", s.language if s.language in LANGUAGES else "system")
        self._set("auto_advance", "true" if s.auto_advance else "false")
        self._set("ollama/think", "true" if s.judge_think else "false")
        self.write()

    def set_database(self, database: str) -> None:
        """Keep ``database`` as Settings' Database (empty: the default store), the other
        settings as they are."""
        self._set("database", database)
        self.write()

    def review_filter(self) -> dict[str, str]:
        """The review window's last filter boxes (empty before the first filter change)."""
        q = self.q
        q.beginGroup("review/filter")
        try:
            return {str(k): str(q.value(k)) for k in q.childKeys()}
        finally:
            q.endGroup()

    def set_review_filter(self, state: dict[str, str]) -> None:
        """Remember the review window's filter boxes (restored at the next start)."""
        for key, value in state.items():
            self._set(f"review/filter/{key}", value)
        self.write()

    def geometry(self, name: str) -> QByteArray | None:
        """A saved window geometry or splitter state."""
        value = self.q.value(f"window/{name}")
        return value if isinstance(value, QByteArray) else None

    def set_geometry(self, name: str, value: QByteArray) -> None:
        """Remember a window geometry or splitter state."""
        self._set(f"window/{name}", value)
        self.write()

    def tool_state(self, name: str) -> str | None:
        """What a Tools window kept of its last use (e.g. the export dialog's choices)."""
        value = self.q.value(f"window/{name}")
        return value if isinstance(value, str) else None

    def set_tool_state(self, name: str, value: str) -> None:
        """Keep what a Tools window wants back next time it opens."""
        self._set(f"window/{name}", value)
        self.write()

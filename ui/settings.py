"""User settings kept with QSettings (organization "reviewer"): the Settings dialog's
values, window geometries, and the review window's last filter."""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings

from reviewer.errors import BadInputError
from reviewer.input_bytes import special_file
from reviewer.judge.host import normalize_host
from reviewer.outputs import database_kind
from reviewer.review.identity import FALLBACK_NAME, default_reviewer, reviewer_name
from reviewer.settings_files import APPLICATION, ORGANIZATION, settings_files
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


def check_values(s: AppSettings) -> AppSettings:
    """The settings as they will be stored, or BadInputError saying which is wrong."""
    for what, value in (("the Ollama host", s.ollama_host), ("the judge model", s.ollama_model),
                        ("the database", s.database)):
        storable(value, what)
    if s.ollama_host.strip():  # empty: the default host; else the judge's own rule
        normalize_host(s.ollama_host)
    # replace(), not a new AppSettings: a field added later (judge_think) is kept.
    return replace(s, reviewer=reviewer_name(s.reviewer), ollama_host=s.ollama_host.strip(),
                   ollama_model=s.ollama_model.strip(), database=s.database.strip())


# A file QSettings can never create (nothing is ever made under /dev/null): settings kept
# there stay in memory, Qt's own behaviour for a settings file it cannot write.
SESSION_ONLY = Path(os.devnull) / ORGANIZATION / f"{APPLICATION}.conf"


def _user_settings() -> tuple[QSettings, tuple[Path, Path] | None]:
    """The user's settings, and (link, target) when they are kept for this session only;
    refused (BadInputError) when a file QSettings would read is not a regular file, or
    is a database.

    QSettings reads its files as it is constructed: a FIFO there (nm43 of the hostile
    pass) froze the app before its window, waiting for a writer that never came; a device
    or a folder is no better. On Linux these are the application's file and the
    organisation's fallback, under the configuration folder (``$XDG_CONFIG_HOME``),
    computed in ``reviewer.settings_files`` so that the CLI refuses to write over them.

    Seventh hostile pass, S3: QSettings writes through a symbolic link (it replaces the
    link's target), so ``reviewer.conf`` linked to a store turned that store into INI
    text on quit, decisions included. A settings file that is a SQLite database (or one
    of its files), through a link or not, is refused: the app never reads a database as
    its settings nor writes over one. The application's file (the one Qt writes) being
    any other link (dotfiles kept in a repository, a slip of tab completion onto another
    text file) is read, and the settings are kept in memory for the session, never
    written through the link; the window says so once.
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
    if not app_file.is_symlink():
        return QSettings(ORGANIZATION, APPLICATION), None
    kept = QSettings(str(SESSION_ONLY), QSettings.Format.IniFormat)
    for path in (org_file, app_file):  # the application's values over the fallback's
        read = QSettings(str(path), QSettings.Format.IniFormat)  # read, never set: not written
        for key in read.allKeys():
            kept.setValue(key, read.value(key))
    return kept, (app_file, Path(os.path.realpath(app_file)))


class Settings:
    """Typed access to the stored settings.

    ``reviewer_problem`` says why the stored reviewer name is not used (see
    ``usable_reviewer``), after ``load``; None when it is; ``stored_name_refused`` the
    same reason when it is a name saved in the settings (not the login name) that fails.
    ``session_only`` is (link, target) when the settings file is a symbolic link: read,
    kept in memory, never written (see ``_user_settings``); None otherwise.
    """

    def __init__(self, qsettings: QSettings | None = None) -> None:
        self.session_only: tuple[Path, Path] | None = None
        if qsettings is None:
            qsettings, self.session_only = _user_settings()
        self.q = qsettings
        self.reviewer_problem: str | None = None
        self.stored_name_refused: str | None = None

    def file_name(self) -> str:
        """The settings file as the reviewer knows it (the link, when kept in memory)."""
        return str(self.session_only[0]) if self.session_only else self.q.fileName()

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
        q = self.q
        q.setValue("reviewer", s.reviewer)
        q.setValue("ollama/host", s.ollama_host.strip() or DEFAULT_HOST)
        q.setValue("ollama/model", s.ollama_model.strip() or DEFAULT_MODEL)
        q.setValue("database", s.database.strip())
        q.setValue("language", s.language if s.language in LANGUAGES else "system")
        q.setValue("auto_advance", "true" if s.auto_advance else "false")
        q.setValue("ollama/think", "true" if s.judge_think else "false")
        q.sync()

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
        q = self.q
        q.beginGroup("review/filter")
        try:
            for key, value in state.items():
                q.setValue(key, value)
        finally:
            q.endGroup()
        q.sync()

    def geometry(self, name: str) -> QByteArray | None:
        """A saved window geometry or splitter state."""
        value = self.q.value(f"window/{name}")
        return value if isinstance(value, QByteArray) else None

    def set_geometry(self, name: str, value: QByteArray) -> None:
        """Remember a window geometry or splitter state."""
        self.q.setValue(f"window/{name}", value)
        self.q.sync()

    def tool_state(self, name: str) -> str | None:
        """What a Tools window kept of its last use (e.g. the export dialog's choices)."""
        value = self.q.value(f"window/{name}")
        return value if isinstance(value, str) else None

    def set_tool_state(self, name: str, value: str) -> None:
        """Keep what a Tools window wants back next time it opens."""
        self.q.setValue(f"window/{name}", value)
        self.q.sync()

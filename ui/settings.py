"""User settings kept with QSettings (organization "reviewer")."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QByteArray, QSettings

from reviewer.review.team import default_reviewer

ORGANIZATION = "reviewer"
APPLICATION = "reviewer"
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


class Settings:
    """Typed access to the stored settings."""

    def __init__(self, qsettings: QSettings | None = None) -> None:
        self.q = qsettings or QSettings(ORGANIZATION, APPLICATION)

    def load(self) -> AppSettings:
        """The stored settings, with defaults for what was never set."""
        q = self.q
        language = str(q.value("language", "system"))
        return AppSettings(
            reviewer=str(q.value("reviewer", "") or default_reviewer()),
            ollama_host=str(q.value("ollama/host", DEFAULT_HOST)),
            ollama_model=str(q.value("ollama/model", DEFAULT_MODEL)),
            database=str(q.value("database", "")),
            language=language if language in LANGUAGES else "system",
            auto_advance=str(q.value("auto_advance", "true")).lower() in ("true", "1"),
            judge_think=str(q.value("ollama/think", "false")).lower() in ("true", "1"),
        )

    def save(self, s: AppSettings) -> None:
        """Store the settings now (synced to disk)."""
        q = self.q
        q.setValue("reviewer", s.reviewer.strip() or default_reviewer())
        q.setValue("ollama/host", s.ollama_host.strip() or DEFAULT_HOST)
        q.setValue("ollama/model", s.ollama_model.strip() or DEFAULT_MODEL)
        q.setValue("database", s.database.strip())
        q.setValue("language", s.language if s.language in LANGUAGES else "system")
        q.setValue("auto_advance", "true" if s.auto_advance else "false")
        q.setValue("ollama/think", "true" if s.judge_think else "false")
        q.sync()

    def geometry(self, name: str) -> QByteArray | None:
        """A saved window geometry or splitter state."""
        value = self.q.value(f"window/{name}")
        return value if isinstance(value, QByteArray) else None

    def set_geometry(self, name: str, value: QByteArray) -> None:
        """Remember a window geometry or splitter state."""
        self.q.setValue(f"window/{name}", value)
        self.q.sync()

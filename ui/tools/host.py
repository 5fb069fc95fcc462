"""What the Tools windows need from the window that opens them (a ``typing.Protocol``).

The main window satisfies it; the tools never import the window, so ``ui.tools`` does
not depend on ``ui.review`` (the window depends on the tools' menu, one way).
"""

from __future__ import annotations

from typing import Protocol

from ui.settings import AppSettings, Settings
from ui.tasks import TaskManager


class ToolHost(Protocol):
    """The app's task manager, whose decisions the tools count as labels, the settings
    (``config``, the values; ``settings``, the store where window geometries are kept)."""

    @property
    def tasks(self) -> TaskManager:
        """The app's one task manager."""
        ...

    @property
    def reviewer(self) -> str:
        """The reviewer the tools save versions as."""
        ...

    @property
    def current_check(self) -> str | None:
        """The check of the attempt on screen the back-test editor opens on (the one that
        refused it, else its first), None without one."""
        ...

    @property
    def config(self) -> AppSettings:
        """The settings (judge host and model)."""
        ...

    @property
    def settings(self) -> Settings:
        """Where the tools keep their geometry and the export dialog its last choices."""
        ...

"""Where the app keeps its settings, computed without Qt.

The GUI keeps its settings where ``QSettings(ORGANIZATION, APPLICATION)`` would
(``ui.settings``): on Linux an INI file under Qt's generic configuration folder, plus the
organisation's file read as a fallback; it reads and writes them itself, at these paths
(``reviewer.settings_write``). The CLI needs the same paths without importing Qt: an export
or ``grade -o`` aimed at the settings file replaced it, and the app then reset it to its
defaults (the reviewer name, the judge's host and model and the last filter were lost;
fourth hostile pass, S1). ``ui.settings`` uses these paths too, and a test checks that Qt
names the same file.
"""

from __future__ import annotations

import os
from pathlib import Path

ORGANIZATION = "reviewer"
APPLICATION = "reviewer"


def config_folder() -> Path:
    """Qt's ``GenericConfigLocation`` on Linux: ``$XDG_CONFIG_HOME`` when it is an
    absolute path (Qt ignores a relative one), else ``$HOME/.config``, with Qt's ``/``
    for an empty or unset ``$HOME`` (``QDir::homePath``)."""
    xdg = os.environ.get("XDG_CONFIG_HOME", "")
    if os.path.isabs(xdg):
        return Path(xdg)
    return Path(os.environ.get("HOME") or "/") / ".config"


def settings_files() -> tuple[Path, Path]:
    """The settings files: the application's (the one the app writes) first, then the
    organisation's fallback."""
    folder = config_folder()
    return folder / ORGANIZATION / f"{APPLICATION}.conf", folder / f"{ORGANIZATION}.conf"

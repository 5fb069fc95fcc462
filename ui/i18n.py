"""Interface language: English source strings, French from a compiled Qt translation."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from reviewer.assets import assets_dir

LANGUAGES = ("en", "fr")


def choose_language(requested: str | None, setting: str) -> str:
    """``--lang`` first, then the setting, then the system locale (French or English)."""
    for choice in (requested, setting):
        if choice in LANGUAGES:
            return choice
    return "fr" if QLocale.system().language() == QLocale.Language.French else "en"


def install(app: QCoreApplication, language: str) -> list[QTranslator]:
    """Load the app's and Qt's own translations for ``language``; keep the result alive."""
    installed: list[QTranslator] = []
    if language == "en":
        return installed
    ours = QTranslator(app)
    if ours.load(f"reviewer_{language}", str(assets_dir() / "translations")):
        app.installTranslator(ours)
        installed.append(ours)
    qt = QTranslator(app)
    if qt.load(f"qtbase_{language}",
               QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
        app.installTranslator(qt)
        installed.append(qt)
    return installed


def remove(app: QCoreApplication, translators: list[QTranslator]) -> None:
    """Uninstall translators installed by :func:`install`."""
    for t in translators:
        app.removeTranslator(t)

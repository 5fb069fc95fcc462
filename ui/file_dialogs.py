"""Qt's own file dialog, made never to open the files it lists.

Fifteenth hostile pass, P15-2: Qt's dialog guesses each listed file's type (its icon and
its "Type" column) from the file's first bytes, opening and closing every file of the
folder, the open store and its ``-wal`` and ``-shm`` files among them. On POSIX, closing
any descriptor of a file drops every ``fcntl`` lock this process holds on it, so SQLite's
locks were gone: the next process to close the store took itself for the last one,
checkpointed and deleted the write-ahead log, and the app went on committing into the
deleted log. Scores then showed as stored that no other process could read, written only
when the app quit, and lost to SIGKILL. Here a file's type is read from its name alone.
"""

from __future__ import annotations

from PySide6.QtCore import QFileInfo, QMimeDatabase
from PySide6.QtGui import QAbstractFileIconProvider, QIcon
from PySide6.QtWidgets import QFileDialog, QFileIconProvider, QWidget


class TypesByName(QFileIconProvider):
    """Icons and type names from a file's name, never from its content."""

    def __init__(self) -> None:
        super().__init__()
        self._mimes = QMimeDatabase()

    def icon(self, which: QFileInfo | QAbstractFileIconProvider.IconType) -> QIcon:
        """The icon of a folder or a file, chosen without opening anything."""
        if isinstance(which, QAbstractFileIconProvider.IconType):
            return super().icon(which)
        kind = (QAbstractFileIconProvider.IconType.Folder if which.isDir()
                else QAbstractFileIconProvider.IconType.File)
        return super().icon(kind)

    def type(self, info: QFileInfo) -> str:
        """A file's type as its name says it; anything else as Qt names it (a folder)."""
        if not info.isFile():
            return super().type(info)
        mime = self._mimes.mimeTypeForFile(info.fileName(),
                                           QMimeDatabase.MatchMode.MatchExtension)
        return mime.comment() or mime.name()


_provider: list[TypesByName] = []  # one for the app's life: a dialog does not own it


def types_by_name() -> TypesByName:
    """The app's one provider (made on first use, once the application exists)."""
    if not _provider:
        _provider.append(TypesByName())
    return _provider[0]


def file_dialog(parent: QWidget | None, title: str) -> QFileDialog:
    """Qt's own dialog (the keyboard drives it anywhere) that opens no listed file."""
    dialog = QFileDialog(parent, title)
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog, True)
    dialog.setIconProvider(types_by_name())
    return dialog


def _chosen(dialog: QFileDialog) -> str:
    """The file or folder ``dialog`` (run modally) was closed on; "" when cancelled."""
    if dialog.exec() != QFileDialog.DialogCode.Accepted or not dialog.selectedFiles():
        return ""
    return dialog.selectedFiles()[0]


def save_file_name(parent: QWidget, title: str, start: str) -> str:
    """A file name to write, from a dialog that opens no listed file ("" when cancelled).
    The Export dialog's Browse used Qt's static dialog, which reads the listed files:
    browsing the store's folder dropped its locks (P15-2)."""
    dialog = file_dialog(parent, title)
    dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
    dialog.setFileMode(QFileDialog.FileMode.AnyFile)
    dialog.selectFile(start)
    return _chosen(dialog)


def existing_folder(parent: QWidget, title: str, start: str) -> str:
    """A folder, from a dialog that opens no listed file ("" when cancelled)."""
    dialog = file_dialog(parent, title)
    dialog.setFileMode(QFileDialog.FileMode.Directory)
    dialog.setOption(QFileDialog.Option.ShowDirsOnly, True)
    dialog.setDirectory(start)
    return _chosen(dialog)


def existing_file(parent: QWidget | None, title: str, start: str, filters: str) -> str:
    """A file to open, from a dialog that opens no listed file ("" when cancelled)."""
    dialog = file_dialog(parent, title)
    dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
    dialog.setNameFilters(filters.split(";;"))
    dialog.setDirectory(start)
    return _chosen(dialog)

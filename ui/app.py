"""``run_app(args)``: open the store, load the demo on first start, show the window.

The app's one task manager is made here, with the store, and handed to the main window
(which hands it to every tool): every store access of the GUI goes through it, in order.
It is shut down (its threads joined) before the store closes.

``--screenshot PNG`` renders the window offscreen-ready, saves it and exits 0, so the
README screenshots are made by the app itself. A store that cannot be opened (not a
database, newer schema, busy) is one clear message box, then a non-zero exit.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time
from pathlib import Path
from typing import NoReturn

# The domain (SQLAlchemy, the models) before Qt: once PySide6 is imported, its import
# hook reads the source of every module imported after it (to see whether it uses
# PySide6's ``__feature__`` options), some 250 files at each start that never use Qt.
from reviewer.atomic import FileSet, made_folder, made_folder_text
from reviewer.errors import BadInputError, ReviewerError
from reviewer.ingest.demo import ensure_demo
from reviewer.keys import AttemptKey
from reviewer.outputs import Output
from reviewer.review.identity import refusal_in, reviewer_name, reviewers_of
from reviewer.rule import ecmascript
from reviewer.settings_files import APPLICATION, ORGANIZATION
from reviewer.store import Store, open_store
from reviewer.store.database import database_url, is_default_store
from reviewer.unfinished import remove_unfinished

# isort: split
from PySide6.QtCore import (
    QBuffer,
    QByteArray,
    QCoreApplication,
    QIODevice,
    QMessageLogContext,
    Qt,
    QThread,
    QtMsgType,
    qInstallMessageHandler,
)
from PySide6.QtWidgets import QApplication, QMessageBox

from ui import i18n
from ui.held_signals import released
from ui.interrupt import closing_on_signals
from ui.name_choice import checked_name, refusal
from ui.review.window import MainWindow
from ui.settings import AppSettings, Settings
from ui.store_choice import Declined, open_from_settings, settings_source
from ui.tasks import TaskManager

SCREENSHOT_TIMEOUT_S = 30.0
SCREENSHOT_SIZE = (1500, 950)


def application() -> QApplication:
    """The running QApplication, created if needed."""
    app = QApplication.instance()
    if isinstance(app, QApplication):
        return app
    QCoreApplication.setOrganizationName(ORGANIZATION)
    QCoreApplication.setApplicationName(APPLICATION)
    return QApplication(sys.argv[:1])


def open_with_demo(url: str | None, named_by: str | None = None) -> Store:
    """Open the store and load the demo into it when it is empty.

    Only the default store (no ``--db``, no ``$REVIEWER_DB``, no database in Settings) is
    made here, on the app's first start. A path the reviewer typed that names no file is
    refused (``no database at PATH``): a mistyped or moved database made a new store with
    the demo in it, where the reviewer then decided and exported (fifth hostile pass,
    P40); ``reviewer --db PATH import RUN.jsonl`` (or ``demo``) makes a new one.
    ``named_by`` says where ``url`` was read, when not ``--db`` (Settings)."""
    store = open_store(url, create=is_default_store(url), named_by=named_by)
    try:
        ensure_demo(store)
    except BaseException:
        store.close()
        raise
    return store


def wait_ready(window: MainWindow, timeout: float = SCREENSHOT_TIMEOUT_S) -> bool:
    """Process events until the window has loaded what it shows."""
    deadline = time.monotonic() + timeout
    stable = 0
    while time.monotonic() < deadline:
        QApplication.processEvents()
        stable = stable + 1 if window.ready() else 0
        if stable >= 5:  # ready across several turns: no follow-up load is pending
            return True
        QThread.msleep(20)
    return False


def screenshot(window: MainWindow, out: Output) -> None:
    """Save the window as a PNG at ``out`` (checked by the output guard).

    The PNG is encoded in memory and written by ``reviewer.atomic``, like every other
    output: Qt's own ``save`` wrote the file in place, so a full disk or a file size limit
    left a partial PNG over the previous one, /dev/full was "could not write" (exit 1)
    rather than a full disk (exit 4), and a read-only folder was not said as such.
    """
    window.show()
    wait_ready(window)
    QApplication.processEvents()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not window.grab().save(buffer, "PNG"):
        raise ReviewerError(f"cannot write {out}: the window could not be encoded as PNG")
    buffer.close()
    with FileSet(checksum=False) as files:
        files.open(out).write(bytes(data.data()))


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def refuse_unless_png(out: Output) -> None:
    """A screenshot makes a new file of any name, or replaces a PNG image, nothing else:
    ``--screenshot run.jsonl`` wrote PNG bytes over a run file (tenth hostile pass Z8,
    twelfth P12-8). A stream (a FIFO, standard output) is written as any output is."""
    if out.stream or out.target is None:
        return
    try:
        with open(out.target, "rb") as fh:
            head = fh.read(len(PNG_SIGNATURE))
    except FileNotFoundError:
        return
    except OSError:
        return  # the write says what is wrong with it, as for any output
    if head and head != PNG_SIGNATURE:
        raise BadInputError(f"cannot write {out}: it is not a PNG image, and a screenshot "
                            "replaces only a PNG; nothing was written")


def _quiet_qt(kind: QtMsgType, _context: QMessageLogContext, message: str) -> None:
    """Qt's own messages in screenshot mode: a failure is our one line, so the platform
    plugin's notes ("does not support propagateSizeHints()") are left out, and only
    Qt's critical and fatal messages are shown."""
    if kind in (QtMsgType.QtCriticalMsg, QtMsgType.QtFatalMsg):
        print(message, file=sys.stderr)


def _session_reviewer(args: argparse.Namespace) -> str | None:
    """``--reviewer`` (of ``gui`` or global), checked; None when not given (the settings'
    name is used). An empty option is an error, not the stored name."""
    option = getattr(args, "reviewer", None)
    return None if option is None else reviewer_name(option, "--reviewer")


def _known_to_store(store: Store, settings: Settings, config: AppSettings,
                    reviewer: str | None, shot: Path | None) -> AppSettings:
    """The settings once the name the app decides under is one the store may take.

    Ninth hostile pass, N2: a name that differs only by case from a reviewer the store
    knows (``ALICE`` where ``alice`` decided) is refused before the window opens, naming
    the known spelling: from ``--reviewer``, ``$REVIEWER_NAME`` or the login name as a bad
    ``--reviewer`` is (a box, or one line with ``--screenshot``; exit 2), from Settings
    by the box that offers to set another (``ui/name_choice.py``)."""
    problem = refusal_in(store, reviewer or config.reviewer)
    if problem is None:
        return config
    if reviewer is not None or not str(settings.q.value("reviewer", "") or "").strip():
        raise problem
    known = reviewers_of(store)
    if shot is not None:  # no box in screenshot mode
        raise refusal(settings, known) or problem
    return checked_name(settings, config, known)


def run_app(args: argparse.Namespace) -> int:
    """Run the GUI (or take a screenshot) and return the exit code."""
    if getattr(args, "screenshot", None) is None or getattr(args, "debug", False):
        return _run_app(args)
    previous = qInstallMessageHandler(_quiet_qt)
    try:
        return _run_app(args)
    finally:
        qInstallMessageHandler(previous)


def _refused(exc: ReviewerError, shot: Path | None) -> int:
    """Why the app cannot start: one line with ``--screenshot``, else a box; the exit code."""
    if shot is not None:
        print(f"reviewer: {exc}", file=sys.stderr)
    else:
        title = QCoreApplication.translate("App", "Cannot start") \
            if isinstance(exc, BadInputError) else \
            QCoreApplication.translate("App", "Cannot open the database")
        box = QMessageBox(QMessageBox.Icon.Critical, title, str(exc))
        box.setTextFormat(Qt.TextFormat.PlainText)  # a path may contain "<…>"
        with released():  # waiting on the reviewer: Ctrl-C and SIGTERM act as usual
            box.exec()
    return exc.exit_code


def _open_chosen(option: str | None, settings: Settings, database: str,
                 shot: Path | None) -> Store:
    """The store of ``--db``, else of Settings (a box offers a way out when it cannot be
    opened, ``ui/store_choice.py``), else the default one."""
    if option is not None or not database:
        return open_with_demo(option)
    if shot is not None:  # no box in screenshot mode: the line names Settings
        return open_with_demo(database, named_by=settings_source(settings))
    return open_from_settings(settings, database, open_with_demo)


def _run_app(args: argparse.Namespace) -> int:
    app = application()
    shot: Path | None = getattr(args, "screenshot", None)
    try:
        settings = Settings()
    except BadInputError as exc:
        return _refused(exc, shot)
    config = settings.load()
    translators = i18n.install(app, i18n.choose_language(getattr(args, "lang", None),
                                                         config.language))
    option = getattr(args, "db", None)  # an empty --db is an error (database_url), not unset
    chosen = option if option is not None else (config.database or None)
    target: Output | None = None  # the checked screenshot destination
    try:
        # Boxes waiting on the reviewer, a store that may wait on a lock or a server:
        # Ctrl-C and SIGTERM act as usual here (ui/held_signals.py).
        with released():
            reviewer = _session_reviewer(args)
            refused = refusal(settings) if reviewer is None else None
            if refused is not None and shot is not None:  # no box in screenshot mode
                raise refused
            if refused is not None:  # a box: set a valid name, or Quit (ui/name_choice.py)
                config = checked_name(settings, config)
            if shot is not None:  # never over the database or its files (reviewer.outputs)
                from reviewer.exports.run import export_target  # only for a screenshot

                # Named as the open will name it: a bad URL in Settings was said "--db".
                named = "--db" if option is not None or not config.database else \
                    settings_source(settings)
                target = export_target(database_url(chosen, named), shot)
                refuse_unless_png(target)
            store = _open_chosen(option, settings, config.database, shot)
            try:
                config = _known_to_store(store, settings, config, reviewer, shot)
            except BaseException:
                store.close()
                raise
    except Declined as exc:  # Quit in the box that offered a way out
        i18n.remove(app, translators)
        return exc.exit_code
    except ReviewerError as exc:
        code = _refused(exc, shot)
        i18n.remove(app, translators)
        return code
    tasks = TaskManager(store)
    code = 1  # what a hard exit ends with, if nothing else said it
    try:
        window = MainWindow(tasks, settings, reviewer=reviewer)
        if getattr(args, "attempt", None):
            window.select_key(AttemptKey.parse(args.attempt))
        if target is not None:
            window.fits_screen = False  # the same picture whatever the screen, too
            window.resize(*SCREENSHOT_SIZE)  # the same picture whatever the saved geometry
            made = made_folder(target)  # named, as an export names it (P13-5)
            try:
                with released():  # a Ctrl-C held ends it before the PNG, one now too
                    screenshot(window, target)
            finally:
                window.close()
            if not target.is_stdout:  # the path, never after the PNG's own bytes
                print(f"{shot}{made_folder_text(made)}")
            code = 0
            return code
        code = _run_window(app, window)
        return code
    finally:
        if not tasks.shutdown():
            # A quit that left work unfinished is not a success (a signal keeps its code).
            abandon(tasks, code or 1)
        store.close()
        i18n.remove(app, translators)
        # Never free the ECMAScript engine's V8 context on the way out of the GUI: on a
        # large store it crashed the process on quit (exit 139); see abandon().
        ecmascript.abandon()


def abandon(tasks: TaskManager, code: int) -> NoReturn:
    """End the process now: a worker thread is still blocked after the quit's wait (a
    FIFO's ``open``, a PostgreSQL socket that stays silent) and nothing can stop it.

    Fifteenth hostile pass, P15-3 and P15-5: the quit waited for it for as long as it took,
    and so did Python's exit (Qt's thread pools wait for their threads when destroyed),
    deaf to SIGTERM and SIGINT. What was not waited for is said on standard error; what
    it had not committed is rolled back by the database when the process is gone; the
    temporary files of an export not yet in place are removed."""
    tasks.say_abandoned()
    remove_unfinished()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def _run_window(app: QApplication, window: MainWindow) -> int:
    """Show the window and run the event loop: its exit code; 130 after a Ctrl-C, 143
    after SIGTERM, 129 after SIGHUP (each closed the window as its close button does,
    ``ui/interrupt.py``)."""
    with closing_on_signals(window) as ended_by:
        window.show()
        # What start-up built (modules, the window) lives as long as the app: out of the
        # collector's reach, a full collection after a bulk action or a back-test scans
        # only what those made, not the whole heap with the GUI waiting on the lock.
        gc.freeze()
        gc.enable()  # off while the app started (ui.commands.gui.starting)
        code = app.exec()
        signalled = ended_by()
        return code if signalled is None else signalled

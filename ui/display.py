"""Whether Qt can open a window here, asked before the QApplication is made.

Without a usable display, Qt's platform plugin cannot start and Qt aborts the process:
``reviewer gui`` printed Qt's lines ("Reinstalling the application may fix this
problem"), the list of its plugins and died of SIGABRT, exit 134, with no ``reviewer:``
line (fourth hostile pass, GUI0). :func:`display_problem` says why no window can open, in
the cases Qt would abort, so the command refuses with one line and exit 1 instead.

Only Linux's desktop platforms are judged (``xcb`` and ``wayland``, Qt's defaults
there): any other ``QT_QPA_PLATFORM`` (``offscreen``, ``vnc``, ``eglfs``…) is left to Qt.
The X display is asked the way Qt's xcb plugin asks it first (``xcb_connect`` from
libxcb, which that plugin needs anyway); a Wayland display by its socket. When libxcb
cannot be loaded nothing is said: Qt's own message names the missing library.

No Qt here: this runs before PySide6 is imported.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

ADVICE = ("run it in a desktop session, or with QT_QPA_PLATFORM=offscreen to take a "
          "--screenshot")


def _platforms(environ: Mapping[str, str]) -> list[str] | None:
    """The platform plugins Qt would try, or None when one is not ours to judge."""
    given = environ.get("QT_QPA_PLATFORM", "").strip()
    if not given:
        return ["xcb", "wayland"]
    names = [part.strip() for part in given.split(";") if part.strip()]
    if any(":" in name or not (name == "xcb" or name.startswith("wayland"))
           for name in names):
        return None  # offscreen, vnc, options of a plugin…: Qt knows best
    return names


def x_display_answers(display: str) -> bool | None:
    """Whether the X server of ``display`` accepts a connection (None: libxcb missing)."""
    import ctypes  # here: only a desktop platform needs it
    import ctypes.util

    xcb: ctypes.CDLL | None
    try:  # the soname first: find_library runs ldconfig, tens of milliseconds
        xcb = ctypes.CDLL("libxcb.so.1")
    except OSError:
        name = ctypes.util.find_library("xcb")
        try:
            xcb = ctypes.CDLL(name) if name else None
        except OSError:
            xcb = None
    if xcb is None:
        return None
    xcb.xcb_connect.restype = ctypes.c_void_p
    xcb.xcb_connect.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_int)]
    xcb.xcb_connection_has_error.argtypes = [ctypes.c_void_p]
    xcb.xcb_disconnect.argtypes = [ctypes.c_void_p]
    screen = ctypes.c_int(0)
    connection = xcb.xcb_connect(display.encode(), ctypes.byref(screen))
    try:
        return connection is not None and xcb.xcb_connection_has_error(connection) == 0
    finally:
        if connection is not None:  # an error connection is freed by disconnect too
            xcb.xcb_disconnect(connection)


def _wayland_socket(environ: Mapping[str, str]) -> bool:
    if environ.get("WAYLAND_SOCKET"):
        return True
    name = environ.get("WAYLAND_DISPLAY", "")
    if not name:
        return False
    path = Path(name) if os.path.isabs(name) else \
        Path(environ.get("XDG_RUNTIME_DIR", "")) / name
    return path.exists()


def display_problem(environ: Mapping[str, str] | None = None) -> str | None:
    """Why Qt could not open a window here (one line ending with what to do), or None."""
    if not sys.platform.startswith("linux"):
        return None
    env = os.environ if environ is None else environ
    platforms = _platforms(env)
    if platforms is None:
        return None
    if any(p.startswith("wayland") for p in platforms) and _wayland_socket(env):
        return None
    display = env.get("DISPLAY", "")
    if "xcb" in platforms and display:
        answers = x_display_answers(display)
        if answers is None or answers:
            return None
    if "xcb" in platforms and display:
        why = f"the X display {display} (DISPLAY) does not answer"
    elif env.get("WAYLAND_DISPLAY") and any(p.startswith("wayland") for p in platforms):
        why = f"the Wayland display {env['WAYLAND_DISPLAY']} (WAYLAND_DISPLAY) does not exist"
    elif platforms == ["xcb"]:
        why = "no display (DISPLAY is not set)"
    elif all(p.startswith("wayland") for p in platforms):
        why = "no display (WAYLAND_DISPLAY is not set)"
    else:
        why = "no display (neither DISPLAY nor WAYLAND_DISPLAY is set)"
    return f"cannot open a window: {why}; {ADVICE}"

"""Errors the CLI and the app turn into clear one-line messages (never a traceback).

The exit code says the kind of failure (``reviewer --help`` and docs/reliability.md
show the table):

====  =====================================================================================
0     done
1     the command could not finish: the judge failed, the database is busy, not a
      reviewer database or newer than this reviewer, a disk I/O error
2     bad input or usage: an argument, a file (missing, a folder, unreadable, not UTF-8,
      a bad line at FILE:LINE), a name, a NUL character
3     read-only: the database or an output cannot be written (read-only file, folder or
      file system, no permission, a PostgreSQL read-only transaction)
4     disk full: no space left, a quota, or a file larger than the file system or the
      process's file size limit allows
70    internal error (a bug): one line, and the traceback with ``--debug``
130   interrupted (Ctrl-C)
====  =====================================================================================
"""

from __future__ import annotations

import errno

OK = 0
FAILED = 1
BAD_INPUT = 2
READ_ONLY = 3
DISK_FULL = 4
INTERNAL = 70
INTERRUPTED = 130


class ReviewerError(Exception):
    """A failure the user can act on. ``exit_code`` is what the CLI returns."""

    exit_code = FAILED


class BadInputError(ReviewerError):
    """Input the user gave is malformed: a file, a pattern, an argument."""

    exit_code = BAD_INPUT


class StoreError(ReviewerError):
    """The database cannot be opened or used (not a database, newer schema, busy…)."""

    exit_code = FAILED


class JudgeError(ReviewerError):
    """The judge (Ollama) could not give an answer: unreachable, HTTP error, timeout, bad JSON."""

    exit_code = FAILED


class ReadOnlyError(ReviewerError):
    """The database or an output cannot be written: read-only, or no permission."""

    exit_code = READ_ONLY


class DiskFullError(ReviewerError):
    """No space left (or a file size limit reached) where the database or an output lives."""

    exit_code = DISK_FULL


class InterruptedByUser(ReviewerError):
    """Ctrl-C: the step in progress was rolled back, what was committed before is kept."""

    exit_code = INTERRUPTED


class InternalError(ReviewerError):
    """An exception nobody anticipated: a bug, shown as one line (the traceback with
    ``--debug``)."""

    exit_code = INTERNAL


FULL_ERRNOS = {errno.ENOSPC: "the disk is full (no space left on the device)",
               errno.EDQUOT: "the disk quota is exhausted",
               errno.EFBIG: "the file would be larger than the file system or the file size "
                            "limit (ulimit -f) allows"}
MISSING_ERRNOS = {errno.ENOENT: "no such file or folder",
                  errno.EISDIR: "is a folder, not a file",
                  errno.ENOTDIR: "a part of the path is not a folder",
                  errno.ELOOP: "too many symbolic links",
                  errno.ENAMETOOLONG: "the name is too long",
                  errno.ENXIO: "no such device (a FIFO without a reader?)"}

# A relative path when the current folder was deleted (os.getcwd() fails): it names
# nothing, and "no such file or folder" would not say why (sixth hostile pass, U4).
CWD_GONE = ("the current folder no longer exists (deleted or moved?); cd to a folder "
            "that exists, or give an absolute path")


def os_failure(exc: OSError, path: object = None, doing: str = "use") -> ReviewerError:
    """An ``OSError`` as a one-line error of the right kind.

    ``doing`` is the verb of the message: ``read`` (a permission error is then bad
    input), ``write`` (it is then a read-only output), ``use``.
    """
    where = path if path is not None else (exc.filename or "a file")
    head = f"cannot {doing} {where}"
    code = exc.errno
    if code in FULL_ERRNOS:
        return DiskFullError(f"{head}: {FULL_ERRNOS[code]}")
    if code == errno.EROFS:
        return ReadOnlyError(f"{head}: the file system is read-only")
    if code in (errno.EACCES, errno.EPERM):
        if doing == "read":
            return BadInputError(f"{head}: permission denied")
        return ReadOnlyError(f"{head}: permission denied (a read-only file or folder?)")
    if code in MISSING_ERRNOS:
        return BadInputError(f"{head}: {MISSING_ERRNOS[code]}")
    if code == errno.EIO:
        return ReviewerError(f"{head}: input/output error (the disk or file system failed)")
    return ReviewerError(f"{head}: {exc.strerror or exc}")

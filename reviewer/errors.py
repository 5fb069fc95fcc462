"""Errors the CLI and the app turn into clear one-line messages (never a traceback)."""

from __future__ import annotations


class ReviewerError(Exception):
    """A failure the user can act on. ``exit_code`` is what the CLI returns."""

    exit_code = 1


class BadInputError(ReviewerError):
    """Input the user gave is malformed: a file, a pattern, an argument."""

    exit_code = 2


class StoreError(ReviewerError):
    """The database cannot be opened or used (not a database, newer schema, busy…)."""

    exit_code = 1


class JudgeError(ReviewerError):
    """The judge (Ollama) could not give an answer: unreachable, HTTP error, timeout, bad JSON."""

    exit_code = 1

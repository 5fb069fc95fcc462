"""The two ways a check's pattern fails to give an answer: invalid, or too slow on a text."""

from __future__ import annotations

from reviewer.errors import BadInputError


class PatternError(BadInputError):
    """A pattern (or its flags, mode or dialect) that cannot be compiled."""


class PatternTimeout(BadInputError):
    """A pattern ran longer than its time bound on one text (catastrophic backtracking?).

    ``which`` names the pattern when two run side by side (a back-test's stored version
    beside the new pattern), so the message blames the right one.
    """

    def __init__(self, seconds: float, where: str = "", which: str = "") -> None:
        place = f" on {where}" if where else ""
        subject = f"{which} pattern" if which else "pattern"
        super().__init__(
            f"{subject} stopped after {seconds:g} s{place}: catastrophic backtracking?")
        self.seconds = seconds
        self.where = where
        self.which = which

    def naming(self, which: str) -> PatternTimeout:
        """The same timeout, blaming the pattern called ``which`` (``current (v2, stored)``)."""
        return PatternTimeout(self.seconds, self.where, which)

"""Attempt keys: ``RUN/CONVERSATION/TURN/ATTEMPT``, the name users type and scripts print."""

from __future__ import annotations

from dataclasses import dataclass

from reviewer.errors import BadInputError

# The largest turn or attempt number a store holds (a 4-byte integer column on
# PostgreSQL; SQLite's 8 bytes overflowed at 2**63 into an internal error, exit 70).
MAX_INDEX = 2**31 - 1


@dataclass(frozen=True, slots=True, order=True)
class AttemptKey:
    """The identity of one graded attempt."""

    run: str
    conversation: str
    turn: int
    attempt: int

    def __str__(self) -> str:
        return f"{self.run}/{self.conversation}/{self.turn}/{self.attempt}"

    @classmethod
    def parse(cls, text: str) -> AttemptKey:
        """Read ``RUN/CONVERSATION/TURN/ATTEMPT``; BadInputError if it is not one."""
        parts = text.strip().split("/")
        if len(parts) != 4 or not parts[0] or not parts[1]:
            raise BadInputError(f"{text!r}: an attempt key is RUN/CONVERSATION/TURN/ATTEMPT")
        try:
            turn, attempt = int(parts[2]), int(parts[3])
        except ValueError:
            raise BadInputError(f"{text!r}: TURN and ATTEMPT must be integers") from None
        if turn < 1 or attempt < 1:
            raise BadInputError(f"{text!r}: TURN and ATTEMPT must be positive")
        if turn > MAX_INDEX or attempt > MAX_INDEX:
            raise BadInputError(f"{text!r}: TURN and ATTEMPT are at most {MAX_INDEX:,}")
        return cls(parts[0], parts[1], turn, attempt)

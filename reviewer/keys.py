"""Attempt keys: ``RUN/CONVERSATION/TURN/ATTEMPT``, the name users type and scripts print."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
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
        """Read ``RUN/CONVERSATION/TURN/ATTEMPT``; BadInputError if it is not one.

        The names are kept as typed, spaces included: a store an earlier version filled
        may hold `` RUN`` beside ``RUN``, and stripping the key named the other one
        (fifteenth hostile pass, P15-1). ``bare()`` is the key without those spaces.
        """
        parts = text.split("/")
        if len(parts) != 4 or not parts[0].strip() or not parts[1].strip():
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

    def bare(self) -> AttemptKey:
        """The key without spaces around its names."""
        return AttemptKey(self.run.strip(), self.conversation.strip(), self.turn, self.attempt)


def nfc(name: str) -> str:
    """``name`` in Unicode NFC, the form the import stores ids in."""
    return unicodedata.normalize("NFC", name)


def spellings(name: str) -> tuple[str, ...]:
    """``name`` as typed, in NFC and in NFD (each once): the ways a stored id may be spelt.

    Seventh hostile pass, N1: ``café`` is ``caf`` + U+00E9 or ``cafe`` + U+0301 (how
    macOS spells file names, so run files made from them); both print the same, and
    the key typed from what ``queue`` printed found nothing. Ids are stored in NFC since;
    a store imported before may hold an NFD id, or both forms as two attempts.
    """
    return tuple(dict.fromkeys((name, nfc(name), unicodedata.normalize("NFD", name))))


def nearest(key: AttemptKey, found: Iterable[tuple[int, str, str]]) -> int | None:
    """Of the attempts ``(id, run, conversation)`` named by spellings of ``key``'s names,
    the one spelt exactly as ``key``, else the one in NFC, else the first stored; None
    when there is none."""
    def rank(row: tuple[int, str, str]) -> tuple[int, int]:
        ident, run, conversation = row
        if (run, conversation) == (key.run, key.conversation):
            return 0, ident
        if (run, conversation) == (nfc(key.run), nfc(key.conversation)):
            return 1, ident
        return 2, ident

    best = min(found, key=rank, default=None)
    return None if best is None else best[0]


def loosely(key: AttemptKey, found: Iterable[tuple[int, str, str]]) -> int | None:
    """Of the attempts ``(id, run, conversation)`` found, the one whose names, spaces
    around them set aside, are ``key``'s (in any Unicode form); None when there is none.

    For a key that names no attempt as typed. Fifteenth hostile pass, P15-1: a store an
    earlier version filled may hold `` RUN`` (a leading space) beside ``RUN``; the key
    typed with its space names the first exactly, without it the second. A key that
    matches neither exactly but both loosely (``RUN /…``, two spaces) would be a guess:
    BadInputError naming them, so no decision lands on an attempt not named.
    """
    bare = key.bare()
    want = (nfc(bare.run), nfc(bare.conversation))
    matches = sorted((ident, AttemptKey(run, conversation, key.turn, key.attempt))
                     for ident, run, conversation in found
                     if (nfc(run.strip()), nfc(conversation.strip())) == want)
    if len(matches) > 1:
        named = " and ".join(repr(str(k)) for _, k in matches[:2])
        more = f" (and {len(matches) - 2} more)" if len(matches) > 2 else ""
        raise BadInputError(f"{str(key)!r} names {len(matches)} attempts whose ids differ "
                            f"only by spaces around them: {named}{more}; type the key "
                            "exactly as `reviewer queue` prints it")
    return matches[0][0] if matches else None

"""Small building blocks for the conversation scripts of the demo run."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

Verdicts = dict[str, tuple[str, str]]


@dataclass(frozen=True)
class Attempt:
    """One generated answer and the judge verdicts that differ from the ordinary ones.

    ``verdicts`` maps a criterion id to ``(verdict, rationale)``; every other criterion gets
    an ordinary verdict from the pools. ``missed`` explains a bad answer that the filter
    accepted anyway (it goes to known_false_accepts.json). ``plain`` keeps the answer free of
    the model's usual opening and closing pleasantries (distress, very long answers).
    """

    text: str
    verdicts: Verdicts = field(default_factory=dict)
    missed: str | None = None
    plain: bool = False


@dataclass(frozen=True)
class Turn:
    """A user message, the attempts generated for it, and an optional reference answer.

    A turn without attempts is a scripted turn that was never played (the conversation was
    cut before it).
    """

    user: str
    attempts: tuple[Attempt, ...] = ()
    reference: str | None = None


def A(text: str, verdicts: Verdicts | None = None, *, missed: str | None = None,
      plain: bool = False) -> Attempt:
    """Shorthand for an attempt."""
    return Attempt(text=tidy(text), verdicts=verdicts or {}, missed=missed,
                   plain=plain)


def T(user: str, *attempts: Attempt, ref: str | None = None) -> Turn:
    """Shorthand for a turn."""
    reference = tidy(ref) if ref else None
    return Turn(user=tidy(user), attempts=attempts, reference=reference)


def tidy(text: str) -> str:
    """Collapse the spaces left by implicit string concatenation, keeping explicit line breaks."""
    text = re.sub(r"[ \t]+", " ", text)
    return re.sub(r" *\n *", "\n", text).strip()

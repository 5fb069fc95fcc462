"""The second-opinion guard: a second opinion replaces the first only if it is reliable.

Against a real model, most second opinions that "saved" a refusal did so on the
rationale « Oui », an empty one, or one that said the opposite of its verdict. A second
opinion whose rationale gives no reason is no better than the verdict it would replace,
so it is stored and shown, marked "unreliable — not applied" with the reason, and the
rule keeps the first opinion. It is reliable when its rationale

1. is not empty;
2. is not a bare verdict word (« Oui », "non.", "yes", "OK !");
3. has at least ``min_words`` words;
4. does not copy the criterion's text, nor a piece of the prompt (the instructions, the
   conversation or the answer quoted back);
5. is not flagged by the contradiction detector as saying the opposite of its own
   verdict (``reviewer.contradiction.detect``, the same reading as every other verdict).

Strictness (``--guard``, ``$REVIEWER_GUARD``), see docs/judge.md:

============  =========  ===================================  ====================
level         min words  copy = similarity to criterion/prompt  detector flags at
============  =========  ===================================  ====================
``lenient``   1          identical (after normalising)        its threshold (0.5)
``normal``    3          ≥ 90 %                               its threshold (0.5)
``strict``    6          ≥ 80 %                               a score of 0.3
============  =========  ===================================  ====================

The seed's asymmetric rule is untouched: the guard only ever *removes* a second opinion
from the replay; which criteria are asked, and that only "oui" can save, stay as they are.
"""

from __future__ import annotations

import os
import re
import unicodedata
from dataclasses import dataclass

from reviewer.errors import BadInputError

NORMAL = "normal"
ENV = "REVIEWER_GUARD"
BARE_WORDS = frozenset({"oui", "non", "yes", "no", "si", "vrai", "faux", "true", "false",
                        "ok", "okay", "met", "not", "d'accord"})
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
_SPACE = re.compile(r"\s+")
MIN_COPY_CHARS = 12
"""A piece of the prompt shorter than this may be a coincidence (« la réponse »)."""


@dataclass(frozen=True, slots=True)
class Strictness:
    """How demanding the guard is (see the module docstring's table)."""

    name: str
    min_words: int
    copy_similarity: float  # 100 = only an identical copy counts
    detector_score: float


LEVELS = {
    "lenient": Strictness("lenient", 1, 100.0, 0.5),
    NORMAL: Strictness(NORMAL, 3, 90.0, 0.5),
    "strict": Strictness("strict", 6, 80.0, 0.3),
}


def strictness(name: str | None = None) -> Strictness:
    """The level ``name``, else ``$REVIEWER_GUARD``, else ``normal``."""
    chosen = (name or os.environ.get(ENV, "") or NORMAL).strip().lower()
    if chosen not in LEVELS:
        raise BadInputError(f"unknown guard strictness {chosen!r} (use {', '.join(LEVELS)})")
    return LEVELS[chosen]


def normalise(text: str) -> str:
    """Case, accents' composition, spacing and surrounding punctuation ignored."""
    text = unicodedata.normalize("NFC", text).casefold().replace("’", "'")
    return _SPACE.sub(" ", text).strip(" \t\n.,;:!?«»\"'()[]-–—")


def _words(text: str) -> list[str]:
    return [w.casefold().replace("’", "'") for w in _WORD.findall(text)]


def _copies(rationale: str, source: str, similarity: float, *, partial: bool) -> bool:
    """``rationale`` is ``source`` (or, ``partial``, a piece of it) copied back."""
    from rapidfuzz import fuzz

    mine, theirs = normalise(rationale), normalise(source)
    if not mine or not theirs:
        return False
    if mine == theirs or (partial and len(mine) >= MIN_COPY_CHARS and mine in theirs):
        return True
    if similarity >= 100:
        return False
    if fuzz.ratio(mine, theirs) >= similarity:
        return True
    return partial and len(mine) >= MIN_COPY_CHARS and fuzz.partial_ratio(mine, theirs) >= max(
        similarity, 95.0)


def unreliable_reason(
    rationale: str, met: bool, *, criterion_id: str, criterion_text: str, prompt: str,
    level: Strictness | None = None,
) -> str:
    """Why this second opinion (a success criterion judged ``met``) must not be applied;
    "" when it is reliable."""
    level = level or strictness()
    text = rationale.strip()
    if not text:
        return "empty rationale"
    words = _words(text)
    if all(w in BARE_WORDS for w in words):
        return f"the rationale is only « {text[:40]} »"
    if len(words) < level.min_words:
        return (f"the rationale has {len(words)} word{'s' if len(words) != 1 else ''}, "
                f"fewer than {level.min_words} ({level.name} guard)")
    if _copies(text, criterion_text, level.copy_similarity, partial=False):
        return "the rationale copies the criterion's text"
    if _copies(text, prompt, level.copy_similarity, partial=True):
        return "the rationale copies the prompt"
    return _contradiction(text, met, criterion_id, criterion_text, level)


def _contradiction(text: str, met: bool, criterion_id: str, criterion_text: str,
                   level: Strictness) -> str:
    from reviewer.contradiction import detect

    found = detect("success", met, text, criterion_text, criterion_id)
    if found.score < level.detector_score:
        return ""
    evidence = f": « {found.evidence} »" if found.evidence else ""
    return (f"the contradiction detector reads the rationale as saying the opposite of "
            f"« {'oui' if met else 'non'} » (score {found.score:.2f}{evidence})")

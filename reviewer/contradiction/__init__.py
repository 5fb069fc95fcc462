"""Detect a judge verdict that contradicts its own rationale (deterministic tier).

``detect(kind, verdict, rationale, criterion_text)`` reads what the rationale asserts
about the answer and says whether that is the opposite of the verdict, with a score in
[0, 1], a boolean at :data:`THRESHOLD` and the deciding words. See docs/contradictions.md.

The detector (its lexicon, the compiled scanner, the learned weights) is imported on
first use: the app starts, and ``decisive``/``explain`` are read, without it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from reviewer.contradiction.detector import THRESHOLD, Detection, detect, parse_verdict

__all__ = ["THRESHOLD", "Detection", "detect", "parse_verdict"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from reviewer.contradiction import detector

        return getattr(detector, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

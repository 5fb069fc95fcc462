"""Detect a judge verdict that contradicts its own rationale (deterministic tier).

``detect(kind, verdict, rationale, criterion_text)`` reads what the rationale asserts
about the answer and says whether that is the opposite of the verdict, with a score in
[0, 1], a boolean at :data:`THRESHOLD` and the deciding words. See docs/contradictions.md.
"""

from reviewer.contradiction.detector import THRESHOLD, Detection, detect, parse_verdict

__all__ = ["THRESHOLD", "Detection", "detect", "parse_verdict"]

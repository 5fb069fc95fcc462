"""One line that says why a verdict is flagged, checkable at a glance.

"E-INVENTE non = no fault (Invente un fait, une loi, un article…); the rationale says:
« invente un numéro »": what the verdict means for this criterion's kind (the same four
meanings whatever the criterion's wording, see ``docs/format.md``), the criterion in a few
words, and the rationale's words that read against the verdict (the detector's evidence).
The example pane builds its translated line from the same parts (:func:`parts`).
"""

from __future__ import annotations

import re
from typing import Literal

Meaning = Literal["met", "not met", "fault committed", "no fault"]
GIST_CHARS = 48
# Where the first clause of a criterion text ends.
_CLAUSE_END = re.compile(r"\s*[(:;,.]\s|\s*[(:;.]$| \(")


def meaning(kind: str, met: bool) -> Meaning:
    """What the verdict says on a criterion of this kind: "oui" on a success criterion is
    "met", on a failure criterion "fault committed"."""
    if kind == "success":
        return "met" if met else "not met"
    return "fault committed" if met else "no fault"


def gist(criterion_text: str, limit: int = GIST_CHARS) -> str:
    """The criterion's first clause, cut to about ``limit`` characters ("…" when cut)."""
    text = " ".join(criterion_text.split())
    end = _CLAUSE_END.search(text, 12)
    short = text[: end.start()] if end else text.rstrip(".")
    if len(short) > limit:
        short = short[:limit].rsplit(" ", 1)[0].rstrip(",;:")
    return short + ("…" if len(short) < len(text.rstrip(".")) else "")


def parts(kind: str, met: bool, criterion_text: str) -> tuple[Meaning, str]:
    """The meaning of the verdict and the criterion's gist, for a translated line."""
    return meaning(kind, met), gist(criterion_text)


def explanation(criterion_id: str, kind: str, met: bool, criterion_text: str,
                evidence: str) -> str:
    """The English line (the CLI's and the pane's without a translation)."""
    what, short = parts(kind, met, criterion_text)
    about = f" ({short})" if short else ""
    said = f"« {evidence} »" if evidence else "the opposite"
    return (f"{criterion_id} {'oui' if met else 'non'} = {what}{about}; "
            f"the rationale says: {said}")

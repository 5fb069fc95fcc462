"""The JSON the grading judge must produce, as pydantic models.

Kept apart from :mod:`reviewer.graders.judge` so that importing the judge (the GUI does,
for the conversation text of its prompts) does not import pydantic: it is loaded when a
judge reply is checked or its schema is sent.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, Field, StringConstraints

JUSTIFICATION_MIN = 5
"""Characters a justification needs: « Juste. » is one, « , » and « ok » are not."""


def _note(what: str) -> Any:
    return Field(ge=1, le=5, strict=True, description=f"{what}, de 1 à 5")


class AnswerNotes(BaseModel):
    """What the judge says about one answer (the JSON it must produce)."""

    answer: Annotated[int, Field(ge=1, strict=True, description="numéro de la réponse")]
    correctness: Annotated[int, _note("exactitude")]
    helpfulness: Annotated[int, _note("utilité")]
    tone: Annotated[int, _note("ton")]
    format: Annotated[int, _note("format")]
    justification: Annotated[
        str,
        StringConstraints(strip_whitespace=True, min_length=JUSTIFICATION_MIN),
        Field(description="justification brève, en français"),
    ]


class JudgeReply(BaseModel):
    """The whole judge reply: one entry per answer."""

    notes: list[AnswerNotes]

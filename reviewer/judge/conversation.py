"""A conversation as a judge reads it (shared by the judge's prompts and the judge
grader; no database, so the graders stay pure)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def conversation_text(prompt: str | Sequence[dict[str, Any]] | None) -> str:
    """The conversation as the judge reads it: a string, or role-tagged messages."""
    if prompt is None or prompt == "":
        return "(conversation non fournie)"
    if isinstance(prompt, str):
        return prompt
    roles = {"system": "Système", "user": "Utilisateur", "assistant": "Assistant"}
    return "\n\n".join(
        f"[{roles.get(str(m.get('role')), str(m.get('role')))}]\n{m.get('content', '')}"
        for m in prompt
    )

"""Asking the judge about a case: render the template, send, read one verdict per criterion.

The same function serves the multi-criteria judge (template ``juge``) and the second
opinion (template ``second_avis`` with a one-criterion case), as the seed reuses one
prompt builder for both.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from reviewer.judge.client import JudgeClient
from reviewer.judge.prompts import Case, PromptText, render
from reviewer.judge.schema import JudgedCriterion, read_verdicts, verdicts_schema
from reviewer.store import Store


@dataclass(frozen=True, slots=True)
class JudgeAnswer:
    """The judge's verdict for each criterion of the case, and the stored request id."""

    verdicts: dict[str, JudgedCriterion]
    request_id: int | None


def judge_case(
    client: JudgeClient, case: Case, template: PromptText, *, store: Store | None = None
) -> JudgeAnswer:
    """Ask the judge about ``case``; JudgeError (one line) on any fault or missing verdict."""
    ids = case.criterion_ids
    data, request_id = client.chat_json(
        render(template, case), verdicts_schema(ids), store=store,
        validate=partial(read_verdicts, criterion_ids=ids), label=template.label,
    )
    return JudgeAnswer(read_verdicts(data, ids), request_id)

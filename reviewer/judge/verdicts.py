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
    messages: tuple[dict[str, str], ...] = ()

    @property
    def prompt(self) -> str:
        """The text the judge was sent (what a rationale must not merely copy back)."""
        return "\n".join(m["content"] for m in self.messages)


REPLY_TOKENS_PER_CRITERION = 256
"""``num_predict`` per criterion asked: a one- or two-sentence rationale and its JSON take
about 100 tokens; a judge that loops stops here, with "reply cut at N tokens"."""


def judge_case(
    client: JudgeClient, case: Case, template: PromptText, *, store: Store | None = None
) -> JudgeAnswer:
    """Ask the judge about ``case``; JudgeError (one line) on any fault or missing verdict."""
    ids = case.criterion_ids
    messages = render(template, case)
    data, request_id = client.chat_json(
        messages, verdicts_schema(ids), store=store,
        validate=partial(read_verdicts, criterion_ids=ids), label=template.label,
        reply_tokens=REPLY_TOKENS_PER_CRITERION * len(ids),
    )
    return JudgeAnswer(read_verdicts(data, ids), request_id, tuple(messages))

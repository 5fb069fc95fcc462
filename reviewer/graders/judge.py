"""The model grader: an Ollama judge notes all N answers of a prompt in one call.

Seeing the answers side by side lets the judge note them consistently with one another,
and consistent relative scores are what GRPO uses. Each answer gets a 1–5 note on four
axes (correctness, helpfulness, tone, format) and a short justification; the score is
``(mean of the four notes - 1) / 4``, so 1 → 0.0, 3 → 0.5, 5 → 1.0.

The reply is constrained with ``format=<JSON schema>``, ``temperature`` 0 and a fixed
seed, so the same inputs give the same notes. The schema keys the answers 1..N exactly
(item i of ``notes`` can only say ``"answer": i``) and asks a justification of at least
five characters. Only ``message.content`` is parsed; with ``think`` a reasoning model's
``thinking`` is kept with the notes, never parsed.

Requests go through :mod:`reviewer.judge.transport` (the timeout bounds the whole
request) and :mod:`reviewer.judge.context` (``num_ctx`` sized to the prompt, ``num_predict``
always set, a cut prompt or reply is an error, never silently graded).
"""

from __future__ import annotations

import copy
import dataclasses
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from reviewer.errors import BadInputError, JudgeError
from reviewer.json_input import (
    KeyTwice,
    NestedTooDeeply,
    beyond_digit_limit,
    loads,
    once_each,
    too_many_digits,
)
from reviewer.judge.context import (
    DEFAULT_MAX_CTX,
    cut_prompt,
    cut_reply,
    sized_options,
)
from reviewer.judge.conversation import conversation_text
from reviewer.judge.host import normalize_host
from reviewer.judge.transport import (
    HTTP,
    NOT_OLLAMA,
    TIMEOUT,
    UNREACHABLE,
    ChatReply,
    RawFault,
    chat_once,
    repeats_for_every_request,
    retry_wait,
    transient,
)

DEFAULT_HOST = "http://127.0.0.1:11434"
AXES = ("correctness", "helpfulness", "tone", "format")


SYSTEM_PROMPT = """\
Tu es un évaluateur exigeant et impartial. On te donne une conversation, la réponse de \
référence rédigée par l'équipe, puis plusieurs réponses candidates au même dernier message.
Note chaque réponse candidate de 1 (très mauvais) à 5 (excellent) sur quatre critères :
- correctness : exactitude des faits, des chiffres et des consignes, comparée à la référence ;
- helpfulness : utilité réelle pour la personne, la réponse traite-t-elle sa demande ;
- tone : ton adapté (courtois, clair, celui de la référence) ;
- format : présentation et longueur adaptées (structure, concision, langue française).
Une réponse correcte formulée autrement que la référence mérite une bonne note ; une \
réponse qui reprend les mots de la référence mais se trompe n'en mérite pas. Ne favorise \
ni les réponses longues ni la première réponse : compare-les entre elles, de façon cohérente.
Pour chaque réponse, donne une justification brève (une ou deux phrases, en français).
Réponds uniquement avec le JSON demandé : un objet "notes" contenant une entrée par \
réponse, avec son numéro dans "answer".\
"""


@dataclass(frozen=True)
class JudgeConfig:
    """Where and how to call the judge. ``retries`` counts extra attempts after the first,
    made only for transient faults (no connection, HTTP 5xx, timeout), after
    ``backoff * 2**attempt`` seconds."""

    model: str
    host: str = DEFAULT_HOST
    timeout: float = 120.0
    seed: int = 42
    retries: int = 2
    backoff: float = 1.0
    # Ollama's default context (2048–4096 tokens by version) silently truncates a long
    # prompt, so each request asks for a context sized to its prompt (at most max_ctx);
    # num_ctx fixes it instead (a prompt that cannot fit is refused, never cut).
    num_ctx: int | None = None
    max_ctx: int = DEFAULT_MAX_CTX
    think: bool = False

REPLY_TOKENS_PER_ANSWER = 160
"""``num_predict`` per answer of a group: four notes and a sentence take about 100."""


class GroupFault(JudgeError):
    """A judge call for one group that gave no notes; ``fatal`` when every following
    group would fail the same way (no server, unknown model)."""

    def __init__(self, message: str, kind: str = "reply", status: int | None = None,
                 detail: str = "") -> None:
        super().__init__(message)
        self.kind = kind
        self.status = status
        self.detail = detail or message

    @property
    def fatal(self) -> bool:
        """True when grading the other groups against the same judge is pointless."""
        return repeats_for_every_request(self.kind, self.status, self.detail)


@dataclass(frozen=True)
class JudgeNotes:
    """The judge's notes for one answer."""

    correctness: int
    helpfulness: int
    tone: int
    format: int
    justification: str
    reasoning: str = ""  # a reasoning model's thoughts about the group (with --think)

    @property
    def score(self) -> float:
        """Mean of the four 1–5 notes mapped to [0, 1]: ``(mean - 1) / 4``."""
        mean = (self.correctness + self.helpfulness + self.tone + self.format) / 4
        return (mean - 1) / 4

    def as_dict(self) -> dict[str, Any]:
        """The notes and justification, as written to the ``grade`` output."""
        return {
            "correctness": self.correctness,
            "helpfulness": self.helpfulness,
            "tone": self.tone,
            "format": self.format,
            "justification": self.justification,
            **({"reasoning": self.reasoning} if self.reasoning else {}),
        }


def reply_schema(n_answers: int) -> dict[str, Any]:
    """The JSON schema given as ``format``: exactly ``n_answers`` entries, the i-th one
    noting answer i (a grammar then cannot write "12" or "1, 2, 4")."""
    from reviewer.graders.reply_models import JudgeReply  # pydantic: only when judging

    schema = copy.deepcopy(JudgeReply.model_json_schema())
    # The class docstrings are for readers of this code, not for the (French) judge.
    schema.pop("description", None)
    item = schema.pop("$defs")["AnswerNotes"]
    item.pop("description", None)
    items = []
    for i in range(1, n_answers + 1):
        one = copy.deepcopy(item)
        one["properties"]["answer"] = {"type": "integer", "enum": [i],
                                       "description": one["properties"]["answer"]["description"]}
        items.append(one)
    notes = schema["properties"]["notes"]
    del notes["items"]
    notes.update(prefixItems=items, items=False, minItems=n_answers, maxItems=n_answers)
    return schema


def build_messages(
    prompt: str | Sequence[dict[str, Any]] | None,
    reference: str | None,
    responses: Sequence[str],
) -> list[dict[str, str]]:
    """The chat messages sent to the judge (French instructions, numbered answers)."""
    parts = [
        "## Conversation\n" + conversation_text(prompt),
        "## Réponse de référence\n" + (reference or "(aucune référence fournie)"),
        f"## Réponses candidates ({len(responses)})",
    ]
    parts += [f"### Réponse {i}\n{text}" for i, text in enumerate(responses, 1)]
    parts.append(f"Note les {len(responses)} réponses candidates, de 1 à {len(responses)}.")
    return [
        {"role": "system", "content": SYSTEM_PROMPT},
        {"role": "user", "content": "\n\n".join(parts)},
    ]


def parse_reply(content: str, n_answers: int) -> list[JudgeNotes]:
    """Notes in answer order from the judge's JSON; ValueError says what is wrong."""
    try:
        data = loads(content, object_pairs_hook=once_each)
    except json.JSONDecodeError as exc:
        raise ValueError(f"reply is not valid JSON ({exc.msg} at char {exc.pos})") from None
    except KeyTwice as twice:  # {"score": 1, "score": 5}: which one cannot be told (Z2)
        raise ValueError(f"reply gives the key {str(twice)[:40]!r} twice in one object: "
                         "which one is meant cannot be told") from None
    except (NestedTooDeeply, RecursionError):
        raise ValueError("reply is not usable JSON (nested too deeply)") from None
    except ValueError as exc:  # Python's advice (sys.set_int_max_str_digits) is not ours
        if beyond_digit_limit(exc):
            raise ValueError(f"reply is not usable JSON: it holds {too_many_digits()}") \
                from None
        raise
    from pydantic import ValidationError

    from reviewer.graders.reply_models import JudgeReply

    try:
        reply = JudgeReply.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "reply"
        raise ValueError(f"reply does not follow the schema ({where}: {first['msg']})") from None
    by_answer = {n.answer: n for n in reply.notes}
    missing = [i for i in range(1, n_answers + 1) if i not in by_answer]
    extra = sorted(set(by_answer) - set(range(1, n_answers + 1)))
    if missing or extra or len(reply.notes) != n_answers:
        noted = [n.answer for n in reply.notes]
        group = f"{n_answers} answer{'s' if n_answers != 1 else ''}"
        raise ValueError(
            f"reply notes answers {noted} for a group of {group} (numbered 1 to {n_answers})"
            + (f" (missing {missing})" if missing else "")
        )
    return [
        JudgeNotes(n.correctness, n.helpfulness, n.tone, n.format, n.justification.strip())
        for n in (by_answer[i] for i in range(1, n_answers + 1))
    ]


class Judge:
    """A judge bound to one Ollama host and model."""

    def __init__(self, config: JudgeConfig) -> None:
        if not config.model.strip():
            raise BadInputError("the judge needs a model name (--model NAME)")
        self.config = config
        import ollama  # here, not at module level: it costs a third of the app's start-up

        normalize_host(config.host)  # what httpx would refuse on sending: one line
        try:  # the host checked as the client reads it (requests go through the transport)
            ollama.Client(host=config.host, timeout=config.timeout)
        except ValueError as exc:
            raise BadInputError(f"invalid Ollama host {config.host!r}: {exc}") from None

    def _where(self) -> str:
        return f"judge {self.config.model} at {self.config.host}"

    def _options(self, messages: list[dict[str, str]], n_answers: int) -> tuple[
            dict[str, Any], int]:
        options: dict[str, Any] = {"temperature": 0, "seed": self.config.seed}
        if self.config.num_ctx:
            options["num_ctx"] = self.config.num_ctx
        try:
            return sized_options(options, messages, REPLY_TOKENS_PER_ANSWER * n_answers + 64,
                                 think=self.config.think, max_ctx=self.config.max_ctx)
        except ValueError as exc:
            raise GroupFault(f"{self._where()}: {exc}", "too_long") from None

    def _chat(self, messages: list[dict[str, str]], schema: dict[str, Any],
              n_answers: int) -> ChatReply:
        """One chat call with bounded retries on transient faults; the checked reply."""
        cfg = self.config
        options, estimate = self._options(messages, n_answers)
        body = {"model": cfg.model, "messages": messages, "format": schema,
                "options": options, "think": cfg.think}
        attempts = cfg.retries + 1
        fault = RawFault(UNREACHABLE, "not sent")
        for attempt in range(attempts):
            try:
                reply = chat_once(cfg.host, body, cfg.timeout)
            except RawFault as exc:
                fault = exc
                if not transient(exc.kind, exc.status):
                    raise self._fault(exc) from None
            else:
                problem = cut_prompt(reply.prompt_tokens, estimate, int(options["num_ctx"]))
                problem = problem or cut_reply(reply.done_reason, reply.reply_tokens,
                                               int(options["num_predict"]), reply.done)
                if problem:  # the same request is cut the same way: not retried
                    raise GroupFault(f"{self._where()}: {problem}", "cut")
                return reply
            if attempt + 1 < attempts:
                time.sleep(retry_wait(cfg.backoff, attempt))
        tries = f" (after {attempts} attempts)" if attempts > 1 else ""
        error = self._fault(fault)
        raise GroupFault(f"{error}{tries}", error.kind, error.status, error.detail)

    def _fault(self, exc: RawFault) -> GroupFault:
        """The grader's wording of a transport fault."""
        if exc.kind == TIMEOUT:
            text = f"no reply within {self.config.timeout:g} s"
        elif exc.kind == UNREACHABLE:
            text = ("cannot connect (is Ollama running?)" if exc.detail == "no server listening"
                    else exc.detail)
        elif exc.kind == NOT_OLLAMA:
            text = f"unexpected reply from the server ({exc.detail})"
        elif exc.kind == HTTP:
            text = f"HTTP {exc.status}: {exc.detail}"
        else:  # redirected: the detail names the redirect and what followed
            text = exc.detail
        return GroupFault(f"{self._where()}: {text}", exc.kind, exc.status, exc.detail)

    def grade_group(
        self,
        prompt: str | Sequence[dict[str, Any]] | None,
        reference: str | None,
        responses: Sequence[str],
    ) -> list[JudgeNotes]:
        """Notes for each of ``responses`` (all answers to one prompt), in order."""
        if not responses:
            return []
        messages = build_messages(prompt, reference, responses)
        reply = self._chat(messages, reply_schema(len(responses)), len(responses))
        try:
            notes = parse_reply(reply.content, len(responses))
        except ValueError as exc:
            raise GroupFault(f"{self._where()}: {exc}") from None
        if not reply.thinking:
            return notes
        return [dataclasses.replace(n, reasoning=reply.thinking) for n in notes]

    def scores(
        self,
        prompt: str | Sequence[dict[str, Any]] | None,
        reference: str | None,
        responses: Sequence[str],
    ) -> list[float]:
        """Judge scores in [0, 1] for each response."""
        return [n.score for n in self.grade_group(prompt, reference, responses)]

"""How much context and how many reply tokens a judge request asks for, and checking
that the server really read the whole prompt and wrote the whole reply.

Ollama cuts a prompt longer than ``num_ctx`` *silently* (it keeps the first ``num_keep``
tokens and the end: the instructions and the first answers are lost) and stops a reply
at ``num_predict`` with ``done_reason: "length"``. Neither is an error on the wire, so:

* each request's prompt is estimated in tokens (:func:`estimate_tokens`, deliberately on
  the high side: about 3 characters per token, where French and English prose run 3.5 to
  4.5 on the tokenizers we met) and ``num_ctx`` is set to hold it plus the reply budget,
  rounded up to a multiple of 1024, at most ``max_ctx`` (beyond, the request is refused
  before it is sent: "prompt too long for the judge");
* ``num_predict`` is always set (a looping judge stops there, not at the timeout);
* the reply's ``prompt_eval_count`` is compared with the estimate: fewer than
  ``CUT_RATIO`` of the estimated tokens, or exactly ``num_ctx``, means the server cut
  the prompt (it evaluated what was left), reported as "prompt cut by the server: N of
  about M tokens"; a count above the estimate, even far above, is no cut;
* ``done_reason == "length"`` is "reply cut at N tokens", never retried (the same request
  would be cut at the same place); a reply marked ``"done": false`` is "reply incomplete",
  not retried either.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

CHARS_PER_TOKEN = 3.0
"""Characters per token for the estimate, below what real tokenizers give on prose, so
the estimate errs high (a bigger ``num_ctx`` costs memory, a smaller one cuts)."""
MESSAGE_OVERHEAD = 8
"""Tokens of chat template around each message (role markers, turn separators)."""
CTX_STEP = 1024
MIN_CTX = 2048
DEFAULT_MAX_CTX = 32768
"""The most context a request asks for unless told otherwise (``--max-ctx``)."""
THINK_TOKENS = 4096
"""Reply tokens added when thinking is on: a reasoning model's thoughts count in
``num_predict`` before the first character of the answer."""
CUT_RATIO = 0.6
"""A prompt evaluated in fewer than this share of its estimated tokens was cut. The
estimate errs high by up to ~35 % on real text (3.0 against 4.5 characters per token),
so an uncut prompt stays above 0.65 of it; the cuts seen were at 0.31 and 0.33."""
RATIO_FROM = 128
"""Below this many estimated tokens the template's overhead dominates and the ratio
says nothing (and no server cuts such a prompt unless it fills a tiny context)."""


def estimate_tokens(messages: Sequence[Mapping[str, Any]]) -> int:
    """An estimate, on the high side, of the prompt tokens of ``messages``."""
    chars = sum(len(str(m.get("content", ""))) for m in messages)
    return math.ceil(chars / CHARS_PER_TOKEN) + MESSAGE_OVERHEAD * (len(messages) + 1)


def reply_budget(reply_tokens: int, think: bool) -> int:
    """``num_predict``: the reply's budget, with room for the reasoning when thinking."""
    return reply_tokens + (THINK_TOKENS if think else 0)


def context_size(prompt_tokens: int, num_predict: int, max_ctx: int = DEFAULT_MAX_CTX) -> int:
    """``num_ctx`` holding the prompt and the reply; ValueError (a sentence) beyond
    ``max_ctx``."""
    needed = prompt_tokens + num_predict
    if needed > max_ctx:
        raise ValueError(
            f"prompt too long for the judge: about {prompt_tokens} tokens plus {num_predict} "
            f"for the reply, more than the {max_ctx}-token context allowed (--max-ctx)")
    return min(max_ctx, max(MIN_CTX, math.ceil(needed / CTX_STEP) * CTX_STEP))


def sized_options(
    options: Mapping[str, Any], messages: Sequence[Mapping[str, Any]], reply_tokens: int,
    *, think: bool = False, max_ctx: int = DEFAULT_MAX_CTX,
) -> tuple[dict[str, Any], int]:
    """``options`` with ``num_predict`` and ``num_ctx`` set (explicit values are kept:
    a prompt that cannot fit an explicit ``num_ctx`` is refused), and the estimate."""
    estimate = estimate_tokens(messages)
    out = dict(options)
    out.setdefault("num_predict", reply_budget(reply_tokens, think))
    predict = int(out["num_predict"])
    if "num_ctx" in out:
        context_size(estimate, predict, int(out["num_ctx"]))  # refuses what cannot fit
    else:
        out["num_ctx"] = context_size(estimate, predict, max_ctx)
    return out, estimate


def cut_prompt(prompt_tokens: int | None, estimate: int, num_ctx: int) -> str:
    """"prompt cut by the server: …" when the server evidently read less than sent:
    far fewer tokens than estimated (it used a smaller context than asked), or a prompt
    that filled the whole context exactly (the estimate was low and Ollama cut to
    ``num_ctx``, keeping that many tokens).

    A count above the context asked cut nothing: a server that cuts keeps at most
    ``num_ctx`` tokens, so such a count is not about a cut prompt (sixth hostile pass:
    100,000 for a 684-token prompt was "prompt cut"). It gets no line at all: the
    verdict was given on the whole prompt whatever the count means, and nothing a user
    could do follows from it. A count somewhat above the estimate is normal (the
    server counts its chat template too)."""
    if prompt_tokens is None or prompt_tokens <= 0:
        return ""  # some servers omit the count (a cached prompt): nothing to compare
    filled = prompt_tokens == num_ctx
    short = estimate >= RATIO_FROM and prompt_tokens < CUT_RATIO * estimate
    if not (filled or short):
        return ""
    return f"prompt cut by the server: {prompt_tokens} of about {estimate} tokens read"


def cut_reply(done_reason: str, reply_tokens: int | None, num_predict: int,
              done: bool = True) -> str:
    """"reply cut at N tokens" when the server stopped at the token limit; "reply
    incomplete" when it marked the reply ``"done": false`` (a reply asked without
    streaming is the whole reply: one not done is a part of one)."""
    if not done:
        return 'reply incomplete (the server sent "done": false)'
    if done_reason != "length":
        return ""
    return f"reply cut at {reply_tokens or num_predict} tokens"

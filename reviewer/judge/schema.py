"""The JSON schema the judge must follow, and reading its reply.

The rationale comes before the verdict in every item: a model writes its reasons first
and then the verdict (the seed already did this; it is necessary, not sufficient).
``format=<schema>`` makes Ollama constrain the output to this shape, in this key order.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from reviewer.json_input import (
    KeyTwice,
    NestedTooDeeply,
    beyond_digit_limit,
    check_storable,
    loads,
    once_each,
    parse_verdict,
    too_many_digits,
)

YES, NO = "oui", "non"


class ReplyError(ValueError):
    """The judge answered, but not with what was asked (bad JSON, a criterion missing)."""


@dataclass(frozen=True, slots=True)
class JudgedCriterion:
    """One verdict read from a reply: ``met`` is True for "oui"."""

    criterion_id: str
    met: bool
    rationale: str


def verdicts_schema(criterion_ids: Sequence[str]) -> dict[str, Any]:
    """``{"verdicts": [{"criterion", "rationale", "verdict"}]}`` for exactly these criteria."""
    n = len(criterion_ids)
    return {
        "type": "object",
        "properties": {
            "verdicts": {
                "type": "array",
                "minItems": n,
                "maxItems": n,
                "items": {
                    "type": "object",
                    "properties": {
                        "criterion": {"type": "string", "enum": list(criterion_ids)},
                        "rationale": {"type": "string"},
                        "verdict": {"type": "string", "enum": [YES, NO]},
                    },
                    "required": ["criterion", "rationale", "verdict"],
                },
            }
        },
        "required": ["verdicts"],
    }


def parse_json(content: str) -> dict[str, Any]:
    """The reply content as a JSON object; ReplyError if it is not one, or if one of its
    objects names a key twice."""
    try:
        data = loads(content, object_pairs_hook=once_each)
    except (json.JSONDecodeError, TypeError):
        raise ReplyError("reply is not valid JSON") from None
    except KeyTwice as twice:
        raise ReplyError(f"reply gives the key {str(twice)[:40]!r} twice in one object: "
                         "which one is meant cannot be told") from None
    except NestedTooDeeply:
        raise ReplyError("reply is not usable JSON (nested too deeply)") from None
    except (ValueError, RecursionError) as exc:  # a 6,000-digit number, 100,000 brackets
        if beyond_digit_limit(exc):  # not Python's advice (sys.set_int_max_str_digits)
            raise ReplyError(f"reply is not usable JSON: it holds {too_many_digits()}") \
                from None
        raise ReplyError(f"reply is not usable JSON ({_first_line(exc)})") from None
    if not isinstance(data, dict):
        raise ReplyError("reply is not a JSON object")
    try:  # what is stored must be storable: no NUL, no lone surrogate (json_input)
        check_storable(data)
    except ValueError as exc:
        raise ReplyError(f"reply cannot be stored: it {exc}") from None
    return data


def _first_line(exc: BaseException) -> str:
    return (str(exc).splitlines() or [type(exc).__name__])[0][:200]


def read_verdicts(data: dict[str, Any], criterion_ids: Sequence[str]) -> dict[str, JudgedCriterion]:
    """The verdict for each asked criterion; ReplyError names the first problem.

    The reply must give each asked criterion exactly one verdict and nothing else (the
    schema's ``minItems``/``maxItems``): two verdicts for one criterion contradict each
    other or repeat, and neither may be picked (ninth hostile pass, J1: the first one won,
    so ``[oui, non]`` rescued an attempt and ``[non, oui]`` did not).
    """
    items = data.get("verdicts")
    items = items if isinstance(items, list) else []
    given: dict[str, list[bool | None]] = {cid: [] for cid in criterion_ids}
    found: dict[str, JudgedCriterion] = {}
    for item in items:
        if not isinstance(item, dict):
            continue
        cid, met = item.get("criterion"), parse_verdict(item.get("verdict"))
        if not isinstance(cid, str) or cid not in given:
            continue
        given[cid].append(met)
        rationale = item.get("rationale")
        if met is not None:
            text = rationale.strip() if isinstance(rationale, str) else ""
            found[cid] = JudgedCriterion(cid, met, text)
    for cid, verdicts in given.items():
        if len(verdicts) > 1:
            words = ", ".join(_VERDICT_WORDS[v] for v in verdicts)
            raise ReplyError(f"reply has {len(verdicts)} verdicts for {cid} ({words}): "
                             "one was asked")
    for cid in criterion_ids:
        if cid not in found:
            raise ReplyError(f"reply has no verdict for {cid}")
    if len(items) != len(criterion_ids):
        asked = len(criterion_ids)
        raise ReplyError(f"reply has {len(items)} verdicts for the {asked} "
                         f"criteri{'on' if asked == 1 else 'a'} asked")
    return found


_VERDICT_WORDS = {True: YES, False: NO, None: "unreadable"}

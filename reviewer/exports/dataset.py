"""The corrected training set: each turn's final accepted answer, as chat JSONL.

``per="turn"``: one example per usable assistant turn, with its context (system + the
previous turns) and the answer; ``per="conversation"``: one example per conversation,
up to its last usable turn (see ``reviewer.exports.walk`` for "usable"). Formats:

* ``chat``: ``{"messages": [{"role": "system"|"user"|"assistant", "content": …}, …]}``
  (OpenAI and Hugging Face chat fine-tuning);
* ``sharegpt``: ``{"conversations": [{"from": "system"|"human"|"gpt", "value": …}, …]}``.

A manifest is written beside the file (``OUT.manifest.json``): counts, source runs,
current catalog versions, and which examples were restored by which override.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from json.encoder import encode_basestring
from pathlib import Path
from typing import Any, TextIO, cast

from sqlalchemy.orm import Session

from reviewer.atomic import atomic_text, write_json_atomic
from reviewer.catalog.versions import current_check_versions, current_criterion_versions
from reviewer.errors import BadInputError
from reviewer.exports.walk import Choice, Walk, walk_conversations

FORMATS = ("chat", "sharegpt")
PER = ("turn", "conversation")
SHAREGPT_ROLES = {"system": "system", "user": "human", "assistant": "gpt"}


def manifest_path(out: Path) -> Path:
    """Where the manifest of an export goes: ``OUT.manifest.json``."""
    return out.with_name(out.name + ".manifest.json")


def example(messages: list[dict[str, str]], fmt: str) -> dict[str, Any]:
    """One record in the chosen format."""
    if fmt == "sharegpt":
        return {"conversations": [{"from": SHAREGPT_ROLES[m["role"]], "value": m["content"]}
                                  for m in messages]}
    return {"messages": messages}


@dataclass
class DatasetReport:
    """What went into the dataset (the manifest's content)."""

    fmt: str
    per: str
    reviewer: str | None
    examples: int = 0
    turns: int = 0
    conversations: int = 0
    exported_conversations: int = 0
    complete: int = 0
    cut_short: int = 0
    stopped: Counter[str] = field(default_factory=Counter)
    runs: set[str] = field(default_factory=set)
    restored: list[dict[str, Any]] = field(default_factory=list)

    def manifest(self, out: Path, catalog: dict[str, dict[str, int]]) -> dict[str, Any]:
        """The manifest document."""
        return {
            "kind": "dataset",
            "file": out.name,
            "format": self.fmt,
            "per": self.per,
            "reviewer": self.reviewer,
            "examples": self.examples,
            "turns": self.turns,
            "conversations": {
                "total": self.conversations,
                "exported": self.exported_conversations,
                "complete": self.complete,
                "cut_short": self.cut_short,
                "stopped": dict(sorted(self.stopped.items())),
            },
            "source_runs": sorted(self.runs),
            "catalog": catalog,
            "restored": self.restored,
        }


def catalog_versions(session: Session) -> dict[str, dict[str, int]]:
    """The current version number of every criterion and check."""
    return {
        "criteria": {k: v.version for k, v in sorted(current_criterion_versions(session).items())},
        "checks": {k: v.version for k, v in sorted(current_check_versions(session).items())},
    }


def _item(message: dict[str, str], fmt: str) -> str:
    """``json.dumps(…, ensure_ascii=False)`` of one message of :func:`example`.

    Spelled out (the same bytes) so that each message of a conversation is encoded once:
    the examples of one conversation share their first messages.
    """
    if fmt == "sharegpt":
        return (f'{{"from": "{SHAREGPT_ROLES[message["role"]]}", '
                f'"value": {encode_basestring(message["content"])}}}')
    return f'{{"role": "{message["role"]}", "content": {encode_basestring(message["content"])}}}'


def _line(items: bytes, fmt: str) -> bytes:
    """One JSONL line of :func:`example` from its encoded messages."""
    key = b"conversations" if fmt == "sharegpt" else b"messages"
    return b'{"%s": [%s]}\n' % (key, items)


def _examples(walks: Iterator[Walk], report: DatasetReport) -> Iterator[bytes]:
    fmt = report.fmt
    for walk in walks:
        report.conversations += 1
        if walk.stop is not None:
            report.stopped[walk.stop] += 1
        elif walk.turns_planned is None or walk.last_turn >= walk.turns_planned:
            report.complete += 1
        else:
            report.cut_short += 1  # every stored turn usable, but fewer than planned
        if not walk.choices:
            continue
        report.exported_conversations += 1
        report.runs.add(walk.run)
        report.turns += len(walk.choices)
        # Each choice's context is the history before it plus one user message (the walk
        # checked it), so the history grows by two messages per turn: each message is
        # encoded (JSON, then UTF-8) once, however many examples repeat it.
        history = b""
        for index, choice in enumerate(walk.choices):
            new = choice.messages if index == 0 else choice.messages[-1:]
            parts = [_item(m, fmt).encode() for m in new]
            parts.append(_item(_answer(choice), fmt).encode())
            history = b", ".join([history, *parts] if history else parts)
            if report.per == "turn":
                _emit(report, [choice])
                yield _line(history, fmt)
        if report.per != "turn":
            _emit(report, walk.choices)
            yield _line(history, fmt)


def _answer(choice: Choice) -> dict[str, str]:
    return {"role": "assistant", "content": choice.response}


def _emit(report: DatasetReport, choices: list[Choice]) -> None:
    report.examples += 1
    for choice in choices:
        if choice.restored_by:
            report.restored.append({"line": report.examples, "key": str(choice.key),
                                    "by": list(choice.restored_by)})


def export_dataset(
    session: Session, out: Path, *, per: str = "turn", fmt: str = "chat",
    reviewer: str | None = None, runs: list[str] | None = None,
) -> DatasetReport:
    """Write the dataset and its manifest atomically; return what was written."""
    if per not in PER:
        raise BadInputError(f"--per must be turn or conversation, not {per!r}")
    if fmt not in FORMATS:
        raise BadInputError(f"--format must be chat or sharegpt, not {fmt!r}")
    report = DatasetReport(fmt, per, reviewer)
    catalog = catalog_versions(session)
    # The manifest is written once every example is, before the dataset takes its place:
    # a failure anywhere leaves the previous dataset and manifest as a matching pair.
    with atomic_text(out) as fh:
        # Lines are UTF-8 already (see _examples): straight to the buffer under the text
        # layer, which holds nothing (it is flushed before the file is synced).
        walks = walk_conversations(session, reviewer=reviewer, runs=runs)
        cast(TextIO, fh).buffer.writelines(_examples(walks, report))
        write_json_atomic(manifest_path(out), report.manifest(out, catalog))
    return report

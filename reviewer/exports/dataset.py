"""The corrected training set: every accepted answer with the context it was generated in.

``per="turn"`` (default): one example per accepted attempt (``reviewer.exports.walk``),
with its own stored context: rescuing an attempt adds an example and never removes
another. Several accepted attempts in one turn: ``pick`` keeps ``all`` of them (default:
each is an answer the filter or the reviewer accepted, generated in the same context, and
dropping either loses reviewed data), the ``first`` or the ``last``; the manifest counts
what each choice drops. ``per="conversation"``: one example per conversation, along the
chain of answers it actually continued from (``Walk.choices``); accepted attempts off that
chain are listed in the manifest (they are in the per-turn export).

An example whose context holds an answer that is now refused (rejected by a reviewer, or
refused by the corrected rule) is *tainted*: listed in the manifest and left out unless
``keep_tainted``.

Formats (``reviewer.exports.options.FORMATS``), each a JSONL line:

* ``chat``: ``{"messages": [{"role", "content"}, …]}`` (OpenAI chat fine-tuning, TRL
  conversational, mlx-lm ``chat``, Axolotl ``chat_template``); with ``weight_context=0``
  the context's assistant messages carry ``"weight": 0`` and the answer ``"weight": 1``
  (OpenAI), so earlier answers are not trained again in every later turn;
* ``sharegpt``: ``{"conversations": [{"from": "system"|"human"|"gpt", "value"}, …]}``
  (Unsloth, LLaMA-Factory);
* ``prompt-completion``: ``{"prompt": [context…], "completion": [answer]}`` (TRL
  conversational prompt-completion: the loss is on the completion only).

The manifest (``reviewer.exports.manifest``) goes beside the file, or into the folder of a
split export (``split``: ``train.jsonl`` + ``valid.jsonl`` [+ ``test.jsonl``], by
conversation, see ``reviewer.exports.split``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from models import CheckVersion, CriterionVersion
from reviewer.atomic import FileSet
from reviewer.collector import collector_paused
from reviewer.exports.json_string import json_string
from reviewer.exports.manifest import manifest_path
from reviewer.exports.options import DatasetOptions
from reviewer.exports.split import Split, Writer, open_writer
from reviewer.exports.walk import Node, Walk, walk_conversations
from reviewer.outputs import Output

SHAREGPT_ROLES = {"system": "system", "user": "human", "assistant": "gpt"}
# How a chat message starts, up to its content, for each role ``clean_messages`` keeps.
CHAT_STARTS = {role: b'{"role": "%s", "content": ' % role.encode()
               for role in ("system", "user", "assistant")}


class Encoder:
    """The JSON text of messages and lines, spelled as ``json.dumps(…, ensure_ascii=False)``
    writes the records (the same bytes), so that each message is encoded once however
    many examples of its conversation repeat it."""

    def __init__(self, fmt: str, weight_context: int | None = None) -> None:
        self.fmt = fmt
        self.weight_context = weight_context

    def item(self, role: str, content: str, *, answer: bool = False) -> bytes:
        """One message; an assistant message is weighted when weights are asked for.

        ``role`` is one of the chat roles (``walk.clean_messages`` keeps no other): its
        spelling needs no escape."""
        text = json_string(content)
        if self.fmt == "sharegpt":
            return b'{"from": "%s", "value": %s}' % (SHAREGPT_ROLES[role].encode(), text)
        if self.weight_context is not None and role == "assistant":
            weight = 1 if answer else self.weight_context
            return b'{"role": "%s", "content": %s, "weight": %d}' % (role.encode(), text,
                                                                     weight)
        # The text copied once, after its message's spelled-out start (a formatted line
        # also encoded the role: 0.3 against 0.16 µs, for each of 12,000 messages).
        return b"".join((CHAT_STARTS[role], text, b"}"))

    def line(self, context: bytes, answer: bytes) -> bytes:
        """One example from its encoded context messages and its encoded answer."""
        if self.fmt == "prompt-completion":
            return b'{"prompt": [%s], "completion": [%s]}\n' % (context, answer)
        key = b"conversations" if self.fmt == "sharegpt" else b"messages"
        return b'{"%s": [%s, %s]}\n' % (key, context, answer)


class Contexts:
    """The encoded context of each node of one conversation, built from its parent's."""

    def __init__(self, encoder: Encoder) -> None:
        self.encoder = encoder
        self._done: dict[int, bytes] = {}  # id(node.messages) -> encoded messages
        self._answers: dict[int, bytes] = {}  # id(node) -> answer encoded as context

    def context(self, node: Node) -> bytes:
        """``node``'s context messages, encoded and joined."""
        assert node.messages is not None
        found = self._done.get(id(node.messages))
        if found is not None:
            return found
        # Up the parents to one already encoded (iteratively: a conversation can be long).
        pending: list[Node] = []
        current: Node | None = node
        while current is not None and current.messages is not None \
                and id(current.messages) not in self._done:
            pending.append(current)
            current = current.parent
        item = self.encoder.item
        for todo in reversed(pending):
            assert todo.messages is not None
            parent = todo.parent
            if parent is not None and parent.messages is not None:
                start = len(parent.messages) + 1
                parts = [self._done[id(parent.messages)], self.as_context(parent)]
            else:
                start, parts = 0, []
            parts += [item(m["role"], m["content"]) for m in todo.messages[start:]]
            self._done[id(todo.messages)] = b", ".join(parts)
        return self._done[id(node.messages)]

    def as_context(self, node: Node) -> bytes:
        """``node``'s answer as a message of a later context."""
        found = self._answers.get(id(node))
        if found is None:
            assert node.response is not None
            found = self._answers[id(node)] = self.encoder.item("assistant", node.response)
        return found

    def answer(self, node: Node) -> bytes:
        """``node``'s answer as the trained message of its own example."""
        if self.encoder.weight_context is None:
            return self.as_context(node)
        assert node.response is not None
        return self.encoder.item("assistant", node.response, answer=True)

    def example(self, node: Node) -> bytes:
        """The JSONL line of ``node``'s example."""
        return self.encoder.line(self.context(node), self.answer(node))


@dataclass
class DatasetReport:
    """What went into the dataset (the manifest's content)."""

    options: DatasetOptions
    examples: int = 0
    turns: int = 0
    conversations: int = 0
    exported_conversations: int = 0
    complete: int = 0
    cut_short: int = 0
    stopped: Counter[str] = field(default_factory=Counter)
    runs: set[str] = field(default_factory=set)
    restored: list[dict[str, Any]] = field(default_factory=list)
    tainted: list[dict[str, Any]] = field(default_factory=list)
    malformed: list[str] = field(default_factory=list)
    several_turns: int = 0
    several_dropped: int = 0
    dropped_by_pick: list[str] = field(default_factory=list)
    off_chain: list[dict[str, Any]] = field(default_factory=list)
    files: list[dict[str, Any]] = field(default_factory=list)
    split: dict[str, Any] | None = None

    def count_conversation(self, walk: Walk, exported: bool) -> None:
        """The conversation figures of one walk."""
        self.conversations += 1
        if walk.stop is not None:
            self.stopped[walk.stop] += 1
        elif walk.choices and (walk.turns_planned is None
                               or walk.choices[-1].key.turn >= walk.turns_planned):
            self.complete += 1
        elif walk.choices:
            self.cut_short += 1  # the chain is whole, but shorter than planned
        if exported:
            self.exported_conversations += 1
            self.runs.add(walk.run)

    def manifest(self, catalog: dict[str, dict[str, int]]) -> dict[str, Any]:
        """The manifest document."""
        o = self.options
        kept = sum(1 for t in self.tainted if t["kept"])
        doc: dict[str, Any] = {
            "kind": "dataset",
            "files": self.files,
            "format": o.fmt,
            "per": o.per,
            "per_turn_pick": o.pick,
            "weight_context": o.weight_context,
            "reviewer": o.reviewer,
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
            "tainted": {"excluded": len(self.tainted) - kept, "kept": kept,
                        "examples": self.tainted},
            "malformed": self.malformed,
            "several_accepted": {
                "turns": self.several_turns,
                "dropped": {"all": 0, "first": self.several_dropped,
                            "last": self.several_dropped},
                "dropped_here": self.dropped_by_pick,
            },
        }
        if o.per == "conversation":
            doc["off_chain"] = self.off_chain
        if self.split is not None:
            doc["split"] = self.split
        return doc


def catalog_versions(session: Session) -> dict[str, dict[str, int]]:
    """The current version number of every criterion and check.

    Only the numbers are needed: two plain aggregates on the session's connection, not
    the ORM load of every current version row (about 40 ms of a 10,000-attempt export).
    """
    connection = session.connection()

    def latest(owner: Any, version: Any) -> dict[str, int]:
        rows = connection.execute(select(owner, func.max(version)).group_by(owner))
        return {str(k): int(v) for k, v in sorted(rows)}

    return {"criteria": latest(CriterionVersion.criterion_id, CriterionVersion.version),
            "checks": latest(CheckVersion.check_id, CheckVersion.version)}


def picked(eligible: list[Node], pick: str) -> list[Node]:
    """The examples kept from one turn's eligible attempts."""
    if pick == "all" or len(eligible) < 2:
        return eligible
    return [eligible[0]] if pick == "first" else [eligible[-1]]


def turn_examples(nodes: list[Node], options: DatasetOptions,
                  report: DatasetReport | None = None) -> list[Node]:
    """The attempts of one turn that become examples (tainted ones counted in ``report``)."""
    eligible: list[Node] = []
    for node in nodes:
        if not node.usable:
            if report is not None and node.accepted and node.raw is not None:
                report.malformed.append(str(node.key))
            continue
        taint = node.taint
        if taint is not None:
            if report is not None:
                report.tainted.append({"key": str(node.key), "context_answer": str(taint.key),
                                       "by": taint.why_refused(),
                                       "kept": options.keep_tainted})
            if not options.keep_tainted:
                continue
        eligible.append(node)
    chosen = picked(eligible, options.pick)
    if report is not None and len(eligible) > 1:
        report.several_turns += 1
        report.several_dropped += len(eligible) - 1
        report.dropped_by_pick += [str(n.key) for n in eligible if n not in chosen]
    return chosen


def _conversation_lines(walk: Walk, report: DatasetReport, encoder: Encoder,
                        writer: Writer) -> list[bytes]:
    """The lines of one conversation (and what the report records of them)."""
    options = report.options
    contexts = Contexts(encoder)
    lines: list[bytes] = []
    chosen: list[Node] = []
    if options.per == "turn":
        for nodes in walk.turns:
            examples = turn_examples(nodes, options, report)
            if examples:
                report.turns += 1
            chosen += examples
    else:
        on_chain = set(map(id, walk.choices))
        for node in walk.nodes():
            if node.usable and id(node) not in on_chain:
                report.off_chain.append({"key": str(node.key), "by": list(node.restored_by)})
        if walk.choices:
            report.turns += len(walk.choices)
            chosen = [walk.choices[-1]]
    report.count_conversation(walk, bool(chosen))
    file = writer.file_of(walk.run, walk.conversation)
    for node in chosen:
        lines.append(contexts.example(node))
        report.examples += 1
        line = writer.lines[file] + len(lines)
        restored = [n for n in (walk.choices if options.per == "conversation" else [node])
                    if n.restored_by]
        for n in restored:
            entry: dict[str, Any] = {"line": line, "key": str(n.key), "by": list(n.restored_by)}
            if writer.split is not None:
                entry = {"file": file, **entry}
            report.restored.append(entry)
    return lines


def dataset_lines(walks: Iterator[Walk], report: DatasetReport, writer: Writer) -> None:
    """Write every example of ``walks`` through ``writer``."""
    encoder = Encoder(report.options.fmt, report.options.weight_context)
    for walk in walks:
        lines = _conversation_lines(walk, report, encoder, writer)
        if lines:
            writer.write(walk.run, walk.conversation, lines)


def export_dataset(
    session: Session, out: Path | str | Output, *, per: str = "turn", fmt: str = "chat",
    reviewer: str | None = None, runs: list[str] | None = None,
    options: DatasetOptions | None = None, split: Split | None = None,
) -> DatasetReport:
    """Write the dataset and its manifest as one unit; return what was written."""
    options = options or DatasetOptions(per=per, fmt=fmt, reviewer=reviewer, runs=runs)
    options.check()
    report = DatasetReport(options)
    catalog = catalog_versions(session)
    with FileSet() as files, collector_paused():
        writer = open_writer(session, files, out, split, runs=options.runs)
        walks = walk_conversations(session, reviewer=options.reviewer, runs=options.runs)
        dataset_lines(walks, report, writer)
        report.files = writer.entries()
        report.split = writer.describe()
        if writer.manifest is not None:
            files.write_json(writer.manifest, report.manifest(catalog))
    return report


# Where the manifest of a single-file export goes (``reviewer.exports.manifest``).
__all__ = ["DatasetReport", "Encoder", "export_dataset", "manifest_path"]

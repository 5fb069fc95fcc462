"""Where each line of an export goes: one file, or a folder split by conversation.

``Split({"valid": 0.1}, seed=N)``: the conversations of the exported runs are ranked by a
keyed hash of ``(seed, run, conversation)`` and the first tenth goes to ``valid.jsonl``
(then ``test.jsonl`` when asked), the rest to ``train.jsonl``: a conversation is never on
two sides (its turns would leak its context into validation), and the same seed gives the
same split. The folder holds the files and ``manifest.json`` (mlx-lm reads
``train.jsonl``/``valid.jsonl``/``test.jsonl`` from such a folder).
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from models import Conversation, Run
from reviewer.atomic import FileSet, Sink
from reviewer.errors import BadInputError
from reviewer.exports.manifest import FOLDER_NAME, SUFFIX, file_entry
from reviewer.outputs import Output, as_output, beside, check_folder, inside

PARTS = ("valid", "test")
TRAIN = "train"


@dataclass(frozen=True)
class Split:
    """The share of conversations per side (``{"valid": 0.1}``) and the seed."""

    parts: dict[str, float]
    seed: int = 0

    @classmethod
    def parse(cls, text: str, seed: int = 0) -> Split:
        """``valid=0.1`` or ``valid=0.1,test=0.05``; BadInputError otherwise."""
        parts: dict[str, float] = {}
        for piece in text.split(","):
            name, _, value = piece.strip().partition("=")
            if name not in PARTS or name in parts:
                raise BadInputError(f"--split {text!r}: use valid=FRACTION[,test=FRACTION]")
            try:
                share = float(value)
            except ValueError:
                raise BadInputError(f"--split {text!r}: {value!r} is not a number") from None
            if not 0 < share < 1:
                raise BadInputError(f"--split {text!r}: a share is between 0 and 1")
            parts[name] = share
        if sum(parts.values()) >= 1:
            raise BadInputError(f"--split {text!r}: leaves nothing to train on")
        return cls(parts, seed)


def _rank(seed: int, run: str, conversation: str) -> bytes:
    return hashlib.blake2b(f"{run}\0{conversation}".encode(), digest_size=16,
                           key=str(seed).encode()).digest()


def assign(names: list[tuple[str, str]], split: Split) -> dict[tuple[str, str], str]:
    """The side of each conversation that is not on the train side."""
    ranked = sorted(names, key=lambda rc: _rank(split.seed, *rc))
    out: dict[tuple[str, str], str] = {}
    start = 0
    for part in PARTS:
        share = split.parts.get(part)
        if share is None:
            continue
        count = round(share * len(ranked))
        if count == 0 and len(ranked) > 1:
            count = 1  # asked for a side: give it at least one conversation
        for name in ranked[start:start + count]:
            out[name] = part
        start += count
    return out


@dataclass
class Writer:
    """Routes each conversation's lines to its file and counts them."""

    sinks: dict[str, Sink]
    manifest: Output | None
    split: Split | None = None
    sides: dict[tuple[str, str], str] = field(default_factory=dict)
    lines: Counter[str] = field(default_factory=Counter)
    conversations: Counter[str] = field(default_factory=Counter)
    names: dict[str, str] = field(default_factory=dict)  # side -> file name

    def file_of(self, run: str, conversation: str) -> str:
        """The file (its name in the manifest) that holds this conversation's lines."""
        if self.split is None:
            return next(iter(self.names.values()))
        return self.names[self.sides.get((run, conversation), TRAIN)]

    def write(self, run: str, conversation: str, lines: list[bytes]) -> None:
        """Add one conversation's lines."""
        name = self.file_of(run, conversation)
        # One call per conversation: the sink's per-call bookkeeping cost more than a join
        # of its few lines, and writelines neither counts nor copies them one by one.
        self.sinks[name].writelines(lines)
        self.lines[name] += len(lines)
        self.conversations[name] += 1

    def entries(self) -> list[dict[str, Any]]:
        """The manifest's ``files``: name, size, checksum and lines of each file."""
        out = []
        for name, sink in self.sinks.items():
            digest = sink.sha256  # hands the last block over, so the size is complete
            out.append(file_entry(name, sink.size, digest, self.lines[name]))
        return out

    def describe(self) -> dict[str, Any] | None:
        """The manifest's ``split`` entry (None without a split)."""
        if self.split is None:
            return None
        return {"seed": self.split.seed, "shares": self.split.parts,
                "by": "conversation",
                "conversations": {n: self.conversations[n] for n in self.sinks},
                "examples": {n: self.lines[n] for n in self.sinks}}


def conversation_names(session: Session, runs: list[str] | None) -> list[tuple[str, str]]:
    """Every (run, conversation) the export covers."""
    stmt: Any = select(Run.name, Conversation.name).join(Conversation,
                                                         Conversation.run_id == Run.id)
    if runs:
        stmt = stmt.where(Run.name.in_(runs))
    # Core on the session's connection: two columns per conversation, no ORM step.
    return [(run, name) for run, name in session.connection().execute(stmt)]


def open_writer(session: Session, files: FileSet, out: Path | str | Output,
                split: Split | None, *, runs: list[str] | None = None) -> Writer:
    """The writer for ``out``: one file with its manifest beside it (none for a stream),
    or with ``split`` a folder of files and their manifest."""
    if split is None:
        checked = as_output(out)
        if checked.folder:
            raise BadInputError(f"cannot write {checked}: it is a folder; nothing was written")
        name = Path(checked.shown).name if checked.target is not None else "-"
        manifest = beside(checked, SUFFIX)
        return Writer({name: files.open(checked)}, manifest, names={TRAIN: name})
    folder = out if isinstance(out, Output) and out.folder else check_folder(
        out if not isinstance(out, Output) else out.shown,
        database=out.database if isinstance(out, Output) else None,
        inputs=out.inputs if isinstance(out, Output) else ())
    sides = [TRAIN, *(p for p in PARTS if p in split.parts)]
    targets = {side: inside(folder, f"{side}.jsonl") for side in sides}
    manifest = inside(folder, FOLDER_NAME)
    writer = Writer({f"{side}.jsonl": files.open(targets[side]) for side in sides}, manifest,
                    split, assign(conversation_names(session, runs), split),
                    names={side: f"{side}.jsonl" for side in sides})
    return writer

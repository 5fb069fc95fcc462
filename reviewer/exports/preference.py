"""Preference data for free: a refused attempt and an accepted one of the same context.

The filter retries a turn until an answer is accepted, so a refused attempt and the
accepted retry share the exact same context, already labelled by the filter and the
reviewer. ``export_preference`` writes them for the trainers that learn from such pairs:

* ``dpo`` (TRL ``DPOTrainer``, conversational with an explicit prompt):
  ``{"prompt": [context…], "chosen": [answer], "rejected": [answer]}``;
* ``openai-dpo`` (OpenAI preference fine-tuning): ``{"input": {"messages": [context…]},
  "preferred_output": [answer], "non_preferred_output": [answer]}``;
* ``kto`` (TRL ``KTOTrainer``, unpaired): ``{"prompt": [context…], "completion": [answer],
  "label": true|false}``, one line per labelled attempt.

Pairs only join attempts whose contexts are identical (the same messages, byte for byte).
The *chosen* side is an answer the dataset exports (``reviewer.exports.dataset``: final
status accepted, well-formed context, not tainted unless ``keep_tainted``). The *rejected*
side is a refusal a reviewer confirmed (a ``reject`` decision), or, only with
``include_filter_refusals``, a refusal of the filter that no reviewer overturned (the
rule replayed with second opinions and overrides still refuses it). A refusal a reviewer
overturned is accepted, so it is never a rejected side. ``causes`` keeps the pairs whose
rejected side is refused for one of those check or criterion ids (a reviewer's reject
that no rule reason backs has the cause ``reviewer``). Pairs refused only by a regex
(``D-…``) teach the model to avoid words, not to answer better: choose causes with care.

KTO labels each attempt whose label is final: ``true`` for every exported answer,
``false`` for every refusal that may be a rejected side (same rules as above).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import chain
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from reviewer.atomic import FileSet
from reviewer.collector import collector_paused
from reviewer.exports.dataset import Contexts, Encoder, catalog_versions, turn_examples
from reviewer.exports.options import REVIEWER_CAUSE, DatasetOptions, PreferenceOptions
from reviewer.exports.split import Split, Writer, open_writer
from reviewer.exports.walk import BY_REVIEWER, Node, Walk, walk_conversations
from reviewer.outputs import Output


def label_source(node: Node) -> str:
    """Who gave the attempt its label: ``reviewer``, ``overrides``, ``second opinion`` or
    ``filter`` (``reviewer.exports.walk``)."""
    return node.source


def refusal_causes(node: Node) -> tuple[str, ...]:
    """The check and criterion ids a refused attempt is refused for."""
    return node.causes or (REVIEWER_CAUSE,)


def rejectable(node: Node, options: PreferenceOptions) -> bool:
    """Whether a refused attempt may be a rejected side (or a KTO ``false``)."""
    if node.accepted or not node.well_formed or node.response is None:
        return False
    if node.source != BY_REVIEWER and not options.include_filter_refusals:
        return False
    if node.taint is not None and not options.keep_tainted:
        return False
    return options.causes is None or bool(set(refusal_causes(node)) & options.causes)


@dataclass
class PreferenceReport:
    """What went into the preference export (the manifest's content)."""

    options: PreferenceOptions
    lines: int = 0
    pairs: list[dict[str, Any]] = field(default_factory=list)
    by_cause: Counter[str] = field(default_factory=Counter)
    by_source: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    labels: Counter[str] = field(default_factory=Counter)
    identical: int = 0
    runs: set[str] = field(default_factory=set)
    files: list[dict[str, Any]] = field(default_factory=list)
    split: dict[str, Any] | None = None

    def manifest(self, catalog: dict[str, dict[str, int]]) -> dict[str, Any]:
        """The manifest document."""
        o = self.options
        doc: dict[str, Any] = {
            "kind": "preference",
            "files": self.files,
            "format": o.fmt,
            "reviewer": o.reviewer,
            "include_filter_refusals": o.include_filter_refusals,
            "causes": sorted(o.causes) if o.causes is not None else None,
            "keep_tainted_context": o.keep_tainted,
            "lines": self.lines,
            "by_cause": dict(sorted(self.by_cause.items())),
            "by_label_source": {side: dict(sorted(c.items()))
                                for side, c in sorted(self.by_source.items())},
            "source_runs": sorted(self.runs),
            "catalog": catalog,
        }
        if o.fmt == "kto":
            doc["labels"] = {"true": self.labels["true"], "false": self.labels["false"]}
            doc["examples"] = self.pairs
        else:
            doc["pairs"] = self.pairs
            doc["identical_answers_skipped"] = self.identical
        if self.split is not None:
            doc["split"] = self.split
        return doc


class _Lines:
    """The JSON text of the preference formats (the bytes of ``json.dumps``)."""

    def __init__(self, fmt: str) -> None:
        self.fmt = fmt

    def pair(self, context: bytes, chosen: bytes, rejected: bytes) -> bytes:
        if self.fmt == "openai-dpo":
            return (b'{"input": {"messages": [%s]}, "preferred_output": [%s], '
                    b'"non_preferred_output": [%s]}\n' % (context, chosen, rejected))
        return b'{"prompt": [%s], "chosen": [%s], "rejected": [%s]}\n' % (
            context, chosen, rejected)

    def label(self, context: bytes, answer: bytes, good: bool) -> bytes:
        return b'{"prompt": [%s], "completion": [%s], "label": %s}\n' % (
            context, answer, b"true" if good else b"false")


class _Tally:
    """Who labelled each side and why each rejected side is refused, gathered as lists
    and counted once at the end (``Counter.update`` per pair was 2 % of the export)."""

    def __init__(self) -> None:
        self.sources: dict[str, list[str]] = {}
        self.causes: list[tuple[str, ...]] = []

    def side(self, side: str, node: Node) -> None:
        """``node`` is on ``side`` (``chosen``, ``rejected``, ``true`` or ``false``)."""
        self.sources.setdefault(side, []).append(label_source(node))

    def into(self, report: PreferenceReport) -> None:
        """Add everything gathered to ``report``'s counts."""
        for side, sources in self.sources.items():
            report.by_source[side].update(sources)
        report.by_cause.update(chain.from_iterable(self.causes))


def _turn_lines(nodes: list[Node], report: PreferenceReport, contexts: Contexts,
                lines: _Lines, start: int, exported: DatasetOptions, tally: _Tally
                ) -> list[bytes]:
    options = report.options
    chosen = turn_examples(nodes, exported)
    rejected = [n for n in nodes if rejectable(n, options)]
    out: list[bytes] = []
    if options.fmt == "kto":
        for node in nodes:
            label = node in chosen
            if not label and node not in rejected:
                continue
            out.append(lines.label(contexts.context(node), contexts.answer(node), label))
            report.labels["true" if label else "false"] += 1
            tally.side("true" if label else "false", node)
            if not label:
                tally.causes.append(refusal_causes(node))
            report.pairs.append({"line": start + len(out), "key": str(node.key),
                                 "label": label, "by": label_source(node)})
        return out
    for good in chosen:
        context = contexts.context(good)
        for bad in rejected:
            if contexts.context(bad) != context:
                continue  # not the same context: no pair
            if bad.response == good.response:
                report.identical += 1
                continue
            out.append(lines.pair(context, contexts.answer(good), contexts.answer(bad)))
            tally.side("chosen", good)
            tally.side("rejected", bad)
            causes = refusal_causes(bad)
            tally.causes.append(causes)
            report.pairs.append({"line": start + len(out), "chosen": str(good.key),
                                 "rejected": str(bad.key), "causes": list(causes)})
    return out


def preference_lines(walks: Iterator[Walk], report: PreferenceReport, writer: Writer) -> None:
    """Write the pairs (or labels) of ``walks`` through ``writer``."""
    lines = _Lines(report.options.fmt)
    encoder = Encoder("chat")
    exported = report.options.dataset
    tally = _Tally()
    for walk in walks:
        contexts = Contexts(encoder)
        file = writer.file_of(walk.run, walk.conversation)
        out: list[bytes] = []
        for nodes in walk.turns:
            found = _turn_lines(nodes, report, contexts, lines, writer.lines[file] + len(out),
                                exported, tally)
            if writer.split is not None:
                for entry in report.pairs[len(report.pairs) - len(found):]:
                    entry["file"] = file
            out += found
        if out:
            report.lines += len(out)
            report.runs.add(walk.run)
            writer.write(walk.run, walk.conversation, out)
    tally.into(report)


def export_preference(session: Session, out: Path | str | Output, options: PreferenceOptions,
                      split: Split | None = None) -> PreferenceReport:
    """Write the preference export and its manifest as one unit; return what was written."""
    options.check()
    report = PreferenceReport(options)
    catalog = catalog_versions(session)
    with FileSet() as files, collector_paused():
        writer = open_writer(session, files, out, split, runs=options.runs)
        # KTO labels every attempt; pairs only come from turns with several attempts.
        walks = walk_conversations(session, reviewer=options.reviewer, runs=options.runs,
                                   content=True, causes=True, pairs_only=options.fmt != "kto")
        preference_lines(walks, report, writer)
        report.files = writer.entries()
        report.split = writer.describe()
        if writer.manifest is not None:
            files.write_json(writer.manifest, report.manifest(catalog))
    return report

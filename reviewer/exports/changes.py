"""What the review did to the training set, before anything is exported.

``review_changes`` walks the store as the dataset export does and compares, per turn, the
examples exported now with the filter's own selection (its stored decisions, no second
opinion, no override, no decision; contexts tainted by the filter's own refusals left
out): examples gained (rescued answers) and lost (answers a reviewer rejected, or whose
context now holds a refused answer), each by refusal cause (the check or criterion ids),
gained ones also by what rescued them; turns regained (no answer kept by the filter, one
exported now); and the preference pairs available. ``reviewer export dataset OUT
--dry-run`` prints it, the Export dialog shows it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.orm import Session

from reviewer.exports.dataset import turn_examples
from reviewer.exports.options import DatasetOptions, PreferenceOptions
from reviewer.exports.preference import refusal_causes, rejectable
from reviewer.exports.walk import BY_OVERRIDES, BY_REVIEWER, Node, walk_conversations


@dataclass
class ReviewChanges:
    """The figures (see the module docstring); keys are ``RUN/CONVERSATION/TURN/ATTEMPT``."""

    filter_examples: int = 0
    examples: int = 0
    gained: list[str] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)
    gained_by_cause: Counter[str] = field(default_factory=Counter)
    gained_by: Counter[str] = field(default_factory=Counter)
    lost_by_cause: Counter[str] = field(default_factory=Counter)
    lost_by: Counter[str] = field(default_factory=Counter)
    turns_regained: int = 0
    pairs_reviewed: int = 0
    pairs_with_filter: int = 0
    pairs_by_cause: Counter[str] = field(default_factory=Counter)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready figures."""
        return {
            "filter_examples": self.filter_examples, "examples": self.examples,
            "gained": len(self.gained), "lost": len(self.lost),
            "gained_by_cause": dict(sorted(self.gained_by_cause.items())),
            "gained_by": dict(sorted(self.gained_by.items())),
            "lost_by_cause": dict(sorted(self.lost_by_cause.items())),
            "lost_by": dict(sorted(self.lost_by.items())),
            "turns_regained": self.turns_regained,
            "pairs": {"reviewed": self.pairs_reviewed,
                      "with_filter_refusals": self.pairs_with_filter,
                      "by_cause": dict(sorted(self.pairs_by_cause.items()))},
            "gained_keys": self.gained, "lost_keys": self.lost,
        }

    def lines(self) -> list[str]:
        """The summary a reviewer reads."""
        out = [f"{self.examples} examples per turn, {self.filter_examples} with the filter's "
               f"own decisions: {len(self.gained)} gained, {len(self.lost)} lost, "
               f"{self.turns_regained} turns regained"]
        if self.gained:
            out.append(f"gained, by refusal cause: {_counts(self.gained_by_cause)}")
            out.append(f"gained, by what rescued them: {_counts(self.gained_by)}")
        if self.lost:
            out.append(f"lost, by why: {_counts(self.lost_by)}")
            out.append(f"lost, by refusal cause: {_counts(self.lost_by_cause)}")
        out.append(f"preference pairs: {self.pairs_reviewed} with a refusal a reviewer "
                   f"confirmed, {self.pairs_with_filter} counting the filter's refusals"
                   + (f" (by cause: {_counts(self.pairs_by_cause)})"
                      if self.pairs_by_cause else ""))
        return out


def _counts(counter: Counter[str]) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(counter.items(), key=lambda i: (-i[1], i[0])))


def _filter_examples(nodes: list[Node], pick: str) -> list[Node]:
    """The examples of one turn with the filter's own decisions."""
    kept = [n for n in nodes if n.filter_accepted and n.well_formed
            and n.response is not None and n.filter_taint is None]
    if pick == "all" or len(kept) < 2:
        return kept
    return [kept[0]] if pick == "first" else [kept[-1]]


def _rescuer(text: str) -> str:
    """What a ``restored_by`` entry names: ``decision``, a criterion or check id, or
    ``second opinion``."""
    if text.startswith("accepted by "):
        return "decision"
    if text == "second opinion":
        return text
    return text.split("=", 1)[0].split(" ", 1)[0]


def _why_lost(node: Node) -> str:
    if not node.accepted:
        return "rejected by a reviewer" if node.source == BY_REVIEWER else \
            "refused with a reviewer's overrides" if node.source == BY_OVERRIDES else \
            "refused by the rule"
    if node.taint is not None:
        return "context holds a refused answer"
    return "not picked"


def _pairs(nodes: list[Node], chosen: list[Node], options: PreferenceOptions,
           changes: ReviewChanges) -> None:
    for bad in nodes:
        if not rejectable(bad, options):
            continue
        count = sum(1 for good in chosen if good.messages == bad.messages
                    and good.response != bad.response)
        if bad.source == BY_REVIEWER:
            changes.pairs_reviewed += count
        changes.pairs_with_filter += count
        if count:
            changes.pairs_by_cause.update({c: count for c in refusal_causes(bad)})


def review_changes(session: Session, options: DatasetOptions | None = None) -> ReviewChanges:
    """What the review changed (module docstring), for the dataset ``options``."""
    options = options or DatasetOptions()
    pairs = PreferenceOptions(include_filter_refusals=True, keep_tainted=options.keep_tainted,
                              reviewer=options.reviewer, runs=options.runs)
    changes = ReviewChanges()
    for walk in walk_conversations(session, reviewer=options.reviewer, runs=options.runs,
                                   content=True, causes=True):
        for nodes in walk.turns:
            now = turn_examples(nodes, options)
            before = _filter_examples(nodes, options.pick)
            changes.examples += len(now)
            changes.filter_examples += len(before)
            if now and not before:
                changes.turns_regained += 1
            for node in now:
                if node not in before:
                    changes.gained.append(str(node.key))
                    changes.gained_by_cause.update(node.causes if not node.filter_accepted
                                                   else ("context",))
                    changes.gained_by.update({_rescuer(r) for r in node.restored_by}
                                             or {"context"})
            for node in before:
                if node not in now:
                    changes.lost.append(str(node.key))
                    changes.lost_by[_why_lost(node)] += 1
                    if not node.accepted:
                        changes.lost_by_cause.update(refusal_causes(node))
            _pairs(nodes, now, pairs, changes)
    return changes

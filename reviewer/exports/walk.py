"""Walking each conversation with the reviewer's corrections: every attempt as a node.

The *final* status of an attempt: a reviewer ``accept`` or ``reject`` wins; otherwise the
filter rule is replayed (``reviewer.rule.replay.replay``) with second opinions and the
reviewer's overrides; otherwise the filter's stored decision stands (the replay
reproduces it). Only attempts with a second opinion or with overrides but no decision
need the replay, so the walk reads plain rows and loads verdicts for those few only.

Each attempt is a :class:`Node` carrying its final status, who gave it, why a refused
one was restored, and the context it was **actually generated from** (its stored
messages). Its ``parent`` is the attempt of the previous turn that context continues:
the one whose context plus answer is exactly the start of this one (a retry shares its
turn's context, so the retries of a turn share their parent). A context that continues an
answer whose final status is *refused* is *tainted* (``Node.taint``): training on it
would teach that answer again.

Exports read the nodes in two ways:

* per turn, every accepted attempt is an example on its own, with its own context:
  rescuing an attempt adds one and never removes another;
* per conversation, :attr:`Walk.choices` is the chain the conversation actually followed:
  on each turn, the attempt the next turn's context continues (on the last stored turn,
  the one the filter kept, else the first accepted). It stops at a turn with no accepted
  answer, at one generated after an answer that is now refused (which may still end on
  another accepted attempt of that turn: a rescued one), or where the stored contexts
  stop following each other.

The walk streams the attempts with a plain Core select (``yield_per``) and handles
conversations in chunks, so the whole store never sits in memory. It reads the stored
JSON text of the contexts and decodes only those it needs: a context that continues its
parent is stored as the parent's text plus the parent's answer and the new user message,
so only that new part is decoded (any other stored form is decoded whole).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import groupby
from json.encoder import encode_basestring_ascii
from operator import attrgetter
from typing import Any, NamedTuple

from sqlalchemy import (
    Text,
    and_,
    case,
    cast,
    exists,
    null,
    or_,
    select,
    tuple_,
    type_coerce,
    union,
)
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session, aliased

from models import Attempt, Conversation, ReviewDecision, Run, Verdict
from reviewer.keys import AttemptKey
from reviewer.review.labels import ReviewView, review_views
from reviewer.rule.filter import Decision, reason_ids
from reviewer.rule.replay import FALSE_POSITIVE, load_attempts, replay

CHUNK = 2000
# Why a conversation's chain stops before its last stored turn.
NO_ANSWER = "no accepted answer"
DIVERGED = "context diverged"
MALFORMED = "malformed context"
MISSING = "missing turn"
REFUSED_ON_CHAIN = "continued after a refused answer"

# Who gave an attempt its final status.
BY_REVIEWER = "reviewer"  # an accept or reject decision
BY_OVERRIDES = "overrides"  # the rule replayed with a reviewer's overrides, no decision
BY_SECOND_OPINION = "second opinion"  # the rule replayed with a second opinion
BY_FILTER = "filter"  # the filter's own decision


@lru_cache(maxsize=4096)
def _ids_of_text(text: str) -> tuple[str, ...]:
    """The ids of the stored JSON text of a refusal's reasons."""
    return tuple(reason_ids([str(r) for r in json.loads(text) or []]))


@dataclass(eq=False, slots=True)
class Node:
    """One attempt as the exports see it (see the module docstring).

    ``messages`` is the cleaned context (``role``/``content`` only), None when it was not
    read (a refused attempt no export needs) or is not a list of chat messages;
    ``well_formed`` says it ends with a user message after an optional system message and
    alternating turns. ``causes`` are the check and criterion ids of the refusal that
    stands (a refused attempt), or of the filter's refusal (a restored one), when the
    walk was asked for them.
    """

    key: AttemptKey
    id: int
    filter_accepted: bool
    accepted: bool
    source: str
    decided_by: str | None
    restored_by: tuple[str, ...]
    refusal: Any = None  # the refusal's reasons: a Decision's, or the stored JSON text
    messages: list[dict[str, str]] | None = None
    response: str | None = None
    well_formed: bool = False
    parent: Node | None = None
    raw: Any = None  # the stored JSON text of the context (or the decoded list)
    canonical: bool = False  # the stored text is exactly the JSON list of ``messages``
    # The first answer of this context whose final status is refused (None: none is), and
    # the same with the filter's own decisions: set with ``parent`` (see ``link``).
    taint: Node | None = None
    filter_taint: Node | None = None
    ids: tuple[str, ...] | None = None  # ``causes``, once decoded from ``refusal``

    def link(self, parent: Node | None) -> None:
        """Set the attempt this context continues, and what that makes of its context."""
        self.parent = parent
        if parent is None:
            self.taint = self.filter_taint = None
            return
        self.taint = parent.taint or (None if parent.accepted else parent)
        self.filter_taint = parent.filter_taint or (None if parent.filter_accepted else parent)

    @property
    def causes(self) -> tuple[str, ...]:
        """The check and criterion ids of the refusal that stands (a refused attempt), or
        of the filter's refusal (a restored one), when the walk read them."""
        if self.ids is not None:
            return self.ids  # decoded once
        reasons = self.refusal
        if isinstance(reasons, str):
            ids = _ids_of_text(reasons)  # many refusals share their reasons' text
        else:
            ids = tuple(reason_ids([str(r) for r in reasons or []]))
        self.ids = ids
        return ids

    @property
    def usable(self) -> bool:
        """Accepted, with a well-formed context it was generated from."""
        return self.accepted and self.well_formed and self.response is not None

    def why_refused(self) -> str:
        """Who refused it, in words (for manifests)."""
        if self.source == BY_REVIEWER:
            return f"rejected by {self.decided_by}"
        if self.source == BY_OVERRIDES:
            return f"refused with the overrides of {self.decided_by}"
        return "refused by the filter"


@dataclass
class Walk:
    """One conversation: its attempts turn by turn, and the chain it followed."""

    run: str
    conversation: str
    turns_planned: int | None
    last_turn: int
    turns: list[list[Node]] = field(default_factory=list)
    choices: list[Node] = field(default_factory=list)
    stop: str | None = None
    stop_turn: int | None = None
    last_turn_filter_refused: bool = False

    @property
    def history(self) -> list[dict[str, str]]:
        """The messages up to the last chosen answer (empty when no turn is usable)."""
        if not self.choices:
            return []
        last = self.choices[-1]
        assert last.messages is not None and last.response is not None
        return [*last.messages, {"role": "assistant", "content": last.response}]

    def nodes(self) -> Iterator[Node]:
        """Every attempt, in turn and attempt order."""
        for nodes in self.turns:
            yield from nodes


def clean_messages(messages: Any) -> list[dict[str, str]] | None:
    """Only ``role``/``content``; None if a message is not a chat message."""
    out: list[dict[str, str]] = []
    for m in messages or []:
        if not isinstance(m, dict) or not isinstance(m.get("content"), str) \
                or m.get("role") not in ("system", "user", "assistant"):
            return None
        out.append({"role": m["role"], "content": m["content"]})
    return out


def alternates(messages: list[dict[str, str]]) -> bool:
    """Optional system message first, then user/assistant alternating, user first."""
    body = messages[1:] if messages and messages[0]["role"] == "system" else messages
    return bool(body) and all(
        m["role"] == ("user" if i % 2 == 0 else "assistant") for i, m in enumerate(body)
    )


def well_formed(context: list[dict[str, str]] | None) -> bool:
    """A context an answer can follow: alternating turns ending with a user message."""
    return bool(context) and context is not None and context[-1]["role"] == "user" \
        and alternates([*context, {"role": "assistant", "content": ""}])


class Row(NamedTuple):
    """What the walk reads of one attempt (a tuple: a hundred thousand are made per export)."""

    id: int
    turn: int
    attempt: int
    accepted: bool
    messages: Any  # the stored JSON text (decoded list on backends that decode JSON), or None
    response: str | None  # None when not read (a refused attempt, read again if needed)
    reasons: Any  # the stored reasons of a refused attempt when causes are read, else None


@dataclass(frozen=True, slots=True)
class _Conv:
    run: str
    name: str
    turns_planned: int | None
    rows: list[Row]


class _Status:
    """Final status, its source and restoration causes of the attempts of one chunk."""

    def __init__(self, views: dict[int, ReviewView], replayed: dict[int, Attempt],
                 content: dict[int, tuple[Any, str]], primary: set[int] | None = None
                 ) -> None:
        self.views = views
        self.replayed = replayed
        self.content = content  # context and answer read after the main select
        self.primary = primary  # with every text read: the ids the dataset walk reads too

    def node(self, run: str, conv: str, row: Row) -> Node:
        """The node of one attempt (its context is attached by the walk)."""
        view = self.views.get(row.id)
        attempt = self.replayed.get(row.id)
        if view is None and attempt is None:  # most attempts: the filter's decision stands
            return Node(AttemptKey(run, conv, row.turn, row.attempt), row.id, row.accepted,
                        row.accepted, BY_FILTER, None, (), row.reasons)
        decision: Decision | None = None
        if attempt is not None:
            decision = replay(attempt, overrides=view.overrides if view else None)
        if view is not None and view.decision in ("accept", "reject"):
            accepted, source = view.decision == "accept", BY_REVIEWER
        elif decision is not None:
            accepted = decision.accepted
            source = BY_OVERRIDES if view is not None else \
                BY_SECOND_OPINION if accepted != row.accepted else BY_FILTER
        else:
            accepted, source = row.accepted, BY_FILTER
        refusal = tuple(reason_ids(decision.reasons)) \
            if decision is not None and decision.reasons else row.reasons
        return Node(AttemptKey(run, conv, row.turn, row.attempt), row.id, row.accepted,
                    accepted, source, view.reviewer if view is not None else None,
                    self._restored_by(row, accepted, view, attempt), refusal)

    def _restored_by(self, row: Row, accepted: bool, view: ReviewView | None,
                     attempt: Attempt | None) -> tuple[str, ...]:
        """Why a filter-refused attempt now counts as accepted (empty if it does not)."""
        if row.accepted or not accepted:
            return ()
        if view is not None and view.decision == "accept":
            return (f"accepted by {view.reviewer}",)
        out: list[str] = []
        if view is not None:
            out += [f"{cid}={'met' if met else 'unmet'} by {view.reviewer}"
                    for cid, met in sorted(view.criteria.items())]
            out += [f"{cid} false positive by {view.reviewer}"
                    for cid, mark in sorted(view.checks.items()) if mark == FALSE_POSITIVE]
        if attempt is not None and replay(attempt).accepted:
            out.append("second opinion")
        return tuple(out)

    def text(self, row: Row) -> tuple[Any, str | None]:
        """The stored context and answer of an attempt, as far as they were read."""
        if row.messages is not None:
            return row.messages, row.response
        return self.content.get(row.id, (None, None))


_TURN = attrgetter("turn")


def _answer_text(response: str) -> str:
    """How a stored context spells an answer after the context it followed."""
    return f', {{"role": "assistant", "content": {encode_basestring_ascii(response)}}}, '


class _Chain:
    """Finding which attempt of the previous turn a context continues (see _attach)."""

    def __init__(self, previous: Sequence[Node], primary: set[int] | None) -> None:
        # Candidates with a stored text, the accepted first (the usual parent). When every
        # text was read (``primary`` given), only those the dataset walk reads are parents,
        # so that both walks link the same contexts.
        self.previous = sorted((n for n in previous if n.messages is not None
                                and n.response is not None
                                and (primary is None or n.filter_accepted
                                     or n.id in primary)), key=lambda n: not n.accepted)
        self._heads: dict[int, str] = {}
        self._answers: dict[int, str] = {}

    def head(self, node: Node) -> str | None:
        """The parent's stored text without its closing "]" (None when not canonical)."""
        if not node.canonical or not isinstance(node.raw, str):
            return None
        if node.id not in self._heads:
            self._heads[node.id] = node.raw.rstrip()[:-1]
        return self._heads[node.id]

    def answer(self, node: Node) -> str:
        """How a stored context spells ``node``'s answer after it (once per parent: each
        of its children's contexts is checked against it)."""
        found = self._answers.get(node.id)
        if found is None:
            assert node.response is not None
            found = self._answers[node.id] = _answer_text(node.response)
        return found

    def continued(self, raw: str) -> tuple[Node, list[Any]] | None:
        """The parent whose text and answer start ``raw``, and what follows, decoded."""
        for parent in self.previous:
            head = self.head(parent)
            if head is None or not raw.startswith(head):
                continue
            answer = self.answer(parent)
            if not raw.startswith(answer, len(head)):
                continue
            try:
                tail = json.loads("[" + raw[len(head) + len(answer):])
            except ValueError:
                return None
            return (parent, tail) if isinstance(tail, list) else None
        return None

    def parent_of(self, context: list[dict[str, str]]) -> Node | None:
        """The attempt whose context plus answer is ``context`` without its last message."""
        for parent in self.previous:
            assert parent.messages is not None
            size = len(parent.messages)
            if len(context) == size + 2 and context[size] == {
                    "role": "assistant", "content": parent.response} \
                    and context[:size] == parent.messages:
                return parent
        return None


# The chain of a first turn, or of a turn after one not read (the preference export
# reads only the turns that can pair): no parent, so nothing cached, shared by all.
_NO_PARENTS = _Chain((), None)


def _attach(node: Node, raw: Any, response: str | None, chain: _Chain) -> None:
    """Decode ``node``'s context, find its parent, and say whether it is well formed."""
    node.raw, node.response = raw, response
    if isinstance(raw, str):
        found = chain.continued(raw)
        if found is not None:
            parent, tail = found
            cleaned = clean_messages(tail)
            if cleaned is not None:
                assert parent.messages is not None and parent.response is not None
                node.link(parent)
                node.messages = [*parent.messages,
                                 {"role": "assistant", "content": parent.response}, *cleaned]
                node.canonical = cleaned == tail
                # A well-formed parent and one more user message: nothing else to check.
                node.well_formed = (parent.well_formed and len(cleaned) == 1
                                    and cleaned[0]["role"] == "user") \
                    or well_formed(node.messages)
                return
        data = json.loads(raw)  # a damaged row stops the export (nothing is replaced)
    else:  # a backend that hands JSON over decoded
        data = raw
    cleaned = clean_messages(data) if isinstance(data, list) else None
    node.messages = cleaned
    node.canonical = cleaned is not None and cleaned == data and isinstance(raw, str) \
        and raw.rstrip().endswith("]")
    node.well_formed = well_formed(cleaned)
    if cleaned is not None:
        node.link(chain.parent_of(cleaned))


def _twin(raw: Any, seen: dict[int, list[Node]]) -> Node | None:
    """The first attempt of ``seen`` whose stored context is the very text ``raw``."""
    if not isinstance(raw, str):
        return None
    return next((n for n in seen.get(len(raw), ()) if n.raw == raw), None)


def _same_context(node: Node, twin: Node) -> None:
    """A retry whose stored context is the very text of another attempt of its turn."""
    node.raw, node.messages = twin.raw, twin.messages
    node.link(twin.parent)
    node.canonical, node.well_formed = twin.canonical, twin.well_formed


def _walk_one(conv: _Conv, status: _Status, chain_too: bool = True) -> Walk:
    walk = Walk(conv.run, conv.name, conv.turns_planned, conv.rows[-1].turn)  # turn order
    previous: list[Node] = []
    previous_turn = 0
    refused: dict[str, Node] = {}  # answers now refused, by text (see _taint_by_text)
    for turn, group in groupby(conv.rows, key=_TURN):
        rows = list(group)
        # A turn after a turn not read continues no attempt the walk holds.
        chain = _Chain(previous, status.primary) if previous and turn == previous_turn + 1 \
            else _NO_PARENTS
        # Retries share their turn's context. The distinct stored texts of the turn, by
        # length: a retry's twin is found by comparing the few texts of its length, not by
        # hashing every context's whole text (kilobytes) as a dictionary key would.
        seen: dict[int, list[Node]] = {}
        nodes: list[Node] = []
        for row in rows:
            node = status.node(conv.run, conv.name, row)
            raw, response = status.text(row)
            if raw is not None:
                twin = _twin(raw, seen) if seen else None
                if twin is not None:
                    _same_context(node, twin)
                    node.response = response
                else:
                    _attach(node, raw, response, chain)
                    if isinstance(raw, str):
                        seen.setdefault(len(raw), []).append(node)
                if refused and node.taint is None and node.parent is None:
                    _taint_by_text(node, refused)
            nodes.append(node)
        refused.update((n.response.strip(), n) for n in nodes
                       if not n.accepted and n.response is not None
                       and (status.primary is None or n.filter_accepted or n.id in status.primary))
        walk.turns.append(nodes)
        previous, previous_turn = nodes, turn
    walk.last_turn_filter_refused = not any(n.filter_accepted for n in walk.turns[-1])
    if chain_too:
        _follow_chain(walk)
    return walk


def _taint_by_text(node: Node, refused: dict[str, Node]) -> None:
    """A context holding, word for word, an answer now refused is tainted too, even when
    the stored context does not continue that attempt exactly (the generator may have
    trimmed it, or stored its context in another form): the refused answer must not be
    trained on. Only for a context linked to no attempt: a linked one inherits its
    parent's taint, whose statuses are known exactly."""
    for message in node.messages or ():
        if message["role"] == "assistant":
            found = refused.get(message["content"].strip())
            if found is not None:
                node.taint = found
                return


def _follow_chain(walk: Walk) -> None:
    """Set ``walk.choices`` to the chain the conversation followed (module docstring)."""
    expected, previous = 1, None
    for index, nodes in enumerate(walk.turns):
        turn = nodes[0].key.turn
        if turn != expected:
            walk.stop, walk.stop_turn = MISSING, turn
            return
        candidates = [n for n in nodes if n.messages is not None and n.parent is previous]
        later = walk.turns[index + 1] if index + 1 < len(walk.turns) else []
        continued = [n for n in candidates if any(m.parent is n for m in later)]
        followed = next((n for n in continued if n.usable), None)
        if followed is not None:
            walk.choices.append(followed)
            previous, expected = followed, turn + 1
            continue
        accepted = [n for n in candidates if n.usable]
        if not accepted:
            walk.stop = REFUSED_ON_CHAIN if continued else _no_answer(nodes)
            walk.stop_turn = turn
            return
        # No later context follows an accepted answer of this turn: take the one the
        # filter kept, else the first accepted; the next turn (if any) says why it stops.
        kept = [n for n in accepted if n.filter_accepted]
        chosen = (kept or accepted)[0]
        walk.choices.append(chosen)
        if continued:  # the next turn was generated after an answer now refused
            walk.stop, walk.stop_turn = REFUSED_ON_CHAIN, turn + 1
            return
        previous, expected = chosen, turn + 1


def _no_answer(nodes: list[Node]) -> str:
    """Why a turn adds nothing to the chain, when no attempt of it follows the chain."""
    if any(n.usable for n in nodes):
        return DIVERGED  # accepted, but generated after another answer than the chain's
    if any(n.accepted and n.raw is not None and not n.well_formed for n in nodes):
        return MALFORMED
    return NO_ANSWER


def _pairs_only(stmt: Any) -> Any:
    """Only the attempts that may be in a pair (their turn has another attempt, and it may
    end with an accepted one: see _may_choose), and every attempt of a conversation where a
    reviewer may have refused an answer the filter accepted (a reject, or overrides without
    a decision): only there can a later context continue an answer now refused. A second
    opinion only ever rescues an answer."""
    other = aliased(Attempt)
    refused_by_reviewer = (
        select(Attempt.conversation_id)
        .join(ReviewDecision, ReviewDecision.attempt_id == Attempt.id)
        .where(Attempt.accepted.is_(True),
               or_(ReviewDecision.decision.is_(None), ReviewDecision.decision != "accept")))
    several = exists().where(other.conversation_id == Attempt.conversation_id,
                             other.turn == Attempt.turn, other.attempt != Attempt.attempt)
    return stmt.where(or_(and_(several, _may_choose()),
                          Attempt.conversation_id.in_(refused_by_reviewer)))


def _may_choose() -> Any:
    """The turn may hold a chosen side, or is continued by a later turn.

    A turn whose every attempt the filter refused, on its conversation's last stored turn
    (the generator gave up), in a conversation no reviewer touched and no second opinion
    judged, has no chosen side: its attempts all stay refused. No later context continues
    them either (there is no later turn), so leaving it unread changes no other turn's
    link or taint. At 10,000 attempts these are 747 of the 5,310 attempts read, with
    their whole contexts (overflow pages)."""
    accepted, later = aliased(Attempt), aliased(Attempt)
    corrected = union(
        select(Attempt.conversation_id)
        .join(ReviewDecision, ReviewDecision.attempt_id == Attempt.id),
        select(Attempt.conversation_id)
        .join(Verdict, Verdict.attempt_id == Attempt.id)
        .where(Verdict.origin == "second_opinion"))
    # The turns holding an accepted attempt (an accepted attempt's own turn among them),
    # listed once from ix_attempts_queue, which starts with ``accepted`` and holds the
    # conversation and turn: a correlated EXISTS read the accepted flag of the turn's
    # attempts from their rows, past their contexts' overflow pages, for every attempt.
    accepted_turns = select(accepted.conversation_id, accepted.turn) \
        .where(accepted.accepted.is_(True))
    return or_(
        tuple_(Attempt.conversation_id, Attempt.turn).in_(accepted_turns),
        exists().where(later.conversation_id == Attempt.conversation_id,
                       later.turn > Attempt.turn),
        Attempt.conversation_id.in_(corrected))


def _conversations(session: Session, runs: list[str] | None, chunk: int, *,
                   content: bool, causes: bool, pairs_only: bool = False) -> Iterator[_Conv]:
    """Conversations (by run, then name) with their attempts, streamed."""
    # The stored JSON text, not the ORM's decoded value: only needed contexts are decoded.
    # Without ``content``, a refused attempt's context and answer are read only if it is
    # restored (see _walk_batch). A cast, not type_coerce: psycopg would decode every
    # context from json, bypassing the walk's decode-only-the-new-message path.
    raw = cast(Attempt.messages, Text)
    messages: Any = raw if content else case((Attempt.accepted, raw), else_=None)
    response: Any = Attempt.response if content else \
        case((Attempt.accepted, Attempt.response), else_=None)
    reasons: Any = case((Attempt.accepted, None), else_=type_coerce(Attempt.reasons, Text)) \
        if causes else None
    columns = [Run.name, Conversation.name, Conversation.turns_planned, Attempt.id,
               Attempt.turn, Attempt.attempt, Attempt.accepted, messages, response]
    if reasons is not None:
        columns.append(reasons)
    stmt: Any = (
        select(*columns)
        # From the runs down: SQLite then reads each index in the order asked, instead of
        # sorting every attempt with its context in a temporary B-tree.
        .select_from(Run)
        .join(Conversation, Conversation.run_id == Run.id)
        .join(Attempt, Attempt.conversation_id == Conversation.id)
        .order_by(Run.name, Conversation.name, Attempt.turn, Attempt.attempt)
        .execution_options(yield_per=chunk)
    )
    if runs:
        stmt = stmt.where(Run.name.in_(runs))
    if pairs_only:
        stmt = _pairs_only(stmt)
    current: _Conv | None = None
    # Core on the session's connection: plain rows, no ORM loading step.
    if reasons is None:  # no reasons column: a constant NULL keeps the rows' shape
        stmt = stmt.add_columns(null())
    for run, name, planned, aid, turn, att, accepted, text, answer, why in \
            session.connection().execute(stmt):
        if current is None or current.name != name or current.run != run:
            if current is not None:
                yield current
            current = _Conv(run, name, planned, [])
        current.rows.append(Row(aid, turn, att, bool(accepted), text, answer, why))
    if current is not None:
        yield current


def walk_conversations(
    session: Session, *, reviewer: str | None = None, runs: list[str] | None = None,
    chunk: int = CHUNK, content: bool = False, causes: bool = False,
    pairs_only: bool = False,
) -> Iterator[Walk]:
    """Every conversation (ordered by run, then name) walked with the corrections.

    ``content``: read every attempt's context and answer (the preference exports pair
    refused attempts too); otherwise only the accepted ones' and the restored ones'.
    ``causes``: read why each refused attempt is refused (``Node.causes``).
    ``pairs_only`` (with ``content``): only the turns with several attempts, and whole
    the conversations where a reviewer or a second opinion may have refused an answer
    that a later context continues (elsewhere no context is tainted): what DPO pairs need.
    """
    views = review_views(session, reviewer)
    seconds = set(session.scalars(
        select(Verdict.attempt_id).where(Verdict.origin == "second_opinion").distinct()))
    needs = seconds | {aid for aid, v in views.items() if v.decision is None}
    if causes:  # what still refuses an attempt the reviewer rejected with overrides
        needs |= {aid for aid, v in views.items()
                  if v.decision == "reject" and (v.criteria or v.checks)}
    batch: list[_Conv] = []
    size = 0
    with _pass_page_cache(session):
        for conv in _conversations(session, runs, chunk, content=content, causes=causes,
                                   pairs_only=pairs_only):
            batch.append(conv)
            size += len(conv.rows)
            if size >= chunk:
                yield from _walk_batch(session, batch, views, needs, content)
                batch, size = [], 0
        yield from _walk_batch(session, batch, views, needs, content)


# SQLite's page cache while the walk passes over the store, in KiB. The pass reads each
# page once; with the store's own cache (``reviewer.store.database.CACHE_KIB``, 16 MiB, for
# the queue's pages) SQLite allocated some 3,600 page buffers it never used again, 2.5 ms
# of a 10,000-attempt preference export's 50 ms in SQLite (2 MiB: the buffers are reused).
PASS_CACHE_KIB = 2000


@contextmanager
def _pass_page_cache(session: Session) -> Iterator[None]:
    """A small page cache on a SQLite connection for the pass, the previous one after."""
    connection = session.connection()
    if connection.dialect.name != "sqlite":
        yield
        return
    before = int(connection.exec_driver_sql("PRAGMA cache_size").scalar_one())
    connection.exec_driver_sql(f"PRAGMA cache_size = -{PASS_CACHE_KIB}")
    try:
        yield
    finally:
        # The connection may be gone with a failure that ends the export: that failure
        # is the one to report, and a new connection gets the store's cache anyway.
        with suppress(SQLAlchemyError):
            connection.exec_driver_sql(f"PRAGMA cache_size = {before}")


def _walk_batch(session: Session, batch: list[_Conv], views: dict[int, ReviewView],
                needs: set[int], content: bool) -> Iterator[Walk]:
    ids = [r.id for c in batch for r in c.rows if r.id in needs]
    replayed = {a.id: a for a in load_attempts(session, ids)} if ids else {}
    status = _Status(views, replayed, {}, (set(views) | set(replayed)) if content else None)
    # Refused attempts a decision or a replay may accept: their context and answer.
    unread = [r.id for c in batch for r in c.rows if r.messages is None and (
        r.id in replayed or r.id in views)]
    for start in range(0, len(unread), 500):
        part = unread[start:start + 500]
        # Core on the session's connection, like the main select: plain rows (typed Any:
        # compiled, a typed row would be checked as a tuple, which a Row is not).
        rows: Any = session.connection().execute(
            select(Attempt.id, cast(Attempt.messages, Text), Attempt.response)
            .where(Attempt.id.in_(part)))
        status.content.update((aid, (messages, response)) for aid, messages, response in rows)
    for conv in batch:
        yield _walk_one(conv, status, chain_too=not content)
    for attempt in replayed.values():
        session.expunge(attempt)  # keep the session small: the walk streams

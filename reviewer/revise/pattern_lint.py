"""Holes a French answer is likely to slip through, found in a pattern and counted.

Each rule rewrites the pattern the way a careful author would have written it, then counts
the stored responses on which the rewrite and the pattern disagree: those are the answers
the hole concerns. A rule whose rewrite is the pattern itself says nothing.

* ``apostrophe``: a literal ``'`` where responses write the typographic ``’``
  (« s’inscrire ») — the rewrite accepts both;
* ``accents``: an unaccented spelling (``cre(ez|er)``) where responses write « Créez » —
  the rewrite accepts an accented vowel or ç for each plain one;
* ``nbsp``: a literal space where responses have a no-break space (U+00A0, U+202F, as
  French typography puts before « : » or inside « 3 114 ») — the rewrite accepts all three;
* ``ascii-boundary`` (ECMAScript only): ``\\b`` in a JavaScript pattern, whose words are
  ASCII, so « é » ends a word (« préinscription » holds ``\\binscription\\b``) — the rewrite
  uses a boundary between Unicode letters, digits and ``_``.

Only responses holding the character a rule is about are evaluated, so a lint costs a
fraction of a back-test.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from models import Attempt, Conversation, Run
from reviewer.keys import AttemptKey
from reviewer.revise.backtest import DEFAULT_BUDGET, BacktestResult, Cancelled, backtest
from reviewer.rule.checks import (
    CheckPattern,
    CompiledCheck,
    PatternError,
    compile_check,
    evaluate_many,
    find_matches,
)

CHUNK = 1000
ACCENTED = {"a": "àâä", "e": "éèêë", "i": "îï", "o": "ôö", "u": "ùûü", "c": "ç"}
SPACES = "\u00a0\u202f"
# A word boundary between Unicode letters, digits and _ (JavaScript needs flag u for \p).
UNICODE_BOUNDARY = (r"(?:(?<![\p{L}\p{N}_])(?=[\p{L}\p{N}_])"
                    r"|(?<=[\p{L}\p{N}_])(?![\p{L}\p{N}_]))")


@dataclass(frozen=True, slots=True)
class LintFinding:
    """One hole: what it is, how many stored responses it concerns, and one of them."""

    rule: str
    message: str
    count: int
    example_key: str
    example: str

    def as_dict(self) -> dict[str, object]:
        """JSON-ready form."""
        return {"rule": self.rule, "message": self.message, "count": self.count,
                "example": {"attempt": self.example_key, "text": self.example}}

    def line(self) -> str:
        """One line for a terminal or a label."""
        responses = "response" if self.count == 1 else "responses"
        return (f"{self.message}: {self.count} {responses}, e.g. {self.example_key} "
                f"« {self.example} »")


def _literals(pattern: str, replace: Callable[[str], str | None],
              escape: Callable[[str], str | None] = lambda _: None) -> str:
    """``pattern`` with each literal character outside classes and escapes replaced.

    ``replace(ch)`` gives the replacement or None to keep ``ch``; ``escape(text)`` the same
    for an escape outside classes (``\\b``). Other escapes (``\\x``, ``\\u{…}``, ``\\p{…}``,
    ``\\k<…>``), classes ``[…]``, quantifiers ``{m,n}`` and group openers ``(?…`` are
    copied as they are.
    """
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        ch = pattern[i]
        if ch == "\\":
            j = i + 2
            if j <= n and pattern[i + 1] in "upPk" and j < n and pattern[j] in "{<":
                close = pattern.find("}" if pattern[j] == "{" else ">", j)
                j = n if close < 0 else close + 1
            new = escape(pattern[i:j])
            out.append(pattern[i:j] if new is None else new)
            i = j
        elif ch == "[":
            j = i + 1
            while j < n and pattern[j] != "]":
                j += 2 if pattern[j] == "\\" else 1
            out.append(pattern[i:j + 1])
            i = j + 1
        elif ch == "{":
            close = pattern.find("}", i)
            j = n if close < 0 else close + 1
            out.append(pattern[i:j])
            i = j
        elif ch == "(" and pattern.startswith("?", i + 1):
            j = i + 2
            if pattern.startswith(("P<", "<"), j) and not pattern.startswith(("<=", "<!"), j):
                close = pattern.find(">", j)
                j = n if close < 0 else close + 1
            out.append(pattern[i:j])
            i = j
        else:
            new = replace(ch)
            out.append(ch if new is None else new)
            i += 1
    return "".join(out)


def _accents(ch: str) -> str | None:
    low = ch.lower()
    if low not in ACCENTED:
        return None
    extra = ACCENTED[low] if ch == low else ACCENTED[low].upper()
    return f"[{ch}{extra}]"


@dataclass(frozen=True, slots=True)
class _Rule:
    name: str
    message: str
    concerned: Callable[[str], bool]  # a response worth evaluating
    rewrite: Callable[[CheckPattern], CheckPattern | None]


def _rewrite(spec: CheckPattern, pattern: str, flags: str | None = None) -> CheckPattern | None:
    if pattern == spec.pattern:
        return None
    return CheckPattern(pattern, spec.flags if flags is None else flags, spec.mode, spec.when,
                        spec.dialect)


def _boundary(spec: CheckPattern) -> CheckPattern | None:
    if spec.dialect != "ecmascript" or "\\b" not in spec.pattern:
        return None
    # \p needs u (or v); with u a few escapes that were literal become errors: the rule
    # then says nothing rather than guess.
    flags = spec.flags if "u" in spec.flags or "v" in spec.flags else spec.flags + "u"
    rewritten = _literals(spec.pattern, lambda _: None,
                          lambda e: UNICODE_BOUNDARY if e == "\\b" else None)
    return _rewrite(spec, rewritten, flags)


RULES = (
    _Rule("apostrophe", "a literal ' where responses write ’", lambda t: "’" in t,
          lambda s: _rewrite(s, _literals(s.pattern, lambda c: "['’]" if c == "'" else None))),
    _Rule("accents", "an unaccented spelling where responses write accents",
          lambda t: any(c in t for c in "àâäéèêëîïôöùûüçÀÂÄÉÈÊËÎÏÔÖÙÛÜÇ"),
          lambda s: _rewrite(s, _literals(s.pattern, _accents))),
    _Rule("nbsp", "a literal space where responses have a no-break space",
          lambda t: any(c in t for c in SPACES),
          lambda s: _rewrite(s, _literals(s.pattern,
                                          lambda c: f"[ {SPACES}]" if c == " " else None))),
    _Rule("ascii-boundary", "\\b next to a non-ASCII letter (JavaScript's \\b is ASCII)",
          lambda t: any(ord(c) > 127 and c.isalpha() for c in t), _boundary),
)


def _responses(session: Session) -> Iterator[tuple[AttemptKey, str]]:
    stmt = (select(Run.name, Conversation.name, Attempt.turn, Attempt.attempt, Attempt.response)
            .join(Conversation, Attempt.conversation_id == Conversation.id)
            .join(Run, Attempt.run_id == Run.id)
            .order_by(Attempt.id)
            .execution_options(yield_per=CHUNK))
    for run, conv, turn, attempt, response in session.execute(stmt):
        yield AttemptKey(run, conv, turn, attempt), response


def _snippet(text: str, checks: tuple[CompiledCheck, CompiledCheck], width: int = 40) -> str:
    """The part of ``text`` around the first match of either pattern."""
    spans: list[tuple[int, int]] = []
    for check in checks:
        try:
            spans = spans or find_matches(check, text)
        except PatternError:
            break
    start, end = spans[0] if spans else (0, 0)
    left, right = max(0, start - width), min(len(text), end + width)
    part = " ".join(text[left:right].split())
    return ("…" if left else "") + part + ("…" if right < len(text) else "")


def lint_pattern(session: Session, spec: CheckPattern, *, timeout: float = 0.5,
                 checkpoint: Callable[[], None] | None = None) -> list[LintFinding]:
    """The holes of ``spec`` that stored responses fall into (forbid/require alike: the
    pattern alone is compared, ``when`` plays no part)."""
    bare = CheckPattern(spec.pattern, spec.flags, "forbid", None, spec.dialect)
    original = compile_check(bare, timeout=timeout)
    rules: list[tuple[_Rule, CompiledCheck]] = []
    for rule in RULES:
        variant = rule.rewrite(bare)
        if variant is None:
            continue
        try:
            rules.append((rule, compile_check(variant, timeout=timeout)))
        except PatternError:
            continue
    if not rules:
        return []
    counts = {rule.name: 0 for rule, _ in rules}
    examples: dict[str, tuple[AttemptKey, str]] = {}
    batch: list[tuple[AttemptKey, str]] = []

    def flush() -> None:
        for rule, variant in rules:
            chosen = [(k, t) for k, t in batch if rule.concerned(t)]
            if not chosen:
                continue
            texts = [t for _, t in chosen]
            before = evaluate_many(original, texts, checkpoint=checkpoint)
            after = evaluate_many(variant, texts, checkpoint=checkpoint)
            for (key, text), a, b in zip(chosen, before, after, strict=True):
                if a != b:
                    counts[rule.name] += 1
                    examples.setdefault(rule.name, (key, text))
        batch.clear()

    for row in _responses(session):
        batch.append(row)
        if len(batch) >= CHUNK:
            flush()
    flush()
    return [LintFinding(rule.name, rule.message, counts[rule.name],
                        str(examples[rule.name][0]),
                        _snippet(examples[rule.name][1], (variant, original)))
            for rule, variant in rules if counts[rule.name]]


def backtest_and_lint(session: Session, check_id: str, spec: CheckPattern, *,
                      timeout: float = 0.5, budget: float | None = DEFAULT_BUDGET,
                      cancel: Callable[[], bool] | None = None
                      ) -> tuple[BacktestResult, list[LintFinding]]:
    """The back-test of ``spec`` (every reviewer's latest decision), then its lint; both
    stop when ``cancel()`` says so."""
    result = backtest(session, check_id, spec, reviewer=None, timeout=timeout, budget=budget,
                      cancel=cancel)

    def checkpoint() -> None:
        if cancel is not None and cancel():
            raise Cancelled("lint cancelled")

    return result, lint_pattern(session, spec, timeout=timeout, checkpoint=checkpoint)

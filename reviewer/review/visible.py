"""Text as the review window shows it: characters that hide or reorder text made visible.

A model's answer, a rationale, a note or a name may carry characters a reader cannot
see: bidi controls (U+202E turns "txt.exe" into what looks like "exe.txt"), zero-width
spaces and joiners, a byte-order mark, C0 and C1 controls, line and paragraph
separators, blank-looking fillers. Checks, the judge and the exports see them; a pane
that let Qt obey them would show a text that differs from the one being judged. So every
text the window displays goes through :func:`shown`, which writes each such character
as a marker ``⟨U+202E⟩`` (the widgets give the markers a distinct style), and maps the
offsets of highlights (check matches, evidence, search hits) from the stored text to the
shown one. The stored text is never changed: exports keep it byte for byte.

Newlines and tabs stay as they are (answers are laid out with them), and so do the
spaces French typography uses (no-break and narrow no-break spaces are visible gaps).

The window lays out a bounded part of each text: ``shown(text, limit)`` stops after
``limit`` shown characters (``Shown.cut`` says where the stored text was cut, ``total``
its length), in time proportional to what it shows, however long the stored text; a
megabyte answer laid out whole froze the window for minutes. ``clip`` keeps the
highlights that fall in the shown part, at most a given number of them; ``plain(text,
limit)`` cuts a label's text with an ellipsis.

A label wraps only where a line may break, and a long run without a space (a pasted
note of one 100,000-character word, a URL) has no such place: the label asked for the
run's whole width, and the pane's layout gave it by squeezing the answer into a narrow
column and dropping the question (fourth hostile pass, G8). :func:`breakable` gives such
runs a zero-width break opportunity every ``BREAK_RUN`` characters, for display only.
"""

from __future__ import annotations

import re
import sys
from bisect import bisect_right
from dataclasses import dataclass

import regex

Span = tuple[int, int]
# Characters of one text the pane lays out (the answer, the question, a message): a
# screenful many times over, and what Qt lays out in a small part of a second.
SHOWN_LIMIT = 25_000
# Characters of a label, a table cell or a tooltip (a reason, a rationale cell, a note).
LABEL_LIMIT = 2_000
# Highlights drawn in one text (check matches, search hits, evidence).
HIGHLIGHT_LIMIT = 1_000
# Characters of a run without a space after which a label may break the line.
BREAK_RUN = 40
ZERO_WIDTH_SPACE = "\u200b"
_LONG_RUN = re.compile(rf"\S{{{BREAK_RUN}}}(?=\S)")

# Control (Cc), format (Cf: bidi controls, zero-width characters, BOM, soft hyphen),
# surrogate, line and paragraph separators: never meant to be seen as they act. Then the
# default-ignorable code points outside those categories that fonts draw as nothing: the
# combining grapheme joiner, Hangul fillers, Mongolian selectors, the braille blank
# (Unicode's DerivedCoreProperties); emoji variation selectors are left alone. Newline
# and tab are kept. One compiled class: every shown text is scanned, most have none.
HIDDEN = regex.compile(
    r"[[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\u034F\u115F\u1160\u3164\uFFA0\u2800"
    r"\u180B-\u180F]--[\n\t]]", regex.V1)


def revealed(ch: str) -> bool:
    """Whether the pane writes ``ch`` as a ``⟨U+XXXX⟩`` marker instead of obeying it."""
    return HIDDEN.fullmatch(ch) is not None


def marker(ch: str) -> str:
    """``⟨U+202E⟩``."""
    return f"⟨U+{ord(ch):04X}⟩"


_MARKER = re.compile(r"⟨U\+([0-9A-F]{4,6})⟩")


def unmarked(text: str) -> str:
    """``text`` with each marker of a hidden character (``⟨U+202E⟩``) put back as the
    character: an editor that shows a stored text with its markers saves what it showed
    (fifteenth hostile pass, P15-7). A marker of a character that is not hidden (typed
    by hand: ``⟨U+0041⟩``) stays as typed."""
    def back(m: re.Match[str]) -> str:
        code = int(m.group(1), 16)
        ch = chr(code) if code <= sys.maxunicode else ""
        return ch if ch and revealed(ch) else m.group(0)
    return _MARKER.sub(back, text)


@dataclass(frozen=True, slots=True)
class Shown:
    """A stored text as displayed: ``text`` with its markers at ``marks`` (shown offsets).

    ``_at`` and ``_extra`` map stored offsets to shown ones: from stored offset ``_at[i]``
    on, the markers before it added ``_extra[i]`` characters. Both are empty when nothing
    was revealed, the usual case, and then offsets are unchanged.
    """

    text: str
    marks: tuple[Span, ...] = ()
    _at: tuple[int, ...] = ()
    _extra: tuple[int, ...] = ()
    cut: int | None = None  # the stored offset where the shown part ends, when cut
    total: int = 0  # characters of the stored text

    @property
    def end(self) -> int:
        """The stored offset where the shown part ends."""
        return self.total if self.cut is None else self.cut

    def offset(self, stored: int) -> int:
        """Where stored offset ``stored`` is in the shown text."""
        if not self._at:
            return stored
        i = bisect_right(self._at, stored) - 1
        return stored + (self._extra[i] if i >= 0 else 0)

    def span(self, start: int, end: int) -> Span:
        """A stored span as shown (a marked character inside it: its whole marker)."""
        return self.offset(start), self.offset(end)

    def spans(self, stored: tuple[Span, ...] | list[Span]) -> tuple[Span, ...]:
        """Every stored span as shown."""
        return tuple(self.span(s, e) for s, e in stored)

    def clip(self, stored: tuple[Span, ...] | list[Span],
             limit: int = HIGHLIGHT_LIMIT) -> tuple[tuple[Span, ...], int]:
        """The first ``limit`` stored spans that fall in the shown part, as shown (one
        running past the cut ends there), and how many others were left out."""
        end, left = self.end, 0
        kept: list[Span] = []
        for s, e in stored:
            if not 0 <= s < min(e, end) or len(kept) >= limit:
                left += 1
            else:
                kept.append(self.span(s, min(e, end)))
        return tuple(kept), left


def shown(text: str, limit: int | None = None) -> Shown:
    """``text`` with every character :func:`revealed` says hides written as its marker;
    with ``limit``, only its first ``limit`` shown characters (never half a marker).

    Linear in what is shown: only the part that can be shown is scanned."""
    head = text if limit is None else text[:limit]  # markers only make a text longer
    found = [m.start() for m in HIDDEN.finditer(head)
             if not (text[m.start()] == "\r" and text[m.start() + 1:m.start() + 2] == "\n")]
    room = sys.maxsize if limit is None else limit
    if not found and len(head) == len(text):  # the common case (a Windows line end is a
        return Shown(text, total=len(text))    # line end, not a marker)
    out: list[str] = []
    marks: list[Span] = []
    at: list[int] = []
    extra: list[int] = []
    added, done = 0, 0
    end = len(head)
    for i in found:
        m = marker(text[i])
        if i + added + len(m) > room:  # the marker would not fit: the text ends before it
            end = min(i, room - added)
            break
        out.append(text[done:i])
        start = i + added
        out.append(m)
        marks.append((start, start + len(m)))
        added += len(m) - 1
        at.append(i + 1)  # offsets after this character move by the marker's length
        extra.append(added)
        done = i + 1
    else:
        end = min(len(head), room - added)
    if 0 < end < len(text) and text[end - 1] == "\r" and text[end] == "\n":
        end -= 1  # a Windows line end is not cut in two
    out.append(text[done:end])
    return Shown("".join(out), tuple(marks), tuple(at), tuple(extra),
                 end if end < len(text) else None, len(text))


def plain(text: str, limit: int = LABEL_LIMIT) -> str:
    """Only the shown text (for labels, titles, one-line messages), cut after ``limit``
    characters with an ellipsis."""
    view = shown(text, limit)
    return view.text + ("…" if view.cut is not None else "")


def breakable(text: str) -> str:
    """``text`` with a zero-width space (a line break opportunity, drawn as nothing)
    after every ``BREAK_RUN`` characters of a run without whitespace: a label can then
    wrap a run longer than its width. For display only (labels), never stored."""
    return _LONG_RUN.sub(lambda m: m.group() + ZERO_WIDTH_SPACE, text)


_LIST_SYNTAX = frozenset(':,"')


def listed(name: str) -> str:
    """A name as a list ``name: decision, name: decision`` shows it: as it is, or in
    double quotes (a quote inside doubled) when it holds the list's own ``:``, ``,`` or
    ``"``. Fifteenth hostile pass, P15-9: the reviewer name ``root: accept`` passes the
    name rule, and "Other reviewers: root: accept: reject" read as root accepting; a
    name stored by any version is shown this way, so no rule on new names is needed."""
    if _LIST_SYNTAX.isdisjoint(name):
        return name
    return '"' + name.replace('"', '""') + '"'

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
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

import regex

Span = tuple[int, int]

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


def shown(text: str) -> Shown:
    """``text`` with every character :func:`revealed` says hides written as its marker."""
    found = [m.start() for m in HIDDEN.finditer(text)
             if not (text[m.start()] == "\r" and text[m.start() + 1:m.start() + 2] == "\n")]
    if not found:  # the common case (a Windows line end is a line end, not a marker)
        return Shown(text)
    out: list[str] = []
    marks: list[Span] = []
    at: list[int] = []
    extra: list[int] = []
    added, done = 0, 0
    for i in found:
        out.append(text[done:i])
        m = marker(text[i])
        start = i + added
        out.append(m)
        marks.append((start, start + len(m)))
        added += len(m) - 1
        at.append(i + 1)  # offsets after this character move by the marker's length
        extra.append(added)
        done = i + 1
    out.append(text[done:])
    return Shown("".join(out), tuple(marks), tuple(at), tuple(extra))


def plain(text: str) -> str:
    """Only the shown text (for labels, titles, one-line messages)."""
    return shown(text).text

"""The numbers grader: are the reference's key figures in the response?

Each figure of the reference is matched to the closest number of the response; a relative
gap under 1 % earns 1, under 5 % earns 0.5, else 0, and the score is the mean. Figures are
read in French (``1 705 M$``, ``9,91 %``) or English (``$12,345.6 million``) notation and
brought to one scale (``1 705 M`` and ``1,705 B`` are both 1.705e9).

Gaps are computed exactly, on the figures as written (rationals, not floats): exactly 1 %
earns half a point and exactly 5 % none, as the seed's « moins de 1 % » / « moins de 5 % »
say. In floats, 1,950 of 4,000 such boundary cases fell on either side at random
(``10,0091`` against ``9,91`` gave a full point).

What is *not* a figure: list numbering (``1.`` / ``2)`` at a line start, and inline
enumerations ``1) … 2) …`` or ``(1) … (2) …``), dates
(``12/03/2024``, ``2024-03-12``), times (``14:30``, ``14h30``), French phone numbers
(``01 23 45 67 89``, ``+33 6 12 34 56 78``), years (a bare 1900–2100
integer with no unit, currency or %), ordinals (``1er``, ``2e``, ``3rd``) and digits glued
to a word (``T1``, ``mp3``, ``COVID-19``).
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Literal

import regex

from reviewer.errors import BadInputError

Locale = Literal["auto", "fr", "en"]

_SPACES = "\u0020\u00a0\u202f\u2009\u2007"  # space, NBSP, narrow NBSP, thin, figure space

_MULTIPLIER_WORDS = {
    "mille": 10**3,
    "thousand": 10**3,
    "thousands": 10**3,
    "million": 10**6,
    "millions": 10**6,
    "milliard": 10**9,
    "milliards": 10**9,
    # "billion" is 1e9 in English and 1e12 in French; models writing French use it in the
    # English sense far more often than in the French one, so 1e9 (documented).
    "billion": 10**9,
    "billions": 10**9,
    "trillion": 10**12,
    "trillions": 10**12,
}
_MULTIPLIER_SYMBOLS = {
    "k": 10**3,
    "K": 10**3,
    "M": 10**6,  # upper case only: "10 m" is ten metres
    "Mio": 10**6,
    "MM": 10**6,
    "Mn": 10**6,
    "B": 10**9,
    "Bn": 10**9,
    "bn": 10**9,
    "G": 10**9,
    "Md": 10**9,
    "Mds": 10**9,
    "Mrd": 10**9,
    "Mrds": 10**9,
}
_CURRENCY = r"(?:[$€£¥₣]|US\$|CHF|EUR|USD|GBP|CAD)"


def _alternatives(words: Iterable[str]) -> str:
    return "|".join(regex.escape(w) for w in sorted(words, key=len, reverse=True))


_NUMBER = regex.compile(
    rf"""
    (?<![\p{{L}}\p{{N}}_.,]|[\p{{L}}]-)             # not glued to a word or another number
    (?P<sign>[-−+](?=[$€£¥]?\d))?                    # attached: "- 3" is a bullet
    (?:(?P<lead>{_CURRENCY})\s?)?                  # "$1,705": the sign decides the notation
    (?P<body>\d{{1,3}}(?:[{_SPACES}]\d{{3}})+(?:[.,]\d+)?(?!\d)|\d+(?:[.,]\d+)*)
    (?![.,]?\p{{N}})
    (?P<ordinal>(?:er|re|ère|e|ème|eme|è|nd|st|rd|th)(?!\p{{L}}))?
    (?:[{_SPACES}]?(?P<sym>{_alternatives(_MULTIPLIER_SYMBOLS)})(?=[^\p{{L}}]|$)
      |[{_SPACES}](?P<word>{_alternatives(_MULTIPLIER_WORDS)})(?!\p{{L}}))?
    (?P<currency>[{_SPACES}]?{_CURRENCY})?
    (?P<percent>[{_SPACES}]?(?:%|pour\s?cents?\b|percent\b))?
    """,
    regex.VERBOSE,
)

# Spans removed before reading numbers: they hold digits that are not figures.
_NOT_FIGURES = regex.compile(
    r"""
    ^[ \t]*(?:[-*•#][ \t#]*)?(?:\*\*)?\d{1,3}[.)](?=\s|\p{L})   # list numbering: "1. ", "2) "
    | (?:\+33[ .]?|\b0)[1-9](?:[ .\u00a0]?\d{2}){4}\b        # French phone numbers
    | \b\d{1,2}[/.]\d{1,2}[/.]\d{2,4}\b                     # 12/03/2024, 12.03.2024
    | \b\d{4}-\d{1,2}-\d{1,2}\b                             # 2024-03-12
    | \b\d{1,2}(?::\d{2}){1,2}\b | \b\d{1,2}h\d{2}\b        # 14:30, 14h30
    """,
    regex.VERBOSE | regex.MULTILINE,
)

# Inline enumerations, "étapes : 1) ouvrir 2) cliquer" or "(1) … (2) …": candidates only;
# a marker is list numbering when it is part of a run n), n+1)… of one style (see
# _enumeration_spans), so a lone "(voir 3)" stays a figure.
_ENUM_CLOSE = regex.compile(r"(?<![^\s:;,])(?P<n>\d{1,2})\)(?=\s|\p{L})")
_ENUM_PARENS = regex.compile(r"(?<![\p{L}\p{N}_])\((?P<n>\d{1,2})\)")
# A currency sign written before an amount in English style: "$1,705" is 1705 even in a
# French sentence (French writes the sign after the amount: "1 705 $").
_ENGLISH_LEAD = frozenset({"$", "£", "US$"})

_FR_SIGNALS = regex.compile(
    rf"\d,\d{{1,2}}(?!\d)|\d,\d{{4,}}|\d[{_SPACES}]\d{{3}}(?!\d)|\d\.\d{{3}},\d"
)
# English notation, including a currency sign written before the amount ("$1,705").
_EN_SIGNALS = regex.compile(r"\d\.\d{1,2}(?!\d)|\d\.\d{4,}|\d,\d{3}\.\d|\d,\d{3},\d{3}|[$£]\s?\d")
# When the notation does not decide, the language of the text does.
_FR_WORDS = regex.compile(r"\b(?:le|la|les|des|du|est|et|une?|avec|pour|sur)\b", regex.I)
_EN_WORDS = regex.compile(r"\b(?:the|of|is|and|an?|with|for|on|to)\b", regex.I)


@dataclass(frozen=True)
class Figure:
    """A number read from a text, on a common scale (multipliers applied).

    ``exact`` is the value as written, as a rational (``9,91`` is 991/100 exactly), so gaps
    are compared without float rounding; ``value`` is its nearest float.
    """

    exact: Fraction
    text: str
    percent: bool = False

    @property
    def value(self) -> float:
        """The figure as a float (correctly rounded from :attr:`exact`)."""
        return float(self.exact)


def detect_locale(text: str) -> Literal["fr", "en"]:
    """The notation most used by the text's numbers; on a tie its language; else French."""
    fr = len(_FR_SIGNALS.findall(text))
    en = len(_EN_SIGNALS.findall(text))
    if fr == en:
        fr = len(_FR_WORDS.findall(text))
        en = len(_EN_WORDS.findall(text))
    return "en" if en > fr else "fr"


def _parse_body(body: str, locale: Literal["fr", "en"]) -> Fraction | None:
    """The exact value of the digits ``body`` given the notation; None when garbage."""
    s = "".join(c for c in body if c not in _SPACES)
    if "," in s and "." in s:
        decimal = "," if s.rfind(",") > s.rfind(".") else "."
        thousands = "." if decimal == "," else ","
        s = s.replace(thousands, "").replace(decimal, ".")
    elif "," in s or "." in s:
        sep = "," if "," in s else "."
        parts = s.split(sep)
        if len(parts) > 2:
            # Several separators of one kind can only be thousands groups.
            if not all(len(p) == 3 for p in parts[1:]):
                return None
            s = "".join(parts)
        elif sep == "," and locale == "en" and len(parts[1]) == 3:
            s = "".join(parts)  # English "1,705" is one thousand seven hundred and five
        else:
            s = parts[0] + "." + parts[1]
    try:
        return Fraction(Decimal(s))
    except (InvalidOperation, ValueError):
        return None


def _is_year(match: regex.Match[str], value: Fraction) -> bool:
    body = match["body"]
    return (
        len(body) == 4
        and body.isdigit()
        and 1900 <= value <= 2100
        and not (match["sign"] or match["sym"] or match["word"])
        and not (match["currency"] or match["percent"])
    )


def _enumeration_spans(text: str) -> list[tuple[int, int]]:
    """Spans of inline list markers: runs of two or more markers of one style numbered
    n, n+1, … in text order (``1) … 2) …``, ``(1) … (2) …``)."""
    spans: list[tuple[int, int]] = []
    for pattern in (_ENUM_CLOSE, _ENUM_PARENS):
        run: list[regex.Match[str]] = []
        for m in [*pattern.finditer(text), None]:
            if m is not None and run and int(m["n"]) == int(run[-1]["n"]) + 1:
                run.append(m)
                continue
            if len(run) >= 2:
                spans += [r.span() for r in run]
            run = [m] if m is not None else []
    return spans


def _blank(text: str, spans: Iterable[tuple[int, int]]) -> str:
    chars = list(text)
    for start, end in spans:
        chars[start:end] = " " * (end - start)
    return "".join(chars)


def figures(text: str, *, locale: Locale = "auto") -> list[Figure]:
    """Every figure of ``text`` (see the module docstring for what is left out)."""
    text = unicodedata.normalize("NFC", text)
    loc = detect_locale(text) if locale == "auto" else locale
    cleaned = _blank(text, _enumeration_spans(text))
    cleaned = _NOT_FIGURES.sub(lambda m: " " * len(m[0]), cleaned)
    found: list[Figure] = []
    for m in _NUMBER.finditer(cleaned):
        if m["ordinal"]:
            continue
        value = _parse_body(m["body"], "en" if m["lead"] in _ENGLISH_LEAD else loc)
        if value is None or _is_year(m, value):
            continue
        if m["sym"]:
            value *= _MULTIPLIER_SYMBOLS[m["sym"]]
        elif m["word"]:
            value *= _MULTIPLIER_WORDS[m["word"].lower()]
        if m["sign"] in ("-", "−"):
            value = -value
        found.append(Figure(value, m[0].strip(), percent=bool(m["percent"])))
    return found


def relative_gap(candidate: float, target: float) -> float:
    """``|candidate - target| / |target|`` (0 or infinity when the target is 0), in floats:
    for display. Scoring uses :func:`exact_points`."""
    if target == 0:
        return 0.0 if candidate == 0 else math.inf
    return abs(candidate - target) / abs(target)


def figure_points(gap: float | Fraction) -> float:
    """Full points under 1 %, half under 5 %, none beyond (exact for a Fraction gap)."""
    if gap < Fraction(1, 100):
        return 1.0
    if gap < Fraction(5, 100):
        return 0.5
    return 0.0


def exact_points(candidate: Fraction, target: Fraction) -> float:
    """The points ``candidate`` earns for ``target``, from their exact relative gap."""
    if target == 0:
        return 1.0 if candidate == 0 else 0.0
    return figure_points(abs(candidate - target) / abs(target))


def numeric(response: str, reference: str, *, locale: Locale = "auto") -> float | None:
    """Mean points of the reference's figures; None when the reference has no figure."""
    if locale not in ("auto", "fr", "en"):
        raise BadInputError(f"unknown locale {locale!r} (choose: auto, fr, en)")
    wanted = figures(reference, locale=locale)
    if not wanted:
        return None
    offered = [f.exact for f in figures(response, locale=locale)]
    if not offered:
        return 0.0
    points = [exact_points(_closest(offered, want.exact), want.exact) for want in wanted]
    return sum(points) / len(points)


def _closest(offered: list[Fraction], target: Fraction) -> Fraction:
    """The offered value nearest ``target`` (for one target, the smallest relative gap is
    the smallest absolute difference); the first one on a tie."""
    return min(offered, key=lambda v: abs(v - target))

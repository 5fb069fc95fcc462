"""Rules for text a person types: what can be stored, and which characters hide.

Shared by every entry point (command line, CSV, settings, dialogs), so a value refused in
one is refused in all:

* ``storable(text, what)`` refuses a NUL (PostgreSQL cannot store it; SQLite stores it,
  but C strings, Qt labels and exports then cut the text there) and a lone surrogate
  (what Python makes of bytes that are not UTF-8 on the command line);
* ``hidden(ch)`` (``first_hidden(text)``: the first in a text) says whether a character
  changes or hides what is shown without being seen itself: controls (newline, tab,
  escape), format characters (bidi controls, zero-width characters), separators other
  than the plain space, and every Unicode default-ignorable code point (fillers,
  variation selectors, tags);
* ``spelt(text)`` shows such characters as ``⟨U+202E⟩``, for messages that quote input;
* ``comma_items(text, what)`` splits a comma-separated option value, refusing an empty
  item.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from reviewer.errors import BadInputError

# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt): shown as nothing by
# fonts, whatever their category. Most are format characters (Cf) already; the others
# are fillers and selectors: Hangul fillers (Lo), variation selectors and the combining
# grapheme joiner (Mn), Mongolian selectors (Mn).
DEFAULT_IGNORABLE: tuple[tuple[int, int], ...] = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
    (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
    (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
BLANK_LOOKING = frozenset({0x2800})  # BRAILLE PATTERN BLANK: a letter-like blank (So)
# Control, format, surrogate, private use, unassigned, line and paragraph separators.
HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def hidden(ch: str) -> bool:
    """Whether the character is invisible, moves or reorders text, or is not a character."""
    if ch == " ":
        return False
    category = unicodedata.category(ch)
    if category in HIDDEN_CATEGORIES or category == "Zs":  # Zs: spaces other than " "
        return True
    code = ord(ch)
    return code in BLANK_LOOKING or any(lo <= code <= hi for lo, hi in DEFAULT_IGNORABLE)


# The hidden characters ``str.isprintable`` lets through: Python's "printable" is every
# category but Other (Cc, Cf, Cs, Co, Cn) and Separator (Zs, Zl, Zp), the plain space
# excepted: exactly the categories ``hidden`` refuses, so only these ranges are left.
_PRINTABLE_BUT_HIDDEN = re.compile(
    "[" + "".join(f"\\U{lo:08x}-\\U{hi:08x}" for lo, hi in DEFAULT_IGNORABLE)
    + "".join(f"\\U{code:08x}" for code in BLANK_LOOKING) + "]")


def first_hidden(text: str) -> str | None:
    """The first character of ``text`` that ``hidden`` refuses, None when there is none.

    Both C-level scans first: an import checks every run and conversation id of every
    line, and ``hidden`` called per character was a fifth of a 10,000-attempt import's
    profile; only a text holding such a character is then read character by character.
    """
    if text.isprintable() and _PRINTABLE_BUT_HIDDEN.search(text) is None:
        return None
    return next((ch for ch in text if hidden(ch)), None)


def char_label(ch: str) -> str:
    """``U+202E RIGHT-TO-LEFT OVERRIDE`` (the code point alone when it has no name)."""
    name = unicodedata.name(ch, "") if not 0xD800 <= ord(ch) <= 0xDFFF else ""
    return f"U+{ord(ch):04X} {name}".rstrip()


def spelt(text: str, limit: int = 60) -> str:
    """``text`` with each hidden character written ``⟨U+XXXX⟩``, cut after ``limit``
    characters: safe to quote in a one-line message."""
    out = "".join(f"⟨U+{ord(ch):04X}⟩" if hidden(ch) else ch for ch in text[:limit])
    return out + ("…" if len(text) > limit else "")


def first_unstorable(text: str) -> int | None:
    """Where the first NUL or lone surrogate is (None when the text can be stored)."""
    nul = text.find("\x00")
    if nul >= 0:
        return nul
    for i, ch in enumerate(text):
        if 0xD800 <= ord(ch) <= 0xDFFF:
            return i
    return None


def storable(text: str, what: str) -> str:
    """``text`` unchanged, or BadInputError naming ``what`` when it cannot be stored."""
    at = first_unstorable(text)
    if at is None:
        return text
    if text[at] == "\x00":
        raise BadInputError(f"{what} contains a NUL character (U+0000) at character {at + 1}, "
                            "which cannot be stored; remove it")
    raise BadInputError(f"{what} is not valid UTF-8 text (a stray byte at character "
                        f"{at + 1}); check the terminal or file encoding")


def comma_items(text: str, what: str) -> list[str]:
    """The items of a comma-separated option value (``--weights``, ``--graders``), each
    stripped; BadInputError naming ``what`` and the item's place when one is empty (two
    commas in a row, or one at an end: ``exact=1,,`` was taken as ``exact=1``, ninth
    hostile pass Q4)."""
    items = [item.strip() for item in text.split(",")]
    empty = next((n for n, item in enumerate(items, 1) if not item), None)
    if empty is not None:
        shown = text if len(text) <= 60 else text[:57] + "…"
        raise BadInputError(f"{what} {shown!r}: item {empty} is empty (two commas in a row, "
                            "or one at an end?)")
    return items


def not_utf8(path: Path, data: bytes | None = None) -> BadInputError:
    """``FILE:LINE: not UTF-8 (byte 0xE9 at column N)`` for a file that failed to decode
    (``data``: its bytes, when already read). A text reader decodes chunks of several
    kilobytes, so its own error points at no line; the bytes tell where."""
    if data is None:
        try:
            data = path.read_bytes()
        except OSError:
            return BadInputError(f"{path}: not UTF-8 text; save it as UTF-8")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        return not_utf8_at(path, line, data[exc.start], column)
    return BadInputError(f"{path}: not UTF-8 text; save it as UTF-8")


def not_utf8_at(source: object, line: int, byte: int, column: int) -> BadInputError:
    """``FILE:LINE: not UTF-8 (byte 0xE9 at column N)``: the one wording of a byte that is
    not UTF-8, whether the file was read whole or line by line."""
    return BadInputError(f"{source}:{line}: not UTF-8 (byte 0x{byte:02X} at column "
                         f"{column}); save the file as UTF-8")

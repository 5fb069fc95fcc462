"""A string as ``json.dumps(text, ensure_ascii=False)`` spells it, as UTF-8 bytes, fast.

The exports write each message's JSON text themselves (``reviewer.exports.dataset``:
``Encoder``), and the bytes must be exactly those of ``json.dumps`` (the benchmark and the
tests compare files byte for byte). ``json.encoder.encode_basestring`` gives them, but it
escapes one character at a time: 5 ns per character of French text, the largest single
cost of a preference export (8 million characters at 10,000 attempts).

``ensure_ascii=False`` escapes only the quote, the backslash and the characters below
U+0020; in UTF-8 none of those bytes occurs inside a longer character. So the UTF-8 bytes
are scanned once with ``bytes.translate`` (deleting those bytes: C, no per-character
call): nothing deleted, the text is written as it is; only line feeds deleted (answers
have paragraphs), each becomes ``\\n``; anything else (a quote, a tab, a control
character) goes through ``encode_basestring``, so every rare case is the stdlib's own.
"""

from __future__ import annotations

from json.encoder import encode_basestring

# The bytes ``json.dumps(…, ensure_ascii=False)`` escapes.
ESCAPED = bytes(range(0x20)) + b'"\\'


def json_string(text: str) -> bytes:
    """``json.dumps(text, ensure_ascii=False).encode()``: the quoted, escaped string.

    UnicodeEncodeError for a lone surrogate, as that ``encode()`` raises.
    """
    data = text.encode()
    kept = len(data.translate(None, ESCAPED))
    if kept == len(data):
        return b'"%s"' % data
    if len(data) - kept == data.count(b"\n"):
        return b'"%s"' % data.replace(b"\n", b"\\n")
    return encode_basestring(text).encode()

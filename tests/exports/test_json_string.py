"""``json_string`` spells every string exactly as ``json.dumps(…, ensure_ascii=False)``.

The exports' files are compared byte for byte with ``json.dumps`` of their records; the
fast path must agree on every character that is escaped, and on every one that is not.
"""

from __future__ import annotations

import json
import random

import pytest

from reviewer.exports.json_string import json_string


def dumps(text: str) -> bytes:
    return json.dumps(text, ensure_ascii=False).encode()


@pytest.mark.parametrize("text", [
    "", "plain", "été à l'œuvre", "ligne\nsuivante\n", "\n", "tab\there", "cr\r\n",
    'a "quote"', "back\\slash", "\\n is two characters", "\x00\x01\x1f", "\x7f del",
    "\u2028\u2029 separators", "emoji 🙂 and 𝄞", "\ufeffbom", "mixed\n\"\\\t\x0bend",
])
def test_special_cases(text: str) -> None:
    assert json_string(text) == dumps(text)


def test_every_character_below_u0100_and_some_above() -> None:
    for code in [*range(0x100), 0x2019, 0x20AC, 0xFFFD, 0x1F642]:
        char = chr(code)
        for text in (char, f"a{char}b", f"{char}\n{char}"):
            assert json_string(text) == dumps(text), hex(code)


def test_random_strings() -> None:
    rng = random.Random(7)
    alphabet = ['a', 'é', '’', '\n', '"', '\\', '\t', '\x01', '🙂', ' ', 'Z', '\u00a0']
    for _ in range(2000):
        text = "".join(rng.choices(alphabet, k=rng.randint(0, 30)))
        assert json_string(text) == dumps(text), repr(text)


def test_a_lone_surrogate_fails_as_encoding_does() -> None:
    with pytest.raises(UnicodeEncodeError):
        json_string("\ud800")

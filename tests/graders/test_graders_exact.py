"""All-or-nothing graders: exact value, substring, regex, JSON (with schema), label."""

from __future__ import annotations

import pytest

from reviewer.errors import BadInputError
from reviewer.graders import exact, json_valid, label, regex


@pytest.mark.parametrize(
    ("response", "expected", "score"),
    [
        ("Paris", "Paris", 1.0),
        ("  paris \n", "Paris", 1.0),  # case and surrounding whitespace ignored
        ("Le 3114", "3114", 0.0),  # equals, not contains
        ("Rue  de la\nPaix", "rue de la paix", 1.0),  # whitespace runs count as one space
        ("Straße", "STRASSE", 1.0),  # casefold
        ("e\u0301te\u0301", "été", 1.0),  # NFD and NFC forms are the same text
    ],
)
def test_exact_equals(response: str, expected: str, score: float) -> None:
    assert exact(response, expected) == score


def test_exact_contains_and_case_sensitivity() -> None:
    assert exact("Appelez le 3114, jour et nuit.", "3114", mode="contains") == 1.0
    assert exact("Appelez le 15.", "3114", mode="contains") == 0.0
    assert exact("paris", "Paris", case_sensitive=True) == 0.0
    assert exact("Paris", "Paris", case_sensitive=True) == 1.0


def test_exact_rejects_an_unknown_mode() -> None:
    with pytest.raises(BadInputError, match="unknown exact mode"):
        exact("a", "a", mode="startswith")  # type: ignore[arg-type]


def test_regex_searches_anywhere_with_flags() -> None:
    assert regex("Composez le 3114 maintenant", r"\b3114\b") == 1.0
    assert regex("INSCRIVEZ-VOUS", r"inscri(vez|re)", "i") == 1.0
    assert regex("INSCRIVEZ-VOUS", r"inscri(vez|re)") == 0.0
    assert regex("a\nb", r"^b$", "m") == 1.0


def test_regex_bad_pattern_or_flag_is_a_bad_input() -> None:
    with pytest.raises(BadInputError, match="invalid regular expression"):
        regex("x", "(")
    with pytest.raises(BadInputError, match="unknown regex flag"):
        regex("x", "x", "q")


def test_json_valid_without_and_with_schema() -> None:
    schema = {
        "type": "object",
        "required": ["nuisance"],
        "properties": {"nuisance": {"type": "string"}},
    }
    assert json_valid('  {"nuisance": "bruit"} ') == 1.0
    assert json_valid("{'nuisance': 'bruit'}") == 0.0  # Python, not JSON
    assert json_valid('```json\n{"a": 1}\n```') == 0.0  # a fenced block is not the format
    assert json_valid('{"nuisance": "bruit"}', schema) == 1.0
    assert json_valid('{"nuisance": 3}', schema) == 0.0
    assert json_valid("{}", schema) == 0.0


def test_json_invalid_schema_is_a_bad_input() -> None:
    with pytest.raises(BadInputError, match="invalid JSON schema"):
        json_valid("{}", {"type": "no-such-type"})


def test_label_accepts_known_labels_only() -> None:
    labels = ["bruit", "odeur", "lumière"]
    assert label("Bruit", labels) == 1.0
    assert label("odeur.", labels) == 1.0  # a final period is not part of the label
    assert label("Lumière", labels) == 1.0
    assert label("bruit et odeur", labels) == 0.0
    assert label("Bruit", labels, case_sensitive=True) == 0.0
    with pytest.raises(BadInputError):
        label("bruit", [])

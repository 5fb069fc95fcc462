"""ROUGE-L: the seed's examples, the Unicode tokenizer, and equality with rouge-score."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer

from reviewer.errors import BadInputError
from reviewer.graders import rouge_l
from reviewer.graders.similarity import lcs_length, rouge_l_tokens
from reviewer.graders.tokenize import RougeTokenizer, UnicodeTokenizer, unicode_words

REFERENCE = "Ouvrez le rapport, cliquez sur Partager, choisissez le client."
ANSWER_A = "Cliquez sur Partager sur le rapport et choisissez le client."
ANSWER_B = "Utilisez le bouton Partager de votre rapport pour le leur envoyer."
ANSWER_C = "Ouvrez le rapport, cliquez sur Partager et choisissez l'administrateur."

LIBRARY = rouge_scorer.RougeScorer(["rougeL"])
LIBRARY_UNICODE = rouge_scorer.RougeScorer(["rougeL"], tokenizer=UnicodeTokenizer())


def f1(lcs: int, response_words: int, reference_words: int) -> float:
    p, r = lcs / response_words, lcs / reference_words
    return 2 * p * r / (p + r)


def test_seed_examples_by_hand_counted_lcs() -> None:
    # Reference: 9 words. A: 10 words, LCS "cliquez sur partager choisissez le client" = 6.
    assert rouge_l(ANSWER_A, REFERENCE) == pytest.approx(f1(6, 10, 9))
    # B: 11 words, LCS "le … rapport … le" = 3 (the seed counted 2 and 12 words).
    assert rouge_l(ANSWER_B, REFERENCE) == pytest.approx(f1(3, 11, 9))
    # C: "l'administrateur" is two words: 10 words, LCS "ouvrez … choisissez" = 7.
    assert rouge_l(ANSWER_C, REFERENCE) == pytest.approx(f1(7, 10, 9))


def test_seed_lesson_wrong_recipient_outscores_correct_paraphrase() -> None:
    a, b, c = (rouge_l(x, REFERENCE) for x in (ANSWER_A, ANSWER_B, ANSWER_C))
    assert c > a > b


def test_values_stated_in_the_docs() -> None:
    assert round(rouge_l(ANSWER_A, REFERENCE), 4) == 0.6316
    assert round(rouge_l(ANSWER_B, REFERENCE), 4) == 0.3
    assert round(rouge_l(ANSWER_C, REFERENCE), 4) == 0.7368
    assert round(rouge_l(ANSWER_C, REFERENCE, tokenizer="rouge"), 4) == 0.7368


def test_unicode_tokenizer_keeps_accents_and_splits_apostrophes() -> None:
    assert unicode_words("Réponse à côté, l’administrateur d'État") == [
        "réponse",
        "à",
        "côté",
        "l",
        "administrateur",
        "d",
        "état",
    ]
    assert unicode_words("ﬁchier Ⅻ") == ["fichier", "xii"]  # NFKC
    assert RougeTokenizer().tokenize("Réponse à côté") == ["r", "ponse", "c", "t"]


def test_accents_matter_only_with_the_unicode_tokenizer() -> None:
    # rouge-score sees "r ponse" in both: accented words collapse into the same fragments.
    assert rouge_l("réponse côté", "rèponse cöté", tokenizer="rouge") == 1.0
    assert rouge_l("réponse côté", "rèponse cöté") == 0.0


def test_identical_empty_and_disjoint_texts() -> None:
    assert rouge_l("Bonjour à tous", "bonjour À TOUS !") == 1.0
    assert rouge_l("", "bonjour") == 0.0
    assert rouge_l("bonjour", "...") == 0.0
    assert rouge_l("chat", "chien") == 0.0


def test_unknown_tokenizer_is_a_bad_input() -> None:
    with pytest.raises(BadInputError, match="unknown tokenizer"):
        rouge_l("a", "a", tokenizer="nltk")  # type: ignore[arg-type]


def test_rouge_tokenizer_equals_the_library_on_the_seed() -> None:
    for answer in (ANSWER_A, ANSWER_B, ANSWER_C):
        expected = LIBRARY.score(REFERENCE, answer)["rougeL"].fmeasure
        assert rouge_l(answer, REFERENCE, tokenizer="rouge") == pytest.approx(expected, abs=1e-12)


WORDS = st.sampled_from(["le", "la", "rapport", "Partager", "client", "é", "l'", "3", "x"])
TEXT = st.one_of(
    st.lists(WORDS, max_size=40).map(" ".join),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=60),
)


@settings(max_examples=300, deadline=None)
@given(response=TEXT, reference=TEXT)
def test_fast_path_equals_rouge_score_on_any_text(response: str, reference: str) -> None:
    ours_rouge = rouge_l(response, reference, tokenizer="rouge")
    theirs_rouge = LIBRARY.score(reference, response)["rougeL"].fmeasure
    assert abs(ours_rouge - theirs_rouge) <= 1e-9
    ours_unicode = rouge_l(response, reference)
    theirs_unicode = LIBRARY_UNICODE.score(reference, response)["rougeL"].fmeasure
    assert abs(ours_unicode - theirs_unicode) <= 1e-9


TOKENS = st.lists(st.sampled_from("abcdefg"), max_size=150)  # > 64: multi-word bit vectors


@settings(max_examples=300, deadline=None)
@given(a=TOKENS, b=TOKENS)
def test_lcs_equals_the_library_dynamic_programming(a: list[str], b: list[str]) -> None:
    table = rouge_scorer._lcs_table(a, b)
    assert lcs_length(a, b) == table[-1][-1]
    theirs = rouge_scorer._score_lcs(b, a).fmeasure  # (target, prediction)
    assert abs(rouge_l_tokens(a, b) - theirs) <= 1e-9

"""What a criterion's kind and wording imply for reading a rationale about it.

The verdict's meaning is fixed by the kind: for a success criterion "oui" means the answer
does it; for a failure criterion "oui" means the answer commits the fault, *whatever the
wording* ("Aucune promotion" and "Pousse à créer un compte premium" are both faults of
promotion). A rationale, in turn, says whether the answer behaves *well* or *badly*.
Three profiles follow from the criterion text:

* success ("Répond à la demande", "Ton bienveillant, sans jugement"): doing what is
  asked is good, lacking it is bad;
* failure by commission ("Invente des faits", "Ne fait pas de promotion"): a fault word
  is bad; "répond", "propose" say nothing about the fault;
* failure by omission ("Ignore un signe de détresse ou n'oriente pas vers le 3114"):
  doing the thing ("donne le 3114", "reconnaît la détresse") is good.

Content words of the criterion become keywords, with the sign they carry in the text
("jugement" is negated in "sans jugement"; "promotion" in "Ne fait pas de promotion"),
so "l'assistant pose un jugement" reads bad and "pas de promotion" reads good.
"""

from __future__ import annotations

from functools import lru_cache

from reviewer.contradiction.lexicon import (
    CLARITY,
    DEFICIT,
    FAULT,
    FULFIL,
    LEX,
    MET,
    NE,
    PROBLEM,
    QUALITY,
    REPORT,
    SUBJ_TOPIC,
    TONE,
    aspect_of,
    classify,
)
from reviewer.contradiction.normalize import TOKEN_RE, normalize
from reviewer.contradiction.scan import Valences, keyword_key, scan

# Words of a criterion too generic to tell which clause talks about it.
_KEYWORD_STOP = frozenset(
    ["dans", "pour", "avec", "sans", "plus", "elle", "elles", "celle", "celles", "cette", "leur", "leurs", "quand", "lorsque", "comme", "etre", "avoir", "fait", "faire", "font", "sont", "est", "ainsi", "aussi", "tout", "toute", "tous", "toutes", "autre", "autres", "personne", "voisin", "voisins", "assistant", "reponse", "reponses", "clairement", "suffit", "cela", "ceci", "entre", "does", "with", "from", "that", "this", "what", "their", "they", "them", "other", "when", "which", "into", "about", "than", "only", "person", "neighbour", "neighbours", "neighbor", "assistant", "answer", "answers", "response", "enough", "clearly", "sticking", "says", "said", "provided", "something", "the", "and", "for", "les", "des", "une", "qui", "que", "aux", "sur", "par", "its", "has", "are", "was", "not", "nor", "une", "ces"]
)

# Roles a keyword may have: speech verbs ("affirme") and request nouns ("demande") can
# name what a criterion is about.
_KEYWORD_ROLES = REPORT | SUBJ_TOPIC
_KEYWORD_WEIGHT = 0.5
_NEGATED_KEYWORD_WEIGHT = 0.3  # "ne suppose pas de faits": "faits" is a fragile signal
_OFF_ASPECT = 0.3  # "claire et bienveillante" about a criterion on next steps

# Opening words that make a failure criterion a rule ("Aucune promotion", "Does not
# advertise") rather than a description of the fault.
_RULE_OPENERS = frozenset(["ne", "n'", "pas", "aucun", "aucune", "jamais", "sans", "no", "not", "never", "without", "nothing"])
_RULE_OPENER_PAIRS = frozenset({("does", "not"), ("do", "not"), ("must", "not")})
_NEGATIVE_CONTRACTIONS = frozenset({"doesn't", "don't", "mustn't", "never"})

_SUCCESS_TABLE = {
    FULFIL: (1, 1.0),
    QUALITY: (1, 0.8),
    DEFICIT: (-1, 1.0),
    FAULT: (-1, 0.9),
    MET: (1, 1.0),
    PROBLEM: (-1, 0.7),
}
_OMISSION_TABLE = {
    FULFIL: (1, 0.7),
    QUALITY: (1, 0.8),
    DEFICIT: (-1, 1.0),
    FAULT: (-1, 0.6),
    MET: (1, 0.6),
    PROBLEM: (-1, 0.8),
}
_COMMISSION_TABLE = {
    FULFIL: (1, 0.0),
    QUALITY: (1, 0.8),
    DEFICIT: (-1, 0.3),
    FAULT: (-1, 1.0),
    MET: (1, 0.5),
    PROBLEM: (-1, 0.8),
}
_RULE_TABLE = {**_COMMISSION_TABLE, MET: (1, 1.0)}


@lru_cache(maxsize=1024)
def profile(kind: str, criterion_text: str) -> Valences:
    """The reading profile of a criterion (cached: a catalog has a dozen criteria)."""
    success = kind == "success"
    trace: list[tuple[str, int, int]] = []
    scan(criterion_text, None, trace)
    words = TOKEN_RE.findall(normalize(criterion_text))
    rule = _is_rule(words)
    negated = any(neg or lex for _, neg, lex in trace) or any(
        classify(w)[0] & (NE | LEX) for w in words
    )
    if success:
        table, sign, restrict = _SUCCESS_TABLE, 1, 0
    elif rule:
        table, sign, restrict = _RULE_TABLE, 1, 1
    elif negated:
        table, sign, restrict = _OMISSION_TABLE, -1, -1
    else:
        table, sign, restrict = _COMMISSION_TABLE, -1, 1
    keyword: dict[str, tuple[int, float]] = {}
    for word, negations, lexical in trace:
        if lexical or word in _KEYWORD_STOP or not word.isalnum():
            continue  # words under "ignore", "sans" name what is missing: no sign
        roles, cat, _, _ = classify(word)
        if roles & ~_KEYWORD_ROLES or cat:
            continue
        c = -1 if negations & 1 else 1
        entry = (sign * c, _KEYWORD_WEIGHT if c > 0 else _NEGATED_KEYWORD_WEIGHT)
        forms = (word,) if len(word) >= 5 else (word, word.rstrip("s"), word + "s")
        for form in forms:
            key = keyword_key(form)
            if key:
                keyword.setdefault(key, entry)
    aspects = {aspect_of(w) for w in words}
    aspect_factor = {a: 1.0 if a in aspects else _OFF_ASPECT for a in (CLARITY, TONE)}
    return Valences(table, keyword, restrict, success, aspect_factor)


def _is_rule(words: list[str]) -> bool:
    if not words:
        return False
    first = words[0]
    if first in _RULE_OPENERS or first in _NEGATIVE_CONTRACTIONS:
        return True
    return len(words) > 1 and (first, words[1]) in _RULE_OPENER_PAIRS

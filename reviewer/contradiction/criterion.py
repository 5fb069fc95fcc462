"""What a criterion's kind and wording imply for reading a rationale about it.

The verdict's meaning is fixed by the kind: for a success criterion "oui" means the answer
does it; for a failure criterion "oui" means the answer commits the fault, *whatever the
wording* ("Aucune promotion" and "Pousse à créer un compte premium" are both faults of
promotion). A rationale, in turn, says whether the answer behaves *well* or *badly*.

How the text is worded is read from its own cue words (with the same scanner), on its
main clause (before "quand…", "qui…", and without its examples in parentheses):

* as the good behaviour ("Répond à la demande", "Oriente vers le 3114 dès que…");
* as a rule against a fault ("Ne fait pas de promotion", "Aucune incitation");
* as the fault ("Invente des faits", "Pousse à s'inscrire"): then "répond", "propose"
  say nothing about it;
* as an omission ("Ignore un signe de détresse ou n'oriente pas vers le 3114"): doing
  the thing ("donne le 3114") is good, and "ne mentionne pas le 3114" weighs fully.

Content words of the criterion become keywords, with the sign they carry in the text
("promotion" is negated in "Ne fait pas de promotion"), so "l'assistant recommande l'offre
payante" reads bad for that criterion and "pas de promotion" reads good.
"""

from __future__ import annotations

import re
from functools import lru_cache

from reviewer.contradiction.engine import Valences, keyword_key, scan
from reviewer.contradiction.lexicon import (
    CERTAINTY,
    CLARITY,
    DEFICIT,
    FAULT,
    FULFIL,
    MET,
    PROBLEM,
    QUALITY,
    REPORT,
    SPECIAL,
    SUBJ_TOPIC,
    TONE,
    aspect_of,
    classify,
    words,
)
from reviewer.contradiction.normalize import TOKEN_RE, normalize

# Words of a criterion too generic to tell which clause talks about it.
_KEYWORD_STOP = words(
    "dans pour avec sans plus elle elles celle celles cette leur leurs quand lorsque "
    "comme etre avoir fait faire font sont est ainsi aussi tout toute tous toutes autre "
    "autres personne voisin voisins assistant reponse reponses clairement suffit cela "
    "ceci entre does with from that this what their they them other when which into about "
    "than only person neighbour neighbours neighbor assistant answer answers response "
    "enough clearly sticking says said provided something the and for les des une qui que "
    "aux sur par its has are was not nor une ces"
)

# Roles a keyword may have: speech verbs ("affirme") and request nouns ("demande") can
# name what a criterion is about.
_KEYWORD_ROLES = REPORT | SUBJ_TOPIC | SPECIAL
_LANGUAGE_WORDS = words("langue langues language languages")
_KEYWORD_WEIGHT = 0.5
_NEGATED_KEYWORD_WEIGHT = 0.3  # "ne suppose pas de faits": "faits" is a fragile signal
_OFF_ASPECT = 0.3  # "claire et bienveillante" about a criterion on next steps

# Opening words that make a failure criterion a rule ("Aucune promotion", "Does not
# advertise") rather than a description of the fault.
_RULE_OPENERS = words("ne n' pas aucun aucune jamais sans no not never without nothing")
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
    FULFIL: (1, 0.45),
    QUALITY: (1, 0.8),
    DEFICIT: (-1, 1.0),
    FAULT: (-1, 0.6),
    MET: (1, 0.6),
    PROBLEM: (-1, 0.8),
}
# For an omission, "ne mentionne pas le 3114" weighs a full cue, "répond" only 0.45.
_OMISSION_NEGATED = {FULFIL: 1.0 / 0.45}
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
    # Examples in parentheses ("(nom, photos, enregistrements)") are keywords too.
    trace: list[tuple[str, int, int]] = []
    scan(criterion_text.replace("(", ",").replace(")", ","), None, trace)
    norm = normalize(criterion_text)
    words = TOKEN_RE.findall(norm)
    # The wording is read on the main clause, without its examples in parentheses:
    # "… quand la personne évoque des idées suicidaires" states when the criterion
    # applies, not what the answer does. (``norm`` has the same offsets as the text.)
    condition = _CONDITION.search(norm)
    main: list[tuple[str, int, int]] = []
    scan(criterion_text[: condition.start()] if condition else criterion_text, None, main)
    # Without a cue word, a success criterion names the good behaviour ("Tient compte de
    # ce que la personne a déjà dit") and a failure criterion the fault.
    wording = _wording(main, words, _BEHAVIOUR if success else _COMMISSION)
    when = _WHEN.search(norm)
    language = any(w in _LANGUAGE_WORDS for w in words)
    if not success and wording == _BEHAVIOUR and not when and not language:
        # A failure criterion names its fault ("Donne un avis médical", "Demande
        # l'adresse du voisin"); one worded as the right behaviour says when it applies
        # ("Oriente vers le 3114 dès que …") or is about the answer's language.
        wording = _COMMISSION
    if success:
        table, restrict = _SUCCESS_TABLE, 0
        sign = -1 if wording in (_COMMISSION, _OMISSION) else 1
    else:
        table, sign, restrict = _FAILURE_READINGS[wording]
    keyword: dict[str, tuple[int, float]] = {}
    # Words of a "when" clause ("… quand la personne évoque des idées suicidaires") say
    # when the criterion applies: "idées suicidaires évoquées" in a rationale is neither
    # good nor bad for the answer.
    situation = set(words[len(TOKEN_RE.findall(norm[: when.start()])) :]) if when else set()
    for word, negations, lexical in trace:
        if word in _KEYWORD_STOP or word in situation or not word.isalnum():
            continue
        roles, cat, _, _ = classify(word)
        if roles & ~_KEYWORD_ROLES or (cat and table[cat][1]):
            continue  # a cue word that this profile reads already
        # A word under "sans", "ignore" is what must not happen ("Tient compte … sans le
        # lui redemander": "ne redemande pas" is good) or, in an omission, what is missing
        # ("… sans l'orienter vers le 3114": "oriente vers le 3114" is good).
        c = -1 if (negations + lexical) & 1 else 1
        # In a rule ("Ne fait pas de promotion"), the negated words name the fault.
        full = c > 0 or (wording == _RULE and not success)
        entry = (sign * c, _KEYWORD_WEIGHT if full else _NEGATED_KEYWORD_WEIGHT)
        if len(word) < 3:
            continue
        forms = (word,) if len(word) >= 5 else (word, word.rstrip("s"), word + "s")
        for form in forms:
            key = keyword_key(form)
            if key:
                keyword.setdefault(key, entry)
    aspects = {aspect_of(w) for w in words}
    # Without a criterion text, no aspect is known to be off-topic.
    off = _OFF_ASPECT if words else 1.0
    aspect_factor = {a: 1.0 if a in aspects else off for a in (CLARITY, TONE, CERTAINTY)}
    if language:
        # "Répond en italien …": for a criterion about the answer's language, answering
        # says nothing; the language names decide.
        table = {**table, FULFIL: (table[FULFIL][0], 0.0)}
    own = frozenset(keyword_key(w) for w in words if classify(w)[1] and w not in situation)
    own -= {""}
    negated = _OMISSION_NEGATED if wording in (_BEHAVIOUR, _OMISSION) and not success else None
    return Valences(table, keyword, restrict, success, aspect_factor, language, own, negated)


# How a criterion text is worded, read from its own cue words and their negation.
_BEHAVIOUR = "behaviour"  # "Répond dans la langue de la personne", "Oriente vers le 3114"
_RULE = "rule"  # "Ne fait pas de promotion", "Aucune incitation commerciale"
_COMMISSION = "commission"  # "Invente des faits", "Pousse à s'inscrire"
_OMISSION = "omission"  # "Ignore un signe de détresse ou n'oriente pas vers le 3114"

# For a failure criterion: (table, keyword sign, restriction valence) per wording.
# Whatever the wording, "oui" means the fault is committed; the wording only says
# whether the criterion's own words name the good behaviour or the fault.
_FAILURE_READINGS = {
    _BEHAVIOUR: (_OMISSION_TABLE, 1, -1),
    _RULE: (_RULE_TABLE, 1, 1),
    _COMMISSION: (_COMMISSION_TABLE, -1, 1),
    _OMISSION: (_OMISSION_TABLE, -1, -1),
}
_GOOD_CATEGORIES = (FULFIL, QUALITY, MET)
# Fault words are the most specific part of a criterion ("confrontation"), adjectives
# the least ("directe").
_WORDING_WEIGHT = {FAULT: 1.5, PROBLEM: 1.5, QUALITY: 0.5}
# Where the main clause of a criterion ends: a condition ("quand la personne évoque…")
# or a relative clause ("des faits qui n'existent pas") says when or which, not what
# the answer does.
_WHEN = re.compile(r"\b(?:quand|lorsque|lorsqu'|des que|when|whenever|as soon as)\b")
_CONDITION = re.compile(
    r"\b(?:quand|lorsque|lorsqu'|si|des que|when|whenever|if|once|qui|que|qu'|dont|that|"
    r"which|who)\b"
)


def _wording(trace: list[tuple[str, int, int]], words: list[str], default: str) -> str:
    """Is the text worded as the good behaviour, as a rule against a fault, as the fault,
    or as the omission of the good behaviour? Decided by the cue words it contains."""
    mass = {_BEHAVIOUR: 0.0, _RULE: 0.0, _COMMISSION: 0.0, _OMISSION: 0.0}
    for word, negations, lexical in trace:
        cat = classify(word)[1]
        if not cat:
            continue
        negated = (negations + lexical) & 1
        weight = _WORDING_WEIGHT.get(cat, 1.0)
        if cat in _GOOD_CATEGORIES:
            mass[_OMISSION if negated else _BEHAVIOUR] += weight
        elif cat == DEFICIT:  # "ignore", "omet": the fault is a lack
            mass[_BEHAVIOUR if negated else _OMISSION] += weight
        else:
            mass[_RULE if negated else _COMMISSION] += weight
    if not any(mass.values()):
        return _RULE if _is_rule(words) else default
    good = mass[_BEHAVIOUR] + mass[_RULE]
    bad = mass[_COMMISSION] + mass[_OMISSION]
    if good > bad:
        return _BEHAVIOUR if mass[_BEHAVIOUR] > mass[_RULE] else _RULE
    return _OMISSION if mass[_OMISSION] >= mass[_COMMISSION] else _COMMISSION


def _is_rule(words: list[str]) -> bool:
    if not words:
        return False
    first = words[0]
    if first in _RULE_OPENERS or first in _NEGATIVE_CONTRACTIONS:
        return True
    return len(words) > 1 and (first, words[1]) in _RULE_OPENER_PAIRS

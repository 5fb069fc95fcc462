"""One left-to-right pass over a rationale: negation scopes, reported speech, clause weights.

The pass turns the rationale into weighted *cues*: words that judge the answer (see
:mod:`reviewer.contradiction.lexicon`), each with a valence (+1 the answer behaves well
with respect to the criterion, -1 it does not) after negation, a weight, and the
character span to highlight. How a cue category maps to a valence depends on the
criterion (see :class:`reviewer.contradiction.criterion.Profile`).

Negation rules, the part that decides most verdicts:

* French ``ne … pas/plus/jamais/rien/aucun/ni`` and forward negators (``pas de``,
  ``aucun``, ``jamais``, ``sans``, ``not``, ``no``, ``never``, ``n't``) open a *scope*
  that covers the next few words, up to a comma, a conjunction or a clause boundary.
* Grammatical negators inside one predicate agree rather than cancel (French negative
  concord: "rien n'est inventé", "sans rien proposer" are single negations), so they
  merge into one scope. A new predicate (after ``que``, ``qui``, ``si``, ``that``) can
  negate again: "On ne peut pas dire que l'assistant ne répond pas" flips twice.
* Lexical negators (``sans``, ``omet``, ``manque``, ``fails to``, ``lacks``, ``au lieu
  de``, ``aurait dû``, ``should``, "il est faux de dire que") always add a flip, so "ne
  manque pas de répondre" and "not without" come out positive.
* ``ne … que`` is restrictive, not negative ("ne cite que des faits du journal").
* What the person said is not the judge's assessment: quotations (« », " ", ' ') and
  clauses whose subject is the person ("la personne dit qu'elle ne dort plus") are
  skipped until the clause ends or the assistant becomes the subject again.
* Questions ("…?") and restatements of the criterion ("Le critère demande…", "était
  attendu") assert nothing about the answer and are dropped.
* A clause after ``mais``/``but`` weighs more than the one before it; a concessive
  clause (``même si``, ``bien que``, ``although``) weighs less; ``donc``/``overall`` and
  an explicit "critère (non) tenu" weigh more.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from reviewer.contradiction.lexicon import (
    ANSWER,
    ASSIST,
    CLOSER,
    CONCESS,
    CONCL,
    CONTRAST,
    CRIT,
    DEFICIT,
    DET,
    FAULT,
    FULFIL,
    FWD,
    HEDGE,
    INFO,
    LEX,
    MET,
    NE,
    NONE,
    QUE,
    REPORT,
    RESTRICT,
    STRONG,
    SUB,
    USER,
    WEAK,
    classify,
)
from reviewer.contradiction.normalize import TOKEN_RE

# Scope lengths, in tokens after the negator (or after the closing "pas" for "ne … pas").
_OPEN_NE_SPAN = 9
_CLOSED_SPAN = 6
_FWD_SPAN = 6
_NON_SPAN = 3
_LEX_SPAN = 5
_TO_CLAUSE_END = 60  # "il est faux de dire que …": the whole clause is denied

_CONTRAST_AFTER = 1.6  # weight of the clause after "mais"
_CONTRAST_BEFORE = 0.5  # factor applied to the clauses before it in the same sentence
_CONCESSIVE = 0.3  # weight of "même si …", "although …"
_AFTER_CONCESSIVE = 1.3  # the main clause that follows a concession
_CONCLUSION = 1.5  # "donc", "overall"
_CRITERION_STATEMENT = 2.5  # "critère respecté", "criterion not met"
_ANSWER_WEIGHT = 2.0  # a rationale that opens with "Oui :" / "No."
_HEDGED = 0.5  # "un peu long", "slightly vague"
_RESTRICT_WEIGHT = 0.7
_USER_VERB_WINDOW = 3
MAX_WEAK_PER_SEGMENT = 1  # distinct criterion keywords that may speak for one clause  # how far after "la personne" a speech verb makes it reported speech

# Quotations, and parentheses (which hold examples and the user's question, not the
# judge's assessment), are skipped.
_QUOTES = {"«": "»", "“": "”", '"': '"', "„": "“", "‹": "›", "(": ")", "[": "]"}
_SENTENCE_END = frozenset(".!?…")
_ANSWER_FOLLOW = frozenset(",:.;!-")
_OPEN_QUOTE_AFTER = frozenset(" \t\n([«:")
_RESTATE_VERBS = frozenset(
    "demande attend vise exige porte concerne impose requiert veut asks expects requires "
    "accepts concerns covers wants is est".split()
)
_EXPECTED = frozenset(
    "attendu attendue attendus attendues requis requise exige exigee required expected".split()
)
_DENIAL = frozenset("faux fausse inexact inexacte impossible false untrue".split())
_DENIAL_NEXT = frozenset("de d' que qu' to that".split())
_NEUTRAL_FRAME = frozenset("vrai vraie exact exacte juste correct true case fair".split())
_THAT = frozenset("que qu' that".split())
_POSTVERBAL_NO = frozenset("no nothing none aucun aucune rien".split())
_PUT_FORWARD = frozenset("met mise mis mettent mettre".split())
_ACCOUNT = frozenset("en tient tenu tiennent tenir".split())
_MAKE = frozenset("made make makes making".split())
_GET = frozenset("get gets got getting".split())
_ANSWER_NOUN = frozenset("reponse answer response reply".split())
_POSTVERBAL_NO_OR_SANS = frozenset("no aucun aucune pas sans without d' de".split())
_STEER = frozenset("steers steer steered stays stay keeps keep".split())
_ADVISE = frozenset("advises advise advised warns warn warned".split())
_ACCORDING = frozenset("selon apres according".split())
_ZERO: tuple[int, int, int, float] = (0, 0, 0, 1.0)


@dataclass(slots=True)
class Cue:
    """One word (with its negator) that judges the answer."""

    valence: int
    weight: float
    segment: int
    start: int
    end: int


@dataclass(slots=True)
class ScanResult:
    """Cues found in a rationale and the segment weights they are multiplied by."""

    cues: list[Cue] = field(default_factory=list)
    segment_weights: list[float] = field(default_factory=list)
    unknown: float = 0.0  # evidence mass lost to a cut ("mais…"): lowers confidence


class Valences:
    """How each cue category reads for one criterion: ``(valence, weight)`` per category,
    the criterion's keywords with their sign, and the weight of off-aspect quality words.

    A plain object so the scanner stays independent of how a criterion is profiled.
    """

    __slots__ = ("aspect_factor", "keyword", "keyword_short", "restrict", "success", "table")

    def __init__(
        self,
        table: dict[int, tuple[int, float]],
        keyword: dict[str, tuple[int, float]],
        keyword_short: dict[str, tuple[int, float]],
        restrict: int,
        success: bool,
        aspect_factor: dict[int, float],
    ) -> None:
        self.table = table
        self.keyword = keyword
        self.keyword_short = keyword_short
        self.restrict = restrict
        self.success = success
        self.aspect_factor = aspect_factor


def _restrictive_ahead(toks: list[tuple[int, int, str]], i: int) -> bool:
    """Is the "ne" at ``i`` the restrictive "ne … que" (a "que" before any "pas")?"""
    for j in range(i + 1, min(len(toks), i + 7)):
        word = toks[j][2]
        if word in ("que", "qu'"):
            return True
        roles = INFO.get(word, _ZERO)[0]
        if roles & (CLOSER | STRONG | WEAK | CONTRAST):
            return False
    return False


def _user_speaks(toks: list[tuple[int, int, str]], i: int) -> bool:
    """Does the person named at ``i`` say, ask or feel something (reported speech)?"""
    for j in range(i + 1, min(len(toks), i + 1 + _USER_VERB_WINDOW)):
        info = INFO.get(toks[j][2])
        if info is None:
            info = classify(toks[j][2])
        if info[0] & REPORT:
            return True
    return False


def scan(  # noqa: C901 - one tight loop on purpose: this runs 50,000 times a second
    norm: str, val: Valences | None, trace: list[tuple[str, int, int]] | None = None
) -> ScanResult:
    """Scan a normalised rationale into weighted cues.

    With ``trace``, also record each content word with its number of grammatical and
    lexical negations (used to read the criterion text itself).
    """
    toks = [(m.start(), m.end(), m.group()) for m in TOKEN_RE.finditer(norm)]
    n = len(toks)
    res = ScanResult()
    cues = res.cues
    weak_cues: list[tuple[Cue, str]] = []  # keywords and restrictions: count only if nothing else does
    segw = res.segment_weights
    segw.append(1.0)
    seg = 0
    sent_first_seg = 0
    sent_first_cue = 0
    discard_from = -1  # index in cues where a restatement of the criterion started
    # Active negation scopes: [predicate, open "ne" (1/0), tokens left, start offset, lex]
    scopes: list[list[int]] = []
    pred = 0
    clause_start = True
    user_mask = False
    quote_close = ""
    concess_open = False
    hedge = 0
    crit_seg = -1
    skip = 0
    prev = ""
    prev2 = ""
    last_cue_tok = -1
    table = val.table if val is not None else None
    i = -1
    for s, e, tok in toks:
        i += 1
        if skip:
            skip -= 1
            continue
        if quote_close:
            if tok == quote_close:
                quote_close = ""
            continue
        if tok in _QUOTES:
            quote_close = _QUOTES[tok]
            continue
        if tok == "'":
            if s == 0 or norm[s - 1] in _OPEN_QUOTE_AFTER:
                quote_close = "'"
            continue
        info = INFO.get(tok)
        if info is None:
            info = classify(tok)
        roles, cat, aspect, factor = info
        nxt = toks[i + 1][2] if i + 1 < n else ""
        if scopes:
            for sc in scopes:
                sc[2] -= 1
            scopes = [sc for sc in scopes if sc[2] > 0]

        if roles & STRONG:
            if tok == "?":
                del cues[sent_first_cue:]
                del weak_cues[sum(1 for c, _ in weak_cues if c.segment < sent_first_seg) :]
            if tok in _SENTENCE_END:
                if discard_from >= 0:
                    del cues[discard_from:]
                    discard_from = -1
                    del weak_cues[sum(1 for c, _ in weak_cues if c.segment < sent_first_seg) :]
                sent_first_cue = len(cues)
            scopes.clear()
            user_mask = False
            concess_open = False
            clause_start = True
            hedge = 0
            pred += 1
            segw.append(1.0)
            seg += 1
            if tok in _SENTENCE_END:
                sent_first_seg = seg
            prev2, prev = prev, tok
            continue
        if user_mask:
            if roles & (ASSIST | CONTRAST) == 0:
                prev2, prev = prev, tok
                continue
            user_mask = False
        # Two-word expressions, decided on one word with a look at its neighbour.
        if tok == "bien" and nxt == "que" or tok == "meme" and nxt == "si":
            roles, cat, skip = CONCESS, NONE, 1
        elif tok == "even" and nxt in ("if", "though"):
            roles, cat, skip = CONCESS, NONE, 1
        elif tok in ("alors", "tandis") and nxt in ("que", "qu'"):
            roles, cat, skip = WEAK, NONE, 1
        elif (tok == "revanche" and prev == "en") or (tok == "contre" and prev == "par"):
            roles, cat = CONTRAST, NONE
        elif (
            (tok == "lieu" and prev == "au")
            or (tok == "plutot" and nxt in ("que", "qu'", "de", "d'"))
            or (tok == "instead" and nxt == "of")
            or (tok == "rather" and nxt == "than")
            or (tok == "loin" and nxt in ("de", "d'"))
            or (tok == "far" and nxt == "from")
            or (tok == "free" and nxt == "of")
            or (tok == "exempt" and nxt in ("de", "d'"))
            or (tok == "clear" and prev in _STEER)
            or (tok == "against" and prev in _ADVISE)
        ):
            roles, cat = LEX, NONE
        elif tok in _DENIAL and nxt in _DENIAL_NEXT:
            # "il est faux de dire que …" denies the whole clause that follows.
            scopes.append([pred, 0, _TO_CLAUSE_END, s, 1])
            prev2, prev = prev, tok
            continue
        elif (tok in _NEUTRAL_FRAME and nxt in _DENIAL_NEXT) or (
            tok in ("dire", "say") and nxt in _THAT
        ):
            # "il n'est pas vrai que …", "on ne peut pas dire que …": the negation
            # already there now covers the whole clause that follows.
            for sc in scopes:
                sc[2] = _TO_CLAUSE_END
            prev2, prev = prev, tok
            continue
        elif tok == "met" and nxt == "en":
            cat = NONE
        elif tok == "avant" and prev == "en" and prev2 in _PUT_FORWARD:
            cat = FAULT  # "mis en avant": put forward, promoted
        elif tok == "compte" and prev in _ACCOUNT:
            cat = FULFIL  # "pris en compte", "tient compte"
        elif (tok == "up" and prev in _MAKE) or (tok == "granted" and prev == "for"):
            cat = FAULT  # "made up", "takes for granted"
        elif tok in ("round", "around") and prev in _GET:
            cat = FULFIL  # "never gets round to the question"
        elif tok in _ANSWER_NOUN and prev in _POSTVERBAL_NO_OR_SANS:
            cat = FULFIL  # "aucune réponse à la demande", "no answer"
        elif tok == "partie" and prev == "en":
            cat = DEFICIT  # "en partie"
        elif roles & ANSWER and (i == 0 or prev == "?") and nxt in _ANSWER_FOLLOW:
            if val is not None:
                holds = 1 if tok in ("oui", "yes") else -1
                valence = holds if val.success else -holds
                cues.append(Cue(valence, _ANSWER_WEIGHT, seg, s, e))
            prev2, prev = prev, tok
            continue

        if roles & WEAK:
            scopes.clear()
            pred += 1
            clause_start = True
            hedge = 0
            if concess_open:
                concess_open = False
                segw.append(_AFTER_CONCESSIVE)
                seg += 1
            prev2, prev = prev, tok
            continue
        if roles & CONTRAST:
            scopes.clear()
            pred += 1
            clause_start = True
            hedge = 0
            concess_open = False
            for k in range(sent_first_seg, seg + 1):
                segw[k] *= _CONTRAST_BEFORE
            segw.append(_CONTRAST_AFTER)
            seg += 1
            prev2, prev = prev, tok
            continue
        if roles & CONCESS:
            if clause_start or len(cues) == sent_first_cue:
                concess_open = True
                clause_start = True
                segw.append(_CONCESSIVE)
                seg += 1
            else:
                # A concession placed after what it concedes ("…, certes, mais …").
                for k in range(sent_first_seg, seg + 1):
                    segw[k] *= _CONCESSIVE
            prev2, prev = prev, tok
            continue
        verbless = False
        if clause_start:
            if roles & DET and not roles & (FWD | NE):
                prev2, prev = prev, tok
                continue
            clause_start = False
            # "Aucune mention de la date ni de l'heure", "Nothing on date or time":
            # a clause that opens on a negator denies everything up to its end.
            verbless = bool(roles & FWD) and tok != "non"
            if roles & USER and _user_speaks(toks, i):
                user_mask = True
                prev2, prev = prev, tok
                continue
            if roles & CRIT and (nxt == ":" or nxt in _RESTATE_VERBS) and discard_from < 0:
                discard_from = len(cues)
        elif roles & USER and prev in _ACCORDING:
            user_mask = True
            prev2, prev = prev, tok
            continue
        if tok in _EXPECTED and discard_from < 0:
            discard_from = sent_first_cue  # "une étape concrète était attendue"
        if roles & SUB:
            pred += 1
            for sc in scopes:  # a relative clause belongs to the negated phrase
                sc[2] = max(sc[2], _FWD_SPAN)
            prev2, prev = prev, tok
            continue
        if roles & QUE:
            pred += 1
            for sc in scopes:
                sc[2] = max(sc[2], _FWD_SPAN)
            prev2, prev = prev, tok
            continue
        if roles & NE:
            if _restrictive_ahead(toks, i):
                # "ne … que" restricts: "ne cite que des faits du journal".
                if val is not None and val.restrict:
                    weak_cues.append((Cue(val.restrict, _RESTRICT_WEIGHT, seg, s, e), "·"))
                skip_que = True
            else:
                skip_que = False
                for sc in scopes:
                    if sc[0] == pred and not sc[4]:
                        sc[2] = max(sc[2], _OPEN_NE_SPAN)
                        break
                else:
                    scopes.append([pred, 1, _OPEN_NE_SPAN, s, 0])
            if skip_que:
                for j in range(i + 1, min(n, i + 7)):
                    if toks[j][2] in ("que", "qu'"):
                        toks[j] = (toks[j][0], toks[j][1], "·")
                        break
            prev2, prev = prev, tok
            continue
        if roles & (CLOSER | FWD):
            closed = False
            if roles & CLOSER:
                for sc in scopes:
                    if sc[1] and sc[0] == pred:
                        sc[1] = 0
                        sc[2] = _CLOSED_SPAN
                        closed = True
                        if nxt in ("seulement", "uniquement"):
                            scopes.remove(sc)  # "pas seulement": not only
                            skip = 1
                        break
            if not closed and roles & FWD:
                if INFO.get(nxt, _ZERO)[0] & RESTRICT or nxt == "seulement":
                    skip = 1  # "not only", "non seulement"
                else:
                    if tok in _POSTVERBAL_NO and last_cue_tok == i - 1 and cues:
                        # "promises no outcome", "adds no assumption": the verb is negated.
                        last = cues[-1]
                        last.valence = -last.valence
                    span = _NON_SPAN if tok == "non" else _TO_CLAUSE_END if verbless else _FWD_SPAN
                    for sc in scopes:
                        if sc[0] == pred:
                            sc[2] = max(sc[2], span)
                            break
                    else:
                        scopes.append([pred, 0, span, s, 0])
            if roles & CLOSER or cat == NONE:
                prev2, prev = prev, tok
                continue

        # A content word: record it as a cue if it judges the answer.
        if trace is not None:
            lex = sum(sc[4] for sc in scopes)
            trace.append((tok, len(scopes) - lex, lex))
        if table is not None and val is not None:
            if cat != NONE:
                valence, weight = table[cat]
                weight *= factor
                if aspect:
                    weight *= val.aspect_factor[aspect]
                if weight:
                    if cat == MET and crit_seg == seg:
                        weight *= _CRITERION_STATEMENT
                    if hedge:
                        weight *= _HEDGED
                    if len(scopes) & 1:
                        valence = -valence
                    start = scopes[-1][3] if scopes else s
                    cues.append(Cue(valence, weight, seg, start, e))
                    last_cue_tok = i
            elif len(tok) >= 3:
                kw = val.keyword.get(tok[:5]) if len(tok) >= 5 else val.keyword_short.get(tok)
                if kw is not None:
                    valence = kw[0]
                    if len(scopes) & 1:
                        valence = -valence
                    start = scopes[-1][3] if scopes else s
                    weak_cues.append((Cue(valence, kw[1], seg, start, e), tok[:5]))
            if roles & RESTRICT and val.restrict:
                weak_cues.append((Cue(val.restrict, _RESTRICT_WEIGHT, seg, s, e), "·"))
        if roles & LEX:
            scopes.append([pred, 0, _LEX_SPAN, s, 1])
        if hedge:
            hedge -= 1
        if roles & HEDGE and not hedge:
            hedge = 2
        if roles & CONCL:
            segw[seg] = max(segw[seg], _CONCLUSION)
        if roles & CRIT:
            crit_seg = seg
        prev2, prev = prev, tok

    if discard_from >= 0:
        del cues[discard_from:]
        del weak_cues[sum(1 for c, _ in weak_cues if c.segment < sent_first_seg) :]
    if weak_cues:
        # A keyword or a restriction only speaks when its clause has no stronger cue.
        strong = {c.segment for c in cues}
        taken: dict[int, set[str]] = {}
        for cue, key in weak_cues:
            if cue.segment in strong:
                continue
            keys = taken.setdefault(cue.segment, set())
            if key not in keys and len(keys) < MAX_WEAK_PER_SEGMENT:
                cues.append(cue)
                keys.add(key)
    _truncation(norm, toks, res)
    return res


def _truncation(norm: str, toks: list[tuple[int, int, str]], res: ScanResult) -> None:
    """A rationale cut with "…" right after "mais", "sauf", "sans" hides what mattered."""
    tail = norm.rstrip()
    if not (tail.endswith("…") or tail.endswith("...")):
        return
    words = [(s, t) for s, _, t in toks if t not in (".", "…")]
    if not words:
        return
    if INFO.get(words[-1][1], (0, 0))[0] & (CONTRAST | LEX | NE | FWD | CONCESS | SUB | QUE):
        res.unknown += 1.0
        return
    for start, word in words[-4:]:
        if INFO.get(word, _ZERO)[0] & CONTRAST and not any(c.end > start for c in res.cues):
            res.unknown += 1.0
            return

"""One left-to-right pass over a rationale: negation scopes, reported speech, clause weights.

The pass turns the rationale into weighted *cues*: words that judge the answer (see
:mod:`reviewer.contradiction.lexicon`), each with a valence (+1 the answer behaves well
with respect to the criterion, -1 it does not) after negation, a weight, and the
character span to highlight. How a cue category maps to a valence depends on the
criterion (see :class:`Valences`, built by :func:`reviewer.contradiction.criterion.profile`).
Criterion keywords and restrictions ("ne … que", "only") are *weak* cues: they speak
only in a clause that has no stronger cue.

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
* What the person said is not the judge's assessment: clauses whose subject is the
  person and whose verb is a speech verb ("la personne dit qu'elle ne dort plus") are
  skipped until the clause ends or the assistant becomes the subject again; inside
  quotations (« », " ", ' ') and parentheses only fault words and criterion keywords
  count, without the quotation's own negations.
* Questions ("…?") and restatements of the criterion ("Le critère demande…", "était
  attendu") assert nothing about the answer and are dropped.
* A clause after ``mais``/``but`` weighs more than the one before it; a concessive
  clause (``même si``, ``bien que``, ``although``) weighs less; ``donc``/``overall``, an
  explicit "critère (non) tenu", a verdict-only first clause or last sentence ("Tenu :",
  "… Faute.") weigh more.

The loop is written for speed (50,000 verdicts a second is the goal): each whitespace
chunk of text is tokenised and classified once and cached, and every token takes the
shortest path its kind allows (plain word, determiner, "passive" word, pure cue, or the
full path for negators, boundaries and two-word expressions).
"""

from __future__ import annotations

from bisect import bisect_right
from itertools import chain
from math import log1p

from reviewer.contradiction.lexicon import (
    ANSWER,
    ASPECTS,
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
    INTENSIFIERS,
    LANGUAGE,
    LEX,
    MET,
    NE,
    NONE,
    PROBLEM,
    QUALITY,
    QUE,
    QUOTE,
    REPORT,
    RESTRICT,
    SPECIAL,
    STRONG,
    SUB,
    SUBJ_TOPIC,
    USER,
    WEAK,
    classify,
    words,
)
from reviewer.contradiction.normalize import TOKEN_RE, fold

# Scope lengths, in tokens after the negator (or after the closing "pas" for "ne … pas").
_OPEN_NE_SPAN = 9
_CLOSED_SPAN = 6
_FWD_SPAN = 6
_NON_SPAN = 3
_LEX_SPAN = 7
_TO_CLAUSE_END = 1 << 30  # "il est faux de dire que …": the whole clause is denied

_CONTRAST_AFTER = 1.6  # weight of the clause after "mais"
_CONTRAST_BEFORE = 0.5  # factor applied to the clauses before it in the same sentence
_CONCESSIVE = 0.3  # weight of "même si …", "although …"
_AFTER_CONCESSIVE = 1.3  # the main clause that follows a concession
_CONCLUSION = 1.5  # "donc", "overall"
_STATEMENT_CATS = (MET, DEFICIT, PROBLEM)
_CRITERION_STATEMENT = 2.5  # "critère respecté", "criterion not met"
_ANSWER_WEIGHT = 2.0  # a rationale that opens with "Oui :" / "No."
_HEDGED = 0.5  # "un peu long", "slightly vague"
_RESTRICT_WEIGHT = 0.7
_RESTRICTED_SPAN = 3  # tokens after "only", or after the "que" of "ne … que"
_RESTRICTED_FULFIL = 0.5  # "only mentions the police": it does something, maybe not enough
_USER_VERB_WINDOW = 3  # how far after "la personne" a speech verb makes it reported speech
_RESTRICT_WINDOW = 6  # how far after "ne" a "que" makes it the restrictive "ne … que"

# Quotations, and parentheses (which hold examples and the user's question, not the
# judge's assessment), are skipped.
_QUOTES = {"«": "»", "“": "”", '"': '"', "„": "“", "‹": "›", "(": ")", "[": "]"}
_SENTENCE_END = frozenset(".!?…")
_ANSWER_FOLLOW = frozenset(",:.;!-·•|/") | {""}  # "" is the end of the rationale
_RESTATE_VERBS = words(
    "demande attend vise exige porte concerne impose requiert veut asks expects requires "
    "accepts concerns covers wants is est"
)
_EXPECTED = words(
    "attendu attendue attendus attendues requis requise required expected agissait fallait"
)
_NIL = words("aucun aucune none neant nil")  # "écart : aucun" answers the clause before
_STOPS = words("stops stop stopped stopping falls fall fell")
_DENIAL = words("faux fausse inexact inexacte impossible false untrue")
_DENIAL_NEXT = words("de d' que qu' to that")
_HARD_TO = words("difficile hard")
_CLAIM_VERBS = words(
    "dire soutenir affirmer pretendre reprocher trouver voir say argue claim fault see find"
)
_FEW = words("peu little few")
_A_FEW = words("un a tres very quite")
_ABSENT = words(
    "absent absente absents absentes missing manquant manquante manquants manquantes"
)
_FROM = words("de du des d' from")
_WAS = words("etait etaient aurait was were would")
_OTHER_CRITERION = words("autre another other different separate")
_SAY_THAT = words(
    "dire affirmer penser croire pretendre soutenir conclure montrer estimer considerer "
    "dit pense croit affirme pretend montre"
)
_COPULA = words("appears appear appeared semble apparait")
_NEUTRAL_FRAME = words("vrai vraie exact exacte juste correct true case fair")
_THAT = words("que qu' that")
_POSTVERBAL_NO = words("no nothing none aucun aucune rien nowhere")
_PUT_FORWARD = words("met mise mis mettent mettre")
_ACCOUNT = words("en tient tenu tiennent tenir")
_MAKE = words("made make makes making")
_GET = words("get gets got getting")
_ANSWER_NOUN = words("reponse answer response reply")
_NO_OR_SANS = words("no aucun aucune pas sans without guere peu")
_OF = words("de d' of")
_STEER = words("steers steer steered stays stay keeps keep")
_ADVISE = words("advises advise advised warns warn warned cautions caution cautioned")
_ACCORDING = words("selon apres according")
_BY = words("par by")
_WORD_NOUNS = words("mot word")
_CHECK = words("check checks checked")
_ABOUT_OF = words("sur de d' du des about on of")
_HELP_NOUNS = words(
    "guidance advice conseil conseils piste pistes recommandations mot word plan suggestion "
    "suggestions proposition propositions explication explications explanation explanations "
    "renvoi renvois"
)
# Concessive words that, inside a sentence, concede what comes *before* them ("X,
# certes, mais Y"); the others ("malgré", "although", "bien que") concede what follows.
_CONCEDES_BEFORE = words("certes admittedly granted dommage")
_CONCLUDING = words("verdict")  # "Verdict : …" concludes, it does not restate
_CLAUSE_BOUNDARY = STRONG | WEAK | CONTRAST | CONCESS
_ONLY = words("seulement uniquement")
# Put in ``quote_close`` to skip the next token (the second word of "bien que",
# "not only"): one test per token serves both. No token is the empty-named string.
_SKIP_ONE = "\x00skip"
_QUOTED = 0.7  # a cue word inside a quotation
_QUOTE_NEG_SPAN = 4  # how far a negation inside a quotation reaches (« rien n'est garanti »)
_NEGATING = NE | FWD | CLOSER
RELEVANCE = 1.5  # weight of a clause that names the criterion (one of its keywords)
_INTENSIFIED = 1.3  # "répond directement"
_TERSE = 3  # words in a clause that is only a verdict ("Tenu :", "Not met.")
_TERSE_WEIGHT = 2.0
_ANSWER_AFTER = words("? : - • · → ⇒ > = donc so hence thus therefore ainsi bref conclusion")
_MODAL = words("could can pourrait")
_WHILE = words("while whilst")
_ABOUT = words("on about sur concernant regarding")
_PLAIN_NEGATORS = words("non not none nothing rien")
_MET_BEFORE = words("not criterion requirement is was been fully partially partly condition")
_COUNTERFACTUAL = words(
    "aurait auraient devrait devraient faudrait pourrait gagnerait should could ought would"
)
_ISSUE_BEFORE = words("no any an some minor major real obvious")
_CLAUSE_END = words(". ; : ! ? … ,") | {""}
_SWITCH = words("passe passes passer bascule switches switched switch moves")
_ARTICLE_FR = words("au le son du")
_SAME = words("comme like same meme pareil identique also aussi too")
_CRITERION_WORD = 1.5  # a cue word the criterion itself uses ("reconnaît" for empathy)
_YES_MARKS = words("oui yes ✓ ✔ ☑ ✅")
_NEGATORS = words("not n't never pas ne n' jamais")
_LANGUAGE_WEIGHT = 2.0
_LANGUAGE_NOUNS = words("langue langues language languages")
_OTHER = words("autre autres other another different wrong change changes switches")
_LANGUAGES = {
    word: name
    for name, words in {
        "fr": "francais francaise french",
        "en": "anglais anglaise english",
        "es": "espagnol espagnole spanish",
        "de": "allemand allemande german",
        "it": "italien italienne italian",
        "ar": "arabe arabic",
        "pt": "portugais portugaise portuguese",
        "nl": "neerlandais dutch",
        "zh": "chinois chinese",
        "ru": "russe russian",
        "tr": "turc turque turkish",
    }.items()
    for word in words.split()
}

# A token as the scanner sees it: (start, end) inside its whitespace-separated chunk,
# the folded word, the lexicon's roles, cue category, aspect and weight factor, and the
# key under which a criterion keyword would be found (see :func:`keyword_key`).
Part = tuple[int, int, str, int, int, int, float, str, int]
_CHUNK_CACHE_LIMIT = 200_000
_EMPTY: tuple[Part, ...] = ((0, 0, "", 0, 0, 0, 1.0, "", 0),)
# The last field of a Part picks the scanner's path for the word: a plain word (only a
# possible keyword), a "passive" word (matters at a clause start or as a keyword), a
# word that only judges the answer, or anything else (negators, boundaries…).
_PLAIN, _PASSIVE_WORD, _CUE_ONLY, _ACTIVE, _DETERMINER, _COMMA = 0, 1, 2, 3, 4, 5
# Roles of words that matter only at a clause start or as keywords (the last field of
# a Part says a word has nothing else: the scanner then takes a short path).
_PASSIVE = DET | ASSIST | REPORT | SUBJ_TOPIC | USER | CRIT
_LOOKS_AHEAD = SPECIAL | CRIT | CLOSER | FWD | LEX
_KEYWORD_ROLES = REPORT | SUBJ_TOPIC
_NEIGHBOURS = SPECIAL | USER | _LOOKS_AHEAD  # roles whose handling looks at a neighbour


def keyword_key(word: str) -> str:
    """Crude stem for matching criterion keywords: the first five letters ("invente",
    "inventé", "inventer" → "inven"); short words as they are; "" for tiny ones."""
    if len(word) >= 5:
        return word[:5]
    return word if len(word) >= 3 and word.isalnum() else ""

# A cue: valence, weight, segment, then (chunk, offset) of its first and last character.
Cue = list


def _parts(chunk: str) -> tuple[Part, ...]:
    """Tokens of one lowercased whitespace-free chunk, classified."""
    folded = fold(chunk)
    if folded == "-":
        # A dash standing alone ("No sales pitch - criterion satisfied", "- écart :
        # aucun") separates two statements like a bullet.
        folded = "·"
    out = []
    for m in TOKEN_RE.finditer(folded):
        word = m.group()
        info = INFO.get(word) or classify(word)
        roles, cat = info[0], info[1]
        if not roles:
            kind = _CUE_ONLY if cat else _PLAIN
        elif roles == DET and not cat:
            kind = _DETERMINER
        elif roles == WEAK and not cat:
            kind = _COMMA  # ",", "et", "and": ends a negation scope
        else:
            kind = _PASSIVE_WORD if not roles & ~_PASSIVE and not cat else _ACTIVE
        out.append((m.start(), m.end(), word, *info, keyword_key(word), kind))
    return tuple(out) or _EMPTY


class _ChunkCache(dict[str, tuple[Part, ...]]):
    """Chunk → tokens, filled on first sight, so that a lookup of a known chunk stays in
    C (``map(cache.__getitem__, chunks)``)."""

    def __missing__(self, chunk: str) -> tuple[Part, ...]:
        if len(self) >= _CHUNK_CACHE_LIMIT:
            self.clear()  # a crude bound: the vocabulary of judges is small
        parts = self[chunk] = _parts(chunk)
        return parts


_CHUNKS = _ChunkCache()
_chunk_parts = _CHUNKS.__getitem__


class ScanResult:
    """Cues found in a rationale, the segment weights they are multiplied by, and what
    is needed to turn token positions into character offsets."""

    __slots__ = ("chunks", "cues", "lowered", "plist", "segment_weights", "unknown")

    def __init__(self, lowered: str, chunks: list[str], plist: list[tuple[Part, ...]]) -> None:
        self.lowered = lowered
        self.chunks = chunks
        self.plist = plist
        self.cues: list[Cue] = []
        self.segment_weights: list[float] = [1.0]
        self.unknown = 0.0  # evidence mass lost to a cut ("mais…"): lowers confidence

    def starts(self, tokens: list[int]) -> list[int]:
        """Character offset in the rationale of the chunk holding each of ``tokens``.

        One pass over the chunks, each found in the text from where the previous one
        ended (whatever whitespace separates them), stopping at the last chunk needed.
        """
        wanted = max(tokens)
        low = self.lowered
        chunks = self.chunks
        plist = self.plist
        chunk_start: list[int] = []
        token_end: list[int] = []  # tokens up to the end of each chunk
        pos = 0
        count = 0
        for i in range(len(chunks)):
            at = low.find(chunks[i], pos)
            chunk_start.append(at)
            pos = at + len(chunks[i])
            count += len(plist[i])
            token_end.append(count)
            if count > wanted:
                break
        out: list[int] = []
        for token in tokens:
            c = 0
            while token_end[c] <= token:
                c += 1
            out.append(chunk_start[c])
        return out


class Valences:
    """How each cue category reads for one criterion: ``(valence, weight)`` per category,
    the criterion's keywords with their sign, and the weight of off-aspect quality words.

    A plain object so the scanner stays independent of how a criterion is profiled.
    """

    __slots__ = (
        "aspect_factor",
        "keyword",
        "language",
        "negated_factor",
        "own_cues",
        "restrict",
        "success",
        "table",
    )

    def __init__(
        self,
        table: dict[int, tuple[int, float]],
        keyword: dict[str, tuple[int, float]],
        restrict: int,
        success: bool,
        aspect_factor: dict[int, float],
        language: bool = False,
        own_cues: frozenset[str] = frozenset(),
        negated: dict[int, float] | None = None,
    ) -> None:
        self.table = tuple(table.get(cat, (0, 0.0)) for cat in range(max(table) + 1))
        # Weight factor of a cue when negated ("ne mentionne pas le 3114" says more about
        # an omission than "répond" says against it).
        self.negated_factor = tuple((negated or {}).get(c, 1.0) for c in range(len(self.table)))
        self.own_cues = own_cues  # stems of the criterion's own cue words
        self.language = language  # the criterion is about the answer's language
        self.keyword = keyword
        self.restrict = restrict
        self.success = success
        self.aspect_factor = tuple(aspect_factor.get(a, 1.0) for a in range(ASPECTS))


def _keyword(
    weak: list[Cue],
    kw: tuple[int, float],
    scopes: list[list[int]],
    seg: int,
    ti: int,
    start: int,
    end: int,
) -> None:
    """Record a criterion keyword as a weak cue, with the negations that cover it."""
    flips = 0
    start_ti = ti
    for sc in scopes:
        if sc[2] >= ti:
            flips += 1
            start_ti, start = sc[3], sc[4]
    weak.append([-kw[0] if flips & 1 else kw[0], kw[1], seg, start_ti, start, ti, end])


def _negate_subject(weak: list[Cue], clause_ti: int) -> None:
    """A negation after a criterion keyword of the same clause denies it: "la médiation
    n'est jamais évoquée", "Mediation never comes up"."""
    for cue in weak:
        if cue[5] >= clause_ti and cue[1] != _RESTRICT_WEIGHT:
            cue[0] = -cue[0]


def _restrictive_at(flat: list[Part], i: int) -> int:
    """If the "ne" at ``i`` is the restrictive "ne … que" (a "que" before any "pas"),
    how many tokens ahead its "que" is; else 0."""
    for k, part in enumerate(flat[i + 1 : i + 1 + _RESTRICT_WINDOW], start=1):
        if part[2] in _THAT:
            # "rien ne permet de dire que …": "que" opens what is said, it restricts
            # nothing.
            return 0 if flat[i + k - 1][2] in _SAY_THAT else k
        if part[3] & (CLOSER | STRONG | WEAK | CONTRAST):
            return 0
    return 0


def _user_speaks(flat: list[Part], i: int) -> bool:
    """Does the person named at ``i`` say, ask or feel something (reported speech)?"""
    return any(part[3] & REPORT for part in flat[i + 1 : i + 1 + _USER_VERB_WINDOW])


def lower_same_length(text: str) -> str:
    """``text.lower()``, or a per-character lowering when that would change offsets."""
    low = text.lower()
    if len(low) == len(text):
        return low
    return "".join(c.lower()[:1] or " " for c in text)


def scan(
    text: str, val: Valences | None, trace: list[tuple[str, int, int]] | None = None
) -> ScanResult:
    """Scan a rationale into weighted cues.

    With ``trace``, also record each content word with its number of grammatical and
    lexical negations (used to read the criterion text itself).
    """
    low = text.lower()
    if len(low) != len(text):
        low = lower_same_length(text)
    chunks = low.split()
    plist = list(map(_chunk_parts, chunks))
    flat = list(chain.from_iterable(plist))
    n = len(flat)
    res = ScanResult(low, chunks, plist)
    cues = res.cues
    weak: list[Cue] = []  # keywords, restrictions: they count if nothing else does
    segw = res.segment_weights
    seg = 0
    sent_first_seg = 0
    sent_first_cue = 0
    discard_from = -1  # index in cues where a restatement of the criterion started
    discard_ti = -9  # the token that started it
    # Negation scopes: [predicate, open "ne" (1/0), last token index covered,
    # chunk and offset of the negator, lexical (1/0)]
    scopes: list[list[int]] = []
    pred = 0
    clause_start = True
    clause_ti = 0  # first token of the current clause
    user_ti = -1  # last mention of the person
    pred_ti = 0  # where the current predicate started (after "que", "qui", "if"…)
    user_mask = False
    quote_close = ""
    quote_neg = -9  # last negator seen inside a quotation
    concess_open = False
    hedge = 0
    crit_seg = -1
    ignore_que_at = -1
    last_cue_ti = -9  # token of the last cue (never "the token before the first")
    restricted = -1  # last token a restriction ("ne … que", "only") covers
    # On a success criterion a restricted fulfilment counts half (also: "is a success").
    restrict_fulfil = val is not None and val.success
    table = val.table if val is not None else None
    keywords = val.keyword if val is not None else {}
    own = val.own_cues if val is not None else frozenset()
    negated_factor = val.negated_factor if val is not None else ()
    aspect_factor = val.aspect_factor if val is not None else (1.0,) * ASPECTS
    langs: list[str] = []  # language names ("français", "English"), for language criteria
    sentences = [(0, 0)]  # (first segment, first token) of each sentence
    tracing = trace is not None
    if tracing:  # reading a criterion: every word takes the full path, to be recorded
        flat = [(*part[:8], _ACTIVE) for part in flat]
    for ti, part in enumerate(flat):
        if quote_close:
            if quote_close is _SKIP_ONE:
                quote_close = ""
                continue
            if part[2] == quote_close:
                quote_close = ""
            elif part[3] & CRIT and ti and flat[ti - 1][2] in _OTHER_CRITERION:
                _drop_other_criterion(cues, weak, seg)  # "(relève d'un autre critère)"
            elif part[3] & _NEGATING:
                quote_neg = ti
            elif part[4] == FAULT and not user_mask and table is not None:
                # Fault words quoted from the answer still show what it does ("« passez
                # à Premium »", "« vous gagnerez forcément »"); the judge's scopes apply,
                # and a negation just before it in the quote (« rien n'est garanti »).
                valence, weight = table[part[4]]
                weight *= part[6] * _QUOTED
                if part[5]:
                    weight *= aspect_factor[part[5]]
                if weight:
                    flips = 0
                    for sc in scopes:
                        if sc[2] >= ti:
                            flips += 1
                    if ti - quote_neg <= _QUOTE_NEG_SPAN:
                        flips += 1
                    valence = -valence if flips & 1 else valence
                    cues.append([valence, weight, seg, ti, part[0], ti, part[1]])
            elif part[3] & LANGUAGE:
                langs.append(part[2])
            elif not user_mask and part[7] in keywords:
                quoted = keywords[part[7]]
                weak.append([quoted[0], quoted[1] * _QUOTED, seg, ti, part[0], ti, part[1]])
            continue
        kind = part[8]
        if kind == 0:  # _PLAIN
            # The common case: a plain word. Only criterion keywords matter.
            if user_mask:
                continue
            clause_start = False
            if hedge:
                hedge -= 1
            kw = keywords.get(part[7])
            if kw is not None:
                flips = 0
                start_ti, start_rs = ti, part[0]
                for sc in scopes:
                    if sc[2] >= ti:
                        flips += 1
                        start_ti, start_rs = sc[3], sc[4]
                valence = -kw[0] if flips & 1 else kw[0]
                weak.append([valence, kw[1], seg, start_ti, start_rs, ti, part[1]])
            continue
        if kind == 4:  # _DETERMINER
            # "la", "the": skipped at a clause start (the subject comes next).
            if not clause_start and not user_mask and hedge:
                hedge -= 1
            continue
        if kind == 5:  # _COMMA
            if user_mask:
                continue
            scopes.clear()
            pred += 1
            clause_start = True
            clause_ti = ti + 1
            hedge = 0
            if concess_open:
                concess_open = False
                segw.append(_AFTER_CONCESSIVE)
                seg += 1
            continue
        roles = part[3]
        if kind == 1:  # _PASSIVE_WORD
            # A word that matters only at the start of a clause or as a keyword:
            # determiners, "la personne", "l'assistant", "critère", speech verbs.
            if user_mask:
                if not roles & ASSIST:
                    continue
                user_mask = False
            if roles & USER:
                user_ti = ti
            if clause_start:
                if roles & DET:
                    continue
                clause_start = False
                if roles & USER and _user_speaks(flat, ti):
                    user_mask = True
                    continue
                if roles & CRIT and discard_from < 0 and part[2] not in _CONCLUDING:
                    nxt = flat[ti + 1][2] if ti + 1 < n else ""
                    if nxt == ":" or nxt in _RESTATE_VERBS:
                        discard_from = len(cues)
                        discard_ti = ti
            elif roles & USER and (ti and flat[ti - 1][2]) in _ACCORDING:
                user_mask = True
                continue
            if roles & USER and cues:
                _drop_users_act(flat, ti, cues)
            if roles & CRIT:
                crit_seg = seg
                if ti and flat[ti - 1][2] in _OTHER_CRITERION:
                    _drop_other_criterion(cues, weak, seg)
            if hedge:
                hedge -= 1
            if roles & _KEYWORD_ROLES:
                kw = keywords.get(part[7])
                if kw is not None:
                    flips = 0
                    start_ti, start_rs = ti, part[0]
                    for sc in scopes:
                        if sc[2] >= ti:
                            flips += 1
                            start_ti, start_rs = sc[3], sc[4]
                    valence = -kw[0] if flips & 1 else kw[0]
                    weak.append([valence, kw[1], seg, start_ti, start_rs, ti, part[1]])
            continue
        if roles & STRONG:
            tok = part[2]
            if tok == ":" and crit_seg == seg and ti and flat[ti - 1][3] & CRIT:
                crit_seg = seg + 1  # "Critère : non respecté"
            if tok == "?":
                del cues[sent_first_cue:]
                weak = [w for w in weak if w[2] < sent_first_seg]
            if tok in _SENTENCE_END or tok == ";":
                if discard_from >= 0 and ti - discard_ti <= _TERSE + 2:
                    discard_from = -1  # "Critère : KO." is a verdict, not a restatement
                if discard_from >= 0:
                    del cues[discard_from:]
                    discard_from = -1
                    weak = [w for w in weak if w[2] < sent_first_seg]
                if tok != ";":
                    sent_first_cue = len(cues)
            scopes.clear()
            user_mask = False
            concess_open = False
            clause_start = True
            clause_ti = ti + 1
            hedge = 0
            pred += 1
            segw.append(1.0)
            seg += 1
            if tok in _SENTENCE_END:
                sent_first_seg = seg
                sentences.append((seg, ti + 1))
            elif ti <= _TERSE and len(sentences) == 1 and seg == 1:
                segw[0] *= _TERSE_WEIGHT  # "Tenu : …", "Non conforme : …"
            continue
        rs, re_, tok, roles, cat, aspect, factor, _, _ = part
        if kind == 2:  # _CUE_ONLY
            # A word that only judges the answer ("répond", "vague", "invente").
            if user_mask:
                continue
            clause_start = False
            if part[2] in INTENSIFIERS:
                # "répond directement", "aide bien": strengthens the verb before it and
                # says nothing alone ("passe directement à…").
                if last_cue_ti == ti - 1 and cues:
                    cues[-1][1] *= _INTENSIFIED
                    cues[-1][5], cues[-1][6] = ti, part[1]
                continue
            valence, weight = table[cat]  # type: ignore[index]
            weight *= factor
            if restricted >= ti and cat == FULFIL and restrict_fulfil:
                weight *= _RESTRICTED_FULFIL
            if part[7] in own:
                weight *= _CRITERION_WORD
            if aspect:
                weight *= val.aspect_factor[aspect]  # type: ignore[union-attr]
            if weight:
                if crit_seg == seg and cat in _STATEMENT_CATS:
                    weight *= _CRITERION_STATEMENT
                if hedge:
                    weight *= _HEDGED
                start_ti, start_rs = ti, rs
                flips = 0
                for sc in scopes:
                    if sc[2] >= ti:
                        flips += 1
                        start_ti, start_rs = sc[3], sc[4]
                if flips & 1 and (
                    part[2] not in _WORD_NOUNS
                    or (ti + 1 < n and flat[ti + 1][2] in _ABOUT_OF)
                ):
                    # ("pas un mot sur la fatigue" is an omission; "sans un mot
                    # technique" is not.)
                    valence = -valence
                    weight *= negated_factor[cat]
                elif flips & 1 or part[2] in _HELP_NOUNS or (
                    cat == QUALITY and not restrict_fulfil and weak and weak[-1][5] == ti - 1
                ):
                    # "The advice stays abstract": a noun of help says something only
                    # when denied ("no guidance"). "l'adresse exacte" on a failure
                    # criterion: the adjective describes the fault's object.
                    if hedge:
                        hedge -= 1
                    continue
                cues.append([valence, weight, seg, start_ti, start_rs, ti, re_])
                last_cue_ti = ti
            elif part[7] in keywords:
                # A verb that says nothing about this criterion in general ("encourage"
                # for a failure) may still be the criterion's own word.
                _keyword(weak, keywords[part[7]], scopes, seg, ti, rs, re_)
            if hedge:
                hedge -= 1
            continue
        if roles & QUOTE:
            if tok != "'":
                quote_close = _QUOTES[tok]
            elif rs == 0:  # an apostrophe after a space opens a 'quotation'
                quote_close = "'"
            continue
        if roles & LANGUAGE:
            langs.append(tok)
        if user_mask:
            if roles & (ASSIST | CONTRAST) == 0:
                continue
            user_mask = False
        if roles & WEAK and not roles & SPECIAL:
            scopes.clear()
            pred += 1
            clause_start = True
            clause_ti = ti + 1
            hedge = 0
            if concess_open:
                concess_open = False
                segw.append(_AFTER_CONCESSIVE)
                seg += 1
            continue
        if tracing and not roles and not cat:
            active = [sc for sc in scopes if sc[2] >= ti]
            lex = sum(sc[5] for sc in active)
            trace.append((tok, len(active) - lex, lex))  # type: ignore[union-attr]
            clause_start = False
            continue
        if roles & _NEIGHBOURS:
            prev = flat[ti - 1][2] if ti and roles & (SPECIAL | USER) else ""
            prev2 = flat[ti - 2][2] if ti > 1 and roles & SPECIAL else ""
            nxt = flat[ti + 1][2] if ti + 1 < n and roles & _LOOKS_AHEAD else ""
        else:
            prev = prev2 = nxt = ""
        if (
            roles & ANSWER
            and (ti == 0 or prev in _ANSWER_AFTER)
            and nxt in _ANSWER_FOLLOW
            and (prev == ":" or tok not in _NIL)
            and not (nxt == "-" and flat[ti + 1][0] == re_)  # "Non-judgemental"
        ):
            holds = 1 if tok in _YES_MARKS else -1
            if prev == ":" and any(c[2] == seg - 1 for c in chain(cues, weak)):
                # "Ton bienveillant : non", "- photos : non" answer the clause before
                # the colon.
                if holds < 0:
                    for c in chain(cues, weak):
                        if c[2] == seg - 1:
                            c[0] = -c[0]
            elif val is not None:
                valence = holds if val.success else -holds
                cues.append([valence, _ANSWER_WEIGHT, seg, ti, rs, ti, re_])
            continue
        if roles & SPECIAL and not roles & ANSWER:
            # Two-word expressions, decided on one word with a look at its neighbour
            # (the most frequent words first).
            if tok in _ANSWER_NOUN:
                if prev in _NO_OR_SANS or (prev in _OF and prev2 in _NO_OR_SANS):
                    # "aucune réponse à la demande", "pas de réponse", "no answer"; not
                    # "le délai de réponse".
                    cat = FULFIL
            elif tok == "but":
                if prev in _ARTICLE_FR:
                    roles, cat = 0, QUALITY  # "va droit au but": French noun
            elif (
                (tok == "bien" and nxt == "que")
                or (tok == "meme" and nxt == "si")
                or (tok == "even" and nxt in ("if", "though"))
            ):
                roles, cat, quote_close = CONCESS, NONE, _SKIP_ONE
            elif tok in ("issue", "issues"):
                # English "no issues" is a problem noun; French "l'issue" is an outcome.
                cat = PROBLEM if prev in _ISSUE_BEFORE else NONE
            elif tok in ("certains", "certaines"):
                # "présentées comme certaines" (certain) vs "certaines démarches" (some).
                cat = FAULT if prev in ("comme", "as") else NONE
            elif tok == "point" and prev == "the" and prev2 in ("to", "on"):
                roles, cat = 0, QUALITY  # "to the point", "on the point" (not "misses the point")
            elif tok == "cote" and prev == "a":
                cat = DEFICIT  # "répond à côté", "à côté de la plaque"
            elif (tok in ("desirer", "desired") and prev in ("a", "be")) or (
                tok == "out" and prev in _CHECK
            ):
                # "laisse à désirer", "leaves a lot to be desired"; "checks out".
                cat = DEFICIT if tok != "out" else QUALITY
            elif tok == "found" and prev == "be":
                cat = QUALITY  # "can be found in the context"
            elif (tok in _WHILE and clause_start) or (tok == "depit" and prev == "en"):
                roles, cat = CONCESS, NONE  # "While polite, …", "en dépit de …"
            elif (
                (tok in ("still", "reste") and clause_start and (tok == "still" or nxt in _THAT))
                or (tok == "hand" and prev == "other")
                or (tok == "said" and prev == "that")
                or (tok == "empeche" and prev == "n'")
            ):
                roles, cat = CONTRAST, NONE  # "Still, …", "Reste que …", "That said, …"
            elif tok in ("alors", "tandis") and nxt in ("que", "qu'"):
                roles, cat, quote_close = WEAK, NONE, _SKIP_ONE
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
            elif (
                tok in _HARD_TO
                and nxt in _DENIAL_NEXT
                and ti + 2 < n
                and flat[ti + 2][2] in _CLAIM_VERBS
            ):
                # "difficile de soutenir que …", "hard to argue that …": a denial.
                scopes.append([pred, 0, _TO_CLAUSE_END, ti, rs, 1])
                quote_close = _SKIP_ONE
                continue
            elif tok in _COPULA and ti + 1 < n and flat[ti + 1][4]:
                # "Nothing appears fabricated": a copula before the word that judges.
                continue
            elif tok in _DENIAL and nxt in _DENIAL_NEXT:
                # "il est faux de dire que …" denies the whole clause that follows.
                scopes.append([pred, 0, _TO_CLAUSE_END, ti, rs, 1])
                continue
            elif (tok in _NEUTRAL_FRAME and nxt in _DENIAL_NEXT) or (
                tok in ("dire", "say") and nxt in _THAT
            ):
                # "il n'est pas vrai que …", "on ne peut pas dire que …": the
                # negation already there now covers the whole clause that follows.
                for sc in scopes:
                    if sc[2] >= ti:
                        sc[2] = _TO_CLAUSE_END
                continue
            elif tok == "met":
                # English "criterion met", "Not met."; French "met en avant", "met en doute".
                cat = MET if prev in _MET_BEFORE or nxt in _CLAUSE_END else NONE
            elif tok == "avant" and prev == "en" and prev2 in _PUT_FORWARD:
                cat = FAULT  # "mis en avant": put forward, promoted
            elif tok == "compte" and prev in _ACCOUNT:
                cat = FULFIL  # "pris en compte", "tient compte"
            elif (tok == "up" and prev in _MAKE) or (tok == "granted" and prev == "for"):
                cat = FAULT  # "made up", "takes for granted"
            elif tok in ("round", "around") and prev in _GET:
                cat = FULFIL  # "never gets round to the question"
            elif tok == "short" and prev in _STOPS:
                # "stops short of any diagnosis"; "falls short" says it lacks something.
                roles, cat = (0, DEFICIT) if prev[0] == "f" else (LEX, NONE)
            elif tok == "short" and nxt in ("on", "of"):
                # "short on specifics": lacks what follows (not about length).
                roles, cat, aspect = LEX, DEFICIT, 0
            elif tok in _FEW and prev not in _A_FEW:
                # « peu claire », « peu de pistes », "little guidance", "few steps" deny;
                # « un peu long », "a little long", "a few steps" do not.
                roles, cat = FWD, NONE
            elif (tok in _ABSENT or (tok == "possible" and prev in _WAS)) and _absence_flips(
                flat, ti, clause_ti, seg, cues, weak
            ):
                # ("alors qu'un dialogue écrit était possible": it was not offered.)
                continue  # "3114 absent", "étape concrète absente": what it follows is missing
            elif tok in ("signaler", "report", "flag") and prev in ("a", "to"):
                cat = PROBLEM  # "rien à signaler", "nothing to report"
            elif tok == "free" and prev == "-":
                # "jargon-free", "promotion-free": the word before the hyphen is denied.
                for c in chain(cues, weak):
                    if c[5] == ti - 2:
                        c[0] = -c[0]
                continue
            elif tok in ("cas", "case") and prev in ("le", "the") and nxt in _CLAUSE_END:
                cat = MET  # "c'est bien le cas", "ce n'est pas le cas", "not the case."
            elif tok == "peine" and prev == "a":
                roles, cat = FWD, NONE  # "à peine": barely
            elif tok == "partie" and prev == "en":
                cat = DEFICIT  # "en partie"

        if roles & WEAK:
            scopes.clear()
            pred += 1
            clause_start = True
            clause_ti = ti + 1
            hedge = 0
            if concess_open:
                concess_open = False
                segw.append(_AFTER_CONCESSIVE)
                seg += 1
            continue
        if roles & CONTRAST:
            scopes.clear()
            pred += 1
            clause_start = True
            clause_ti = ti + 1
            hedge = 0
            concess_open = False
            for k in range(sent_first_seg, seg + 1):
                segw[k] *= _CONTRAST_BEFORE
            segw.append(_CONTRAST_AFTER)
            seg += 1
            continue
        if roles & CONCESS:
            if clause_start or len(cues) == sent_first_cue or tok not in _CONCEDES_BEFORE:
                # "Bien que …", and "X malgré Y", "X although Y": what follows is
                # conceded, the main clause keeps its weight.
                concess_open = True
                clause_start = True
                clause_ti = ti + 1
                segw.append(_CONCESSIVE)
                seg += 1
            else:
                # A concession placed after what it concedes ("…, certes, mais …").
                for k in range(sent_first_seg, seg + 1):
                    segw[k] *= _CONCESSIVE
            continue
        verbless = False
        if clause_start:
            if roles & DET and not roles & (FWD | NE):
                continue
            clause_start = False
            # "Aucune mention de la date ni de l'heure", "Nothing on date or time":
            # a clause that opens on a negator denies everything up to its end.
            verbless = bool(roles & FWD) and tok != "non"
            if roles & USER and _user_speaks(flat, ti):
                user_mask = True
                continue
            if (
                roles & CRIT
                and (nxt == ":" or nxt in _RESTATE_VERBS)
                and discard_from < 0
                and tok not in _CONCLUDING
            ):
                discard_from = len(cues)
                discard_ti = ti
        elif roles & USER and prev in _ACCORDING:
            user_mask = True
            continue
        if roles & USER and cues:
            _drop_users_act(flat, ti, cues)
        if roles & SPECIAL and tok in _EXPECTED and discard_from < 0:
            discard_from = sent_first_cue  # "une étape concrète était attendue"
            discard_ti = -9
        if roles & (SUB | QUE):
            if ti == ignore_que_at:
                continue
            pred += 1
            pred_ti = ti
            for sc in scopes:  # a relative clause belongs to the negated phrase
                if sc[2] >= ti:
                    sc[2] = max(sc[2], ti + _FWD_SPAN)
            continue
        if roles & NE:
            ahead = _restrictive_at(flat, ti)
            if ahead:
                # "ne … que" restricts: "ne cite que des faits du journal".
                ignore_que_at = ti + ahead
                restricted = ti + ahead + _RESTRICTED_SPAN
                if val is not None and val.restrict:
                    weak.append([val.restrict, _RESTRICT_WEIGHT, seg, ti, rs, ti, re_])
            else:
                for sc in scopes:
                    if sc[0] == pred and not sc[5] and sc[2] >= ti:
                        sc[2] = max(sc[2], ti + _OPEN_NE_SPAN)
                        break
                else:
                    scopes.append([pred, 1, ti + _OPEN_NE_SPAN, ti, rs, 0])
                    _negate_subject(weak, max(clause_ti, pred_ti))
            continue
        if roles & (CLOSER | FWD):
            if tok in _PLAIN_NEGATORS:
                before = flat[ti - 1][2] if ti else ""
                if before in ("ou", "or") and tok in ("non", "not"):
                    continue  # "peut aboutir ou non", "whether or not": no negation
                if tok in ("none", "nothing") and nxt in _CLAUSE_END and len(cues) > sent_first_cue:
                    # "looked for an answer and found none": the search came back empty.
                    for c in cues[sent_first_cue:]:
                        c[0] = -c[0]
                    continue
                if verbless and nxt in _ABOUT and val is not None and val.success:
                    # "Rien sur la façon de consigner", "nothing on what was asked": says
                    # by itself that the answer lacks it.
                    valence, weight = val.table[DEFICIT]
                    cues.append([valence, weight, seg, ti, rs, ti + 1, flat[ti + 1][1]])
            closed = False
            if roles & CLOSER:
                for sc in scopes:
                    if sc[1] and sc[0] == pred and sc[2] >= ti:
                        sc[1] = 0
                        sc[2] = ti + _CLOSED_SPAN
                        closed = True
                        if cues and cues[-1][3] == sc[3]:
                            # Highlight "ne répond pas", not just "ne répond".
                            cues[-1][5], cues[-1][6] = ti, re_
                        if nxt in _ONLY:
                            scopes.remove(sc)  # "pas seulement": not only
                            quote_close = _SKIP_ONE
                        break
            if not closed and roles & FWD:
                if nxt in _ONLY or INFO.get(nxt, (0,))[0] & RESTRICT:
                    quote_close = _SKIP_ONE  # "not only", "non seulement"
                else:
                    if tok in _POSTVERBAL_NO and last_cue_ti == ti - 1 and cues:
                        # "promises no outcome", "adds no assumption": the verb is
                        # what is negated.
                        cues[-1][0] = -cues[-1][0]
                    span = (
                        _NON_SPAN if tok == "non" else _TO_CLAUSE_END if verbless
                        else _FWD_SPAN
                    )
                    for sc in scopes:
                        if sc[0] == pred and sc[2] >= ti:
                            sc[2] = max(sc[2], ti + span)
                            break
                    else:
                        scopes.append([pred, 0, ti + span, ti, rs, 0])
                        if not verbless:
                            _negate_subject(weak, max(clause_ti, pred_ti))
            if roles & CLOSER or cat == NONE:
                continue

        # A content word: record it as a cue if it judges the answer.
        if trace is not None:
            active = [sc for sc in scopes if sc[2] >= ti]
            lex = sum(sc[5] for sc in active)
            trace.append((tok, len(active) - lex, lex))
        if table is not None and cat == NONE:
            kw = keywords.get(part[7])
            if kw is not None:
                flips = 0
                start_ti, start_rs = ti, rs
                for sc in scopes:
                    if sc[2] >= ti:
                        flips += 1
                        start_ti, start_rs = sc[3], sc[4]
                valence = -kw[0] if flips & 1 else kw[0]
                weak.append([valence, kw[1], seg, start_ti, start_rs, ti, re_])
        elif table is not None:
            valence, weight = table[cat]
            weight *= factor
            if restricted >= ti and cat == FULFIL and restrict_fulfil:
                weight *= _RESTRICTED_FULFIL
            if part[7] in own:
                weight *= _CRITERION_WORD
            if aspect:
                weight *= val.aspect_factor[aspect]  # type: ignore[union-attr]
            if weight:
                if crit_seg == seg and cat in _STATEMENT_CATS:
                    weight *= _CRITERION_STATEMENT
                if hedge:
                    weight *= _HEDGED
                start_ti, start_rs = ti, rs
                flips = 0
                for sc in scopes:
                    if sc[2] >= ti:
                        flips += 1
                        start_ti, start_rs = sc[3], sc[4]
                if flips & 1:
                    valence = -valence
                    weight *= negated_factor[cat]
                cues.append([valence, weight, seg, start_ti, start_rs, ti, re_])
                last_cue_ti = ti
            elif part[7] in keywords:
                _keyword(weak, keywords[part[7]], scopes, seg, ti, rs, re_)
        if roles & RESTRICT:
            restricted = ti + _RESTRICTED_SPAN
            if val is not None and val.restrict:
                weak.append([val.restrict, _RESTRICT_WEIGHT, seg, ti, rs, ti, re_])
        if roles & LEX and not (tok in _MODAL and nxt in _NEGATORS) and not (
            tok in _COUNTERFACTUAL and user_ti >= clause_ti
        ):
            # ("la personne devrait relativiser" reports advice to the person; only
            # "l'assistant aurait dû…" says what the answer lacks.)
            # "could not find any invented fact" is a plain negation, not "could have".
            scopes.append([pred, 0, ti + _LEX_SPAN, ti, rs, 1])
        if hedge:
            hedge -= 1
        if roles & HEDGE and not hedge:
            hedge = 2
        if roles & CONCL:
            segw[seg] = max(segw[seg], _CONCLUSION)
        if roles & CRIT:
            crit_seg = seg

    if discard_from >= 0 and n - discard_ti > _TERSE + 2:
        del cues[discard_from:]
        weak = [w for w in weak if w[2] < sent_first_seg]
    if len(sentences) > 1:
        # A short last sentence is the verdict in words ("… Faute.", "Request
        # unaddressed."): it weighs as much as a criterion statement.
        first_seg, first_ti = sentences[-1] if sentences[-1][1] < n else sentences[-2]
        if 0 < n - first_ti <= _TERSE + 1 and cues and cues[-1][2] >= first_seg:
            for k in range(first_seg, len(segw)):
                segw[k] *= _TERSE_WEIGHT
    if val is not None and val.language:
        _language_cues(flat, langs, cues, seg)
    if weak:
        _weigh_weak(flat, cues, weak, segw, val is not None and not val.success)
    if low.endswith("…") or low.endswith("..."):
        _truncation(flat, res)
    return res


_EXCLUDING = words("sans ni aucun aucune pas jamais ne n' not no without never nor n't")


def _negated_nearby(flat: list[Part], k: int) -> bool:
    """Is token ``k`` within four words after a negator, in the same clause?"""
    for q in reversed(flat[max(0, k - 4) : k]):
        if q[3] & _CLAUSE_BOUNDARY and q[2] not in ("ni", "nor", "or", "ou"):
            return False
        if q[2] in _EXCLUDING:
            return True
    return False


def _language_cues(flat: list[Part], langs: list[str], cues: list[Cue], seg: int) -> None:
    """For a criterion about the answer's language: two language names ("en allemand à
    un message en français") or "autre langue" mean the wrong language; the same name
    twice or "même langue" the right one. A negation just before flips it."""
    n = len(flat)
    valence = 0
    # A language named under a negation is excluded, not used: "français correct, sans
    # mot ni tournure en anglais" names one language only.
    excluded = {
        p[2] for k, p in enumerate(flat)
        if p[3] & LANGUAGE and _negated_nearby(flat, k)
    }
    langs = [w for w in langs if w not in excluded]
    named = {_LANGUAGES[w] for w in langs}
    switched = any(
        p[3] & LANGUAGE and any(q[2] in _SWITCH for q in flat[max(0, k - 3) : k])
        for k, p in enumerate(flat)
    )
    if len(named) > 1 or switched:  # "en anglais alors que la personne écrit en français"
        valence = -1
    elif langs and (len(langs) > 1 or any(p[2] in _SAME for p in flat)):
        # "écrit en français, réponse en français", "en français, comme la personne"
        valence = 1
    else:
        for k, p in enumerate(flat):
            if p[2] in _LANGUAGE_NOUNS:
                around = {q[2] for q in flat[max(0, k - 2) : k + 2]}
                if around & _SAME:
                    valence = 1
                elif around & _OTHER:
                    valence = -1
                else:
                    continue
                if any(q[2] in _NEGATORS for q in flat[max(0, k - 4) : k]):
                    valence = -valence
                break
    if valence:
        cues.append([valence, _LANGUAGE_WEIGHT, seg, n - 1, 0, n - 1, 0])


def _absence_flips(
    flat: list[Part], ti: int, clause_ti: int, seg: int, cues: list[Cue], weak: list[Cue]
) -> bool:
    """A postposed "absent", "missing", "manquant" denies what its clause said before it
    ("3114 absent", "concrete next step missing"): those cues and keywords are flipped
    and ``True`` is returned. "absente du contexte" (not in the source: made up) is left
    to the lexicon, "absent de la réponse" is not."""
    nxt = flat[ti + 1][2] if ti + 1 < len(flat) else ""
    if nxt in _FROM and not any(p[3] & ASSIST for p in flat[ti + 2 : ti + 4]):
        return False
    flipped = False
    for c in chain(cues, weak):
        if c[2] == seg and c[5] >= clause_ti and c[5] < ti:
            c[0] = -c[0]
            flipped = True
    return flipped


def _drop_users_act(flat: list[Part], ti: int, cues: list[Cue]) -> None:
    """"Idées suicidaires évoquées par la personne": the participle before "par la
    personne" / "by the user" is what the person did, not the answer."""
    k = ti - 1
    while k > 0 and flat[k][3] & DET and k > ti - 3:
        k -= 1
    if k > 0 and flat[k][2] in _BY:
        cues[:] = [c for c in cues if c[5] != k - 1]


def _drop_other_criterion(cues: list[Cue], weak: list[Cue], seg: int) -> None:
    """"… aucune étape n'est proposée (ce qui relève d'un autre critère)": what the
    clause says is about another criterion. Its cues are dropped (those of the clause
    before when this one has none yet)."""
    if not any(c[2] == seg for c in cues):
        seg -= 1
    cues[:] = [c for c in cues if c[2] != seg]
    weak[:] = [c for c in weak if c[2] != seg]


def _weigh_weak(
    flat: list[Part], cues: list[Cue], weak: list[Cue], segw: list[float], failure: bool
) -> None:
    """Criterion keywords and restrictions against the clause's (segment's) cues.

    A keyword that agrees with its clause's cues says the clause is about the criterion:
    the clause weighs more (the keyword is not counted again); one that disagrees does
    not make the clause weigh more. Otherwise a keyword or a restriction speaks only
    when its clause has no cue, once per clause. On a failure criterion a restriction says
    more than a keyword ("n'affirme que ce que la personne a dit": no fault); on a
    success criterion a keyword says more than a bare restriction. A keyword that
    disagrees with its segment but stands in a clause of its own (after a comma: "only
    mentions the police, nothing amicable") is counted, once per clause.
    """
    mass: dict[int, float] = {}
    for c in cues:
        mass[c[2]] = mass.get(c[2], 0.0) + c[0] * c[1]
    boosted: set[int] = set()
    opposed: list[Cue] = []
    for c in weak:
        seg = c[2]
        if c[1] == _RESTRICT_WEIGHT or seg not in mass:
            continue
        if c[0] * mass[seg] >= 0:
            if seg not in boosted:
                segw[seg] *= RELEVANCE
                boosted.add(seg)
        else:
            opposed.append(c)
    if opposed:
        bounds = [k for k, p in enumerate(flat) if p[3] & _CLAUSE_BOUNDARY]
        cued = {(c[2], bisect_right(bounds, c[5])) for c in cues}
        for c in opposed:
            clause = (c[2], bisect_right(bounds, c[5]))
            if clause not in cued:
                cues.append(c)
                cued.add(clause)

    taken = set(mass)
    weak.sort(key=lambda c: (c[1] == _RESTRICT_WEIGHT) != failure)
    for cue in weak:
        if cue[2] not in taken:
            cues.append(cue)
            taken.add(cue[2])


def _truncation(flat: list[Part], res: ScanResult) -> None:
    """A rationale cut with "…" right after "mais", "sans", "sauf" hides what mattered."""
    last: list[int] = []  # the last four words, from the end (punctuation skipped)
    ti = len(flat) - 1
    while ti >= 0 and len(last) < 4:
        if flat[ti][2] not in (".", "…", ""):
            last.append(ti)
        ti -= 1
    if not last:
        return
    if flat[last[0]][3] & (CONTRAST | LEX | NE | FWD | SUB | QUE):
        res.unknown += 1.0
        return
    for ti in reversed(last):
        if flat[ti][3] & CONTRAST and not any(c[5] > ti for c in res.cues):
            res.unknown += 1.0
            return



def lean(
    result: ScanResult,
    unigrams: dict[str, float],
    bigrams: dict[str, dict[str, float]],
    chunk_sums: dict[str, tuple[float, str, dict[str, float] | None]],
) -> float:
    """Sum of a linear model's weights over the rationale's words and word pairs.

    ``unigrams[word]`` is counted for every occurrence of a word, ``bigrams[word][next]``
    for every pair of adjacent words (see :mod:`reviewer.contradiction.learned`).
    ``chunk_sums`` caches, per whitespace chunk, the weights inside it, its first word
    and the pair weights that can follow its last word, so that a known chunk costs one
    lookup plus the pair across its left edge. It lives here, over the scanner's own
    tokens, so that it is compiled with the scanner: in pure Python this loop costs as
    much as the rest of the detector.
    """
    total = 0.0
    follow: dict[str, float] | None = None
    chunks = result.chunks
    plist = result.plist
    for i in range(len(chunks)):
        entry = chunk_sums.get(chunks[i])
        if entry is None:
            entry = _chunk_sum(plist[i], unigrams, bigrams)
            if len(chunk_sums) >= _CHUNK_CACHE_LIMIT:
                chunk_sums.clear()
            chunk_sums[chunks[i]] = entry
        total += entry[0]
        if follow is not None:
            total += follow.get(entry[1], 0.0)
        follow = entry[2]
    return total


def _chunk_sum(
    parts: tuple[Part, ...], unigrams: dict[str, float], bigrams: dict[str, dict[str, float]]
) -> tuple[float, str, dict[str, float] | None]:
    total = 0.0
    follow: dict[str, float] | None = None
    for part in parts:
        word = part[2]
        total += unigrams.get(word, 0.0)
        if follow is not None:
            total += follow.get(word, 0.0)
        follow = bigrams.get(word)
    return total, parts[0][2], follow


_CONTENT_WORD = 4  # letters of the shortest word shown alone as evidence


def strongest(
    result: ScanResult,
    unigrams: dict[str, float],
    bigrams: dict[str, dict[str, float]],
    side: float,
) -> list[tuple[float, int, int]]:
    """The (up to two) words or word pairs whose weights in :func:`lean` push the most
    towards ``side`` (+1 or -1), as ``(weight, first token, last token)``, strongest
    first; on ties the first in reading order wins."""
    w1 = w2 = 0.0
    a1 = b1 = a2 = b2 = -1
    ti = 0
    previous = ""
    previous_content = False
    for parts in result.plist:
        for part in parts:
            word = part[2]
            # Only content words make evidence a reader understands: "de", "au" or a
            # lone "…" may weigh in the model, but highlighting them explains nothing.
            content = len(word) >= _CONTENT_WORD and word[0].isalnum()
            weight = unigrams.get(word, 0.0) * side if content else 0.0
            first = ti
            if ti and (content or previous_content):
                pair = bigrams.get(previous)
                if pair is not None:
                    paired = pair.get(word, 0.0) * side
                    if paired > weight:
                        weight, first = paired, ti - 1
            if weight > w1:
                w2, a2, b2 = w1, a1, b1
                w1, a1, b1 = weight, first, ti
            elif weight > w2:
                w2, a2, b2 = weight, first, ti
            previous = word
            previous_content = content
            ti += 1
    out: list[tuple[float, int, int]] = []
    if a1 >= 0:
        out.append((w1, a1, b1))
    if a2 >= 0:
        out.append((w2, a2, b2))
    return out


def token_span(result: ScanResult, first: int, last: int) -> tuple[int, int]:
    """Character span in the rationale from token ``first`` to token ``last``."""
    at = result.starts([first, last])
    return at[0] + _token(result, first)[0], at[1] + _token(result, last)[1]


def _token(result: ScanResult, index: int) -> Part:
    """Token ``index`` of the rationale, found chunk by chunk."""
    for parts in result.plist:
        if index < len(parts):
            return parts[index]
        index -= len(parts)
    raise IndexError(index)


def masses(result: ScanResult) -> tuple[float, float, int, Cue | None, Cue | None]:
    """The mass of the cues saying the answer behaves well, the mass saying it behaves
    badly, the side with more mass (+1, -1, or 0 on a tie) and that side's two
    strongest cues for the evidence (on ties the first in reading order wins)."""
    weights = result.segment_weights
    good = bad = 0.0
    g1: Cue | None = None
    g2: Cue | None = None
    b1: Cue | None = None
    b2: Cue | None = None
    gm1 = gm2 = bm1 = bm2 = 0.0
    for cue in result.cues:
        valence = cue[0]
        if not valence:
            continue
        mass = cue[1] * weights[cue[2]]
        if valence > 0:
            good += mass
            if g1 is None or mass > gm1:
                g2, gm2, g1, gm1 = g1, gm1, cue, mass
            elif g2 is None or mass > gm2:
                g2, gm2 = cue, mass
        else:
            bad += mass
            if b1 is None or mass > bm1:
                b2, bm2, b1, bm1 = b1, bm1, cue, mass
            elif b2 is None or mass > bm2:
                b2, bm2 = cue, mass
    if good > bad:
        return good, bad, 1, g1, g2
    if bad > good:
        return good, bad, -1, b1, b2
    return good, bad, 0, None, None


def read(
    result: ScanResult,
    unigrams: dict[str, float],
    bigrams: dict[str, dict[str, float]],
    chunk_sums: dict[str, tuple[float, str, dict[str, float] | None]],
    rule_weights: tuple[float, float, float, float],
    truncation: float,
) -> tuple[float, int, Cue | None, Cue | None]:
    """The learned model's log-odds that the rationale says the answer behaves well,
    with the side the cues favour and its two strongest cues (see :func:`masses`).

    ``rule_weights`` are the bias and the weights of the cues' good mass, bad mass and
    normalised difference (see :mod:`reviewer.contradiction.learned`); a cut after
    "mais" (``result.unknown``) divides the log-odds by ``1 + truncation * unknown``.
    Compiled with the scanner: this is the detector's whole arithmetic per verdict.
    """
    good, bad, side, first, second = masses(result)
    z = (
        rule_weights[0]
        + rule_weights[1] * log1p(good)
        + rule_weights[2] * log1p(bad)
        + rule_weights[3] * (good - bad) / (good + bad + 0.5)
        + lean(result, unigrams, bigrams, chunk_sums)
    )
    if result.unknown:
        z = z / (1.0 + truncation * result.unknown)
    return z, side, first, second


def cue_spans(
    result: ScanResult, first: Cue | None, second: Cue | None
) -> tuple[tuple[int, int], ...]:
    """Character spans of (up to) two cues, in reading order (see :func:`two_spans`)."""
    if first is None:
        return ()
    if second is None:
        at = result.starts([first[3], first[5]])
        return ((at[0] + first[4], at[1] + first[6]),)
    at = result.starts([first[3], first[5], second[3], second[5]])
    return two_spans((at[0] + first[4], at[1] + first[6]), (at[2] + second[4], at[3] + second[6]))


def two_spans(one: tuple[int, int], two: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    """Two highlights in reading order; adjacent or overlapping ones (one space between
    them at most: "répond … directement") read better as one."""
    if two < one:
        one, two = two, one
    if two[0] <= one[1] + 1:
        return ((one[0], max(one[1], two[1])),)
    return (one, two)

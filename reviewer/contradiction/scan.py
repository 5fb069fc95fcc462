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

The pass is written for speed (50,000 verdicts a second is the goal, with the module
compiled by mypyc: ``scripts/build_compiled.py``): each whitespace chunk of
text is tokenised and classified once and cached (:class:`Part`), and the pass is one
:class:`_Scanner` whose typed state is the reading so far and which has one method per
kind of token, each taking the shortest path its kind allows (plain word, determiner,
"passive" word, pure cue, comma, boundary, quotation, or the full path for negators and
two-word expressions). Cues (:class:`Cue`) are recorded by one method for every path.
"""

from __future__ import annotations

from bisect import bisect_right
from itertools import chain
from math import log1p
from typing import Final, final

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
_OPEN_NE_SPAN: Final = 9
_CLOSED_SPAN: Final = 6
_FWD_SPAN: Final = 6
_NON_SPAN: Final = 3
_LEX_SPAN: Final = 7
_TO_CLAUSE_END: Final = 1 << 30  # "il est faux de dire que …": the whole clause is denied

_CONTRAST_AFTER: Final = 1.6  # weight of the clause after "mais"
_CONTRAST_BEFORE: Final = 0.5  # factor applied to the clauses before it in the same sentence
_CONCESSIVE: Final = 0.3  # weight of "même si …", "although …"
_AFTER_CONCESSIVE: Final = 1.3  # the main clause that follows a concession
_CONCLUSION: Final = 1.5  # "donc", "overall"
_STATEMENT_CATS: Final = (MET, DEFICIT, PROBLEM)
_CRITERION_STATEMENT: Final = 2.5  # "critère respecté", "criterion not met"
_ANSWER_WEIGHT: Final = 2.0  # a rationale that opens with "Oui :" / "No."
_HEDGED: Final = 0.5  # "un peu long", "slightly vague"
_RESTRICT_WEIGHT: Final = 0.7
_RESTRICTED_SPAN: Final = 3  # tokens after "only", or after the "que" of "ne … que"
_RESTRICTED_FULFIL: Final = 0.5  # "only mentions the police": it does something, maybe not enough
_USER_VERB_WINDOW: Final = 3  # how far after "la personne" a speech verb makes it reported speech
_RESTRICT_WINDOW: Final = 6  # how far after "ne" a "que" makes it the restrictive "ne … que"

# Quotations, and parentheses (which hold examples and the user's question, not the
# judge's assessment), are skipped.
_QUOTES: Final = {"«": "»", "“": "”", '"': '"', "„": "“", "‹": "›", "(": ")", "[": "]"}
_SENTENCE_END: Final = frozenset(".!?…")
_ANSWER_FOLLOW: Final = frozenset(",:.;!-·•|/") | {""}  # "" is the end of the rationale
_RESTATE_VERBS: Final = words(
    "demande attend vise exige porte concerne impose requiert veut asks expects requires "
    "accepts concerns covers wants is est"
)
_EXPECTED: Final = words(
    "attendu attendue attendus attendues requis requise required expected agissait fallait"
)
_AS_EXPECTED: Final = words("ce comme as exactement exactly")
_NIL: Final = words("aucun aucune none neant nil")  # "écart : aucun" answers the clause before
_STOPS: Final = words("stops stop stopped stopping falls fall fell")
_DENIAL: Final = words("faux fausse inexact inexacte impossible false untrue")
_DENIAL_NEXT: Final = words("de d' que qu' to that")
_HARD_TO: Final = words("difficile hard")
_CLAIM_VERBS: Final = words(
    "dire soutenir affirmer pretendre reprocher trouver voir say argue claim fault see find"
)
_FEW: Final = words("peu little few")
_A_FEW: Final = words("un a tres very quite")
_ABSENT: Final = words(
    "absent absente absents absentes missing manquant manquante manquants manquantes"
)
_FROM: Final = words("de du des d' from")
_WAS: Final = words("etait etaient aurait was were would")
_OTHER_CRITERION: Final = words("autre another other different separate")
_SAY_THAT: Final = words(
    "dire affirmer penser croire pretendre soutenir conclure montrer estimer considerer "
    "dit pense croit affirme pretend montre"
)
_COPULA: Final = words("appears appear appeared semble apparait")
_NEUTRAL_FRAME: Final = words("vrai vraie exact exacte juste correct true case fair")
_THAT: Final = words("que qu' that")
_POSTVERBAL_NO: Final = words("no nothing none aucun aucune rien nowhere")
_PUT_FORWARD: Final = words("met mise mis mettent mettre")
_ACCOUNT: Final = words("en tient tenu tiennent tenir")
_MAKE: Final = words("made make makes making")
_GET: Final = words("get gets got getting")
_ANSWER_NOUN: Final = words("reponse answer response reply")
_NO_OR_SANS: Final = words("no aucun aucune pas sans without guere peu")
_OF: Final = words("de d' of")
_STEER: Final = words("steers steer steered stays stay keeps keep")
_ADVISE: Final = words("advises advise advised warns warn warned cautions caution cautioned")
_ACCORDING: Final = words("selon apres according")
_BY: Final = words("par by")
_WORD_NOUNS: Final = words("mot word")
_CHECK: Final = words("check checks checked")
_ABOUT_OF: Final = words("sur de d' du des about on of")
_HELP_NOUNS: Final = words(
    "guidance advice conseil conseils piste pistes recommandations mot word plan suggestion "
    "suggestions proposition propositions explication explications explanation explanations "
    "renvoi renvois"
)
# Concessive words that, inside a sentence, concede what comes *before* them ("X,
# certes, mais Y"); the others ("malgré", "although", "bien que") concede what follows.
_CONCEDES_BEFORE: Final = words("certes admittedly granted dommage")
_CONCLUDING: Final = words("verdict")  # "Verdict : …" concludes, it does not restate
_CLAUSE_BOUNDARY: Final = STRONG | WEAK | CONTRAST | CONCESS
_ONLY: Final = words("seulement uniquement")
# Put in ``quote_close`` to skip the next token (the second word of "bien que",
# "not only"): one test per token serves both. No token is the empty-named string.
_SKIP_ONE: Final = "\x00skip"
_QUOTED: Final = 0.7  # a cue word inside a quotation
_QUOTE_NEG_SPAN: Final = 4  # how far a negation inside a quotation reaches (« rien n'est garanti »)
_NEGATING: Final = NE | FWD | CLOSER
RELEVANCE: Final = 1.5  # weight of a clause that names the criterion (one of its keywords)
_INTENSIFIED: Final = 1.3  # "répond directement"
_TERSE: Final = 3  # words in a clause that is only a verdict ("Tenu :", "Not met.")
_TERSE_WEIGHT: Final = 2.0
_ANSWER_AFTER: Final = words("? : - • · → ⇒ > = donc so hence thus therefore ainsi bref conclusion")
_MODAL: Final = words("could can pourrait")
_WHILE: Final = words("while whilst")
_ABOUT: Final = words("on about sur concernant regarding")
_PLAIN_NEGATORS: Final = words("non not none nothing rien")
_MET_BEFORE: Final = words("not criterion requirement is was been fully partially partly condition")
_COUNTERFACTUAL: Final = words(
    "aurait auraient devrait devraient faudrait pourrait gagnerait should could ought would"
)
_ISSUE_BEFORE: Final = words("no any an some minor major real obvious")
_CLAUSE_END: Final = words(". ; : ! ? … ,") | {""}
_SWITCH: Final = words("passe passes passer bascule switches switched switch moves")
_ARTICLE_FR: Final = words("au le son du")
_SAME: Final = words("comme like same meme pareil identique also aussi too")
_CRITERION_WORD: Final = 1.5  # a cue word the criterion itself uses ("reconnaît" for empathy)
_YES_MARKS: Final = words("oui yes ✓ ✔ ☑ ✅")
_NEGATORS: Final = words("not n't never pas ne n' jamais")
_LANGUAGE_WEIGHT: Final = 2.0
_LANGUAGE_NOUNS: Final = words("langue langues language languages")
_OTHER: Final = words("autre autres other another different wrong change changes switches")
_LANGUAGES: Final = {
    word: name
    for name, names in {
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
    for word in names.split()
}

# The kind of a Part picks the scanner's path for the word: a plain word (only a
# possible keyword), a "passive" word (matters at a clause start or as a keyword), a
# word that only judges the answer, a determiner, a comma, or anything else (negators,
# boundaries…: the full path).
_PLAIN: Final = 0
_PASSIVE_WORD: Final = 1
_CUE_ONLY: Final = 2
_ACTIVE: Final = 3
_DETERMINER: Final = 4
_COMMA: Final = 5
# Roles of words that matter only at a clause start or as keywords (the kind of a Part
# says a word has nothing else: the scanner then takes a short path).
_PASSIVE: Final = DET | ASSIST | REPORT | SUBJ_TOPIC | USER | CRIT
_LOOKS_AHEAD: Final = SPECIAL | CRIT | CLOSER | FWD | LEX
_KEYWORD_ROLES: Final = REPORT | SUBJ_TOPIC
_NEIGHBOURS: Final = SPECIAL | USER | _LOOKS_AHEAD  # roles whose handling looks at a neighbour
_CHUNK_CACHE_LIMIT: Final = 200_000
# What a two-word expression returns as its roles when it has dealt with the token.
_HANDLED: Final = -1


@final
class Part:
    """A token as the scanner sees it: ``start`` and ``end`` inside its
    whitespace-separated chunk, the folded ``word``, the lexicon's ``roles``, cue
    category ``cat``, ``aspect`` and weight ``factor``, the ``key`` under which a
    criterion keyword would be found (see :func:`keyword_key`), and the ``kind`` of path
    the scanner takes for it."""

    __slots__ = ("aspect", "cat", "end", "factor", "key", "kind", "roles", "start", "word")

    start: int
    end: int
    word: str
    roles: int
    cat: int
    aspect: int
    factor: float
    key: str
    kind: int

    def __init__(
        self,
        start: int,
        end: int,
        word: str,
        roles: int,
        cat: int,
        aspect: int,
        factor: float,
        key: str,
        kind: int,
    ) -> None:
        self.start = start
        self.end = end
        self.word = word
        self.roles = roles
        self.cat = cat
        self.aspect = aspect
        self.factor = factor
        self.key = key
        self.kind = kind

    def on_full_path(self) -> Part:
        """A copy that takes the scanner's full path (reading a criterion's own text,
        where every word is traced)."""
        return Part(self.start, self.end, self.word, self.roles, self.cat, self.aspect,
                    self.factor, self.key, _ACTIVE)


@final
class Cue:
    """A word (or a few) that judges the answer: its ``valence`` (+1 the answer behaves
    well, -1 it does not, after negation), its ``weight`` (before the weight of its
    ``segment``), and the token index and offset inside its chunk of its first and last
    character (``first_token``/``first_offset``, ``last_token``/``last_offset``): the
    span to highlight, negator included."""

    __slots__ = (
        "first_offset", "first_token", "last_offset", "last_token", "segment", "valence",
        "weight",
    )

    valence: int
    weight: float
    segment: int
    first_token: int
    first_offset: int
    last_token: int
    last_offset: int

    def __init__(
        self,
        valence: int,
        weight: float,
        segment: int,
        first_token: int,
        first_offset: int,
        last_token: int,
        last_offset: int,
    ) -> None:
        self.valence = valence
        self.weight = weight
        self.segment = segment
        self.first_token = first_token
        self.first_offset = first_offset
        self.last_token = last_token
        self.last_offset = last_offset


@final
class _Scope:
    """A negation scope: the ``predicate`` it was opened in, whether it is an ``open``
    French "ne" still waiting for its "pas", the ``last`` token it covers, the token and
    chunk offset of its negator (``token``, ``offset``: where a negated cue's highlight
    starts), and whether it is ``lexical`` ("sans", "omet", "fails to")."""

    __slots__ = ("last", "lexical", "offset", "open", "predicate", "token")

    predicate: int
    open: bool
    last: int
    token: int
    offset: int
    lexical: bool

    def __init__(
        self, predicate: int, open: bool, last: int, token: int, offset: int, lexical: bool
    ) -> None:
        self.predicate = predicate
        self.open = open
        self.last = last
        self.token = token
        self.offset = offset
        self.lexical = lexical


_EMPTY: Final[tuple[Part, ...]] = (Part(0, 0, "", 0, 0, 0, 1.0, "", _PLAIN),)


def keyword_key(word: str) -> str:
    """Crude stem for matching criterion keywords: the first five letters ("invente",
    "inventé", "inventer" → "inven"); short words as they are; "" for tiny ones."""
    if len(word) >= 5:
        return word[:5]
    return word if len(word) >= 3 and word.isalnum() else ""


def _parts(chunk: str) -> tuple[Part, ...]:
    """Tokens of one lowercased whitespace-free chunk, classified."""
    folded = fold(chunk)
    if folded == "-":
        # A dash standing alone ("No sales pitch - criterion satisfied", "- écart :
        # aucun") separates two statements like a bullet.
        folded = "·"
    out: list[Part] = []
    for m in TOKEN_RE.finditer(folded):
        word = m.group()
        info = INFO.get(word) or classify(word)
        roles, cat, aspect, factor = info
        if not roles:
            kind = _CUE_ONLY if cat else _PLAIN
        elif roles == DET and not cat:
            kind = _DETERMINER
        elif roles == WEAK and not cat:
            kind = _COMMA  # ",", "et", "and": ends a negation scope
        else:
            kind = _PASSIVE_WORD if not roles & ~_PASSIVE and not cat else _ACTIVE
        out.append(
            Part(m.start(), m.end(), word, roles, cat, aspect, factor, keyword_key(word), kind)
        )
    return tuple(out) or _EMPTY


class _ChunkCache(dict[str, tuple[Part, ...]]):
    """Chunk → tokens, filled on first sight, so that a lookup of a known chunk stays in
    C (``map(cache.__getitem__, chunks)``)."""

    def __missing__(self, chunk: str) -> tuple[Part, ...]:
        if len(self) >= _CHUNK_CACHE_LIMIT:
            self.clear()  # a crude bound: the vocabulary of judges is small
        parts = self[chunk] = _parts(chunk)
        return parts


_CHUNKS: Final = _ChunkCache()
_chunk_parts: Final = _CHUNKS.__getitem__


class ScanResult:
    """Cues found in a rationale, the segment weights they are multiplied by, and what
    is needed to turn token positions into character offsets."""

    __slots__ = ("chunks", "cues", "lowered", "plist", "segment_weights", "unknown")

    lowered: str
    chunks: list[str]
    plist: list[tuple[Part, ...]]
    cues: list[Cue]
    segment_weights: list[float]
    unknown: float

    def __init__(self, lowered: str, chunks: list[str], plist: list[tuple[Part, ...]]) -> None:
        self.lowered = lowered
        self.chunks = chunks
        self.plist = plist
        self.cues = []
        self.segment_weights = [1.0]
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

    table: tuple[tuple[int, float], ...]
    negated_factor: tuple[float, ...]
    own_cues: frozenset[str]
    language: bool
    keyword: dict[str, tuple[int, float]]
    restrict: int
    success: bool
    aspect_factor: tuple[float, ...]

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


def _approves(flat: list[Part], ti: int) -> bool:
    """"c'est ce qu'il fallait", "ce qui était attendu", "comme attendu", "as expected":
    the expected thing is what the answer did, not a restatement of the criterion."""
    return any(flat[k].word in _AS_EXPECTED for k in range(max(0, ti - 3), ti))


def _negate_subject(weak: list[Cue], clause_ti: int) -> None:
    """A negation after a criterion keyword of the same clause denies it: "la médiation
    n'est jamais évoquée", "Mediation never comes up"."""
    for cue in weak:
        if cue.last_token >= clause_ti and cue.weight != _RESTRICT_WEIGHT:
            cue.valence = -cue.valence


def _restrictive_at(flat: list[Part], i: int) -> int:
    """If the "ne" at ``i`` is the restrictive "ne … que" (a "que" before any "pas"),
    how many tokens ahead its "que" is; else 0."""
    for k, part in enumerate(flat[i + 1 : i + 1 + _RESTRICT_WINDOW], start=1):
        if part.word in _THAT:
            # "rien ne permet de dire que …": "que" opens what is said, it restricts
            # nothing.
            return 0 if flat[i + k - 1].word in _SAY_THAT else k
        if part.roles & (CLOSER | STRONG | WEAK | CONTRAST):
            return 0
    return 0


def _user_speaks(flat: list[Part], i: int) -> bool:
    """Does the person named at ``i`` say, ask or feel something (reported speech)?"""
    return any(part.roles & REPORT for part in flat[i + 1 : i + 1 + _USER_VERB_WINDOW])


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
    res = ScanResult(low, chunks, plist)
    if trace is not None:  # reading a criterion: every word takes the full path, to be recorded
        flat = [part.on_full_path() for part in flat]
    scanner = _Scanner(flat, res, val, trace)
    scanner.run()
    scanner.finish()
    return res


_NO_TABLE: Final[tuple[tuple[int, float], ...]] = ()
_NO_ASPECT: Final[tuple[float, ...]] = (1.0,) * ASPECTS
_NO_KEYWORDS: Final[dict[str, tuple[int, float]]] = {}


@final
class _Scanner:
    """One left-to-right pass over a rationale's tokens: the state of the reading, and
    one method per kind of token (see :meth:`run`)."""

    __slots__ = (
        "aspect_factor", "clause_start", "clause_ti", "concess_open", "crit_seg", "cues",
        "discard_from", "discard_ti", "flat", "hedge", "ignore_que_at", "keywords",
        "langs", "last_cue_ti", "n", "negated_factor", "own", "pred", "pred_ti",
        "quote_close", "quote_neg", "res", "restrict_fulfil", "restricted", "scopes", "seg",
        "segw", "sent_first_cue", "sent_first_seg", "sentences", "table", "trace",
        "user_mask", "user_rel", "user_ti", "val", "weak",
    )

    # What the pass reads, and what it writes.
    flat: list[Part]
    n: int
    res: ScanResult
    cues: list[Cue]
    weak: list[Cue]  # keywords, restrictions: they count if nothing else does
    segw: list[float]
    langs: list[str]  # language names ("français", "English"), for language criteria
    trace: list[tuple[str, int, int]] | None
    # The criterion's reading (empty tables when there is none: reading a criterion).
    val: Valences | None
    table: tuple[tuple[int, float], ...]
    keywords: dict[str, tuple[int, float]]
    own: frozenset[str]
    negated_factor: tuple[float, ...]
    aspect_factor: tuple[float, ...]
    # On a success criterion a restricted fulfilment counts half (also: "is a success").
    restrict_fulfil: bool
    # Segments (the clauses that weigh alike) and sentences.
    seg: int
    sent_first_seg: int
    sent_first_cue: int
    sentences: list[tuple[int, int]]  # (first segment, first token) of each sentence
    discard_from: int  # index in cues where a restatement of the criterion started
    discard_ti: int  # the token that started it
    # Negation scopes, predicates, clauses.
    scopes: list[_Scope]
    pred: int
    clause_start: bool
    clause_ti: int  # first token of the current clause
    user_ti: int  # last mention of the person
    pred_ti: int  # where the current predicate started (after "que", "qui", "if"…)
    user_mask: bool  # inside the person's reported speech
    user_rel: bool  # ... which is a relative clause ("ce que la personne a dit")
    # The closing mark of the quotation being skipped, or _SKIP_ONE to skip one token.
    quote_close: str
    quote_neg: int  # last negator seen inside a quotation
    concess_open: bool
    hedge: int  # how many more words a hedge ("un peu", "slightly") reaches
    crit_seg: int
    ignore_que_at: int
    last_cue_ti: int  # token of the last cue (never "the token before the first")
    restricted: int  # last token a restriction ("ne … que", "only") covers

    def __init__(
        self,
        flat: list[Part],
        res: ScanResult,
        val: Valences | None,
        trace: list[tuple[str, int, int]] | None,
    ) -> None:
        self.flat = flat
        self.n = len(flat)
        self.res = res
        self.cues = res.cues
        self.weak = []
        self.segw = res.segment_weights
        self.langs = []
        self.trace = trace
        self.val = val
        if val is not None:
            self.table = val.table
            self.keywords = val.keyword
            self.own = val.own_cues
            self.negated_factor = val.negated_factor
            self.aspect_factor = val.aspect_factor
            self.restrict_fulfil = val.success
        else:
            self.table = _NO_TABLE
            self.keywords = _NO_KEYWORDS
            self.own = frozenset()
            self.negated_factor = ()
            self.aspect_factor = _NO_ASPECT
            self.restrict_fulfil = False
        self.seg = 0
        self.sent_first_seg = 0
        self.sent_first_cue = 0
        self.sentences = [(0, 0)]
        self.discard_from = -1
        self.discard_ti = -9
        self.scopes = []
        self.pred = 0
        self.clause_start = True
        self.clause_ti = 0
        self.user_ti = -1
        self.pred_ti = 0
        self.user_mask = False
        self.user_rel = False
        self.quote_close = ""
        self.quote_neg = -9
        self.concess_open = False
        self.hedge = 0
        self.crit_seg = -1
        self.ignore_que_at = -1
        self.last_cue_ti = -9
        self.restricted = -1

    def run(self) -> None:
        """Read every token, each by the method for its kind."""
        flat = self.flat
        for ti in range(self.n):
            part = flat[ti]
            if self.quote_close:
                self.quoted(ti, part)
                continue
            kind = part.kind
            if kind == _PLAIN:
                self.plain(ti, part)
            elif kind == _DETERMINER:
                self.determiner()
            elif kind == _COMMA:
                if self.user_rel:
                    self.user_mask = self.user_rel = False
                if not self.user_mask:
                    self.end_clause(ti)
            elif kind == _PASSIVE_WORD:
                self.passive(ti, part)
            elif part.roles & STRONG:
                self.boundary(ti, part)
            elif kind == _CUE_ONLY:
                self.cue_only(ti, part)
            else:
                self.full(ti, part)

    # --- shared pieces ---------------------------------------------------------------

    def cover(self, ti: int, start: int) -> tuple[int, int, int]:
        """The negation scopes covering token ``ti``: how many, and the token and chunk
        offset where the highlight of a word at ``ti`` (itself at ``start``) begins (the
        negator of the last scope covering it)."""
        flips = 0
        start_ti = ti
        for sc in self.scopes:
            if sc.last >= ti:
                flips += 1
                start_ti, start = sc.token, sc.offset
        return flips, start_ti, start

    def keyword(self, kw: tuple[int, float], ti: int, part: Part) -> None:
        """Record a criterion keyword as a weak cue, with the negations that cover it."""
        flips, start_ti, start = self.cover(ti, part.start)
        self.weak.append(
            Cue(-kw[0] if flips & 1 else kw[0], kw[1], self.seg, start_ti, start, ti, part.end)
        )

    def judge(self, ti: int, part: Part, cat: int, aspect: int, nouns: bool) -> None:
        """Record a word of category ``cat`` that judges the answer as a cue: its weight
        for the criterion, the clause's hedges and criterion statements, and the
        negations that cover it. A word that says nothing about this criterion may
        still be one of its keywords.

        ``nouns``: the rules for nouns of help and words that follow a keyword apply.
        Only the pure-cue path (:meth:`cue_only`) applies them (``_WORD_NOUNS``,
        ``_HELP_NOUNS``, a ``QUALITY`` word after a keyword on a failure criterion);
        the full path (:meth:`full`) never did. The two copies this method replaces
        had diverged there; the divergence is kept as it was, so that merging them
        changes no reading (changing it is the detector's to measure, on blind sets).
        """
        valence, weight = self.table[cat]
        weight *= part.factor
        if self.restricted >= ti and cat == FULFIL and self.restrict_fulfil:
            weight *= _RESTRICTED_FULFIL
        if part.key in self.own:
            weight *= _CRITERION_WORD
        if aspect:
            weight *= self.aspect_factor[aspect]
        if weight:
            if self.crit_seg == self.seg and cat in _STATEMENT_CATS:
                weight *= _CRITERION_STATEMENT
            if self.hedge:
                weight *= _HEDGED
            flips, start_ti, start = self.cover(ti, part.start)
            if not nouns:
                if flips & 1:
                    valence = -valence
                    weight *= self.negated_factor[cat]
            elif flips & 1 and (
                part.word not in _WORD_NOUNS
                or (ti + 1 < self.n and self.flat[ti + 1].word in _ABOUT_OF)
            ):
                # ("pas un mot sur la fatigue" is an omission; "sans un mot technique"
                # is not.)
                valence = -valence
                weight *= self.negated_factor[cat]
            elif flips & 1 or part.word in _HELP_NOUNS or (
                cat == QUALITY
                and not self.restrict_fulfil
                and self.weak
                and self.weak[-1].last_token == ti - 1
            ):
                # "The advice stays abstract": a noun of help says something only when
                # denied ("no guidance"). "l'adresse exacte" on a failure criterion: the
                # adjective describes the fault's object.
                return
            self.cues.append(Cue(valence, weight, self.seg, start_ti, start, ti, part.end))
            self.last_cue_ti = ti
        elif part.key in self.keywords:
            # A verb that says nothing about this criterion in general ("encourage" for
            # a failure) may still be the criterion's own word.
            self.keyword(self.keywords[part.key], ti, part)

    def restriction(self, ti: int, part: Part) -> None:
        """A restriction ("ne … que", "only") as a weak cue, when the criterion reads
        one."""
        val = self.val
        if val is not None and val.restrict:
            self.weak.append(
                Cue(val.restrict, _RESTRICT_WEIGHT, self.seg, ti, part.start, ti, part.end)
            )

    def traced(self, word: str, ti: int) -> None:
        """Record a content word with its grammatical and lexical negations."""
        trace = self.trace
        if trace is not None:
            active = [sc for sc in self.scopes if sc.last >= ti]
            lex = sum(1 for sc in active if sc.lexical)
            trace.append((word, len(active) - lex, lex))

    def end_clause(self, ti: int) -> None:
        """A comma or a conjunction: the negations end, a new clause starts (and after
        a concession the main clause)."""
        self.scopes.clear()
        self.pred += 1
        self.clause_start = True
        self.clause_ti = ti + 1
        self.hedge = 0
        if self.concess_open:
            self.concess_open = False
            self.segw.append(_AFTER_CONCESSIVE)
            self.seg += 1

    def drop_sentence_weak(self) -> None:
        """Forget the keywords and restrictions of the current sentence."""
        first = self.sent_first_seg
        self.weak = [w for w in self.weak if w.segment < first]

    def previous_word(self, ti: int) -> str:
        return self.flat[ti - 1].word if ti else ""

    def next_word(self, ti: int) -> str:
        return self.flat[ti + 1].word if ti + 1 < self.n else ""

    # --- one method per kind of token ------------------------------------------------

    def quoted(self, ti: int, part: Part) -> None:
        """Inside a quotation or parentheses: only fault words and criterion keywords
        count, without the quotation's own negations (and _SKIP_ONE skips one token:
        the second word of "bien que", "not only")."""
        if self.quote_close is _SKIP_ONE:
            self.quote_close = ""
            return
        roles = part.roles
        if part.word == self.quote_close:
            self.quote_close = ""
        elif roles & CRIT and ti and self.flat[ti - 1].word in _OTHER_CRITERION:
            _drop_other_criterion(self.cues, self.weak, self.seg)  # "(relève d'un autre critère)"
        elif roles & _NEGATING:
            self.quote_neg = ti
        elif part.cat == FAULT and not self.user_mask and self.val is not None:
            # Fault words quoted from the answer still show what it does ("« passez
            # à Premium »", "« vous gagnerez forcément »"); the judge's scopes apply,
            # and a negation just before it in the quote (« rien n'est garanti »).
            valence, weight = self.table[part.cat]
            weight *= part.factor * _QUOTED
            if part.aspect:
                weight *= self.aspect_factor[part.aspect]
            if weight:
                flips = self.cover(ti, part.start)[0]
                if ti - self.quote_neg <= _QUOTE_NEG_SPAN:
                    flips += 1
                valence = -valence if flips & 1 else valence
                self.cues.append(Cue(valence, weight, self.seg, ti, part.start, ti, part.end))
        elif roles & LANGUAGE:
            self.langs.append(part.word)
        elif not self.user_mask and part.key in self.keywords:
            quoted = self.keywords[part.key]
            self.weak.append(
                Cue(quoted[0], quoted[1] * _QUOTED, self.seg, ti, part.start, ti, part.end)
            )

    def plain(self, ti: int, part: Part) -> None:
        """The common case: a plain word. Only criterion keywords matter."""
        if self.user_mask:
            return
        self.clause_start = False
        if self.hedge:
            self.hedge -= 1
        kw = self.keywords.get(part.key)
        if kw is not None:
            self.keyword(kw, ti, part)

    def determiner(self) -> None:
        """"la", "the": skipped at a clause start (the subject comes next)."""
        if not self.clause_start and not self.user_mask and self.hedge:
            self.hedge -= 1

    def passive(self, ti: int, part: Part) -> None:
        """A word that matters only at the start of a clause or as a keyword:
        determiners, "la personne", "l'assistant", "critère", speech verbs."""
        roles = part.roles
        if self.user_mask:
            if not roles & ASSIST:
                return
            self.user_mask = False
        if roles & USER:
            self.user_ti = ti
        if self.clause_start:
            if roles & DET:
                return
            self.clause_start = False
            if roles & USER and _user_speaks(self.flat, ti):
                self.user_mask = True
                return
            if roles & CRIT and self.discard_from < 0 and part.word not in _CONCLUDING:
                nxt = self.next_word(ti)
                if nxt == ":" or nxt in _RESTATE_VERBS:
                    self.discard_from = len(self.cues)
                    self.discard_ti = ti
        elif roles & USER and ti and self.flat[ti - 1].word in _ACCORDING:
            self.user_mask = True
            return
        if roles & USER and self.cues:
            _drop_users_act(self.flat, ti, self.cues)
        if roles & CRIT:
            self.crit_seg = self.seg
            if ti and self.flat[ti - 1].word in _OTHER_CRITERION:
                _drop_other_criterion(self.cues, self.weak, self.seg)
        if self.hedge:
            self.hedge -= 1
        if roles & _KEYWORD_ROLES:
            kw = self.keywords.get(part.key)
            if kw is not None:
                self.keyword(kw, ti, part)

    def boundary(self, ti: int, part: Part) -> None:
        """The end of a sentence or of a clause (. ; : ! ? …): questions and
        restatements of the criterion are dropped, a new segment starts."""
        tok = part.word
        if tok == ":" and self.crit_seg == self.seg and ti and self.flat[ti - 1].roles & CRIT:
            self.crit_seg = self.seg + 1  # "Critère : non respecté"
        if tok == "?":
            del self.cues[self.sent_first_cue :]
            self.drop_sentence_weak()
        if tok in _SENTENCE_END or tok == ";":
            if self.discard_from >= 0 and ti - self.discard_ti <= _TERSE + 2:
                self.discard_from = -1  # "Critère : KO." is a verdict, not a restatement
            if self.discard_from >= 0:
                del self.cues[self.discard_from :]
                self.discard_from = -1
                self.drop_sentence_weak()
            if tok != ";":
                self.sent_first_cue = len(self.cues)
        self.scopes.clear()
        self.user_mask = self.user_rel = False
        self.concess_open = False
        self.clause_start = True
        self.clause_ti = ti + 1
        self.hedge = 0
        self.pred += 1
        self.segw.append(1.0)
        self.seg += 1
        if tok in _SENTENCE_END:
            self.sent_first_seg = self.seg
            self.sentences.append((self.seg, ti + 1))
        elif ti <= _TERSE and len(self.sentences) == 1 and self.seg == 1:
            self.segw[0] *= _TERSE_WEIGHT  # "Tenu : …", "Non conforme : …"

    def cue_only(self, ti: int, part: Part) -> None:
        """A word that only judges the answer ("répond", "vague", "invente")."""
        if self.user_mask:
            return
        self.clause_start = False
        if part.word in INTENSIFIERS and not (ti and self.flat[ti - 1].roles & ASSIST
                                              and part.cat):
            # "répond directement", "aide bien": strengthens the verb before it and
            # says nothing alone ("passe directement à…"); right after the answer
            # ("Réponse directe") it describes it.
            if self.last_cue_ti == ti - 1 and self.cues:
                last = self.cues[-1]
                last.weight *= _INTENSIFIED
                last.last_token, last.last_offset = ti, part.end
            return
        # (scan() is given no Valences only to read a criterion's own text, with a
        # trace, which sends every word down the full path.)
        self.judge(ti, part, part.cat, part.aspect, nouns=True)
        if self.hedge:
            self.hedge -= 1

    def contrast(self, ti: int) -> None:
        """"mais", "but": the clause after weighs more, the clauses before it less."""
        self.scopes.clear()
        self.pred += 1
        self.clause_start = True
        self.clause_ti = ti + 1
        self.hedge = 0
        self.concess_open = False
        segw = self.segw
        for k in range(self.sent_first_seg, self.seg + 1):
            segw[k] *= _CONTRAST_BEFORE
        segw.append(_CONTRAST_AFTER)
        self.seg += 1

    def concession(self, ti: int, tok: str) -> None:
        """"même si", "although", "certes": the conceded clause weighs less."""
        if (
            self.clause_start
            or len(self.cues) == self.sent_first_cue
            or tok not in _CONCEDES_BEFORE
        ):
            # "Bien que …", and "X malgré Y", "X although Y": what follows is
            # conceded, the main clause keeps its weight.
            self.concess_open = True
            self.clause_start = True
            self.clause_ti = ti + 1
            self.segw.append(_CONCESSIVE)
            self.seg += 1
        else:
            # A concession placed after what it concedes ("…, certes, mais …").
            segw = self.segw
            for k in range(self.sent_first_seg, self.seg + 1):
                segw[k] *= _CONCESSIVE

    def answer_mark(self, ti: int, part: Part, prev: str) -> None:
        """"Oui :", "No.", "✓": a verdict word that opens the rationale or follows a
        colon."""
        holds = 1 if part.word in _YES_MARKS else -1
        seg = self.seg
        if prev == ":" and any(c.segment == seg - 1 for c in chain(self.cues, self.weak)):
            # "Ton bienveillant : non", "- photos : non" answer the clause before
            # the colon.
            if holds < 0:
                for c in chain(self.cues, self.weak):
                    if c.segment == seg - 1:
                        c.valence = -c.valence
        elif self.val is not None:
            valence = holds if self.val.success else -holds
            self.cues.append(Cue(valence, _ANSWER_WEIGHT, seg, ti, part.start, ti, part.end))

    def full(self, ti: int, part: Part) -> None:
        """Every other word: quotations, negators, subordinators, contrasts and
        concessions, two-word expressions, and cue words that also play a role."""
        roles = part.roles
        tok = part.word
        if roles & QUOTE:
            if tok != "'":
                self.quote_close = _QUOTES[tok]
            elif part.start == 0:  # an apostrophe after a space opens a 'quotation'
                self.quote_close = "'"
            return
        if roles & LANGUAGE:
            self.langs.append(tok)
        if self.user_mask:
            if self.user_rel and roles & (WEAK | STRONG):
                self.user_rel = False  # the person's relative clause ends here
            elif roles & (ASSIST | CONTRAST) == 0:
                return
            self.user_mask = False
        if roles & WEAK and not roles & SPECIAL:
            self.end_clause(ti)
            return
        cat = part.cat
        if self.trace is not None and not roles and not cat:
            self.traced(tok, ti)
            self.clause_start = False
            return
        flat = self.flat
        prev = prev2 = nxt = ""
        if roles & _NEIGHBOURS:
            if ti and roles & (SPECIAL | USER):
                prev = flat[ti - 1].word
            if ti > 1 and roles & SPECIAL:
                prev2 = flat[ti - 2].word
            if ti + 1 < self.n and roles & _LOOKS_AHEAD:
                nxt = flat[ti + 1].word
        if (
            roles & ANSWER
            and (ti == 0 or prev in _ANSWER_AFTER)
            and nxt in _ANSWER_FOLLOW
            and (prev == ":" or tok not in _NIL)
            and not (nxt == "-" and flat[ti + 1].start == part.end)  # "Non-judgemental"
        ):
            self.answer_mark(ti, part, prev)
            return
        aspect = part.aspect
        if roles & SPECIAL and not roles & ANSWER:
            roles, cat, aspect = self.two_words(ti, part, prev, prev2, nxt)
            if roles == _HANDLED:
                return
        if roles & WEAK:
            self.end_clause(ti)
            return
        if roles & CONTRAST:
            self.contrast(ti)
            return
        if roles & CONCESS:
            self.concession(ti, tok)
            return
        verbless = False
        if self.clause_start:
            if roles & DET and not roles & (FWD | NE):
                return
            self.clause_start = False
            # "Aucune mention de la date ni de l'heure", "Nothing on date or time":
            # a clause that opens on a negator denies everything up to its end.
            verbless = bool(roles & FWD) and tok != "non"
            if roles & USER and _user_speaks(flat, ti):
                self.user_mask = True
                return
            if (
                roles & CRIT
                and (nxt == ":" or nxt in _RESTATE_VERBS)
                and self.discard_from < 0
                and tok not in _CONCLUDING
            ):
                self.discard_from = len(self.cues)
                self.discard_ti = ti
        elif roles & USER and prev in _ACCORDING:
            self.user_mask = True
            return
        if roles & USER and self.cues:
            _drop_users_act(flat, ti, self.cues)
        if (roles & SPECIAL and tok in _EXPECTED and self.discard_from < 0
                and not _approves(flat, ti)):
            self.discard_from = self.sent_first_cue  # "une étape concrète était attendue"
            self.discard_ti = -9
        if roles & (SUB | QUE):
            self.subordinate(ti)
            return
        if roles & NE:
            self.ne(ti, part)
            return
        if roles & (CLOSER | FWD) and self.negator(ti, part, roles, cat, nxt, verbless):
            return
        self.content(ti, part, roles, cat, aspect, nxt)

    def subordinate(self, ti: int) -> None:
        """"que", "qui", "si", "that": a new predicate, which may negate again."""
        if ti == self.ignore_que_at:
            return  # the "que" of "ne … que"
        self.pred += 1
        self.pred_ti = ti
        for sc in self.scopes:  # a relative clause belongs to the negated phrase
            if sc.last >= ti:
                sc.last = max(sc.last, ti + _FWD_SPAN)
        # "ce que la personne a déjà dit", "what the user asked": the person's words.
        k = ti + 1
        while k < self.n and self.flat[k].roles & DET:
            k += 1
        if k < self.n and self.flat[k].roles & USER and _user_speaks(self.flat, k):
            self.user_mask = True
            self.user_rel = True  # up to the end of the relative clause

    def ne(self, ti: int, part: Part) -> None:
        """French "ne": opens a scope ("ne … pas") or restricts ("ne … que")."""
        ahead = _restrictive_at(self.flat, ti)
        if ahead:
            # "ne … que" restricts: "ne cite que des faits du journal".
            self.ignore_que_at = ti + ahead
            self.restricted = ti + ahead + _RESTRICTED_SPAN
            self.restriction(ti, part)
            return
        pred = self.pred
        for sc in self.scopes:
            if sc.predicate == pred and not sc.lexical and sc.last >= ti:
                sc.last = max(sc.last, ti + _OPEN_NE_SPAN)
                break
        else:
            self.scopes.append(_Scope(pred, True, ti + _OPEN_NE_SPAN, ti, part.start, False))
            _negate_subject(self.weak, max(self.clause_ti, self.pred_ti))

    def negator(
        self, ti: int, part: Part, roles: int, cat: int, nxt: str, verbless: bool
    ) -> bool:
        """"pas", "jamais", "aucun", "not", "no": closes an open "ne" or opens a scope of
        its own. Returns whether the token is done (else it is also a content word)."""
        tok = part.word
        cues = self.cues
        if tok in _PLAIN_NEGATORS:
            before = self.previous_word(ti)
            if before in ("ou", "or") and tok in ("non", "not"):
                return True  # "peut aboutir ou non", "whether or not": no negation
            if (
                tok in ("none", "nothing")
                and nxt in _CLAUSE_END
                and len(cues) > self.sent_first_cue
            ):
                # "looked for an answer and found none": the search came back empty.
                for c in cues[self.sent_first_cue :]:
                    c.valence = -c.valence
                return True
            val = self.val
            if verbless and nxt in _ABOUT and val is not None and val.success:
                # "Rien sur la façon de consigner", "nothing on what was asked": says
                # by itself that the answer lacks it.
                valence, weight = val.table[DEFICIT]
                cues.append(
                    Cue(valence, weight, self.seg, ti, part.start, ti + 1, self.flat[ti + 1].end)
                )
        closed = False
        pred = self.pred
        if roles & CLOSER:
            for sc in self.scopes:
                if sc.open and sc.predicate == pred and sc.last >= ti:
                    sc.open = False
                    sc.last = ti + _CLOSED_SPAN
                    closed = True
                    if cues and cues[-1].first_token == sc.token:
                        # Highlight "ne répond pas", not just "ne répond".
                        cues[-1].last_token, cues[-1].last_offset = ti, part.end
                    if nxt in _ONLY:
                        self.scopes.remove(sc)  # "pas seulement": not only
                        self.quote_close = _SKIP_ONE
                    break
        if not closed and roles & FWD:
            if nxt in _ONLY or INFO.get(nxt, (0,))[0] & RESTRICT:
                self.quote_close = _SKIP_ONE  # "not only", "non seulement"
            else:
                if tok in _POSTVERBAL_NO and self.last_cue_ti == ti - 1 and cues:
                    # "promises no outcome", "adds no assumption": the verb is what is
                    # negated.
                    cues[-1].valence = -cues[-1].valence
                span = _NON_SPAN if tok == "non" else _TO_CLAUSE_END if verbless else _FWD_SPAN
                for sc in self.scopes:
                    if sc.predicate == pred and sc.last >= ti:
                        sc.last = max(sc.last, ti + span)
                        break
                else:
                    self.scopes.append(_Scope(pred, False, ti + span, ti, part.start, False))
                    if not verbless:
                        _negate_subject(self.weak, max(self.clause_ti, self.pred_ti))
        return bool(roles & CLOSER) or cat == NONE

    def content(
        self, ti: int, part: Part, roles: int, cat: int, aspect: int, nxt: str
    ) -> None:
        """A content word: record it as a cue if it judges the answer, as a keyword if
        the criterion uses it; then what its roles open (restriction, lexical negation,
        hedge, conclusion)."""
        tok = part.word
        self.traced(tok, ti)
        if self.val is not None:
            if cat == NONE:
                kw = self.keywords.get(part.key)
                if kw is not None:
                    self.keyword(kw, ti, part)
            else:
                self.judge(ti, part, cat, aspect, nouns=False)
        if roles & RESTRICT:
            self.restricted = ti + _RESTRICTED_SPAN
            self.restriction(ti, part)
        if roles & LEX and not (tok in _MODAL and nxt in _NEGATORS) and not (
            tok in _COUNTERFACTUAL and self.user_ti >= self.clause_ti
        ):
            # ("la personne devrait relativiser" reports advice to the person; only
            # "l'assistant aurait dû…" says what the answer lacks.)
            # "could not find any invented fact" is a plain negation, not "could have".
            self.scopes.append(_Scope(self.pred, False, ti + _LEX_SPAN, ti, part.start, True))
        if self.hedge:
            self.hedge -= 1
        if roles & HEDGE and not self.hedge:
            self.hedge = 2
        if roles & CONCL:
            self.segw[self.seg] = max(self.segw[self.seg], _CONCLUSION)
        if roles & CRIT:
            self.crit_seg = self.seg

    def two_words(
        self, ti: int, part: Part, prev: str, prev2: str, nxt: str
    ) -> tuple[int, int, int]:
        """Two-word expressions, decided on one word with a look at its neighbours (the
        most frequent words first): the word's ``(roles, cat, aspect)`` as the
        expression reads it, or ``_HANDLED`` as its roles when the expression has dealt
        with the token."""
        tok = part.word
        roles, cat, aspect = part.roles, part.cat, part.aspect
        flat = self.flat
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
            roles, cat, self.quote_close = CONCESS, NONE, _SKIP_ONE
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
        elif (tok in _WHILE and self.clause_start) or (tok == "depit" and prev == "en"):
            roles, cat = CONCESS, NONE  # "While polite, …", "en dépit de …"
        elif (
            (tok in ("still", "reste") and self.clause_start and (tok == "still" or nxt in _THAT))
            or (tok == "hand" and prev == "other")
            or (tok == "said" and prev == "that")
            or (tok == "empeche" and prev == "n'")
        ):
            roles, cat = CONTRAST, NONE  # "Still, …", "Reste que …", "That said, …"
        elif tok in ("alors", "tandis") and nxt in ("que", "qu'"):
            roles, cat, self.quote_close = WEAK, NONE, _SKIP_ONE
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
            and ti + 2 < self.n
            and flat[ti + 2].word in _CLAIM_VERBS
        ):
            # "difficile de soutenir que …", "hard to argue that …": a denial.
            self.deny_clause(ti, part)
            self.quote_close = _SKIP_ONE
            return _HANDLED, cat, aspect
        elif tok in _COPULA and ti + 1 < self.n and flat[ti + 1].cat:
            # "Nothing appears fabricated": a copula before the word that judges.
            return _HANDLED, cat, aspect
        elif tok in _DENIAL and nxt in _DENIAL_NEXT:
            # "il est faux de dire que …" denies the whole clause that follows.
            self.deny_clause(ti, part)
            return _HANDLED, cat, aspect
        elif (tok in _NEUTRAL_FRAME and nxt in _DENIAL_NEXT) or (
            tok in ("dire", "say") and nxt in _THAT
        ):
            # "il n'est pas vrai que …", "on ne peut pas dire que …": the
            # negation already there now covers the whole clause that follows.
            for sc in self.scopes:
                if sc.last >= ti:
                    sc.last = _TO_CLAUSE_END
            return _HANDLED, cat, aspect
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
            flat, ti, self.clause_ti, self.seg, self.cues, self.weak
        ):
            # "3114 absent", "étape concrète absente": what it follows is missing.
            # ("alors qu'un dialogue écrit était possible": it was not offered.)
            return _HANDLED, cat, aspect
        elif tok in ("signaler", "report", "flag") and prev in ("a", "to"):
            cat = PROBLEM  # "rien à signaler", "nothing to report"
        elif tok == "free" and prev == "-":
            # "jargon-free", "promotion-free": the word before the hyphen is denied.
            for c in chain(self.cues, self.weak):
                if c.last_token == ti - 2:
                    c.valence = -c.valence
            return _HANDLED, cat, aspect
        elif tok in ("cas", "case") and prev in ("le", "the") and nxt in _CLAUSE_END:
            cat = MET  # "c'est bien le cas", "ce n'est pas le cas", "not the case."
        elif tok == "peine" and prev == "a":
            roles, cat = FWD, NONE  # "à peine": barely
        elif tok == "partie" and prev == "en":
            cat = DEFICIT  # "en partie"
        return roles, cat, aspect

    def deny_clause(self, ti: int, part: Part) -> None:
        """"il est faux de dire que …", "hard to argue that …": the whole clause that
        follows is denied (a lexical negation)."""
        self.scopes.append(_Scope(self.pred, False, _TO_CLAUSE_END, ti, part.start, True))

    def finish(self) -> None:
        """After the last token: a restatement left open, a terse last sentence, the
        language of the answer, the weak cues, and a cut at the end."""
        n = self.n
        cues = self.cues
        segw = self.segw
        if self.discard_from >= 0 and n - self.discard_ti > _TERSE + 2:
            del cues[self.discard_from :]
            self.drop_sentence_weak()
        sentences = self.sentences
        if len(sentences) > 1:
            # A short last sentence is the verdict in words ("… Faute.", "Request
            # unaddressed."): it weighs as much as a criterion statement.
            first_seg, first_ti = sentences[-1] if sentences[-1][1] < n else sentences[-2]
            if 0 < n - first_ti <= _TERSE + 1 and cues and cues[-1].segment >= first_seg:
                for k in range(first_seg, len(segw)):
                    segw[k] *= _TERSE_WEIGHT
        val = self.val
        if val is not None and val.language:
            _language_cues(self.flat, self.langs, cues, self.seg)
        if self.weak:
            _weigh_weak(self.flat, cues, self.weak, segw, val is not None and not val.success)
        low = self.res.lowered
        if low.endswith("…") or low.endswith("..."):
            _truncation(self.flat, self.res)


_EXCLUDING: Final = words("sans ni aucun aucune pas jamais ne n' not no without never nor n't")


def _negated_nearby(flat: list[Part], k: int) -> bool:
    """Is token ``k`` within four words after a negator, in the same clause?"""
    for q in reversed(flat[max(0, k - 4) : k]):
        if q.roles & _CLAUSE_BOUNDARY and q.word not in ("ni", "nor", "or", "ou"):
            return False
        if q.word in _EXCLUDING:
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
        p.word for k, p in enumerate(flat)
        if p.roles & LANGUAGE and _negated_nearby(flat, k)
    }
    langs = [w for w in langs if w not in excluded]
    named = {_LANGUAGES[w] for w in langs}
    switched = any(
        p.roles & LANGUAGE and any(q.word in _SWITCH for q in flat[max(0, k - 3) : k])
        for k, p in enumerate(flat)
    )
    if len(named) > 1 or switched:  # "en anglais alors que la personne écrit en français"
        valence = -1
    elif langs and (len(langs) > 1 or any(p.word in _SAME for p in flat)):
        # "écrit en français, réponse en français", "en français, comme la personne"
        valence = 1
    else:
        for k, p in enumerate(flat):
            if p.word in _LANGUAGE_NOUNS:
                around = {q.word for q in flat[max(0, k - 2) : k + 2]}
                if around & _SAME:
                    valence = 1
                elif around & _OTHER:
                    valence = -1
                else:
                    continue
                if any(q.word in _NEGATORS for q in flat[max(0, k - 4) : k]):
                    valence = -valence
                break
    if valence:
        cues.append(Cue(valence, _LANGUAGE_WEIGHT, seg, n - 1, 0, n - 1, 0))


def _absence_flips(
    flat: list[Part], ti: int, clause_ti: int, seg: int, cues: list[Cue], weak: list[Cue]
) -> bool:
    """A postposed "absent", "missing", "manquant" denies what its clause said before it
    ("3114 absent", "concrete next step missing"): those cues and keywords are flipped
    and ``True`` is returned. "absente du contexte" (not in the source: made up) is left
    to the lexicon, "absent de la réponse" is not."""
    nxt = flat[ti + 1].word if ti + 1 < len(flat) else ""
    if nxt in _FROM and not any(p.roles & ASSIST for p in flat[ti + 2 : ti + 4]):
        return False
    flipped = False
    for c in chain(cues, weak):
        if c.segment == seg and c.last_token >= clause_ti and c.last_token < ti:
            c.valence = -c.valence
            flipped = True
    return flipped


def _drop_users_act(flat: list[Part], ti: int, cues: list[Cue]) -> None:
    """"Idées suicidaires évoquées par la personne": the participle before "par la
    personne" / "by the user" is what the person did, not the answer."""
    k = ti - 1
    while k > 0 and flat[k].roles & DET and k > ti - 3:
        k -= 1
    if k > 0 and flat[k].word in _BY:
        cues[:] = [c for c in cues if c.last_token != k - 1]


def _drop_other_criterion(cues: list[Cue], weak: list[Cue], seg: int) -> None:
    """"… aucune étape n'est proposée (ce qui relève d'un autre critère)": what the
    clause says is about another criterion. Its cues are dropped (those of the clause
    before when this one has none yet)."""
    if not any(c.segment == seg for c in cues):
        seg -= 1
    cues[:] = [c for c in cues if c.segment != seg]
    weak[:] = [c for c in weak if c.segment != seg]


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
        mass[c.segment] = mass.get(c.segment, 0.0) + c.valence * c.weight
    boosted: set[int] = set()
    opposed: list[Cue] = []
    for c in weak:
        seg = c.segment
        if c.weight == _RESTRICT_WEIGHT or seg not in mass:
            continue
        if c.valence * mass[seg] >= 0:
            if seg not in boosted:
                segw[seg] *= RELEVANCE
                boosted.add(seg)
        else:
            opposed.append(c)
    if opposed:
        bounds = [k for k, p in enumerate(flat) if p.roles & _CLAUSE_BOUNDARY]
        cued = {(c.segment, bisect_right(bounds, c.last_token)) for c in cues}
        for c in opposed:
            clause = (c.segment, bisect_right(bounds, c.last_token))
            if clause not in cued:
                cues.append(c)
                cued.add(clause)

    taken = set(mass)
    weak.sort(key=lambda c: (c.weight == _RESTRICT_WEIGHT) != failure)
    for cue in weak:
        if cue.segment not in taken:
            cues.append(cue)
            taken.add(cue.segment)


def _truncation(flat: list[Part], res: ScanResult) -> None:
    """A rationale cut with "…" right after "mais", "sans", "sauf" hides what mattered."""
    last: list[int] = []  # the last four words, from the end (punctuation skipped)
    ti = len(flat) - 1
    while ti >= 0 and len(last) < 4:
        if flat[ti].word not in (".", "…", ""):
            last.append(ti)
        ti -= 1
    if not last:
        return
    if flat[last[0]].roles & (CONTRAST | LEX | NE | FWD | SUB | QUE):
        res.unknown += 1.0
        return
    for ti in reversed(last):
        if flat[ti].roles & CONTRAST and not any(c.last_token > ti for c in res.cues):
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
        word = part.word
        total += unigrams.get(word, 0.0)
        if follow is not None:
            total += follow.get(word, 0.0)
        follow = bigrams.get(word)
    return total, parts[0].word, follow


_CONTENT_WORD: Final = 4  # letters of the shortest word shown alone as evidence


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
            word = part.word
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
    return at[0] + _token(result, first).start, at[1] + _token(result, last).end


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
        valence = cue.valence
        if not valence:
            continue
        mass = cue.weight * weights[cue.segment]
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
        at = result.starts([first.first_token, first.last_token])
        return ((at[0] + first.first_offset, at[1] + first.last_offset),)
    at = result.starts(
        [first.first_token, first.last_token, second.first_token, second.last_token]
    )
    return two_spans(
        (at[0] + first.first_offset, at[1] + first.last_offset),
        (at[2] + second.first_offset, at[3] + second.last_offset),
    )


def two_spans(one: tuple[int, int], two: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    """Two highlights in reading order; adjacent or overlapping ones (one space between
    them at most: "répond … directement") read better as one."""
    if two < one:
        one, two = two, one
    if two[0] <= one[1] + 1:
        return ((one[0], max(one[1], two[1])),)
    return (one, two)

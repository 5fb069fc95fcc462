"""French and English vocabulary of judge rationales, classified once per word form.

Every token of a rationale is looked up in :data:`INFO` (filled lazily by
:func:`classify`): a bit set of structural roles (boundary, negator, subject noun…) and,
when the word evaluates the answer, a cue category with a weight. Entries ending in ``*``
are prefixes, so one line covers "répond", "répondre", "répondu". All entries are written
lowercase without accents, as :func:`reviewer.contradiction.normalize.normalize` produces.

Cue categories say how the word judges the answer, before negation:

* ``FULFIL``: the answer does something asked of it ("répond", "propose", "addresses");
* ``QUALITY``: the answer is good in some respect ("pertinent", "clair", "prudent");
* ``DEFICIT``: the answer lacks something ("vague", "omet", "hors sujet", "fails");
* ``FAULT``: the answer does something wrong ("invente", "promotion", "condescending");
* ``MET``: a word that states a criterion holds ("tenu", "respecté", "met");
* ``PROBLEM``: a noun naming a defect, mostly seen negated ("aucun problème").
"""

from __future__ import annotations

from typing import Final


def words(text: str) -> frozenset[str]:
    """The set of the space-separated words of ``text`` (keeps word lists readable)."""
    return frozenset(text.split())


# Structural roles (bit flags).
STRONG: Final = 1 << 0  # ends a sentence or clause: . ; : ! ? …
WEAK: Final = 1 << 1  # ends a negation scope: , et and puis car
CONTRAST: Final = 1 << 2  # mais, cependant, but, however: what follows weighs more
CONCESS: Final = 1 << 3  # même si, malgré, although: the clause weighs less
NE: Final = 1 << 4  # French preverbal negation
CLOSER: Final = 1 << 5  # second half of a French negation: pas, plus, jamais…
FWD: Final = 1 << 6  # negates what follows: pas de, aucun, not, no, never…
LEX: Final = 1 << 7  # a predicate that negates its complement: sans, omet, fails to…
QUE: Final = 1 << 8  # que / qu': restrictive after "ne", else a subordinator
SUB: Final = 1 << 9  # starts a subordinate predicate: qui, si, quand, that, which…
USER: Final = 1 << 10  # the person talking to the assistant
ASSIST: Final = 1 << 11  # the assistant or its answer
DET: Final = 1 << 12  # determiner skipped when looking for a clause's subject
HEDGE: Final = 1 << 13  # un peu, slightly: the next cue weighs less
CONCL: Final = 1 << 14  # donc, overall: the clause is a conclusion
CRIT: Final = 1 << 15  # the word "critère" / "criterion"
ANSWER: Final = 1 << 16  # oui / non / yes / no
RESTRICT: Final = 1 << 17  # seulement, only: restricts, does not negate
QMARK: Final = 1 << 18  # question mark: the sentence asks, it does not assert
SUBJ_TOPIC: Final = 1 << 19  # "question", "demande" as a clause subject: the user's request
REPORT: Final = 1 << 20  # dit, écrit, demande, says: the person speaks (their words follow)
SPECIAL: Final = 1 << 21  # part of a two-word expression the scanner checks by hand
QUOTE: Final = 1 << 22  # opens a quotation or a parenthesis: skipped up to its end
LANGUAGE: Final = 1 << 23  # a language name: "français", "English"

# Cue categories.
NONE: Final = 0
FULFIL: Final = 1
QUALITY: Final = 2
DEFICIT: Final = 3
FAULT: Final = 4
MET: Final = 5
PROBLEM: Final = 6

_ROLES: dict[int, str] = {
    STRONG: ". ; : ! ? … · • | → ⇒",
    QUOTE: "« “ \" „ ‹ ( [ '",
    WEAK: ", et and puis car",
    CONTRAST: (
        "mais cependant toutefois neanmoins pourtant sauf hormis excepte "
        "but however yet except whereas tandis nonetheless nevertheless"
    ),
    CONCESS: "malgre quoique certes although though despite dommage admittedly granted",
    NE: "ne n'",
    CLOSER: "pas plus jamais rien aucun aucune guere nullement ni aucunement nulle",
    FWD: (
        "pas jamais rien aucun aucune ni non nul nulle aucunement nullement guere "
        "not no never nothing none nor neither cannot nowhere zero hardly barely scarcely nobody"
    ),
    LEX: (
        "sans without fails fail failed failing lacks lack lacking lacked "
        "omet omettant omettre omis omise omits omit omitted omitting oublie oublier oublient "
        "ignore ignorent ignorer ignores ignored ignoring neglige negliger neglects neglected "
        "evite eviter evitant avoids avoid avoided avoiding manque manquer "
        "aurait auraient devrait devraient faudrait pourrait gagnerait "
        "should could ought would refuse refuses refuser skips skip "
        "absence depourvu depourvue depourvus depourvues devoid denue denuee "
        "abstient abstenir abstiennent refrains refrain deconseille deconseillent "
        "overlooks overlook overlooked neglige neglig contourne elude esquive "
        "dissuade dissuades discourages interdit interdite interdits forbidden prohibited "
        "failure declines declined forgets forgot forgotten misses missed impasse mal"
    ),
    QUE: "que qu'",
    SUB: "qui si quand lorsque lorsqu' puisque puisqu' that which who if when because",
    USER: (
        "personne utilisateur utilisatrice usager usagere plaignant plaignante demandeur "
        "demandeuse interlocuteur interlocutrice user person requester"
    ),
    ASSIST: (
        "assistant assistante reponse modele ia answer response reply model texte text "

    ),
    DET: (
        "la le l' les un une des de d' du sa son ses leur cette ce cet c' the a an their "
        "his her its this that's all tout toute tous toutes any"
    ),
    HEDGE: "peu legerement parfois endroits slightly somewhat bit little assez touch tad",
    CONCL: (
        "donc ainsi bref somme final finalement conclusion globalement ensemble overall verdict "
        "therefore thus hence so"
    ),
    CRIT: "critere criteres criterion exigence requirement condition verdict",
    ANSWER: "oui non yes no ✓ ✔ ☑ ✅ ✗ ✘ ❌ aucun aucune none neant nil",
    RESTRICT: (
        "seulement uniquement only just merely simply solely concentre concentrent centree "
        "centre limite limitent cantonne tient focuses focused focus sticks stays confines "
        "limited restricted borne bornent contente contentent"
    ),
    QMARK: "?",
    SUBJ_TOPIC: "question demande request message",
    LANGUAGE: (
        "francais francaise french anglais anglaise english espagnol espagnole spanish "
        "allemand allemande german italien italienne italian arabe arabic portugais "
        "portugaise portuguese neerlandais dutch chinois chinese russe russian turc turque "
        "turkish"
    ),
    SPECIAL: (
        "bien meme even alors tandis revanche contre lieu plutot instead rather loin far free "
        "exempt clear against faux fausse inexact inexacte impossible false untrue vrai vraie "
        "exact exacte juste correct true case cas fair dire say met avant compte up granted round "
        "around partie reponse answer response reply oui non yes no attendu attendue attendus "
        "attendues requis requise required expected while whilst still reste depit hand said "
        "empeche ✓ ✔ ☑ ✅ ✗ ✘ ❌ but point issue issues certains certaines met difficile "
        "cote found desirer desired out possible peu little few "
        "hard appears appear appeared semble apparait absent absente absents absentes "
        "missing manquant manquante manquants manquantes signaler report flag peine "
        "aucun aucune none neant nil agissait "
        "fallait short"
    ),
    REPORT: (
        "dit disait dise disent indique indiquait ecrit ecrivait explique expliquait precise "
        "affirme raconte signale mentionne declare evoque evoquait exprime demande demandait "
        "voulait veut souhaite souhaitait cherche cherchait parle parlait glisse confie decrit "
        "pense estime trouve plaint craint ne n' a avait "
        "says said states stated writes wrote explains explained mentions mentioned asks "
        "asked wants wanted describes described complains expresses tells told notes thinks "
        "feels doesn't don't can't won't has"
    ),
}

_CUES: dict[int, str] = {
    FULFIL: (
        "repond* repondre reponde traite traitent traiter traitee abord aborde abordent aborder "
        "fournit fournissent fournir fourni fournie apporte apportent apporter "
        "donne donnent donner donnant explique* expliqu* precise detaille* detaill* "
        "propose proposent proposer proposant oriente orientent orienter orientation "
        "renvoie renvoient renvoyer rappelle rappellent rappeler cite citent citer "
        "mentionne mentionnent mentionner indique indiquent indiquer suggere suggerent "
        "suggerer conseille conseillent conseiller recommande recommandent recommander "
        "couvre couvrent reprend reprennent aide aident aider aidant guide guident "
        "accompagne* reconnait reconnaissent structure structurent rassure rassurent "
        "invite invitent inviter confirme confirment dit dire reagit reagir evoque evoquer echo "
        "evoquent touches touched nails rappele mot word plan proposition propositions "
        "states stated comprend comprendre "
        "understands guidance advice conseil conseils piste pistes "
        "recommandations reconnai* renvoi "
        "mentionn* recommand* indiqu* propositi* orientat* redirig* renseign* "
        "sugge* mention mentions "
        "answers answer answered answering addresses address addressed responds respond "
        "responded provides provide provided providing gives give gave given giving "
        "explains explain explained covers cover covered mentions mention mentioned "
        "suggests suggest suggested proposes propose proposed offers offer offered "
        "recommends recommend recommended points helps help helped guides guide "
        "acknowledg* tackles handles handle handled "
        "lists listing walks steers steer refers reassures reassure cites invites "
        "includes include shows show lays laying says say said tells tell told "
        "reacts react suggestion* replies replied outlines outline detailed recogni* referral* "
        "refers referred referring signpost* acknowledg* mention* addresse* recommend* suggest* "
        "explain* explanation* "
        "clarifies clarify explains directs redirects signposts advises advise encourages "
        "recognises recognizes recognised recognized supports delivers engages deals "
        "clarifi* informe informent redirige* reoriente* listent enumere* "
        "communique* transmet* resume resument synthetise* presente presentent soutient "
        "encourage encouragent consigne consignent note notent s'occupe occupe "
    ),
    QUALITY: (
        "pertinent* adapte adaptee adaptes adaptees approprie* correct correcte correctement "
        "exact exacte exacts exactes clair claire claires clairs clairement limpide lisible* "
        "concis concise utile utiles fidele* factuel* neutre prudent* prudemment coherent* "
        "complet complete completement concret concrete concretes concrets realiste* "
        "simple simples directe directement direct bienveillant* bienveillance chaleureu* "
        "respectueu* empathi* attentif attentive attention douceur doucement calme calmement "
        "nuance* conditionnel* ancre* appuie appuyant provien* issu issus fonde fondee "
        "structuree facile suffit suffisant* satisfaisant* rigoureu* bien colle collent "
        "relevant appropriate appropriately accurate accurately correctly clear clearly "
        "helpful useful faithful factual neutral cautious* careful* coherent complete "
        "completely concrete realistic plain simple direct directly kind warm warmly "
        "respectful gentle gently calm empathetic attentive grounded drawn accepted "
        "readable concise adequate* sufficient* enough precise specific sticks stick "
        "courteous polite poli polie aimable friendly courte courts courtes short "
        "brief briefly "
        "bon bonne bons bonnes adequat* mesure mesuree equilibre* rassurant* apaisant* "
        "comprehensi* accessible* sobre faisable* actionnable* operationnel* "
        "fluide pertinemment judicieu* sense sensee raisonnable* irreprochable impeccable "
        "parfait* excellent* serieux serieusement soigne* "
        "good great solid balanced measured reassuring supportive compassionate actionable "
        "feasible understandable ok okay acceptable sound sensible easy easily legible "
        "spot-on straightforward on-topic relevan* incertitude* uncertain* incertain* "
        "depend* "
        "remarquable exemplaire efficace* effective* thoughtful nice solide convaincant* "
        "convincing exhaustive exhaustif nickel ideal tackle practical actionable retrouve better "
        "comprehensive targeted tailored validating cible ciblee personnalise* pedagogi* "
        "didactique* fouille fouillee approfondi* "
        "pratique pratiques "
        "retrouvent traceable verifiable "
        "organise organisee organises organisees organised organized logique logiques "
        "logical ordonne ordonnee ordonnes ordonnees ordered orderly honnete* honest* "
        "transparent transparente lucide "
        "reasonable well properly faithfully seriously thorough* spot-on ras supported "
        "backed exists exist existent existe legitim* valides figure figurent apparait "
        "apparaissent appears appear appeared correspond correspondent matches"
    ),
    DEFICIT: (
        "incomplet* vague* generique* generalites generaux evasi* hors ignor* omet* "
        "omission oubli* elude* esquive* manque* absent* absence insuffisant* "
        "superficiel* imprecis* inadapte* inapproprie* partiel* lacunaire* flou floue "
        "confus* confond* melange* digress* detourne* reformule* repete* restate* noye* "
        "longue long longs trop sec seche froid* sermonne* "
        "incomplete vague* generic generalities evasive* off tangent* irrelevant "
        "unhelpful unclear partial partially partly missing misses miss fails failure "
        "lacks lacking superficial* insufficient* inadequate* confusing confused muddled "
        "wordy verbose buried dense trails unanswered sidestep* dodge* deflect* repeats "
        "restates curt* cold* silent depourvu* devoid "
        "manquant* verbeu* lourd* inutile* maladroit* distant* expediti* brusque* devie* "
        "jargon difficile* longues complique* "
        "contourn* pauvre maigre rate ratee insatisfaisant* "
        "overlook* shallow thin rambl* preach* patroni* unrealistic impractical useless "
        "boilerplate canned unaddressed unmet unfulfilled unresolved hanging "
        "missed dismiss* brush* bad badly poor poorly weak mauvais mauvaise mediocre "
        "decevant* disappointing sloppy careless* messy incoheren* illisible obscur* "
        "bancal* tronque* truncated omits omit omitted omitting neglects "
        "neglect neglected skips skipped saute sautent muet muette escamote* zappe* "
        "ko nok silence skirts skirted glosses glossed abstrait* abstract forgets forgot "
        "creux creuse leger legere sommaire* bacle* laconique* decousu* brouillon* alambique* "
        "indigeste* touffu* cursory sketchy half-hearted perfunctory hollow convoluted "
        "disjointed scattered unfocused lacklustre lackluster subpar patchy spotty "
        "insuffisamment mal moitie half surface perd perdent egare* noie strays strayed "
        "wanders wandered "
        "repetition* repetiti* redite* redondan* redundan* excessi* "
        "forgotten impasse "
        "desinvolte* cassant* harsh* flippant* irrespectueu* overconfident hasty "
        "approximati* bacle bancale lapidaire* "
    ),
    FAULT: (
        "invent* fabrique* fabrication* halluc* errone* faux fausse fausses inexact* "
        "incorrect* erreur* imagine* extrapole* suppose supposent supposer presume* "
        "fictif* fictive* inexistant* promotion* promeu* promouv* publicit* incit* "
        "pousse poussent pousser vante* commercia* achat* achete* abonnement* premium "
        "payant* payante* vend* garanti* promet promis promise promettre promesse* "
        "certitude* certain* bipolaire* bipolar depressi* toc ocd psychopath* paranoi* "
        "narciss* schizo* autis* hyperacousie syndrome* patholog* maladie* illness* "
        "disorder* insomnie insomnia habituer habituez change changement* switch* bascule* "
        "brode* hypothes* etranger* frapper taper tape cogner crever menace* insult* "
        "assure assurent affirmatif* forcement diagnosti* etiquette* condescend* "
        "culpabilis* moralis* accusat* jugement* jugeant reproche* caricatur* "
        "confrontation* vengeance represailles affrontement* agressi* "
        "invents invented inventing fabricat* made-up makes_up fictitious* nonexistent "
        "false wrong* incorrect* inaccura* erroneous* mistake* error* hallucinat* "
        "assumes assumed assumption* presumes speculat* promotion* promot* upsell* "
        "advertis* nudg* pushes pushed pushing push subscription* premium upgrade* "
        "guarantee* promises promised promise certainly definitely diagnos* label* "
        "judgement* judgment* judgemental judgmental condescending scold* scolds blame* "
        "moraliz* moralis* lecturing lectured lecturer retaliat* revenge confrontation* showdown "
        "overreacting dismissive assumption* unrelated extraneous bang* knock* confront* "
        "threaten* insult* "
        "minimis* banalis* relativis* trompe* trompeu* mensong* faussement exagere* "
        "certifie* accuse* blame* collecte* reclame* intrusi* pathologis* escalad* "
        "minimiz* downplay* triviali* belittl* misstat* misrepresent* wrongly falsely "
        "overstat* assures accuses accused shames shaming plugs incites escalat* "
        "aggressive hostile illegal* unlawful* illicit* illicite* covert* collect* "
        "selfish egoiste* inconsidere* inconsiderate mepris* rude impoli* grossier* "
        "desobligeant* arrogant* hautain* sarcasti* pareille paid publier publie publiee "
        "publiees publish* posting diffuser divulg* disclos* leak* "
        "abruti* idiot* cretin* imbecile* stupid* moron* balaie balaye* evacue* "
        "abonn* subscri* upsell* sales salesy pitch* misdescri* mislead* misquot* misinform* "
        "denigr* moqu* mocking mocks mocked ironi* snark* sermon* lecon lecons lectures "
        "rabaiss* infantilis* paternalis* belittl* "
        ""
    ),
    MET: (
        "tenu tenue respecte respectee respectes rempli remplie remplit satisfait satisfaite "
        "valide validee conforme conformes "
        "met meets satisfied fulfilled fulfils fulfills honoured honored passes pass passed "
        "atteint atteinte acquis reussi reussie coche cochee compliant complies comply "
        "achieved adhered adheres"
    ),
    PROBLEM: (
        "probleme* souci* defaut* faute* manquement* violation* infraction* reproche* "
        "problem* concern concerns fault* violation* flaw* breach* "
        "ecart* bemol* faiblesse* lacune* derapage* gap gaps weakness* shortcoming* lapse* "
        "redire reprocher echec* echoue* fail fails failed failing violated violates "
        "viole violee enfreint"
    ),
}

# Quality words about one aspect of an answer. They count fully only for a criterion
# about that aspect: "claire et bienveillante" says nothing about a next step.
CLARITY: Final = 1
TONE: Final = 2
CERTAINTY: Final = 3  # "certainly", "forcément": a fault only where certainty is one
ASPECTS: Final = 4  # how many aspect slots (0 is "no aspect")
_ASPECTS: dict[int, str] = {
    CLARITY: (
        "clair* concis* lisible* limpide simple* structur* facile dense long longue longs trop "
        "confus* jargon court courte courts comprehensi* obscur* superflu* melange* noye* "
        "clear* concise* readable plain wordy verbose obscure superfluous easy short "
        "confusing muddled buried"
    ),
    TONE: (
        "bienveillan* chaleureu* respectueu* poli polie aimable doux douce douceur doucement "
        "empath* froid* sec seche condescend* sermonne* moralis* culpabilis* caricatur* "
        "moqu* ironi* desinvolt* cassant* sarcasti* harsh* snark* mocking mocks "
        "kind warm* respectful gentle* courteous polite cold* curt* friendly scold* moraliz* "
        "judgement* judgment* jugement* empathy empathetic"
    ),
    CERTAINTY: (
        "certitude* certain* certainly definitely forcement assurement garanti* guarantee* "
        "promet promis* promise* promesse* affirmatif*"
    ),
}

# Words that weigh less than their category: "bien" and "directement" intensify a verb
# more than they judge by themselves.
WORD_FACTOR: Final[dict[str, float]] = {
    "simple": 0.6,
    # Nouns of help: clear when denied ("aucun conseil", "no guidance"), vaguer when
    # not ("des conseils de voisinage" may be beside the point).
    "guidance": 0.6,
    "advice": 0.6,
    "conseil": 0.6,
    "conseils": 0.6,
    "piste": 0.6,
    "pistes": 0.6,
    "recommandations": 0.6,
    "simply": 0.0,
}
# Adverbs that strengthen the cue just before them ("répond directement", "aide bien")
# and count for nothing alone.
INTENSIFIERS: Final = words("bien directement direct directe directly well")



def _compile() -> tuple[dict[str, int], dict[str, int], list[tuple[str, int]]]:
    roles: dict[str, int] = {}
    for flag, words in _ROLES.items():
        for word in words.split():
            roles[word] = roles.get(word, 0) | flag
    exact: dict[str, int] = {}
    prefixes: list[tuple[str, int]] = []
    for cat, words in _CUES.items():
        for word in words.split():
            if word.endswith("*"):
                prefixes.append((word[:-1], cat))
            else:
                exact.setdefault(word, cat)
    # Longest prefix wins, so "incomplet*" beats a shorter overlapping stem.
    prefixes.sort(key=lambda p: -len(p[0]))
    return roles, exact, prefixes


_ROLE_OF, _EXACT_CUE, _PREFIX_CUE = _compile()
_ASPECT_EXACT: dict[str, int] = {}
_ASPECT_PREFIX: list[tuple[str, int]] = []
for _aspect, _words in _ASPECTS.items():
    for _w in _words.split():
        if _w.endswith("*"):
            _ASPECT_PREFIX.append((_w[:-1], _aspect))
        else:
            _ASPECT_EXACT[_w] = _aspect


def aspect_of(word: str) -> int:
    """The aspect (:data:`CLARITY`, :data:`TONE`) a word is about, or 0."""
    found = _ASPECT_EXACT.get(word, 0)
    if not found:
        for prefix, aspect in _ASPECT_PREFIX:
            if word.startswith(prefix):
                return aspect
    return found

# Words that look like cues by prefix but are not ("d'abord", "longtemps"…).
_NOT_CUES: Final = words(
    "abord longtemps longueur certains certaines attendue attendu justement supposons"
)

# Inflections whose base form is an exact cue: French participles agreed in gender or
# number ("proposée", "abordés", "rappelées"), English "-ed", "-ing", "-s", "-ly"
# ("touched", "lecturing", "plainly", "clearer"). Only exact entries are tried, so a base never
# reaches a prefix entry by accident.
_SUFFIXES: Final = (
    ("ees", ("e",)),
    ("ee", ("e",)),
    ("es", ("e",)),
    ("ing", ("", "e")),
    ("ed", ("", "e")),
    ("ly", ("",)),
    ("er", ("", "e")),  # comparatives: "clearer", "simpler", "warmer"
    ("s", ("",)),
)


def _inflected(word: str) -> int:
    """The cue category of ``word``'s base form, or :data:`NONE`."""
    for suffix, endings in _SUFFIXES:
        if word.endswith(suffix):
            stem = word[: -len(suffix)]
            for ending in endings:
                cat = _EXACT_CUE.get(stem + ending, NONE)
                if cat != NONE:
                    return cat
            return NONE
    return NONE


Info = tuple[int, int, int, float]
INFO: dict[str, Info] = {}


def classify(token: str) -> Info:
    """``(roles, cue category, aspect, weight factor)`` of one normalised token, cached."""
    info = INFO.get(token)
    if info is not None:
        return info
    word = token
    if word.endswith("'") and word not in _ROLE_OF and len(word) > 3:
        word = word[:-1]  # English possessive: "person's" is tokenised "person'" + "s"
    roles = _ROLE_OF.get(word, 0)
    if word.endswith("n't"):
        roles |= FWD  # also for "doesn't", "can't", which are speech words too
    cat = _EXACT_CUE.get(word, NONE)
    if cat == NONE and word not in _NOT_CUES and len(word) > 4:
        cat = _inflected(word)
    if cat == NONE and word not in _NOT_CUES and len(word) > 2:
        for prefix, pcat in _PREFIX_CUE:
            if word.startswith(prefix):
                cat = pcat
                break
    info = (roles, cat, aspect_of(word) if cat else 0, WORD_FACTOR.get(word, 1.0))
    INFO[token] = info
    return info

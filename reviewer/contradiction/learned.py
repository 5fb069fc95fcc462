"""A learned reading of which way a rationale leans, stacked on the scanner's cues.

The scanner (:mod:`reviewer.contradiction.scan`) knows the grammar of negation and the
judge's stock phrases, but a rationale often judges only by describing what the answer
did: « Glisse un lien vers l'offre Sérénité+ », "Calls the complaint an overreaction".
No hand-written lexicon lists every such fact, and rules tuned on one set of sentences
lost a third of the contradictions on a set written by someone else. So a logistic
regression, trained by ``scripts/train_contradiction.py`` on every hand-labelled verdict
of the repository except the blind sets, reads the rationale's words and word pairs
(pairs carry the negations: "pas repondu", "no pointer") and the scanner's masses, and
gives the probability that the rationale says the answer behaves *well* on the
criterion. Each word also counts once more for the criterion's kind, since "propose"
is praise on a success criterion and often the fault itself on a failure one.

The features are defined once, in :func:`features`, for training; :class:`Model` folds
the weights into one table per kind and one for pairs, so that scoring a verdict is a
loop over the scanner's tokens compiled with it (:func:`reviewer.contradiction.scan.lean`;
50,000 verdicts a second is the goal).
``tests/contradiction/test_contradiction_learned.py`` checks the folded scoring against the
plain dot product of :func:`features`.
"""

from __future__ import annotations

import hashlib
import json
import math
from functools import lru_cache
from importlib import resources
from itertools import chain, pairwise
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from reviewer.contradiction.engine import read, strongest
from reviewer.contradiction.lexicon import words as word_set
from reviewer.input_bytes import special_file

if TYPE_CHECKING:  # the compiled scanner's results have the same shape
    from reviewer.contradiction.scan import Cue, ScanResult

MODEL_FILE: Final = "model.json"
NEUTRAL: Final = word_set(
    "la le les de du des d' l' et en un une au aux a the an and of to in on for is it its "
    "this that with as by ce cette ces son sa ses qui que qu' est"
)
"""Words that are no feature on their own. Alone, articles, "et" or a semicolon only
learn a writer's style (one training set liked semicolons in its approvals, and a
";" weighed as much as "répond"); in pairs they still count."""
DOMAIN: Final = word_set(
    "bruit bruits nuisance nuisances voisin voisins voisine voisines voisinage aboiement "
    "aboiements chien chiens odeur odeurs fumee fumees travaux fete fetes musique "
    "barbecue friture restaurant voiture stationnement parking pompe lampadaire "
    "noise noises neighbour neighbours neighbor neighbors barking dog dogs smell smells "
    "smoke party parties music construction car"
)
"""What the nuisance is about is no feature on its own either: a rationale about the
barking is neither praise nor blame, but a writer who judged the barking cases harshly
taught the model that "aboiements" leans bad (a base-rate run's false flags)."""


def words(result: ScanResult) -> list[str]:
    """The rationale's words as the scanner tokenised them (lowercased, accent-free,
    punctuation as one-character words), in reading order."""
    return [part.word for part in chain.from_iterable(result.plist)]


TRUNCATION: Final = 5.0
"""How much a cut right after "mais"/"sans" (the scanner's ``unknown`` mass, 1 per cut)
divides the log-odds by, beyond 1: what was cut would have weighed most, so the
reading of what is left is not trusted as much (``logit / (1 + 5 * unknown)``)."""


RULE_SCALE: Final = 3.0
"""The scanner's masses enter the regression multiplied by this (and their weights are
multiplied by it back when scoring): under the same L2 penalty a feature three times as
large costs a ninth as much to use. The scanner composes a negation with what it covers
(« ne mentionne pas le 3114 »), which words and pairs alone cannot; at scale 1 the pair
« le 3114 », frequent in approvals, outweighed it (leave-one-run-out: recall on verdicts
saying "good" 0.31 at 1, 0.38 at 3, the same precision)."""


def rule_features(good: float, bad: float, criterion_id: str = "") -> dict[str, float]:
    """The scanner's reading, free of the verdict, as the model sees it: once for every
    criterion, and once more for this criterion id (``r:good@G-TON``), since the
    scanner reads some criteria's wording better than others."""
    out = {
        "r:good": RULE_SCALE * math.log1p(good),
        "r:bad": RULE_SCALE * math.log1p(bad),
        "r:diff": RULE_SCALE * (good - bad) / (good + bad + 0.5),
    }
    if criterion_id:
        out.update({f"{name}@{criterion_id}": value for name, value in list(out.items())})
    return out


def features(
    kind: str, tokens: list[str], good: float, bad: float, criterion_id: str = ""
) -> dict[str, float]:
    """Every feature of one verdict, by name (what the trainer fits).

    ``w:<word>`` and ``s:<word>`` / ``f:<word>`` (the criterion kind's initial) count
    each word but punctuation and :data:`NEUTRAL` words, ``b:<word> <next word>`` each
    pair of adjacent tokens (there "ne pas", "; aucun" or "sans 3114" do carry meaning);
    then the scanner's masses (see :func:`rule_features`).
    """
    initial = kind[0]
    out = rule_features(good, bad, criterion_id)
    for word in tokens:
        if word in NEUTRAL or word in DOMAIN or not word[:1].isalnum():
            continue
        for name in ("w:" + word, initial + ":" + word):
            out[name] = out.get(name, 0.0) + 1.0
    for first, second in pairwise(tokens):
        name = f"b:{first} {second}"
        out[name] = out.get(name, 0.0) + 1.0
    return out


class Model:
    """The regression's weights, folded for fast scoring.

    ``unigrams[kind][word]`` is the sum of the ``w:`` and kind-prefixed weights of a
    word; ``bigrams[word][next]`` the weight of a pair.
    """

    __slots__ = ("bigrams", "by_criterion", "chunk_sums", "rules", "unigrams")

    def __init__(self, bias: float, weights: dict[str, float]) -> None:
        general = _rule_weights(weights, "")
        self.rules: tuple[float, float, float, float] = (bias, *general)
        # Criterion id -> its rule weights, each already added to the general ones.
        self.by_criterion: dict[str, tuple[float, float, float, float]] = {}
        for name in weights:
            if name.startswith("r:good@"):
                criterion_id = name.partition("@")[2]
                own = _rule_weights(weights, criterion_id)
                self.by_criterion[criterion_id] = (
                    bias, general[0] + own[0], general[1] + own[1], general[2] + own[2]
                )
        self.unigrams: dict[str, dict[str, float]] = {"success": {}, "failure": {}}
        self.bigrams: dict[str, dict[str, float]] = {}
        # Per kind, whitespace chunk -> (weights inside it, its first word, the pair
        # weights after its last word).
        self.chunk_sums: dict[str, dict[str, tuple[float, str, dict[str, float] | None]]] = {
            "success": {}, "failure": {}
        }
        for name, weight in weights.items():
            prefix, _, rest = name.partition(":")
            if prefix == "b":
                first, _, second = rest.partition(" ")
                self.bigrams.setdefault(first, {})[second] = weight
            elif prefix == "w":
                for table in self.unigrams.values():
                    table[rest] = table.get(rest, 0.0) + weight
            elif prefix in ("s", "f"):
                table = self.unigrams["success" if prefix == "s" else "failure"]
                table[rest] = table.get(rest, 0.0) + weight

    def read(
        self, kind: str, result: ScanResult, criterion_id: str = ""
    ) -> tuple[float, int, Cue | None, Cue | None]:
        """Log-odds that the rationale scanned into ``result`` says the answer behaves
        well on the criterion, with the side the scanner's cues favour and its two
        strongest cues (see :func:`reviewer.contradiction.scan.read`)."""
        return read(
            result,
            self.unigrams[kind],
            self.bigrams,
            self.chunk_sums[kind],
            self.by_criterion.get(criterion_id, self.rules),
            TRUNCATION,
        )

    def logit(self, kind: str, result: ScanResult, criterion_id: str = "") -> float:
        """Log-odds that the rationale says the answer behaves well on the criterion."""
        return self.read(kind, result, criterion_id)[0]

    def pushing(self, kind: str, result: ScanResult, side: int) -> list[tuple[float, int, int]]:
        """The (up to two) words or pairs that push the reading most towards ``side``
        (+1 good, -1 bad), as ``(|weight|, first token, last token)``: the evidence."""
        return strongest(result, self.unigrams[kind], self.bigrams, float(side))


def _rule_weights(weights: dict[str, float], criterion_id: str) -> tuple[float, float, float]:
    suffix = f"@{criterion_id}" if criterion_id else ""
    return (RULE_SCALE * weights.get("r:good" + suffix, 0.0),
            RULE_SCALE * weights.get("r:bad" + suffix, 0.0),
            RULE_SCALE * weights.get("r:diff" + suffix, 0.0))


def sigmoid(z: float) -> float:
    """The logistic function, safe for large ``|z|``."""
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


@lru_cache(maxsize=1)
def _raw() -> dict[str, Any]:
    text = resources.files(__package__).joinpath(MODEL_FILE).read_text("utf-8")
    raw: dict[str, Any] = json.loads(text)
    return raw


@lru_cache(maxsize=1)
def model() -> Model:
    """The model shipped with the package (``reviewer/contradiction/model.json``)."""
    raw = _raw()
    return Model(float(raw["bias"]), {k: float(v) for k, v in raw["weights"].items()})


def file_digest(data: bytes) -> str:
    """How ``model.json`` names a training file's content (a SHA-256 prefix)."""
    return hashlib.sha256(data).hexdigest()[:16]


def trained_on(path: Path) -> bool:
    """Did the shipped model learn from this very file? Then figures measured on it are
    in-sample and say nothing about verdicts never seen."""
    if special_file(path) is not None:  # /dev/zero was read whole (fourth hostile pass, MEM)
        return False
    try:
        with path.open("rb") as fh:
            # file_digest's name, hashed in pieces rather than read whole
            digest = hashlib.file_digest(fh, "sha256").hexdigest()[:16]
    except OSError:
        return False
    return digest in set(_raw()["trained_on"].values())

"""The judge's prompt templates: French by default, editable, every edit a new version.

A template is the text of the message sent to the judge, with three placeholders
(``string.Template`` syntax, so JSON braces in a template need no escaping):

* ``$conversation``: the context the answer was generated in (role-tagged messages);
* ``$reponse``: the answer being judged;
* ``$criteres``: the criteria to judge, one per line with their polarity.

Two templates exist: ``juge`` (several criteria of both polarities in one call, what the
filter did) and ``second_avis`` (one success criterion alone, the seed's second opinion).
The stored latest version wins; with none stored, the built-in default is used and
reported as version 0. The rendered text goes into the request, so editing a template
changes the request digest and never reuses a reply made under the old wording.
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from models import PromptTemplate
from reviewer.errors import BadInputError
from reviewer.judge.conversation import conversation_text

JUDGE = "juge"
SECOND_OPINION = "second_avis"
PLACEHOLDERS = ("conversation", "reponse", "criteres")

_RULES = """\
Pour chaque critère, écris d'abord une raison brève (une ou deux phrases, en français) \
qui s'appuie sur la réponse, puis ton verdict, « oui » ou « non » :
- critère de réussite : « oui » si la réponse fait ce que dit le critère, « non » sinon ;
- critère d'échec : « oui » si la réponse commet cette faute, « non » sinon.
Le verdict doit suivre ta raison. Réponds uniquement avec le JSON demandé."""

DEFAULT_JUDGE = f"""\
Tu évalues la réponse de l'assistant du Journal des Nuisances au dernier message \
d'une conversation.

## Conversation
$conversation

## Réponse à évaluer
$reponse

## Critères
$criteres

{_RULES}"""

DEFAULT_SECOND_OPINION = """\
Tu évalues la réponse de l'assistant du Journal des Nuisances au dernier message \
d'une conversation, sur un seul critère de réussite.

## Conversation
$conversation

## Réponse à évaluer
$reponse

## Critère
$criteres

Écris d'abord une raison brève (une ou deux phrases, en français) qui s'appuie sur la \
réponse, puis ton verdict : « oui » si la réponse fait ce que dit le critère, « non » \
sinon. Le verdict doit suivre ta raison : si ta raison constate que la réponse le fait, \
le verdict est « oui ». Réponds uniquement avec le JSON demandé."""

DEFAULTS = {JUDGE: DEFAULT_JUDGE, SECOND_OPINION: DEFAULT_SECOND_OPINION}

POLARITY = {
    "success": "réussite, « oui » si la réponse le fait",
    "failure": "échec, « oui » si la réponse commet cette faute",
}


@dataclass(frozen=True, slots=True)
class PromptText:
    """One version of a template (version 0 = the built-in default, not stored yet)."""

    name: str
    version: int
    text: str

    @property
    def label(self) -> str:
        """``second_avis@v2``: how requests record which template made them."""
        return f"{self.name}@v{self.version}"


@dataclass(frozen=True, slots=True)
class CaseCriterion:
    """A criterion as the judge reads it."""

    criterion_id: str
    kind: str
    text: str


@dataclass(frozen=True, slots=True)
class Case:
    """What the judge is asked about: a context, an answer, and the criteria to judge."""

    messages: Sequence[dict[str, Any]]
    response: str
    criteria: tuple[CaseCriterion, ...]

    @property
    def criterion_ids(self) -> list[str]:
        """The ids the reply must give a verdict for, in order."""
        return [c.criterion_id for c in self.criteria]


def _check_name(name: str) -> None:
    if name not in DEFAULTS:
        raise BadInputError(f"unknown prompt template {name!r} (use {', '.join(DEFAULTS)})")


def validate_text(text: str) -> None:
    """BadInputError unless ``text`` is a usable template (all placeholders, no stray ``$``)."""
    template = string.Template(text)
    if not template.is_valid():
        raise BadInputError("prompt template has a stray '$' (write '$$' for a dollar sign)")
    missing = [p for p in PLACEHOLDERS if p not in template.get_identifiers()]
    if missing:
        raise BadInputError(
            "prompt template lacks " + ", ".join(f"${p}" for p in missing)
        )
    unknown = sorted(set(template.get_identifiers()) - set(PLACEHOLDERS))
    if unknown:
        raise BadInputError(f"prompt template has unknown placeholder ${unknown[0]}")


def current_template(session: Session, name: str) -> PromptText:
    """The latest stored version of ``name``, else the built-in default (version 0)."""
    _check_name(name)
    row = session.scalars(
        select(PromptTemplate)
        .where(PromptTemplate.name == name)
        .order_by(PromptTemplate.version.desc())
        .limit(1)
    ).first()
    if row is None:
        return PromptText(name, 0, DEFAULTS[name])
    return PromptText(name, row.version, row.text)


def save_template(session: Session, name: str, text: str) -> PromptText:
    """Store ``text`` as the next version of ``name`` (nothing new if it is unchanged)."""
    _check_name(name)
    validate_text(text)
    current = current_template(session, name)
    if current.text == text:
        return current
    latest = session.scalar(
        select(func.max(PromptTemplate.version)).where(PromptTemplate.name == name)
    )
    version = (latest or 0) + 1
    session.add(PromptTemplate(name=name, version=version, text=text))
    session.flush()
    return PromptText(name, version, text)


def criteria_text(criteria: Sequence[CaseCriterion]) -> str:
    """One line per criterion: id, polarity, wording."""
    return "\n".join(
        f"- {c.criterion_id} ({POLARITY.get(c.kind, c.kind)}) : {c.text}" for c in criteria
    )


def render(template: PromptText, case: Case) -> list[dict[str, str]]:
    """The chat messages for ``case`` under ``template`` (one user message)."""
    content = string.Template(template.text).substitute(
        conversation=conversation_text(list(case.messages)),
        reponse=case.response,
        criteres=criteria_text(case.criteria),
    )
    return [{"role": "user", "content": content}]

"""Helpers for the judge tests: stores loaded with small runs, a judge on the fake server."""

from __future__ import annotations

import copy
import socket
from pathlib import Path
from typing import Any

from sqlalchemy import select

from models import Attempt, JudgeFailure, JudgeRequest, Verdict
from reviewer.ingest.importer import import_run
from reviewer.judge.client import JudgeClient
from reviewer.store import Store
from tests.support.fake_ollama import FakeOllama, Reply
from tests.support.run_files import CATALOG, write_catalog, write_jsonl

MODEL = "qwen3.6:35b-a3b"

TON = {"id": "G-TON", "kind": "success", "severity": None,
       "text": "Garde un ton calme et bienveillant."}
CATALOG_WITH_TON: dict[str, Any] = {**CATALOG, "criteria": [*CATALOG["criteria"], TON]}


def client_for(fake: FakeOllama | str, **kw: Any) -> JudgeClient:
    """A judge on the fake server with tiny timeouts and backoff (tests never wait)."""
    host = fake if isinstance(fake, str) else fake.url
    settings: dict[str, Any] = {"timeout": 2.0, "retries": 2, "backoff": 0.001}
    settings.update(kw)
    return JudgeClient(host, MODEL, **settings)


def closed_port_url() -> str:
    """A URL on 127.0.0.1 where nothing listens."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def load(store: Store, tmp: Path, rows: list[dict[str, Any]],
         catalog: dict[str, Any] | None = None) -> list[int]:
    """Import ``rows`` (with the test catalog); the attempt ids in file order."""
    import_run(store, write_jsonl(tmp / "run.jsonl", rows),
               catalog_path=write_catalog(tmp / "catalog.json", catalog))
    with store.session() as s:
        return list(s.scalars(select(Attempt.id).order_by(Attempt.id)))


def with_ton(
    row: dict[str, Any], verdict: str, rationale: str = "Le ton est posé."
) -> dict[str, Any]:
    """``row`` with a G-TON verdict added (and its reason line when it refuses)."""
    row = copy.deepcopy(row)
    row["judge"]["verdicts"].append(
        {"criterion": "G-TON", "verdict": verdict, "rationale": rationale})
    if verdict == "non":
        row["reasons"].append(f"G-TON non tenu : {rationale}")
        row["accepted"] = False
    return row


def asked_ids(body: dict[str, Any]) -> list[str]:
    """The criterion ids a chat request's schema allows (what it asks about)."""
    items = body["format"]["properties"]["verdicts"]["items"]
    return list(items["properties"]["criterion"]["enum"])


def prompt_of(body: dict[str, Any]) -> str:
    """All message contents of a chat request."""
    return "\n".join(m["content"] for m in body["messages"])


def verdict_reply(body: dict[str, Any], verdict: str = "oui",
                  rationale: str = "La réponse répond directement à la demande.") -> Reply:
    """A well-formed reply judging every asked criterion ``verdict``."""
    return Reply.json({"verdicts": [
        {"criterion": cid, "rationale": rationale, "verdict": verdict}
        for cid in asked_ids(body)
    ]})


def snapshot(store: Store) -> dict[str, Any]:
    """Everything a second opinion may write, to prove a fault changed nothing else."""
    with store.session() as s:
        return {
            "verdicts": sorted((v.attempt_id, v.criterion_version_id, v.origin, v.met, v.rationale)
                               for v in s.scalars(select(Verdict))),
            "attempts": sorted((a.id, a.accepted, tuple(a.reasons))
                               for a in s.scalars(select(Attempt))),
            "requests": s.scalar(select(JudgeRequest.id).limit(1)),
        }


def failure_messages(store: Store) -> list[str]:
    """Messages of the stored judge failures, oldest first."""
    with store.session() as s:
        return list(s.scalars(select(JudgeFailure.message).order_by(JudgeFailure.id)))

"""The judge client the GUI uses, made from the settings (host, model) when it is needed.

The client module (with ``ollama`` and ``httpx``) is imported on first use only: together
they are a noticeable share of a start-up that must paint the queue in under a second.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from ui.settings import AppSettings

if TYPE_CHECKING:
    from reviewer.judge.client import JudgeClient

TIMEOUT_S = 120.0


def judge_client(config: AppSettings, timeout: float = TIMEOUT_S, *,
                 abandon: threading.Event | None = None) -> JudgeClient:
    """A client for the judge the settings name (one retry: the reviewer is waiting),
    thinking when the settings say a reasoning judge may think. ``abandon``: the task
    manager's ``closing`` flag, so that closing the app drops a request in flight."""
    from reviewer.judge.client import JudgeClient

    return JudgeClient(config.ollama_host, config.ollama_model, timeout=timeout, retries=1,
                       think=config.judge_think, abandon=abandon)

"""Every export format loads as its trainer loads it, with exactly the fields it names.

Each file is read with Hugging Face ``datasets`` (``load_dataset("json", …)``, what TRL,
Axolotl, Unsloth and LLaMA-Factory call), on a realistic run after the reviewer's CSV:

* chat ``{"messages"}`` (OpenAI, TRL conversational, mlx-lm, Axolotl ``chat_template``),
  with ``weight`` 0 on the context's answers and 1 on the trained one when asked (OpenAI);
* ShareGPT ``{"conversations": [{"from", "value"}]}`` (Unsloth, LLaMA-Factory: ``human``
  and ``gpt`` alternate after an optional ``system``);
* TRL prompt-completion ``{"prompt", "completion"}``;
* TRL preference ``{"prompt", "chosen", "rejected"}``, OpenAI DPO ``{"input":
  {"messages"}, "preferred_output", "non_preferred_output"}``, TRL KTO ``{"prompt",
  "completion", "label"}``;
* a split folder (mlx-lm reads ``train.jsonl``/``valid.jsonl``): no conversation on
  both sides, the same split for the same seed.
"""

from __future__ import annotations

import os

os.environ.setdefault("HF_DATASETS_OFFLINE", "1")  # before datasets reads its settings
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import json
from pathlib import Path
from typing import Any

import pytest
from datasets import Dataset, load_dataset

from reviewer.cli.main import main
from reviewer.store import Store
from tests.exports.realistic import import_and_decide

# The formats do not depend on the backend (tests/exports/test_export_bytes.py reads both).
ROLES = {"role", "content"}


@pytest.fixture
def reviewed(store: Store, db_url: str, tmp_path: Path) -> tuple[str, dict[str, str]]:
    """A realistic run imported and decided from the reviewer's CSV; the truth per key."""
    truth = import_and_decide(db_url, tmp_path)
    said = {key: "accept" for key in truth.rescue} | {key: "reject" for key in truth.reject}
    return db_url, said


def load(path: Path, tmp_path: Path, **files: Path) -> Any:
    data_files = {k: str(v) for k, v in files.items()} if files else str(path)
    return load_dataset("json", data_files=data_files, cache_dir=str(tmp_path / "hf"))


def export(db_url: str, kind: str, out: Path, *extra: str) -> Path:
    assert main(["--db", db_url, "export", kind, str(out), *extra]) == 0
    return out


def only_split(loaded: Any) -> Dataset:
    assert list(loaded) == ["train"]
    data: Dataset = loaded["train"]
    assert len(data) > 10
    return data


def alternates(roles: list[str], user: str, assistant: str) -> bool:
    body = roles[1:] if roles and roles[0] == "system" else roles
    return body == [user, assistant] * (len(body) // 2) and len(body) % 2 == 0


def test_chat_and_its_weights(reviewed: tuple[str, dict[str, str]], tmp_path: Path) -> None:
    db_url, _ = reviewed
    data = only_split(load(export(db_url, "dataset", tmp_path / "chat.jsonl"), tmp_path))
    assert data.column_names == ["messages"]
    for row in data:
        assert all(set(m) == ROLES for m in row["messages"])
        assert alternates([m["role"] for m in row["messages"]], "user", "assistant")

    weighted = only_split(load(export(db_url, "dataset", tmp_path / "weighted.jsonl",
                                      "--weight-context", "0"), tmp_path))
    assert weighted.column_names == ["messages"]
    assert len(weighted) == len(data)
    several = 0
    for row in weighted:
        messages = row["messages"]
        # A weight on each assistant message, nowhere else (as OpenAI's examples).
        assert all(set(m) == ROLES | ({"weight"} if m["role"] == "assistant" else set())
                   for m in messages)
        weights = [m["weight"] for m in messages if m["role"] == "assistant"]
        assert weights[-1] == 1 and all(w == 0 for w in weights[:-1])
        several += len(weights) > 1
    assert several  # some examples have earlier answers in their context


def test_sharegpt(reviewed: tuple[str, dict[str, str]], tmp_path: Path) -> None:
    db_url, _ = reviewed
    data = only_split(load(export(db_url, "dataset", tmp_path / "share.jsonl", "--format",
                                  "sharegpt"), tmp_path))
    assert data.column_names == ["conversations"]
    for row in data:
        turns = row["conversations"]
        assert all(set(t) == {"from", "value"} for t in turns)
        assert alternates([t["from"] for t in turns], "human", "gpt")


def test_prompt_completion(reviewed: tuple[str, dict[str, str]], tmp_path: Path) -> None:
    db_url, _ = reviewed
    data = only_split(load(export(db_url, "dataset", tmp_path / "pc.jsonl", "--format",
                                  "prompt-completion"), tmp_path))
    chat = only_split(load(export(db_url, "dataset", tmp_path / "chat.jsonl"), tmp_path))
    assert data.column_names == ["prompt", "completion"]
    for row, same in zip(data, chat, strict=True):
        assert [m["role"] for m in row["completion"]] == ["assistant"]
        assert row["prompt"][-1]["role"] == "user"
        assert row["prompt"] + row["completion"] == same["messages"]


def test_split_folder_keeps_each_conversation_on_one_side(
        reviewed: tuple[str, dict[str, str]], tmp_path: Path) -> None:
    db_url, _ = reviewed
    folder = export(db_url, "dataset", tmp_path / "mlx", "--split", "valid=0.2", "--seed",
                    "4")
    assert sorted(p.name for p in folder.iterdir()) == ["manifest.json", "train.jsonl",
                                                        "valid.jsonl"]
    loaded = load(folder, tmp_path, train=folder / "train.jsonl",
                  validation=folder / "valid.jsonl")

    def conversations(data: Dataset) -> set[str]:
        return {row["messages"][1]["content"].split(" : ")[0] for row in data}

    train, valid = conversations(loaded["train"]), conversations(loaded["validation"])
    assert train and valid and not train & valid
    assert len(valid) == round(0.2 * 40)  # a fifth of the run's 40 conversations
    whole = only_split(load(export(db_url, "dataset", tmp_path / "whole.jsonl"), tmp_path))
    assert len(loaded["train"]) + len(loaded["validation"]) == len(whole)
    again = export(db_url, "dataset", tmp_path / "again", "--split", "valid=0.2", "--seed",
                   "4")
    assert (again / "valid.jsonl").read_bytes() == (folder / "valid.jsonl").read_bytes()
    other = export(db_url, "dataset", tmp_path / "other", "--split", "valid=0.2", "--seed",
                   "5")
    assert (other / "valid.jsonl").read_bytes() != (folder / "valid.jsonl").read_bytes()
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    assert [f["name"] for f in manifest["files"]] == ["train.jsonl", "valid.jsonl"]
    assert manifest["split"]["examples"] == {"train.jsonl": len(loaded["train"]),
                                             "valid.jsonl": len(loaded["validation"])}


def pairs_of(out: Path) -> list[dict[str, Any]]:
    manifest = json.loads((out.parent / f"{out.name}.manifest.json").read_text())
    pairs: list[dict[str, Any]] = manifest["pairs"]
    return pairs


@pytest.mark.parametrize("filter_refusals", [False, True])
def test_dpo_pairs(reviewed: tuple[str, dict[str, str]], tmp_path: Path,
                   filter_refusals: bool) -> None:
    db_url, said = reviewed
    extra = ["--include-filter-refusals"] if filter_refusals else []
    out = export(db_url, "preference", tmp_path / "dpo.jsonl", *extra)
    data = only_split(load(out, tmp_path)) if filter_refusals else \
        load(out, tmp_path)["train"]
    assert data.column_names == ["prompt", "chosen", "rejected"]
    for row in data:
        assert row["prompt"][-1]["role"] == "user"
        assert [m["role"] for m in row["chosen"]] == ["assistant"]
        assert [m["role"] for m in row["rejected"]] == ["assistant"]
        assert row["chosen"] != row["rejected"]
    pairs = pairs_of(out)
    assert len(pairs) == len(data) > 0
    for pair in pairs:  # never a rejected side the reviewer accepted
        assert said.get(pair["rejected"]) != "accept"
        assert said.get(pair["chosen"]) != "reject"
        if not filter_refusals:
            assert said[pair["rejected"]] == "reject"  # only refusals a reviewer confirmed
        chosen, rejected = (AttemptKeyParts(pair[side]) for side in ("chosen", "rejected"))
        assert chosen.turn_of == rejected.turn_of  # same conversation and turn: one context


class AttemptKeyParts:
    """RUN/CONVERSATION/TURN/ATTEMPT, without the attempt."""

    def __init__(self, key: str) -> None:
        self.turn_of = key.rsplit("/", 1)[0]


def test_openai_dpo(reviewed: tuple[str, dict[str, str]], tmp_path: Path) -> None:
    db_url, _ = reviewed
    out = export(db_url, "preference", tmp_path / "openai.jsonl", "--format", "openai-dpo",
                 "--include-filter-refusals")
    data = only_split(load(out, tmp_path))
    assert data.column_names == ["input", "preferred_output", "non_preferred_output"]
    trl = only_split(load(export(db_url, "preference", tmp_path / "trl.jsonl",
                                 "--include-filter-refusals"), tmp_path))
    for row, same in zip(data, trl, strict=True):
        assert list(row["input"]) == ["messages"]
        assert row["input"]["messages"] == same["prompt"]
        assert row["preferred_output"] == same["chosen"]
        assert row["non_preferred_output"] == same["rejected"]


def test_kto_labels(reviewed: tuple[str, dict[str, str]], tmp_path: Path) -> None:
    db_url, said = reviewed
    out = export(db_url, "preference", tmp_path / "kto.jsonl", "--format", "kto",
                 "--include-filter-refusals")
    data = only_split(load(out, tmp_path))
    assert data.column_names == ["prompt", "completion", "label"]
    assert {row["label"] for row in data} == {True, False}
    manifest = json.loads((tmp_path / "kto.jsonl.manifest.json").read_text())
    for entry, row in zip(manifest["examples"], data, strict=True):
        assert said.get(entry["key"]) != ("reject" if row["label"] else "accept")
    assert manifest["labels"] == {"true": sum(data["label"]),
                                  "false": len(data) - sum(data["label"])}
    chat = only_split(load(export(db_url, "dataset", tmp_path / "chat.jsonl"), tmp_path))
    assert sum(data["label"]) == len(chat)  # every exported answer is a "true"

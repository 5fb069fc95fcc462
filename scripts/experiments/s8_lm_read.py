"""Read base-rate verdicts with Gemma 3 270M (one pass per verdict): a mean-pooled
embedding of the rationale (conditioned on the criterion, not on the verdict) and a
zero-shot verifier's log-odds of « oui » vs « non » to "does the rationale support the
verdict?". Results appended to /tmp/s8-embed-cache/lm.jsonl (resumable).

    .venv/bin/python scripts/experiments/s8_lm_read.py [--floor -3] [--limit N]

Only verdicts whose current held-out log-odds z >= --floor are read (a second tier reads
candidates), highest z first, one text per (criterion, rationale, verdict side).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import s8_common as common

MODEL = common.ROOT / ".cache" / "models" / "gemma-3-270m-q4_k_m.gguf"
OUT = common.CACHE / "lm.jsonl"
KIND = {"success": "critère de réussite : « oui » veut dire que la réponse le remplit",
        "failure": "critère d'échec : « oui » veut dire que la réponse commet cette faute"}
YES = ["oui", "Oui", "yes", "Yes", "OUI"]
NO = ["non", "Non", "no", "No", "NON"]


def segments(item: dict) -> tuple[str, str, str]:
    prefix = (f"<start_of_turn>user\nCritère {item['criterion_id']} ({KIND[item['kind']]}) : "
              f"{item['criterion_text']}\n")
    rationale = f"Justification du juge : {item['rationale'].strip()}\n"
    meaning = ("la réponse est bonne sur ce critère" if item["verdict_good"]
               else "la réponse est fautive sur ce critère")
    question = (f"Verdict du juge : {item['verdict']} ({meaning}).\nLa justification "
                "soutient-elle ce verdict ? Réponds par oui ou non.<end_of_turn>\n"
                "<start_of_turn>model\n")
    return prefix, rationale, question


class Reader:
    def __init__(self) -> None:
        import llama_cpp
        from llama_cpp import Llama

        self.lc = llama_cpp
        self.m = Llama(model_path=str(MODEL), embedding=True, pooling_type=0, n_threads=1,
                       n_threads_batch=1, n_ctx=512, n_batch=512, verbose=False)
        self.ctx = self.m._ctx.ctx
        self.mem = llama_cpp.llama_get_memory(self.ctx)
        self.n_embd = self.m.n_embd()
        self.yes = [self.tok(w)[0] for w in YES]
        self.no = [self.tok(w)[0] for w in NO]
        self.cached: list[int] = []

    def tok(self, s: str, bos: bool = False) -> list[int]:
        return self.m.tokenize(s.encode(), add_bos=bos, special=True)

    def decode(self, tokens: list[int], start: int, want_embd: bool) -> tuple:
        lc = self.lc
        n = len(tokens)
        batch = lc.llama_batch_init(n, 0, 1)
        batch.n_tokens = n
        for i, t in enumerate(tokens):
            batch.token[i] = t
            batch.pos[i] = start + i
            batch.n_seq_id[i] = 1
            batch.seq_id[i][0] = 0
            batch.logits[i] = 1 if (want_embd or i == n - 1) else 0
        # Embeddings on only for the rationale: otherwise llama.cpp outputs (and projects
        # onto the 262k vocabulary) every token of the prefix and the question.
        lc.llama_set_embeddings(self.ctx, want_embd)
        if lc.llama_decode(self.ctx, batch) != 0:
            raise RuntimeError("decode failed")
        emb = None
        if want_embd:
            emb = np.mean([np.ctypeslib.as_array(lc.llama_get_embeddings_ith(self.ctx, i),
                                                 shape=(self.n_embd,)) for i in range(n)], axis=0)
        logits = np.ctypeslib.as_array(lc.llama_get_logits_ith(self.ctx, -1),
                                       shape=(self.m.n_vocab(),))
        out = (emb, np.array(logits[self.yes + self.no], dtype=np.float64))
        lc.llama_batch_free(batch)
        return out

    def read(self, item: dict) -> tuple[np.ndarray, float]:
        prefix, rationale, question = segments(item)
        ptoks = self.tok(prefix, bos=True)
        if ptoks != self.cached:  # the criterion's prefix is evaluated once, then kept
            self.lc.llama_memory_seq_rm(self.mem, 0, 0, -1)
            self.decode(ptoks, 0, False)
            self.cached = ptoks
        else:
            self.lc.llama_memory_seq_rm(self.mem, 0, len(ptoks), -1)
        rtoks = self.tok(rationale)
        emb, _ = self.decode(rtoks, len(ptoks), True)
        _, sel = self.decode(self.tok(question), len(ptoks) + len(rtoks), False)
        k = len(YES)
        lse = lambda a: float(np.log(np.sum(np.exp(a - a.max()))) + a.max())  # noqa: E731
        return emb, lse(sel[:k]) - lse(sel[k:])


def key(item: dict) -> str:
    return json.dumps([item["criterion_id"], item["rationale"], item["verdict_good"]],
                      ensure_ascii=False)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--floor", type=float, default=-3.0)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--cold", type=int, default=0,
                    help="only time N verdicts read with a cold prefix (the product's case)")
    args = ap.parse_args()
    if args.cold:
        import random

        pool = random.Random(0).sample(common.verdicts(), args.cold)
        reader = Reader()
        ms, toks = [], []
        for item in pool:
            reader.cached = []
            t = time.perf_counter()
            reader.read(item)
            ms.append((time.perf_counter() - t) * 1000)
            toks.append(sum(len(reader.tok(x)) for x in segments(item)))
        print(f"cold read of {args.cold} verdicts: median {np.median(ms):.0f} ms, mean "
              f"{np.mean(ms):.0f} ms, p90 {np.percentile(ms, 90):.0f} ms; "
              f"{np.mean(toks):.0f} tokens per verdict")
        return 0
    z = common.heldout_z()
    best: dict[str, tuple[float, dict]] = {}
    for item in common.verdicts():
        zi = z[item["id"]]
        if zi < args.floor:
            continue
        k = key(item)
        if k not in best or zi > best[k][0]:
            best[k] = (zi, item)
    done = set()
    if OUT.exists():
        done = {json.loads(line)["key"] for line in OUT.read_text("utf-8").splitlines()}
    todo = sorted((v for k, v in best.items() if k not in done), key=lambda v: -v[0])
    if args.limit:
        todo = todo[:args.limit]
    # Same criterion together keeps the prefix cache warm; order by z within blocks of 200.
    print(f"{len(best)} texts at z >= {args.floor}, {len(done)} done, {len(todo)} to read",
          file=sys.stderr)
    reader = Reader()
    with OUT.open("a", encoding="utf-8") as out:
        for b in range(0, len(todo), 200):
            block = sorted(todo[b:b + 200], key=lambda v: v[1]["criterion_id"])
            t0 = time.perf_counter()
            for zi, item in block:
                t = time.perf_counter()
                emb, yes_no = reader.read(item)
                out.write(json.dumps({"key": key(item), "z": zi, "yes_no": yes_no,
                                      "ms": (time.perf_counter() - t) * 1000,
                                      "emb": [round(float(x), 5) for x in emb]}) + "\n")
            out.flush()
            print(f"{b + len(block)}/{len(todo)} ({(time.perf_counter() - t0) / len(block) * 1000:.0f} ms/text)",
                  file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Leave-one-run-out evaluation of the LM features on the base-rate runs (aggregates only).

    .venv/bin/python scripts/experiments/s8_eval.py [--c 0.05]

For each held-out run R:
* an embedding reader: logistic regression on the Gemma embedding of (criterion, rationale)
  predicting "the rationale says the answer is good" (the target the shipped model learns),
  fitted on the distinct texts of the other runs; its log-odds, turned to "opposite of the
  verdict", is the feature ``o``. For the stacker's training rows (runs S != R) ``o`` comes
  from a reader fitted without R and S (nested), so nothing of R is seen.
* a stacker: logistic regression predicting contradiction from the current detector's
  held-out log-odds ``z`` (+ ``o`` and/or the verifier's yes/no log-odds ``v``), per side
  of the verdict (bad / good), fitted on the other runs' verdicts at their base rate.
* threshold: (1) p >= 0.5 of the stacker (calibrated at the base rate, the shipped rule);
  (2) the one with the best recall at precision >= 0.90 on the other runs' pooled
  (out-of-run) stacker scores, falling back to best F1.
Only verdicts with z >= the read floor carry LM features; below it nothing is flagged (the
current detector flags from z = 1.81 at the lowest).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler

sys.path.insert(0, str(Path(__file__).resolve().parent))
import s8_common as common
from s8_lm_read import OUT, key

RUNS = [f"dev_{c}" for c in "abcdefg"]


def emb_reader(texts: dict, keys: list[str], good: np.ndarray, c: float):
    x = np.array([texts[k]["emb"] for k in keys])
    scaler = StandardScaler().fit(x)
    lr = LogisticRegression(C=c, max_iter=5000).fit(scaler.transform(x), good)
    return lambda ks: lr.decision_function(scaler.transform(np.array([texts[k]["emb"] for k in ks])))


def text_key(item: dict) -> str:
    return key(item)


def stack_x(z, o, v, side, feats):
    cols = [np.ones_like(z)]
    for name, f in (("z", z), ("o", o), ("v", v)):
        if name in feats:
            cols.append(f)
    base = np.stack(cols, axis=1)
    return np.hstack([base * side[:, None], base * (1 - side)[:, None]])


def choose_threshold(p, y, target=0.90):
    order = np.argsort(-p)
    tp = np.cumsum(y[order])
    k = np.arange(1, len(p) + 1)
    prec, rec = tp / k, tp / max(y.sum(), 1)
    ok = prec >= target
    if ok.any():
        i = np.where(ok)[0][np.argmax(rec[ok])]
    else:
        f1 = 2 * prec * rec / np.maximum(prec + rec, 1e-9)
        i = int(np.argmax(f1))
    return p[order][i]


def best_recall_at(p, y, target=0.90):
    order = np.argsort(-p)
    tp = np.cumsum(y[order])
    prec = tp / np.arange(1, len(p) + 1)
    rec = tp / y.sum()
    ok = prec >= target
    return float(rec[ok].max()) if ok.any() else 0.0


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--c", type=float, default=0.05)
    args = ap.parse_args()
    z_all = common.heldout_z()
    items = common.verdicts()
    texts = {}
    for line in OUT.read_text("utf-8").splitlines():
        row = json.loads(line)
        texts[row["key"]] = row
    covered = np.array([text_key(i) in texts for i in items])
    z = np.array([z_all[i["id"]] for i in items])
    floor = max([zi for zi, c in zip(z, covered, strict=True) if not c and zi >= -3] + [-3.0]) + 1e-9
    sel = covered & (z >= floor)
    y = np.array([i["label"] == "contradiction" for i in items])
    print(f"LM read: {len(texts)} texts; floor z >= {floor:.2f}: {sel.sum()} verdicts, "
          f"{y[sel].sum()} of {y.sum()} contradictions", file=sys.stderr)
    run = np.array([i["run"] for i in items])
    side = np.array([0.0 if i["verdict_good"] else 1.0 for i in items])  # 1 = says bad
    sign = np.where(side == 1, 1.0, -1.0)  # "says good" log-odds -> opposite of verdict
    v = np.array([-texts[text_key(i)]["yes_no"] if s else 0.0 for i, s in zip(items, sel, strict=True)])

    def o_for(exclude: set[str], rows: np.ndarray) -> np.ndarray:
        keys, good, seen = [], [], set()
        for i, s in zip(items, sel, strict=True):
            if s and i["run"] not in exclude:
                k = (i["criterion_id"], i["rationale"].strip().lower())
                if k not in seen:
                    seen.add(k)
                    keys.append(text_key(i))
                    good.append(i["good"])
        reader = emb_reader(texts, keys, np.array(good), args.c)
        out = np.zeros(len(items))
        idx = np.where(rows & sel)[0]
        if len(idx) == 0:
            return out
        out[idx] = reader([text_key(items[j]) for j in idx]) * sign[idx]
        return out

    # o for each held-out run R (reader without R) and for each S != R (without R and S).
    o_single = np.zeros(len(items))
    o_nested: dict[tuple[str, str], np.ndarray] = {}
    for r in RUNS:
        o_single += o_for({r}, run == r)
        for s in RUNS:
            if s != r:
                o_nested[(r, s)] = o_for({r, s}, run == s)
    print("readers fitted", file=sys.stderr)

    from sklearn.metrics import roc_auc_score

    for sname, sv in (("says bad", 1.0), ("says good", 0.0)):
        m = sel & (side == sv)
        print(f"AUC for contradiction, {sname} verdicts read by the LM ({m.sum()}, "
              f"{y[m].sum()} contradictions): z {roc_auc_score(y[m], z[m]):.3f}, "
              f"embedding reader {roc_auc_score(y[m], o_single[m]):.3f}, "
              f"verifier {roc_auc_score(y[m], v[m]):.3f}")
        miss = m & y & (z < np.where(side == 1, 1.81, 5.64))
        print(f"   contradictions the shipped detector misses here: {miss.sum()}; "
              f"embedding reader says 'opposite' (o > 0) on {(o_single[miss] > 0).sum()}, "
              f"verifier says 'not supported' on {(v[miss] > np.median(v[m])).sum()} (above median)")
    configs = {"z only": {"z"}, "z + emb": {"z", "o"}, "z + verifier": {"z", "v"},
               "z + emb + verifier": {"z", "o", "v"}, "emb only": {"o"}}
    results = {}
    for name, feats in configs.items():
        flags = np.zeros(len(items), bool)
        flags05 = np.zeros(len(items), bool)
        score = np.full(len(items), -np.inf)
        per_run = {}
        for r in RUNS:
            train = sel & (run != r)
            o_train = sum(o_nested[(r, s)] for s in RUNS if s != r)
            xt = stack_x(z[train], o_train[train], v[train], side[train], feats)
            lr = LogisticRegression(C=1e4, fit_intercept=False, max_iter=10000).fit(xt, y[train])
            # threshold on the other runs' scores, each read without itself (o_single)
            pt = lr.decision_function(xt)
            thr = choose_threshold(pt, y[train])
            test = sel & (run == r)
            ph = lr.decision_function(stack_x(z[test], o_single[test], v[test], side[test], feats))
            score[test] = ph
            flags[test] = ph >= thr
            flags05[test] = ph >= 0.0
            tp = int((flags & y & (run == r)).sum())
            fl = int((flags & (run == r)).sum())
            per_run[r] = (tp / fl if fl else float("nan"), tp / y[run == r].sum())
        tp = int((flags & y).sum())
        prec, rec = tp / max(flags.sum(), 1), tp / y.sum()
        # oracle: best recall at P >= 0.90 per side-calibrated score pooled (held-out scores
        # of different runs are comparable: same model family, calibrated to probabilities)
        best = best_recall_at(score, y)
        by_side = {}
        for sname, sv in (("bad", 1.0), ("good", 0.0)):
            m = side == sv
            t = int((flags & y & m).sum())
            by_side[sname] = (t / max((flags & m).sum(), 1), t / y[m].sum())
        results[name] = (prec, rec, best, per_run, by_side)
        print(f"{name:20s} pooled P {prec:.3f} R {rec:.3f} (flagged {int(flags.sum())}, tp {tp}) "
              f"| best R at P>=0.90 {best:.3f} | bad P {by_side['bad'][0]:.3f} R {by_side['bad'][1]:.3f}"
              f" good P {by_side['good'][0]:.3f} R {by_side['good'][1]:.3f}")
        t5 = int((flags05 & y).sum())
        pr5 = [((flags05 & y & (run == r)).sum() / max((flags05 & (run == r)).sum(), 1),
                (flags05 & y & (run == r)).sum() / y[run == r].sum()) for r in RUNS]
        print(f"{'':20s} at p >= 0.5 (max-likelihood, as shipped): P {t5 / max(flags05.sum(), 1):.3f}"
              f" R {t5 / y.sum():.3f} (flagged {int(flags05.sum())}); per run "
              + " ".join(f"{r[-1]} {a:.2f}/{b:.2f}" for r, (a, b) in zip(RUNS, pr5, strict=True)))
        print("    per run P/R: " + "  ".join(f"{r[-1]} {p:.2f}/{q:.2f}" for r, (p, q) in per_run.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())

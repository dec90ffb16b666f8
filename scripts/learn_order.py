#!/usr/bin/env python3
"""Learn the final order's weights (search/rank.py ORDER_WEIGHTS) from query files (the format of
scripts/eval), against the library of MTGRULES_HOME: each query asked of the encoder is searched
with the final order left out, and for its best keys the features the order weighs are taken
(rank.order_features); a pairwise logistic regression then learns which weights put a key that
answers (every item of the expectation met by its records alone) above those that do not.
Prints the weights, and hit@3 of the files before and after, in sample and 5-fold
cross-validated (the queries shuffled with a fixed seed).

Only ever run it on tuning files: a frozen file learned from measures nothing.

Usage: MTGRULES_HOME=... scripts/learn-order [QUERYFILE...]
(default: eval/questions-tuning.tsv eval/judge-tuning.tsv eval/judges-queries.tsv)"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

import eval as relevance  # scripts/eval.py: the expectation's grammar and a query's rank
from search import payloads, rank
from search.results import Filters
from search.session import open_engine

ROOT = Path(__file__).resolve().parent.parent
TUNING = ("questions-tuning.tsv", "judge-tuning.tsv", "judges-queries.tsv")
L2 = 0.1
STEPS = 1000
FOLDS = 5


@dataclass
class Asked:
    """One query asked of the encoder: its best keys' features and results, before the order."""

    expect: str
    features: list[tuple[float, ...]]
    results: list[dict]  # the payload's results, in the order before the learned one
    answers: list[bool]  # whether each result alone meets the expectation


def queries(paths: list[Path]) -> list[tuple[str, str]]:
    rows = []
    for path in paths:
        for line in path.read_text("utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                _, query, _, expect, *_ = line.split("\t")
                rows.append((query, expect))
    return rows


def collect(rows: list[tuple[str, str]]) -> list[Asked]:
    seen: dict[str, list[tuple[str, tuple[float, ...]]]] = {}

    def observed(scores, lexical, dense, weights=rank.ORDER_WEIGHTS):  # type: ignore[no-untyped-def]
        seen["top"] = rank.order_features(rank.in_order(scores)[: rank.REORDERED], lexical, dense)
        return dict(scores)  # the order before the learned one

    rank.learned_order = observed  # type: ignore[assignment]
    asked = []
    with open_engine() as engine:
        for query, expect in rows:
            seen.clear()
            payload, _, _ = payloads.search(engine, query, Filters(), rank.REORDERED)
            if "top" not in seen:
                continue  # words only: the order does not apply
            results = {r["key"]: r for r in payload["results"]}
            top = [(key, f) for key, f in seen["top"] if key in results]
            shown = [results[key] for key, _ in top]
            answers = [relevance.rank(expect, [r]) == 1 for r in shown]
            asked.append(Asked(expect, [f for _, f in top], shown, answers))
    return asked


def learn(asked: list[Asked]) -> np.ndarray:
    """Weights that score each answering key above the others of its query (logistic loss on
    the pairs' feature differences, L2-regularised, by gradient descent)."""
    pairs = []
    for a in asked:
        if True in a.answers:
            best = np.array(a.features[a.answers.index(True)])
            pairs += [
                best - np.array(f) for f, ok in zip(a.features, a.answers, strict=True) if not ok
            ]
    differences = np.array(pairs)
    weights = np.zeros(differences.shape[1])
    for _ in range(STEPS):
        margin = differences @ weights
        gradient = -(differences * (1 / (1 + np.exp(margin)))[:, None]).mean(0)
        weights -= gradient + L2 * weights / len(differences)
    return weights


def hit3(asked: list[Asked], weights: np.ndarray | None) -> float:
    hits = 0
    for a in asked:
        order = range(len(a.results))
        if weights is not None:
            order = sorted(order, key=lambda i: -float(np.dot(weights, a.features[i])))
        found = relevance.rank(a.expect, [a.results[i] for i in order])
        hits += found is not None and found <= 3
    return hits / len(asked)


def main() -> int:
    paths = [Path(p) for p in sys.argv[1:]] or [ROOT / "eval" / name for name in TUNING]
    rows = queries(paths)
    asked = collect(rows)
    weights = learn(asked)
    shuffled = list(range(len(asked)))
    random.Random(0).shuffle(shuffled)
    validated = 0.0
    for fold in range(FOLDS):
        held = set(shuffled[fold::FOLDS])
        fitted = learn([a for i, a in enumerate(asked) if i not in held])
        validated += hit3([asked[i] for i in held], fitted) * len(held)
    print(f"{len(asked)} queries asked of the encoder, of {len(rows)}")
    print("ORDER_WEIGHTS = (" + ", ".join(f"{w:.2f}" for w in weights) + ")")
    print(
        f"hit@3 of those: before {hit3(asked, None):.2f}, learned {hit3(asked, weights):.2f}"
        f" in sample, {validated / len(asked):.2f} cross-validated ({FOLDS} folds)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Derive corpus/data/answered-questions.tsv, the questions whose answers the search already
knows, from the tuning query files (eval/*.tsv but the frozen ones): each question, the keys
that answer it (a CR rule numbered as English 2026-08-07, or a judge document's section), its
file and id. The encoder compares a query with these questions as well as with the rules: a
question asked again in other words ("si mi criatura muere, ¿qué le pasa al aura?") finds the
rule a question like it was answered with (search/meaning.py).

The frozen files (frozen-*.tsv) are never read, and a question one of them asks, word for
word, is left out: they measure what the search does with questions it has not seen.

Usage: scripts/derive-answered [OUT] (writes the file, or OUT; prints how many questions per
file)."""

from __future__ import annotations

import sys
from pathlib import Path

from indexer.answered import NUMBERED, asked_in, folded

ROOT = Path(__file__).resolve().parent.parent
EVAL = ROOT / "eval"
OUT = ROOT / "corpus" / "data" / "answered-questions.tsv"


def answers(expected: str) -> list[str]:
    """The answers of an expectation's first item: `en:704.5a|en:MTR 4.2|en:702.19*` ->
    704.5a, MTR 4.2, 702.19 (a rule or its subrules: the rule); a text to be found
    (`en~A player sees a card in a library`) stays as it is, for the build to find."""
    first = expected.split(";")[0]
    keys = [
        alternative.strip()
        if "~" in alternative.split(":", 1)[0]
        else alternative.split(":", 1)[-1].rstrip("*").strip()
        for alternative in first.split("|")
    ]
    return list(dict.fromkeys(k for k in keys if k))


def main() -> int:
    frozen = {folded(q) for path in EVAL.glob("frozen*.tsv") for _, q, _ in asked_in(path)}
    lines = [
        "# Questions the tuning files answer (scripts/derive-answered; eval/*.tsv but the frozen"
        " files, and none a frozen file asks).",
        f"# answers: the keys that answer it, CR rules numbered as English {NUMBERED}; lang~text:"
        " the text of the answer (the key of the record that has it, found by the build).",
        "# question\tanswers\tsource",
    ]
    seen: set[str] = set()
    for path in sorted(EVAL.glob("*.tsv")):
        if path.name.startswith("frozen"):
            continue
        kept = 0
        for qid, question, expected in asked_in(path):
            if folded(question) in frozen or folded(question) in seen or not answers(expected):
                continue
            seen.add(folded(question))
            lines.append(f"{question}\t{'|'.join(answers(expected))}\t{path.name}:{qid}")
            kept += 1
        print(f"{path.name}: {kept} questions", file=sys.stderr)
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else OUT
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{out}: {len(seen)} questions", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

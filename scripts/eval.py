#!/usr/bin/env python3
"""Run a query file (the format of ../shared/eval/dev-queries.tsv) through `mtgrules search
--json`; print each miss, `passed N/M`, and hit@1, hit@3 and MRR per language and per tag.
Exit 1 when any query misses.

An expectation is ';'-separated items that must all be among the records of the top k results;
an item may offer alternatives with '|' (`en:704|en:704.3`: the section or its rule), and a
number ending in '*' is a rule family (`en:104.3*`: 104.3 or any of its subrules); a judge
document's part is named by its key (`en:MTR 3.13`, `en:IPG 2.1`).
A query's rank is the first result by which every item is met; hit@1 and hit@3 count ranks 1
and up to 3, MRR averages 1/rank over the first 10 results (0 beyond). The language of a
query is its tag's first part (`es-question`: es), its kind the rest (question).

The development queries are about the embedded corpus, so by default they run in a fresh
temporary MTGRULES_HOME (the four seeds only); `--library` runs them against yours. The file's
own questions (by file name, or word for word) are left out of the answered questions the
encoder compares a query with (MTGRULES_ANSWERED_EXCLUDE, indexer/answered.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

DEPTH = 10  # results looked at for the rank
MTGRULES = Path(__file__).resolve().parent / "mtgrules"


def satisfied(item: str, records: list[dict]) -> bool:
    return any(_one(option, records) for option in item.split("|"))


def _one(item: str, records: list[dict]) -> bool:
    if "~" in item and (":" not in item or item.index("~") < item.index(":")):
        lang, text = item.split("~", 1)
        return any(r["lang"] == lang and text.lower() in r["text"].lower() for r in records)
    lang, number = item.split(":", 1)
    if number.endswith("*"):  # a rule and its subrules
        family = number[:-1]
        return any(r["lang"] == lang and _in_family(r["number"] or "", family) for r in records)
    if number[:4] in ("MTR ", "IPG ", "JAR "):  # a judge document's part: its key, not a number
        return any(r["lang"] == lang and r.get("key") == number for r in records)
    return any(r["lang"] == lang and r["number"] == number for r in records)


def _in_family(number: str, family: str) -> bool:
    """104.3k is of 104.3; 601.2b of 601."""
    if number == family:
        return True
    rest = number.removeprefix(family)
    return rest != number and (rest[:1].isalpha() or ("." not in family and rest[:1] == "."))


def rank(expect: str, results: list[dict]) -> int | None:
    """The first result count by which every item is met, or None."""
    items = expect.split(";")
    records: list[dict] = []
    for position, result in enumerate(results[:DEPTH], start=1):
        records.extend({**r, "key": result["key"]} for r in result["records"])
        if all(satisfied(item, records) for item in items):
            return position
    return None


def main() -> int:
    args = sys.argv[1:]
    own_library = "--library" in args
    args = [a for a in args if a != "--library"]
    if len(args) != 1:
        print("usage: scripts/eval [--library] QUERYFILE", file=sys.stderr)
        return 2
    path = Path(args[0])
    if own_library:
        return evaluate(path)
    with tempfile.TemporaryDirectory(prefix="mtgrules-eval-") as home:
        os.environ["MTGRULES_HOME"] = home
        prepare(Path(home))
        try:
            return evaluate(path)
        finally:
            # The searches' meaning daemon would write into the folder as it is removed.
            from search import meaning_daemon

            meaning_daemon.stop(Path(home))


def prepare(home: Path) -> None:
    """The temporary home's index, vectors and lemma tables, before the first query: left to
    the first search, they are prepared in the background and the first queries are asked of
    words alone."""
    from corpus import paths
    from corpus.model.lemmas import prepare as write_lemmas

    env = {**os.environ, "MTGRULES_MEANING": "inline"}
    subprocess.run([str(MTGRULES), "index"], env=env, check=True, capture_output=True)
    write_lemmas(paths.lemma_cache(home))


def evaluate(path: Path) -> int:
    if not path.is_file():
        print(f"{path}: no such query file", file=sys.stderr)
        return 2
    # The file's own questions are left out of the answered questions (corpus/data/answered-
    # questions.tsv, made from the tuning files): a file is never measured on its own answers.
    # In process (no meaning daemon), whose answered questions would be every one.
    os.environ["MTGRULES_ANSWERED_EXCLUDE"] = str(path.resolve())
    os.environ["MTGRULES_MEANING_DAEMON"] = "off"
    print(f"answered questions: those of {path.name} left out", file=sys.stderr)
    total = passed = 0
    ranks: dict[str, list[int | None]] = defaultdict(list)
    for line in path.read_text("utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        qid, query, k, expect, *rest = line.split("\t")
        tag = rest[0] if rest else "-"
        total += 1
        run = subprocess.run(
            [str(MTGRULES), "search", "--json", "--limit", str(max(int(k), DEPTH)), query],
            capture_output=True,
            text=True,
            check=False,
        )
        results = json.loads(run.stdout).get("results", []) if run.stdout.strip() else []
        found = rank(expect, results)
        groups = {f"lang {tag.split('-')[0]}", f"tag {tag}", "all"}
        if "-" in tag:
            groups.add(f"kind {tag.split('-', 1)[1]}")  # term, question... in every language
        for group in groups:
            ranks[group].append(found)
        if found is None or found > int(k):
            got = ", ".join(result["key"] for result in results[: int(k)]) or "nothing"
            print(f"MISS {qid} {query!r}: expected {expect}; got {got}")
        else:
            passed += 1
    print(f"passed {passed}/{total}")
    print(f"{'group':<24} {'n':>4} {'hit@1':>6} {'hit@3':>6} {'MRR':>6}")
    for group in sorted(ranks, key=lambda g: (g == "all", g)):
        found = ranks[group]
        n = len(found)
        hit1 = sum(r == 1 for r in found) / n
        hit3 = sum(r is not None and r <= 3 for r in found) / n
        mrr = sum(1 / r for r in found if r is not None) / n
        print(f"{group:<24} {n:>4} {hit1:>6.2f} {hit3:>6.2f} {mrr:>6.2f}")
    return 0 if passed == total else 1


if __name__ == "__main__":
    sys.exit(main())

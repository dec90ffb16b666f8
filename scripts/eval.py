#!/usr/bin/env python3
"""Run a query file (the format of ../shared/eval/dev-queries.tsv) through `mtgrules search
--json`; print each miss and `passed N/M`. Exit 1 when any query misses.

The development queries are about the embedded corpus, so by default they run in a fresh
temporary MTGRULES_HOME (the four seeds only); `--library` runs them against yours."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path


def satisfied(item: str, records: list[dict]) -> bool:
    if "~" in item and (":" not in item or item.index("~") < item.index(":")):
        lang, text = item.split("~", 1)
        return any(r["lang"] == lang and text.lower() in r["text"].lower() for r in records)
    lang, number = item.split(":", 1)
    return any(r["lang"] == lang and r["number"] == number for r in records)


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
        return evaluate(path)


def evaluate(path: Path) -> int:
    if not path.is_file():
        print(f"{path}: no such query file", file=sys.stderr)
        return 2
    mtgrules = Path(__file__).resolve().parent / "mtgrules"
    total = passed = 0
    for line in path.read_text("utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        qid, query, k, expect, *_ = line.split("\t")
        total += 1
        run = subprocess.run(
            [str(mtgrules), "search", "--json", "--limit", k, query],
            capture_output=True,
            text=True,
            check=False,
        )
        results = json.loads(run.stdout)["results"] if run.stdout.strip() else []
        records = [r for result in results[: int(k)] for r in result["records"]]
        missing = [item for item in expect.split(";") if not satisfied(item, records)]
        if missing:
            got = ", ".join(result["key"] for result in results[: int(k)]) or "nothing"
            print(f"MISS {qid} {query!r}: expected {'; '.join(missing)}; got {got}")
        else:
            passed += 1
    print(f"passed {passed}/{total}")
    return 0 if passed == total else 1


if __name__ == "__main__":
    sys.exit(main())

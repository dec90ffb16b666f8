"""Numbering checks on one document: duplicates, order, subrule letters l and o."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import pairwise

from corpus.numbers import RuleNumber, sort_key
from corpus.records import Record


def numbering_warnings(records: Sequence[Record]) -> list[str]:
    rules = [r for r in records if r.kind == "rule" and r.number]
    warnings = []
    counts = Counter(r.number for r in rules)
    for number, count in counts.items():
        if count > 1:
            lines = ", ".join(str(r.lines[0]) for r in rules if r.number == number)
            warnings.append(f"rule {number} is numbered {count} times (lines {lines}); all kept")
    for before, after in pairwise(rules):
        assert before.number and after.number
        if sort_key(after.number) < sort_key(before.number):
            warnings.append(
                f"rule {after.number} (line {after.lines[0]}) comes after {before.number}: "
                "out of order"
            )
    for rule in rules:
        assert rule.number
        parsed = RuleNumber.of(rule.number)
        if parsed and parsed.has_bad_letter:
            warnings.append(f"rule {rule.number} (line {rule.lines[0]}) uses subrule letter l or o")
    return warnings

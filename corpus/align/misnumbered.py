"""Misprinted numbers in a translation numbered as an English edition: a rule printed with a
number the document has already used (the Spanish CR prints 123.6e as a second 123.6d, and
the Clue token, 111.10f, as 111.10b) is keyed as the number its place calls for, when the
document prints that number nowhere and the English edition it follows has it. Its printed
number stays in `number`; `check` still reports the duplicate, saying how it was read."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from corpus.model.numbers import RuleNumber, sort_key
from corpus.model.records import Record


def successors(previous: RuleNumber) -> list[str]:
    """The numbers a rule printed after `previous` can have: its next subrule (or its first
    subrule), then the next rule."""
    if previous.rule is None:
        return []  # after a section heading the document's own numbers leave no doubt
    first = previous.after() or RuleNumber(previous.section, previous.rule, "a")
    return [str(first), f"{previous.section}.{previous.rule + 1}"]


def corrected_parts(records: Sequence[Record], english: Iterable[str]) -> dict[int, str]:
    """seq -> corrected key of one document's misnumbered rules (`corrected_numbers`) and of
    the examples printed under them, records in print order."""
    rules = [r for r in records if r.kind == "rule" and r.number]
    corrected = corrected_numbers(rules, english)
    if not corrected:
        return corrected
    parts = dict(corrected)
    under: tuple[str, str] | None = None  # (printed number, corrected key) of the rule above
    for record in records:
        if record.kind == "rule":
            key = corrected.get(record.seq)
            under = (record.number or "", key) if key else None
        elif under and record.parent == under[0]:
            parts[record.seq] = under[1]
    return parts


def corrected_numbers(rules: Sequence[Record], english: Iterable[str]) -> dict[int, str]:
    """seq -> the number a number printed twice stands for where it is out of place, for one
    document's rules in print order, against the numbers of the English edition it follows."""
    known = set(english)
    times = Counter(r.number for r in rules if r.number)
    printed = set(times)
    seen: set[str] = set()
    corrected: dict[int, str] = {}
    previous: str | None = None
    for at, rule in enumerate(rules):
        number = rule.number or ""
        after = RuleNumber.of(previous) if previous else None
        here = RuleNumber.of(number)
        # The repeat, or the first of two printings where it cannot follow the rule before it
        # (the Spanish 702.11d printed 702.16i, among 702.11's subrules).
        misplaced = bool(times[number] > 1 and here and after and not here.can_follow(after))
        if after is not None and (number in seen or misplaced):
            following = rules[at + 1].number if at + 1 < len(rules) else None
            for candidate in successors(after):
                fits = following is None or sort_key(candidate) < sort_key(following)
                if candidate not in printed and candidate in known and fits:
                    corrected[rule.seq] = candidate
                    printed.add(candidate)
                    number = candidate
                    break
        seen.add(rule.number or "")
        previous = number
    return corrected

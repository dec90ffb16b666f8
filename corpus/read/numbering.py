"""Numbering checks on one document, in the order it prints its rules: duplicated numbers,
numbers out of order, gaps in subrule letters, and the letters l and o, which the CR skips.
Ingestion reports them as a document's warnings; `mtgrules check` as problems."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from corpus.model.numbers import RuleNumber, sort_key
from corpus.model.records import TYPED, Record


@dataclass(frozen=True)
class Problem:
    source: str
    number: str | None
    check: str  # duplicate, order, gap, letter, typed; and in corpus.qa: missing, extra, names,
    # list, references, absent, translator-note, untranslated
    message: str


SHOWN_LINES = 10  # line numbers a duplicate's message lists


def numbering_problems(records: Sequence[Record]) -> list[Problem]:
    """The numbering problems of one document's rules, as printed (records in document order)."""
    rules = [r for r in records if r.kind == "rule" and r.number]
    problems = []
    where: dict[str, list[str]] = {}
    for rule in rules:  # one pass: a scan per duplicated number was quadratic
        assert rule.number
        where.setdefault(rule.number, []).append(str(rule.lines[0]))
    for number, at in where.items():
        count = len(at)
        if count > 1:
            # A hostile file repeats one rule 100,000 times: a warning stays one short line.
            more = f" and {len(at) - SHOWN_LINES:,} more" if len(at) > SHOWN_LINES else ""
            lines = ", ".join(at[:SHOWN_LINES]) + more
            message = f"{number} is numbered {count:,} times (lines {lines}); all kept"
            read = [
                f"line {r.lines[0]} read as {r.key}"
                for r in rules
                if r.number == number and "misnumbered" in r.flags
            ]
            if read:  # corpus/align/misnumbered.py: the number its place calls for
                message += f", {', '.join(read)} (the number its place calls for)"
            problems.append(Problem(rules[0].source, number, "duplicate", message))
    for before, after in pairwise(rules):
        assert before.number and after.number
        if sort_key(after.number) < sort_key(before.number):
            message = f"{after.number} (line {after.lines[0]}) comes after {before.number}"
            problems.append(Problem(after.source, after.number, "order", message))
    seen: set[str] = set()
    for rule in rules:
        assert rule.number
        parsed = RuleNumber.of(rule.number)
        if parsed and parsed.has_bad_letter:
            message = f"{rule.number} (line {rule.lines[0]}) uses subrule letter l or o"
            problems.append(Problem(rule.source, rule.number, "letter", message))
        previous = parsed.before() if parsed else None
        # A catalogue's entry (its msgid kept as `original`) lacks a number where an entry is
        # untranslated: `check` counts those as untranslated, not as gaps in its numbering.
        if previous and str(previous) not in seen and not rule.original:
            message = f"{rule.number} without {previous} before it"
            problems.append(Problem(rule.source, rule.number, "gap", message))
        seen.add(rule.number)
        if "misnumbered" in rule.flags:  # 111.10b printed for 111.10f: 111.10g follows it
            seen.add(rule.key)
        for flag in rule.flags:
            if flag.startswith(TYPED):  # corpus/read/layouts/gettext.py: a msgstr's typo
                message = (
                    f"msgstr numbered {flag.removeprefix(TYPED)} where its msgid is "
                    f"{rule.number} (line {rule.lines[0]}); kept as {rule.number}"
                )
                problems.append(Problem(rule.source, rule.number, "typed", message))
    return problems


def numbering_warnings(records: Sequence[Record]) -> list[str]:
    """A document's numbering problems as the warnings ingestion reports (gaps aside: a
    fragment of the rules has them by design)."""
    return [
        f"rule {p.message}" + (": out of order" if p.check == "order" else "")
        for p in numbering_problems(records)
        if p.check not in ("gap", "typed")  # a catalogue's typo: its parser says it already
    ]

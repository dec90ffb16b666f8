"""Checks for translators: numbering problems in a document and translated rules that disagree
with their English counterpart (named items, list items, cited rules)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from corpus.numbers import RULE_NUMBER, SUBRULE_LETTERS, sort_key
from corpus.records import Record
from corpus.terms import list_items, parenthesized_terms
from corpus.text import fold

CITED = re.compile(r"\b(\d{3}(?:\.\d+[a-z]{0,2})?)\b")


@dataclass(frozen=True)
class Problem:
    source: str
    number: str | None
    check: str  # duplicate, gap, order, names, list, references
    message: str


def numbering_problems(rules: Sequence[Record]) -> list[Problem]:
    """Duplicated numbers, numbers out of order, and gaps in subrule letters."""
    problems: list[Problem] = []
    seen: set[str] = set()
    previous: Record | None = None
    for rule in rules:
        number = rule.number or ""
        if number in seen:
            problems.append(Problem(rule.source, number, "duplicate", f"{number} appears twice"))
        seen.add(number)
        if previous and sort_key(number) < sort_key(previous.number or ""):
            problems.append(
                Problem(rule.source, number, "order", f"{number} comes after {previous.number}")
            )
        match = RULE_NUMBER.fullmatch(number)
        if match and match["letters"] and len(match["letters"]) == 1:
            letter = match["letters"]
            if letter in SUBRULE_LETTERS and SUBRULE_LETTERS.index(letter) > 0:
                before = number[:-1] + SUBRULE_LETTERS[SUBRULE_LETTERS.index(letter) - 1]
                if before not in seen:
                    problems.append(
                        Problem(rule.source, number, "gap", f"{number} without {before} before it")
                    )
        previous = rule
    return problems


def translation_problems(record: Record, english: Record) -> list[Problem]:
    """Where a translated rule and its English counterpart disagree."""
    problems: list[Problem] = []
    number = record.number

    def add(check: str, message: str) -> None:
        problems.append(Problem(record.source, number, check, message))

    english_text = fold(english.text)
    named = [t.english for t in parenthesized_terms(record)]
    missing = [name for name in named if fold(name) not in english_text]
    if missing:
        add("names", f"English names not in English {english.number}: {', '.join(missing)}")
    mine, theirs = list_items(record.text), list_items(english.text)
    if mine and theirs and len(mine) != len(theirs):
        add("list", f"{len(mine)} list items here, {len(theirs)} in English {english.number}")
    cited_here = set(CITED.findall(record.text)) - {number}
    cited_there = set(CITED.findall(english.text)) - {english.number}
    if cited_here != cited_there:
        extra = sorted(cited_here - cited_there, key=sort_key)
        lacking = sorted(cited_there - cited_here, key=sort_key)
        parts = []
        if extra:
            parts.append(f"cites {', '.join(extra)} which English does not")
        if lacking:
            parts.append(f"does not cite {', '.join(lacking)}")
        add("references", "; ".join(parts))
    return problems

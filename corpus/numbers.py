"""Rule numbers: parsing, ordering, subrule letters, cross-references."""

from __future__ import annotations

import re
from string import ascii_lowercase

# 205, 205.1, 205.1a, 704.5aa; with an optional trailing dot as printed.
RULE_NUMBER = re.compile(r"(?P<section>\d{3})(?:\.(?:(?P<rule>\d+)(?P<letters>[a-z]{0,2}))?)?")
NUMBER_QUERY = re.compile(r"^\s*(\d{1,3})(?:\.(\d+)([a-z]{0,2}))?(\.?)\s*$")

# Subrule letters skip l and o (they read as 1 and 0).
SUBRULE_LETTERS = tuple(c for c in ascii_lowercase if c not in "lo")


def subrule_letter(index: int) -> str:
    """The index-th subrule letter: a, b, ... k, m, n, p, ... z, aa, ab, ..."""
    n = len(SUBRULE_LETTERS)
    if index < n:
        return SUBRULE_LETTERS[index]
    first, second = divmod(index - n, n)
    return SUBRULE_LETTERS[first] + SUBRULE_LETTERS[second]


def sort_key(number: str) -> tuple[int, int, int, str]:
    """Order rule numbers as the CR does: 704.5z before 704.5aa, 205 before 205.1."""
    number = number.rstrip(".")
    if number.isdigit() and len(number) == 1:  # a chapter: "1. Game Concepts" before 100
        return (int(number) * 100, -2, 0, "")
    match = RULE_NUMBER.fullmatch(number)
    if not match:
        return (10_000, 0, 0, number)
    rule = int(match["rule"]) if match["rule"] else -1
    letters = match["letters"] or ""
    return (int(match["section"]), rule, len(letters), letters)


def parent_of(number: str) -> str | None:
    """205.4d -> 205.4, 205.4 -> 205, 205 -> None."""
    match = RULE_NUMBER.fullmatch(number)
    if not match or not match["rule"]:
        return None
    if match["letters"]:
        return f"{match['section']}.{match['rule']}"
    return match["section"]


def has_bad_letter(number: str) -> bool:
    match = RULE_NUMBER.fullmatch(number)
    return bool(match and match["letters"] and set(match["letters"]) & {"l", "o"})

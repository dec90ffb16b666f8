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


def depth(number: str) -> int:
    """0 for chapters and sections, 1 for rules, 2 for subrules."""
    match = RULE_NUMBER.fullmatch(number)
    if not match or not match["rule"]:
        return 0
    return 2 if match["letters"] else 1


def has_bad_letter(number: str) -> bool:
    match = RULE_NUMBER.fullmatch(number)
    return bool(match and match["letters"] and set(match["letters"]) & {"l", "o"})


def _letter_index(letters: str) -> int:
    """a -> 0, b -> 1, ... (skipping l and o), aa -> 24 ...; -1 for no letters."""
    if not letters:
        return -1
    if len(letters) == 1:
        return SUBRULE_LETTERS.index(letters) if letters in SUBRULE_LETTERS else ord(letters) - 97
    first, second = (_letter_index(c) for c in letters)
    return len(SUBRULE_LETTERS) * (first + 1) + second


GAP = 3  # numbers a translation may skip and still be read as going on (111.10e -> 111.10g)


def can_follow(previous: str, candidate: str) -> bool:
    """Whether `candidate` can be the next number printed after `previous` in a rules document:
    the next subrule, the first subrule, the next rule, the next section (a few skipped numbers
    allowed). A wrapped line that starts with a cited number ("Ver la regla\\n117.3a. …") is
    none of these, so it continues the rule it is in."""
    prev, cand = RULE_NUMBER.fullmatch(previous), RULE_NUMBER.fullmatch(candidate)
    if prev is None or cand is None:
        return False
    section, next_section = int(prev["section"]), int(cand["section"])
    if next_section != section:
        next_hundred = (section // 100 + 1) * 100
        same_chapter = section < next_section <= section + GAP
        return (same_chapter or next_section == next_hundred) and (cand["rule"] or "1") == "1"
    if not cand["rule"]:
        return False
    rule, next_rule = int(prev["rule"] or 0), int(cand["rule"])
    letters, next_letters = prev["letters"] or "", cand["letters"] or ""
    if next_rule == rule and prev["rule"]:
        gap = _letter_index(next_letters) - _letter_index(letters)
        return bool(next_letters) and 0 < gap <= GAP
    return rule < next_rule <= rule + GAP and not next_letters


# A rule number cited in a text ("vedi regola 704.5j", "See rule 117"): the one pattern.
CITATION = re.compile(r"\b(\d{3}(?:\.\d+[a-z]{0,2})?)\b")


def cited_numbers(text: str) -> list[str]:
    """The rule numbers a text cites, in order."""
    return CITATION.findall(text)

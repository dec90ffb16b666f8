"""Rule numbers: one value type for every number the product reads, stores, orders or cites.

A number is a chapter (``1``), a section (``205``), a rule (``205.4``) or a subrule
(``205.4d``, ``704.5aa``). Records keep the canonical text; code that needs a number's parts,
order, parent or neighbours asks `RuleNumber`."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from corpus.model.documents import is_judge_key
from corpus.model.documents import sort_key as judge_sort_key

# The canonical form as stored: 205, 205.1, 205.1a, 704.5aa; "205." as printed before a title.
_CANONICAL = re.compile(
    r"(?P<section>\d{3})(?:\.(?:(?P<rule>\d+)(?P<letters>[a-z]{0,2}))?)?", re.ASCII
)
# How people write one: "rule 205.3i", "regola", "règle", "regla", "CR", "r.", any case, a
# decimal comma ("205,3i"), a trailing dot ("205.4." = the rule alone).
_WRITTEN_PREFIX = re.compile(
    r"^\s*(?:rules?|regola|regole|r[èe]gles?|reglas?|cr|r\.)\s*", re.IGNORECASE
)
_WRITTEN = re.compile(r"(\d{3})(?:[.,](\d+)([a-z]{0,2}))?\.?", re.ASCII)
# Spaces typed inside one ("704 .5j", "704. 5j", "704.5 j"): the number without them.
_WRITTEN_SPACES = re.compile(r"\s*([.,])\s*(?=\d)|(?<=\d)\s+(?=[a-z]{1,2}\.?$)", re.ASCII)

# A rule number cited in a text ("vedi regola 704.5j", "See rule 117"): the one pattern.
CITATION = re.compile(r"\b([0-9]{3}(?:\.[0-9]+[a-z]{0,2})?)\b")

# Subrule letters skip l and o (they read as 1 and 0).
SUBRULE_LETTERS = tuple(c for c in "abcdefghijklmnopqrstuvwxyz" if c not in "lo")

GAP = 3  # numbers a translation may skip and still be read as going on (111.10e -> 111.10g)


@dataclass(frozen=True)
class RuleNumber:
    """The parts of a chapter, section, rule or subrule number."""

    section: int  # 205; a chapter's digit for a chapter
    rule: int | None = None
    letters: str = ""
    chapter: bool = False

    @staticmethod
    def of(text: str) -> RuleNumber | None:
        """The number a record stores (``205.4d``, ``205``, ``1``), or None for any other key."""
        return _stored(text)

    @staticmethod
    def written(text: str) -> RuleNumber | None:
        """A number as people write it ("Rule 205.4D", "regla 205,4d", "205.4.", "704 .5j"), or
        None."""
        text = _WRITTEN_PREFIX.sub("", text, count=1).strip().lower()
        text = _WRITTEN_SPACES.sub(lambda m: m[1] or "", text)
        match = _WRITTEN.fullmatch(text)
        if not match:
            return None
        section, rule, letters = match.groups()
        return RuleNumber(int(section), int(rule) if rule else None, letters or "")

    def __str__(self) -> str:
        if self.chapter or self.rule is None:
            return str(self.section)
        return f"{self.section}.{self.rule}{self.letters}"

    @property
    def depth(self) -> int:
        """0 for chapters and sections, 1 for rules, 2 for subrules."""
        if self.rule is None:
            return 0
        return 2 if self.letters else 1

    @property
    def parent(self) -> RuleNumber | None:
        """205.4d -> 205.4, 205.4 -> 205, 205 -> None."""
        if self.rule is None:
            return None
        if self.letters:
            return RuleNumber(self.section, self.rule)
        return RuleNumber(self.section)

    @property
    def in_section(self) -> str:
        """The section a number is in: 205 for 205.4d; empty for a chapter."""
        return "" if self.chapter else str(self.section)

    @property
    def place(self) -> str:
        """What a number keeps under its parent: a subrule's letters, a rule's own number."""
        if self.depth == 2:
            return self.letters
        return str(self.rule) if self.depth == 1 else str(self)

    @property
    def sort_key(self) -> tuple[int, int, int, str]:
        """The CR's order: 704.5z before 704.5aa, 205 before 205.1, chapter 1 before 100."""
        if self.chapter:
            return (self.section * 100, -2, 0, "")
        rule = -1 if self.rule is None else self.rule
        return (self.section, rule, len(self.letters), self.letters)

    @property
    def has_bad_letter(self) -> bool:
        """A subrule lettered l or o, which the CR never uses."""
        return bool(set(self.letters) & {"l", "o"})

    def within(self, other: RuleNumber) -> bool:
        """This number is `other` or one of its rules or subrules: 205.4d is within 205.4."""
        number: RuleNumber | None = self
        while number is not None:
            if number == other:
                return True
            number = number.parent
        return False

    def before(self) -> RuleNumber | None:
        """The subrule printed just before a one-letter subrule: 205.4d -> 205.4c; else None."""
        if len(self.letters) != 1 or self.letters not in SUBRULE_LETTERS[1:]:
            return None
        letter = SUBRULE_LETTERS[SUBRULE_LETTERS.index(self.letters) - 1]
        return RuleNumber(self.section, self.rule, letter)

    def after(self) -> RuleNumber | None:
        """The subrule printed just after a subrule: 205.4c -> 205.4d, 205.4z -> 205.4aa."""
        if self.rule is None or not self.letters:
            return None
        letters = subrule_letter(_letter_index(self.letters) + 1)
        return RuleNumber(self.section, self.rule, letters)

    def can_follow(self, previous: RuleNumber) -> bool:
        """Whether this number can be the next one printed after `previous` in a rules
        document: the next subrule, the first subrule, the next rule, the next section (a few
        skipped numbers allowed). A wrapped line that starts with a cited number ("Ver la
        regla\\n117.3a. …") is none of these, so it continues the rule it is in."""
        if self.chapter or previous.chapter:
            return False
        if self.section != previous.section:
            next_hundred = (previous.section // 100 + 1) * 100
            same_chapter = previous.section < self.section <= previous.section + GAP
            return (same_chapter or self.section == next_hundred) and self.rule in (None, 1)
        if self.rule is None:
            return False
        rule = previous.rule or 0
        if self.rule == rule and previous.rule is not None:
            gap = _letter_index(self.letters) - _letter_index(previous.letters)
            return bool(self.letters) and 0 < gap <= GAP
        return rule < self.rule <= rule + GAP and not self.letters


@cache
def _stored(text: str) -> RuleNumber | None:
    text = text.rstrip(".")
    if len(text) == 1 and text in "123456789":
        return RuleNumber(int(text), chapter=True)
    match = _CANONICAL.fullmatch(text)
    if not match:
        return None
    rule = int(match["rule"]) if match["rule"] else None
    return RuleNumber(int(match["section"]), rule, match["letters"] or "")


def subrule_letter(index: int) -> str:
    """The index-th subrule letter: a, b, ... k, m, n, p, ... z, aa, ab, ..."""
    n = len(SUBRULE_LETTERS)
    if index < n:
        return SUBRULE_LETTERS[index]
    first, second = divmod(index - n, n)
    return SUBRULE_LETTERS[first] + SUBRULE_LETTERS[second]


def _letter_index(letters: str) -> int:
    """a -> 0, b -> 1, ... (skipping l and o), aa -> 24 ...; -1 for no letters."""
    if not letters:
        return -1
    if len(letters) == 1:
        return SUBRULE_LETTERS.index(letters) if letters in SUBRULE_LETTERS else ord(letters) - 97
    first, second = (_letter_index(c) for c in letters)
    return len(SUBRULE_LETTERS) * (first + 1) + second


# Shorthands for code that holds a record's key (a number, a mechanic's name, NUMBER@FILE).


@cache
def sort_key(key: str) -> tuple[int, int, int, str]:
    """A key's place in the CR's order; keys that are not numbers go last, by name, and the
    judges' documents' keys after them, in their own order (corpus/model/documents.py)."""
    number = RuleNumber.of(key)
    if number:
        return number.sort_key
    return judge_sort_key(key) if is_judge_key(key) else (10_000, 0, 0, key)


@cache
def parent_of(key: str) -> str | None:
    number = RuleNumber.of(key)
    parent = number.parent if number else None
    return str(parent) if parent else None


@cache
def depth(key: str) -> int:
    number = RuleNumber.of(key)
    return number.depth if number else 0


@cache
def section_of(key: str) -> str:
    """The section a key is in (205 for 205.4d and for a translation's own 205.3d@FILE),
    empty when the key is not a rule number."""
    number = RuleNumber.of(key.partition("@")[0])
    return number.in_section if number else ""


def cited_numbers(text: str) -> list[str]:
    """The rule numbers a text cites, in order; a decimal comma ("regla 100,7", as the Spanish
    PDF prints some) is the rule's point."""
    return [number.replace(",", ".") for number in _CITED.findall(text)]


_CITED = re.compile(r"\b([0-9]{3}(?:[.,][0-9]+[a-z]{0,2})?)\b")

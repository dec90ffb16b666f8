"""A query's text: its tokens, its validation, the rule number it may be."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from corpus.model.numbers import RuleNumber
from search.errors import QueryError

MAX_QUERY_CHARS = 500
OPERATORS = {"AND", "OR", "NOT", "ANDNOT", "ANDMAYBE"}
# Elided articles and prepositions: l'artefatto, dell'abilità, d'artefacts, qu'un.
ELISION = re.compile(r"^(?:l|d|dell|nell|all|dall|sull|un|qu|j|n|s|c|m|t)['’]", re.IGNORECASE)
TOKEN = re.compile(r'"[^"]*"|\(|\)|[^\s()"]+')


@dataclass(frozen=True)
class NumberQuery:
    """205.4d (the subrule), 205.4 (with subrules), 205.4. (alone), 205 (the section)."""

    rule: RuleNumber
    alone: bool

    @property
    def number(self) -> str:
        return str(self.rule)

    @property
    def is_section(self) -> bool:
        return self.rule.depth == 0

    def covers(self, key: str) -> bool:
        """Whether a record's key is part of the answer: the rule and, unless it was asked
        alone, its subrules (all of a section)."""
        if self.is_section or self.alone:
            return True
        number = RuleNumber.of(key)
        return number is not None and number.within(self.rule)


def as_number(text: str) -> NumberQuery | None:
    """A rule number as people write it ("Rule 205.4D", "regla 205,4d"), or None. A star after
    it ("205.4*") asks for the rule with its subrules, as the number alone does."""
    family = text.rstrip().removesuffix("*")
    rule = RuleNumber.written(family)
    if rule is None:
        return None
    alone = rule.depth > 0 and family == text.rstrip() and family.endswith(".")
    return NumberQuery(rule, alone=alone)


_QUESTION_MARKS = re.compile(r"[¿¡]|(?<!\S)[?!]+(?!\S)|(?<=[^\W\d_])[?!]+(?=\s|$)")


_ENDING_MARKS = re.compile(r"[?!]+\s*$")


def without_question_marks(text: str) -> str:
    """ "¿qué pasa si …?" without its question marks: a '?' that ends a word is punctuation,
    not a wildcard, and so is one that ends a query of several words ("escrutar 2?")."""
    text = _QUESTION_MARKS.sub("", text)
    return _ENDING_MARKS.sub("", text) if len(text.split()) > 1 else text


def without_bare_parentheses(text: str) -> str:
    """A query's parentheses as punctuation when it has no operator for them to group: a
    question says "(REL Regular)" as an aside, and as a group its words were all required."""
    tokens = TOKEN.findall(text)
    if ("(" not in tokens and ")" not in tokens) or any(t in OPERATORS for t in tokens):
        return text
    return " ".join(t for t in tokens if t not in "()")


# A filter typed as a word, as some search boxes take it ("kind:rule trample"): here it is an
# option, and searched as words it would match nothing and say so confusingly. Compiled only
# for a query with a colon: every search and show imports this module.
_FILTER_AS_WORD = r"(?<!\S)(kind|lang|doc|edition):(\S+)"
# A rule number asked for with the word for rule ("rule 9999", "regola 2O5.4"): a number or not.
# Compiled only for a query with a digit in it, as the pattern above.
_NUMBER_ASKED = r"(?:rules?|regola|regole|r[èe]gles?|reglas?|cr)\s+\d[\w.,]*\*?"


def not_utf8(text: str) -> str | None:
    """Why words the shell passed are not UTF-8 (their bytes of another encoding), else None:
    every command that takes words says it so."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        shown = text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")[:40]
        return f"{shown!r} is not valid UTF-8; type it again or set a UTF-8 locale"
    return None


_CONTROL = r"[\t\n\r\x0b\x0c\x1c-\x1f\x85\u2028\u2029]"  # line and field breaks: spaces
_INVISIBLE = r"[\x00-\x08\x0e-\x1b\x7f-\x84\x86-\x9f\u00ad\u200b-\u200d\u2060\ufeff]"


def validate(text: str) -> str:
    if (undecoded := not_utf8(text)) is not None:
        raise QueryError(f"query {undecoded}")
    # Invisible characters a copy leaves inside words ("tram\x01ple", a zero-width space, a
    # soft hyphen): gone, as the reader never saw them; other controls are spaces.
    text = re.sub(_INVISIBLE, "", re.sub(_CONTROL, " ", text))
    shown = text if len(text) <= 40 else text[:37] + "..."
    stripped = text.strip()
    if not stripped:
        raise QueryError('empty query; give one or more words, a "phrase" or a rule number')
    if len(stripped) > MAX_QUERY_CHARS:
        raise QueryError(
            f"query {shown!r} is {len(stripped)} characters long; "
            f"keep it under {MAX_QUERY_CHARS} (a few words or a phrase)"
        )
    if stripped.count('"') % 2:
        raise QueryError(f'query {shown!r} has an unbalanced quote; close the phrase with "')
    if stripped.count("(") != stripped.count(")"):
        raise QueryError(
            f"query {shown!r} has unbalanced parentheses; close each ( with ) or leave them out"
        )
    words = [t for t in TOKEN.findall(stripped) if t not in "()"]
    if not any(re.search(r"\w", t) for t in words):
        raise QueryError(
            f"query {shown!r} has no words to search for; '*' and symbols alone match nothing"
        )
    if all(t in OPERATORS for t in words):
        raise QueryError(f"query {shown!r} is only operators; give words around AND/OR/NOT")
    if ":" in stripped and (field := re.search(_FILTER_AS_WORD, stripped, re.IGNORECASE)):
        name, value = field[1].lower(), field[2]
        raise QueryError(
            f"query {shown!r}: {field[0]!r} is not query syntax; filter with the option "
            f"instead: --{name} {value}"
        )
    if (
        any(c.isdigit() for c in stripped)
        and re.fullmatch(_NUMBER_ASKED, stripped, re.IGNORECASE)
        and as_number(stripped) is None
    ):
        # "rule 9999" asks for a rule: searched as words it found 732.1c by "rule".
        raise QueryError(
            f"query {shown!r} names no rule number; write one like 205, 205.4 or 205.4d"
        )
    if words[0] in {"NOT", "ANDNOT"}:
        raise QueryError(
            f"query {shown!r} starts with NOT; say first what to search for, "
            "e.g. 'leggendario NOT mondo'"
        )
    return stripped


Translations = Callable[[str], set[tuple[str, str]]]  # word or phrase -> {(language, term)}


def runs(words: Sequence[str], sizes: Iterable[int]) -> Iterator[tuple[int, list[str]]]:
    """(size, the words) of every run of consecutive words of these sizes, in order of size:
    where a query's words may name a term together ("legame vitale", "punti vita")."""
    for size in sizes:
        for start in range(len(words) - size + 1):
            yield size, list(words[start : start + size])

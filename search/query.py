"""User query text to a Whoosh query: validation, rule-number detection, term-base expansion."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from corpus.numbers import RuleNumber

MAX_QUERY_CHARS = 500
OPERATORS = {"AND", "OR", "NOT", "ANDNOT", "ANDMAYBE"}
# Elided articles and prepositions: l'artefatto, dell'abilità, d'artefacts, qu'un.
ELISION = re.compile(r"^(?:l|d|dell|nell|all|dall|sull|un|qu|j|n|s|c|m|t)['’]", re.IGNORECASE)
TOKEN = re.compile(r'"[^"]*"|\(|\)|[^\s()"]+')


class QueryError(ValueError):
    """A query we cannot run; the message names it and says how to fix it."""


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
    """A rule number as people write it ("Rule 205.4D", "regla 205,4d"), or None."""
    rule = RuleNumber.written(text)
    if rule is None:
        return None
    return NumberQuery(rule, alone=rule.depth > 0 and text.rstrip().endswith("."))


_QUESTION_MARKS = re.compile(r"[¿¡]|(?<!\S)[?!]+(?!\S)|(?<=[^\W\d_])[?!]+(?=\s|$)")


def without_question_marks(text: str) -> str:
    """ "¿qué pasa si …?" without its question marks: a '?' that ends a word is punctuation,
    not a wildcard."""
    return _QUESTION_MARKS.sub("", text)


def validate(text: str) -> str:
    shown = text if len(text) <= 40 else text[:37] + "..."
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # bytes the shell passed that are not UTF-8
        shown = text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")[:40]
        raise QueryError(
            f"query {shown!r} is not valid UTF-8; type it again or set a UTF-8 locale"
        ) from None
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
        raise QueryError(f"query {shown!r} has unbalanced parentheses")
    words = [t for t in TOKEN.findall(stripped) if t not in "()"]
    if not any(re.search(r"\w", t) for t in words):
        raise QueryError(
            f"query {shown!r} has no words to search for; '*' and symbols alone match nothing"
        )
    if all(t in OPERATORS for t in words):
        raise QueryError(f"query {shown!r} is only operators; give words around AND/OR/NOT")
    if words[0] in {"NOT", "ANDNOT"}:
        raise QueryError(
            f"query {shown!r} starts with NOT; say first what to search for, "
            "e.g. 'leggendario NOT mondo'"
        )
    return stripped


TRANSLATION_WEIGHT = 0.5  # a word's translations count less than the word as typed
PHRASE_WEIGHT = 2.0  # a multi-word term (tipo di artefatto) is strong evidence


Translations = Callable[[str], set[tuple[str, str]]]  # word or phrase -> {(language, term)}


def word_translations(word: str, translations: Translations) -> list[tuple[str, str]]:
    """A word's one-word translations other than itself, with their language, in order."""
    return sorted(
        (lang, term)
        for lang, term in translations(word)
        if " " not in term and term.lower() != word.lower()
    )


def named_phrases(tokens: list[str], translations: Translations) -> list[tuple[str, str]]:
    """Multi-word terms named by two or three consecutive plain words of the query, with their
    language; none when the query has operators or quotes of its own."""
    if any(t in OPERATORS or t in "()" or t.startswith('"') for t in tokens):
        return []
    found: set[tuple[str, str]] = set()
    tokens = [ELISION.sub("", t) for t in tokens]
    for size in (2, 3):
        for start in range(len(tokens) - size + 1):
            words = " ".join(tokens[start : start + size])
            found.update((lang, term) for lang, term in translations(words) if " " in term)
    return sorted(found)


def expand(text: str, translations: Translations, stop: Callable[[str], bool]) -> str:
    """Whoosh query syntax for a query with operators: each word's translations as weaker
    alternatives, `tierra` -> `(tierra OR land^0.5 OR terra^0.5 ...)`, and the multi-word terms
    that consecutive words name as phrases. (Plain queries are built directly: builder.py.)

    Operators, parentheses and quoted phrases are left as they are; leading or trailing
    operators are dropped so that `OR legendary` still searches; bare stop words go."""
    tokens = TOKEN.findall(text)
    while tokens and tokens[0] in OPERATORS - {"NOT", "ANDNOT"}:
        tokens.pop(0)
    while tokens and tokens[-1] in OPERATORS:
        tokens.pop()
    out: list[str] = []
    for token in tokens:
        if token in OPERATORS or token in "()" or token.startswith('"'):
            out.append(token)
            continue
        bare = ELISION.sub("", token.strip("*?+-"))
        if stop(bare.lower()):
            continue  # a stop word in any language would make every other language miss
        others = sorted({term for _, term in word_translations(bare, translations)})
        weighted = [f"{alt}^{TRANSLATION_WEIGHT}" for alt in others]
        out.append(f"({token} OR {' OR '.join(weighted)})" if weighted else token)
    phrases = sorted({phrase for _, phrase in named_phrases(tokens, translations)})
    if not phrases or not out:
        return " ".join(out)
    quoted = " OR ".join(f'"{p}"^{PHRASE_WEIGHT}' for p in phrases)
    return f"({' '.join(out)}) OR {quoted}"

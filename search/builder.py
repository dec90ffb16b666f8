"""A plain query (words and "quoted phrases") straight to a Whoosh query, without the parser.

Each word is searched as typed in every language's text (its language is not known) and in
the English concepts of the translations; its translations from the term base are searched only
in their own language's text (an English word stemmed as Italian finds nothing, and looking for
it costs as much as looking for a real one). The same for the multi-word terms consecutive
words name, as phrases. Queries with operators, parentheses or wildcards go through Whoosh's
parser instead (Engine.parse)."""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise
from typing import Any

from corpus.languages import LANGUAGES
from indexer.analyzers import analyzer
from indexer.schema import INDEX_LANGS, TERMS_FIELD, text_field
from search.query import (
    ELISION,
    OPERATORS,
    PHRASE_WEIGHT,
    TOKEN,
    TRANSLATION_WEIGHT,
    QueryError,
    Translations,
    named_phrases,
    word_translations,
)


def is_plain(text: str) -> bool:
    """Words and quoted phrases only: no operators, parentheses or wildcards."""
    tokens = TOKEN.findall(text)
    return not any(
        t in OPERATORS or t in "()" or (("*" in t or "?" in t) and not t.startswith('"'))
        for t in tokens
    )


def fields_for(lang: str) -> tuple[str, ...]:
    return (text_field(lang), TERMS_FIELD) if lang == "en" else (text_field(lang),)


# The words of a question, in each language: "how does warp work", "come funziona la
# curvatura", "comment fonctionne", "cómo funciona". They say what is asked, not about what.
QUESTION_WORDS_BY_LANG = {code: lang.question_words for code, lang in LANGUAGES.items()}
QUESTION_WORDS = frozenset().union(*QUESTION_WORDS_BY_LANG.values())


def is_question(text: str) -> bool:
    """Whether a query is asked as a question: it ends with "?" or opens with a question word
    of some language ("how", "come", "comment", "cómo")."""
    tokens = TOKEN.findall(text)
    return text.rstrip().endswith("?") or bool(tokens and tokens[0].lower() in OPENERS)


# The words that open a question in each language (not "can" or "si": "can" opens "can't").
OPENERS = frozenset().union(*(lang.question_openers for lang in LANGUAGES.values()))


def content_tokens(text: str, stop: Callable[[str], bool]) -> list[str]:
    """The query's phrases and content words: stop words and, when there is more, question
    words left out."""
    tokens = [t for t in TOKEN.findall(text) if t.startswith('"') or not _common(t, stop)]
    asked = [t for t in tokens if t.startswith('"') or t.lower() not in QUESTION_WORDS]
    return asked or tokens


def _common(token: str, stop: Callable[[str], bool]) -> bool:
    return stop(ELISION.sub("", token.strip("*?+-")).lower())


def build(
    text: str,
    translations: Translations,
    stop: Callable[[str], bool],
    every_word: bool = True,
    languages: tuple[str, ...] = (),
) -> tuple[Any, list[str]]:
    """The Whoosh query of a plain query, and the words it searches (for highlighting). With
    `every_word` False, any of the words (ranked by how many and how rare). `languages`: the
    query's language when known; its words are then searched as typed in that language's text
    only (French "partie" is not English "party"), and elsewhere through their translations."""
    from whoosh.query import And, Or

    every_field = [f for lang in (languages or INDEX_LANGS) for f in fields_for(lang)]
    if not languages:
        every_field = [text_field(lang) for lang in INDEX_LANGS] + [TERMS_FIELD]
    tokens = content_tokens(text, stop)
    groups = []
    for token in tokens:
        if token.startswith('"'):
            group = [_phrase(field, token.strip('"'), 1.0) for field in every_field]
            groups.append(Or([q for q in group if q is not None]))
            continue
        bare = ELISION.sub("", token.strip("*?+-"))
        if stop(bare.lower()):
            continue  # a stop word in any language would make every other language miss
        alternatives: list[Any] = [_word(field, token, 1.0) for field in every_field]
        for lang, term in word_translations(bare, translations):
            alternatives += [_word(field, term, TRANSLATION_WEIGHT) for field in fields_for(lang)]
        groups.append(Or([q for q in alternatives if q is not None]))
    groups = [g for g in groups if g.subqueries]
    if not groups:
        raise QueryError(f"query {text!r} has only common words (stop words); add a content word")
    query: Any = And(groups) if every_word else Or(groups)
    if not every_word:
        # Words of a question that stand together in a rule ("toughness 0" in 704.5f) say
        # more than the same words apart.
        words = [t for t in tokens if not t.startswith('"')]
        near = [
            _phrase(field, f"{a} {b}", PHRASE_WEIGHT)
            for a, b in pairwise(words)
            for field in every_field
        ]
        if languages and "en" not in languages:
            # The same in English, through the words' translations ("costituzione 0").
            near += [
                _phrase(text_field("en"), f"{x} {y}", PHRASE_WEIGHT * TRANSLATION_WEIGHT)
                for a, b in pairwise(words)
                for x in _english_of(a, translations)
                for y in _english_of(b, translations)
            ]
        query = Or([query, *[p for p in near if p is not None]])
    phrases = [
        _phrase(field, phrase, PHRASE_WEIGHT)
        for lang, phrase in named_phrases(tokens, translations)
        for field in fields_for(lang)
    ]
    if any(phrases):
        query = Or([query, *[p for p in phrases if p is not None]])
    query = query.normalize()
    return query, sorted({word for _, word in query.iter_all_terms() if isinstance(word, str)})


def _english_of(token: str, translations: Translations) -> list[str]:
    """A word's English one-word translations (a number is itself)."""
    if token.isdigit():
        return [token]
    return [term for lang, term in word_translations(token, translations) if lang == "en"][:2]


def _analyze(field: str, text: str) -> list[str]:
    lang = "en" if field == TERMS_FIELD else field.removeprefix("text_")
    return [token.text for token in analyzer(lang)(text)]


def _word(field: str, text: str, boost: float) -> Any:
    """A word in one field: a term, all the terms of a compound (sur-type), or None (a stop
    word there)."""
    from whoosh.query import And, Term

    return _combined(field, text, boost, lambda words: And([Term(field, w) for w in words]))


def _phrase(field: str, text: str, boost: float) -> Any:
    """A phrase in one field (a term when it is one word there), or None."""
    from whoosh.query import Phrase

    return _combined(field, text, boost, lambda words: Phrase(field, words, slop=1))


def _combined(field: str, text: str, boost: float, several: Callable[[list[str]], Any]) -> Any:
    from whoosh.query import Term

    words = _analyze(field, text)
    if not words:
        return None
    query = Term(field, words[0]) if len(words) == 1 else several(words)
    return query.with_boost(boost) if boost != 1.0 else query

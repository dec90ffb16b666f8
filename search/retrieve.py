"""Stage 2, retrieve: the candidates of a parsed query, each a document with its key, language
and score. Lexical candidates come from Whoosh (BM25F per language, search/scoring.py); a
question needs only some of its words, and a query no rule has every word of falls back to
the rules with some of them, saying which words were found nowhere."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from corpus.mechanics import result_key
from search import builder
from search.parse import Query
from search.query import QueryError, Translations


@dataclass(frozen=True)
class Candidate:
    """One indexed version that matched, as the rank stage takes it."""

    docnum: int
    key: str  # the key it is shown under (a mechanic's rule under the mechanic)
    lang: str
    score: float


@dataclass(frozen=True)
class Retrieved:
    candidates: tuple[Candidate, ...]  # best first
    matched: frozenset[str]  # the folded, stemmed words searched (for highlighting)
    missing: tuple[str, ...] = ()  # words found nowhere, nor through their translations
    partial: bool = False  # ranked on some of the words: no rule had them all


def lexical(
    searcher: Any,
    columns: tuple[Any, Any],
    query: Query,
    translations: Translations,
    *,
    depth: int,
    within: Any = None,
    hidden: set[int] | None = None,
) -> Retrieved:
    """Whoosh's best `depth` documents for the query, among `within` (a filter: a query or a
    set of document numbers) and not `hidden` (document numbers of outdated texts)."""
    whoosh_query, matched = builder.lexical(
        query, translations, searcher.schema, every_word=not query.asked
    )
    hits = searcher.search(whoosh_query, limit=depth, filter=within, mask=hidden or None)
    missing: tuple[str, ...] = ()
    partial = False
    if query.asked:
        missing = not_found(searcher.reader(), query, translations)
        partial = bool(missing)
    elif not hits.top_n and query.plain and len(query.words) > 1:
        # No rule has every word: rules with some of them, ranked by how many and how rare,
        # and which words were found nowhere.
        missing, partial = not_found(searcher.reader(), query, translations), True
        whoosh_query, matched = builder.lexical(
            query, translations, searcher.schema, every_word=False
        )
        hits = searcher.search(whoosh_query, limit=depth, filter=within, mask=hidden or None)
    keys, langs = columns
    candidates = tuple(
        Candidate(docnum, result_key(keys[docnum]), langs[docnum], score)
        for score, docnum in hits.top_n
    )
    return Retrieved(candidates, frozenset(matched), missing, partial)


def not_found(reader: Any, query: Query, translations: Translations) -> tuple[str, ...]:
    """The query's words found nowhere in the index, nor through their translations."""
    return tuple(w for w in query.words if not finds(reader, w, translations, query.languages))


def finds(
    reader: Any, word: str, translations: Translations, languages: tuple[str, ...] = ()
) -> bool:
    try:
        query, _ = builder.build(word, translations, languages=languages)
    except QueryError:
        return False
    # One word's query is an OR of terms and phrases: found when any term is in the index
    # (a phrase's words are, at least). Counting is much quicker than searching.
    return any(reader.doc_frequency(field, text) for field, text in query.iter_all_terms())

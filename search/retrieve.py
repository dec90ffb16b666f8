"""Stage 2, retrieve: the candidates of a parsed query, each a document with its key, language
and score. Lexical candidates come from Whoosh (BM25F per language, search/scoring.py), dense
ones from the multilingual encoder (`dense`, search/meaning.py); a
question needs only some of its words, and a query that few rules or none have every word of
takes the rules with some of them too, saying which words were found nowhere."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from corpus.model.mechanics import result_key
from search import builder
from search.parse import Query, asks
from search.query import QueryError, Translations

# The least cosine similarity a text needs to be a candidate by meaning. Alone (Whoosh found
# none of the words) it must be high: nonsense ("xyzzy plugh") has neighbours at 0.42. Beside
# Whoosh's candidates it can be low: a question and the rule that answers it in another language
# score 0.3 to 0.5 (English to English 0.7), and fusion ranks them, it does not take them all.
DENSE_FLOOR = 0.6
BESIDE_WORDS_FLOOR = 0.25


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


def dense_floor(lexical: Retrieved) -> float:
    """The floor for a query's candidates by meaning, given Whoosh's."""
    return BESIDE_WORDS_FLOOR if lexical.candidates else DENSE_FLOOR


def lexical(
    searcher: Any,
    columns: tuple[Any, Any],
    query: Query,
    translations: Translations,
    *,
    depth: int,
    within: Any = None,
    hidden: set[int] | None = None,
    scanner: Any = None,
    older_edition: bool = False,
) -> Retrieved:
    """Whoosh's best `depth` documents for the query, among `within` (a filter: a query or a
    set of document numbers) and not `hidden` (document numbers of outdated texts); found by
    Whoosh's collector, or by the `scanner` (search/scan.py: the same documents, faster once
    numpy is loaded). `older_edition`: ranked on an edition's texts that the encoder has no
    vectors of (--edition, --all-editions)."""

    def best(whoosh_query: Any) -> list[tuple[float, int]]:
        if scanner is not None:
            return scanner.top(whoosh_query, depth, within, hidden)
        mask = hidden or None
        return searcher.search(whoosh_query, limit=depth, filter=within, mask=mask).top_n

    whoosh_query, matched = builder.lexical(
        query, translations, searcher.schema, every_word=not query.asked
    )
    top = best(whoosh_query)
    missing: tuple[str, ...] = ()
    partial = False
    if query.asked:
        missing = not_found(searcher.reader(), query, translations)
        partial = bool(missing)
    elif (
        query.plain
        and len(query.words) > 1
        and (
            not top
            or ((not is_sentence(query) or older_edition) and _rules(top, columns[0]) < FEW_RULES)
        )
    ):
        # No rule, or too few, has every word: rules with some of them too, ranked by how many
        # and how rare (one with every word scores as it did), and which words were found
        # nowhere. `deathtouch trample` is one rule's list of keyword counters (122.1b); the
        # rules of each keyword that tell how they meet come next. A sentence is left to the
        # encoder, but for an edition it has no vectors of: there, its words are all there is.
        if not top:
            missing, partial = not_found(searcher.reader(), query, translations), True
        whoosh_query, some = builder.lexical(query, translations, searcher.schema, every_word=False)
        top, matched = _every_word_first(top, best(whoosh_query)), [*matched, *some]
    keys, langs = columns
    candidates = tuple(
        Candidate(docnum, result_key(keys[docnum]), langs[docnum], score) for score, docnum in top
    )
    return Retrieved(candidates, frozenset(matched), missing, partial)


FEW_RULES = 3  # rules with every word of a plain query, below which some of the words will do


def _every_word_first(
    every: list[tuple[float, int]], some: list[tuple[float, int]]
) -> list[tuple[float, int]]:
    """The documents with every word, in their order, above those with some of them (a
    document with one rare word many times outscores one with every word)."""
    above = max((score for score, _ in some), default=0.0)
    found = {docnum for _, docnum in every}
    return [(score + above, d) for score, d in every] + [
        (score, d) for score, d in some if d not in found
    ]


def _rules(top: list[tuple[float, int]], keys: Any) -> int:
    """How many rules the documents found are of (each is in several editions and languages)."""
    return len({keys[docnum] for _, docnum in top})


# Content words from which a query is a sentence rather than a term or two, even unasked
# ("cosa succede se pesco da un grimorio vuoto"): its meaning is more than its words.
SENTENCE_WORDS = 3


def is_sentence(query: Query) -> bool:
    """A question, or a sentence of SENTENCE_WORDS content words or more: asked of the encoder,
    and about the keywords it mentions (Engine._keyword_sections)."""
    return query.plain and (query.asked or len(query.words) >= SENTENCE_WORDS)


def wants_meaning(query: Query, lexical: Retrieved) -> bool:
    """Whether to ask the encoder too: for a question or a sentence (its words are not its
    meaning), and for words Whoosh found nothing for ("evocare", "follia": keyword names the
    term base lacks). A term or two that words find is answered by them: the encoder, asked
    too, put other rules above the section a term names (eval/judges-queries.tsv's terms:
    hit@3 0.95 -> 0.91)."""
    return is_sentence(query) or (query.plain and not lexical.candidates)


def dense(
    meaning: Any,
    query: Query,
    keys: Any,
    *,
    depth: int,
    langs: Sequence[str] = (),
    allowed: set[int] | None = None,
    floor: float = DENSE_FLOOR,
) -> tuple[Candidate, ...]:
    """The encoder's nearest texts to a plain query (search/meaning.py), as candidates under
    their current keys (`keys`, by document number: the vectors keep the key each text was
    indexed with, its rule's origin, which a renumbering has since renamed): only those of
    `langs` (all when empty) and of the `allowed` documents (all when None), and none less
    similar than `floor` (below it a query of nonsense words still has neighbours)."""
    if not query.plain:
        return ()  # NOT, OR and wildcards mean nothing to an encoder
    hits = meaning.nearest(query.meant or query.text, limit=depth, langs=set(langs) or None)
    return tuple(
        Candidate(hit.docnum, result_key(keys[hit.docnum]), hit.lang, hit.score)
        for hit in hits
        if hit.score >= floor and (allowed is None or hit.docnum in allowed)
    )


def not_found(reader: Any, query: Query, translations: Translations) -> tuple[str, ...]:
    """The query's words found nowhere in the index, nor through their translations, nor
    through a term they name with the words beside them."""
    in_terms = builder.words_of_terms(list(query.words), translations)
    return tuple(
        w
        for w in query.words
        if w not in in_terms
        # "compétitif", "penalità": understood (they choose the judge documents), not missing
        and not asks(w)
        and not finds(reader, w, translations, query.languages, w in query.english)
    )


def finds(
    reader: Any,
    word: str,
    translations: Translations,
    languages: tuple[str, ...] = (),
    english: bool = False,
) -> bool:
    try:
        query, _ = builder.build(
            word, translations, languages=languages, english=[word] if english else []
        )
    except QueryError:
        return False
    # One word's query is an OR of terms and phrases: found when any term is in the index
    # (a phrase's words are, at least). Counting is much quicker than searching.
    return any(reader.doc_frequency(field, text) for field, text in query.iter_all_terms())

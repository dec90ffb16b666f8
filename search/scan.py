"""Whoosh's best documents for a query, scored a whole posting list at a time.

Whoosh's collector walks a query's matcher tree one document at a time, in Python: a question
of eight words is some thirty terms and phrases across the languages, matching thousands of
documents, and walking them cost 100 to 700 ms a query. Here the query is evaluated bottom up
over arrays, one slot per document of a segment, in the shape Whoosh would give its matcher
(that shape decides the order scores are added in): a term's postings are read a block at a
time and scored by its own scorer's formula (search/scoring.py) at once; a union adds its two
sides' arrays, an intersection adds them where both match, an array union adds its parts in
turn, a boost multiplies, a phrase keeps the documents where its words stand one after the
other. Adding 0.0 for a side that does not match leaves a float as it was, so every document's
score is the one Whoosh's walk adds up, to the last bit, and the best `limit` are those its
collector keeps (ties by document number). A query of another kind is made into Whoosh's
matcher and that is evaluated the same way, or walked as the collector walks it.

A term's scored postings are kept between queries (the index of an engine never changes): a
query seen for the first time is mostly words seen before, and the matcher Whoosh would make
of it (a scorer and a posting reader per term) is not made at all."""

from __future__ import annotations

from bisect import insort
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import numpy as np
from whoosh.codec.whoosh3 import LENGTHS_COLUMN, W3LeafMatcher, _lenfield
from whoosh.matching import (
    ArrayUnionMatcher,
    IntersectionMatcher,
    ListMatcher,
    NullMatcherClass,
    UnionMatcher,
    WrappingMatcher,
)
from whoosh.query import And, Or, Phrase, SpanNear2, Term
from whoosh.util.numeric import byte_to_length

from search.scoring import CappedBM25FScorer

Arrays = tuple[Any, Any]  # (matched: bool array, score: float64 array), one slot per document
# A term's document numbers, scores, stored values and the class of its Whoosh matcher.
Postings = tuple[Any, Any, list[bytes], type]
Node = tuple[Any, Any, type]  # a query's arrays and the class of the matcher Whoosh makes of it
# Scored postings kept between queries, some 73 bytes each with their positions: at most 36 MB
# (the 162 queries of eval/judges-queries.tsv keep 112,000 on a full library, 8 MB).
KEPT_POSTINGS = 500_000


class Scanner:
    """The best documents of queries on one searcher, with the terms' scored postings kept."""

    def __init__(self, searcher: Any) -> None:
        self.searcher = searcher
        self._terms: OrderedDict[tuple[int, str, bytes], Postings] = OrderedDict()
        self._kept = 0
        self._lengths: dict[tuple[int, str], Any] = {}
        self._hidden: tuple[set[int], Any] | None = None

    def top(
        self, query: Any, limit: int, within: Any = None, hidden: Any = None
    ) -> list[tuple[float, int]]:
        """(score, document number) of the best `limit` documents, best first, ties in document
        order, as `searcher.search(query, limit=limit, filter=within, mask=hidden).top_n`:
        `within` a Whoosh query or a set of document numbers, `hidden` a set of them."""
        try:
            numbers, scores = self._found(query, self._kept_documents(within, hidden))
        except Unscanned:
            mask = hidden or None
            return list(self.searcher.search(query, limit=limit, filter=within, mask=mask).top_n)
        if not numbers:
            return []
        number = np.concatenate(numbers)
        score = np.concatenate(scores)
        best = np.lexsort((number, -score))[:limit]  # by score, then document number
        return [(float(score[i]), int(number[i])) for i in best]

    def _found(self, query: Any, keep: Any) -> tuple[list[Any], list[Any]]:
        """The documents a query finds among `keep` (all when None), and their scores, by
        segment."""
        numbers, scores = [], []
        for index, (subsearcher, offset) in enumerate(self.searcher.leaf_searchers()):
            size = subsearcher.doc_count_all()
            wanted = None if keep is None else keep[offset : offset + size]
            segment = Segment(index, subsearcher, size, wanted)
            matched, score, _ = self._query(segment, query, self.searcher.context())
            if wanted is not None:
                matched &= wanted
            found = np.flatnonzero(matched)
            numbers.append(found + offset)
            scores.append(score[found])
        return numbers, scores

    def _kept_documents(self, within: Any, hidden: set[int] | None) -> Any:
        """Which documents may be found (a bool array), or None for all of them."""
        size = self.searcher.doc_count_all()
        keep = None
        if within:  # as Whoosh's collector reads it: an empty set filters nothing
            if not isinstance(within, set):
                within = set(self.searcher.docs_for_query(within))
            keep = np.zeros(size, dtype=bool)
            keep[np.fromiter(within, dtype=np.int64, count=len(within))] = True
        if hidden:
            # The outdated texts: the same set for every query of an engine.
            if self._hidden is None or self._hidden[0] is not hidden:
                shown = np.ones(size, dtype=bool)
                shown[np.fromiter(hidden, dtype=np.int64, count=len(hidden))] = False
                self._hidden = hidden, shown
            keep = self._hidden[1] if keep is None else keep & self._hidden[1]
        return keep

    def _query(self, segment: Segment, query: Any, context: Any) -> Node:
        """A query's documents and scores in a segment, and the class of the matcher Whoosh
        would make of it, built as Whoosh builds that matcher (whoosh.query's Term, Phrase,
        And and Or `matcher`) without making one where a term's scored postings are kept:
        Whoosh makes a scorer and a posting reader for every term of every query, a third of a
        question's time."""
        kind = type(query)
        if kind is Or or kind is And:
            return self._compound(segment, query, context)
        if kind is Term and not query.minquality:
            node = self._term_query(segment, query.fieldname, query.text, context)
        elif kind is Phrase and query.slop == 1:
            node = self._phrase(segment, query, context)
        else:
            return self._matched(segment, query.matcher(segment.searcher, context))
        return boosted(node, query.boost) if node[2] is not NullMatcherClass else node

    def _matched(self, segment: Segment, matcher: Any) -> Node:
        return (*self._evaluate(segment, matcher), type(matcher))

    def _compound(self, segment: Segment, query: Any, context: Any) -> Node:
        """An And or an Or: its parts in Whoosh's weighted tree (the rarest first for an OR,
        the commonest for an AND: whoosh.util.make_weighted_tree), each node adding its two
        sides; or, for an OR Whoosh evaluates with an array union (of more than two parts, in a
        segment of at most 5000 documents), its parts added up one after another from 0: that
        matcher, made by Whoosh, reads and scores its first 2048 documents a posting at a time
        before it is asked anything."""
        parts = query.subqueries
        if not parts:
            return empty(segment.size)
        if len(parts) == 1:
            return self._query(segment, parts[0], context)  # Whoosh drops the boost too
        if type(query) is Or and preloaded(query, segment.searcher, context):
            total = np.zeros(segment.size)
            for part in parts:
                score = self._query(segment, part, context)[1]
                total = total + score * query.boost
            return total > 0, total, ArrayUnionMatcher
        if type(query) is Or and (query.scale or query.matcher_type != Or.AUTO_MATCHER):
            return self._matched(segment, query.matcher(segment.searcher, context))
        union = type(query) is Or
        reader = segment.searcher.reader()
        # Whoosh sorts (weight, matcher) pairs and puts each pair it joins back in order
        # (bisect): its matchers compare by their classes (Matcher.__lt__, with Python's
        # preference for a subclass's reflected method), so instances of the same classes,
        # made without their state, sort as its matchers do.
        arrays: dict[int, Arrays] = {}
        pairs = []
        for part in parts:
            matched, score, kind = self._query(segment, part, context)
            token: Any = object.__new__(kind)
            arrays[id(token)] = matched, score
            size = part.estimate_size(reader)
            pairs.append((size if union else 0 - size, token))
        pairs.sort()
        while len(pairs) > 1:
            (a_weight, a), (b_weight, b) = pairs.pop(0), pairs.pop(0)
            (a_matched, a_score), (b_matched, b_score) = arrays.pop(id(a)), arrays.pop(id(b))
            if union:
                joined = a_matched | b_matched, a_score + b_score
            else:
                both = a_matched & b_matched
                joined = both, np.where(both, a_score + b_score, 0.0)
            kind = UnionMatcher if union else IntersectionMatcher
            token = object.__new__(kind)
            arrays[id(token)] = joined
            insort(pairs, (a_weight + b_weight, token))
        matched, score = arrays[id(pairs[0][1])]
        return boosted((matched, score, type(pairs[0][1])), query.boost)

    def _term_query(self, segment: Segment, fieldname: str, text: str, context: Any) -> Node:
        term = self._scored_term(segment, fieldname, text, context)
        if term is None:
            return empty(segment.size)
        ids, scores, _, kind = term
        return (*filled(segment.size, ids, scores), kind)

    def _scored_term(
        self, segment: Segment, fieldname: str, text: str, context: Any
    ) -> Postings | None:
        """A term's documents, scores, stored values (positions; none when it is scored
        otherwise) and matcher class, or None where the segment does not have it
        (whoosh.query.Term.matcher)."""
        searcher = segment.searcher
        if fieldname not in searcher.schema:
            return None
        try:
            word = searcher.schema[fieldname].to_bytes(text)
        except ValueError:
            return None
        key = (segment.index, fieldname, word)
        kept = self._terms.get(key)
        if kept is not None:
            self._terms.move_to_end(key)
            return kept
        if (fieldname, word) not in searcher.reader():
            return None
        matcher = searcher.postings(fieldname, word, weighting=context.weighting)
        if not scanned(matcher):
            return (*walked(matcher), [], type(matcher))
        kept = (*self._read(segment, matcher), type(matcher))
        self._terms[key] = kept
        self._kept += len(kept[0])
        while self._kept > KEPT_POSTINGS and len(self._terms) > 1:
            _, (old, *_) = self._terms.popitem(last=False)
            self._kept -= len(old)
        return kept

    def _evaluate(self, segment: Segment, matcher: Any, advanced: bool = False) -> Arrays:
        """Which documents of a segment a matcher matches, and their scores, as Whoosh's.
        `advanced`: under a matcher that has read some postings of the ones below it already
        (an array union reads its first documents when it is made), so that only the terms,
        read again from their first posting, can be evaluated."""
        kind = type(matcher)
        if kind is UnionMatcher or kind is IntersectionMatcher:
            a_matched, a_score = self._evaluate(segment, matcher.a, advanced)
            b_matched, b_score = self._evaluate(segment, matcher.b, advanced)
            if kind is UnionMatcher:
                return a_matched | b_matched, a_score + b_score
            both = a_matched & b_matched
            return both, np.where(both, a_score + b_score, 0.0)
        if kind is WrappingMatcher:
            matched, score = self._evaluate(segment, matcher.child, advanced)
            return matched, score * matcher.boost
        if kind is ArrayUnionMatcher and matcher._scored:
            # Each document's score is added up in an array, submatcher after submatcher,
            # from 0; a document is matched when its sum is above 0.
            total = np.zeros(segment.size)
            for sub in matcher._submatchers:
                _, score = self._evaluate(segment, sub, advanced=True)
                total = total + score * matcher._boost
            return total > 0, total
        if kind is NullMatcherClass:
            return empty(segment.size)[:2]
        if scanned(matcher):
            ids, values, _ = self._read(segment, matcher)
        elif advanced:
            raise Unscanned(kind.__name__)
        else:
            ids, values = walked(matcher)  # from where it stands: what an intersection needs
        return filled(segment.size, ids, values)

    def _phrase(self, segment: Segment, query: Any, context: Any) -> Node:
        """A phrase's documents, those where its words stand one after the other (slop 1),
        scored as the intersection of its terms that Whoosh's phrase matcher wraps (paired in
        halves: make_binary_tree), unboosted; checked only in documents that can be found."""
        searcher = segment.searcher
        fieldname = query.fieldname
        if fieldname not in searcher.schema:
            return empty(segment.size)
        field = searcher.schema[fieldname]
        if not field.format or not field.format.supports("positions"):
            return self._matched(segment, query.matcher(searcher, context))  # as Whoosh: fails
        terms = []
        for word in query.words:
            try:
                term = self._scored_term(segment, fieldname, field.to_bytes(word), context)
            except ValueError:
                return empty(segment.size)
            if term is None:
                return empty(segment.size)
            if len(term[2]) != len(term[0]):  # scored otherwise: walked by Whoosh
                return self._matched(segment, query.matcher(searcher, context))
            terms.append(term)
        matched, score = in_binary_tree([filled(segment.size, ids, s) for ids, s, *_ in terms])
        if segment.wanted is not None:
            matched &= segment.wanted  # the others are never found: no need to read them
        decode = field.format.decoder("positions")
        for doc in np.flatnonzero(matched):
            starts: set[int] | None = None
            for offset, (ids, _, values, _) in enumerate(terms):
                at = {p - offset for p in decode(values[np.searchsorted(ids, doc)])}
                starts = at if starts is None else starts & at
                if not starts:
                    matched[doc] = False
                    break
        return matched, np.where(matched, score, 0.0), SpanNear2.SpanNear2Matcher

    def _read(self, segment: Segment, matcher: Any) -> tuple[Any, Any, list[bytes]]:
        """A term's documents, scores and stored values, from its first posting."""
        if type(matcher) is ListMatcher:  # a term of one or two documents, inlined
            matcher.reset()
            ids, scores, values = [], [], []
            while matcher.is_active():
                ids.append(matcher.id())
                scores.append(matcher.score())
                values.append(matcher.value())
                matcher.next()
            return np.asarray(ids, dtype=np.int64), np.asarray(scores, dtype=float), values
        ids, weights, values = postings(matcher)
        lengths = self._field_lengths(segment, matcher._term[0])[ids]
        return ids, matcher.scorer.scores(weights, lengths), values

    def _field_lengths(self, segment: Segment, fieldname: str) -> Any:
        """Each document's length of a field in a segment, as the scorer reads it
        (`doc_field_length`): whoosh3 keeps it in a column of one byte per document."""
        key = (segment.index, fieldname)
        if key not in self._lengths:
            self._lengths[key] = field_lengths(segment.searcher.reader(), fieldname, segment.size)
        return self._lengths[key]


@dataclass(frozen=True)
class Segment:
    """One of the index's segments, as a query is evaluated over it."""

    index: int
    searcher: Any
    size: int  # its documents, deleted ones included
    wanted: Any  # the documents that may be found (a bool array), or None for all


def preloaded(query: Any, searcher: Any, context: Any) -> bool:
    """Whether Whoosh's Or matches this query with an array union (whoosh.query.compound's
    Or._matcher, its automatic choice)."""
    if type(query) is not Or or query.matcher_type != Or.AUTO_MATCHER or not context.weighting:
        return False
    parts = len(query.subqueries)
    tree = parts < Or.TOO_MANY_CLAUSES and (
        context.needs_current or query.scale or parts == 2 or searcher.doc_count_all() > 5000
    )
    return parts > 1 and not tree


class Unscanned(Exception):
    """A matcher this module cannot evaluate where it stands: Whoosh's collector runs instead."""


def scanned(matcher: Any) -> bool:
    """A term read here from its first posting: its postings in blocks, scored in arrays, or
    its one or two inlined postings."""
    kind = type(matcher)
    if kind is W3LeafMatcher:
        return type(matcher.scorer) is CappedBM25FScorer
    return kind is ListMatcher and type(matcher._scorer) is CappedBM25FScorer


def empty(size: int) -> Node:
    """Nothing matched (Whoosh's NullMatcher)."""
    return np.zeros(size, dtype=bool), np.zeros(size), NullMatcherClass


def boosted(node: Node, boost: float) -> Node:
    """A boost as Whoosh applies one: a WrappingMatcher multiplying the scores."""
    matched, score, _ = node
    return node if boost == 1.0 else (matched, score * boost, WrappingMatcher)


def filled(size: int, ids: Any, scores: Any) -> Arrays:
    matched = np.zeros(size, dtype=bool)
    score = np.zeros(size)
    matched[ids] = True
    score[ids] = scores
    return matched, score


def in_binary_tree(leaves: list[Arrays]) -> Arrays:
    """The intersection of the leaves, added up as make_binary_tree pairs them (halves)."""
    if len(leaves) == 1:
        return leaves[0]
    half = len(leaves) // 2
    a_matched, a_score = in_binary_tree(leaves[:half])
    b_matched, b_score = in_binary_tree(leaves[half:])
    both = a_matched & b_matched
    return both, np.where(both, a_score + b_score, 0.0)


def field_lengths(reader: Any, fieldname: str, size: int) -> Any:
    """A field's length in each document of a segment, read at once from whoosh3's column of
    length bytes (a document past the column's end has none); one by one on another codec."""
    try:
        column = reader._perdoc._cached_reader(_lenfield(fieldname), LENGTHS_COLUMN)
        if column is None:
            return np.ones(size)  # what doc_field_length says by default
        stored = column._dbfile.get(column._basepos, column._count)
    except AttributeError:
        lengths = [reader.doc_field_length(n, fieldname, 1) or 0 for n in range(size)]
        return np.array(lengths, dtype=float)
    codes = np.zeros(size, dtype=np.uint8)
    codes[: len(stored)] = np.frombuffer(stored, dtype=np.uint8)[:size]
    table = np.array([byte_to_length(code) for code in range(256)], dtype=float)
    return np.where(codes > 0, table[codes], 0.0)  # doc_field_length: None for a 0 byte


def postings(matcher: Any) -> tuple[Any, Any, list[bytes]]:
    """A term's document numbers and weights, read a block at a time (whoosh3's own readers)
    from the first: an intersection has moved its matchers on to the first document they
    share, and what is kept is the whole list."""
    matcher.reset()
    ids: list[Any] = []
    weights: list[Any] = []
    values: list[bytes] = []
    while matcher.is_active():
        matcher._read_ids()
        matcher._read_weights()
        matcher._read_values()
        ids.append(np.asarray(matcher._ids, dtype=np.int64))
        weights.append(np.asarray(matcher._weights, dtype=float))
        values.extend(matcher._values)
        matcher._next_block()
    if not ids:
        return np.zeros(0, dtype=np.int64), np.zeros(0), values
    return np.concatenate(ids), np.concatenate(weights), values


def walked(matcher: Any) -> tuple[Any, Any]:
    """A matcher's documents and scores, walked as Whoosh's collector walks it."""
    ids, scores = [], []
    while matcher.is_active():
        ids.append(matcher.id())
        scores.append(matcher.score())
        matcher.next()
    return np.asarray(ids, dtype=np.int64), np.asarray(scores, dtype=float)

"""Whoosh's matcher trees evaluated in arrays (search/scan.py): the same documents and scores as
Whoosh's collector, to the last bit, for the queries the builder makes."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from search import builder
from search.engine import Engine, Filters
from search.parse import parse
from search.query import QueryError
from search.scan import Scanner

ROOT = Path(__file__).resolve().parent.parent
QUERIES = [
    "legend rule",
    "regola delle leggende",
    "sur-type légendaire",
    "tipos de hechizo",
    '"first strike"',
    "what happens when a creature has 0 toughness",
    "cosa succede se pesco da un grimorio vuoto",
    "comment fonctionne le piétinement",
    "qué pasa si un jugador tiene 0 vidas",
    "ordine APNAP",
    "legendary OR planeswalker",
    "artifact NOT creature",
    "creature type*",
]


def query_file(path: Path) -> list[str]:
    lines = path.read_text("utf-8").splitlines() if path.is_file() else []
    return [line.split("\t")[1] for line in lines if line.strip() and not line.startswith("#")]


def lexical_queries(engine: Engine, texts: list[str]) -> list[object]:
    """The Whoosh queries retrieve.lexical asks: every word required, and some of them."""
    found = []
    for text in texts:
        try:
            query = parse(text, engine)
        except QueryError:
            continue
        if query.number:
            continue
        for every_word in (True, False):
            try:
                whoosh_query, _ = builder.lexical(
                    query, engine.translator(query), engine.searcher.schema, every_word=every_word
                )
            except QueryError:
                continue
            found.append(whoosh_query)
    return found


def assert_alike(engine: Engine, texts: list[str]) -> None:
    scanner = Scanner(engine.searcher)  # one for all: its kept terms must not change a score
    kinds = Filters(kinds=("rule",)).whoosh()
    some = set(range(0, engine.searcher.doc_count_all(), 3))
    ways = [(None, None), (None, engine._outdated), (kinds, None), (some, None)]
    for i, whoosh_query in enumerate(lexical_queries(engine, texts)):
        for within, hidden in ways[i % 2 :: 2]:  # each query two ways, every way half of them
            mask = hidden or None
            expected = engine.searcher.search(whoosh_query, limit=200, filter=within, mask=mask)
            assert scanner.top(whoosh_query, 200, within, hidden) == expected.top_n, whoosh_query


def test_the_scan_finds_the_collectors_documents_and_scores_on_the_seeds(seeds_engine: Engine):
    """On the seeds (small segments: Whoosh sums an OR in an array), every query's best 200
    documents and their scores are the collector's, filtered, masked or not."""
    texts = QUERIES + query_file(ROOT / "eval" / "more-queries.tsv")
    assert_alike(seeds_engine, texts)


@pytest.fixture(scope="module")
def large_segment(shared_data: Path) -> object:
    """A searcher over one in-memory segment of some 6,500 documents: the lines of two English
    editions, and the Italian seed's beside them (past 5000 documents Whoosh adds an OR up in
    a weighted tree of unions, as on a full library, rather than in an array)."""
    from whoosh.filedb.filestore import RamStorage

    from indexer.schema import build_schema
    from search.scoring import PerLanguageBM25F

    editions = sorted((shared_data / "cr" / "en").glob("MagicCompRules-*.txt"))[-2:]
    lines = [line for path in editions for line in path.read_text("utf-8-sig").splitlines()]
    italian = [ROOT / "corpus" / "sources" / name for name in ("000_3f40d4614bb0d7a7.txt",)]
    index = RamStorage().create_index(build_schema())
    with index.writer() as writer:
        for number, line in enumerate(line for line in lines if len(line) > 20):
            writer.add_document(vid=str(number), lang="en", text_en=line, terms=line[:40])
        for path in italian:
            for line in path.read_text("utf-8", errors="replace").splitlines():
                if len(line) > 20:
                    number += 1
                    writer.add_document(vid=str(number), lang="it", text_it=line)
    searcher = index.searcher(weighting=PerLanguageBM25F(B=0.4))
    sizes = [s.doc_count_all() for s, _ in searcher.leaf_searchers()]
    assert max(sizes) > 5000, sizes
    return searcher


@pytest.mark.shared_data
def test_the_scan_finds_the_collectors_documents_and_scores_in_a_large_segment(
    large_segment: Any,
):
    """In a segment of more than 5000 documents (Whoosh's weighted trees of unions and
    intersections, their ties ordered as its matchers compare), the same."""
    scanner = Scanner(large_segment)
    some = set(range(0, large_segment.doc_count_all(), 2))
    texts = QUERIES + query_file(ROOT / "eval" / "more-queries.tsv")
    for i, text in enumerate(texts):
        languages = ("it",) if i % 3 == 0 else ("en",) if i % 3 == 1 else ()
        for every_word in (True, False):
            try:
                query, _ = builder.build(
                    text, lambda word: set(), every_word=every_word, languages=languages
                )
            except QueryError:
                continue
            within = some if i % 2 else None
            expected = large_segment.search(query, limit=200, filter=within)
            assert scanner.top(query, 200, within) == expected.top_n, query


def test_an_engine_answers_alike_from_its_second_search_on(seeds_engine: Engine, tmp_path: Path):
    """The first search of an engine goes through Whoosh's collector, the later ones through the
    scan: a query gets the same outcome either way."""
    engine = Engine(seeds_engine.folder, seeds_engine.english_editions, seeds_engine.home)
    try:
        engine.search("warm up", Filters(), 5)  # its first search
        for text in QUERIES:
            fresh = Engine(seeds_engine.folder, seeds_engine.english_editions, seeds_engine.home)
            try:
                try:
                    expected = fresh.search(text, Filters(), 10)
                except QueryError as error:
                    with pytest.raises(QueryError, match=str(error)[:20]):
                        engine.search(text, Filters(), 10)
                    continue
            finally:
                fresh.close()
            got = engine.search(text, Filters(), 10)
            assert [(r.key, r.score) for r in got.results] == [
                (r.key, r.score) for r in expected.results
            ], text
            assert dataclasses.replace(got, results=[]) == dataclasses.replace(expected, results=[])
    finally:
        engine.close()


def test_a_remembered_answer_is_not_changed_by_what_was_done_with_the_last_one(
    seeds_engine: Engine,
):
    """An engine answers a query asked again from memory: changing a returned outcome's results
    (presenting picks their records and edition) leaves the next answer whole."""
    engine = Engine(seeds_engine.folder, seeds_engine.english_editions, seeds_engine.home)
    try:
        first = engine.search("regola delle leggende", Filters(), 5)
        kept = [(r.key, r.score, list(r.records), r.in_effect) for r in first.results]
        assert kept and all(records for _, _, records, _ in kept)
        for result in first.results:
            result.records.clear()
            result.in_effect = "1999-01-01"
        first.results.clear()
        again = engine.search("regola delle leggende", Filters(), 5)
        assert [(r.key, r.score, r.records, r.in_effect) for r in again.results] == kept
        again.results[0].records.pop()
        third = engine.search("regola delle leggende", Filters(), 5)
        assert [(r.key, r.score, r.records, r.in_effect) for r in third.results] == kept
    finally:
        engine.close()

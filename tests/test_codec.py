"""Our writing codec (indexer/codec.py) writes what Whoosh's own would hold: every term's
postings, every document's field lengths, every block's statistics, and the same scores."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from conftest import SEED_OF_LANG, seed

from corpus.model.text import decode_report
from indexer.schema import build_schema
from indexer.storage import create_index, writer


def _index(folder: Path, ours: bool, procs: int = 1) -> Any:
    """The seeds' lines as documents, one index written by our codec or by Whoosh's."""
    folder.mkdir()
    ix = create_index(folder, build_schema())
    options: dict[str, Any] = {"procs": procs, "multisegment": True} if procs > 1 else {}
    adding = writer(ix, **options) if ours else ix.writer(**options)
    with adding:
        number = 0
        for lang, name in SEED_OF_LANG.items():
            for line in re.split(r"(?<=[.;:])\s+|\n", decode_report(seed(name), name)[0]):
                if len(line) > 10:
                    number += 1
                    boost = 0.6 if number % 5 == 0 else 1.0
                    adding.add_document(
                        _boost=boost,
                        vid=str(number),
                        lang=lang,
                        terms=line[:30],
                        **{f"text_{lang}": line},
                    )
    return ix


def _held(ix: Any) -> tuple[list[Any], list[Any]]:
    """Every posting (field, term, document, weight, positions) and its block's statistics;
    every document's length in each field."""
    postings, lengths = [], []
    with ix.searcher() as searcher:
        reader = searcher.reader()
        for fieldname, term in reader.all_terms():
            matcher = reader.postings(fieldname, term)
            info = reader.term_info(fieldname, term)
            postings.append((fieldname, term, info.doc_frequency(), info.max_weight()))
            postings.append((info.min_length(), info.max_length()))
            while matcher.is_active():
                value = (
                    matcher.value_as("positions")
                    if fieldname.startswith(("text_", "terms"))
                    else None
                )
                postings.append((matcher.id(), matcher.weight(), value))
                matcher.next()
        for docnum in range(reader.doc_count_all()):
            for fieldname in ("text_it", "text_fr", "text_es", "terms", "vid"):
                lengths.append(reader.doc_field_length(docnum, fieldname))
    return postings, lengths


def test_our_codec_writes_what_whooshs_holds(tmp_path: Path):
    """The seeds indexed by both codecs: the same postings, positions, weights, term
    statistics and field lengths, term by term and document by document."""
    theirs = _held(_index(tmp_path / "whoosh", ours=False))
    ours = _held(_index(tmp_path / "ours", ours=True))
    assert ours == theirs
    assert len(ours[0]) > 5_000  # the whole seeds, not a few lines


def test_our_codecs_index_answers_as_whooshs(tmp_path: Path):
    """A search over either index (two writer processes for ours) gives the same documents
    and scores; and ours needs nothing of ours to be read: its segments name Whoosh's codec."""
    from whoosh.codec.whoosh3 import W3Codec
    from whoosh.qparser import MultifieldParser, OrGroup

    theirs = _index(tmp_path / "whoosh", ours=False)
    ours = _index(tmp_path / "ours", ours=True, procs=2)
    assert all(type(s.codec()) is W3Codec for s in ours._segments())
    for text in ("leggendario permanente", "permanent légendaire", "hechizo", '"azione generata"'):
        fields = ["text_it", "text_fr", "text_es", "terms"]
        query = MultifieldParser(fields, build_schema(), group=OrGroup).parse(text)
        assert _scores(ours, query) == _scores(theirs, query) != {}


def _scores(ix: Any, query: Any) -> dict[str, float]:
    """Each document found, by its vid, with its score."""
    with ix.searcher() as searcher:
        vids = searcher.reader().column_reader("vid")
        return {vids[d]: score for d, score in searcher.search(query, limit=None).items()}

"""Term enrichment: the English concepts every record mentions, from the term base.

Then old numberings are aligned to modern keys (corpus/align/alignment.py)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping

from corpus.align.alignment import align_documents
from corpus.model.records import Record
from corpus.terms.termbase import TermBase


def concepts_key(record: Record) -> bytes:
    """What a record's concepts depend on (with one term base): its language, title and text."""
    text = f"{record.lang}\x1f{record.title or ''}\x1f{record.text}"
    return hashlib.blake2b(text.encode("utf-8"), digest_size=12).digest()


def with_terms(
    records: Iterable[Record],
    termbase: TermBase | None = None,
    known: dict[bytes, tuple[str, ...]] | None = None,
) -> list[Record]:
    """Each record with the English concepts it mentions, once per mention (so that the index
    can weigh them), its mechanic's name first. `known`: concepts already found with this term
    base, by `concepts_key` (new ones are added to it)."""
    records = list(records)
    termbase = termbase or TermBase.from_records(records)
    enriched = []
    seen: dict[tuple[str, str | None, str], tuple[str, ...]] = {}  # editions repeat most texts
    for record in records:
        key = (record.lang, record.title, record.text)
        concepts = seen.get(key)
        if concepts is None and known is not None:
            concepts = known.get(concepts_key(record))
        if concepts is None:
            text = f"{record.title or ''} {record.text}"
            concepts = tuple(termbase.concepts_in(text, record.lang))
            if known is not None:
                known[concepts_key(record)] = concepts
        seen[key] = concepts
        if record.align.method == "mechanic":
            concepts = (record.key, *concepts)
        enriched.append(record.but(terms=concepts))
    return enriched


def aligned(
    records: Iterable[Record], forced: Mapping[tuple[str, str], str] | None = None
) -> list[Record]:
    """The hand-off records: English terms, then English keys for old numberings (`forced`:
    the alignment overrides, the embedded ones when not given)."""
    return align_documents(with_terms(records), forced=forced)

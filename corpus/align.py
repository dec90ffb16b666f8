"""Cross-document enrichment: English terms for every record from the term base.

(Alignment of old editions to modern keys belongs here too.)"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from corpus.records import Record
from corpus.terms import TermBase


def with_terms(records: Iterable[Record], termbase: TermBase | None = None) -> list[Record]:
    """Each record with the English concepts it mentions (its mechanic's name first)."""
    records = list(records)
    termbase = termbase or TermBase.from_records(records)
    enriched = []
    for record in records:
        concepts = termbase.concepts_in(f"{record.title or ''} {record.text}", record.lang)
        if record.align.method == "mechanic":
            concepts.insert(0, record.key)
        enriched.append(replace(record, terms=tuple(dict.fromkeys(concepts))))
    return enriched

"""Records to versions: each distinct text of a record, once, with every edition and source
that carries it. The 29 English editions repeat most of their 114,000 records; a version is
indexed once and its editions are kept beside the index (indexer/sidestore.py)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass

from corpus.records import Record


def _identity(record: Record) -> tuple[str, ...]:
    """What makes two records one version: the same text under the same key and number."""
    r = record
    return (r.lang, r.key, r.number or "", r.kind, r.parent or "", r.text, str(r.inferred))


def version_id(record: Record) -> str:
    return hashlib.sha1("\x1f".join(_identity(record)).encode("utf-8")).hexdigest()[:20]


@dataclass(frozen=True)
class Version:
    """One distinct text of one record, and every edition and source that carries it."""

    vid: str
    record: Record  # the first of its records in library order
    editions: tuple[str, ...]
    sources: tuple[str, ...]


def versions(records: Iterable[Record]) -> list[Version]:
    # Grouped by the identity itself, hashed once per distinct version: the 29 editions repeat
    # most of their 114,000 records.
    grouped: dict[tuple[str, ...], tuple[Record, set[str], set[str]]] = {}
    for record in records:
        identity = _identity(record)
        if identity not in grouped:
            grouped[identity] = (record, set(), set())
        _, editions, sources = grouped[identity]
        if record.edition:
            editions.add(record.edition)
        sources.add(record.source)
    return [
        Version(version_id(r), r, tuple(sorted(e)), tuple(sorted(s)))
        for r, e, s in grouped.values()
    ]

"""Records to versions: each distinct text of a record, once, with every edition and source
that carries it. The 29 English editions repeat most of their 114,000 records; a version is
indexed once and its editions are kept beside the index (indexer/sidestore.py)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass

from corpus.align.identity import Identity
from corpus.model.records import Record


def hashed(identity: tuple[str, ...]) -> str:
    return hashlib.sha1("\x1f".join(identity).encode("utf-8")).hexdigest()[:20]


def _identity(record: Record, origin: str) -> tuple[str, ...]:
    """What makes two records one version: the same text of the same rule (by its origin,
    which a renumbering does not change: corpus/align/identity.py) and number."""
    r = record
    return (r.lang, origin, r.number or "", r.kind, r.parent or "", r.text, str(r.inferred))


@dataclass(frozen=True)
class Version:
    """One distinct text of one record, and every edition and source that carries it."""

    vid: str
    record: Record  # the first of its records in library order
    editions: tuple[str, ...]
    sources: tuple[str, ...]
    origin: str  # the key Whoosh keeps: the rule's origin (its current key: record.key)


def versions(records: Iterable[Record], rules: Identity | None = None) -> list[Version]:
    """`rules`: the rules' identity, for their origins (without it, a key is its origin)."""
    origin = rules.origin if rules is not None else (lambda key: key)
    # Grouped by the identity itself, hashed once per distinct version: the 29 editions repeat
    # most of their 114,000 records.
    grouped: dict[tuple[str, ...], tuple[Record, set[str], set[str]]] = {}
    for record in records:
        identity = _identity(record, origin(record.key))
        if identity not in grouped:
            grouped[identity] = (record, set(), set())
        _, editions, sources = grouped[identity]
        if record.edition:
            editions.add(record.edition)
        sources.add(record.source)
    return [
        Version(hashed(identity), r, tuple(sorted(e)), tuple(sorted(s)), identity[1])
        for identity, (r, e, s) in grouped.items()
    ]

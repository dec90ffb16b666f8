"""What a build keeps beside its index so that the next one can add an edition without
re-reading the library: the translations, the English rules the term base pairs them with,
where each document's lines are in records.jsonl, and the vocabulary's counts."""

from __future__ import annotations

import os
import pickle
import zlib
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import groupby
from pathlib import Path

from corpus import paths
from corpus.align.identity import Identity
from corpus.model.records import Record, record_json
from corpus.paths import STATE


@dataclass
class BuildState:
    translated_raw: list[Record]  # every non-English record as parsed, in library order
    translated: list[Record]  # the same records as indexed (terms, aligned keys)
    references: list[Record]  # the English editions the translations follow (as parsed)
    english: dict[str, list[str]]  # English edition -> the documents that carry it
    termbase: str  # the JSON of the term base the records' terms came from
    offsets: dict[str, tuple[int, int]] = field(default_factory=dict)  # source -> bytes
    vocabulary: Counter[tuple[str, str]] = field(default_factory=Counter)  # (lang, word)
    checksum: int = 0  # CRC-32 of the records.jsonl this build wrote
    numbers: dict[str, frozenset[str]] = field(default_factory=dict)  # edition -> its numbers
    followed: dict[str, str] = field(default_factory=dict)  # translation -> edition it follows
    # The concepts of every English text indexed, by corpus.terms.enrichment.concepts_key: a new
    # edition repeats most of them.
    english_concepts: dict[bytes, tuple[str, ...]] = field(default_factory=dict)
    identity: Identity = field(default_factory=Identity)  # every rule's chain of numbers

    @property
    def numbered_like(self) -> dict[str, str]:
        """Undated translations (by source) and the edition their numbering follows."""
        return {r.source: r.follows for r in self.translated if r.follows and r.edition is None}

    def save(self, folder: Path) -> None:
        # Streamed to the file: the whole pickle as bytes (10 MB for the full library) was the
        # build's peak memory. The same bytes either way.
        with (folder / STATE).open("wb") as out:
            pickle.dump(self, out, protocol=pickle.HIGHEST_PROTOCOL)

    @classmethod
    def load(cls, folder: Path) -> BuildState | None:
        try:
            state = pickle.loads((folder / STATE).read_bytes())  # written by our own build
        except Exception:  # missing or from older code: the caller builds in full
            return None
        return state if isinstance(state, cls) else None


def chunk(records: Iterable[Record]) -> bytes:
    """One document's lines of records.jsonl."""
    return b"".join(record_json(r) + b"\n" for r in records)


def by_source(records: Iterable[Record]) -> Iterator[tuple[str, list[Record]]]:
    for source, group in groupby(records, key=lambda r: r.source):
        yield source, list(group)


def write_records(home: Path, chunks: Iterable[tuple[str, bytes]], state: BuildState) -> None:
    """records.jsonl from the documents' chunks, in order, noting where each one lies and the
    checksum; written beside it, flushed to the disk, then renamed over it."""
    partial = paths.partial_records_file(home)
    state.offsets = {}
    state.checksum = position = 0
    try:
        with partial.open("wb") as out:
            for source, data in chunks:
                out.write(data)
                state.offsets[source] = (position, len(data))
                state.checksum = zlib.crc32(data, state.checksum)
                position += len(data)
            out.flush()
            os.fsync(out.fileno())
        partial.replace(paths.records_file(home))
    finally:
        partial.unlink(missing_ok=True)

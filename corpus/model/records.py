"""Records and documents: the hand-off between ingestion and indexing, serialized as JSONL."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, fields
from typing import Any, Self, TypeVar

KINDS = ("rule", "example", "note", "reminder", "article", "ruling", "glossary")


LOW_CONFIDENCE = 0.5  # aligned by content below this: shown as uncertain


TYPED = "typed:"  # a flag: the number a catalogue's msgstr prints (Record.flags)


@dataclass(frozen=True)
class Align:
    """How a record's English key was found, and how sure we are."""

    method: str  # "number", "mechanic", "content", "override", "own"
    confidence: float = 1.0


BY_NUMBER = Align("number")  # how most records are keyed: one value, shared (it is frozen)


@dataclass(frozen=True)
class Record:
    lang: str
    source: str
    kind: str
    text: str
    lines: tuple[int, int]
    key: str
    number: str | None = None
    inferred: bool = False
    parent: str | None = None
    edition: str | None = None
    title: str | None = None
    terms: tuple[str, ...] = ()  # English concepts it mentions, once per mention
    align: Align = BY_NUMBER
    seq: int = 0  # position in its document, for a stable order
    follows: str | None = None  # the English edition a translation follows (date or numbering)
    # "translator-note": the text holds a translator's note; "fuzzy": a catalogue's draft
    # against other English than its msgid (its `original` says which); TYPED + a number: the
    # number a catalogue's msgstr prints, unlike its msgid's
    flags: tuple[str, ...] = ()
    penalty: str | None = None  # an IPG infraction's penalty ("Warning", "Game Loss", ...)
    # The English text a translation was made from, when its document says it (a gettext
    # catalogue's msgid); None for every other record.
    original: str | None = None

    def to_dict(self) -> dict[str, Any]:
        # Written out by hand: dataclasses.asdict deep-copies and is ten times slower.
        out: dict[str, Any] = {
            "lang": self.lang,
            "source": self.source,
            "kind": self.kind,
            "text": self.text,
            "lines": list(self.lines),
            "key": self.key,
            "number": self.number,
            "inferred": self.inferred,
            "parent": self.parent,
            "edition": self.edition,
            "title": self.title,
            "terms": list(self.terms),
            "align": {"method": self.align.method, "confidence": self.align.confidence},
            "seq": self.seq,
            "follows": self.follows,
            "flags": list(self.flags),
        }
        if self.penalty:  # only the IPG's infractions have one: other records stay as they were
            out["penalty"] = self.penalty
        if self.original is not None:
            out["original"] = self.original  # only a catalogue's records have one
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Record:
        """A record from its JSON, built without __init__ as StoredRecord.read builds one (a
        frozen dataclass sets each field through object.__setattr__: of the five seconds
        `history` took on a full library's 114,000 records, three); what the JSON leaves out
        reads as the field's default. A field no record has is refused by name."""
        if not data.keys() <= _FIELDS or "lines" not in data:
            return cls(**data)  # the TypeError names what is wrong
        return _filled(object.__new__(cls), data)

    def but(self, **changes: Any) -> Self:
        """A copy with some fields changed. dataclasses.replace re-runs __init__ and costs ten
        times more, which shows over the 114,000 records of a full library."""
        copy = object.__new__(type(self))
        copy.__dict__.update(self.__dict__, **changes)
        return copy


R = TypeVar("R", bound=Record)


def _filled(record: R, data: dict[str, Any]) -> R:
    """A record made without __init__, its fields set from its JSON: the lists as tuples and
    the alignment as one. A field the JSON leaves out (penalty, original) reads as the class's
    default."""
    values = record.__dict__
    values.update(data)
    values["lines"] = tuple(data["lines"])
    values["terms"] = tuple(data.get("terms", ()))
    values["align"] = _align(data.get("align"))
    values["flags"] = tuple(data.get("flags", ()))
    return record


def _align(data: dict[str, Any] | None) -> Align:
    """An alignment read back from JSON; keyed by number (most records) as the one value."""
    if not data or (data.get("method") == "number" and data.get("confidence", 1.0) == 1.0):
        return BY_NUMBER
    return Align(**data)


_FIELDS = frozenset(f.name for f in fields(Record))


@dataclass(frozen=True)
class StoredRecord(Record):
    """A record as the index keeps it: one version of its text, with every edition and every
    document that carries it. What a search, a lookup and the web app show."""

    editions: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()

    @classmethod
    def read(
        cls, data: dict[str, Any], editions: tuple[str, ...], sources: tuple[str, ...]
    ) -> StoredRecord:
        """From a record's JSON (`record_json`) and its memberships. Built without __init__: a
        lookup reads hundreds, a search more."""
        stored = _filled(object.__new__(cls), data)
        stored.__dict__.update(editions=editions, sources=sources)
        return stored

    @property
    def shown_source(self) -> str:
        """The document a record is shown from: for English, the newest edition that carries
        its text; for a translation, the document whose date and followed edition are shown
        beside it (several translations of one language with the same text are one version:
        `sources` lists them all)."""
        if self.lang != "en":
            return self.source
        return (self.sources or (self.source,))[-1]

    def shown_json(self) -> dict[str, Any]:
        """A result's record as `--json` and the web API print it (PRODUCT.md)."""
        out: dict[str, Any] = {
            "lang": self.lang,
            "number": self.number,
            "kind": self.kind,
            "edition": self.edition,
            "source": self.shown_source,
            "text": self.text,
            "align": {"method": self.align.method, "confidence": self.align.confidence},
        }
        if self.inferred:
            out["inferred"] = True
        if self.follows:
            out["follows"] = self.follows  # the English edition this translation follows
        if self.flags:
            out["flags"] = list(self.flags)
        if self.parent:
            out["parent"] = self.parent
        if self.title:
            out["title"] = self.title
        if self.penalty:
            out["penalty"] = self.penalty
        if self.lang != "en" and len(self.sources) > 1:
            # Every translation that carries this text (English's are its span's editions).
            out["sources"] = list(self.sources)
        if len(self.editions) > 1:
            out["editions"] = list(self.editions)
        if self.editions:
            # The span of editions that carry this very text, as the terminal and web show it.
            out["span"] = [self.editions[0], self.editions[-1]]
        return out


@dataclass(frozen=True)
class Dropped:
    """A non-blank source line that is in no record, and why."""

    line: int
    text: str
    reason: str


@dataclass(frozen=True)
class Document:
    source: str
    lang: str
    edition: str | None
    layout: str
    layout_reason: str
    records: tuple[Record, ...]
    dropped: tuple[Dropped, ...]
    warnings: tuple[str, ...] = ()
    metadata: tuple[tuple[str, str], ...] = ()
    sha256: str = ""

    def counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for record in self.records:
            counts[record.kind] = counts.get(record.kind, 0) + 1
        return counts

    def counted(self) -> dict[str, Any]:
        """What it holds, as `sources --json` and `add --json` both name it: `records` (a
        count), `counts` (by kind), `dropped_lines` (a count)."""
        counts = dict(sorted(self.counts().items()))
        return {"records": len(self.records), "counts": counts, "dropped_lines": len(self.dropped)}

    def summary(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "lang": self.lang,
            "edition": self.edition,
            "format": self.layout,
            "format_reason": self.layout_reason,
            **self.counted(),
            "dropped": [asdict(d) for d in self.dropped],
            "warnings": list(self.warnings),
            "metadata": dict(self.metadata),
            "sha256": self.sha256,
        }


def record_json(record: Record) -> bytes:
    """One record as compact UTF-8 JSON: the line format of records.jsonl and the side store.
    orjson, because json.dumps spent a second of every full build on 114,000 records."""
    import orjson

    return orjson.dumps(record.to_dict())


def read_jsonl(
    lines: Iterable[str] | Iterable[bytes], langs: Iterable[str] = ()
) -> Iterator[Record]:
    """Records from JSONL lines; with `langs`, only those languages' (others are not built)."""
    import orjson  # parses a line several times faster than json: 118,000 of them in a library

    wanted = set(langs)
    for line in lines:
        if line.strip():
            data = orjson.loads(line)
            if not wanted or data["lang"] in wanted:
                yield Record.from_dict(data)


def read_all(lines: Iterable[str] | Iterable[bytes], langs: Iterable[str] = ()) -> list[Record]:
    """Every record of JSONL lines (with `langs`, of those languages), read with the cyclic
    garbage collector paused: its passes over the objects already made took two thirds of
    reading a full library's 118,000 records (3.1 s against 0.9 s here)."""
    with collector_paused():
        return list(read_jsonl(lines, langs))


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """No cyclic garbage collection while records are made by the hundred thousand: they hold
    no cycles, and each pass of the collector walks every live object again."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()

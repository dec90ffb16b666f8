"""The library: embedded sources plus documents the user added, parsed (with a cache) in order.

State lives in MTGRULES_HOME (default: the platform's per-user data directory), never in the
source tree."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

from corpus.records import Document, Record

MANIFEST = "manifest.json"


def home() -> Path:
    configured = os.environ.get("MTGRULES_HOME")
    if configured:
        return Path(configured).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("mtgrules", appauthor=False))


def documents_dir() -> Path:
    return home() / "documents"


@dataclass(frozen=True)
class Source:
    name: str
    data: bytes
    hints: dict[str, str]
    embedded: bool

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()


@cache
def code_version() -> str:
    """A hash of the corpus package's code and data: parsed caches are only valid for it."""
    digest = hashlib.sha256()
    root = Path(__file__).parent
    for path in sorted(root.rglob("*")):
        if path.suffix in {".py", ".json"} and "sources" not in path.parts:
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def embedded_sources() -> list[Source]:
    folder = resources.files("corpus").joinpath("sources")
    manifest = json.loads(folder.joinpath(MANIFEST).read_text("utf-8"))
    sources = []
    for entry in sorted(folder.iterdir(), key=lambda p: p.name):
        if entry.name == MANIFEST or not entry.is_file():
            continue
        hints = {k: str(v) for k, v in manifest.get(entry.name, {}).items()}
        sources.append(Source(entry.name, entry.read_bytes(), hints, embedded=True))
    return sources


def user_sources() -> list[Source]:
    folder = documents_dir()
    if not folder.is_dir():
        return []
    return [
        Source(path.name, path.read_bytes(), {}, embedded=False)
        for path in sorted(folder.iterdir())
        if path.is_file() and not path.name.startswith(".")
    ]


def all_sources() -> list[Source]:
    return embedded_sources() + user_sources()


def _cache_path(source: Source) -> Path:
    return home() / "cache" / f"{source.sha256[:32]}-{code_version()}.json"


def write_atomic(path: Path, text: str) -> None:
    """Write beside the target, then rename over it: readers never see half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def parse_source(source: Source) -> Document:
    """Ingest one source, reusing a cached parse of the same bytes and code when there is one."""
    path = _cache_path(source)
    try:
        return Document.from_dict(json.loads(path.read_text("utf-8")))
    except (OSError, ValueError, KeyError, TypeError):
        pass
    from corpus.ingest import ingest_bytes

    document = ingest_bytes(source.data, source.name, source.hints)
    with contextlib.suppress(OSError):  # a read-only home still answers, without the cache
        write_atomic(path, json.dumps(document.to_dict(), ensure_ascii=False))
    return document


@dataclass(frozen=True)
class Loaded:
    documents: tuple[Document, ...]
    failures: tuple[str, ...]  # one line per source that could not be ingested


def load() -> Loaded:
    from corpus.ingest import IngestError

    documents, failures = [], []
    for source in all_sources():
        try:
            documents.append(parse_source(source))
        except IngestError as error:
            failures.append(str(error))
    return Loaded(tuple(documents), tuple(failures))


def records(documents: tuple[Document, ...]) -> Iterator[Record]:
    """Every record in a deterministic order: documents by name, records in source order."""
    for document in sorted(documents, key=lambda d: d.source):
        yield from document.records


@dataclass(frozen=True)
class Added:
    document: Document
    path: Path | None  # None when the same bytes were already in the library


def add_document(data: bytes, name: str) -> Added:
    """Check a document (IngestError if unusable) and keep it in MTGRULES_HOME/documents."""
    from corpus.ingest import ingest_bytes

    document = ingest_bytes(data, name)
    if document.sha256 in {source.sha256 for source in all_sources()}:
        return Added(document, None)
    target = documents_dir() / name
    if target.exists():
        target = target.with_name(f"{target.stem}-{document.sha256[:8]}{target.suffix}")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
    if target.name == name:
        with contextlib.suppress(OSError):  # warm the parse cache for the next build
            write_atomic(
                _cache_path(Source(name, data, {}, embedded=False)),
                json.dumps(document.to_dict(), ensure_ascii=False),
            )
    return Added(document, target)

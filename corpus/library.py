"""The library: embedded sources plus documents the user added, parsed (with a cache) in order.

State lives in the home each function is given (MTGRULES_HOME, see `corpus.paths`), never in
the source tree."""

from __future__ import annotations

import contextlib
import json
import os
import re
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import cache, cached_property, partial
from pathlib import Path
from typing import Any

from corpus import paths
from corpus.model.documents import doc_of_layout, is_english_edition
from corpus.model.records import Document, Record
from corpus.read.limits import MAX_BYTES, MAX_PDF_BYTES

MANIFEST = "manifest.json"  # of the embedded sources: each one's hints (language, edition)


def _sha256(data: bytes = b"") -> Any:
    """hashlib's SHA-256, imported when first hashed: a command that finds the index fresh
    hashes nothing (indexer/freshness.py) and need not load OpenSSL."""
    import hashlib

    return hashlib.sha256(data)


@dataclass(frozen=True)
class Source:
    name: str
    data: bytes
    hints: dict[str, str]

    @cached_property
    def sha256(self) -> str:
        """Hashed once: a build asks it of every source several times (caches, freshness)."""
        return _sha256(self.data).hexdigest()


@cache
def code_version() -> str:
    """A hash of the corpus package's code and data files (the term base's and the alignment
    overrides' .tsv included): parsed caches and builds are only valid for it."""
    # os.walk, not Path.rglob: every command checks freshness with it, and rglob's Paths (their
    # creation and sorting, .pyc files included) cost a show 10 ms. The files are hashed in the
    # order sorted Paths have: by their parts.
    root = str(Path(__file__).parent)
    found = []
    for folder, folders, files in os.walk(root):
        folders[:] = [f for f in folders if f not in {"sources", "__pycache__"}]
        inside = os.path.relpath(folder, root)
        parts = () if inside == "." else tuple(inside.split(os.sep))
        found += [(*parts, f) for f in files if os.path.splitext(f)[1] in {".py", ".json", ".tsv"}]
    digest = _sha256()
    for parts in sorted(found):
        with open(os.path.join(root, *parts), "rb") as data:
            digest.update(data.read())
    return digest.hexdigest()[:16]


def embedded_sources() -> list[Source]:
    folder = paths.EMBEDDED
    manifest = json.loads(folder.joinpath(MANIFEST).read_text("utf-8"))
    sources = []
    for entry in sorted(folder.iterdir(), key=lambda p: p.name):
        if entry.name == MANIFEST or not entry.is_file():
            continue
        hints = {k: str(v) for k, v in manifest.get(entry.name, {}).items()}
        sources.append(Source(entry.name, entry.read_bytes(), hints))
    return sources


def document_paths(home: Path) -> list[Path]:
    """The added documents, by name. A file put there by hand under a name that is not text
    (bytes of another encoding) is renamed to its stored name first: every name is text."""
    folder = paths.documents(home)
    if not folder.is_dir():
        return []
    found = []
    for path in sorted(folder.iterdir()):
        # A symbolic link is never followed: put there by hand, it could name any file of
        # the machine (/etc/passwd), which would then be read as a document.
        if path.is_symlink() or not path.is_file() or path.name.startswith("."):
            continue
        try:
            path.name.encode("utf-8")
        except UnicodeEncodeError:
            digest = _sha256(path.read_bytes()).hexdigest()
            renamed = path.with_name(stored_name(path.name, digest))
            with contextlib.suppress(OSError):
                path.rename(renamed)
                path = renamed
            if not renamed.exists():
                continue
        found.append(path)
    return sorted(found)


def read_bounded(path: Path) -> bytes:
    """A file's bytes, but never more than one past the limit of its kind: enough to refuse
    it, and `/dev/zero` or an endless pipe is not read to the end of memory."""
    with path.open("rb") as data:
        head = data.read(MAX_BYTES + 1)
        if len(head) > MAX_BYTES and head[:1024].lstrip().startswith(b"%PDF-"):
            head += data.read(MAX_PDF_BYTES + 1 - len(head))
    return head


def user_sources(home: Path) -> list[Source]:
    return [user_source(home, path.name) for path in document_paths(home)]


def user_source(home: Path, name: str) -> Source:
    """One document the user added (OSError if it is gone)."""
    return Source(name, read_bounded(paths.documents(home) / name), {})


def all_sources(home: Path) -> list[Source]:
    return embedded_sources() + user_sources(home)


def _cache_path(cache: Path, source: Source) -> Path:
    return cache / f"{source.sha256[:32]}-{code_version()}.pickle"


TEMPORARY = ".part-"  # the prefix of every file being written; leftovers are removed


def write_atomic(path: Path, content: str | bytes, durable: bool = True) -> None:
    """Write beside the target, flush it to the disk, then rename over it: after any crash
    the target is whole, old or new, never half written (a full disk included). Derived data
    that is checked when read (the parse cache) need not wait for the disk: `durable=False`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    import tempfile  # 4 ms of every command's start-up, for the few that write

    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=TEMPORARY)
    data = content.encode("utf-8") if isinstance(content, str) else content
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            if durable:
                out.flush()
                os.fsync(out.fileno())
        os.replace(temporary, path)
        if durable:
            sync_folder(path.parent)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def sync_folder(folder: Path) -> None:
    """Flush a folder's entries (a rename) to the disk, where the system allows it."""
    with contextlib.suppress(OSError):
        descriptor = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)


def remove_leftovers(folder: Path, older_than: float = 600.0) -> int:
    """Remove files a killed writer left half written (TEMPORARY, older than `older_than`
    seconds so that a writer at work keeps its own); returns how many."""
    removed = 0
    with contextlib.suppress(OSError):
        for path in folder.iterdir():
            # A time in the future (a clock set back, a copied file) is as stale as an old one.
            stale = abs(time.time() - path.stat().st_mtime) > older_than
            if path.name.startswith((TEMPORARY, ".records.jsonl.tmp")) and stale:
                path.unlink(missing_ok=True)
                removed += 1
    return removed


def stored_name(name: str, digest: str) -> str:
    """The name a document is kept under: its own when that is a plain, visible file name;
    else the start of its hash and a sanitized name (any bytes in, a safe name out)."""
    readable = name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    safe = re.sub(r"[^\w.\-+()]+", "_", readable).strip("._") or "document"
    safe = _cut(safe, NAME_BYTES)
    return safe if safe == name else f"{digest[:8]}-{safe}"


NAME_BYTES = 200  # of a stored name's UTF-8: file systems allow 255 bytes, and a hash may lead


def _cut(name: str, limit: int) -> str:
    """The name cut to `limit` bytes of UTF-8 at a character's end, its extension kept."""
    if len(name.encode("utf-8")) <= limit:
        return name
    stem, dot, suffix = name.rpartition(".")
    suffix = f".{suffix}" if dot and stem and len(suffix) <= 8 else ""
    stem = name[: len(name) - len(suffix)]
    room = limit - len(suffix.encode("utf-8"))
    return stem.encode("utf-8")[:room].decode("utf-8", "ignore") + suffix


# Parses made by a process that must not write the cache (the web app's routes), by cache
# file name: a document that fails, or a new one, is not parsed again at every request.
_MEMO: dict[str, Document | str] = {}
MEMO_SIZE = 64
_MEMO_LOCK = threading.Lock()


def parse_source(home: Path, source: Source, write: bool = True) -> Document:
    """Ingest one source, reusing a cached parse of the same bytes and code when there is one.
    A failure is cached too (its message): a file that took 19 s to refuse is refused at once
    the next time. `write=False`: the cache is only read, and the parse kept in memory."""
    from corpus.read.ingest import IngestError, ingest_bytes

    path = _cache_path(paths.parse_cache(home), source)
    with _MEMO_LOCK:
        cached: object = _MEMO.get(path.name)
    if cached is None:
        import pickle  # only a build parses: a search checks freshness without it

        with contextlib.suppress(Exception):  # no cache, or a damaged one: parse again
            cached = pickle.loads(path.read_bytes())  # our own cache, written below
    if isinstance(cached, Document):
        return cached
    if isinstance(cached, str):
        raise IngestError(cached)
    outcome: Document | str
    try:
        outcome = ingest_bytes(source.data, source.name, source.hints)
    except IngestError as error:
        outcome = str(error)
    if write:
        _cache(home, source, outcome)
    else:
        with _MEMO_LOCK:  # the web app's threads share it
            if len(_MEMO) >= MEMO_SIZE:
                _MEMO.pop(next(iter(_MEMO)))
            _MEMO[path.name] = outcome
    if isinstance(outcome, str):
        raise IngestError(outcome)
    return outcome


def _cache(home: Path, source: Source, outcome: Document | str) -> None:
    """Keep a parse, or a failure's message, for the next build."""
    import pickle

    with contextlib.suppress(OSError):  # a read-only home still answers, without the cache
        data = pickle.dumps(outcome, protocol=pickle.HIGHEST_PROTOCOL)
        path = _cache_path(paths.parse_cache(home), source)
        write_atomic(path, data, durable=False)  # a damaged one is parsed again


@dataclass(frozen=True)
class Loaded:
    documents: tuple[Document, ...]
    failures: tuple[str, ...]  # one line per source that could not be ingested


PARALLEL_FROM = 4  # sources to parse before a second process is worth its start


def load(home: Path, write: bool = True) -> Loaded:
    """Every source parsed (from the cache when it can); many new ones in two processes.
    `write=False`: the parse cache is only read (see `parse_source`)."""
    sources = all_sources(home)
    cache = paths.parse_cache(home)
    fresh = [s for s in sources if not _cache_path(cache, s).exists()]
    parsed: dict[str, Document | str] = {}
    if len(fresh) >= PARALLEL_FROM and write:
        import pickle
        from concurrent.futures import ProcessPoolExecutor

        # The largest first, so that a long PDF is not the last one a process starts; each
        # parse comes back as the bytes its process cached, not pickled a second time.
        fresh.sort(key=lambda s: -len(s.data))
        with ProcessPoolExecutor(max_workers=2) as pool:
            outcomes = pool.map(partial(_parse_to_bytes, cache), fresh)
            for source, outcome in zip(fresh, outcomes, strict=True):
                parsed[source.name] = (
                    pickle.loads(outcome) if isinstance(outcome, bytes) else outcome
                )
    done = [parsed.get(s.name) or _parse_or_error(home, s, write) for s in sources]
    documents = tuple(o for o in done if isinstance(o, Document))
    failures = tuple(o for o in done if isinstance(o, str))
    return Loaded(documents, failures)


def _parse_to_bytes(cache: Path, source: Source) -> bytes | str:
    """In a pool process: the pickled parse (written to the cache too), or the error line."""
    import pickle

    from corpus.read.ingest import IngestError, ingest_bytes

    outcome: Document | str
    try:
        outcome = ingest_bytes(source.data, source.name, source.hints)
    except IngestError as error:
        outcome = str(error)
    data = pickle.dumps(outcome, protocol=pickle.HIGHEST_PROTOCOL)
    with contextlib.suppress(OSError):
        write_atomic(_cache_path(cache, source), data, durable=False)  # damaged: parsed again
    return data if isinstance(outcome, Document) else outcome


def prune_cache(home: Path) -> int:
    """Remove the parses cached by other versions of the code (they are never read again);
    returns how many."""
    folder = paths.parse_cache(home)
    current = f"-{code_version()}.pickle"
    removed = 0
    with contextlib.suppress(OSError):
        for path in folder.iterdir():
            if path.is_file() and not path.name.endswith(current) and not path.name.startswith("."):
                path.unlink(missing_ok=True)
                removed += 1
    return removed


def _parse_or_error(home: Path, source: Source, write: bool = True) -> Document | str:
    from corpus.read.ingest import IngestError

    try:
        return parse_source(home, source, write)
    except IngestError as error:
        return str(error)


def records(documents: tuple[Document, ...]) -> Iterator[Record]:
    """Every record in a deterministic order: documents by name, records in source order."""
    for document in sorted(documents, key=lambda d: d.source):
        yield from document.records


@dataclass(frozen=True)
class Added:
    document: Document | None  # None when the same bytes were already in the library
    path: Path | None
    beside: tuple[str, ...] = ()  # the library's other translations in its language
    same_as: str | None = None  # already there in another encoding: the document kept


def source_state(home: Path, known: dict[str, list[Any]] | None = None) -> dict[str, list[Any]]:
    """name -> [size, mtime_ns, sha256] of every source (embedded/NAME, documents/NAME).
    `known`: an earlier state (the live build's); a file of the same size and time keeps the
    hash it had there instead of being read again."""
    known = known or {}
    state: dict[str, list[Any]] = {}
    for source in embedded_sources():
        state[f"embedded/{source.name}"] = [len(source.data), 0, source.sha256]
    for path in document_paths(home):
        stat = path.stat()
        name = f"documents/{path.name}"
        previous = known.get(name)
        if previous and previous[:2] == [stat.st_size, stat.st_mtime_ns]:
            state[name] = previous
        else:
            digest = _sha256(read_bounded(path)).hexdigest()
            state[name] = [stat.st_size, stat.st_mtime_ns, digest]
    return state


def known_hashes(home: Path, known: dict[str, list[Any]] | None = None) -> set[str]:
    """The SHA-256 of every document in the library (`known`: as in `source_state`)."""
    return {entry[2] for entry in source_state(home, known).values()}


@dataclass(frozen=True)
class Holdings:
    """What `add` checks a new document against: the library's documents by what they are."""

    editions: dict[str, str]  # English CR edition -> the document that carries it
    translations: dict[str, str]  # translated CR document -> its language

    def note(self, document: Document) -> tuple[str, ...]:
        """Count a document in; the library's other translations in its language, when it is
        a translation (what `add` notes beside it)."""
        if is_english_edition(document):
            self.editions.setdefault(str(document.edition), document.source)
            return ()
        if not is_translation(document):
            return ()
        others = tuple(sorted(s for s, lang in self.translations.items() if lang == document.lang))
        self.translations[document.source] = document.lang
        return others


def holdings(
    home: Path,
    english: dict[str, tuple[str, ...]],
    translations: dict[str, str],
    indexed_files: set[str],
) -> Holdings:
    """The library's English editions and translations: the live build's (`english`: edition
    -> its documents, `translations`: document -> language; `indexed_files` the documents it
    read), for the documents still there, and those of the documents added since (read from
    the parse cache `add` warmed)."""
    from corpus.read.ingest import IngestError

    present = {path.name for path in document_paths(home)}
    kept = Holdings(
        {e: s for e, sources in english.items() for s in sources if s in present},
        {s: lang for s, lang in translations.items() if s in present},
    )
    for name in sorted(present - indexed_files):
        try:
            document = parse_source(home, user_source(home, name))
        except (IngestError, OSError):
            continue  # the build reports it
        kept.note(document)
    return kept


def _same_text(home: Path, name: str, document: Document) -> bool:
    """Whether a document of the library has this one's records, text for text (a copy saved
    in another encoding or with other line ends)."""
    from corpus.read.ingest import IngestError

    try:
        kept = parse_source(home, user_source(home, name))
    except (IngestError, OSError):
        return False

    def texts(d: Document) -> list[tuple[str, str, str]]:
        return [(r.key, r.kind, r.text) for r in d.records]

    return texts(kept) == texts(document)


WHOLE_TRANSLATION = 200  # rules: a translated CR (or most of one), not a page or an excerpt


def is_translation(document: Document) -> bool:
    """A whole translated CR (or most of one): what a second of its language is noted beside."""
    rules = sum(1 for r in document.records if r.kind == "rule")
    cr = doc_of_layout(document.layout) == "cr"
    return document.lang != "en" and cr and rules >= WHOLE_TRANSLATION


def add_document(
    home: Path,
    data: bytes,
    name: str,
    known: set[str] | None = None,
    held: Holdings | None = None,
) -> Added:
    """Check a document (IngestError if unusable) and keep it in the home's documents.
    `known`: the hashes already in the library (computed when not given; updated).
    `held`: the library's editions and translations (`holdings`; updated): a second,
    different copy of an English edition is refused, as it would make two texts of one
    edition."""
    from corpus.read.ingest import IngestError, ingest_bytes

    known = known_hashes(home) if known is None else known
    digest = _sha256(data).hexdigest()
    if digest in known:
        return Added(None, None)
    stored = stored_name(name, digest)
    document = ingest_bytes(data, stored)
    edition = str(document.edition)
    if held is not None and is_english_edition(document) and edition in held.editions:
        kept = held.editions[edition]
        if _same_text(home, kept, document):
            return Added(None, None, same_as=kept)  # the same rules in another encoding
        raise IngestError(
            f"{name}: English {edition} is already in the library as {kept}, and this copy "
            f"differs from it; to replace it, `mtgrules remove {kept}` first"
        )
    if held is not None and is_translation(document):
        same_language = sorted(s for s, lang in held.translations.items() if lang == document.lang)
        if kept_copy := next((s for s in same_language if _same_text(home, s, document)), None):
            return Added(None, None, same_as=kept_copy)  # the same translation, re-encoded
    target = _keep_exclusively(paths.documents(home), stored, digest, data)
    known.add(digest)
    beside = held.note(replace(document, source=target.name)) if held is not None else ()
    if target.name == stored:
        _cache(home, Source(stored, data, {}), document)  # warm the parse cache for the next build
    return Added(document, target, beside)


def _keep_exclusively(folder: Path, stored: str, digest: str, data: bytes) -> Path:
    """Write the document beside its place, flush it, then hard-link it under its name, which
    fails when the name is taken: two adds at once of two files of one name never rename one
    over the other. The name taken, the start of the hash tells them apart."""
    import tempfile

    folder.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=TEMPORARY)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        stem, dot, suffix = stored.rpartition(".")
        other = f"{stem}-{digest[:8]}.{suffix}" if dot and stem else f"{stored}-{digest[:8]}"
        for name in (stored, other, f"{digest[:16]}-{stored}"):
            try:
                _link_exclusively(temporary, folder / name, data)
            except FileExistsError:
                continue
            sync_folder(folder)
            return folder / name
        raise FileExistsError(f"{stored} and its hashed names are all taken")
    finally:
        Path(temporary).unlink(missing_ok=True)


def _link_exclusively(temporary: str, target: Path, data: bytes) -> None:
    """Hard-link the written file under `target` (FileExistsError if taken); on a file system
    without hard links, create `target` exclusively and write it there."""
    import errno

    try:
        os.link(temporary, target)
    except FileExistsError:
        raise
    except OSError as error:
        if error.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK):
            raise
        descriptor = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        try:
            with os.fdopen(descriptor, "wb") as out:
                out.write(data)
                out.flush()
                os.fsync(out.fileno())
        except BaseException:
            target.unlink(missing_ok=True)
            raise


class NotInLibrary(LookupError):
    """No document, or more than one, answers to a name or hash; the message says which."""


def find_user_document(home: Path, wanted: str) -> Path:
    """The added document named `wanted` (its file name in the library, or the file name it
    was added from) or whose SHA-256 starts with `wanted` (8 hex digits at least)."""
    folder = paths.documents(home)
    added = (
        sorted(p for p in folder.iterdir() if p.is_file() and not p.is_symlink())
        if folder.is_dir()
        else []
    )
    by_name = [p for p in added if p.name == wanted]
    if by_name:
        return by_name[0]
    digest = wanted.lower()
    if len(digest) >= 8 and all(c in "0123456789abcdef" for c in digest):
        by_hash = [p for p in added if _sha256(read_bounded(p)).hexdigest().startswith(digest)]
        if len(by_hash) == 1:
            return by_hash[0]
        if len(by_hash) > 1:
            names = ", ".join(p.name for p in by_hash)
            raise NotInLibrary(f"{wanted}: the start of several documents' hashes ({names})")
    if any(source.name == wanted for source in embedded_sources()):
        raise NotInLibrary(f"{wanted} is part of the embedded corpus and cannot be removed")
    names = ", ".join(p.name for p in added) or "none"
    raise NotInLibrary(f"no document {wanted!r} in the library; added documents: {names}")


def remove_document(home: Path, wanted: str) -> Path:
    """Delete an added document (NotInLibrary when none answers); its cached parse stays until
    the next full build prunes the cache."""
    path = find_user_document(home, wanted)
    path.unlink()
    return path

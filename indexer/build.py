"""Build the index from the records: one Whoosh document per distinct record version, and the
side store of its record, editions and sources. Builds go to a new folder; CURRENT is swapped
on success."""

from __future__ import annotations

import contextlib
import gc
import hashlib
import os
import re
import shutil
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from corpus.records import Record
from corpus.text import fold
from indexer.freshness import code_stamp, fingerprint, source_state
from indexer.integrity import checksums
from indexer.masks import write_outdated
from indexer.store import (
    TERMBASE,
    TERMBASE_READY,
    VOCABULARY,
    IndexError_,
    build_lock,
    index_root,
    read_current,
    records_path,
    write_current,
)

if TYPE_CHECKING:
    from corpus.library import Loaded

Progress = Callable[[int, int], None]


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


def whoosh_document(version: Version) -> dict[str, Any]:
    """What Whoosh searches and ranks. The record itself, its editions and sources are in the
    side store (indexer/sidestore.py): editions change as they are added."""
    from indexer.schema import TERMS_FIELD, text_field

    record = version.record
    text = (
        f"{record.title} {record.text}"
        if record.title and record.title != record.text
        else record.text
    )
    return {
        # An example or note is evidence for its rule, but weaker than the rule's own text.
        "_boost": 0.6 if record.kind in ("example", "note") else 1.0,
        "key": record.key,
        "lang": record.lang,
        "vid": version.vid,
        "kind": record.kind,
        # An English record's concepts are its own words, already in its text.
        TERMS_FIELD: " ".join(record.terms) if record.lang != "en" else "",
        text_field(record.lang): text,
    }


def write_index(
    records: list[Record], folder: Path, progress: Progress | None = None
) -> list[Version]:
    from whoosh import index

    from indexer import sidestore
    from indexer.schema import build_schema

    folder.mkdir(parents=True, exist_ok=True)
    ix = index.create_in(str(folder), build_schema())
    unique = versions(records)
    # Two processes analyse a large library (the machines have two cores); a small one is not
    # worth the fork.
    parallel = {"procs": 2, "multisegment": True} if len(unique) > PARALLEL_FROM else {}
    with ix.writer(limitmb=128, **parallel) as writer:
        for done, version in enumerate(unique, start=1):
            writer.add_document(**whoosh_document(version))
            if progress and (done % 500 == 0 or done == len(unique)):
                progress(done, len(unique))
    sidestore.write(folder, unique)
    return unique


PARALLEL_FROM = 3000  # distinct versions


_WORD = re.compile(r"[^\W\d_]{3,}")


def vocabulary_counts(unique: Iterable[Version]) -> Counter[str]:
    counts: Counter[str] = Counter()
    for version in unique:
        counts.update(_WORD.findall(fold(version.record.text)))
    return counts


def write_vocabulary(counts: Counter[str], folder: Path) -> None:
    """Every folded word of the texts, most frequent first: the "did you mean" candidates."""
    ordered = sorted((w for w, n in counts.items() if n > 0), key=lambda w: (-counts[w], w))
    (folder / VOCABULARY).write_text("\n".join(ordered), "utf-8")


@dataclass(frozen=True)
class BuildResult:
    folder: Path
    records: int
    versions: int
    failures: tuple[str, ...]
    seconds: float
    built: bool
    added_editions: bool = False  # new English editions added to the live index, not rebuilt


def build(home: Path, *, force: bool = False, progress: Progress | None = None) -> BuildResult:
    """Ingest every source, write records.jsonl (the hand-off), index it aside, then swap.
    When the only change is new English editions, they are added to a copy of the live
    index instead (indexer/incremental.py)."""
    from corpus import library

    started = time.monotonic()
    with build_lock(home), _collector_paused():
        current = read_current(home)
        state = source_state(home, current.get("files") if current else None)
        print_ = fingerprint(state)
        if current and current.get("fingerprint") == print_ and not force:
            live = index_root(home) / current["dir"]
            return BuildResult(live, current["records"], current["versions"], (), 0.0, False)
        if current and not force:
            from indexer.incremental import add_editions

            added = add_editions(home, current, state, print_)
            if added is not None:
                folder, records, count = added
                _remove_stale_builds(home, keep=folder.name)
                return BuildResult(
                    folder,
                    records,
                    count,
                    tuple(current.get("failures", ())),
                    time.monotonic() - started,
                    True,
                    added_editions=True,
                )
        for folder in (home, library.documents_dir(), home / "cache"):
            library.remove_leftovers(folder, older_than=0 if folder == home else 600.0)
        loaded = library.load()
        library.prune_cache()
        folder, records_count, count = _build_in_full(home, loaded, state, print_, progress)
        _remove_stale_builds(home, keep=folder.name)
        return BuildResult(
            folder, records_count, count, loaded.failures, time.monotonic() - started, True
        )


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """No cyclic garbage collection while a build makes its 100,000 records: they hold no
    cycles, and the collector's passes over every live object took a tenth of a full build."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _build_in_full(
    home: Path,
    loaded: Loaded,
    state: dict[str, list[Any]],
    print_: str,
    progress: Progress | None,
) -> tuple[Path, int, int]:
    from corpus import library
    from corpus.alignment import align_documents
    from corpus.enrichment import with_terms
    from corpus.following import edition_numbers, followings
    from corpus.term_learning import learning_records, prepare
    from corpus.terms import TermBase
    from indexer.state import BuildState, by_source, chunk, write_chunks

    raw = list(library.records(loaded.documents))
    follows = followings(raw)
    learning = learning_records(raw, follows)
    prepared = prepare(learning, follows)
    # The learner's aligner is a program of its own: meanwhile the English texts, whose
    # concepts do not depend on what it finds, are read with the English side of the term base.
    with ThreadPoolExecutor(max_workers=1) as pool:
        learned = pool.submit(
            TermBase.from_records, learning, follows, home / "cache" / "terms", prepared
        )
        in_english = iter(
            with_terms([r for r in raw if r.lang == "en"], TermBase.english_side(prepared))
        )
        termbase = learned.result()
    translated = iter(with_terms([r for r in raw if r.lang != "en"], termbase))
    enriched = [next(in_english) if r.lang == "en" else next(translated) for r in raw]
    records = align_documents(enriched, follows)
    translated_raw = [r for r in raw if r.lang != "en"]
    english: dict[str, list[str]] = {}
    for document in sorted(loaded.documents, key=lambda d: d.source):
        if document.lang == "en" and document.edition:
            english.setdefault(document.edition, []).append(document.source)
    saved = BuildState(
        translated_raw=translated_raw,
        translated=[r for r in records if r.lang != "en"],
        references=[r for r in learning if r.lang == "en"],
        english=english,
        termbase=termbase.to_json(),
        numbers=edition_numbers(raw),
        followed={source: f.edition for source, f in follows.items()},
    )
    folder: Path | None = None
    try:
        # The hand-off file is written for inspection and for other tools; the index is
        # built from the very same records, not read back.
        partial = home / ".records.jsonl.tmp"
        try:
            with partial.open("wb") as out:
                write_chunks(((s, chunk(group)) for s, group in by_source(records)), out, saved)
                out.flush()
                os.fsync(out.fileno())
            partial.replace(records_path(home))
        finally:
            partial.unlink(missing_ok=True)
        # A fresh folder every time: the live build is never written into or removed here.
        index_root(home).mkdir(parents=True, exist_ok=True)
        folder = Path(tempfile.mkdtemp(prefix=f"build-{print_[:8]}-", dir=index_root(home)))
        unique = write_index(records, folder, progress)
        write_outdated(folder, sorted(english))
        saved.vocabulary = vocabulary_counts(unique)
        write_vocabulary(saved.vocabulary, folder)
        (folder / TERMBASE).write_text(saved.termbase, "utf-8")  # the one the records used
        (folder / TERMBASE_READY).write_bytes(termbase.to_ready())
        saved.save(folder)
        write_current(
            home,
            {
                "dir": folder.name,
                "fingerprint": print_,
                "code": code_stamp(),
                "files": state,
                "records": len(records),
                "versions": len(unique),
                "failures": list(loaded.failures),
                "english_editions": sorted(english),
                "built": time.strftime("%Y-%m-%dT%H:%M:%S"),
                # What the build wrote, to tell damage from it (indexer/integrity.py).
                "checksums": checksums(folder),
                # The CRC write_chunks took while writing it: not read again.
                "records_checksum": [records_path(home).stat().st_size, saved.checksum],
            },
        )
    except OSError as error:
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)  # never leave half a build behind
        raise cannot_write(home, error) from None
    return folder, len(records), len(unique)


def cannot_write(home: Path, error: OSError) -> IndexError_:
    return IndexError_(
        f"cannot write the index in {home} ({error.strerror}); "
        "free some space or set MTGRULES_HOME to a writable directory"
    )


def _remove_stale_builds(home: Path, keep: str) -> None:
    for path in index_root(home).iterdir():
        if path.is_dir() and path.name != keep:
            shutil.rmtree(path, ignore_errors=True)
